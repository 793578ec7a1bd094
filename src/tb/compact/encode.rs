//! Compressing a level: the model fitted, the boards coded block by block
//! in parallel, the sparse index and the checksums computed.

use rayon::prelude::*;

use super::bits::BitWriter;
use super::lattice::{Backs, Lattice};
use super::model::{Model, START};
use super::neighbours::{Neighbours, WAYS, combo};
use super::words::{Words, names};
use super::{COMPACT_V4, COMPACT_VERSION, Coding};

/// A compressed level, ready to be written.
pub struct Compressed {
    /// How the level was cut.
    pub coding: Coding,
    /// The format version it is written in: [`COMPACT_VERSION`] when its
    /// model has neighbour codes, else [`COMPACT_V4`].
    pub version: u32,
    /// The serialised model (and its neighbour codes).
    pub model: Vec<u8>,
    /// By every `2^sparse_shift`-th rank: its block (high bits) and the
    /// boards before it in that block (low 8 bits).
    pub sparse: Vec<u64>,
    /// Boards coded in each block.
    pub counts: Vec<u8>,
    /// CRC-32 of each group of `chunk_blocks` blocks of data.
    pub chunk_checksums: Vec<u32>,
    /// The blocks, `block_bytes` each, in the pieces the encoding tasks
    /// made them (kept apart so that the data is never held twice); the
    /// file follows them with eight zero bytes ([`Compressed::data_parts`]).
    pub data: Vec<Vec<u8>>,
}

/// The zero bytes after the last block.
const DATA_TAIL: [u8; 8] = [0; 8];

impl Compressed {
    /// The data section's bytes: the blocks and the eight zero bytes.
    pub fn data_len(&self) -> usize {
        self.data.iter().map(Vec::len).sum::<usize>() + DATA_TAIL.len()
    }

    /// The data section in order, piece by piece.
    pub fn data_parts(&self) -> impl Iterator<Item = &[u8]> {
        self.data
            .iter()
            .map(Vec::as_slice)
            .chain(std::iter::once(&DATA_TAIL[..]))
    }
}

/// Boards one encoding task takes: each task starts a new block.
const SEGMENT: u64 = 1 << 20;

/// The first level `oware build` and `oware compress` code by neighbours
/// too (format version 5) unless told otherwise (`--neighbours-from`):
/// Oware's levels from 24 seeds up (382.6 M boards and more). Smaller
/// levels keep version 4, whose decoding and probes are about three times
/// faster and which already takes under 4.0 bits a board there.
pub const NEIGHBOURS_FROM: usize = 24;

/// Whether a level of `boards` boards and `symbols` distinct entries is
/// coded by neighbours when its lattice is given: not below a million
/// boards (where the model would cost more than the codes save), nor with
/// more than [`super::neighbours::MAX_SYMBOLS`] entries.
pub const fn codes_by_neighbours(boards: u64, symbols: usize) -> bool {
    boards >= super::classes::MIN_BOARDS && symbols <= super::neighbours::MAX_SYMBOLS
}

/// Compresses the `boards` entries read by rank through `entry`. With the
/// level's `lattice` (Oware's index) the codes are also chosen by the
/// entries of each board's neighbours (format version 5) when
/// [`codes_by_neighbours`] says so; otherwise as in version 4.
pub fn compress(
    boards: u64,
    coding: Coding,
    entry: &(impl Fn(u64) -> u16 + Sync),
    lattice: Option<Lattice>,
) -> Compressed {
    assert!(coding.is_valid(), "unsupported coding {coding:?}");
    let model = Model::fit(boards, coding.block_bytes as usize, entry);
    let lattice = lattice.filter(|l| {
        assert_eq!(l.boards(), boards, "the lattice is of another level");
        codes_by_neighbours(boards, model.symbols.len())
    });
    // (A level whose combos all keep version 4's codes is still written in
    // version 5, with no own codes: the version then depends only on
    // `codes_by_neighbours`, so `oware compress` never codes it again.)
    let neighbours =
        lattice.map(|l| Neighbours::fit(&model, &count_combos(&model, l, boards, coding, entry)));
    let symbol_of = model.symbol_map();
    let words = Words::new(&model, neighbours.as_ref());
    let block_bits = 8 * coding.block_bytes as usize;
    let segments: Vec<(Vec<u8>, Vec<u8>)> = (0..boards.div_ceil(SEGMENT))
        .into_par_iter()
        .map(|seg| {
            let (start, end) = (seg * SEGMENT, (seg * SEGMENT + SEGMENT).min(boards));
            let symbols: Vec<u16> = (start..end)
                .map(|r| symbol_of[usize::from(entry(r))])
                .collect();
            let backs = backs_of(lattice.filter(|_| words.by_neighbours()), start, end);
            let mut data = Vec::new();
            let mut counts = Vec::new();
            let mut at = 0;
            while at < symbols.len() {
                let (class, count) = words.best_class(&symbols[at..], &backs[at..], block_bits);
                assert!(count > 0, "no class codes a symbol of the level (a bug)");
                let mut w = BitWriter::default();
                words.code(
                    class,
                    &symbols[at..at + count],
                    &backs[at..],
                    |word, len| w.write(word, len),
                );
                at += count;
                let mut block = w.finish();
                block.resize(coding.block_bytes as usize, 0);
                data.extend_from_slice(&block);
                counts.push(count as u8);
            }
            (data, counts)
        })
        .collect();
    let mut counts = Vec::with_capacity(segments.iter().map(|s| s.1.len()).sum());
    let mut data = Vec::with_capacity(segments.len());
    for (d, c) in segments {
        counts.extend_from_slice(&c);
        data.push(d);
    }
    let sparse = sparse_index(&counts, boards, coding.sparse_shift);
    let chunk = coding.block_bytes as usize * coding.chunk_blocks as usize;
    let chunk_checksums = chunk_checksums(&data, chunk);
    let mut model_bytes = model.to_bytes();
    if let Some(n) = &neighbours {
        model_bytes.extend(n.to_bytes(model.symbols.len()));
    }
    Compressed {
        coding,
        version: if neighbours.is_some() {
            COMPACT_VERSION
        } else {
            COMPACT_V4
        },
        model: model_bytes,
        sparse,
        counts,
        chunk_checksums,
        data,
    }
}

