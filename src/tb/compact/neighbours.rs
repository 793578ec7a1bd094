//! Format version 5's codes by neighbours: a board's code chosen by its
//! class and the entry before, as in version 4, and by the entries of its
//! two neighbours in the index's grid (see [`super::lattice`]).
//!
//! A neighbour is named by its entry when that is one of the level's
//! [`BUCKETS`] most frequent, else as "another entry", or as "none" when the
//! board has no such neighbour or it lies in an earlier block. Each of the
//! version-4 codes (class × entry before) so splits into `WAYS²` *combos*;
//! a combo has a code of its own only where that saves more bits than its
//! description costs in the model, and otherwise uses the version-4 code.
//! A level has tens of thousands of own codes, so the decoder keeps each in
//! two cache lines: a table of its words of up to five bits (most of what
//! it reads: its combo was given a code because it is predictable), and
//! the bounds of its lengths for the longer ones. Version 4's codes are
//! kept the same way, so every board is read alike.

use super::huffman::{self, MAX_CODE_LEN, canonical_codes};
use super::model::{Model, ModelError, START};

/// Entries named one by one when they are a neighbour's.
pub const BUCKETS: usize = 8;

/// The ways a neighbour is named: [`BUCKETS`] entries, the rest, none.
pub const WAYS: usize = BUCKETS + 2;

/// A neighbour that is not there, or not in the block.
pub const NONE: u8 = (BUCKETS + 1) as u8;

/// The most entries a level coded by neighbours has (its decoder keeps
/// symbols a byte each).
pub const MAX_SYMBOLS: usize = 256;

/// A combo without a code of its own.
pub const NO_CODE: u32 = u32::MAX;

/// How a neighbour of entry (symbol) `s` is named.
#[inline]
pub const fn bucket(s: u16) -> u8 {
    if (s as usize) < BUCKETS {
        s as u8
    } else {
        BUCKETS as u8
    }
}

/// The combo of a version-4 code and the neighbours' names.
#[inline]
pub const fn combo(code: usize, up: u8, over: u8) -> usize {
    (code * WAYS + up as usize) * WAYS + over as usize
}

/// A code of its own: the symbols it codes and their lengths (one symbol
/// of length 0 when it codes only one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnCode {
    /// The symbols, ascending.
    pub symbols: Vec<u16>,
    /// Their code lengths.
    pub lengths: Vec<u8>,
}

/// The neighbour part of a version-5 model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbours {
    /// By combo, the index of its own code, or [`NO_CODE`].
    pub own: Vec<u32>,
    /// The own codes.
    pub codes: Vec<OwnCode>,
}

impl Neighbours {
    /// Chooses the combos that get codes of their own, from the counts of
    /// each combo's symbols (`counts[combo × symbols + s]`): a combo gets
    /// one when its Huffman code and its description take fewer bits than
    /// its boards take in the version-4 code of `model`. The start context
    /// of each class keeps version 4's code.
    pub fn fit(model: &Model, counts: &[u64]) -> Neighbours {
        let size = model.symbols.len();
        let combos = model.lengths.len() * WAYS * WAYS;
        assert_eq!(counts.len(), combos * size);
        let mut own = vec![NO_CODE; combos];
        let mut codes = Vec::new();
        for (c, row) in counts.chunks(size).enumerate() {
            let used = row.iter().filter(|&&n| n > 0).count();
            if used == 0 {
                continue;
            }
            let base = c / (WAYS * WAYS);
            // A block's first board keeps version 4's code, which some
            // class has for every entry (an own code fitted to a cut of
            // the level into blocks that the final one moves could lack
            // the entry, and no block could start).
            if base % model.contexts() == START {
                continue;
            }
            let base_bits = (0..size).try_fold(0u64, |bits, s| {
                if row[s] == 0 {
                    Some(bits)
                } else if model.codes(base, s) {
                    Some(bits + row[s] * u64::from(model.lengths[base][s]))
                } else {
                    None
                }
            });
            let lengths = huffman::code_lengths(row);
            let own_bits: u64 = row
                .iter()
                .zip(&lengths)
                .map(|(&n, &l)| n * u64::from(l))
                .sum::<u64>()
                + description_bits(size, used);
            if base_bits.is_none_or(|b| own_bits < b) {
                own[c] = codes.len() as u32;
                let symbols: Vec<u16> = (0..size as u16)
                    .filter(|&s| row[usize::from(s)] > 0)
                    .collect();
                let lengths = symbols.iter().map(|&s| lengths[usize::from(s)]).collect();
                codes.push(OwnCode { symbols, lengths });
            }
        }
        Neighbours { own, codes }
    }

