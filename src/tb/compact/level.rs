//! Reading a compact level: validating its sections, probing a rank,
//! checking the data's chunks and decoding it whole.

use rayon::prelude::*;

use super::cache::ProbeCache;
use super::huffman::Decoder;
use super::lattice::{Backs, Lattice, Walk};
use super::model::{Model, START};
use super::neighbours::{NONE, NeighbourCodes, Neighbours, bucket, combo};
use super::{CompactInfo, LARGE_BLOCK_BYTES, MAX_BOARDS_PER_BLOCK, Section, meta_checksum};
use crate::tb::file::checksum_serial;

/// A compact level's model and where its sections lie in the payload.
pub struct CompactLevel {
    info: CompactInfo,
    symbols: Vec<u16>,
    next_context: Vec<u16>,
    /// Contexts in each class.
    contexts: usize,
    /// Bits naming a block's class.
    class_bits: u32,
    /// Codes of the model (classes × contexts).
    codes: usize,
    /// By class then context (none in version 5, read through
    /// `neighbours`).
    decoders: Vec<Decoder>,
    /// Every code's words of at most [`FAST_BITS`] bits in one table, by
    /// code (class × contexts + context) then prefix (see [`fast_entry`];
    /// none in version 5).
    fast: Box<[u32]>,
    /// For the codes a probe passes over on its way to its rank: by code
    /// and prefix as [`CompactLevel::fast`], how many whole codes the
    /// prefix holds one after the other, their bits and the code that
    /// follows (see [`skip_table`]).
    skip: Box<[u32]>,
    /// Format version 5: the level's grid and the decoder of its codes (the
    /// combos' own codes and version 4's).
    neighbours: Option<(Lattice, NeighbourCodes)>,
    /// Recent probes' entries.
    cache: ProbeCache,
    boards: u64,
    blocks: usize,
    /// Bytes a block takes.
    block_bytes: usize,
    sparse_at: usize,
    counts_at: usize,
    chunks_at: usize,
    data_at: usize,
}

/// Bits the probe's table resolves at once.
const FAST_BITS: u32 = 8;
/// A fast entry whose code is longer than [`FAST_BITS`].
const SLOW: u32 = 1 << 31;

/// A fast table entry: the code's length (bits 24..27), the code (class
/// and context) that follows its symbol (bits 12..23) and the symbol (bits
/// 0..11); or [`SLOW`].
const fn fast_entry(len: u8, next: u16, symbol: u16) -> u32 {
    (len as u32) << 24 | (next as u32) << 12 | symbol as u32
}

/// The most codes one skip entry passes over (a code of one symbol takes
/// no bits, so a prefix could hold any number of them).
const MAX_SKIP: u32 = 15;

/// The skip table: for each code (class × contexts + context) and each
/// [`FAST_BITS`]-bit prefix, the codes the prefix holds whole, read one
/// after the other from that code through `fast` (each naming the next):
/// their number (bits 16..19; 0 when the first is longer than the prefix),
/// their bits (12..15) and the code after the last (0..11).
fn skip_table(fast: &[u32]) -> Box<[u32]> {
    let width = 1usize << FAST_BITS;
    (0..fast.len())
        .map(|at| {
            let (mut code, prefix) = (at / width, at % width);
            let (mut used, mut n) = (0u32, 0u32);
            while n < MAX_SKIP {
                // The prefix's bits from `used` on, zeros after: a fast
                // entry of at most the bits left reads only known bits.
                let rest = (prefix << used) & (width - 1);
                let entry = fast[code * width + rest];
                let len = entry >> 24 & 0xF;
                if entry & SLOW != 0 || used + len > FAST_BITS {
                    break;
                }
                used += len;
                code = (entry >> 12 & 0xFFF) as usize;
                n += 1;
            }
            n << 16 | used << 12 | code as u32
        })
        .collect()
}

fn fast_table(decoders: &[Decoder], next_context: &[u16], contexts: usize) -> Box<[u32]> {
    let mut fast = Vec::with_capacity(decoders.len() << FAST_BITS);
    for (code, d) in decoders.iter().enumerate() {
        let class_base = code / contexts * contexts;
        for (symbol, len) in d.prefixes(FAST_BITS) {
            let next = (class_base + usize::from(next_context[usize::from(symbol)])) as u16;
            fast.push(if len == 0 && !d.is_single() {
                SLOW
            } else {
                fast_entry(len, next, symbol)
            });
        }
    }
    fast.into_boxed_slice()
}

