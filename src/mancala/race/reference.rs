//! A plain memoised search of the race over [`MancalaPosition`]: the
//! referee's own rules (its sowing, its stop and sweep), no tables and no
//! board words. The independent path the race tables and the race solver
//! are checked against; for small positions only.

use std::collections::HashMap;

use super::entry::Outcome;
use crate::mancala::MancalaPosition;

/// Memoised outcomes of positions, for the side to move.
#[derive(Default)]
pub struct Reference {
    memo: HashMap<MancalaPosition, Outcome>,
}

impl Reference {
    /// An empty memo.
    pub fn new() -> Reference {
        Reference::default()
    }

    /// The outcome of `pos` for its side to move under perfect play, the
    /// 25-seed stop in play.
    pub fn outcome(&mut self, pos: &MancalaPosition) -> Outcome {
        if pos.end().is_some() {
            return match pos.winner() {
                None => Outcome::Draw,
                Some(side) if side == pos.side_to_move() => Outcome::Win,
                Some(_) => Outcome::Loss,
            };
        }
        if let Some(&o) = self.memo.get(pos) {
            return o;
        }
        let legal = pos.legal_houses();
        let mut best = Outcome::Loss;
        for h in (0..6).filter(|h| legal >> h & 1 == 1) {
            let (next, _) = pos.after(h);
            let o = self.outcome(&next);
            let o = if next.side_to_move() == pos.side_to_move() {
                o
            } else {
                o.flip()
            };
            best = best.max(o);
            if best == Outcome::Win {
                break;
            }
        }
        self.memo.insert(*pos, best);
        best
    }

    /// Each legal move (house 0..5 of the mover) with the mover's outcome
    /// through it.
    pub fn moves(&mut self, pos: &MancalaPosition) -> Vec<(usize, Outcome)> {
        let legal = pos.legal_houses();
        (0..6)
            .filter(|h| legal >> h & 1 == 1)
            .map(|h| {
                let (next, _) = pos.after(h);
                let o = self.outcome(&next);
                let o = if next.side_to_move() == pos.side_to_move() {
                    o
                } else {
                    o.flip()
                };
                (h, o)
            })
            .collect()
    }
}