    /// The serialised part: [`BUCKETS`] (a byte), the number of own codes
    /// (`u32`), a bit for each combo saying whether it has one, then each
    /// own code as a bit for each symbol of the alphabet (whether it codes
    /// it) and a nibble for the length of each symbol it codes.
    pub fn to_bytes(&self, symbols: usize) -> Vec<u8> {
        let mut out = vec![BUCKETS as u8];
        out.extend_from_slice(&(self.codes.len() as u32).to_le_bytes());
        out.extend(bitmap(self.own.len(), |c| self.own[c] != NO_CODE));
        for code in &self.codes {
            out.extend(bitmap(symbols, |s| {
                code.symbols.binary_search(&(s as u16)).is_ok()
            }));
            for pair in code.lengths.chunks(2) {
                out.push(pair[0] << 4 | pair.get(1).copied().unwrap_or(0));
            }
        }
        out
    }

    /// Reads the part serialised by [`Neighbours::to_bytes`] for `model`,
    /// checking every field; the bytes must end with it.
    pub fn from_bytes(bytes: &[u8], model: &Model) -> Result<Neighbours, ModelError> {
        let truncated = || "model's neighbour codes are truncated".to_string();
        let size = model.symbols.len();
        let combos = model.lengths.len() * WAYS * WAYS;
        if size > MAX_SYMBOLS {
            return Err(format!(
                "model has {size} entries; neighbour codes take at most {MAX_SYMBOLS}"
            ));
        }
        let (&buckets, rest) = bytes.split_first().ok_or_else(truncated)?;
        if usize::from(buckets) != BUCKETS {
            return Err(format!(
                "model names neighbours by {buckets} entries; this build reads {BUCKETS}"
            ));
        }
        let count = rest.get(..4).ok_or_else(truncated)?;
        let count = u32::from_le_bytes(count.try_into().expect("4 bytes")) as usize;
        let mut at = 4;
        let flags = rest
            .get(at..at + combos.div_ceil(8))
            .ok_or_else(truncated)?;
        at += combos.div_ceil(8);
        let mut own = vec![NO_CODE; combos];
        let mut next = 0u32;
        for (c, slot) in own.iter_mut().enumerate() {
            if flags[c / 8] >> (c % 8) & 1 == 1 {
                *slot = next;
                next += 1;
            }
        }
        if next as usize != count || count > combos {
            return Err(format!(
                "model has {count} neighbour codes but marks {next} combos"
            ));
        }
        let mut codes = Vec::with_capacity(count);
        for i in 0..count {
            let present = rest.get(at..at + size.div_ceil(8)).ok_or_else(truncated)?;
            at += size.div_ceil(8);
            let symbols: Vec<u16> = (0..size)
                .filter(|&s| present[s / 8] >> (s % 8) & 1 == 1)
                .map(|s| s as u16)
                .collect();
            let nibbles = rest
                .get(at..at + symbols.len().div_ceil(2))
                .ok_or_else(truncated)?;
            at += symbols.len().div_ceil(2);
            let lengths: Vec<u8> = (0..symbols.len())
                .map(|k| nibbles[k / 2] >> (4 * (1 - k % 2)) & 0xF)
                .collect();
            let valid = match symbols.len() {
                0 => false,
                1 => lengths[0] == 0,
                _ => lengths.iter().all(|&l| l > 0) && huffman::lengths_are_valid(&lengths),
            };
            if !valid {
                return Err(format!("model's neighbour code {i} is not a prefix code"));
            }
            codes.push(OwnCode { symbols, lengths });
        }
        if at != rest.len() {
            return Err(format!(
                "model's neighbour codes take {} bytes, the section has {}",
                at + 1,
                bytes.len()
            ));
        }
        Ok(Neighbours { own, codes })
    }
}