/// The first [`FAST_BITS`] bits of `high`.
#[inline]
const fn prefix(high: u128) -> usize {
    (high >> (128 - FAST_BITS)) as usize
}

/// Shifts the bits held in `limbs` (most significant first) left by
/// `len` bits (at most 15), zeros coming in at the end.
#[inline]
fn shift_limbs<const L: usize>(limbs: &mut [u128; L], len: u32) {
    for i in 0..L - 1 {
        // `x >> 1 >> (127 - len)` is `x >> (128 - len)` without the
        // overflow at 0.
        limbs[i] = limbs[i] << len | limbs[i + 1] >> 1 >> (127 - len);
    }
    limbs[L - 1] <<= len;
}

fn section<'a>(payload: &'a [u8], s: Section, name: &str) -> Result<&'a [u8], String> {
    let start = usize::try_from(s.offset).map_err(|_| format!("{name} section out of range"))?;
    let len = usize::try_from(s.len).map_err(|_| format!("{name} section out of range"))?;
    payload
        .get(start..start.saturating_add(len))
        .ok_or_else(|| format!("{name} section lies past the end of the file (truncated?)"))
}

impl CompactLevel {
    /// Validates the sections of a payload of `boards` boards described by
    /// `info`: their sizes, the meta checksum, the model, and that the
    /// counts and the sparse index agree with the number of boards. A
    /// level of format version 5 is opened with its `lattice`, and its
    /// model must carry neighbour codes; without, it must not.
    pub fn open(
        payload: &[u8],
        boards: u64,
        info: CompactInfo,
        lattice: Option<Lattice>,
    ) -> Result<CompactLevel, String> {
        let coding = info.coding;
        if !coding.is_valid() {
            return Err(format!("unsupported coding parameters {coding:?}"));
        }
        let s = info.sections;
        let model = section(payload, s.model, "model")?;
        let sparse = section(payload, s.sparse, "sparse index")?;
        let counts = section(payload, s.counts, "counts")?;
        let chunks = section(payload, s.chunk_checksums, "checksum")?;
        let data = section(payload, s.data, "data")?;
        if payload.len() as u64 != s.end() {
            return Err(format!(
                "{} payload bytes, the sections take {} (truncated or padded)",
                payload.len(),
                s.end()
            ));
        }
        // Every byte outside the sections (their padding, the data's last
        // eight) is zero: a flipped bit anywhere in the file is found.
        let mut ends = [s.model, s.sparse, s.counts, s.chunk_checksums, s.data];
        ends.sort_by_key(|x| x.offset);
        let mut at = 0u64;
        for x in ends {
            if x.offset < at {
                return Err("sections overlap".to_string());
            }
            let gap = &payload[at as usize..x.offset as usize];
            if gap.iter().any(|&b| b != 0) {
                return Err("checksum mismatch: damaged padding between sections".to_string());
            }
            at = x.offset + x.len;
        }
        if data.len() < 8 || data[data.len() - 8..].iter().any(|&b| b != 0) {
            return Err("checksum mismatch: damaged padding after the data".to_string());
        }
        if meta_checksum(model, sparse, counts, chunks) != info.meta_checksum {
            return Err("checksum mismatch: the index or model is damaged".to_string());
        }
        let blocks = counts.len();
        let bb = coding.block_bytes as usize;
        let step = 1u64 << coding.sparse_shift;
        if data.len() != blocks * bb + 8
            || sparse.len() as u64 != 8 * boards.div_ceil(step)
            || chunks.len() != 4 * blocks.div_ceil(coding.chunk_blocks as usize)
        {
            return Err("section sizes do not fit the number of boards".to_string());
        }
        if counts.iter().map(|&c| u64::from(c)).sum::<u64>() != boards {
            return Err("the blocks do not hold the level's boards".to_string());
        }
        let (model, neighbours) = match lattice {
            None => (Model::from_bytes(model)?, None),
            Some(lattice) => {
                if lattice.boards() != boards {
                    return Err("the model's grid is of another level".to_string());
                }
                let (m, used) = Model::from_prefix(model)?;
                let n = Neighbours::from_bytes(&model[used..], &m)?;
                let codes = NeighbourCodes::new(&n, &m);
                (m, Some((lattice, codes)))
            }
        };
        // Version 5 reads every code through its neighbour codes, which
        // hold version 4's too: no tables of version 4's, no skip table.
        let (decoders, fast, skip) = if neighbours.is_some() {
            (Vec::new(), Box::default(), Box::default())
        } else {
            let decoders = model.decoders();
            let fast = fast_table(&decoders, &model.next_context, model.contexts());
            let skip = skip_table(&fast);
            (decoders, fast, skip)
        };
        let level = CompactLevel {
            info,
            skip,
            fast,
            codes: model.lengths.len(),
            neighbours,
            contexts: model.contexts(),
            class_bits: model.class_bits(),
            cache: ProbeCache::new(boards),
            decoders,
            symbols: model.symbols,
            next_context: model.next_context,
            boards,
            blocks,
            block_bytes: bb,
            sparse_at: s.sparse.offset as usize,
            counts_at: s.counts.offset as usize,
            chunks_at: s.chunk_checksums.offset as usize,
            data_at: s.data.offset as usize,
        };
        for i in 0..boards.div_ceil(step) as usize {
            let e = level.sparse_entry(payload, i);
            let block = (e >> 8) as usize;
            if block >= blocks || (e & 0xFF) >= u64::from(counts[block]) {
                return Err(format!("sparse index entry {i} is out of range"));
            }
        }
        Ok(level)
    }

