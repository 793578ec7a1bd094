//! Canonical, length-limited Huffman codes: the code lengths from symbol
//! counts, the codes from the lengths, and a table-driven decoder.
//!
//! Codes are written most significant bit first. A context whose data uses
//! one symbol only gets a code of length 0: decoding it reads no bit.

use super::bits::peek;

/// The longest code.
pub const MAX_CODE_LEN: u8 = 15;

/// Bits the decoder's table resolves at once; longer codes take the slow
/// path through the canonical counts.
pub const LOOKUP_BITS: u32 = 10;

/// Symbols a code may have: a table entry holds the symbol in 12 bits.
pub const MAX_SYMBOLS: usize = 1 << 12;

/// Code lengths for symbols with counts `counts`: 0 for a symbol never
/// used, at most [`MAX_CODE_LEN`]; a single used symbol gets length 0.
pub fn code_lengths(counts: &[u64]) -> Vec<u8> {
    let mut lengths = vec![0u8; counts.len()];
    let mut used: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    if used.len() <= 1 {
        return lengths;
    }
    // Plain Huffman depths by repeatedly merging the two lightest nodes.
    let n = used.len();
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(i, &s)| std::cmp::Reverse((counts[s], i)))
        .collect();
    let mut parent = vec![usize::MAX; 2 * n - 1];
    let mut next = n;
    while heap.len() > 1 {
        let std::cmp::Reverse((wa, a)) = heap.pop().expect("two nodes");
        let std::cmp::Reverse((wb, b)) = heap.pop().expect("two nodes");
        parent[a] = next;
        parent[b] = next;
        heap.push(std::cmp::Reverse((wa + wb, next)));
        next += 1;
    }
    let mut depth = vec![0usize; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // Limit the depths: count codes by length, fold the too long ones into
    // the longest allowed length, then lengthen shorter codes until the
    // lengths fit (Kraft's sum exactly 1 again).
    let limit = usize::from(MAX_CODE_LEN);
    let mut per_len = vec![0u64; depth[..n].iter().copied().max().unwrap_or(0).max(limit) + 1];
    for &d in &depth[..n] {
        per_len[d.min(limit)] += 1;
    }
    let kraft =
        |per_len: &[u64]| -> u64 { (1..=limit).map(|l| per_len[l] << (limit - l)).sum::<u64>() };
    let mut total = kraft(&per_len);
    while total > 1 << limit {
        per_len[limit] -= 1;
        for l in (1..limit).rev() {
            if per_len[l] > 0 {
                per_len[l] -= 1;
                per_len[l + 1] += 2;
                break;
            }
        }
        total -= 1;
    }
    // The most frequent symbols take the shortest codes.
    used.sort_by_key(|&s| (std::cmp::Reverse(counts[s]), s));
    let mut symbols = used.into_iter();
    for (l, &count) in per_len.iter().enumerate().take(limit + 1).skip(1) {
        for _ in 0..count {
            let s = symbols.next().expect("one length per used symbol");
            lengths[s] = l as u8;
        }
    }
    lengths
}

/// The canonical codes of `lengths` (0 for a symbol without a code).
pub fn canonical_codes(lengths: &[u8]) -> Vec<u32> {
    let mut codes = vec![0u32; lengths.len()];
    let mut order: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
    order.sort_by_key(|&s| (lengths[s], s));
    let mut code = 0u32;
    let mut len = 0u8;
    for s in order {
        code <<= lengths[s] - len;
        len = lengths[s];
        codes[s] = code;
        code += 1;
    }
    codes
}

/// Whether `lengths` describe a usable code: each at most
/// [`MAX_CODE_LEN`], Kraft's sum at most 1, and at least one symbol with a
/// code unless exactly one symbol is used (all lengths 0).
pub fn lengths_are_valid(lengths: &[u8]) -> bool {
    let limit = u32::from(MAX_CODE_LEN);
    if lengths.iter().any(|&l| l > MAX_CODE_LEN) {
        return false;
    }
    let sum: u64 = lengths
        .iter()
        .filter(|&&l| l > 0)
        .map(|&l| 1u64 << (limit - u32::from(l)))
        .sum();
    sum <= 1 << limit
}

/// A decoder for one code.
#[derive(Clone, Debug)]
pub struct Decoder {
    /// By the next [`LOOKUP_BITS`] bits: the symbol (low 12 bits) and the
    /// code's length (high 4 bits; 0 for a longer code).
    table: Box<[u16]>,
    /// The symbol of a code of one symbol, decoded from no bits.
    single: Option<u16>,
    /// Canonical decoding of the long codes: by length, the first code,
    /// its index in `sorted`, and the number of codes.
    first_code: [u32; MAX_CODE_LEN as usize + 1],
    first_index: [u16; MAX_CODE_LEN as usize + 1],
    count: [u16; MAX_CODE_LEN as usize + 1],
    sorted: Box<[u16]>,
}

