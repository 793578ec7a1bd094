//! A level's model: its alphabet of entries, the contexts, and one code per
//! context.
//!
//! The symbols are the distinct entries of the level (a value pair, or a
//! score), most frequent first. A board's code depends on the entry of the
//! board ranked just before it (order-1 context): each of the `K` most
//! frequent entries is a context of its own, the rarer ones share one, and
//! the first board of a block is coded in the start context (order 0).
//! With one class, `K` is chosen per level for the smallest total of codes
//! and model; with classes it is [`super::classes::CONTEXTS`].
//!
//! A model may also have several **classes** (see [`super::classes`]): a
//! full set of context codes each, and every block says in its first bits
//! which class codes it. Regions of a level differ (boards where the mover
//! is far ahead, boards of one empty row …), and a block coded with the
//! codes of its kind of region takes fewer bits than with codes fitted to
//! the whole level.

use rayon::prelude::*;

use super::huffman::{self, Decoder, MAX_SYMBOLS};

/// The context of the first board of a block.
pub const START: usize = 0;

/// A level's alphabet and codes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The entries, by symbol (most frequent first).
    pub symbols: Vec<u16>,
    /// The context (within a class) of the board after one of entry
    /// `symbols[s]`.
    pub next_context: Vec<u16>,
    /// Classes of codes (at least 1).
    pub classes: usize,
    /// Code lengths, by class, then context, then symbol: the code of
    /// context `c` of class `k` is `lengths[k * contexts + c]`.
    pub lengths: Vec<Vec<u8>>,
    /// By class and context, the symbol it decodes to when it uses one
    /// symbol only.
    pub single: Vec<u16>,
}

/// The most codes (classes × contexts) a model has: the probe's table
/// names the code that follows a symbol in 12 bits.
pub const MAX_CODES: usize = 1 << 12;

/// The most classes (the class count is kept in 4 bits).
pub const MAX_CLASSES: usize = 16;

/// What is wrong with a serialised model.
pub type ModelError = String;

/// Boards a counting task takes at once.
const SPAN: u64 = 1 << 20;

