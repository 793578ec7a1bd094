//! One move of a race position: the stop, the sweep, or the child.

use super::entry::Outcome;
use crate::mancala::edges::{Edge, terminal_word};

/// The mover's outcome through `edge` when it needs `a` seeds and its
/// opponent `b`: a win at once if the move stores `a` (the stop comes
/// first, §7.5), the stores compared if the game ends by (a) or (b), else
/// `child(word, seeds, a', b')`, the child's outcome for its own side to
/// move (the same side after another go, else the opponent, negated).
#[inline(always)]
pub fn through(
    edge: &Edge,
    a: u8,
    b: u8,
    child: impl FnOnce(u128, u8, u8, u8) -> Outcome,
) -> Outcome {
    if edge.stored >= a {
        return Outcome::Win;
    }
    if edge.seeds == 0 {
        return Outcome::of_difference(i32::from(b) - i32::from(a) + i32::from(edge.gain));
    }
    let left = a - edge.stored;
    if edge.again {
        child(edge.child, edge.seeds, left, b)
    } else {
        child(edge.child, edge.seeds, b, left).flip()
    }
}

/// The outcome of a board word whose game is over (one row empty: swept,
/// §7.5 b), or `None` when both rows hold seeds.
#[inline(always)]
pub fn board_outcome(word: u128, a: u8, b: u8) -> Option<Outcome> {
    terminal_word(word).map(|v| Outcome::of_difference(i32::from(b) - i32::from(a) + i32::from(v)))
}
