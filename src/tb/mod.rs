//! Retrograde endgame tables: one file per level (seeds on the board),
//! built by [`builder::build`] and probed through [`Tablebase`].

pub mod board;
mod bucketed;
pub mod build;
pub mod builder;
pub mod compact;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod estimate;
pub mod file;
pub mod game;
pub mod index;
pub mod levels;
mod oware;
pub mod prefetch;
pub mod probe;
pub mod recheck;
pub mod resident;
pub mod rules;
pub mod scratch;
pub mod tables;
pub mod value;
pub mod verify;

pub use builder::{
    BuildError, BuildOptions, LevelStats, LevelSummary, Phases, TableFormat, build, build_levels,
    build_levels_as,
};
pub use file::{TableError, TableFile, table_path};
pub use game::TableGame;
pub use levels::Levels;
pub use recheck::Recheck;
pub use rules::TableRules;
pub use tables::Tablebase;
pub use value::Value;

/// The largest level a search probes by default: levels 0..24 take 2.3 GB,
/// which the kernel reads in within seconds; a search probing level 30
/// (5.5 GB) from a cold page cache waits on the disk at almost every probe
/// (from the start position, depth 15 in 3 s instead of depth 22).
pub const SEARCH_LEVEL_LIMIT: u64 = 24;
