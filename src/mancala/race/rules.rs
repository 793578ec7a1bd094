//! The rules a race table is for: a capture convention and a start's total
//! of seeds, which fixes the seeds the two sides still need together.

use crate::mancala::{MancalaRules, STOP_SEEDS};
use crate::tb::TableRules;

/// Mancala with the 25-seed stop, for one total of seeds (a start).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RaceRules {
    /// As in [`MancalaRules`].
    pub empty_capture: bool,
    /// Seeds in play: 12 × the start's seeds a house.
    pub total: u8,
}

impl RaceRules {
    /// The race of `rules`' start.
    pub const fn of(rules: MancalaRules) -> RaceRules {
        RaceRules {
            empty_capture: rules.empty_capture,
            total: 12 * rules.start_seeds,
        }
    }

    /// `a + b` on a board of `n` seeds: the seeds the two sides still need
    /// together (negative or below 2: no position of this start has `n`
    /// seeds on the board with both stores under 25).
    pub const fn needs_sum(self, n: usize) -> i32 {
        n as i32 + 2 * STOP_SEEDS as i32 - self.total as i32
    }

    /// The needs `a` of the side to move on a board of `n` seeds.
    pub fn needs(self, n: usize) -> std::ops::RangeInclusive<u8> {
        needs_range(self.needs_sum(n))
    }

    /// The header's rules.
    pub const fn table_rules(self) -> TableRules {
        TableRules::MancalaRace {
            empty_capture: self.empty_capture,
            total: self.total,
        }
    }
}

/// The needs `a` of the mover when the two need `k` together: both at
/// least 1 and at most 25 (an empty range when there is none).
pub fn needs_range(k: i32) -> std::ops::RangeInclusive<u8> {
    let stop = i32::from(STOP_SEEDS);
    let low = 1.max(k - stop);
    let high = stop.min(k - 1);
    if high < low {
        #[allow(clippy::reversed_empty_ranges)]
        return 1..=0;
    }
    low as u8..=high as u8
}
