//! What Oware's endgame tables say of a node: a settled score, or bounds
//! that narrow its window.

use super::{INFINITE, Worker};
use crate::rules::WINNING_SEEDS;
use crate::search::oware::{Oware, WIN, result};
use crate::tb::board::relative;
use crate::tb::index::rank;
use crate::{Position, Variant};

impl Worker<'_, Oware> {
    /// What the tables say: `Ok(score)` for a settled result, or the bounds
    /// (lower, upper) on the final difference in centiseeds.
    #[inline(never)]
    fn probe(&mut self, pos: &Position, n: usize, ply: usize) -> Option<Result<i32, (i32, i32)>> {
        debug_assert_eq!(n, pos.seeds_on_board() as usize);
        let board = relative(pos);
        if !board[6..].contains(&0) {
            return None;
        }
        let tables = self.shared.tables?;
        let v = tables.value_at(n, rank(&board, n));
        self.local_tb_hits += 1;
        let me = pos.side_to_move();
        let (c, c2) = (pos.store(me), pos.store(me.opponent()));
        if self.shared.rules.variant == Variant::Awari {
            let diff = i32::from(c) - i32::from(c2) + i32::from(v.score());
            return Some(Ok(result((diff > 0) as u8, (diff < 0) as u8, ply)));
        }
        let (gm, gn) = (c + v.mover, c2 + v.opponent);
        if gm >= WINNING_SEEDS {
            return Some(Ok(WIN - ply as i32));
        }
        if gn >= WINNING_SEEDS {
            return Some(Ok(-WIN + ply as i32));
        }
        if v.is_exact(n as u8) {
            return Some(Ok(result(gm, gn, ply)));
        }
        let total = i32::from(c) + i32::from(c2) + n as i32;
        let lower = (2 * i32::from(gm) - total) * 100;
        let upper = (2 * (i32::from(c) + n as i32 - i32::from(v.opponent)) - total) * 100;
        Some(Err((lower, upper)))
    }

    /// What the tables say of this node: `Err(score)` when that settles it
    /// (an exact value, or bounds outside the window), otherwise the bounds
    /// (lower, upper) the result must keep, with the window narrowed to them.
    #[inline(always)]
    pub(in crate::search) fn table_window(
        &mut self,
        pos: &Position,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Result<(i32, i32), i32> {
        // Seeds are never created or destroyed, so the seeds on the board
        // are the root's total less the stores (cheaper than a sum of pits).
        let [south, north] = pos.stores();
        let n = usize::from(
            self.probe
                .total_seeds
                .wrapping_sub(south)
                .wrapping_sub(north),
        );
        if ply == 0 || self.probe.levels.get(n) != Some(&true) {
            return Ok((-INFINITE, INFINITE));
        }
        match self.probe(pos, n, ply) {
            Some(Ok(score)) => Err(score),
            Some(Err((lower, upper))) => {
                if lower >= *beta {
                    return Err(lower);
                }
                if upper <= *alpha {
                    return Err(upper);
                }
                *alpha = (*alpha).max(lower);
                *beta = (*beta).min(upper);
                Ok((lower, upper))
            }
            None => Ok((-INFINITE, INFINITE)),
        }
    }
}