impl OwnCode {
    /// Version 4's code `code` of `model` as an own code: the symbols it
    /// codes and their lengths (its one symbol, of length 0, when it codes
    /// only one).
    pub(super) fn of_model(model: &Model, code: usize) -> OwnCode {
        let lengths = &model.lengths[code];
        if lengths.iter().all(|&l| l == 0) {
            return OwnCode {
                symbols: vec![model.single[code]],
                lengths: vec![0],
            };
        }
        let symbols: Vec<u16> = (0..lengths.len() as u16)
            .filter(|&s| lengths[usize::from(s)] > 0)
            .collect();
        OwnCode {
            lengths: symbols.iter().map(|&s| lengths[usize::from(s)]).collect(),
            symbols,
        }
    }

    /// The canonical word of each of the code's symbols, in the order of
    /// `symbols` (0 for the one symbol of a code of length 0).
    pub(super) fn words(&self) -> Vec<u32> {
        let size = self
            .symbols
            .iter()
            .map(|&s| usize::from(s) + 1)
            .max()
            .unwrap_or(0);
        let mut lengths = vec![0u8; size];
        for (&s, &l) in self.symbols.iter().zip(&self.lengths) {
            lengths[usize::from(s)] = l;
        }
        let canonical = canonical_codes(&lengths);
        self.symbols
            .iter()
            .map(|&s| canonical[usize::from(s)])
            .collect()
    }
}

/// The [`QuickLine`] of `code`: each word of at most [`QUICK_BITS`] bits
/// fills the entries its bits begin (a code of one symbol, of length 0,
/// fills them all).
fn quick_line(code: &OwnCode) -> QuickLine {
    let mut line = QuickLine([0; 1 << QUICK_BITS]);
    for ((&s, &len), word) in code.symbols.iter().zip(&code.lengths).zip(code.words()) {
        if u32::from(len) > QUICK_BITS {
            continue;
        }
        let free = QUICK_BITS - u32::from(len);
        let first = (word as usize) << free;
        // (Only a code that is no prefix code could reach past the end.)
        if let Some(entries) = line.0.get_mut(first..first + (1 << free)) {
            entries.fill(s | u16::from(len + 1) << 8);
        }
    }
    line
}

/// Bits the model takes to describe a code of `used` of `size` symbols.
const fn description_bits(size: usize, used: usize) -> u64 {
    (8 * (size.div_ceil(8) + used.div_ceil(2))) as u64
}

/// `n` flags, eight a byte, the first in the lowest bit.
fn bitmap(n: usize, flag: impl Fn(usize) -> bool) -> Vec<u8> {
    let mut out = vec![0u8; n.div_ceil(8)];
    for i in (0..n).filter(|&i| flag(i)) {
        out[i / 8] |= 1 << (i % 8);
    }
    out
}

/// Symbols of a code held in its cache line (the shortest codes';
/// the rest lie in [`NeighbourCodes::overflow`]).
const INLINE: usize = 32;

/// A code's longer words, in one cache line: its shortest length, for each
/// length the left-justified 16-bit window below which a word has at most
/// that length, and its first symbols in canonical order (by length, then
/// value).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
struct LineCode {
    /// The shortest length (0 for a code of one symbol).
    min_len: u8,
    /// By length 1..=15: the bound (65,536 kept as 0).
    limit: [u16; MAX_CODE_LEN as usize],
    /// The first [`INLINE`] symbols in canonical order.
    inline: [u8; INLINE],
}

