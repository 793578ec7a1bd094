//! Move ordering: the moves of a node with their ordering keys, best
//! first (captures by size, then killers, then history).

use super::{Worker, board_key, full_key};
use crate::{Move, Position};

/// A legal move with what the search needs to order it.
#[derive(Copy, Clone)]
pub(super) struct Candidate {
    pub(super) mv: Move,
    pub(super) captured: u8,
    /// Whether `child` (and `captured`) has been computed: quiet moves are
    /// sown only when searched, since a cutoff often comes first.
    pub(super) ready: bool,
    pub(super) order: i32,
    /// The child's board key (0: not computed).
    pub(super) key: u64,
    pub(super) child: Position,
}

impl Candidate {
    pub(super) const EMPTY: Candidate = Candidate {
        mv: Move::new(0),
        captured: 0,
        ready: false,
        order: 0,
        key: 0,
        child: Position::EMPTY,
    };
}

/// Ordering keys of the candidates: the order in the high bits and
/// `7 − index` in the low three, so that the largest key is the best move
/// and ties go to the earlier move, as a stable sort would order them.
pub(super) type Keys = [u32; 6];

/// The moves of a node ([`Worker::candidates`]) and their ordering keys.
pub(super) struct Ordered {
    pub(super) list: [Candidate; 6],
    pub(super) keys: Keys,
}

/// The ordering key of a move capturing `captured` seeds: above every
/// quiet move, larger captures first.
#[inline]
pub(super) const fn capture_order(captured: u8) -> i32 {
    (1 << 20) + captured as i32
}

/// Moves the largest of `keys[next..len]` to `keys[next]` and returns the
/// candidate index it stands for. Most nodes cut off after a move or two, so
/// sorting the whole list would be wasted work.
#[inline]
pub(super) fn pick(keys: &mut Keys, next: usize, len: usize) -> usize {
    let mut best = next;
    for i in next + 1..len {
        if keys[i] > keys[best] {
            best = i;
        }
    }
    keys.swap(next, best);
    7 - (keys[next] & 7) as usize
}

impl Worker<'_> {
    /// Fills `list` with the legal `moves` of `pos` (but `skip`) in
    /// generation order with their ordering `keys`; returns how many.
    /// [`pick`] takes them best first. Moves that may capture are
    /// played at once (their capture orders them); the others only when
    /// `eager`, which also prefetches the children's table entries.
    pub(super) fn candidates(
        &self,
        pos: &Position,
        moves: u8,
        skip: Option<u8>,
        ply: usize,
        eager: bool,
        out: &mut Ordered,
    ) -> usize {
        let variant = self.shared.rules.variant;
        let mover = pos.side_to_move();
        let side = mover.index();
        let mut len = 0;
        let mut left = moves & !skip.map_or(0, |h| 1 << h);
        while left != 0 {
            let house = left.trailing_zeros() as u8;
            left &= left - 1;
            let mv = Move::of(mover, usize::from(house));
            let mut c = Candidate {
                mv,
                ..Candidate::EMPTY
            };
            if eager || pos.may_capture(mv.pit()) {
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
            out.keys[len] = ((c.order as u32) << 3) | (7 - len as u32);
            out.list[len] = c;
            len += 1;
        }
        len
    }

    /// The ordering key of a quiet move: killers first, then by history
    /// (always below a capture's [`capture_order`]).
    #[inline]
    pub(super) fn quiet_order(&self, ply: usize, side: usize, house: u8) -> i32 {
        if self.killers[ply][0] == house {
            1 << 19
        } else if self.killers[ply][1] == house {
            1 << 18
        } else {
            self.history[side][house as usize].min((1 << 18) - 1)
        }
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
        self.history[side][house as usize] += depth.max(1) * depth.max(1);
    }
}