    /// The header's description of the coding and the sections.
    pub fn info(&self) -> &CompactInfo {
        &self.info
    }

    /// Blocks in the level.
    pub fn blocks(&self) -> usize {
        self.blocks
    }

    /// Classes of codes (1: none, see [`super::classes`]).
    pub fn classes(&self) -> usize {
        self.codes / self.contexts.max(1)
    }

    /// Distinct entries (symbols) and codes (classes × contexts) of the
    /// model.
    pub fn model_size(&self) -> (usize, usize) {
        (self.symbols.len(), self.codes)
    }

    #[inline]
    fn sparse_entry(&self, payload: &[u8], i: usize) -> u64 {
        let at = self.sparse_at + 8 * i;
        payload
            .get(at..at + 8)
            .map_or(0, |b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    /// The entry of rank `r` (`r` below the level's boards): the raw
    /// payload's bytes as a `u16` (a pair as `mover << 8 | opponent`, a
    /// score as its byte). Damaged data (chunks not checked) decodes to
    /// some entry of the level, never to a panic.
    #[inline]
    pub fn entry(&self, payload: &[u8], r: u64) -> u16 {
        if let Some(entry) = self.cache.get(r) {
            return entry;
        }
        let entry = self.decode_entry(payload, r);
        self.cache.put(r, entry);
        entry
    }

    /// [`CompactLevel::entry`] decoded from the block.
    #[inline]
    fn decode_entry(&self, payload: &[u8], r: u64) -> u16 {
        let shift = self.info.coding.sparse_shift;
        let e = self.sparse_entry(payload, (r >> shift) as usize);
        let mut block = (e >> 8) as usize;
        let mut before = (e & 0xFF) + (r & ((1 << shift) - 1));
        let counts = payload
            .get(self.counts_at..self.counts_at + self.blocks)
            .unwrap_or(&[]);
        while let Some(&c) = counts.get(block) {
            if before < u64::from(c) {
                break;
            }
            before -= u64::from(c);
            block += 1;
        }
        let symbol = self.block(payload, block).map_or(0, |bytes| {
            if let Some((lattice, _)) = &self.neighbours {
                let mut walk = lattice.walk(r.saturating_sub(before));
                let mut last = 0;
                self.decode_block(bytes, before as usize + 1, Some(&mut walk), |s| last = s);
                return last;
            }
            match bytes.len() {
                LARGE_BLOCK_BYTES => self.decode_nth::<4>(bytes, before as usize),
                _ => self.decode_nth::<2>(bytes, before as usize),
            }
        });
        self.symbols.get(usize::from(symbol)).copied().unwrap_or(0)
    }

    /// The block `b`'s bytes (`None` past the data: only with a damaged
    /// index, which opening refuses).
    #[inline]
    fn block<'p>(&self, payload: &'p [u8], b: usize) -> Option<&'p [u8]> {
        let at = self.data_at + b * self.block_bytes;
        payload.get(at..at + self.block_bytes)
    }

    /// Decodes the first `count` symbols of a block, calling `visit` with
    /// each; a level of version 5 steps `walk` (at the block's first board)
    /// beside them.
    #[inline]
    fn decode_block(
        &self,
        block: &[u8],
        count: usize,
        walk: Option<&mut Walk>,
        visit: impl FnMut(u16),
    ) {
        match (walk, &self.neighbours, block.len()) {
            (Some(walk), Some((_, codes)), LARGE_BLOCK_BYTES) => {
                self.decode_neighbours::<4>(block, count, walk, codes, visit)
            }
            (Some(walk), Some((_, codes)), _) => {
                self.decode_neighbours::<2>(block, count, walk, codes, visit)
            }
            (_, _, LARGE_BLOCK_BYTES) => self.decode_limbs::<4>(block, count, visit),
            _ => self.decode_limbs::<2>(block, count, visit),
        }
    }

