//! A perfect ranking of the boards of one level.
//!
//! A *board* is twelve pit counts seen from the side to move, who owns pits
//! 0..5. Level `n` holds the boards with `n` seeds where the side *not* to
//! move (pits 6..11) has at least one empty pit — every board reached by a
//! move, since the mover's origin pit is empty afterwards. There are
//! C(n+11,11) − C(n+5,11) of them.
//!
//! Ranking: let `j` be the first empty pit among 6..11. Pits 6..6+j−1 hold at
//! least one seed each; taking one from each and dropping pit 6+j leaves a
//! composition of `n − j` seeds into 11 parts, ranked in colexicographic
//! order of its stars-and-bars subset. Boards are ordered by `j`, then by
//! that rank, so `rank = base[n][j] + colex(parts)` with
//! `base[n][j] = Σ_{i<j} C(n−i+10, 10)`.

use super::board::{from_word, to_word};

/// The most seeds a board can hold.
pub const MAX_SEEDS: usize = 48;

/// Parts in the reduced composition.
const PARTS: usize = 11;

/// `BINOM[a][b]` = C(a, b) for a ≤ 59, b ≤ 11.
const BINOM: [[u64; 12]; 60] = {
    let mut t = [[0u64; 12]; 60];
    let mut a = 0;
    while a < 60 {
        t[a][0] = 1;
        let mut b = 1;
        while b < 12 {
            t[a][b] = if a == 0 {
                0
            } else {
                t[a - 1][b - 1] + t[a - 1][b]
            };
            b += 1;
        }
        a += 1;
    }
    t
};

/// C(a, b) for the small arguments the index uses (0 when b > a).
#[inline]
pub const fn binom(a: usize, b: usize) -> u64 {
    BINOM[a][b]
}

/// `BASE[n][j]`: the first rank of the boards of level `n` whose first empty
/// opponent pit is `6 + j`; `BASE[n][6]` is the level's size.
const BASE: [[u64; 7]; MAX_SEEDS + 1] = {
    let mut t = [[0u64; 7]; MAX_SEEDS + 1];
    let mut n = 0;
    while n <= MAX_SEEDS {
        let mut j = 0;
        while j < 6 {
            let count = if j <= n { binom(n - j + 10, 10) } else { 0 };
            t[n][j + 1] = t[n][j] + count;
            j += 1;
        }
        n += 1;
    }
    t
};

/// Boards in level `n` (`n ≤ 48`).
#[inline]
pub const fn level_size(n: usize) -> u64 {
    BASE[n][6]
}

/// Whether `board` belongs to some level: the side not to move has an
/// empty pit and there are at most 48 seeds.
#[inline]
pub fn is_indexed(board: &[u8; 12]) -> bool {
    board[6..].contains(&0) && board.iter().map(|&s| s as usize).sum::<usize>() <= MAX_SEEDS
}

/// The rank of an indexed `board` of `n` seeds within level `n`.
#[inline]
pub fn rank(board: &[u8; 12], n: usize) -> u64 {
    rank_word(to_word(board), n)
}

/// `BINOM` widened to every row a byte can name, so that looking up a
/// byte-sized argument needs no bounds check (rows above 59 are never read).
static BINOM_BY_BYTE: [[u64; 12]; 256] = {
    let mut t = [[0u64; 12]; 256];
    let mut a = 0;
    while a < 60 {
        t[a] = BINOM[a];
        a += 1;
    }
    t
};

/// [`rank`] of a board held as a word (see [`to_word`]): the pits are read
/// with shifts, in registers, and nothing depends on a branch but the
/// table look-ups' addresses.
#[inline(always)]
pub fn rank_word(word: u128, n: usize) -> u64 {
    debug_assert!(is_indexed(&from_word(word)));
    // The first empty pit of the opponent's row: the lowest zero byte of
    // pits 6..11 (counts never reach 0x80, so the usual zero-byte test is
    // exact for the lowest one).
    const ONES: u64 = 0x0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080;
    let row = (word >> 48) as u64 & 0xFFFF_FFFF_FFFF;
    let zeros = row.wrapping_sub(ONES) & !row & HIGHS;
    // `zeros` is never 0 for an indexed board; `| 1 << 63` keeps j ≤ 7 and
    // the look-up below in bounds whatever the word.
    let j = ((zeros | 1 << 63).trailing_zeros() / 8) as usize;
    // Prefix sums in every byte at once: byte k of `prefix` holds P(k + 1),
    // the seeds in pits 0..=k (at most 48, so no byte carries).
    let prefix = word.wrapping_mul(0x0101_0101_0101_0101_0101_0101);
    let p = |k: usize| usize::from((prefix >> (8 * k)) as u8);
    let binom = |a: usize, b: usize| BINOM_BY_BYTE[a & 0xFF][b];
    // Bar i (1-based) of the stars-and-bars picture sits at (seeds in the
    // first i parts) + i − 1. With P(k) the seeds in pits 0..k: the first six
    // parts are pits 0..5; part i (7 ≤ i ≤ 6 + j) is pit i − 1 less one seed,
    // so its bar is at P(i) − (i − 6) + i − 1 = P(i) + 5; a later part skips
    // pit 6 + j, so its bar is at P(i + 1) − j + i − 1.
    let mut r = BASE[n.min(MAX_SEEDS)][j.min(6)];
    for i in 0..6 {
        r += binom(p(i) + i, i + 1);
    }
    for i in 7..PARTS {
        let bar = if i <= 6 + j {
            p(i - 1) + 5
        } else {
            p(i) + i - 1 - j
        };
        r += binom(bar, i);
    }
    r
}

