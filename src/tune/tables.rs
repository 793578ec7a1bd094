//! Positions from the endgame tables: a board of a level drawn at random
//! with stores drawn at random, kept when the entry decides the game.
//!
//! An entry holds what each side can force of the seeds on the board (gM
//! for the side to move, gN for the other, RULES.md §4), whatever the
//! stores; with c and c' captured the side to move wins by force when c +
//! gM ≥ 25, loses when c' + gN ≥ 25, and when the entry is exact (gM + gN =
//! the seeds on the board) the game ends c + gM to c' + gN. Otherwise the
//! result depends on which position repeats first, and the board is drawn
//! again.

use indicatif::ProgressBar;

use crate::arena::openings::Rng;
use crate::rules::WINNING_SEEDS;
use crate::tb::Tablebase;
use crate::tb::index::{level_size, unrank};
use crate::tb::probe::Verdict;
use crate::{Position, Side};

use super::Sample;

/// How many positions of which levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSampling {
    /// Positions wanted: the same number from each level.
    pub count: usize,
    /// The levels (seeds on the board), all loaded in the tables.
    pub levels: std::ops::RangeInclusive<usize>,
    /// The random generator's seed.
    pub seed: u64,
}

/// The result a verdict gives the side to move, if it gives one.
fn result_of(verdict: Verdict) -> Option<f32> {
    match verdict {
        Verdict::ForcedWin => Some(1.0),
        Verdict::ForcedDraw => Some(0.5),
        Verdict::ForcedLoss => Some(0.0),
        Verdict::DependsOnHistory => None,
    }
}

/// Draws `sampling.count` positions (fewer when a level has too few
/// decided boards: after 50 draws a position, the level gives up). Levels
/// of no move (level 0) are skipped.
pub fn sample(tables: &Tablebase, sampling: &TableSampling, progress: &ProgressBar) -> Vec<Sample> {
    let variant = tables.variant();
    let levels: Vec<usize> = sampling.levels.clone().filter(|&n| n > 0).collect();
    let mut out = Vec::with_capacity(sampling.count);
    progress.set_length(sampling.count as u64);
    for (li, &n) in levels.iter().enumerate() {
        // The same share from each level, the remainder from the first ones.
        let want = sampling.count / levels.len() + usize::from(li < sampling.count % levels.len());
        let mut rng = Rng::new(sampling.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let captured = 48 - n;
        let win = usize::from(WINNING_SEEDS);
        // The side to move's store: neither side has 25 yet.
        let (lo, hi) = (captured.saturating_sub(win - 1), captured.min(win - 1));
        let (mut got, mut draws) = (0, 0);
        while got < want && draws < 50 * want {
            draws += 1;
            let r = rng.next_u64() % level_size(n);
            let board = unrank(r, n);
            let own = lo + rng.below(hi - lo + 1);
            let stores = [own as u8, (captured - own) as u8];
            let Ok(position) = Position::new(board, stores, Side::South) else {
                continue;
            };
            if position.board_end(variant).is_some() {
                continue;
            }
            let value = tables.value_at(n, r);
            let verdict = Verdict::of(variant, value, n as u8, stores[0], stores[1]);
            if let Some(result) = result_of(verdict) {
                out.push(Sample { position, result });
                got += 1;
                progress.inc(1);
            }
        }
    }
    out
}
