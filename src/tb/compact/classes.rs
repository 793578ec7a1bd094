//! Classes of codes: blocks sorted into kinds, each kind with codes of its
//! own.
//!
//! A level's regions differ: where the mover is far ahead the values
//! cluster high, where a row is empty they follow other patterns. One set
//! of context codes fitted to the whole level codes every region with the
//! average of them all. Here the level's blocks are grouped into up to
//! [`CLASSES`] classes by a k-means over a sample of the level (each block
//! goes to the class whose codes take the fewest bits for it, then each
//! class's codes are fitted anew to its blocks), and the encoder codes each
//! block with the class that packs the most boards into it, naming the
//! class in the block's first four bits.
//!
//! Measured on Abapa's levels (see the manual's results): 0.17 bits a
//! board below the best single set of codes at level 24.

use rayon::prelude::*;

use super::BLOCK_BYTES;
use super::huffman::{self, MAX_CODE_LEN};
use super::model::{MAX_CLASSES, MAX_CODES, Model, START, class_bits};
use super::words::Words;

/// Classes a model gets.
pub const CLASSES: usize = 16;

/// Contexts in each class (the start, this many symbols, the rest).
/// Measured with 16 classes: 16 contexts took 4.10 bits a board at levels
/// 16 and 20; 64 took 4.01 and 4.02, and 4.08 at level 24; 128 took 4.07
/// at level 24, for twice the probe's tables.
pub const CONTEXTS: usize = 64;

/// Levels smaller than this keep one class: the classes' codes would take
/// more room than they save.
pub const MIN_BOARDS: u64 = 1 << 20;

/// Boards of the level the classes are fitted on: spans of [`SPAN`]
/// boards spread evenly over it.
const SAMPLE: u64 = 1 << 24;
const SPAN: u64 = 1 << 15;

/// Boards of a block while fitting, for each 32 bytes of a block (about
/// what they hold).
const FIT_BOARDS_PER_32_BYTES: usize = 64;

/// Rounds of k-means.
const ROUNDS: usize = 6;

/// Weight of a counted symbol against one the class has never seen: every
/// symbol the whole level codes in a context keeps a (long) code in every
/// class, so any block can be coded by any class.
const SEEN: u64 = 1 << 12;

/// A symbol a code cannot code.
const NO_CODE: u32 = 1 << 16;

/// The model with classes fitted to the `boards` entries read through
/// `entry`, starting from `base` (one class, few contexts), if it codes a
/// sample of the level in fewer bits, model included, than `single` (the
/// best model of one class) in blocks of `block_bytes` bytes; else
/// `single`.
pub fn fit(
    single: Model,
    base: &Model,
    boards: u64,
    block_bytes: usize,
    entry: &(impl Fn(u64) -> u16 + Sync),
) -> Model {
    let contexts = base.contexts();
    let classes = CLASSES;
    if classes * contexts > MAX_CODES {
        return single;
    }
    let symbol_of = base.symbol_map();
    let spans = (boards / SPAN).clamp(1, SAMPLE / SPAN);
    let sample: Vec<Vec<u16>> = (0..spans)
        .into_par_iter()
        .map(|i| {
            let start = i * (boards / spans);
            (start..(start + SPAN).min(boards))
                .map(|r| symbol_of[usize::from(entry(r))])
                .collect()
        })
        .collect();
    let fit_block = FIT_BOARDS_PER_32_BYTES * block_bytes / BLOCK_BYTES;
    let blocks: Vec<&[u16]> = sample.iter().flat_map(|s| s.chunks(fit_block)).collect();
    let size = base.symbols.len();
    // Every class starts from the base's codes; the blocks are first split
    // by how many bits a board the base spends on them.
    let mut lengths: Vec<Vec<u8>>;
    let base_cost: Vec<(u32, usize)> = blocks
        .par_iter()
        .enumerate()
        .map(|(i, b)| {
            let bits = cost(base, &base.lengths, 0, b);
            ((bits as u64 * 1024 / b.len() as u64) as u32, i)
        })
        .collect();
    let mut order = base_cost;
    order.par_sort_unstable();
    let mut assignment = vec![0usize; blocks.len()];
    for (n, &(_, i)) in order.iter().enumerate() {
        assignment[i] = n * classes / blocks.len();
    }
    let mut model = base.clone();
    for round in 0..ROUNDS {
        // Each class's codes fitted to its blocks.
        let counts = blocks
            .par_iter()
            .zip(&assignment)
            .fold(
                || vec![0u64; classes * contexts * size],
                |mut counts, (b, &k)| {
                    let mut context = START;
                    for &s in b.iter() {
                        let s = usize::from(s);
                        counts[((k * contexts) + context) * size + s] += 1;
                        context = usize::from(base.next_context[s]);
                    }
                    counts
                },
            )
            .reduce(|| vec![0u64; classes * contexts * size], add);
        lengths = counts
            .chunks(size)
            .enumerate()
            .map(|(code, counts)| {
                let c = code % contexts;
                let smoothed: Vec<u64> = (0..size)
                    .map(|s| counts[s] * SEEN + u64::from(base.codes(c, s)))
                    .collect();
                huffman::code_lengths(&smoothed)
            })
            .collect();
        model = Model {
            symbols: base.symbols.clone(),
            next_context: base.next_context.clone(),
            classes,
            single: (0..classes).flat_map(|_| base.single.clone()).collect(),
            lengths: lengths.clone(),
        };
        if round + 1 == ROUNDS {
            break;
        }
        // Each block to the class that codes it in the fewest bits.
        assignment = blocks
            .par_iter()
            .map(|b| {
                (0..classes)
                    .min_by_key(|&k| cost(&model, &lengths, k * contexts, b))
                    .unwrap_or(0)
            })
            .collect();
    }
    let block_bits = 8 * block_bytes;
    let packed = |m: &Model| -> u64 {
        let words = Words::new(m, None);
        let blocks: u64 = sample
            .par_iter()
            .map(|s| {
                let mut at = 0;
                let mut n = 0u64;
                while at < s.len() {
                    at += words.best_class(&s[at..], &[], block_bits).1.max(1);
                    n += 1;
                }
                n
            })
            .sum();
        let sampled = sample.iter().map(|s| s.len() as u64).sum::<u64>().max(1);
        // Data and counts scaled to the level, plus the model.
        let data = u128::from(blocks) * (8 * block_bytes as u128 + 8) * u128::from(boards)
            / u128::from(sampled);
        data as u64 + 8 * m.to_bytes().len() as u64
    };
    if packed(&model) < packed(&single) {
        model
    } else {
        single
    }
}

