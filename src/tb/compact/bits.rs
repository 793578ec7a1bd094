//! Bits written and read most significant first.

/// Appends codes to a byte buffer, most significant bit first.
#[derive(Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    /// Bits not yet flushed, in the low `pending` bits.
    acc: u64,
    pending: u32,
}

impl BitWriter {
    /// Appends the low `len` bits of `code` (`len` ≤ 32).
    #[inline]
    pub fn write(&mut self, code: u32, len: u8) {
        let len = u32::from(len);
        self.acc = self.acc << len | u64::from(code);
        self.pending += len;
        while self.pending >= 8 {
            self.pending -= 8;
            self.bytes.push((self.acc >> self.pending) as u8);
        }
    }

    /// Bits written so far.
    pub fn bits(&self) -> usize {
        self.bytes.len() * 8 + self.pending as usize
    }

    /// Pads with zero bits to a whole number of bytes and returns them.
    pub fn finish(mut self) -> Vec<u8> {
        if self.pending > 0 {
            self.bytes.push((self.acc << (8 - self.pending)) as u8);
        }
        self.bytes
    }

    /// [`BitWriter::finish`] followed by eight zero bytes, so that
    /// [`peek`] may read a whole word at any bit of the data.
    pub fn finish_padded(self) -> Vec<u8> {
        let mut bytes = self.finish();
        bytes.extend_from_slice(&[0; 8]);
        bytes
    }
}

/// The 64 bits of `bytes` from bit `pos` on (at least 57 of them real, the
/// rest zero); bytes past the end read as zero.
#[inline]
pub fn peek(bytes: &[u8], pos: usize) -> u64 {
    let at = pos >> 3;
    let word = match bytes.get(at..at + 8) {
        Some(eight) => u64::from_be_bytes(eight.try_into().expect("eight bytes")),
        None => {
            let mut eight = [0u8; 8];
            let tail = bytes.get(at..).unwrap_or(&[]);
            eight[..tail.len().min(8)].copy_from_slice(&tail[..tail.len().min(8)]);
            u64::from_be_bytes(eight)
        }
    };
    word << (pos & 7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_bits_read_back() {
        let mut w = BitWriter::default();
        w.write(0b101, 3);
        w.write(0xABCD, 16);
        w.write(1, 1);
        assert_eq!(w.bits(), 20);
        let bytes = w.finish();
        assert_eq!(peek(&bytes, 0) >> 61, 0b101);
        assert_eq!(peek(&bytes, 3) >> 48, 0xABCD);
        assert_eq!(peek(&bytes, 19) >> 63, 1);
        assert_eq!(peek(&bytes, 20), 0);
        assert_eq!(peek(&bytes, 10_000), 0);
    }
}