impl Decoder {
    /// The decoder of `lengths`, which must satisfy [`lengths_are_valid`]
    /// and have at most [`MAX_SYMBOLS`] entries. `single` is the symbol a
    /// code without lengths decodes to.
    pub fn new(lengths: &[u8], single: u16) -> Decoder {
        debug_assert!(lengths_are_valid(lengths) && lengths.len() <= MAX_SYMBOLS);
        let codes = canonical_codes(lengths);
        let size = 1usize << LOOKUP_BITS;
        let mut table = vec![0u16; size].into_boxed_slice();
        let mut count = [0u16; MAX_CODE_LEN as usize + 1];
        let mut order: Vec<usize> = (0..lengths.len()).filter(|&s| lengths[s] > 0).collect();
        order.sort_by_key(|&s| (lengths[s], s));
        for &s in &order {
            let len = u32::from(lengths[s]);
            count[len as usize] += 1;
            if len <= LOOKUP_BITS {
                let start = (codes[s] << (LOOKUP_BITS - len)) as usize;
                let entry = (len as u16) << 12 | s as u16;
                table[start..start + (1 << (LOOKUP_BITS - len))].fill(entry);
            }
        }
        let mut first_code = [0u32; MAX_CODE_LEN as usize + 1];
        let mut first_index = [0u16; MAX_CODE_LEN as usize + 1];
        let (mut code, mut index) = (0u32, 0u16);
        for len in 1..=MAX_CODE_LEN as usize {
            code <<= 1;
            first_code[len] = code;
            first_index[len] = index;
            code += u32::from(count[len]);
            index += count[len];
        }
        Decoder {
            table,
            single: order.is_empty().then_some(single),
            first_code,
            first_index,
            count,
            sorted: order.iter().map(|&s| s as u16).collect(),
        }
    }

    /// Decodes the symbol at bit `pos` of `bytes` and advances `pos`.
    /// `bytes` must hold 8 bytes past any code it holds. A bit pattern
    /// that is no code (only in damaged data) decodes to symbol 0.
    #[inline]
    pub fn decode(&self, bytes: &[u8], pos: &mut usize) -> u16 {
        if let Some(s) = self.single {
            return s;
        }
        let window = peek(bytes, *pos);
        let entry = self.table[(window >> (64 - LOOKUP_BITS)) as usize];
        let len = entry >> 12;
        if len != 0 {
            *pos += usize::from(len);
            return entry & 0xFFF;
        }
        self.decode_long(window, pos)
    }

    /// The symbols and lengths of the codes of at most `bits` bits, by
    /// their `bits`-bit prefix: `(symbol, length)`, length 0 for a longer
    /// code (or, in a code of one symbol, that symbol from no bits).
    pub fn prefixes(&self, bits: u32) -> Vec<(u16, u8)> {
        let size = 1usize << bits;
        if let Some(s) = self.single {
            return vec![(s, 0); size];
        }
        (0..size)
            .map(|p| {
                let entry = self.table[p << LOOKUP_BITS >> bits];
                let len = u32::from(entry >> 12);
                if len == 0 || len > bits {
                    (0, 0)
                } else {
                    (entry & 0xFFF, len as u8)
                }
            })
            .collect()
    }

    /// Whether the code has one symbol only (decoded from no bits).
    pub fn is_single(&self) -> bool {
        self.single.is_some()
    }

    /// Decodes a code longer than the lookup table resolves, from the 64
    /// bits at the decoding position; `pos` advances past it.
    #[cold]
    pub fn decode_long(&self, window: u64, pos: &mut usize) -> u16 {
        for len in 1..=MAX_CODE_LEN as usize {
            let code = (window >> (64 - len)) as u32;
            let offset = code.wrapping_sub(self.first_code[len]);
            if offset < u32::from(self.count[len]) {
                *pos += len;
                let index = usize::from(self.first_index[len]) + offset as usize;
                return self.sorted.get(index).copied().unwrap_or(0);
            }
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::super::bits::BitWriter;
    use super::*;

    fn round_trip(counts: &[u64], message: &[usize]) {
        let lengths = code_lengths(counts);
        assert!(lengths_are_valid(&lengths), "{lengths:?}");
        let codes = canonical_codes(&lengths);
        let mut w = BitWriter::default();
        for &s in message {
            w.write(codes[s], lengths[s]);
        }
        let bytes = w.finish_padded();
        let decoder = Decoder::new(&lengths, message.first().copied().unwrap_or(0) as u16);
        let mut pos = 0;
        for &s in message {
            assert_eq!(usize::from(decoder.decode(&bytes, &mut pos)), s);
        }
    }

    #[test]
    fn codes_round_trip_and_respect_the_length_limit() {
        // Fibonacci counts make the deepest plain Huffman trees.
        let mut fib = vec![1u64, 1];
        while fib.len() < 40 {
            let k = fib.len();
            fib.push(fib[k - 1] + fib[k - 2]);
        }
        let lengths = code_lengths(&fib);
        assert_eq!(lengths.iter().copied().max(), Some(MAX_CODE_LEN));
        let message: Vec<usize> = (0..40).chain((0..40).rev()).collect();
        round_trip(&fib, &message);
        round_trip(&[0, 5, 0, 0], &[1, 1, 1]);
        round_trip(&[3, 1], &[0, 1, 0, 0]);
    }

    #[test]
    fn lengths_follow_the_counts() {
        let lengths = code_lengths(&[50, 25, 12, 13]);
        assert_eq!(lengths, vec![1, 2, 3, 3]);
        assert!(!lengths_are_valid(&[1, 1, 1]));
        assert!(!lengths_are_valid(&[16]));
    }
}
