//! Boards seen from the side to move, their children and their parents.
//!
//! A table board is twelve pit counts where the side to move owns pits
//! 0..5. Moves are made with the ordinary [`Position`] code (South to move),
//! so the tables follow exactly the same rules as the referee.

use super::index::is_indexed;
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
    let mut out = [0u8; 12];
    out[..6].copy_from_slice(&pits[6..]);
    out[6..].copy_from_slice(&pits[..6]);
    out
}

/// A position with empty stores and South (the owner of pits 0..5) to move.
#[inline]
pub fn as_position(board: &[u8; 12]) -> Position {
    Position::new(*board, [0, 0], Side::South).expect("a table board holds at most 48 seeds")
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
    let pos = as_position(board);
    let moves = pos.legal_moves(variant);
    for &mv in moves.iter() {
        let (next, captured) = pos.after(mv, variant);
        f(Edge {
            mv,
            captured,
            child: rotate(next.pits()),
        });
    }
    moves.len()
}

/// Calls `f` with every indexed board from which a legal move that captures
/// nothing leads to `board` (seen from its side to move).
///
/// The parent's mover is `board`'s opponent (pits 6..11 here), and its
/// origin pit is empty in `board`. Un-sowing `s` seeds takes one seed back
/// from each of the `s` pits that would have received them (skipping the
/// origin on every lap) and puts `s` into the origin. Each candidate is then
/// replayed forwards, so the rules (feeding, grand slam, Awari's emptying
/// rule) are applied by the same code as everywhere else.
#[inline]
pub fn for_each_parent(board: &[u8; 12], variant: Variant, mut f: impl FnMut([u8; 12])) {
    for origin in 6..12 {
        if board[origin] != 0 {
            continue;
        }
        let mut taken = *board;
        let mut pit = origin;
        let mut seeds = 0u8;
        loop {
            pit = if pit == 11 { 0 } else { pit + 1 };
            if pit == origin {
                pit = if pit == 11 { 0 } else { pit + 1 };
            }
            if taken[pit] == 0 {
                break;
            }
            taken[pit] -= 1;
            seeds += 1;
            let mut before = taken;
            before[origin] = seeds;
            let parent = rotate(&before);
            if !is_indexed(&parent) {
                continue;
            }
            let pos = as_position(&parent);
            let mv = Move::new(origin - 6);
            if !pos.legal_moves(variant).contains(&mv) {
                continue;
            }
            let (next, captured) = pos.after(mv, variant);
            if captured == 0 && rotate(next.pits()) == *board {
                f(parent);
            }
        }
    }
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
