//! The grid a level's ranks lie in, as the neighbour contexts of format
//! version 5 see it.
//!
//! Oware's index ranks a board by the stars-and-bars picture of its pits,
//! pit 0 varying fastest (see [`crate::tb::index`]). Moving one seed of pit
//! 1 to pit 2 lowers the seeds in pits 0..=1 by one and so the rank by
//! exactly `p0 + p1`; moving one of pit 0 to pit 2 lowers it by `p0 + p1 +
//! 1` (`p0`, `p1` the seeds in pits 0 and 1). The entries of those two
//! boards, already read when the board is coded whenever they lie in the
//! same block, predict its entry: a decoder needs only pits 0 and 1 of each
//! board as it steps through the ranks.

use crate::tb::index::{Boards, level_size};
use crate::tb::rules::TableRules;

/// The grid of one level of Oware's index.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    level: usize,
}

/// How far back a board's two neighbours lie (0: the board has none, its
/// pit being empty).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Backs {
    /// The board with one seed of pit 1 moved to pit 2.
    pub up: u8,
    /// The board with one seed of pit 0 moved to pit 2.
    pub over: u8,
}

impl Backs {
    /// The neighbours of a board with `p0` and `p1` seeds in pits 0 and 1.
    #[inline]
    pub const fn of(p0: u8, p1: u8) -> Backs {
        let near = p0 + p1;
        Backs {
            up: if p1 > 0 { near } else { 0 },
            over: if p0 > 0 { near + 1 } else { 0 },
        }
    }
}

impl Lattice {
    /// The grid of level `level` of Oware's index.
    pub const fn oware(level: usize) -> Lattice {
        Lattice { level }
    }

    /// The grid of a level of `rules`, when its tables use Oware's index
    /// (Mancala's do not: its contexts stay those of version 4).
    pub fn of(rules: TableRules, level: usize) -> Option<Lattice> {
        match rules {
            TableRules::Oware(_) => Some(Lattice::oware(level)),
            _ => None,
        }
    }

    /// Boards in the level.
    pub const fn boards(self) -> u64 {
        level_size(self.level)
    }

    /// The neighbours of each board from rank `start` on, in rank order.
    pub fn walk(self, start: u64) -> Walk {
        Walk {
            boards: Boards::new(self.level, start, u64::MAX),
            next: start,
        }
    }
}

/// The boards of a level from some rank on, each as its [`Backs`].
pub struct Walk {
    boards: Boards,
    /// The rank of the next board.
    next: u64,
}

impl Walk {
    /// The rank of the next board.
    pub fn position(&self) -> u64 {
        self.next
    }

    /// The next board's neighbours (none past the level's last board).
    #[inline]
    pub fn next_backs(&mut self) -> Backs {
        self.next += 1;
        self.boards
            .next_low_pits()
            .map_or(Backs::default(), |(p0, p1)| Backs::of(p0, p1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::index::{rank, unrank};
    use proptest::prelude::*;

    proptest! {
        /// The walk's distances are those between the ranks of the board
        /// and its neighbours.
        #[test]
        fn backs_are_rank_differences(level in 1usize..30, at in any::<u64>(), len in 1u64..300) {
            let lattice = Lattice::oware(level);
            let start = at % lattice.boards();
            let mut walk = lattice.walk(start);
            for r in start..(start + len).min(lattice.boards()) {
                let board = unrank(r, level);
                let backs = walk.next_backs();
                prop_assert_eq!(backs, Backs::of(board[0], board[1]));
                for (from, back) in [(1, backs.up), (0, backs.over)] {
                    if board[from] > 0 {
                        let mut moved = board;
                        moved[from] -= 1;
                        moved[2] += 1;
                        prop_assert_eq!(r - rank(&moved, level), u64::from(back));
                    } else {
                        prop_assert_eq!(back, 0);
                    }
                }
            }
        }
    }
}