const _: () = assert!(std::mem::size_of::<LineCode>() == 64);

/// Bits of the window a [`QuickLine`] is indexed by.
const QUICK_BITS: u32 = 5;

/// A code's words of at most [`QUICK_BITS`] bits, in one cache line:
/// by the window's first [`QUICK_BITS`] bits, the symbol in the low byte
/// and its length plus one in the high byte; 0 where the word is longer
/// (read through the [`LineCode`]).
#[derive(Clone, Debug)]
#[repr(C, align(64))]
struct QuickLine([u16; 1 << QUICK_BITS]);

const _: () = assert!(std::mem::size_of::<QuickLine>() == 64);

/// A code for the decoder in two adjacent cache lines: its short words,
/// then its length bounds and first symbols for the longer ones.
#[derive(Clone, Debug)]
#[repr(C, align(128))]
struct CodeLines {
    quick: QuickLine,
    line: LineCode,
}

const _: () = assert!(std::mem::size_of::<CodeLines>() == 128);

/// The decoder of a level of version 5: every combo's code, its own or its
/// version-4 code, read the same way (so that a board's decoding takes no
/// branch on which kind of code its combo has).
pub struct NeighbourCodes {
    /// By combo, the code it reads: its own, or past the own codes its
    /// version-4 code.
    ids: Box<[u32]>,
    /// The own codes, then version 4's.
    codes: Box<[CodeLines]>,
    /// The symbols of each code past its first [`INLINE`], codes one after
    /// the other.
    overflow: Box<[u8]>,
    /// Where each code's symbols past the inline ones start in `overflow`.
    overflow_at: Box<[u32]>,
    /// How many of `codes` are own codes.
    own_codes: usize,
}

impl NeighbourCodes {
    /// The decoder of `n`'s codes and `model`'s (whose alphabet has at
    /// most 256 symbols and whose codes are prefix codes, as
    /// [`Neighbours::from_bytes`] and [`Model::from_prefix`] check).
    pub fn new(n: &Neighbours, model: &Model) -> NeighbourCodes {
        let own = n.codes.len() as u32;
        let ids = n
            .own
            .iter()
            .enumerate()
            .map(|(c, &o)| {
                if o == NO_CODE {
                    own + (c / (WAYS * WAYS)) as u32
                } else {
                    o
                }
            })
            .collect();
        let v4: Vec<OwnCode> = (0..model.lengths.len())
            .map(|c| OwnCode::of_model(model, c))
            .collect();
        NeighbourCodes::of_codes(ids, n.codes.iter().chain(&v4), n.codes.len())
    }

