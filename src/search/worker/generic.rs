//! The generic versions of the game's hooks ([`SearchGame::candidates`],
//! [`SearchGame::leaf`], [`SearchGame::frontier`]): what a game without a
//! faster way of its own uses. Every move is sown to be ordered, a leaf is
//! its evaluation, and a node one ply above the leaves is an interior node
//! without a table.

use super::Worker;
use super::ordering::{ANOTHER_GO_ORDER, Candidate, Ordered, capture_order, key};
use crate::Move;
use crate::search::SearchGame;

impl<G: SearchGame> Worker<'_, G> {
    /// Fills `out` with the legal `moves` of `pos` (but `skip`), each at
    /// the index of its house, sown, with its ordering key: another go
    /// first, then captures by size, then killers and history. With
    /// `eager`, the children's keys are computed and their table entries
    /// fetched.
    pub fn generic_candidates(
        &self,
        pos: &G::Position,
        moves: u8,
        skip: Option<u8>,
        ply: usize,
        eager: bool,
        out: &mut Ordered<G::Position>,
    ) {
        let rules = self.shared.rules;
        let mover = G::side_to_move(pos);
        let mut left = moves & !skip.map_or(0, |h| 1 << h);
        while left != 0 {
            let house = left.trailing_zeros() as u8;
            left &= left - 1;
            let mv = Move::of(mover, usize::from(house));
            let child = G::play(pos, mv, &rules);
            let mut c = Candidate {
                mv,
                captured: child.captured,
                another_go: child.another_go,
                ready: true,
                ..Candidate::empty(child.pos)
            };
            if eager {
                c.key = G::board_key(&c.child);
                self.shared.tt.prefetch(G::full_key(&c.child, c.key));
            }
            c.order = if c.another_go {
                ANOTHER_GO_ORDER
            } else if c.captured > 0 {
                capture_order(c.captured)
            } else {
                self.quiet_order(ply, mover.index(), house)
            };
            out.keys[usize::from(house)] = key(c.order, usize::from(house));
            out.list[usize::from(house)] = c;
        }
    }

    /// A leaf: the evaluation, within what the tables say.
    pub fn generic_leaf(
        &mut self,
        pos: &G::Position,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let known = match G::table_window(self, pos, ply, &mut alpha, &mut beta) {
            Ok(known) => known,
            Err(score) => return score,
        };
        self.guess();
        G::evaluate(&self.shared.eval, pos, 0).clamp(known.0, known.1)
    }

    /// A node one ply above the leaves: an interior node (which keeps no
    /// table entry at this depth, so needs no key).
    pub fn generic_frontier(
        &mut self,
        pos: &G::Position,
        since: usize,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let slot = G::filter_slot(pos);
        let key = if G::CYCLES { G::board_key(pos) } else { 0 };
        self.interior(pos, key, slot, since, 1, alpha, beta, ply)
    }
}
