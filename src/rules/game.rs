//! The referee: a position plus the history since the last capture, applying
//! moves and detecting every way a game ends.

use super::position::{EndReason, MoveError};
use crate::{Move, Position, Rules, Side};

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Why the game ended.
    pub reason: EndReason,
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// The positions since the last capture, the current one last (the
    /// stores do not change between captures, so equal positions here are
    /// repetitions).
    since_capture: Vec<Position>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game starting from `start` (which counts as the position right after
    /// a capture). If `start` is already over, the game is finished at once.
    pub fn new(start: Position, rules: Rules) -> Game {
        let mut game = Game {
            rules,
            start,
            position: start,
            moves: Vec::new(),
            since_capture: vec![start],
            outcome: None,
        };
        game.check_board_end();
        game
    }

    /// The rules this game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position (after any end-of-game sweep).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The positions since the last capture (or the start), the current one
    /// last; the history that the repetition rule looks at.
    pub fn positions_since_capture(&self) -> &[Position] {
        &self.since_capture
    }

    /// Half-moves played since the last capture (or the start).
    pub fn plies_since_capture(&self) -> usize {
        self.since_capture.len() - 1
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position.legal_moves(self.rules.variant).to_vec()
    }

    /// Plays `mv`, or explains why it is not allowed.
    pub fn play(&mut self, mv: Move) -> Result<u8, MoveError> {
        if let Some(outcome) = self.outcome {
            return Err(MoveError::GameOver(outcome.reason));
        }
        let variant = self.rules.variant;
        self.position.check_move(mv, variant)?;
        let captured = self.position.play(mv, variant);
        self.moves.push(mv);
        let now = self.position;
        if captured > 0 {
            self.since_capture.clear();
        } else if self.rules.repetition && self.since_capture.contains(&now) {
            self.since_capture.push(now);
            self.finish(EndReason::Repetition);
            return Ok(captured);
        }
        self.since_capture.push(now);
        if self.position.board_end(variant) == Some(EndReason::Majority) {
            self.finish(EndReason::Majority);
        } else if self
            .rules
            .no_capture_limit
            .is_some_and(|k| self.plies_since_capture() >= k as usize)
        {
            self.finish(EndReason::MoveLimit);
        } else {
            self.check_board_end();
        }
        Ok(captured)
    }

    /// Plays several moves, stopping at the first one that is not allowed
    /// (reported with its index in `moves`).
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), (usize, MoveError)> {
        for (i, &mv) in moves.iter().enumerate() {
            self.play(mv).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    fn check_board_end(&mut self) {
        if let Some(reason) = self.position.board_end(self.rules.variant) {
            self.finish(reason);
        }
    }

    /// Ends the game for `reason`, sweeping the seeds left where the rules say.
    fn finish(&mut self, reason: EndReason) {
        self.position.end_game(reason, self.rules.variant);
        let winner = self.position.leader();
        self.outcome = Some(Outcome { reason, winner });
    }
}
