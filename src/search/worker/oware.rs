//! What Oware's rules do at a node: the endings a move can bring
//! (majority, repetition along the path, the move limit) and the end of a
//! game whose side to move has no move.

use super::Worker;
use crate::search::keys::board_key;
use crate::search::oware::{Oware, result};
use crate::tb::Tablebase;
use crate::{EndReason, Position};

/// What an Oware search thread knows of the tables: the levels loaded and
/// the seeds in play.
#[derive(Copy, Clone, Debug)]
pub struct OwareProbe {
    /// Which levels have a table (levels are probed only when present).
    pub(super) levels: [bool; 49],
    /// The seeds in play (board and stores), the same in every position
    /// of the search.
    pub(super) total_seeds: u8,
}

impl OwareProbe {
    /// The state for a search with `tables` from `root`.
    pub fn new(tables: Option<&Tablebase>, root: &Position) -> OwareProbe {
        let mut levels = [false; 49];
        if let Some(tb) = tables {
            for (level, present) in levels.iter_mut().enumerate() {
                *present = tb.has_level(level);
            }
        }
        OwareProbe {
            levels,
            total_seeds: (root.seeds_on_board() + u32::from(root.stores()[0] + root.stores()[1]))
                as u8,
        }
    }
}

impl OwareProbe {
    /// The seeds on the board of `pos`: seeds are never created or
    /// destroyed, so the root's total less the stores (cheaper than a sum
    /// of pits).
    #[inline(always)]
    pub(super) fn seeds_on_board(&self, pos: &Position) -> usize {
        let [south, north] = pos.stores();
        usize::from(self.total_seeds.wrapping_sub(south).wrapping_sub(north))
    }
}

impl Worker<'_, Oware> {
    /// The score of a game that ends here for `reason`, after the sweep the
    /// rules make.
    fn ended(&self, pos: &Position, reason: EndReason, ply: usize) -> i32 {
        let mut last = *pos;
        last.end_game(reason, self.shared.rules.variant);
        let me = last.side_to_move();
        result(last.store(me), last.store(me.opponent()), ply)
    }

    /// The end of a game whose side to move has no legal move: with no
    /// seeds the opponent takes the rest; unable to feed, the mover does.
    pub(in crate::search) fn no_moves(&self, pos: &Position, ply: usize) -> i32 {
        let reason = if pos.row_seeds(pos.side_to_move()) == 0 {
            EndReason::NoSeeds
        } else {
            EndReason::CannotFeed
        };
        self.ended(pos, reason, ply)
    }

    /// Ends the game if the move that led here did (majority, repetition,
    /// move limit): `Err(score)`; otherwise where the moves since the last
    /// capture start on the path, counting this node. `key` is computed if
    /// the repetition check needs it.
    #[inline(always)]
    pub(in crate::search) fn arrival(
        &mut self,
        pos: &Position,
        key: &mut u64,
        slot: usize,
        ply: usize,
        captured: u8,
    ) -> Result<usize, i32> {
        if ply > 0 {
            if pos.majority_reached() {
                return Err(self.ended(pos, EndReason::Majority, ply));
            }
            if captured == 0 && self.shared.rules.repetition {
                // Most keys were never on the path: the filter says so
                // without a scan.
                let repeated = self.on_path[slot] > 0 && {
                    if *key == 0 {
                        *key = board_key(pos);
                    }
                    self.path[self.since_capture..]
                        .iter()
                        .rev()
                        .skip(1)
                        .step_by(2)
                        .any(|&k| k == *key)
                };
                if repeated {
                    self.path_events += 1;
                    return Err(self.ended(pos, EndReason::Repetition, ply));
                }
            }
        }
        // Where the moves since the last capture start, counting this one.
        let since = if captured > 0 {
            self.path.len()
        } else {
            self.since_capture
        };
        if let Some(k) = self.shared.rules.no_capture_limit
            && self.path.len() - since >= k as usize
        {
            self.path_events += 1;
            return Err(self.ended(pos, EndReason::MoveLimit, ply));
        }
        self.arrival_since = since;
        Ok(since)
    }
}
