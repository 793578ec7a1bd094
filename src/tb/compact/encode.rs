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
    /// The blocks, `block_bytes` each, then eight zero bytes.
    pub data: Vec<u8>,
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
    let mut data = Vec::with_capacity(segments.iter().map(|s| s.0.len()).sum::<usize>() + 8);
    let mut counts = Vec::with_capacity(segments.iter().map(|s| s.1.len()).sum());
    for (d, c) in segments {
        data.extend_from_slice(&d);
        counts.extend_from_slice(&c);
    }
    data.extend_from_slice(&[0; 8]);
    let sparse = sparse_index(&counts, boards, coding.sparse_shift);
    let chunk = coding.block_bytes as usize * coding.chunk_blocks as usize;
    let blocks_bytes = counts.len() * coding.block_bytes as usize;
    let chunk_checksums = data[..blocks_bytes]
        .par_chunks(chunk)
        .map(super::super::file::checksum_serial)
        .collect();
    Compressed {
        coding,
        model: model.to_bytes(),
        sparse,
        counts,
        chunk_checksums,
        data,
    }
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
