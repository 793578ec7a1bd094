//! What a move can lose: the benchmark's verdicts, from the forced values
//! of the tables (RULES.md §4).
//!
//! A benchmark position is taken right after a capture, so its history is
//! fresh and its table value `gM/gN` is exact as a forced value: the mover,
//! with `c` seeds in its store against the opponent's `c'`, **wins by
//! force** iff `c + gM ≥ 25` and **is lost by force** iff `c' + gN ≥ 25`.
//! Each move `m` has the two terms of the fixpoint equations: the seeds the
//! mover can still force through it, `x(m) = captured(m) + gN(child)`, and
//! the seeds the opponent can force after it, `y(m) = gM(child)`; so that
//! `gM = max x(m)` and `gN = min y(m)`.
//!
//! - A move **drops a forced win** when the mover wins by force and
//!   `c + x(m) < 25`: after it the mover can no longer force 25 seeds.
//! - A move **walks into a forced loss** when the mover is not lost by
//!   force and `c' + y(m) ≥ 25`: after it the opponent can force 25 seeds.
//!
//! The second is exact under any history (the opponent's forcing line never
//! comes back to the position, which is not in its winning region). The
//! first says that the win is no longer *forced by captures*; a game after
//! such a move may still be won by the settlement of a repetition, which
//! the tables do not count (RULES.md §2.8, §4).

use crate::rules::WINNING_SEEDS;
use crate::{Move, Position, Variant};

/// A move and the forced values through it, seen from the mover before the
/// move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Seeds the mover can force through the move: what it captures plus
    /// the child's gN.
    pub mover: u8,
    /// Seeds the opponent can force after the move: the child's gM.
    pub opponent: u8,
}

/// A position right after a capture with the tables' forced values of the
/// position and of each legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The position (stores and side to move included).
    pub position: Position,
    /// gM: the seeds on the board the mover can force.
    pub gm: u8,
    /// gN: the seeds on the board the opponent can force.
    pub gn: u8,
    /// Every legal move with its values, in the order of the letters.
    pub moves: Vec<MoveValue>,
}

/// What the move an engine chose lost.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MoveVerdict {
    /// The mover won by force and the move drops the win.
    pub drops_win: bool,
    /// The mover was not lost by force and the move walks into a forced
    /// loss.
    pub walks_into_loss: bool,
}

impl MoveVerdict {
    /// Whether the move lost anything.
    pub fn is_error(self) -> bool {
        self.drops_win || self.walks_into_loss
    }
}

impl Judged {
    /// Seeds on the board.
    pub fn seeds(&self) -> u8 {
        self.position.seeds_on_board() as u8
    }

    /// The mover's store and the opponent's.
    fn stores(&self) -> (u8, u8) {
        let me = self.position.side_to_move();
        (self.position.store(me), self.position.store(me.opponent()))
    }

    /// The mover wins by force: `c + gM ≥ 25`.
    pub fn wins(&self) -> bool {
        self.stores().0 + self.gm >= WINNING_SEEDS
    }

    /// The mover is lost by force: `c' + gN ≥ 25`.
    pub fn lost(&self) -> bool {
        self.stores().1 + self.gn >= WINNING_SEEDS
    }

    /// What playing `m` loses (nothing for a move that is not listed).
    pub fn verdict_of(&self, m: &MoveValue) -> MoveVerdict {
        let (own, theirs) = self.stores();
        MoveVerdict {
            drops_win: self.wins() && own + m.mover < WINNING_SEEDS,
            walks_into_loss: !self.lost() && theirs + m.opponent >= WINNING_SEEDS,
        }
    }

    /// What playing `mv` loses; `None` when it is not a legal move here.
    pub fn verdict(&self, mv: Move) -> Option<MoveVerdict> {
        self.moves
            .iter()
            .find(|m| m.mv == mv)
            .map(|m| self.verdict_of(m))
    }

    /// The mover wins by force and some move drops the win.
    pub fn win_at_stake(&self) -> bool {
        self.moves.iter().any(|m| self.verdict_of(m).drops_win)
    }

    /// The mover is not lost by force and some move walks into a forced
    /// loss.
    pub fn loss_avoidable(&self) -> bool {
        self.moves
            .iter()
            .any(|m| self.verdict_of(m).walks_into_loss)
    }

    /// Whether some move loses something: a position worth asking.
    pub fn at_stake(&self) -> bool {
        self.win_at_stake() || self.loss_avoidable()
    }

