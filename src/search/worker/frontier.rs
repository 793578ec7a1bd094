//! Nodes one ply above the leaves, which are half the interior nodes:
//! searched by a loop of their own, leaner than [`Worker::node`].

use super::{INFINITE, Keys, MAX_PLY, Worker, capture_order, filter_slot, pick};
use crate::{Move, Position};

impl Worker<'_> {
    /// A node one ply above the leaves (not the root, no capture search):
    /// what [`Worker::node`] does there, without what it cannot need (the
    /// transposition table, reductions, deferred moves).
    #[inline(never)]
    pub(super) fn frontier(
        &mut self,
        pos: &Position,
        moves: u8,
        known: (i32, i32),
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if ply >= MAX_PLY - 1 {
            return self.shared.eval.evaluate(pos, 0);
        }
        let variant = self.shared.rules.variant;
        let mover = pos.side_to_move();
        let side = mover.index();
        // The moves in generation order, ordered as `candidates` orders
        // them; a child is sown up front only if its move may capture.
        let mut keys: Keys = [0; 6];
        let mut houses = [0u8; 6];
        let mut children = [(Position::EMPTY, 0u8); 6];
        let mut sown = 0u8;
        let mut len = 0;
        let mut left = moves;
        while left != 0 {
            let house = left.trailing_zeros() as u8;
            left &= left - 1;
            let mut order = self.quiet_order(ply, side, house);
            if pos.may_capture(mover.first_pit() + usize::from(house)) {
                children[len] = pos.after(Move::of(mover, usize::from(house)), variant);
                sown |= 1 << len;
                if children[len].1 > 0 {
                    order = capture_order(children[len].1);
                }
            }
            keys[len] = ((order as u32) << 3) | (7 - len as u32);
            houses[len] = house;
            len += 1;
        }
        let pv_node = beta - alpha > 1;
        let mut best = -INFINITE;
        for next in 0..len {
            let index = pick(&mut keys, next, len);
            let house = houses[index];
            let mv = Move::of(mover, usize::from(house));
            if sown & (1 << index) == 0 {
                children[index] = pos.after(mv, variant);
            }
            let (child, captured) = children[index];
            let mut score;
            if next == 0 {
                score = -self.search_leaf(&child, -beta, -alpha, ply + 1, captured);
            } else {
                score = -self.search_leaf(&child, -alpha - 1, -alpha, ply + 1, captured);
                if score > alpha && score < beta {
                    score = -self.search_leaf(&child, -beta, -alpha, ply + 1, captured);
                }
            }
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if captured == 0 {
                            self.reward_quiet(ply, side, house, 1);
                        }
                        break;
                    }
                }
            }
        }
        best.clamp(known.0, known.1)
    }

    /// A leaf reached by a move capturing `captured`: [`Worker::search`]
    /// at depth 0 without the capture search, for callers that know it.
    #[inline(always)]
    fn search_leaf(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        let mut key = 0;
        match self.arrive(pos, &mut key, filter_slot(pos), ply, captured) {
            Ok(_) => self.leaf(pos, ply, alpha, beta),
            Err(score) => score,
        }
    }
}
