//! What a table entry means and how a board's value follows from its
//! children's.

use crate::Variant;

/// A board's value as the pair the tables store.
///
/// - Abapa (and its grand-slam variants): `mover` = gM, the seeds the side
///   to move can force itself to capture; `opponent` = gN, the seeds the
///   opponent can force. Both are least fixpoints (captures reached in a
///   finite number of moves whatever the other side does).
/// - Awari: `mover` is the largest v ≥ 1 such that the mover can force a
///   final difference (mover − opponent, of the seeds on the board) of at
///   least v, else 0; `opponent` likewise for the opponent. At most one is
///   non-zero and the Romein & Bal score is `mover − opponent`; endless play
///   leaves both at 0.
///
/// For both, with `(x, y) = (mover, opponent)`:
/// x = max over moves of the move's x-candidate, y = min over moves of its
/// y-candidate (see [`Value::candidates`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Value {
    /// Seeds (Abapa) or score (Awari) the side to move can force.
    pub mover: u8,
    /// Seeds (Abapa) or score (Awari) the opponent can force.
    pub opponent: u8,
}

impl Value {
    /// A value from its two halves.
    pub const fn new(mover: u8, opponent: u8) -> Value {
        Value { mover, opponent }
    }

    /// A value from a Romein & Bal score.
    pub const fn from_score(score: i8) -> Value {
        if score >= 0 {
            Value::new(score as u8, 0)
        } else {
            Value::new(0, score.unsigned_abs())
        }
    }

    /// The Romein & Bal score (Awari tables).
    pub const fn score(self) -> i8 {
        self.mover as i8 - self.opponent as i8
    }

    /// Whether the value does not depend on history (Abapa: gM + gN = n).
    pub const fn is_exact(self, seeds: u8) -> bool {
        self.mover as u16 + self.opponent as u16 == seeds as u16
    }

    /// What a move capturing `captured` seeds into a child of value `child`
    /// offers the mover: (a candidate for x, a candidate for y).
    #[inline]
    pub fn candidates(variant: Variant, captured: u8, child: Value) -> (u8, u8) {
        match variant {
            // The mover keeps what it captured plus what it can force as the
            // child's opponent; the opponent gets what it forces as mover.
            Variant::Abapa
            | Variant::GrandSlamForbidden
            | Variant::CaptureAndEnd
            | Variant::CaptureToWin => (captured + child.opponent, child.mover),
            // The mover's final difference through this move is
            // captured − child's score.
            Variant::Awari => {
                let diff = i16::from(captured) - i16::from(child.score());
                (diff.max(0) as u8, (-diff).max(0) as u8)
            }
        }
    }
}
