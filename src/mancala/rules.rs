//! The rule set of Mancala as a value: the start and the capture
//! convention (RULES.md §7.1, §7.4).

use std::fmt;

use super::position::{MancalaPosition, START_SEEDS};

/// The settings of a game of Mancala.
///
/// `empty_capture` is the one board-level setting: it changes what a
/// sowing does, so positions carry it (see
/// [`MancalaPosition::empty_capture`]).
/// `start_seeds` only sets the start position (and so which results the
/// 25-seed stop can change, §7.6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MancalaRules {
    /// Seeds a house at the start: 3, 4, 5 or 7.
    pub start_seeds: u8,
    /// A last seed in an empty house of the mover's row, the opposite
    /// house empty, goes alone into the mover's store (Kalah as solved by
    /// Irving, Donkers and Uiterwijk). Off by default: §7.4 captures
    /// nothing then.
    pub empty_capture: bool,
}

impl MancalaRules {
    /// RULES.md §7: three seeds a house, no empty capture.
    pub const DEFAULT: MancalaRules = MancalaRules::new(3, false);

    /// Rules from their settings (`start_seeds` one of [`START_SEEDS`]).
    pub const fn new(start_seeds: u8, empty_capture: bool) -> MancalaRules {
        MancalaRules {
            start_seeds,
            empty_capture,
        }
    }

    /// Whether `start_seeds` is one the rules allow.
    pub fn start_seeds_valid(self) -> bool {
        START_SEEDS.contains(&self.start_seeds)
    }

    /// The start position under these rules.
    pub const fn start(self) -> MancalaPosition {
        MancalaPosition::start(self.start_seeds).with_empty_capture(self.empty_capture)
    }

    /// The capture convention's name: `empty-capture` or `standard`.
    pub const fn capture_name(self) -> &'static str {
        if self.empty_capture {
            "empty-capture"
        } else {
            "standard"
        }
    }
}

impl Default for MancalaRules {
    fn default() -> MancalaRules {
        MancalaRules::DEFAULT
    }
}

impl fmt::Display for MancalaRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mancala ({} seeds a house", self.start_seeds)?;
        if self.empty_capture {
            f.write_str(", empty capture")?;
        }
        f.write_str(")")
    }
}
