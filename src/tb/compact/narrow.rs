//! A compact level decoded into memory at one byte a board, for the
//! search.
//!
//! A level's alphabet is ordered most frequent first, so a board's symbol
//! index fits a byte for all but the rarest entries: the byte holds the
//! index of the first [`ESCAPE`] symbols, and [`ESCAPE`] sends the few
//! other boards to a sorted list of (rank, entry). A probe is one load and
//! a look-up in a table of 255 entries, as fast as a raw table's, in half
//! the memory of the raw pairs.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::level::CompactLevel;
use crate::tb::scratch::Scratch;

/// The byte of a board whose symbol is not among the first 255.
pub const ESCAPE: u8 = u8::MAX;

/// A compact level's entries, a byte a board (see the module's docs).
pub struct NarrowLevel {
    /// Each board's symbol index, or [`ESCAPE`].
    bytes: Scratch,
    /// The entries of the symbols a byte names.
    entries: [u16; ESCAPE as usize],
    /// The ranks of the escaped boards, increasing.
    escaped_ranks: Vec<u64>,
    /// Their entries.
    escaped_entries: Vec<u16>,
}

impl NarrowLevel {
    /// Decodes `level` (whose sections lie in `payload`) whole, its chunks
    /// in parallel; fails only when the memory cannot be mapped.
    pub fn decode(level: &CompactLevel, payload: &[u8]) -> io::Result<NarrowLevel> {
        let decoded = NarrowLevel::decode_while(level, payload, &|| true)?;
        Ok(decoded.expect("never stopped"))
    }