/// The neighbours of the boards of ranks `start..end` (none without a
/// lattice).
fn backs_of(lattice: Option<Lattice>, start: u64, end: u64) -> Vec<Backs> {
    let n = (end - start) as usize;
    match lattice {
        Some(l) => {
            let mut walk = l.walk(start);
            (0..n).map(|_| walk.next_backs()).collect()
        }
        None => vec![Backs::default(); n],
    }
}

/// Counts each combo's symbols over the level, cut into blocks as the
/// version-4 codes of `model` would cut it (the final cut differs a little).
fn count_combos(
    model: &Model,
    lattice: Lattice,
    boards: u64,
    coding: Coding,
    entry: &(impl Fn(u64) -> u16 + Sync),
) -> Vec<u64> {
    let size = model.symbols.len();
    let cells = model.lengths.len() * WAYS * WAYS * size;
    let symbol_of = model.symbol_map();
    let contexts = model.contexts();
    let block_bits = 8 * coding.block_bytes as usize;
    let words = Words::new(model, None);
    let segments = boards.div_ceil(SEGMENT);
    // A few tasks, each over every task-th segment: the counters are large.
    let tasks = rayon::current_num_threads().clamp(1, 4) as u64;
    (0..tasks)
        .into_par_iter()
        .map(|task| {
            let mut counts = vec![0u64; cells];
            for seg in (task..segments).step_by(tasks as usize) {
                let (start, end) = (seg * SEGMENT, (seg * SEGMENT + SEGMENT).min(boards));
                let symbols: Vec<u16> = (start..end)
                    .map(|r| symbol_of[usize::from(entry(r))])
                    .collect();
                let backs = backs_of(Some(lattice), start, end);
                let mut at = 0;
                while at < symbols.len() {
                    let (class, count) = words.best_class(&symbols[at..], &backs[at..], block_bits);
                    assert!(count > 0, "no class codes a symbol of the level (a bug)");
                    let block = &symbols[at..at + count];
                    let mut context = START;
                    for (k, &s) in block.iter().enumerate() {
                        let (up, over) = names(block, k, backs[at + k]);
                        let c = combo(class * contexts + context, up, over);
                        counts[c * size + usize::from(s)] += 1;
                        context = usize::from(model.next_context[usize::from(s)]);
                    }
                    at += count;
                }
            }
            counts
        })
        .reduce(
            || vec![0u64; cells],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// The CRC-32 of each `chunk` bytes of the pieces `data` laid end to end
/// (the last chunk shorter), in parallel over the chunks.
fn chunk_checksums(data: &[Vec<u8>], chunk: usize) -> Vec<u32> {
    // starts[i]: the offset of piece i in the whole.
    let starts: Vec<usize> = data
        .iter()
        .scan(0, |at, d| {
            let start = *at;
            *at += d.len();
            Some(start)
        })
        .collect();
    let total: usize = data.iter().map(Vec::len).sum();
    (0..total.div_ceil(chunk))
        .into_par_iter()
        .map(|k| {
            let (from, to) = (k * chunk, ((k + 1) * chunk).min(total));
            let mut h = crc32fast::Hasher::new();
            // The first piece that holds byte `from`, then on until `to`.
            let mut i = starts.partition_point(|&s| s <= from) - 1;
            let mut at = from;
            while at < to {
                let (start, piece) = (starts[i], &data[i]);
                let end = (start + piece.len()).min(to);
                h.update(&piece[at - start..end - start]);
                at = end;
                i += 1;
            }
            h.finalize()
        })
        .collect()
}

/// The sparse index of blocks holding `counts` boards each: for every
/// `2^shift`-th rank, its block and the boards before it in the block.
pub fn sparse_index(counts: &[u8], boards: u64, shift: u8) -> Vec<u64> {
    let step = 1u64 << shift;
    let mut sparse = Vec::with_capacity(boards.div_ceil(step) as usize);
    let mut first = 0u64;
    for (block, &count) in counts.iter().enumerate() {
        let end = first + u64::from(count);
        let mut next = sparse.len() as u64 * step;
        while next < end {
            sparse.push((block as u64) << 8 | (next - first));
            next += step;
        }
        first = end;
    }
    sparse
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The checksums of pieces laid end to end are those of the whole.
        #[test]
        fn chunk_checksums_of_pieces_are_those_of_the_whole(
            pieces in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..700), 0..12),
            chunk in 1usize..300,
        ) {
            let whole: Vec<u8> = pieces.concat();
            let expected: Vec<u32> = whole
                .chunks(chunk)
                .map(crate::tb::file::checksum_serial)
                .collect();
            prop_assert_eq!(chunk_checksums(&pieces, chunk), expected);
        }
    }
}
