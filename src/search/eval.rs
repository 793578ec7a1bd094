//! The static evaluation: captured-seed difference plus positional terms,
//! weighted ([`EvalParams`]) or learned ([`Network`]).
//!
//! Scores are in centiseeds (100 = one seed) from the side to move's view.

use crate::{Position, Side};

mod choice;
mod file;
pub mod network;
mod network_file;

pub use choice::{EvalChoice, builtin_network};
pub use file::{EvalFileError, MAX_EVALUATION, ParamsError};
pub use network::Network;
pub use network_file::{NETWORK_MAGIC, NETWORK_VERSION, NetworkFileError};

/// Evaluation weights, in centiseeds. Kept in one place so they can be
/// tuned (`oware tune`) and read from a file ([`EvalParams::load`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Per captured seed (the material).
    pub store: i32,
    /// Per seed in the side's own row (seeds it controls).
    pub own_seed: i32,
    /// Per pit of the opponent holding 1 or 2 seeds (a capture target).
    pub target: i32,
    /// Per empty pit in the side's own row (no move there).
    pub empty: i32,
    /// Per pit in the side's own row holding seeds (a move, unless the
    /// feeding rule forbids it). Both rows have six pits, so only `empty`
    /// less `mobility` counts.
    pub mobility: i32,
    /// For a pit holding at least 12 seeds (a "kroo" that laps the board).
    pub kroo: i32,
    /// Per seed the side to move can capture right now (its best capture).
    pub threat: i32,
}

impl EvalParams {
    /// The default weights: fitted by `oware tune` to 1.4 million positions
    /// (200,000 drawn from the tables of levels 1..20, 1.2 million from
    /// 20,000 self-play games; see the README). The hand-set weights before
    /// them were 100, 4, 12, −6, 6, 40, 30.
    pub const DEFAULT: EvalParams = EvalParams {
        store: 100,
        own_seed: -6,
        target: 50,
        empty: -212,
        mobility: 6,
        kroo: 205,
        threat: 55,
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
/// Written term by term, straight from the weights; the search uses the
/// equivalent, faster [`Evaluator`].
pub fn evaluate(pos: &Position, best_capture: u8, p: &EvalParams) -> i32 {
    let me = pos.side_to_move();
    let [south, north] = pos.stores();
    let material = (i32::from(south) - i32::from(north)) * if me == Side::South { 1 } else { -1 };
    material * p.store + side_terms(pos.pits(), me, p) - side_terms(pos.pits(), me.opponent(), p)
        + p.threat * i32::from(best_capture)
}

/// [`evaluate`] prepared for speed. Every per-pit term depends only on the
/// pit's seed count and on whose row it is in, and the terms of a pit in
/// the opponent's row are those of the side to move's row negated. A pit's
/// worth for its owner is its seeds times one weight, plus one weight each
/// if it is empty (rather than playable), holds a kroo, or holds 1 or 2
/// seeds (a target for the opponent). So the evaluation needs, for each
/// row, the seeds and the three counts, which SSE2 finds for all twelve
/// pits at once (other targets count pit by pit).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Evaluator {
    /// The network that replaces the positional terms, if any.
    network: Option<&'static Network>,
    own_seed: i32,
    /// An empty pit's weight relative to a playable one's.
    empty: i32,
    kroo: i32,
    target: i32,
    store: i32,
    threat: i32,
}

impl Evaluator {
    /// The evaluator of an evaluation: a network keeps the store's 100 a
    /// seed and its own capture weight.
    pub fn of(choice: &EvalChoice) -> Evaluator {
        match *choice {
            EvalChoice::Weights(weights) => Evaluator::new(&weights),
            EvalChoice::Builtin => Evaluator::network(builtin_network()),
            EvalChoice::Network(net) => Evaluator::network(net),
        }
    }

    /// The evaluator of a network.
    fn network(net: &'static Network) -> Evaluator {
        Evaluator {
            network: Some(net),
            own_seed: 0,
            empty: 0,
            kroo: 0,
            target: 0,
            store: 100,
            threat: net.threat(),
        }
    }

    /// The evaluator of these weights.
    pub fn new(p: &EvalParams) -> Evaluator {
        Evaluator {
            network: None,
            own_seed: p.own_seed,
            empty: p.empty - p.mobility,
            kroo: p.kroo,
            target: p.target,
            store: p.store,
            threat: p.threat,
        }
    }