/// The board of level `n` with rank `r` (`r < level_size(n)`).
pub fn unrank(r: u64, n: usize) -> [u8; 12] {
    from_word(unrank_word(r, n))
}

/// [`unrank`] as a word (see [`to_word`]).
#[inline]
pub fn unrank_word(r: u64, n: usize) -> u128 {
    let (j, parts) = parts_of(r, n);
    expand_word(parts, j)
}

/// The first empty opponent pit of the board of rank `r` in level `n`, and
/// its 11 parts, one per byte of a word (part i in byte i).
fn parts_of(mut r: u64, n: usize) -> (usize, u128) {
    debug_assert!(r < level_size(n));
    let j = (0..6).rposition(|j| BASE[n][j] <= r).unwrap_or(0);
    r -= BASE[n][j];
    (j, composition::<PARTS>(r, n - j))
}

/// The composition of rank `r` of `total` seeds into `K` parts, one per
/// byte of a word (part i in byte i), in the order of the stars-and-bars
/// rank.
#[inline(always)]
fn composition<const K: usize>(mut r: u64, total: usize) -> u128 {
    // Recover the bar positions from the highest down: bar i is the largest
    // b below bar i + 1 with C(b, i) ≤ the remaining rank. The gaps between
    // bars are the parts, which hold few seeds, so a walk down from the
    // previous bar takes fewer steps than a binary search.
    let mut parts = 0u128;
    let mut above = total + K - 1;
    let mut b = above;
    for i in (1..K).rev() {
        // C(i − 1, i) = 0 ≤ r stops the walk.
        b -= 1;
        while binom(b, i) > r {
            b -= 1;
        }
        r -= binom(b, i);
        parts |= ((above - b - 1) as u128) << (8 * i);
        above = b;
    }
    parts | above as u128
}

/// The board word of 11 parts (one per byte) and the first empty opponent
/// pit `6 + j`: a zero byte inserted for that pit, and one seed added back
/// to each of pits 6..6+j.
#[inline]
fn expand_word(parts: u128, j: usize) -> u128 {
    let split = 8 * (6 + j);
    let low = parts & ((1 << split) - 1);
    let high = (parts >> split) << (split + 8);
    let ones = (0x0101_0101_0101u128 & ((1 << (8 * j)) - 1)) << 48;
    (low | high) + ones
}

/// Iterates the boards of a level in rank order, from a given rank, without
/// unranking each one.
pub struct Boards {
    n: usize,
    j: usize,
    /// The 11 parts of the next board, one per byte (part i in byte i).
    parts: u128,
    remaining: u64,
}

impl Boards {
    /// Up to `count` boards of level `n`, starting at rank `start`.
    pub fn new(n: usize, start: u64, count: u64) -> Boards {
        let size = level_size(n);
        let count = count.min(size.saturating_sub(start));
        let (j, parts) = if count == 0 {
            (0, 0)
        } else {
            parts_of(start, n)
        };
        Boards {
            n,
            j,
            parts,
            remaining: count,
        }
    }

    /// Steps the parts to their colex successor; false past the last one.
    #[inline]
    fn advance(&mut self) -> bool {
        // The smallest i ≥ 1 with a seed moves one seed down to part i − 1
        // and gathers there everything before it: parts 1..i are empty, so
        // that is part 0 plus the seed.
        let above = self.parts & !0xFF;
        if above == 0 {
            return false;
        }
        let i = above.trailing_zeros() / 8;
        let gathered = (self.parts & 0xFF) + 1;
        self.parts = above - (1 << (8 * i)) + (gathered << (8 * (i - 1)));
        true
    }
}

impl Boards {
    /// The next board as a word (see [`to_word`]).
    #[inline]
    pub fn next_word(&mut self) -> Option<u128> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let board = expand_word(self.parts, self.j);
        if self.remaining > 0 && !self.advance() {
            // First composition of the next `j`: every seed in the last part.
            self.j += 1;
            self.parts = ((self.n - self.j) as u128) << (8 * (PARTS - 1));
        }
        Some(board)
    }
}

