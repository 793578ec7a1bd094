//! What Oware's endgame tables say of a node: a settled score, or bounds
//! that narrow its window.

use super::ordering::{Ordered, key, table_order};
use super::{INFINITE, Worker};
use crate::rules::WINNING_SEEDS;
use crate::search::oware::{Oware, WIN, result};
use crate::tb::board::relative;
use crate::tb::index::rank;
use crate::{Position, Variant};

/// Plies after a capture (or the start) within which the tables' values
/// settle a node (one: the children of a root just reached by a capture
/// keep the tables' word; with more, self-play still wandered into
/// repetitions).
/// They are forced from a fresh history (RULES.md §4): further on, the
/// positions played since the capture may repeat before a forced line ends,
/// and a search that took the tables' word wandered among won positions
/// until the game repeated (`tools/table-bounds-audit.py`). Past this many
/// plies an entry only bounds the score, and the search looks for the
/// captures that prove it.
const TRUSTED_PLIES: usize = 1;

/// Seeds that secure a draw at least (half of the 48).
const DRAWN_SEEDS: u8 = WINNING_SEEDS - 1;

impl Worker<'_, Oware> {
    /// What the tables say: `Ok(score)` for a settled result, or the bounds
    /// (lower, upper) on the final difference in centiseeds.
    #[inline(never)]
    fn probe(
        &mut self,
        pos: &Position,
        n: usize,
        ply: usize,
        fresh: bool,
    ) -> Option<Result<i32, (i32, i32)>> {
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
            if !fresh {
                return Some(Err((diff * 100, diff * 100)));
            }
            return Some(Ok(result((diff > 0) as u8, (diff < 0) as u8, ply)));
        }
        let (gm, gn) = (c + v.mover, c2 + v.opponent);
        if fresh {
            if v.is_exact(n as u8) {
                return Some(Ok(result(gm, gn, ply)));
            }
            if gm >= WINNING_SEEDS {
                return Some(Ok(WIN - ply as i32));
            }
            if gn >= WINNING_SEEDS {
                return Some(Ok(-WIN + ply as i32));
            }
        }
        let total = i32::from(c) + i32::from(c2) + n as i32;
        let lower = (2 * i32::from(gm) - total) * 100;
        let upper = (2 * (i32::from(c) + n as i32 - i32::from(v.opponent)) - total) * 100;
        Some(Err((lower, upper)))
    }

    /// Whether the tables' word is taken at this node (at `ply`): the rules
    /// neither end a game on a repetition nor after some moves without a
    /// capture, or the last capture (or the game's start) is at most
    /// [`TRUSTED_PLIES`] plies back. The node's place on the path is the
    /// history's length plus its ply (whether or not it is on the path yet),
    /// and [`Worker::arrival`] noted where its moves since a capture start.
    #[inline]
    fn fresh_history(&self, ply: usize) -> bool {
        let rules = &self.shared.rules;
        (!rules.repetition && rules.no_capture_limit.is_none())
            || self.history_len + ply - self.arrival_since <= TRUSTED_PLIES
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
        let n = self.probe.seeds_on_board(pos);
        if ply == 0 || self.probe.levels.get(n) != Some(&true) {
            return Ok((-INFINITE, INFINITE));
        }
        // Long after a capture, an entry (even an exact one) only bounds the
        // score, and a proven result found below is kept as it is (see
        // TRUSTED_PLIES).
        let fresh = self.fresh_history(ply);
        match self.probe(pos, n, ply, fresh) {
            Some(Ok(score)) => Err(score),
            Some(Err((lower, upper))) if fresh => {
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
            Some(Err((lower, upper))) => {
                // Searched unless the bounds lie beyond the window: a move
                // the tables rate as high as another is still searched for
                // a capture that proves it.
                if lower > *beta {
                    return Err(lower);
                }
                if upper < *alpha {
                    return Err(upper);
                }
                *alpha = (*alpha).max(lower - 1);
                *beta = (*beta).min(upper + 1);
                // A result the tables cap without guaranteeing it ranks a
                // centiseed below one they guarantee: where the search sees
                // as much in both, the move that keeps the guarantee is the
                // better (a search that took the cap's equal wandered away
                // from a forced win).
                let cap = if lower < upper { upper - 1 } else { upper };
                Ok((lower, cap))
            }
            None => Ok((-INFINITE, INFINITE)),
        }
    }

    /// Ranks the (sown) children of `pos` among `moves` by the result the
    /// tables guarantee the mover after each: at a node whose children are
    /// in loaded levels, a child that is a sure win comes first and settles
    /// the node on arrival, before a costlier sibling is searched; then the
    /// children that keep a draw at least, then the others.
    #[inline(never)]
    pub(super) fn order_by_tables(&self, pos: &Position, moves: u8, out: &mut Ordered<Position>) {
        let Some(tables) = self.shared.tables else {
            return;
        };
        // Awari's tables hold a score, not the two sides' guarantees.
        if self.shared.rules.variant == Variant::Awari {
            return;
        }
        let n = self.probe.seeds_on_board(pos);
        // Children have at most the parent's seeds on the board: none is
        // probed above the loaded levels.
        if self.probe.levels.get(n) != Some(&true) {
            return;
        }
        let me = pos.side_to_move();
        let mut left = moves;
        while left != 0 {
            let house = usize::from(left.trailing_zeros() as u8);
            left &= left - 1;
            let c = &mut out.list[house];
            if !c.ready {
                continue;
            }
            let child = &c.child;
            let level = n - usize::from(c.captured);
            // A damaged level may be left closed below a loaded one.
            if self.probe.levels.get(level) != Some(&true) {
                continue;
            }
            let board = relative(child);
            debug_assert_eq!(child.seeds_on_board() as usize, level);
            if !board[6..].contains(&0) {
                continue;
            }
            let v = tables.value_at(level, rank(&board, level));
            // The child's opponent is the mover here: what the tables
            // promise it, as a result (a sure win, a sure draw at least, or
            // neither); the move's own order ranks moves of one class.
            let guaranteed = child.store(me) + v.opponent;
            let class = match guaranteed {
                WINNING_SEEDS.. => 2,
                DRAWN_SEEDS => 1,
                _ => 0,
            };
            c.order = table_order(c.order, class);
            out.keys[house] = key(c.order, house);
        }
    }
}
