//! What closes a line without search: the endgame tables, or nothing.

use super::board::Board;
use crate::mancala::MancalaTables;

/// Exact values known without search.
pub trait Endgame: Sync {
    /// Every board with at most this many seeds has a value here (0: none).
    fn level(&self) -> u8;

    /// The value for the side to move of `board` (at most [`level`] seeds,
    /// game not over): the seeds it gains from the board less the seeds
    /// its opponent gains, under perfect play.
    ///
    /// [`level`]: Endgame::level
    fn value(&self, board: Board) -> i8;
}

/// No tables: every line is searched to its end.
#[derive(Copy, Clone, Debug, Default)]
pub struct NoTables;

impl Endgame for NoTables {
    fn level(&self) -> u8 {
        0
    }

    fn value(&self, _: Board) -> i8 {
        unreachable!("no board is closed without tables")
    }
}

/// Mancala's tables close every board of their complete levels (0..=n
/// all open). They must be of the capture convention searched.
impl Endgame for MancalaTables {
    fn level(&self) -> u8 {
        self.complete_up_to()
            .map_or(0, |n| n.min(usize::from(u8::MAX)) as u8)
    }

    #[inline]
    fn value(&self, board: Board) -> i8 {
        MancalaTables::value(self, &board.pits()).expect("a board within the complete levels")
    }
}
