//! `oware verify` and `oware stats`: re-reading built tables.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use super::build::{FixpointError, check_level, expected_value};
use super::builder::LevelStats;
use super::file::TableError;
use super::index::{MAX_SEEDS, level_size, rank, unrank};
use super::tables::Tablebase;

/// What went wrong verifying a level.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The file is missing, unreadable, corrupt or of other rules.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A value does not satisfy the fixpoint equations.
    #[error("{}: {error}", path.display())]
    Fixpoint {
        /// The table file.
        path: std::path::PathBuf,
        /// The equation that failed.
        error: FixpointError,
    },
    /// Checking a level needs the levels below it.
    #[error("level {level} needs level {missing}, which is not built")]
    NeedsLower {
        /// The level being checked.
        level: usize,
        /// The missing one.
        missing: usize,
    },
}

/// The levels present in a folder, ascending.
pub fn present_levels(tb: &Tablebase) -> Vec<usize> {
    (0..=MAX_SEEDS).filter(|&l| tb.has_level(l)).collect()
}

/// Verifies one level: header (already checked on opening), checksum, and
/// the fixpoint equations on every board or on `sample` boards picked
/// deterministically.
pub fn verify_level(
    tb: &Tablebase,
    level: usize,
    sample: Option<u64>,
    bar: &ProgressBar,
) -> Result<u64, VerifyError> {
    let table = tb.require(level)?;
    table.verify_checksum()?;
    if let Some(missing) = (0..level).find(|&l| !tb.has_level(l)) {
        return Err(VerifyError::NeedsLower { level, missing });
    }
    let variant = tb.variant();
    let fail = |error| VerifyError::Fixpoint {
        path: table.path().to_path_buf(),
        error,
    };
    let values = |r: u64| tb.value_at(level, r);
    let size = level_size(level);
    match sample {
        None => {
            check_level(level, variant, tb, bar).map_err(fail)?;
            Ok(size)
        }
        Some(k) => {
            let k = k.min(size);
            (0..k).into_par_iter().try_for_each(|i| {
                // A fixed, well-spread sequence of ranks (golden-ratio step).
                let r = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i >> 7)) % size;
                let board = unrank(r, level);
                let stored = values(r);
                let expected =
                    expected_value(&board, level, variant, &|b| values(rank(b, level)), tb);
                if stored == expected {
                    Ok(())
                } else {
                    Err(fail(FixpointError {
                        level,
                        board,
                        stored,
                        expected,
                    }))
                }
            })?;
            Ok(k)
        }
    }
}

/// One level's line of `oware stats`.
#[derive(Clone, Debug, Serialize)]
pub struct LevelReport {
    /// Seeds on the board.
    pub seeds: usize,
    /// Boards in the level.
    pub boards: u64,
    /// Exact boards (all of them for Awari).
    pub exact: u64,
    /// gM (Abapa) or score (Awari) → boards, non-zero entries only.
    pub histogram: std::collections::BTreeMap<i32, u64>,
}

impl LevelReport {
    /// The line `oware stats` prints.
    pub fn describe(&self) -> String {
        let hist: Vec<String> = self
            .histogram
            .iter()
            .map(|(v, c)| format!("{v}:{c}"))
            .collect();
        format!(
            "level {:>2}: {:>13} boards, {:>13} exact ({:.1}%)  {}",
            self.seeds,
            self.boards,
            self.exact,
            100.0 * self.exact as f64 / self.boards as f64,
            hist.join(" ")
        )
    }
}

/// Statistics of every level present. Each level's checksum is verified
/// first: a damaged level is an error naming its file (and saying how to
/// replace it), never counted.
pub fn stats(tb: &Tablebase) -> Result<Vec<LevelReport>, TableError> {
    let awari = tb.variant() == crate::Variant::Awari;
    present_levels(tb)
        .into_iter()
        .map(|level| {
            tb.require(level)?.verify_checksum()?;
            let s = LevelStats::of(level, tb.variant(), |r| tb.value_at(level, r));
            let histogram = s
                .histogram
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(v, &c)| (if awari { v as i32 - 48 } else { v as i32 }, c))
                .collect();
            Ok(LevelReport {
                seeds: level,
                boards: level_size(level),
                exact: s.exact,
                histogram,
            })
        })
        .collect()
}
