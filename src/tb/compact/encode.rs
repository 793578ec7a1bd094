//! Compressing a level: the model fitted, the boards coded block by block
//! in parallel, the sparse index and the checksums computed.

use rayon::prelude::*;

use super::Coding;
use super::bits::BitWriter;
use super::classes::best_class;
use super::huffman::canonical_codes;
use super::model::{Model, START};

/// A compressed level, ready to be written.
pub struct Compressed {
    /// How the level was cut.
    pub coding: Coding,
    /// The serialised model.
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

/// Compresses the `boards` entries read by rank through `entry`.
pub fn compress(boards: u64, coding: Coding, entry: &(impl Fn(u64) -> u16 + Sync)) -> Compressed {
    assert!(coding.is_valid(), "unsupported coding {coding:?}");
    let model = Model::fit(boards, coding.block_bytes as usize, entry);
    let symbol_of = model.symbol_map();
    let codes: Vec<Vec<u32>> = model.lengths.iter().map(|l| canonical_codes(l)).collect();
    let block_bits = 8 * coding.block_bytes as usize;
    let contexts = model.contexts();
    let class_bits = model.class_bits() as u8;
    let segments: Vec<(Vec<u8>, Vec<u8>)> = (0..boards.div_ceil(SEGMENT))
        .into_par_iter()
        .map(|seg| {
            let (start, end) = (seg * SEGMENT, (seg * SEGMENT + SEGMENT).min(boards));
            let symbols: Vec<u16> = (start..end)
                .map(|r| symbol_of[usize::from(entry(r))])
                .collect();
            let mut data = Vec::new();
            let mut counts = Vec::new();
            let mut at = 0;
            while at < symbols.len() {
                let (class, count) = best_class(&model, &symbols[at..], block_bits);
                assert!(count > 0, "no class codes a symbol of the level (a bug)");
                let mut w = BitWriter::default();
                if class_bits > 0 {
                    w.write(class as u32, class_bits);
                }
                let mut context = START;
                for &s in &symbols[at..at + count] {
                    let (code, s) = (class * contexts + context, usize::from(s));
                    w.write(codes[code][s], model.lengths[code][s]);
                    context = usize::from(model.next_context[s]);
                }
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
    Compressed {
        coding,
        model: model.to_bytes(),
        sparse,
        counts,
        chunk_checksums,
        data,
    }
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
