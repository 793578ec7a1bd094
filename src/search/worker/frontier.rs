//! Oware's nodes one ply above the leaves, which are half the interior
//! nodes: searched by a loop of their own, leaner than [`Worker::node`].

use super::{INFINITE, Keys, MAX_PLY, Worker, capture_order, key, take_best};
use crate::search::oware::{Oware, PROVEN};
use crate::{Captures, Move, Position};

impl Worker<'_, Oware> {
    /// Searches a node one ply above the leaves that [`Worker::arrive`]
    /// has let through (`since`: where the moves since the last capture
    /// start on the path, counting this node).
    ///
    /// Its board key is neither computed nor looked for: the repetition
    /// test of a leaf compares it with the positions an even number of
    /// plies back, never with its parent, so a placeholder holds the
    /// parent's place on the path.
    #[inline(never)]
    pub(in crate::search) fn enter_frontier(
        &mut self,
        pos: &Position,
        since: usize,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let moves = pos.legal_houses(self.shared.rules.variant);
        if moves == 0 {
            return self.no_moves(pos, ply);
        }
        let known = match self.table_window(pos, ply, &mut alpha, &mut beta) {
            Ok(known) => known,
            Err(score) => return score,
        };
        let saved_since = self.since_capture;
        self.since_capture = since;
        self.path.push(0);
        let score = self.frontier(pos, moves, known, alpha, beta, ply);
        self.path.pop();
        self.since_capture = saved_since;
        score
    }

    /// A node one ply above the leaves (not the root, no capture search):
    /// what [`Worker::node`] does there, without what it cannot need (the
    /// transposition table, reductions, deferred moves).
    #[inline(always)]
    fn frontier(
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
        // The moves by house, ordered as `candidates` orders them; what a
        // move captures is known without sowing when `captures` can tell,
        // otherwise every move is sown up front.
        let mut keys: Keys = [0; 8];
        let (captures, sown) = match pos.captures(variant) {
            Some(captures) => (captures, None),
            None => {
                let mut children = [(Position::EMPTY, 0u8); 6];
                for house in (0..6).filter(|h| moves & (1 << h) != 0) {
                    children[house] = pos.after(Move::of(mover, house), variant);
                }
                (
                    Captures::from_houses(children.map(|(_, c)| c)),
                    Some(children),
                )
            }
        };
        // Quiet moves by history, killers above them, captures above all.
        let mut quiet = [0; 8];
        quiet[..6].copy_from_slice(&self.history[side]);
        let [first_killer, second_killer] = self.killers[ply];
        for (killer, order) in [(second_killer, 1 << 18), (first_killer, 1 << 19)] {
            if let Some(slot) = quiet.get_mut(usize::from(killer)) {
                *slot = order;
            }
        }
        for house in 0..6 {
            let taken = captures.of(house);
            let order = if taken > 0 {
                capture_order(taken)
            } else {
                quiet[house]
            };
            let legal = moves & (1 << house) != 0;
            keys[house] = if legal { key(order, house) } else { 0 };
        }
        let pv_node = beta - alpha > 1;
        // The leaves leave their PV alone: it stays empty.
        self.pv[ply + 1].clear();
        let mut best = -INFINITE;
        let mut first = true;
        while let Some(house) = take_best(&mut keys) {
            let mv = Move::of(mover, house);
            let (child, captured) = match &sown {
                None => pos.after_capturing(mv, variant, captures.of(house)),
                Some(children) => children[house],
            };
            let mut score;
            if std::mem::take(&mut first) {
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
                            self.reward_quiet(ply, side, house as u8, 1);
                        }
                        break;
                    }
                }
            }
        }
        // A proven result stands (see `Worker::node`).
        if best.abs() >= PROVEN {
            best
        } else {
            best.clamp(known.0, known.1)
        }
    }
}
