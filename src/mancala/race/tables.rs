//! Race tables opened for probing: a position's outcome with the 25-seed
//! stop, from a memory map.

use std::path::Path;

use super::entry::{Outcome, RaceEntry};
use super::rules::RaceRules;
use crate::tb::index::{MAX_SEEDS, rank_full_word};
use crate::tb::{Levels, TableError};

/// The levels of one start's race tables in a folder.
pub struct RaceTables {
    levels: Levels,
    rules: RaceRules,
}

impl RaceTables {
    /// Opens every level present in `dir` for `rules` (headers and sizes
    /// checked; a file of other rules under a level's name is an error).
    pub fn open(dir: &Path, rules: RaceRules) -> Result<RaceTables, TableError> {
        Ok(RaceTables {
            levels: Levels::open(dir, rules.table_rules())?,
            rules,
        })
    }

    /// Opens the levels up to `max_level` for a solve: each checksum is
    /// verified (a damaged level is left closed and returned with the
    /// others refused), and compact levels are decoded into memory, a byte
    /// a board, as far as `OWARE_TB_MEMORY` allows (a probe of a decoded
    /// level is a load, of a compact one a block's decode).
    pub fn open_for_search(
        dir: &Path,
        rules: RaceRules,
        max_level: usize,
    ) -> Result<(RaceTables, Vec<TableError>), TableError> {
        let (levels, rejected) = Levels::open_for_search(dir, rules.table_rules(), max_level)?;
        levels.decode_in_memory(crate::tb::levels::decode_budget());
        Ok((RaceTables { levels, rules }, rejected))
    }

    /// The rules the tables are for.
    pub fn rules(&self) -> RaceRules {
        self.rules
    }

    /// The open levels.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// The largest `n` such that levels 0..=n are all open.
    pub fn complete_up_to(&self) -> Option<usize> {
        self.levels.complete_up_to()
    }

    /// The entry of a board word of `n` seeds (seen from its mover), if
    /// its level is open.
    #[inline]
    pub fn entry(&self, word: u128, n: usize) -> Option<RaceEntry> {
        if n > MAX_SEEDS {
            return None;
        }
        let table = self.levels.table(n)?;
        Some(RaceEntry::unpack(table.entry(rank_full_word(word, n)) as u8))
    }

    /// The outcome for the mover of a board word of `n` seeds when it
    /// needs `a` seeds and its opponent `b`; `None` when the level is not
    /// open or `a + b` is not this start's for `n` seeds.
    #[inline]
    pub fn outcome(&self, word: u128, n: usize, a: u8, b: u8) -> Option<Outcome> {
        if i32::from(a) + i32::from(b) != self.rules.needs_sum(n) || a == 0 || b == 0 {
            return None;
        }
        Some(self.entry(word, n)?.outcome(a))
    }
}