    /// The same value as [`evaluate`] with the weights of [`Evaluator::new`].
    #[inline]
    pub fn evaluate(&self, pos: &Position, best_capture: u8) -> i32 {
        let [south_store, north_store] = pos.stores();
        let material = self.store * (i32::from(south_store) - i32::from(north_store));
        // South's view of what both sides share, and the side to move's own.
        let (south_view, mover_view) = match self.network {
            None => (material + self.rows_difference(pos), 0),
            Some(net) => (material, net.clamped_board_value(pos)),
        };
        let view = if pos.side_to_move() == Side::South {
            south_view
        } else {
            -south_view
        };
        view + mover_view + self.capture_term(best_capture)
    }

    /// The worth of South's pits less the worth of North's.
    #[cfg(target_arch = "x86_64")]
    #[inline]
    fn rows_difference(&self, pos: &Position) -> i32 {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cvtsi128_si64, _mm_or_si128,
            _mm_sad_epu8, _mm_set_epi64x, _mm_set1_epi8, _mm_setzero_si128, _mm_srli_si128,
        };
        const ROW: u128 = 0xFFFF_FFFF_FFFF;
        let word = pos.pits_word();
        // South's six pits in the low half, North's in the high half; the
        // two spare bytes of each half count as empty pits in both rows, so
        // they cancel out.
        // SAFETY: SSE2 is part of every x86_64 target, so these intrinsics
        // are always available; they only compute on values.
        let (seeds, counts) = unsafe {
            let rows = _mm_set_epi64x((word >> 48 & ROW) as i64, (word & ROW) as i64);
            let zero = _mm_setzero_si128();
            let empty = _mm_cmpeq_epi8(rows, zero);
            let kroo = _mm_cmpgt_epi8(rows, _mm_set1_epi8(11));
            let target = _mm_or_si128(
                _mm_cmpeq_epi8(rows, _mm_set1_epi8(1)),
                _mm_cmpeq_epi8(rows, _mm_set1_epi8(2)),
            );
            // Each pit's flags as one byte (empty 1, kroo 16, target 128): a
            // row's byte sum holds its three counts in three fields (at most
            // 8 empty pits with the spare bytes, 6 kroos, 6 targets).
            let flags = _mm_or_si128(
                _mm_or_si128(
                    _mm_and_si128(empty, _mm_set1_epi8(1)),
                    _mm_and_si128(kroo, _mm_set1_epi8(16)),
                ),
                _mm_and_si128(target, _mm_set1_epi8(-128)),
            );
            let seeds = _mm_sad_epu8(rows, zero);
            let counts = _mm_sad_epu8(flags, zero);
            (seeds, counts)
        };
        // SAFETY: as above.
        let low = |v| unsafe { _mm_cvtsi128_si64(v) } as i32;
        let high = |v| unsafe { _mm_cvtsi128_si64(_mm_srli_si128::<8>(v)) } as i32;
        let row = |seeds: i32, counts: i32| {
            self.own_seed * seeds + self.empty * (counts & 15) + self.kroo * (counts >> 4 & 7)
                - self.target * (counts >> 7)
        };
        row(low(seeds), low(counts)) - row(high(seeds), high(counts))
    }

    /// The worth of South's pits less the worth of North's.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline]
    fn rows_difference(&self, pos: &Position) -> i32 {
        // A pit's worth for its owner less a playable pit's weight: each
        // row has six pits, so what is left out cancels between the rows.
        let worth = |&s: &u8| {
            let mut w = self.own_seed * i32::from(s);
            w += if s == 0 { self.empty } else { 0 };
            w += if s >= 12 { self.kroo } else { 0 };
            w - if s == 1 || s == 2 { self.target } else { 0 }
        };
        let pits = pos.pits();
        pits[..6].iter().map(worth).sum::<i32>() - pits[6..].iter().map(worth).sum::<i32>()
    }

    /// Whether the capture term never lowers the score (its weight is not
    /// negative): the search then skips looking for captures at a leaf
    /// that fails high without them.
    #[inline]
    pub fn captures_only_raise(&self) -> bool {
        self.threat >= 0
    }

    /// The part of [`Evaluator::evaluate`] that comes from the best capture
    /// available (so `evaluate(pos, c) == evaluate(pos, 0) + capture_term(c)`).
    #[inline]
    pub fn capture_term(&self, best_capture: u8) -> i32 {
        self.threat * i32::from(best_capture)
    }
}