/// Bits the codes of class starting at code `base_code` take for `block`
/// (a symbol they cannot code counts [`NO_CODE`]).
fn cost(model: &Model, lengths: &[Vec<u8>], base_code: usize, block: &[u16]) -> u32 {
    let mut context = START;
    let mut bits = 0;
    for &s in block {
        let s = usize::from(s);
        let code = base_code + context;
        bits += match lengths[code][s] {
            0 if !model.codes(code, s) => NO_CODE,
            len => u32::from(len),
        };
        context = usize::from(model.next_context[s]);
    }
    bits
}

fn add(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    a
}

const _: () = assert!(class_bits(CLASSES) as usize + MAX_CODE_LEN as usize <= 8 * BLOCK_BYTES);
const _: () = assert!(CLASSES <= MAX_CLASSES && CLASSES * (CONTEXTS + 2) <= MAX_CODES);

#[cfg(test)]
mod tests {
    use super::super::{Coding, CompactLevel, compress};
    use super::*;

    /// A level compressed in `coding` decodes to its entries, whole and by
    /// probes.
    fn decodes_to_its_entries(boards: u64, coding: Coding, entry: &(impl Fn(u64) -> u16 + Sync)) {
        let (info, payload) = compress(boards, coding, entry, None).payload();
        let level = CompactLevel::open(&payload, boards, info, None).unwrap();
        assert!(level.classes() > 1, "{coding:?}");
        let mut out = vec![0u8; 2 * boards as usize];
        level.decode_all(&payload, 2, &mut out);
        for r in 0..boards {
            let at = 2 * r as usize;
            assert_eq!(
                u16::from_be_bytes([out[at], out[at + 1]]),
                entry(r),
                "rank {r}"
            );
        }
        for r in (0..boards).step_by(97) {
            assert_eq!(level.entry(&payload, r), entry(r), "probe of rank {r}");
        }
    }

    /// Two kinds of regions over the same sixteen symbols, each with four
    /// of its own that take half its boards: the previous symbol tells
    /// them apart only partly, and classes code them in fewer bits than
    /// one set of context codes, in blocks of either size.
    #[test]
    fn classes_beat_one_code_on_mixed_regions() {
        let boards = 1u64 << 21;
        let entry = |r: u64| {
            let h = r.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
            let own = if (r >> 12).is_multiple_of(2) { 0 } else { 12 };
            if h & 1 == 0 {
                own + (h >> 1) as u16 % 4
            } else {
                let other = (h >> 1) as u16 % 12;
                if own == 0 { 4 + other } else { other }
            }
        };
        for block_bytes in [BLOCK_BYTES, super::super::LARGE_BLOCK_BYTES] {
            let model = Model::fit(boards, block_bytes, &entry);
            assert!(
                model.classes > 1,
                "two kinds of regions give classes ({block_bytes} bytes)"
            );
        }
        let model = Model::fit(boards, BLOCK_BYTES, &entry);
        // The level coded with them decodes to its entries, whole and by
        // probes, in blocks of either size.
        for block_bytes in [BLOCK_BYTES, super::super::LARGE_BLOCK_BYTES] {
            decodes_to_its_entries(boards, Coding::with_block_bytes(block_bytes), &entry);
        }
        let bytes = model.to_bytes();
        assert_eq!(Model::from_bytes(&bytes), Ok(model.clone()));
        // Every class codes every symbol in every context it occurs in.
        let symbols: Vec<u16> = (0..4096)
            .map(|r| model.symbol_map()[usize::from(entry(r))])
            .collect();
        for k in 0..model.classes {
            let mut context = START;
            for &s in &symbols {
                assert!(model.codes(k * model.contexts() + context, usize::from(s)));
                context = usize::from(model.next_context[usize::from(s)]);
            }
        }
    }
}