    /// [`CompactLevel::decode_block`] for a block of `L` × 16 bytes.
    #[inline]
    fn decode_limbs<const L: usize>(&self, block: &[u8], count: usize, mut visit: impl FnMut(u16)) {
        let (mut limbs, class_base) = self.open_block::<L>(block);
        let mut code = class_base + START;
        for _ in 0..count {
            let (symbol, len, next) = self.read_code(limbs[0], code, class_base);
            code = next;
            visit(symbol);
            shift_limbs(&mut limbs, len);
        }
    }

    /// The symbol of board `n` of a block of `L` × 16 bytes: the codes
    /// before it passed over through the skip table, its own read through
    /// the fast one.
    #[inline]
    fn decode_nth<const L: usize>(&self, block: &[u8], n: usize) -> u16 {
        let (mut limbs, class_base) = self.open_block::<L>(block);
        let mut code = class_base + START;
        let mut left = n as u32;
        while left > 0 {
            let at = code << FAST_BITS | prefix(limbs[0]);
            let skip = self.skip.get(at).copied().unwrap_or(0);
            let codes = skip >> 16;
            let len = if codes != 0 && codes <= left {
                left -= codes;
                code = (skip & 0xFFF) as usize;
                skip >> 12 & 0xF
            } else {
                // One code: the last few before the rank, or a long one.
                left -= 1;
                let (_, len, next) = self.read_code(limbs[0], code, class_base);
                code = next;
                len
            };
            shift_limbs(&mut limbs, len);
        }
        self.read_code(limbs[0], code, class_base).0
    }

    /// A block of `L` × 16 bytes in `L` registers, most significant first,
    /// shifted past its class, and the class's first code. The registers
    /// shift as codes are read: no load on the chain from one code to the
    /// next but the tables'.
    #[inline]
    fn open_block<const L: usize>(&self, block: &[u8]) -> ([u128; L], usize) {
        let mut limbs = [0u128; L];
        for (limb, bytes) in limbs.iter_mut().zip(block.chunks_exact(16)) {
            *limb = u128::from_be_bytes(bytes.try_into().expect("16 bytes"));
        }
        let mut class_base = 0;
        if self.class_bits > 0 {
            let bits = self.class_bits;
            class_base = (limbs[0] >> (128 - bits)) as usize * self.contexts;
            shift_limbs(&mut limbs, bits);
        }
        (limbs, class_base)
    }

    /// The code at the front of `high`, read in `code` (the class at
    /// `class_base`, plus a context): its symbol, its bits and the code
    /// that reads the next one.
    #[inline]
    fn read_code(&self, high: u128, code: usize, class_base: usize) -> (u16, u32, usize) {
        let entry = self
            .fast
            .get(code << FAST_BITS | prefix(high))
            .copied()
            .unwrap_or(SLOW);
        if entry & SLOW == 0 {
            (
                (entry & 0xFFF) as u16,
                entry >> 24,
                (entry >> 12 & 0xFFF) as usize,
            )
        } else {
            let mut pos = 0;
            let symbol = self
                .decoders
                .get(code)
                .map_or(0, |d| d.decode_long((high >> 64) as u64, &mut pos));
            (symbol, pos as u32, class_base + self.context_after(symbol))
        }
    }

    #[inline]
    fn context_after(&self, s: u16) -> usize {
        usize::from(self.next_context.get(usize::from(s)).copied().unwrap_or(0))
    }

    /// The first address a probe of `r` reads, for a prefetch.
    #[inline]
    pub fn probe_address(&self, r: u64) -> usize {
        self.sparse_at + 8 * (r >> self.info.coding.sparse_shift) as usize
    }

    /// Blocks a data checksum covers, and the number of such chunks.
    fn chunking(&self) -> (usize, usize) {
        let per = self.info.coding.chunk_blocks as usize;
        (per, self.blocks.div_ceil(per))
    }

    /// Whether chunk `i`'s data matches its checksum.
    fn chunk_is_intact(&self, payload: &[u8], i: usize) -> bool {
        let (per, _) = self.chunking();
        let first = i * per;
        let last = (first + per).min(self.blocks);
        let bb = self.block_bytes;
        let data = &payload[self.data_at + first * bb..self.data_at + last * bb];
        let at = self.chunks_at + 4 * i;
        let stored = u32::from_le_bytes(payload[at..at + 4].try_into().expect("4 bytes"));
        checksum_serial(data) == stored
    }

