//! Move ordering: the moves of a node with their ordering keys, best
//! first (another go, then captures by size, then killers, then history),
//! and Oware's way of finding them.

use super::Worker;
use crate::search::SearchGame;
use crate::search::keys::{board_key, full_key};
use crate::search::oware::Oware;
use crate::{Move, Position};

/// A legal move with what the search needs to order it.
#[derive(Copy, Clone)]
pub struct Candidate<P> {
    pub(super) mv: Move,
    /// What the move captures (known before it is sown).
    pub(super) captured: u8,
    /// The mover moves again after it.
    pub(super) another_go: bool,
    /// Whether `child` has been computed: moves are sown only when
    /// searched, since a cutoff often comes first (unless the children's
    /// table entries are wanted early: see [`Worker::candidates`]).
    pub(super) ready: bool,
    pub(super) order: i32,
    /// The child's board key (0: not computed).
    pub(super) key: u64,
    pub(super) child: P,
}

impl<P: Copy> Candidate<P> {
    /// No move yet, `child` a placeholder.
    pub(super) const fn empty(child: P) -> Candidate<P> {
        Candidate {
            mv: Move::new(0),
            captured: 0,
            another_go: false,
            ready: false,
            order: 0,
            key: 0,
            child,
        }
    }
}

/// Ordering keys of the candidates, by candidate index (six, then two
/// that stay zero): the order in the high bits and `7 − index` in the low
/// three, so that the largest key is the best move and ties go to the
/// earlier move, as a stable sort would order them. Zero: no candidate
/// (an illegal move, or one already taken).
pub(super) type Keys = [i32; 8];

/// The key of candidate `index` with ordering `order`.
#[inline]
pub(super) const fn key(order: i32, index: usize) -> i32 {
    // Orders are below 2²⁴ (three table classes above 2²² move orders), so
    // keys stay positive.
    (order << 3) | (7 - index as i32)
}

/// The moves of a node ([`SearchGame::candidates`]) and their ordering
/// keys.
pub struct Ordered<P> {
    pub(super) list: [Candidate<P>; 6],
    pub(super) keys: Keys,
}

/// The largest history score of a quiet move, below a killer's order.
const HISTORY_MAX: i32 = (1 << 18) - 1;

/// The ordering key of a move capturing `captured` seeds: above every
/// quiet move, larger captures first.
#[inline]
pub(super) const fn capture_order(captured: u8) -> i32 {
    (1 << 20) + captured as i32
}

/// The ordering key of a move that gives another go: above every capture.
pub(super) const ANOTHER_GO_ORDER: i32 = 1 << 21;

/// Orders below this come from the move itself (another go, capture,
/// killer, history); the bits above it rank the move by what the endgame
/// tables guarantee after it ([`table_order`]).
pub(super) const MOVE_ORDER_BITS: i32 = 22;

/// The part of an order that comes from the move itself.
#[inline]
pub(super) const fn move_order(order: i32) -> i32 {
    order & ((1 << MOVE_ORDER_BITS) - 1)
}

/// An order raised by the class of result the tables guarantee the mover
/// after the move (0 none, 1 a draw at least, 2 a win): a higher class
/// first, the move's own order breaking ties.
#[inline]
pub(super) const fn table_order(order: i32, class: u8) -> i32 {
    ((class as i32 + 1) << MOVE_ORDER_BITS) | move_order(order)
}

/// Takes the best candidate left: its index, or `None` when none is left.
/// Most nodes cut off after a move or two, so sorting the whole list would
/// be wasted work; and a maximum over a fixed eight keys has no branch to
/// mispredict, where a selection among the moves left has one per move.
#[inline]
pub(super) fn take_best(keys: &mut Keys) -> Option<usize> {
    let best = keys.iter().fold(0, |best, &k| best.max(k));
    if best == 0 {
        return None;
    }
    let index = 7 - (best & 7) as usize;
    keys[index] = 0;
    Some(index)
}

