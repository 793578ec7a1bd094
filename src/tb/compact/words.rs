//! The encoder's view of a model: every code's words and lengths laid out
//! flat, so that a board's word is found from its class, context and
//! neighbours' names by two look-ups (the row of its code, then the cell),
//! and the search for a block's class runs over all classes side by side.
//!
//! The encoder asks for many more lengths than words: each block is tried
//! in every class before it is coded in one. The table of rows is ordered
//! with the class innermost, so that the sixteen classes' rows for a board
//! lie together (64 bytes).

use super::MAX_BOARDS_PER_BLOCK;
use super::huffman::canonical_codes;
use super::lattice::Backs;
use super::model::{MAX_CLASSES, Model, START};
use super::neighbours::{NO_CODE, NONE, Neighbours, WAYS, bucket};

/// The length of a symbol a code cannot code.
const CANNOT: u8 = u8::MAX;

/// A model's words and lengths by class, context, neighbours and symbol.
pub struct Words {
    classes: usize,
    /// The neighbour pairs each code splits into: `WAYS²` with neighbour
    /// codes, else 1.
    pairs: usize,
    /// Distinct symbols of the level.
    size: usize,
    class_bits: usize,
    /// The context after each symbol.
    next_context: Vec<u16>,
    /// By `(context × pairs + pair) × classes + class`, the row of its
    /// code: version 4's code (class × contexts + context), or past them
    /// the combo's own.
    rows: Vec<u32>,
    /// By `row × size + symbol`, its length, or [`CANNOT`].
    lens: Vec<u8>,
    /// By `row × size + symbol`, its word.
    words: Vec<u32>,
}

impl Words {
    /// The words of `model`'s codes, and of the own codes of `neighbours`
    /// when given (format version 5).
    pub fn new(model: &Model, neighbours: Option<&Neighbours>) -> Words {
        let (classes, contexts, size) = (model.classes, model.contexts(), model.symbols.len());
        assert!(classes <= MAX_CLASSES, "{classes} classes");
        let pairs = if neighbours.is_some() { WAYS * WAYS } else { 1 };
        let codes = model.lengths.len();
        let own = neighbours.map_or(&[][..], |n| &n.codes[..]);
        let mut lens = vec![CANNOT; (codes + own.len()) * size];
        let mut words = vec![0u32; (codes + own.len()) * size];
        for (code, lengths) in model.lengths.iter().enumerate() {
            let row = code * size;
            if lengths.iter().all(|&l| l == 0) {
                // A code of one symbol, of length 0 (none in a level of no
                // boards).
                let single = usize::from(model.single[code]);
                debug_assert!(
                    size == 0 || single < size,
                    "single symbol {single} of {size}"
                );
                if single < size {
                    lens[row + single] = 0;
                }
                continue;
            }
            let canonical = canonical_codes(lengths);
            for s in 0..size {
                if lengths[s] > 0 {
                    lens[row + s] = lengths[s];
                    words[row + s] = canonical[s];
                }
            }
        }
        for (i, code) in own.iter().enumerate() {
            let row = (codes + i) * size;
            for ((&s, &len), word) in code.symbols.iter().zip(&code.lengths).zip(code.words()) {
                lens[row + usize::from(s)] = len;
                words[row + usize::from(s)] = word;
            }
        }
        let mut rows = vec![0u32; contexts * pairs * classes];
        for context in 0..contexts {
            for pair in 0..pairs {
                for class in 0..classes {
                    let code = class * contexts + context;
                    let id = neighbours.map_or(NO_CODE, |n| n.own[code * pairs + pair]);
                    rows[(context * pairs + pair) * classes + class] = if id == NO_CODE {
                        code as u32
                    } else {
                        (codes as u32) + id
                    };
                }
            }
        }
        Words {
            classes,
            pairs,
            size,
            class_bits: model.class_bits() as usize,
            next_context: model.next_context.clone(),
            rows,
            lens,
            words,
        }
    }

    /// Whether the words are split by neighbours.
    pub fn by_neighbours(&self) -> bool {
        self.pairs > 1
    }

