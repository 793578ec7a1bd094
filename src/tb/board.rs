//! Boards seen from the side to move, their children and their parents.
//!
//! A table board is twelve pit counts where the side to move owns pits
//! 0..5. Moves are made with the ordinary [`Position`] code (South to move),
//! so the tables follow exactly the same rules as the referee.

use crate::rules::position::capture_run;
use crate::{Move, Position, Side, Variant};

/// The board of `pos` seen from its side to move.
#[inline]
pub fn relative(pos: &Position) -> [u8; 12] {
    match pos.side_to_move() {
        Side::South => *pos.pits(),
        Side::North => rotate(pos.pits()),
    }
}

/// The board seen from the other side.
#[inline]
pub fn rotate(pits: &[u8; 12]) -> [u8; 12] {
    from_word(rotate_word(to_word(pits)))
}

/// Twelve pits as the low twelve bytes of a word (pit 0 lowest). Boards are
/// handled as words in the hot loops: copying them as six-byte halves or
/// byte by byte and then reading them whole stalls the processor's
/// store-to-load forwarding.
#[inline]
pub fn to_word(pits: &[u8; 12]) -> u128 {
    let (lo, hi) = pits.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().expect("eight bytes"));
    let hi = u32::from_le_bytes(hi.try_into().expect("four bytes"));
    u128::from(lo) | (u128::from(hi) << 64)
}

/// The pits of a word made by [`to_word`].
#[inline]
pub fn from_word(word: u128) -> [u8; 12] {
    let [a, b, c, d, e, f, g, h] = (word as u64).to_le_bytes();
    let [i, j, k, l] = ((word >> 64) as u32).to_le_bytes();
    [a, b, c, d, e, f, g, h, i, j, k, l]
}

/// [`rotate`] on words: the two six-byte rows swap places.
#[inline]
pub const fn rotate_word(word: u128) -> u128 {
    const ROW: u128 = (1 << 48) - 1;
    (word >> 48) | ((word & ROW) << 48)
}

/// A position with empty stores and South (the owner of pits 0..5) to move.
#[inline]
pub fn as_position(board: &[u8; 12]) -> Position {
    debug_assert!(board.iter().map(|&s| u32::from(s)).sum::<u32>() <= 48);
    Position::from_pits_word(to_word(board))
}

/// One legal move of a board: the seeds it captures and the child board,
/// seen from the child's side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The move, as one of South's letters (`A`..`F`).
    pub mv: Move,
    /// Seeds captured.
    pub captured: u8,
    /// The resulting board from the opponent's side.
    pub child: [u8; 12],
}

/// Calls `f` for every legal move of `board`. Returns the number of moves.
#[inline]
pub fn for_each_child(board: &[u8; 12], variant: Variant, mut f: impl FnMut(Edge)) -> usize {
    for_each_child_word(to_word(board), variant, |mv, captured, child| {
        f(Edge {
            mv,
            captured,
            child: from_word(child),
        })
    })
}

/// [`for_each_child`] on boards held as words (see [`to_word`]): `f` gets
/// the move, the seeds it captures and the child.
#[inline]
pub fn for_each_child_word(
    word: u128,
    variant: Variant,
    mut f: impl FnMut(Move, u8, u128),
) -> usize {
    let pos = Position::from_pits_word(word);
    let houses = pos.legal_houses(variant);
    for house in (0..6).filter(|h| houses >> h & 1 != 0) {
        let mv = Move::new(house);
        let (next, captured) = pos.after(mv, variant);
        f(mv, captured, rotate_word(next.pits_word()));
    }
    houses.count_ones() as usize
}

/// Calls `f` with every indexed board from which a legal move that captures
/// nothing leads to `board` (seen from its side to move).
///
/// The parent's mover is `board`'s opponent (pits 6..11 here), and its
/// origin pit is empty in `board`. Un-sowing `s` seeds takes one seed back
/// from each of the `s` pits that would have received them (skipping the
/// origin on every lap) and puts `s` into the origin. Candidates the cheap
/// checks cannot settle are replayed forwards, so the rules (feeding, grand
/// slam, Awari's emptying rule) are applied by the same code as everywhere
/// else.
#[inline]
pub fn for_each_parent(board: &[u8; 12], variant: Variant, mut f: impl FnMut([u8; 12])) {
    for_each_parent_word(to_word(board), variant, |parent| f(from_word(parent)));
}

