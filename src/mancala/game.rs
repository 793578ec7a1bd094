//! A game of Mancala from a start position: the moves played and the
//! positions they led to. The game has no cycles (§7.6), so no history
//! rule applies; the referee only checks moves and says how it ended.

use super::position::{MancalaEnd, MancalaMoveError, MancalaPosition, Sowing};
use crate::{Move, MoveList, Side};

/// A game of Mancala.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MancalaGame {
    start: MancalaPosition,
    moves: Vec<Move>,
    sowings: Vec<Sowing>,
    position: MancalaPosition,
}

impl MancalaGame {
    /// A game starting at `start`.
    pub fn new(start: MancalaPosition) -> MancalaGame {
        MancalaGame {
            start,
            moves: Vec::new(),
            sowings: Vec::new(),
            position: start,
        }
    }

    /// The start position.
    pub fn start(&self) -> &MancalaPosition {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &MancalaPosition {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// What each move did (captures, another go, the end).
    pub fn sowings(&self) -> &[Sowing] {
        &self.sowings
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves()
    }

    /// Why the game ended, if it has: as the last move ended it (a board
    /// swept empty says only that every seed is in a store), else as the
    /// position says.
    pub fn end(&self) -> Option<MancalaEnd> {
        self.sowings
            .last()
            .and_then(|s| s.ended)
            .or_else(|| self.position.end())
    }

    /// The winner of an ended game (`None` for a draw or an unfinished game).
    pub fn winner(&self) -> Option<Side> {
        self.end().and_then(|_| self.position.winner())
    }

    /// Plays `mv`.
    pub fn play(&mut self, mv: Move) -> Result<Sowing, MancalaMoveError> {
        let (next, sowing) = self.position.play(mv)?;
        self.position = next;
        self.moves.push(mv);
        self.sowings.push(sowing);
        Ok(sowing)
    }

    /// Plays every move of `moves`; on the first that cannot be played,
    /// its index and why.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, MancalaMoveError)> {
        for (i, &mv) in moves.iter().enumerate() {
            self.play(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }
}
