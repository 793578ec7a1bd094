//! A Mancala board seen from the side to move, and its moves as the
//! tables see them: what each move gains and the board it leaves.
//!
//! A board is the twelve houses, the mover's first (houses 0..5); the
//! stores are left out, since no value depends on them once the 25-seed
//! stop is set aside (§7.6). The value of a board is the final store
//! difference, mover minus opponent, of the seeds on it under best play.
//!
//! The moves are sown on words (one house a byte, see
//! [`to_word`]), a sowing being three additions:
//! the tables' builder sows a few billion times. The tests hold it to
//! [`MancalaPosition::after`](super::MancalaPosition::after).

use crate::tb::board::{from_word, rotate_word, to_word};

/// Slots of a sowing lap: the mover's six houses, its store, the
/// opponent's six houses.
const LAP: usize = 13;
/// One seed in each of the twelve houses.
const ONES: u128 = 0x0101_0101_0101_0101_0101_0101;

/// `SOWN[h][k]`: one seed in each house reached by the first `k` slots
/// after house `h` on the lap (slot 6, the store, is left out), and
/// whether the store is among them.
const SOWN: [[(u128, u8); LAP]; 6] = {
    let mut t = [[(0u128, 0u8); LAP]; 6];
    let mut h = 0;
    while h < 6 {
        let mut k = 1;
        while k < LAP {
            let (mut houses, mut store) = t[h][k - 1];
            match (h + k) % LAP {
                6 => store = 1,
                slot => houses |= 1 << (8 * house_of_slot(slot)),
            }
            t[h][k] = (houses, store);
            k += 1;
        }
        h += 1;
    }
    t
};

/// The house of lap slot `slot` (not 6, the store).
const fn house_of_slot(slot: usize) -> usize {
    if slot < 6 { slot } else { slot - 1 }
}

/// Seeds in house `i` of a board word.
#[inline(always)]
const fn house(word: u128, i: usize) -> u8 {
    (word >> (8 * i)) as u8
}

/// Seeds in the mover's row (houses 0..5) of a board word.
#[inline(always)]
const fn row_sum(word: u128) -> u8 {
    // Byte 5 of the product is the sum of bytes 0..5 (at most 48 each way:
    // no byte carries).
    ((word as u64 & 0xFFFF_FFFF_FFFF).wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

/// One move of a board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Edge {
    /// The house sown, 0..5 from the mover's first.
    pub house: u8,
    /// Seeds the move put in the mover's store less those it put in the
    /// opponent's (a one-row board after the move is swept as §7.5 b says).
    pub gain: i8,
    /// Seeds the move put in the mover's store (sown and captured, the
    /// sweep left out): what the 25-seed stop counts.
    pub stored: u8,
    /// The board after the move, seen from whoever moves next, as a word.
    pub child: u128,
    /// Seeds on `child`.
    pub seeds: u8,
    /// The mover moves again (the last seed in its store): the child's
    /// value counts for the mover, not against it.
    pub again: bool,
}

impl Edge {
    /// The mover's value through this move, from the child's.
    #[inline(always)]
    pub const fn value(&self, child: i8) -> i8 {
        if self.again {
            self.gain + child
        } else {
            self.gain - child
        }
    }

    /// The board after the move, seen from whoever moves next.
    pub fn child_board(&self) -> [u8; 12] {
        from_word(self.child)
    }
}

/// The value of a board word one of whose rows is empty (§7.5 b: the
/// seeds left go to the owner of the other row), or `None` when both rows
/// hold seeds and the board has moves.
#[inline(always)]
pub fn terminal_word(word: u128) -> Option<i8> {
    let (mine, theirs) = (row_sum(word), row_sum(word >> 48));
    (mine == 0 || theirs == 0).then_some(mine as i8 - theirs as i8)
}

/// [`terminal_word`] of a board.
pub fn terminal_value(board: &[u8; 12]) -> Option<i8> {
    terminal_word(to_word(board))
}

/// The move of house `h` (holding seeds) of the board word `word` of `n`
/// seeds, both rows holding seeds.
#[inline(always)]
pub fn sow(word: u128, n: u8, h: usize, empty_capture: bool) -> Edge {
    let seeds = usize::from(house(word, h));
    debug_assert!(seeds > 0);
    let (laps, rest) = (seeds / LAP, seeds % LAP);
    let (sown, store_seed) = SOWN[h][rest];
    let mut child = (word & !(0xFF << (8 * h))) + laps as u128 * ONES + sown;
    let mut stored = laps as u8 + store_seed;
    let last = (h + seeds) % LAP;
    let again = last == 6;
    if last < 6 && house(child, last) == 1 {
        let opposite = 11 - last;
        let taken = house(child, opposite);
        if taken > 0 || empty_capture {
            stored += taken + 1;
            child &= !((0xFF << (8 * last)) | (0xFF << (8 * opposite)));
        }
    }
    let mut gain = stored as i8;
    let mut left = n - stored;
    if let Some(swept) = terminal_word(child) {
        gain += swept;
        child = 0;
        left = 0;
    }
    Edge {
        house: h as u8,
        gain,
        stored,
        child: if again { child } else { rotate_word(child) },
        seeds: left,
        again,
    }
}

/// Calls `f` for each move of the board word `word` of `n` seeds (both
/// rows holding seeds), in house order; returns how many there were.
#[inline(always)]
pub fn for_each_edge_word(word: u128, n: u8, empty_capture: bool, mut f: impl FnMut(Edge)) -> u32 {
    let mut moves = 0;
    for h in 0..6 {
        if house(word, h) != 0 {
            moves += 1;
            f(sow(word, n, h, empty_capture));
        }
    }
    moves
}

/// [`for_each_edge_word`] of a board (both rows holding seeds).
pub fn for_each_edge(board: &[u8; 12], empty_capture: bool, f: impl FnMut(Edge)) -> u32 {
    let n = board.iter().sum();
    for_each_edge_word(to_word(board), n, empty_capture, f)
}