impl Boards {
    /// The seeds in pits 0 and 1 of the next board: what the compact
    /// format's neighbour contexts need, without building the board.
    #[inline]
    pub fn next_low_pits(&mut self) -> Option<(u8, u8)> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        // Parts 0 and 1 are pits 0 and 1 whatever the opponent's row.
        let pits = (self.parts as u8, (self.parts >> 8) as u8);
        if self.remaining > 0 && !self.advance() {
            self.j += 1;
            self.parts = ((self.n - self.j) as u128) << (8 * (PARTS - 1));
        }
        Some(pits)
    }
}

impl Iterator for Boards {
    type Item = [u8; 12];

    #[inline]
    fn next(&mut self) -> Option<[u8; 12]> {
        self.next_word().map(from_word)
    }
}

// Every board: Mancala's levels.
//
// A Mancala level holds every board of n seeds, C(n+11, 11) of them: after
// another go the mover's own row has the empty origin, and a lap refills
// it, so no pit is sure to be empty. The rank is the colexicographic rank
// of the composition's stars-and-bars subset, as for Oware's parts but
// over all twelve pits.

/// Parts of a full board.
const FULL_PARTS: usize = 12;

/// Boards in level `n` of the full index (`n ≤ 48`): C(n+11, 11).
#[inline]
pub const fn full_level_size(n: usize) -> u64 {
    binom(n + FULL_PARTS - 1, FULL_PARTS - 1)
}

/// The rank of `board`, holding `n` seeds, among every board of `n` seeds.
#[inline]
pub fn rank_full(board: &[u8; 12], n: usize) -> u64 {
    rank_full_word(to_word(board), n)
}

/// [`rank_full`] of a board held as a word (see [`to_word`]).
#[inline(always)]
pub fn rank_full_word(word: u128, n: usize) -> u64 {
    debug_assert!(n <= MAX_SEEDS);
    debug_assert_eq!(
        from_word(word)
            .iter()
            .map(|&s| usize::from(s))
            .sum::<usize>(),
        n
    );
    // Byte k of `prefix` holds the seeds in pits 0..=k, and bar i + 1 of
    // the picture sits at that count plus i.
    let prefix = word.wrapping_mul(0x0101_0101_0101_0101_0101_0101);
    let p = |k: usize| usize::from((prefix >> (8 * k)) as u8);
    let binom = |a: usize, b: usize| BINOM_BY_BYTE[a & 0xFF][b];
    let mut r = 0;
    for i in 0..FULL_PARTS - 1 {
        r += binom(p(i) + i, i + 1);
    }
    r
}

/// The board of rank `r` among every board of `n` seeds
/// (`r < full_level_size(n)`).
pub fn unrank_full(r: u64, n: usize) -> [u8; 12] {
    from_word(unrank_full_word(r, n))
}

/// [`unrank_full`] as a word (see [`to_word`]).
pub fn unrank_full_word(r: u64, n: usize) -> u128 {
    debug_assert!(r < full_level_size(n));
    composition::<FULL_PARTS>(r, n)
}

/// Iterates every board of a level in rank order (see [`rank_full`]),
/// from a given rank, without unranking each one.
pub struct FullBoards {
    /// The next board, one pit per byte.
    board: u128,
    remaining: u64,
}

impl FullBoards {
    /// Up to `count` boards of `n` seeds, starting at rank `start`.
    pub fn new(n: usize, start: u64, count: u64) -> FullBoards {
        let count = count.min(full_level_size(n).saturating_sub(start));
        let board = if count == 0 {
            0
        } else {
            unrank_full_word(start, n)
        };
        FullBoards {
            board,
            remaining: count,
        }
    }

    /// The next board as a word (see [`to_word`]).
    #[inline]
    pub fn next_word(&mut self) -> Option<u128> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let board = self.board;
        // The colex successor, as in `Boards::advance`: the lowest pit
        // i ≥ 1 with a seed gives one to pit i − 1, which also gathers
        // pit 0's seeds (pits 1..i are empty). The last board has every
        // seed in pit 0 and is never advanced.
        let above = board & !0xFF;
        if self.remaining > 0 && above != 0 {
            let i = above.trailing_zeros() / 8;
            let gathered = (board & 0xFF) + 1;
            self.board = above - (1 << (8 * i)) + (gathered << (8 * (i - 1)));
        }
        Some(board)
    }
}

impl Iterator for FullBoards {
    type Item = [u8; 12];

    #[inline]
    fn next(&mut self) -> Option<[u8; 12]> {
        self.next_word().map(from_word)
    }
}