    /// [`NarrowLevel::decode`], asking `keep_going` before each chunk:
    /// `None` once it has said no.
    pub fn decode_while(
        level: &CompactLevel,
        payload: &[u8],
        keep_going: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<Option<NarrowLevel>> {
        let symbols = level.symbols();
        let mut entries = [0u16; ESCAPE as usize];
        for (e, &s) in entries.iter_mut().zip(symbols) {
            *e = s;
        }
        let starts = level.chunk_starts(payload);
        let mut bytes = Scratch::zeroed(level.boards() as usize)?;
        // Split the bytes at each chunk's first board.
        let mut parts: Vec<(usize, &mut [u8])> = Vec::with_capacity(starts.len());
        let mut rest = &mut bytes[..];
        for (i, pair) in starts.windows(2).enumerate() {
            let (head, tail) = rest.split_at_mut((pair[1] - pair[0]) as usize);
            parts.push((i, head));
            rest = tail;
        }
        let stopped = AtomicBool::new(false);
        let escaped: Vec<(u64, u16)> = parts
            .into_par_iter()
            .flat_map_iter(|(i, out)| {
                let mut escaped = Vec::new();
                if stopped.load(Ordering::Relaxed) || !keep_going() {
                    stopped.store(true, Ordering::Relaxed);
                    return escaped;
                }
                let mut at = 0;
                level.decode_chunk_symbols(payload, i, |s| {
                    // Symbol 255 and above: escaped.
                    let byte = u8::try_from(s).unwrap_or(ESCAPE);
                    if byte == ESCAPE {
                        let entry = symbols.get(usize::from(s)).copied().unwrap_or(0);
                        escaped.push((starts[i] + at as u64, entry));
                    }
                    if let Some(b) = out.get_mut(at) {
                        *b = byte;
                    }
                    at += 1;
                });
                escaped
            })
            .collect();
        if stopped.into_inner() {
            return Ok(None);
        }
        let (escaped_ranks, escaped_entries) = escaped.into_iter().unzip();
        Ok(Some(NarrowLevel {
            bytes,
            entries,
            escaped_ranks,
            escaped_entries,
        }))
    }

    /// The entry of rank `r` (below the level's boards), as
    /// [`CompactLevel::entry`] gives it.
    #[inline]
    pub fn entry(&self, r: u64) -> u16 {
        let byte = self.bytes[r as usize];
        match self.entries.get(usize::from(byte)) {
            Some(&entry) => entry,
            None => self.escaped(r),
        }
    }

    /// The entry of an escaped board.
    #[cold]
    fn escaped(&self, r: u64) -> u16 {
        self.escaped_ranks
            .binary_search(&r)
            .map_or(0, |i| self.escaped_entries[i])
    }

    /// The byte a probe of rank `r` reads, for a prefetch.
    #[inline]
    pub fn byte(&self, r: u64) -> Option<&u8> {
        self.bytes.get(r as usize)
    }

    /// The entries of `len` boards from rank `first` on, `width` bytes an
    /// entry as the raw payload lays them out.
    pub fn raw_run(&self, first: u64, len: usize, width: usize, out: &mut Vec<u8>) {
        out.clear();
        for r in first..first + len as u64 {
            let entry = self.entry(r);
            if width == 2 {
                out.extend_from_slice(&entry.to_be_bytes());
            } else {
                out.push(entry as u8);
            }
        }
    }

    /// Folds the raw payload these entries make (`width` bytes an entry)
    /// in runs of 65,536 boards, in parallel: `fold` takes an accumulator
    /// and a run, `reduce` joins two accumulators (rayon joins them in rank
    /// order).
    pub fn fold_raw_runs<T: Send>(
        &self,
        width: usize,
        init: impl Fn() -> T + Sync + Send,
        fold: impl Fn(T, &[u8]) -> T + Sync + Send,
        reduce: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        const RUN: u64 = 1 << 16;
        let boards = self.boards();
        (0..boards.div_ceil(RUN))
            .into_par_iter()
            .fold(&init, |acc, i| {
                let mut run = Vec::with_capacity(RUN as usize * width);
                let first = i * RUN;
                self.raw_run(first, RUN.min(boards - first) as usize, width, &mut run);
                fold(acc, &run)
            })
            .reduce(&init, reduce)
    }

    /// The CRC-32 of the raw payload these entries make (`width` bytes an
    /// entry), as [`checksum`](crate::tb::file::checksum) gives it of that
    /// payload.
    pub fn checksum(&self, width: usize) -> u32 {
        use crate::tb::file::{crc_add, crc_join};
        self.fold_raw_runs(width, crc32fast::Hasher::new, crc_add, crc_join)
            .finalize()
    }

    /// Boards held.
    pub fn boards(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Bytes of memory it takes.
    pub fn memory(&self) -> u64 {
        self.bytes.len() as u64 + 10 * self.escaped_ranks.len() as u64
    }

    /// Boards whose entry is not among the 255 a byte names.
    pub fn escaped_boards(&self) -> usize {
        self.escaped_ranks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Coding, compress};
    use super::*;

    /// An entry of about 600 distinct values, most of them rare, so that
    /// some boards escape.
    fn many(r: u64) -> u16 {
        let h = r.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        let rare = (h & 0xFF) == 0;
        if rare {
            (h >> 8) as u16 % 600
        } else {
            (h >> 8) as u16 % 40 + ((r >> 10) % 3) as u16 * 7
        }
    }

    #[test]
    fn a_narrow_level_reads_what_the_compact_one_reads() {
        let boards = (1u64 << 17) + 123;
        let (info, payload) = compress(boards, Coding::DEFAULT, &many, None).payload();
        let level = CompactLevel::open(&payload, boards, info, None).unwrap();
        let narrow = NarrowLevel::decode(&level, &payload).unwrap();
        assert_eq!(narrow.boards(), boards);
        assert!(narrow.escaped_boards() > 0, "some boards escape");
        assert!(narrow.escaped_boards() < boards as usize / 100);
        for r in 0..boards {
            assert_eq!(narrow.entry(r), many(r), "rank {r}");
        }
        let mut run = Vec::new();
        narrow.raw_run(1000, 5, 2, &mut run);
        let expected: Vec<u8> = (1000..1005).flat_map(|r| many(r).to_be_bytes()).collect();
        assert_eq!(run, expected);
        assert!(narrow.memory() < 2 * boards);
        // Its checksum is the raw payload's, over runs of 65,536 boards
        // and the escaped ones.
        let raw: Vec<u8> = (0..boards).flat_map(|r| many(r).to_be_bytes()).collect();
        assert_eq!(narrow.checksum(2), crate::tb::file::checksum(&raw));
        assert_ne!(narrow.checksum(1), crate::tb::file::checksum(&raw));
        // Told to stop, it gives nothing.
        let stopped = NarrowLevel::decode_while(&level, &payload, &|| false).unwrap();
        assert!(stopped.is_none());
    }
}
