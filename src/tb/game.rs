//! What a game must tell the shared table code: how to solve and re-check
//! one level. The rest — the level loop, the folder lock, resuming, the
//! header and checksum, writing under a temporary name, progress bars, the
//! per-level summary, `verify` and `stats` — is the same for every game
//! and generic over [`TableGame`] (monomorphised: each game's hot loops
//! are its own).

use std::fmt;

use indicatif::ProgressBar;

use super::build::FixpointError;
use super::builder::{BuildError, Phases};
use super::levels::Levels;
use super::recheck::Recheck;
use super::rules::TableRules;
use super::scratch::Scratch;

/// A game whose tables are built level by level (seeds on the board),
/// each level from the ones below it.
pub trait TableGame: Sync {
    /// A board's entry, as a failed re-check reports it.
    type Entry: fmt::Debug + PartialEq + Send + Sync + 'static;

    /// The rules the tables hold values for.
    fn rules(&self) -> TableRules;

    /// Solves level `n` and re-checks the boards `recheck` covers, timing
    /// its phases in `phases` (the builder adds the writing to `write`);
    /// `lower` holds every level below `n`. Returns the payload: the
    /// level's entries by rank, as the file stores them.
    fn solve(
        &self,
        n: usize,
        lower: &Levels,
        bar: &ProgressBar,
        phases: &mut Phases,
        recheck: Recheck,
    ) -> Result<Scratch, BuildError>;

    /// Re-checks every board of level `n` against its children; `levels`
    /// holds `n` and every level below it.
    fn check(
        &self,
        n: usize,
        levels: &Levels,
        bar: &ProgressBar,
    ) -> Result<(), FixpointError<Self::Entry>>;

    /// Re-checks the board of rank `r` of level `n` alone.
    fn check_board(
        &self,
        n: usize,
        levels: &Levels,
        r: u64,
    ) -> Result<(), FixpointError<Self::Entry>>;
}
