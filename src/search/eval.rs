//! The static evaluation: captured-seed difference plus positional terms.
//!
//! Scores are in centiseeds (100 = one seed) from the side to move's view.

use crate::{Position, Side};

/// Evaluation weights, in centiseeds. Kept in one place so they can be tuned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Per captured seed (the material).
    pub store: i32,
    /// Per seed in the side's own row (seeds it controls).
    pub own_seed: i32,
    /// Per pit of the opponent holding 1 or 2 seeds (a capture target).
    pub target: i32,
    /// Per empty pit in the side's own row (no moves there, but safe).
    pub empty: i32,
    /// Per legal move.
    pub mobility: i32,
    /// For a pit holding at least 12 seeds (a "kroo" that laps the board).
    pub kroo: i32,
    /// Per seed the side to move can capture right now (its best capture).
    pub threat: i32,
}

impl EvalParams {
    /// The default weights.
    pub const DEFAULT: EvalParams = EvalParams {
        store: 100,
        own_seed: 4,
        target: 12,
        empty: -6,
        mobility: 6,
        kroo: 40,
        threat: 30,
    };
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams::DEFAULT
    }
}

/// Positional terms of one side.
#[inline]
fn side_terms(pits: &[u8; 12], side: Side, p: &EvalParams) -> i32 {
    let own = &pits[side.first_pit()..side.first_pit() + 6];
    let theirs = &pits[side.opponent().first_pit()..side.opponent().first_pit() + 6];
    let mut score = 0;
    for &s in own {
        score += p.own_seed * i32::from(s);
        score += if s == 0 { p.empty } else { p.mobility };
        if s >= 12 {
            score += p.kroo;
        }
    }
    for &s in theirs {
        if s == 1 || s == 2 {
            score += p.target;
        }
    }
    score
}

/// The evaluation of `pos` for its side to move; `best_capture` is the
/// largest capture available to the side to move (the search knows it).
#[inline]
pub fn evaluate(pos: &Position, best_capture: u8, p: &EvalParams) -> i32 {
    let me = pos.side_to_move();
    let [south, north] = pos.stores();
    let material = (i32::from(south) - i32::from(north)) * if me == Side::South { 1 } else { -1 };
    material * p.store + side_terms(pos.pits(), me, p) - side_terms(pos.pits(), me.opponent(), p)
        + p.threat * i32::from(best_capture)
}