    /// The pair of names of board `k` of a block (`block[k]` its symbol,
    /// `block[..k]` those before it) with its neighbours `backs[k]` away: 0
    /// without neighbour codes (`backs` is then not read).
    #[inline]
    fn pair(&self, block: &[u16], k: usize, backs: &[Backs]) -> usize {
        if self.pairs == 1 {
            return 0;
        }
        let (up, over) = names(block, k, backs[k]);
        usize::from(up) * WAYS + usize::from(over)
    }

    /// The index into `lens` and `words` of symbol `s` in `class` after
    /// `context` with neighbours' names `pair`.
    #[inline]
    fn cell(&self, class: usize, context: usize, pair: usize, s: u16) -> usize {
        let row = self.rows[(context * self.pairs + pair) * self.classes + class] as usize;
        row * self.size + usize::from(s)
    }

    /// The class that packs the most of `symbols` (the boards' neighbours
    /// `backs` away, read only when the words are split by neighbours) into a block
    /// of `block_bits` bits, class bits included, and how many it packs:
    /// the lowest such class; 0 boards only if no class codes the first
    /// symbol. Every class is tried side by side, board by board.
    pub fn best_class(
        &self,
        symbols: &[u16],
        backs: &[Backs],
        block_bits: usize,
    ) -> (usize, usize) {
        let limit = symbols.len().min(MAX_BOARDS_PER_BLOCK);
        let block = &symbols[..limit];
        let mut bits = [self.class_bits; MAX_CLASSES];
        let mut packed = [limit; MAX_CLASSES];
        let mut open: u32 = (1 << self.classes) - 1;
        let mut context = START;
        for (n, &s) in block.iter().enumerate() {
            let base = (context * self.pairs + self.pair(block, n, backs)) * self.classes;
            let mut left = open;
            while left != 0 {
                let class = left.trailing_zeros() as usize;
                left &= left - 1;
                let row = self.rows[base + class] as usize;
                let len = self.lens[row * self.size + usize::from(s)];
                if len == CANNOT || bits[class] + usize::from(len) > block_bits {
                    packed[class] = n;
                    open &= !(1 << class);
                } else {
                    bits[class] += usize::from(len);
                }
            }
            if open == 0 {
                break;
            }
            context = usize::from(self.next_context[usize::from(s)]);
        }
        let mut best = (0, 0);
        for (class, &n) in packed.iter().enumerate().take(self.classes) {
            if n > best.1 {
                best = (class, n);
            }
        }
        best
    }

    /// Writes `block` in `class`: the class, then each symbol's word (the
    /// boards' neighbours `backs` away).
    pub fn code(
        &self,
        class: usize,
        block: &[u16],
        backs: &[Backs],
        mut write: impl FnMut(u32, u8),
    ) {
        if self.class_bits > 0 {
            write(class as u32, self.class_bits as u8);
        }
        let mut context = START;
        for (k, &s) in block.iter().enumerate() {
            let cell = self.cell(class, context, self.pair(block, k, backs), s);
            let len = self.lens[cell];
            assert!(
                len != CANNOT,
                "the class was chosen for coding these symbols"
            );
            write(self.words[cell], len);
            context = usize::from(self.next_context[usize::from(s)]);
        }
    }
}

/// How board `k` of a block (`block[k]` its symbol, `block[..k]` those
/// before it) names its neighbours `backs` away.
#[inline]
pub fn names(block: &[u16], k: usize, backs: Backs) -> (u8, u8) {
    let name = |back: u8| match usize::from(back) {
        0 => NONE,
        b if b > k => NONE,
        b => bucket(block[k - b]),
    };
    (name(backs.up), name(backs.over))
}

#[cfg(test)]
mod tests {
    use super::super::neighbours::{OwnCode, combo};
    use super::*;
    use proptest::prelude::*;

