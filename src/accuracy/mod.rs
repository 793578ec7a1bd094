//! The accuracy benchmark (`oware accuracy`): in positions right after a
//! capture where a move can lose something — drop a forced win, or walk
//! into a forced loss — how often does an engine searching with tables
//! capped below the position's level lose it? The full tables judge the
//! moves once, when the positions file is made
//! ([`generate`](mod@generate)); the file ([`file`](mod@file)) carries
//! each move's forced values, so a run ([`run`](mod@run)) needs only the
//! tables the engine searches with. The verdicts are defined in
//! [`verdict`].

pub mod file;
pub mod generate;
pub mod judge;
pub mod run;
pub mod tally;
pub mod verdict;

pub use file::PositionsError;
pub use generate::{Generated, Generation, generate};
pub use judge::judge;
pub use run::{Answer, run};
pub use tally::{Counts, Tally};
pub use verdict::{Judged, MoveValue, MoveVerdict};