/// [`for_each_parent`] on boards held as words (see [`to_word`]).
#[inline]
pub fn for_each_parent_word(word: u128, variant: Variant, mut f: impl FnMut(u128)) {
    let board = from_word(word);
    // Seeds and empty pits in the parent's opponent row (pits 0..5 here),
    // kept up to date as seeds are taken back.
    let row_seeds0: u8 = board[..6].iter().sum();
    let row_empty0 = board[..6].iter().filter(|&&s| s == 0).count();
    for origin in 6..12 {
        if board[origin] != 0 {
            continue;
        }
        // The parent being rebuilt, as a word: seeds are taken back by
        // subtracting one from a byte (never below zero, so no borrow).
        let mut taken = word;
        let (mut row_seeds, mut row_empty) = (row_seeds0, row_empty0);
        let mut pit = origin;
        let mut seeds = 0u8;
        loop {
            pit = if pit == 11 { 0 } else { pit + 1 };
            if pit == origin {
                pit = if pit == 11 { 0 } else { pit + 1 };
            }
            let left = (taken >> (8 * pit)) as u8;
            if left == 0 {
                break;
            }
            taken -= 1 << (8 * pit);
            seeds += 1;
            if pit < 6 {
                row_seeds -= 1;
                row_empty += usize::from(left == 1);
            }
            // The parent is indexed only if its opponent row has an empty pit.
            if row_empty == 0 {
                continue;
            }
            let parent = rotate_word(taken | (u128::from(seeds) << (8 * origin)));
            let ok = match quick_parent_check(&board, pit, row_seeds0 > 0 || row_seeds > 0, variant)
            {
                Some(ok) => ok,
                None => replays_to(&from_word(parent), origin - 6, &board, variant),
            };
            if ok {
                f(parent);
            }
        }
    }
}

/// Decides cheaply whether the un-sown move (last seed in `last`, `legal`
/// telling whether the feeding rule allows it) was a legal move that
/// captured nothing, or returns `None` when only replaying it can tell.
#[inline]
fn quick_parent_check(
    board: &[u8; 12],
    last: usize,
    legal: bool,
    variant: Variant,
) -> Option<bool> {
    if !matches!(variant, Variant::Abapa | Variant::CaptureAndEnd) {
        return None;
    }
    // The last seed made a 2 or 3 in the parent's opponent row: a capture,
    // unless (Abapa) it would have been a grand slam, which is forfeited:
    // the capture run would have taken every seed of that row.
    if last < 6 && matches!(board[last], 2 | 3) {
        let slam = || capture_run(board, last, 0).0 == board[..6].iter().sum::<u8>();
        return Some(variant == Variant::Abapa && legal && slam());
    }
    // Compulsory feeding: a parent whose opponent row was empty must have
    // put seeds into it.
    Some(legal)
}

/// Whether the house-`house` move of `parent` is legal, captures nothing and
/// leads to `board`.
#[inline]
fn replays_to(parent: &[u8; 12], house: usize, board: &[u8; 12], variant: Variant) -> bool {
    let pos = as_position(parent);
    let mv = Move::new(house);
    if pos.legal_houses(variant) >> house & 1 == 0 {
        return false;
    }
    let (next, captured) = pos.after(mv, variant);
    captured == 0 && rotate_word(next.pits_word()) == to_word(board)
}

/// The value of a board with no legal move: the mover either has no seeds
/// (the opponent takes the `n` left) or cannot feed (the mover takes them).
/// Returned as (seeds forced by the mover, seeds forced by the opponent).
#[inline]
pub fn terminal_value(board: &[u8; 12], n: u8) -> (u8, u8) {
    if board[..6].iter().all(|&s| s == 0) {
        (0, n)
    } else {
        (n, 0)
    }
}