impl Worker<'_, Oware> {
    /// Fills `out` with the legal `moves` of `pos` (but `skip`), each at
    /// the index of its house, with their ordering keys (zero for the
    /// others); [`take_best`] takes them best first. What a move captures
    /// is found without sowing when [`Position::captures`] can tell;
    /// otherwise moves that may capture are sown at once. The others are
    /// sown only when `eager`, which also prefetches the children's table
    /// entries.
    pub(in crate::search) fn candidates(
        &self,
        pos: &Position,
        moves: u8,
        skip: Option<u8>,
        ply: usize,
        eager: bool,
        out: &mut Ordered<Position>,
    ) {
        let variant = self.shared.rules.variant;
        let mover = pos.side_to_move();
        let side = mover.index();
        let mut left = moves & !skip.map_or(0, |h| 1 << h);
        let captures = if eager { None } else { pos.captures(variant) };
        while left != 0 {
            let house = left.trailing_zeros() as u8;
            left &= left - 1;
            let mv = Move::of(mover, usize::from(house));
            let mut c = Candidate {
                mv,
                ..Candidate::empty(Position::EMPTY)
            };
            if let Some(captures) = captures {
                c.captured = captures.of(usize::from(house));
            } else if eager || pos.may_capture(mv.pit()) {
                (c.child, c.captured) = pos.after(mv, variant);
                c.ready = true;
                if eager {
                    c.key = board_key(&c.child);
                    self.shared.tt.prefetch(full_key(&c.child, c.key));
                }
            }
            c.order = if c.captured > 0 {
                capture_order(c.captured)
            } else {
                self.quiet_order(ply, side, house)
            };
            out.keys[usize::from(house)] = key(c.order, usize::from(house));
            out.list[usize::from(house)] = c;
        }
        if eager && self.shared.features.table_order {
            self.order_by_tables(pos, moves & !skip.map_or(0, |h| 1 << h), out);
        }
    }
}

impl<G: SearchGame> Worker<'_, G> {
    /// The ordering key of a quiet move: killers first, then by history
    /// (always below a capture's [`capture_order`]).
    #[inline]
    pub(super) fn quiet_order(&self, ply: usize, side: usize, house: u8) -> i32 {
        // Selections rather than branches: which move is a killer is
        // hard to predict.
        let [first, second] = self.killers[ply];
        let history = self.history[side][house as usize];
        let order = if second == house { 1 << 18 } else { history };
        if first == house { 1 << 19 } else { order }
    }

    /// A quiet move at `ply` refuted the opponent's move: it becomes the
    /// first killer and gains history in proportion to the depth.
    #[inline]
    pub(super) fn reward_quiet(&mut self, ply: usize, side: usize, house: u8, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0] != house {
            k[1] = k[0];
            k[0] = house;
        }
        // Kept below the killers' order (it only grows, so capping it here
        // orders the moves as capping it where it is read would).
        let history = &mut self.history[side][house as usize];
        *history = (*history + depth.max(1) * depth.max(1)).min(HISTORY_MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn take_best_takes_the_candidates_in_order_once_each() {
        let mut state = 12_345u64;
        for _ in 0..10_000 {
            let mut keys: Keys = [0; 8];
            let mut expected = vec![];
            for (index, k) in keys.iter_mut().enumerate().take(6) {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                // Few distinct orders, so that ties are common; some absent.
                let order = (state >> 60) as i32;
                if order % 5 != 0 {
                    *k = key(order << 16, index);
                    expected.push((std::cmp::Reverse(order), index));
                }
            }
            // A stable sort by descending order: ties go to the earlier move.
            expected.sort();
            let taken: Vec<usize> = std::iter::from_fn(|| take_best(&mut keys)).collect();
            let expected: Vec<usize> = expected.into_iter().map(|(_, i)| i).collect();
            assert_eq!(taken, expected);
            assert_eq!(keys, [0; 8]);
        }
    }
}