    /// The class search done the plain way, one class after another, each
    /// board's length asked of the model or of its combo's own code.
    fn best_class_plainly(
        model: &Model,
        neighbours: Option<&Neighbours>,
        symbols: &[u16],
        backs: &[Backs],
        block_bits: usize,
    ) -> (usize, usize) {
        let limit = symbols.len().min(MAX_BOARDS_PER_BLOCK);
        let block = &symbols[..limit];
        let mut best = (0, 0);
        for class in 0..model.classes {
            let (mut bits, mut context, mut n) = (model.class_bits() as usize, START, 0);
            while n < limit {
                let code = class * model.contexts() + context;
                let s = usize::from(block[n]);
                let own = neighbours.and_then(|nb| {
                    let (up, over) = names(block, n, backs[n]);
                    let id = nb.own[combo(code, up, over)];
                    (id != NO_CODE).then(|| &nb.codes[id as usize])
                });
                let len = match own {
                    Some(c) => c
                        .symbols
                        .iter()
                        .position(|&x| usize::from(x) == s)
                        .map(|k| c.lengths[k]),
                    None => model.codes(code, s).then(|| model.lengths[code][s]),
                };
                match len {
                    Some(l) if bits + usize::from(l) <= block_bits => bits += usize::from(l),
                    _ => break,
                }
                context = usize::from(model.next_context[s]);
                n += 1;
            }
            if n > best.1 {
                best = (class, n);
            }
        }
        best
    }

    /// A model of `classes` × `contexts` codes over `size` symbols from the
    /// bytes `r` (lengths 0..=6, some codes of one symbol), and own codes
    /// for some combos.
    fn model_of(classes: usize, contexts: usize, size: usize, r: &[u8]) -> (Model, Neighbours) {
        let mut at = 0;
        let mut next = || {
            at += 1;
            r[at % r.len()]
        };
        let codes = classes * contexts;
        let lengths: Vec<Vec<u8>> = (0..codes)
            .map(|_| {
                if next() % 7 == 0 {
                    vec![0; size]
                } else {
                    (0..size).map(|_| next() % 7).collect()
                }
            })
            .collect();
        let model = Model {
            symbols: (0..size as u16).collect(),
            next_context: (0..size)
                .map(|_| u16::from(next()) % contexts as u16)
                .collect(),
            classes,
            lengths,
            single: (0..codes)
                .map(|_| u16::from(next()) % size as u16)
                .collect(),
        };
        let mut own = vec![NO_CODE; codes * WAYS * WAYS];
        let mut own_codes = Vec::new();
        for slot in own.iter_mut() {
            if next() % 3 == 0 {
                let symbols: Vec<u16> = (0..size as u16).filter(|_| next() % 2 == 0).collect();
                if symbols.is_empty() {
                    continue;
                }
                let lengths = if symbols.len() == 1 {
                    vec![0]
                } else {
                    symbols.iter().map(|_| 1 + next() % 6).collect()
                };
                *slot = own_codes.len() as u32;
                own_codes.push(OwnCode { symbols, lengths });
            }
        }
        let neighbours = Neighbours {
            own,
            codes: own_codes,
        };
        (model, neighbours)
    }

    proptest! {
        /// The side-by-side search chooses the class and count the plain
        /// one does, with and without neighbour codes, in blocks short
        /// and long (and symbols a code cannot code).
        #[test]
        fn best_class_is_the_plain_search(
            classes in 1usize..=16,
            contexts in 1usize..4,
            size in 1usize..6,
            r in prop::collection::vec(any::<u8>(), 64..256),
            symbols in prop::collection::vec(0u16..6, 0..300),
            pits in prop::collection::vec((0u8..4, 0u8..4), 300),
            block_bits in 4usize..600,
        ) {
            let (model, neighbours) = model_of(classes, contexts, size, &r);
            let symbols: Vec<u16> = symbols.iter().map(|&s| s % size as u16).collect();
            let backs: Vec<Backs> = pits.iter().map(|&(p0, p1)| Backs::of(p0, p1)).collect();
            let plain = Words::new(&model, None);
            prop_assert_eq!(
                plain.best_class(&symbols, &[], block_bits),
                best_class_plainly(&model, None, &symbols, &backs, block_bits)
            );
            let by_neighbours = Words::new(&model, Some(&neighbours));
            prop_assert_eq!(
                by_neighbours.best_class(&symbols, &backs, block_bits),
                best_class_plainly(&model, Some(&neighbours), &symbols, &backs, block_bits)
            );
        }
    }
}