impl Model {
    /// Fits the model to the `boards` entries of a level, read by rank
    /// through `entry`, for blocks of `block_bytes` bytes.
    pub fn fit(boards: u64, block_bytes: usize, entry: &(impl Fn(u64) -> u16 + Sync)) -> Model {
        // The alphabet, most frequent first.
        let histogram = (0..boards.div_ceil(SPAN))
            .into_par_iter()
            .fold(
                || vec![0u64; 1 << 16],
                |mut h, span| {
                    for r in span * SPAN..(span * SPAN + SPAN).min(boards) {
                        h[usize::from(entry(r))] += 1;
                    }
                    h
                },
            )
            .reduce(|| vec![0u64; 1 << 16], add);
        let mut symbols: Vec<u16> = (0..=u16::MAX)
            .filter(|&e| histogram[usize::from(e)] > 0)
            .collect();
        symbols.sort_by_key(|&e| (std::cmp::Reverse(histogram[usize::from(e)]), e));
        assert!(symbols.len() <= MAX_SYMBOLS, "too many distinct entries");
        let size = symbols.len().max(1);
        let mut symbol_of = vec![0u16; 1 << 16];
        for (s, &e) in symbols.iter().enumerate() {
            symbol_of[usize::from(e)] = s as u16;
        }
        // Transitions between the entries of consecutive ranks.
        let transitions = (0..boards.div_ceil(SPAN))
            .into_par_iter()
            .fold(
                || vec![0u64; size * size],
                |mut t, span| {
                    let start = (span * SPAN).max(1);
                    let mut prev = usize::from(symbol_of[usize::from(entry(start - 1))]);
                    for r in start..(span * SPAN + SPAN).min(boards) {
                        let s = usize::from(symbol_of[usize::from(entry(r))]);
                        t[prev * size + s] += 1;
                        prev = s;
                    }
                    t
                },
            )
            .reduce(|| vec![0u64; size * size], add);
        let order0: Vec<u64> = symbols.iter().map(|&e| histogram[usize::from(e)]).collect();
        let mut best: Option<(u64, Model)> = None;
        for k in [0usize, 1, 2, 4, 8, 16, 32, 64, 128, 256] {
            if k > symbols.len() {
                break;
            }
            let model = Model::with_contexts(&symbols, &order0, &transitions, k);
            let cost = model.cost_bits(&transitions);
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                best = Some((cost, model));
            }
        }
        let single = best.expect("k = 0 always fits").1;
        if boards < super::classes::MIN_BOARDS {
            return single;
        }
        // Classes of codes over fewer contexts each: the probe's tables
        // stay small.
        let k = super::classes::CONTEXTS.min(symbols.len());
        let base = Model::with_contexts(&symbols, &order0, &transitions, k);
        super::classes::fit(single, &base, boards, block_bytes, entry)
    }

    /// The model whose contexts are the start, the `k` most frequent
    /// symbols one each, and the rest together (when there is a rest).
    fn with_contexts(symbols: &[u16], order0: &[u64], transitions: &[u64], k: usize) -> Model {
        let size = symbols.len();
        let rest = size > k;
        let contexts = 1 + k + usize::from(rest);
        let next_context: Vec<u16> = (0..size).map(|s| (1 + s.min(k)) as u16).collect();
        let mut counts = vec![vec![0u64; size]; contexts];
        counts[START].copy_from_slice(order0);
        for prev in 0..size {
            let c = usize::from(next_context[prev]);
            let row = &transitions[prev * size..prev * size + size];
            counts[c].iter_mut().zip(row).for_each(|(a, b)| *a += b);
        }
        let lengths: Vec<Vec<u8>> = counts.iter().map(|c| huffman::code_lengths(c)).collect();
        let single = counts
            .iter()
            .map(|c| c.iter().position(|&n| n > 0).unwrap_or(0) as u16)
            .collect();
        Model {
            symbols: symbols.to_vec(),
            next_context,
            classes: 1,
            lengths,
            single,
        }
    }

    /// Contexts in each class.
    pub fn contexts(&self) -> usize {
        self.lengths.len() / self.classes
    }

    /// Bits at the start of each block naming its class (0 with one
    /// class).
    pub fn class_bits(&self) -> u32 {
        class_bits(self.classes)
    }

    /// Whether the code of `code` (class × contexts + context) can code
    /// symbol `s`.
    #[inline]
    pub fn codes(&self, code: usize, s: usize) -> bool {
        let lengths = &self.lengths[code];
        lengths[s] > 0 || (usize::from(self.single[code]) == s && lengths.iter().all(|&l| l == 0))
    }

    /// The bits the model's codes take for the counted transitions (block
    /// starts set aside) plus the model's own size.
    fn cost_bits(&self, transitions: &[u64]) -> u64 {
        let size = self.symbols.len();
        let mut bits = 8 * self.to_bytes().len() as u64;
        for prev in 0..size {
            let lengths = &self.lengths[usize::from(self.next_context[prev])];
            let row = &transitions[prev * size..prev * size + size];
            bits += row
                .iter()
                .zip(lengths)
                .map(|(&n, &l)| n * u64::from(l))
                .sum::<u64>();
        }
        bits
    }

    /// The symbol of every entry (entries not in the alphabet map to 0).
    pub fn symbol_map(&self) -> Vec<u16> {
        let mut map = vec![0u16; 1 << 16];
        for (s, &e) in self.symbols.iter().enumerate() {
            map[usize::from(e)] = s as u16;
        }
        map
    }

    /// The decoders, one per context.
    pub fn decoders(&self) -> Vec<Decoder> {
        self.lengths
            .iter()
            .zip(&self.single)
            .map(|(l, &s)| Decoder::new(l, s))
            .collect()
    }

    /// The serialised model: symbols and contexts as little-endian `u16`
    /// counts and arrays, then the code lengths a byte each.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let u16s = |out: &mut Vec<u8>, v: &[u16]| {
            v.iter()
                .for_each(|x| out.extend_from_slice(&x.to_le_bytes()))
        };
        // The class count shares a word with the context count: a file of
        // one class reads as it did before there were classes.
        debug_assert!(self.classes <= MAX_CLASSES && self.contexts() < 1 << 12);
        u16s(
            &mut out,
            &[
                self.symbols.len() as u16,
                (self.contexts() | (self.classes - 1) << 12) as u16,
            ],
        );
        u16s(&mut out, &self.symbols);
        u16s(&mut out, &self.next_context);
        u16s(&mut out, &self.single);
        for l in &self.lengths {
            out.extend_from_slice(l);
        }
        out
    }

    /// Reads a serialised model, checking every field.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let (model, used) = Model::from_prefix(bytes)?;
        if used != bytes.len() {
            return Err(format!(
                "model section has {} bytes, expected {used}",
                bytes.len()
            ));
        }
        Ok(model)
    }

    /// Reads a serialised model at the start of `bytes` (what follows it is
    /// left to the caller), checking every field; returns it and the bytes
    /// it took.
    pub fn from_prefix(bytes: &[u8]) -> Result<(Model, usize), ModelError> {
        let u16_at = |i: usize| -> Result<u16, ModelError> {
            bytes
                .get(2 * i..2 * i + 2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .ok_or_else(|| "model section is truncated".to_string())
        };
        let size = usize::from(u16_at(0)?);
        let word = usize::from(u16_at(1)?);
        let (per_class, classes) = (word & 0xFFF, (word >> 12) + 1);
        let contexts = per_class * classes;
        if size == 0 || size > MAX_SYMBOLS || per_class == 0 || contexts > MAX_CODES {
            return Err(format!(
                "model has {size} symbols and {classes} classes of {per_class} contexts"
            ));
        }
        let words = 2 + 2 * size + contexts;
        let expected = 2 * words + contexts * size;
        if bytes.len() < expected {
            return Err("model section is truncated".to_string());
        }
        let read = |from: usize, n: usize| -> Result<Vec<u16>, ModelError> {
            (from..from + n).map(u16_at).collect()
        };
        let symbols = read(2, size)?;
        let next_context = read(2 + size, size)?;
        let single = read(2 + 2 * size, contexts)?;
        if next_context.iter().any(|&c| usize::from(c) >= per_class)
            || single.iter().any(|&s| usize::from(s) >= size)
        {
            return Err("model names a context or symbol it does not have".to_string());
        }
        let lengths: Vec<Vec<u8>> = bytes[2 * words..expected]
            .chunks(size)
            .map(<[u8]>::to_vec)
            .collect();
        if let Some(c) = lengths.iter().position(|l| !huffman::lengths_are_valid(l)) {
            return Err(format!("model's code of context {c} is not a prefix code"));
        }
        Ok((
            Model {
                symbols,
                next_context,
                classes,
                lengths,
                single,
            },
            expected,
        ))
    }
}