    /// The moves that lose nothing.
    pub fn safe_moves(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|m| !self.verdict_of(m).is_error())
            .map(|m| m.mv)
            .collect()
    }

    /// Checks that the values are those of a table of Abapa for this
    /// position: the moves are exactly its legal moves, in order, no value
    /// exceeds the seeds, and `gM = max x(m)`, `gN = min y(m)`. Says what
    /// is wrong otherwise.
    pub fn check(&self) -> Result<(), String> {
        let n = self.seeds();
        let legal: Vec<Move> = self
            .position
            .legal_moves(Variant::Abapa)
            .iter()
            .copied()
            .collect();
        let listed: Vec<Move> = self.moves.iter().map(|m| m.mv).collect();
        if legal != listed {
            let letters = |l: &[Move]| l.iter().map(|m| m.letter()).collect::<String>();
            return Err(format!(
                "moves {} listed, the legal moves are {}",
                letters(&listed),
                letters(&legal)
            ));
        }
        if u16::from(self.gm) + u16::from(self.gn) > u16::from(n) {
            return Err(format!("gM {} + gN {} exceed {n} seeds", self.gm, self.gn));
        }
        for m in &self.moves {
            if u16::from(m.mover) + u16::from(m.opponent) > u16::from(n) {
                return Err(format!(
                    "move {}: {} + {} exceed {n} seeds",
                    m.mv, m.mover, m.opponent
                ));
            }
        }
        let best = self.moves.iter().map(|m| m.mover).max();
        let worst = self.moves.iter().map(|m| m.opponent).min();
        if best != Some(self.gm) || worst != Some(self.gn) {
            return Err(format!(
                "gM/gN {}/{} are not the best of the moves ({}/{})",
                self.gm,
                self.gn,
                best.unwrap_or(0),
                worst.unwrap_or(0)
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(letter: char) -> Move {
        Move::from_letter(letter).unwrap()
    }

    /// South to move with `stores` (South, North) on a board of 20 seeds
    /// whose legal moves are A, B, C (D, E, F empty).
    fn judged(stores: [u8; 2], gm: u8, gn: u8, moves: [(u8, u8); 3]) -> Judged {
        let position = Position::new(
            [5, 3, 2, 0, 0, 0, 2, 2, 2, 2, 1, 1],
            stores,
            crate::Side::South,
        )
        .unwrap();
        Judged {
            position,
            gm,
            gn,
            moves: ['A', 'B', 'C']
                .into_iter()
                .zip(moves)
                .map(|(l, (mover, opponent))| MoveValue {
                    mv: mv(l),
                    mover,
                    opponent,
                })
                .collect(),
        }
    }

    #[test]
    fn a_win_is_dropped_by_a_move_short_of_25() {
        // South has 14, North 14: 20 on the board. gM 12 wins (26).
        let j = judged([14, 14], 12, 6, [(12, 6), (11, 8), (10, 9)]);
        j.check().unwrap();
        assert!(j.wins() && !j.lost());
        assert!(!j.verdict(mv('A')).unwrap().is_error());
        // 14 + 11 = 25 is still a win: B keeps it; C (24) drops it.
        assert_eq!(
            j.verdict(mv('B')),
            Some(MoveVerdict {
                drops_win: false,
                walks_into_loss: false
            })
        );
        assert!(j.verdict(mv('C')).unwrap().drops_win);
        assert!(!j.verdict(mv('C')).unwrap().walks_into_loss);
        assert!(j.win_at_stake() && !j.loss_avoidable() && j.at_stake());
        assert_eq!(j.safe_moves(), [mv('A'), mv('B')]);
        assert_eq!(j.verdict(mv('D')), None);
    }

    #[test]
    fn a_loss_is_walked_into_when_the_opponent_reaches_25() {
        // South 10, North 18: North needs 7. gN 6: South is not lost.
        let j = judged([10, 18], 5, 6, [(5, 6), (4, 7), (2, 9)]);
        j.check().unwrap();
        assert!(!j.wins() && !j.lost());
        assert!(!j.verdict(mv('A')).unwrap().is_error());
        let b = j.verdict(mv('B')).unwrap();
        assert!(b.walks_into_loss && !b.drops_win);
        assert!(j.verdict(mv('C')).unwrap().walks_into_loss);
        assert!(!j.win_at_stake() && j.loss_avoidable());
    }

    #[test]
    fn a_lost_position_has_nothing_to_lose() {
        // North needs 7 and forces 8 whatever South does.
        let j = judged([10, 18], 3, 8, [(3, 8), (2, 9), (1, 10)]);
        j.check().unwrap();
        assert!(j.lost() && !j.at_stake());
        assert!(j.moves.iter().all(|m| !j.verdict_of(m).is_error()));
    }

    #[test]
    fn one_move_can_drop_a_win_and_walk_into_a_loss() {
        // South 10 wins with gM 15; B gives North 18 + 7 = 25.
        let j = judged([10, 18], 15, 5, [(15, 5), (2, 7), (9, 6)]);
        j.check().unwrap();
        let b = j.verdict(mv('B')).unwrap();
        assert!(b.drops_win && b.walks_into_loss);
        assert!(j.win_at_stake() && j.loss_avoidable());
    }

    #[test]
    fn values_that_no_table_holds_are_refused() {
        let bad = judged([14, 14], 12, 6, [(11, 6), (11, 8), (10, 9)]);
        assert!(bad.check().unwrap_err().contains("best of the moves"));
        let bad = judged([14, 14], 12, 9, [(12, 9), (11, 9), (10, 10)]);
        assert!(bad.check().unwrap_err().contains("exceed"));
        let mut bad = judged([14, 14], 12, 6, [(12, 6), (11, 8), (10, 9)]);
        bad.moves.pop();
        assert!(bad.check().unwrap_err().contains("legal moves are ABC"));
    }
}
