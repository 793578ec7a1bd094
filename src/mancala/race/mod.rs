//! The race to 25: Mancala with the 25-seed stop in play (RULES.md §7.5 c).
//!
//! With 60 or 84 seeds (the 5- and 7-seed starts) a store of 25 is not a
//! majority, the game stops the moment a store reaches 25, and the larger
//! store wins. A position is then a board of `n` seeds with the stores of
//! the side to move `s` and of its opponent `t`. Its outcome (win, draw or
//! loss for the side to move) depends on the stores only through the seeds
//! each side still **needs**: `a = 25 − s` for the mover, `b = 25 − t` for
//! the opponent. The stop comes when a move brings the mover's stored
//! seeds to `a`; at the end by (a)/(b) the stores compare as `b − a` plus
//! what the board's seeds gave each side.
//!
//! A start of `total` seeds fixes `a + b = n + 50 − total` for every board
//! of `n` seeds, so for one start the outcome of a board is a function of
//! `a` alone, and it is monotone: one seed more for the mover (one less for
//! the opponent) is never worse. A race table therefore holds, for each
//! board, two thresholds: the largest `a` with which the mover still wins
//! and the largest with which it still draws or better ([`RaceEntry`], one
//! byte). See `docs/src/mancala.md`.

mod build;
mod entry;
mod reference;
mod rules;
pub mod solve;
mod step;
mod tables;

pub use build::working_memory;
pub use entry::{Outcome, RaceEntry};
pub use reference::Reference;
pub use rules::{RaceRules, needs_range};
pub use step::{board_outcome, through};
pub use tables::RaceTables;
