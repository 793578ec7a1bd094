//! `oware verify` and `oware stats`: re-reading built tables.

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::Serialize;

use super::build::FixpointError;
use super::builder::LevelStats;
use super::file::{Encoding, TableError};
use super::game::TableGame;
use super::index::MAX_SEEDS;
use super::levels::Levels;
use super::tables::Tablebase;

/// What went wrong verifying a level.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The file is missing, unreadable, corrupt or of other rules.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A value does not satisfy the fixpoint equations (Oware) or is not
    /// what its children give (Mancala).
    #[error("{}: {error}", path.display())]
    Fixpoint {
        /// The table file.
        path: std::path::PathBuf,
        /// The equation that failed.
        error: Box<dyn std::error::Error + Send + Sync>,
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

/// Verifies one level of Oware's tables (see [`verify_game_level`]).
pub fn verify_level(
    tb: &Tablebase,
    level: usize,
    sample: Option<u64>,
    bar: &ProgressBar,
) -> Result<u64, VerifyError> {
    verify_game_level(&tb.variant(), tb.levels(), level, sample, bar)
}

/// Verifies one level of `game`'s tables: header (already checked on
/// opening), checksum, and the re-check of every board against its
/// children, or of `sample` boards picked deterministically. Returns the
/// boards re-checked.
pub fn verify_game_level<G: TableGame>(
    game: &G,
    levels: &Levels,
    level: usize,
    sample: Option<u64>,
    bar: &ProgressBar,
) -> Result<u64, VerifyError> {
    let table = levels.require(level)?;
    table.verify_decoded()?;
    if let Some(missing) = (0..level).find(|&l| !levels.has_level(l)) {
        return Err(VerifyError::NeedsLower { level, missing });
    }
    let fail = |error: FixpointError<G::Entry>| VerifyError::Fixpoint {
        path: table.path().to_path_buf(),
        error: Box::new(error),
    };
    let size = levels.rules().level_size(level);
    match sample {
        None => {
            game.check(level, levels, bar).map_err(fail)?;
            Ok(size)
        }
        Some(k) => {
            let k = k.min(size);
            (0..k).into_par_iter().try_for_each(|i| {
                // A fixed, well-spread sequence of ranks (golden-ratio step).
                let r = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i >> 7)) % size;
                game.check_board(level, levels, r).map_err(fail)
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
    /// Exact boards (all of them for Awari and Mancala).
    pub exact: u64,
    /// gM (Abapa) or score (Awari, Mancala) → boards, non-zero entries
    /// only.
    pub histogram: std::collections::BTreeMap<i32, u64>,
    /// How the file holds the level: `"raw"` or `"compact"`.
    pub format: &'static str,
    /// The file's format version (its header's): for a compact level, 5
    /// when coded by its boards' neighbours.
    pub version: u32,
    /// The file's size in bytes.
    pub bytes: u64,
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
            "level {:>2}: {:>13} boards, {:>13} exact ({:.1}%)  {} v{}, {:.2} bits a board  {}",
            self.seeds,
            self.boards,
            self.exact,
            100.0 * self.exact as f64 / self.boards as f64,
            self.format,
            self.version,
            8.0 * self.bytes as f64 / self.boards as f64,
            hist.join(" ")
        )
    }
}

/// Statistics of every level present. Each level's checksum is verified
/// first: a damaged level is an error naming its file (and saying how to
/// replace it), never counted.
pub fn stats(tb: &Tablebase) -> Result<Vec<LevelReport>, TableError> {
    levels_stats(tb.levels())
}

/// [`stats`] of any game's levels.
pub fn levels_stats(levels: &Levels) -> Result<Vec<LevelReport>, TableError> {
    let rules = levels.rules();
    let scores = rules.encoding() == Encoding::Score;
    levels
        .present()
        .into_iter()
        .map(|level| {
            let table = levels.require(level)?;
            table.verify_checksum()?;
            let s = LevelStats::of_file(level, rules, table)?;
            let histogram = s
                .histogram
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(v, &c)| (if scores { v as i32 - 48 } else { v as i32 }, c))
                .collect();
            Ok(LevelReport {
                seeds: level,
                boards: rules.level_size(level),
                exact: s.exact,
                histogram,
                format: table.format_name(),
                version: table.header().version,
                bytes: table.file_bytes(),
            })
        })
        .collect()
}