    /// The chunks whose data does not match its checksum (on rayon's pool
    /// when `parallel`, else on the calling thread in order).
    pub fn damaged_chunks(&self, payload: &[u8], parallel: bool) -> Vec<usize> {
        let (_, chunks) = self.chunking();
        if parallel {
            (0..chunks)
                .into_par_iter()
                .filter(|&i| !self.chunk_is_intact(payload, i))
                .collect()
        } else {
            (0..chunks)
                .filter(|&i| !self.chunk_is_intact(payload, i))
                .collect()
        }
    }

    /// The blocks and ranks chunk `i` covers, for people: "block group 3
    /// (blocks 6144..8191, ranks 1200000..1599999)".
    pub fn describe_chunk(&self, payload: &[u8], i: usize) -> String {
        let (per, _) = self.chunking();
        let first = i * per;
        let last = (first + per).min(self.blocks);
        let counts = &payload[self.counts_at..self.counts_at + self.blocks];
        let rank = |b: usize| counts[..b].iter().map(|&c| u64::from(c)).sum::<u64>();
        format!(
            "block group {i} (blocks {first}..{}, ranks {}..{})",
            last - 1,
            rank(first),
            rank(last).saturating_sub(1)
        )
    }

    /// The first rank of each data chunk, and the level's size last.
    pub fn chunk_starts(&self, payload: &[u8]) -> Vec<u64> {
        let (per, _) = self.chunking();
        let counts = &payload[self.counts_at..self.counts_at + self.blocks];
        let mut starts = vec![0u64];
        for group in counts.chunks(per) {
            let last = *starts.last().expect("one start");
            starts.push(last + group.iter().map(|&c| u64::from(c)).sum::<u64>());
        }
        if self.blocks == 0 {
            starts.push(0);
        }
        starts
    }

    /// Decodes the entries of chunk `i` into `out` (`width` bytes an
    /// entry, as the raw payload lays them out; `out` holds exactly the
    /// chunk's boards).
    pub fn decode_chunk(&self, payload: &[u8], i: usize, width: usize, out: &mut [u8]) {
        let mut at = 0;
        self.decode_chunk_symbols(payload, i, |s| {
            let e = self.symbols[usize::from(s)];
            if width == 2 {
                out[at..at + 2].copy_from_slice(&e.to_be_bytes());
            } else {
                out[at] = e as u8;
            }
            at += width;
        });
    }

    /// Calls `visit` with the symbol of each board of chunk `i`, in order
    /// (an index into [`CompactLevel::symbols`]).
    pub fn decode_chunk_symbols(&self, payload: &[u8], i: usize, mut visit: impl FnMut(u16)) {
        let (per, _) = self.chunking();
        let counts = &payload[self.counts_at..self.counts_at + self.blocks];
        let first = i * per;
        let last = (first + per).min(self.blocks);
        if let Some((lattice, codes)) = &self.neighbours {
            let start = self.block_start(payload, first);
            self.decode_blocks_in_pairs(payload, (first, last), start, *lattice, codes, visit);
            return;
        }
        for (b, &count) in counts.iter().enumerate().take(last).skip(first) {
            let Some(block) = self.block(payload, b) else {
                return;
            };
            self.decode_block(block, usize::from(count), None, &mut visit);
        }
    }

    /// The level's distinct entries, most frequent first: what a symbol
    /// stands for.
    pub fn symbols(&self) -> &[u16] {
        &self.symbols
    }

    /// Boards in the level.
    pub fn boards(&self) -> u64 {
        self.boards
    }

    /// Decodes every entry into `out`, `width` bytes an entry (1 or 2, the
    /// raw payload's layout), the chunks in parallel.
    pub fn decode_all(&self, payload: &[u8], width: usize, out: &mut [u8]) {
        assert_eq!(out.len() as u64, self.boards * width as u64);
        let starts = self.chunk_starts(payload);
        // Split the output at each chunk's first board.
        let mut parts: Vec<(usize, &mut [u8])> = Vec::new();
        let mut rest = out;
        for i in 0..starts.len() - 1 {
            let boards = (starts[i + 1] - starts[i]) as usize;
            let (head, tail) = rest.split_at_mut(boards * width);
            parts.push((i, head));
            rest = tail;
        }
        parts
            .into_par_iter()
            .for_each(|(i, out)| self.decode_chunk(payload, i, width, out));
    }
}

mod neighbours;
#[cfg(test)]
mod tests;
