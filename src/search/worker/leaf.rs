//! Oware's leaves: the evaluation, kept within what the tables say.

use super::Worker;
use crate::Position;
use crate::search::oware::{Oware, filter_slot};

impl Worker<'_, Oware> {
    /// A leaf reached by a move capturing `captured`: [`Worker::search`]
    /// at depth 0 without the capture search, for callers that know it and
    /// that clear the leaf's PV themselves (it stays empty).
    #[inline(always)]
    pub(super) fn search_leaf(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        let mut key = 0;
        match self.arrive::<false>(pos, &mut key, filter_slot(pos), ply, captured) {
            Ok(_) => self.leaf(pos, ply, alpha, beta),
            Err(score) => score,
        }
    }

    /// The score of a leaf: the evaluation, which needs only the best
    /// capture available (found without generating the moves), kept within
    /// what the tables say.
    #[inline(always)]
    pub(in crate::search) fn leaf(
        &mut self,
        pos: &Position,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let variant = self.shared.rules.variant;
        // With seeds in both rows there is a move under every rule set; if
        // the capture term can only raise the score, a leaf already at beta
        // without it fails high without looking for captures.
        let lazy = pos.both_rows_hold_seeds() && self.shared.eval.captures_only_raise();
        let best_capture = if lazy {
            0
        } else {
            match pos.best_capture(variant) {
                Some(c) => c,
                None => return self.no_moves(pos, ply),
            }
        };
        let known = match self.table_window(pos, ply, &mut alpha, &mut beta) {
            Ok(known) => known,
            Err(score) => return score,
        };
        let eval = &self.shared.eval;
        let mut score = eval.evaluate(pos, best_capture);
        if lazy && score < beta {
            // Both rows hold seeds: `captures` answers unless starving
            // rules decide the moves (the Awari variant).
            let best = match pos.captures(variant) {
                Some(captures) => captures.best(),
                None => pos.best_capture(variant).unwrap_or(0),
            };
            score += eval.capture_term(best);
        }
        score.clamp(known.0, known.1)
    }
}