    /// The decoder reading `codes` by combo as `ids` says, the first
    /// `own_codes` of them own codes.
    fn of_codes<'a>(
        ids: Box<[u32]>,
        codes: impl Iterator<Item = &'a OwnCode>,
        own_codes: usize,
    ) -> NeighbourCodes {
        let mut lines = Vec::new();
        let mut overflow = Vec::new();
        let mut overflow_at = Vec::new();
        for code in codes {
            let mut order: Vec<usize> = (0..code.symbols.len()).collect();
            order.sort_by_key(|&k| (code.lengths[k], code.symbols[k]));
            let sorted: Vec<u8> = order.iter().map(|&k| code.symbols[k] as u8).collect();
            let mut inline = [0u8; INLINE];
            let head = sorted.len().min(INLINE);
            inline[..head].copy_from_slice(&sorted[..head]);
            overflow_at.push(overflow.len() as u32);
            overflow.extend_from_slice(&sorted[head..]);
            let mut count = [0u32; MAX_CODE_LEN as usize + 1];
            for &l in &code.lengths {
                count[usize::from(l).min(MAX_CODE_LEN as usize)] += 1;
            }
            let min_len = code.lengths.iter().copied().min().unwrap_or(0);
            let mut limit = [0u16; MAX_CODE_LEN as usize];
            let mut first = 0u32;
            for len in 1..=usize::from(MAX_CODE_LEN) {
                first = (first << 1) + count[len];
                // Left-justified: at most 1 << 16, which wraps to 0.
                limit[len - 1] = (first << (16 - len)) as u16;
            }
            lines.push(CodeLines {
                quick: quick_line(code),
                line: LineCode {
                    min_len,
                    limit,
                    inline,
                },
            });
        }
        NeighbourCodes {
            ids,
            codes: lines.into_boxed_slice(),
            overflow: overflow.into_boxed_slice(),
            overflow_at: overflow_at.into_boxed_slice(),
            own_codes,
        }
    }

    /// The code a combo reads (code 0 for a combo past the table, which
    /// only damaged class bits name).
    #[inline]
    pub fn id(&self, combo: usize) -> u32 {
        self.ids.get(combo).copied().unwrap_or(0)
    }

    /// The symbol of code `code` at the front of the 16-bit `window`, and
    /// its length. Bits no code starts with read as symbol 0 and 15 bits
    /// (only in damaged data).
    #[inline]
    pub fn decode(&self, code: u32, window: u32) -> (u16, u32) {
        let Some(c) = self.codes.get(code as usize) else {
            return (0, 0);
        };
        let short = c.quick.0[(window >> (16 - QUICK_BITS)) as usize & ((1 << QUICK_BITS) - 1)];
        if short != 0 {
            return (short & 0xFF, u32::from(short >> 8) - 1);
        }
        let c = &c.line;
        // (A code of one symbol always answers from its quick line; this
        // keeps the loop below from a length of 0.)
        if c.min_len == 0 {
            return (u16::from(c.inline[0]), 0);
        }
        // The codes of each length, from the shortest, take the windows
        // from the bound of the length before to their own.
        let (mut below, mut index) = (0u32, 0usize);
        for len in u32::from(c.min_len)..=u32::from(MAX_CODE_LEN) {
            let bound = match c.limit[len as usize - 1] {
                0 => 1 << 16,
                b => u32::from(b),
            };
            if window < bound {
                let at = index + ((window - below) >> (16 - len)) as usize;
                return (self.symbol(code as usize, at), len);
            }
            index += ((bound - below) >> (16 - len)) as usize;
            below = bound;
        }
        (0, u32::from(MAX_CODE_LEN))
    }

    /// Symbol `at` of code `code` in canonical order.
    #[inline]
    fn symbol(&self, code: usize, at: usize) -> u16 {
        if at < INLINE {
            return u16::from(self.codes[code].line.inline[at]);
        }
        let from = self.overflow_at.get(code).copied().unwrap_or(0) as usize;
        u16::from(self.overflow.get(from + at - INLINE).copied().unwrap_or(0))
    }

    /// The number of own codes.
    pub fn codes(&self) -> usize {
        self.own_codes
    }
}

#[cfg(test)]
mod tests {
    use super::super::bits::BitWriter;
    use super::super::lattice::Lattice;
    use super::super::{COMPACT_V4, COMPACT_VERSION, Coding, CompactLevel, compress};
    use super::*;
    use crate::tb::index::Boards;

