//! MTD(f): the exact value of a board by a series of null-window proofs,
//! each starting from the bounds the table keeps from the ones before.

use super::board::Board;
use super::endgame::Endgame;
use super::search::Searcher;

/// Bounds on a value, exact when they meet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// The value is at least this.
    pub lower: i32,
    /// The value is at most this.
    pub upper: i32,
}

impl Range {
    /// The exact value `v`.
    pub const fn exact(v: i32) -> Range {
        Range { lower: v, upper: v }
    }

    /// The value, once the bounds meet.
    pub const fn value(self) -> Option<i32> {
        if self.lower == self.upper {
            Some(self.lower)
        } else {
            None
        }
    }

    /// The range shifted by `d` (a move's gain before a board of this
    /// range, the same side to move).
    pub const fn plus(self, d: i32) -> Range {
        Range {
            lower: self.lower + d,
            upper: self.upper + d,
        }
    }

    /// `d` less a value of this range (the opponent moving next).
    pub const fn from_opponent(self, d: i32) -> Range {
        Range {
            lower: d - self.upper,
            upper: d - self.lower,
        }
    }

    /// The range of the larger of two values.
    pub fn max(self, other: Range) -> Range {
        Range {
            lower: self.lower.max(other.lower),
            upper: self.upper.max(other.upper),
        }
    }
}

/// The value of `board` (game not over) by MTD(f) from `guess`, calling
/// `on_pass` with the bounds and the searcher's node count after each
/// null-window proof. If the search is stopped, the bounds reached so far.
pub fn mtdf<E: Endgame>(
    searcher: &mut Searcher<'_, E>,
    board: Board,
    guess: i32,
    mut on_pass: impl FnMut(Range, u64),
) -> Range {
    let n = i32::from(board.seeds());
    let mut range = searcher.bounds(board).map_or(
        Range {
            lower: -n,
            upper: n,
        },
        |b| Range {
            lower: i32::from(b.lower),
            upper: i32::from(b.upper),
        },
    );
    let mut g = guess.clamp(range.lower, range.upper);
    while range.lower < range.upper {
        // Test "value >= beta"; a guess at a bound moves one past it.
        let beta = if g == range.lower { g + 1 } else { g };
        g = searcher.value(board, beta - 1, beta);
        if searcher.aborted() {
            break;
        }
        if g < beta {
            range.upper = g;
        } else {
            range.lower = g;
        }
        on_pass(range, searcher.nodes());
    }
    range
}

/// A first guess at the value of `board` for MTD(f): a plain alpha-beta
/// `depth` moves deep scoring only the seeds gained on the way.
pub fn estimate(board: Board, depth: u32, empty_capture: bool) -> i32 {
    fn go(board: Board, depth: u32, mut alpha: i32, beta: i32, empty_capture: bool) -> i32 {
        if depth == 0 || board.is_over() {
            return 0;
        }
        let legal = board.legal_houses();
        let mut best = i32::MIN;
        // Another go first, nearest the store first.
        let mut houses: Vec<usize> = (0..6).rev().filter(|h| legal & (1 << h) != 0).collect();
        houses.sort_by_key(|&h| !board.gives_another_go(h));
        for h in houses {
            let sown = board.sow(h, board.seeds(), empty_capture);
            let d = i32::from(sown.gain);
            let v = if sown.again {
                d + go(sown.board, depth - 1, alpha - d, beta - d, empty_capture)
            } else {
                d - go(sown.board, depth - 1, d - beta, d - alpha, empty_capture)
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    go(board, depth, -100, 100, empty_capture)
}