/// Bits naming one of `classes` classes.
pub const fn class_bits(classes: usize) -> u32 {
    if classes <= 1 {
        0
    } else {
        usize::BITS - (classes - 1).leading_zeros()
    }
}

fn add(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    a
}

#[cfg(test)]
mod tests {
    use super::super::BLOCK_BYTES;
    use super::*;

    #[test]
    fn a_model_survives_serialisation_and_damage_is_refused() {
        let data: Vec<u16> = (0..5000u64)
            .map(|r| ((r * r) % 7 + (r % 3)) as u16)
            .collect();
        let model = Model::fit(data.len() as u64, BLOCK_BYTES, &|r| data[r as usize]);
        let bytes = model.to_bytes();
        assert_eq!(Model::from_bytes(&bytes), Ok(model.clone()));
        assert!(Model::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        // Every length of the last context set to 1: not a prefix code
        // once there are three symbols or more.
        let n = model.symbols.len();
        let end = bad.len();
        bad[end - n..].fill(1);
        assert!(n < 3 || Model::from_bytes(&bad).is_err());
    }

    #[test]
    fn one_entry_costs_no_bits() {
        let model = Model::fit(100, BLOCK_BYTES, &|_| 0x0102);
        assert_eq!(model.symbols, vec![0x0102]);
        assert!(model.lengths.iter().all(|l| l == &vec![0]));
    }
}