    /// Level 13's entries made of two kinds of regions (for classes) and a
    /// value of the board's pits 2..11 (which its neighbours share but for
    /// one seed of pit 2).
    fn level_13() -> (Lattice, Vec<u16>) {
        let lattice = Lattice::oware(13);
        let entries = Boards::new(13, 0, lattice.boards())
            .enumerate()
            .map(|(r, b)| {
                let high = b[3..].iter().fold(7u64, |h, &p| h * 31 + u64::from(p));
                let h = (high ^ r as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                // Each region has four entries of its own, half its boards.
                let own = if (r >> 13) % 2 == 0 { 0 } else { 12 };
                let value = if h.is_multiple_of(2) {
                    own + (h >> 1) % 4
                } else {
                    (high % 13 + u64::from(b[2].min(3))) % 16
                };
                value as u16
            })
            .collect();
        (lattice, entries)
    }

    /// A level coded by neighbours decodes to its entries whole, chunk by
    /// chunk and by probes; each block's first rank is found from the
    /// sparse index; the file is smaller than version 4's of the same
    /// entries; and the model's neighbour part survives serialisation
    /// while damage to it is refused.
    #[test]
    fn a_level_coded_by_neighbours_decodes_to_its_entries() {
        let (lattice, entries) = level_13();
        let boards = lattice.boards();
        let entry = |r: u64| entries[r as usize];
        let v5 = compress(boards, Coding::DEFAULT, &entry, Some(lattice));
        let v4 = compress(boards, Coding::DEFAULT, &entry, None);
        assert_eq!((v5.version, v4.version), (COMPACT_VERSION, COMPACT_V4));
        assert!(
            v5.payload_bytes() < v4.payload_bytes(),
            "{} against {}",
            v5.payload_bytes(),
            v4.payload_bytes()
        );
        let (info, payload) = v5.payload();
        assert!(CompactLevel::open(&payload, boards, info, None).is_err());
        assert!(CompactLevel::open(&payload, boards, info, Some(Lattice::oware(12))).is_err());
        let level = CompactLevel::open(&payload, boards, info, Some(lattice)).unwrap();
        assert!(level.classes() > 1);
        let mut out = vec![0u8; 2 * boards as usize];
        level.decode_all(&payload, 2, &mut out);
        let decoded: Vec<u16> = out
            .chunks(2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
            .collect();
        assert!(decoded == entries, "the whole level decodes to its entries");
        for r in (0..boards).step_by(89).chain([boards - 1]) {
            assert_eq!(level.entry(&payload, r), entry(r), "probe of rank {r}");
        }
        let mut start = 0;
        let counts = &v5.counts;
        for (b, &count) in counts.iter().enumerate() {
            if b % 97 == 0 {
                assert_eq!(level.block_start(&payload, b), start, "block {b}");
            }
            start += u64::from(count);
        }
        // In 32-byte blocks too (decoded one block at a time).
        let small = compress(boards, Coding::with_block_bytes(32), &entry, Some(lattice));
        assert_eq!(small.version, COMPACT_VERSION);
        let (info, payload) = small.payload();
        let level = CompactLevel::open(&payload, boards, info, Some(lattice)).unwrap();
        assert!(level.classes() > 1);
        level.decode_all(&payload, 2, &mut out);
        assert!(
            out.chunks(2)
                .map(|b| u16::from_be_bytes([b[0], b[1]]))
                .eq(entries.iter().copied()),
            "32-byte blocks decode to the entries"
        );
        for r in (0..boards).step_by(97) {
            assert_eq!(
                level.entry(&payload, r),
                entry(r),
                "32-byte probe of rank {r}"
            );
        }
        // The neighbour part of the model.
        let (model, used) = Model::from_prefix(&v5.model).unwrap();
        let part = &v5.model[used..];
        let n = Neighbours::from_bytes(part, &model).unwrap();
        assert!(!n.codes.is_empty());
        assert_eq!(n.to_bytes(model.symbols.len()), part);
        assert!(Neighbours::from_bytes(&part[..part.len() - 1], &model).is_err());
        let mut longer = part.to_vec();
        longer.push(0);
        assert!(Neighbours::from_bytes(&longer, &model).is_err());
        let mut buckets = part.to_vec();
        buckets[0] = 4;
        assert!(Neighbours::from_bytes(&buckets, &model).is_err());
        // Every length of the last code set to 1: not a prefix code once
        // it has three symbols or more (its nibbles end the part).
        let last = n.codes.last().unwrap();
        if last.symbols.len() >= 3 {
            let mut bad = part.to_vec();
            let end = bad.len();
            let nibbles = last.symbols.len().div_ceil(2);
            bad[end - nibbles..].fill(0x11);
            assert!(Neighbours::from_bytes(&bad, &model).is_err());
        }
    }

    /// Counts halving from 2^39 down to 1.
    const GEOMETRIC: [u64; 40] = {
        let mut c = [0u64; 40];
        let mut i = 0;
        while i < 40 {
            c[i] = 1 << (39 - i);
            i += 1;
        }
        c
    };

    /// Every own code decodes what its canonical words encode, a code of
    /// one symbol included.
    #[test]
    fn own_codes_decode_what_they_encode() {
        let counts: [&[u64]; 5] = [
            &[5, 0, 1, 1, 40, 2, 0, 9, 1, 1, 1],
            &[0, 0, 7],
            &[1, 1],
            &[
                1000, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
            ],
            // 40 symbols of halving counts: lengths up to 15, and symbols
            // past the 32 a code keeps in its line.
            &GEOMETRIC,
        ];
        assert!(huffman::code_lengths(&GEOMETRIC).contains(&MAX_CODE_LEN));
        for row in counts {
            let lengths = huffman::code_lengths(row);
            let symbols: Vec<u16> = (0..row.len() as u16)
                .filter(|&s| row[usize::from(s)] > 0)
                .collect();
            let n = Neighbours {
                own: vec![0],
                codes: vec![OwnCode {
                    lengths: symbols.iter().map(|&s| lengths[usize::from(s)]).collect(),
                    symbols: symbols.clone(),
                }],
            };
            let decoder = NeighbourCodes::of_codes(vec![0].into(), n.codes.iter(), 1);
            let words = n.codes[0].words();
            for (k, &s) in symbols.iter().enumerate() {
                let (word, len) = (words[k], n.codes[0].lengths[k]);
                let mut w = BitWriter::default();
                w.write(word, len);
                w.write(0x5A5A, 16);
                let bytes = w.finish();
                let window = u32::from(u16::from_be_bytes([bytes[0], bytes[1]]));
                assert_eq!(decoder.decode(0, window), (s, u32::from(len)), "{row:?}");
            }
        }
    }

    /// Version 4's codes, held as the decoder of version 5 holds them (the
    /// combos without codes of their own read them), decode every window
    /// as version 4's decoder does: codes of one symbol, of 40 symbols
    /// (past the 32 a line keeps) and of words up to 15 bits. A combo past
    /// the table (damaged class bits) reads some code without a panic.
    #[test]
    fn version_4_codes_decode_as_version_4_does() {
        let rows: [&[u64]; 3] = [&GEOMETRIC, &[5, 0, 1, 1, 40, 2, 0, 9, 1, 1, 1], &[0; 40]];
        let lengths: Vec<Vec<u8>> = rows
            .iter()
            .map(|row| {
                let mut l = huffman::code_lengths(row);
                l.resize(40, 0);
                l
            })
            .collect();
        let model = Model {
            symbols: (0..40).collect(),
            next_context: vec![0; 40],
            classes: 1,
            lengths,
            // The third code codes symbol 37 alone.
            single: vec![0, 0, 37],
        };
        let n = Neighbours {
            own: vec![NO_CODE; 3 * WAYS * WAYS],
            codes: Vec::new(),
        };
        let codes = NeighbourCodes::new(&n, &model);
        let decoders = model.decoders();
        for (code, decoder) in decoders.iter().enumerate() {
            for pair in [0, WAYS * WAYS - 1] {
                let id = codes.id(code * WAYS * WAYS + pair);
                for window in 0..1u32 << 16 {
                    let mut bytes = [0u8; 10];
                    bytes[..2].copy_from_slice(&(window as u16).to_be_bytes());
                    let mut len = 0;
                    let symbol = decoder.decode(&bytes, &mut len);
                    assert_eq!(
                        codes.decode(id, window),
                        (symbol, len as u32),
                        "code {code}, window {window:016b}"
                    );
                }
            }
        }
        assert_eq!(codes.id(3 * WAYS * WAYS), 0);
    }
}
