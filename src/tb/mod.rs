//! Retrograde endgame tables: one file per level (seeds on the board),
//! built by [`builder::build`] and probed through [`Tablebase`].

pub mod board;
pub mod build;
pub mod builder;
pub mod file;
pub mod index;
pub mod probe;
pub mod tables;
pub mod value;
pub mod verify;

pub use builder::{BuildError, BuildOptions, LevelStats, LevelSummary, build};
pub use file::{TableError, TableFile, table_path};
pub use tables::Tablebase;
pub use value::Value;
