//! The static evaluation of a Mancala position, in centiseeds for the side
//! to move: the store difference, the seeds in each row, the moves that
//! give another go and the best capture on offer.

use super::position::MancalaPosition;
use crate::Side;

/// The slots of a lap (six houses, the store, six houses of the opponent).
const LAP: u8 = 13;

/// Why an eval file (`--eval`, `self:eval=`) is refused for Mancala.
pub const NO_EVAL_FILE: &str =
    "eval files are Oware's (mancala's evaluation has no weights to set)";

/// Evaluation weights, in centiseeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MancalaParams {
    /// A seed in a store (the material).
    pub store: i32,
    /// A seed in a side's own row (it goes to that side if the game ends
    /// with the other row empty).
    pub own_seed: i32,
    /// A move of the side to move whose last seed lands in its store.
    pub another_go: i32,
    /// A seed the side to move can capture now (its best capture).
    pub threat: i32,
    /// A seed the opponent could capture if it were to move.
    pub exposed: i32,
}

impl MancalaParams {
    /// The default weights.
    pub const DEFAULT: MancalaParams = MancalaParams {
        store: 100,
        own_seed: 20,
        another_go: 60,
        threat: 40,
        exposed: 20,
    };
}

impl Default for MancalaParams {
    fn default() -> MancalaParams {
        MancalaParams::DEFAULT
    }
}

/// The largest evaluation in absolute value: below every proven score.
pub const MAX_EVAL: i32 = 9_999;

/// What `side`'s moves offer in `pos`: how many end in its store, and the
/// largest capture (the seeds taken from the opposite house, the last seed
/// not counted).
pub fn offers(pos: &MancalaPosition, side: Side) -> (i32, u8) {
    let pits = pos.pits();
    let first = side.first_pit();
    let mut goes = 0;
    let mut best = 0;
    for house in 0..6 {
        let seeds = pits[first + house];
        if seeds == 0 {
            continue;
        }
        // The last seed's slot on the lap: 0..5 the own houses, 6 the store.
        let last = (house as u8 + seeds % LAP) % LAP;
        if last == 6 {
            goes += 1;
        } else if last < 6 && seeds < LAP {
            // Short of a lap, the landing house (never the origin) was
            // empty if it is empty now.
            let pit = first + usize::from(last);
            let opposite = 11 - pit;
            if pits[pit] == 0 {
                // A sowing that lands in the own row again has gone round
                // through the opposite row, adding a seed there.
                let round = house as u8 + seeds >= LAP;
                best = best.max(pits[opposite] + u8::from(round));
            }
        }
    }
    (goes, best)
}

/// The evaluation of `pos` for its side to move.
pub fn evaluate(pos: &MancalaPosition, p: &MancalaParams) -> i32 {
    let me = pos.side_to_move();
    let them = me.opponent();
    let stores = i32::from(pos.store(me)) - i32::from(pos.store(them));
    let rows = i32::from(pos.row_seeds(me)) - i32::from(pos.row_seeds(them));
    let (goes, threat) = offers(pos, me);
    let (_, exposed) = offers(pos, them);
    let score =
        p.store * stores + p.own_seed * rows + p.another_go * goes + p.threat * i32::from(threat)
            - p.exposed * i32::from(exposed);
    score.clamp(-MAX_EVAL, MAX_EVAL)
}
