//! Arabic Mancala, the second game of the rule pages (RULES.md §7): the
//! same board and notation as Oware, but the mover's own store is sown
//! into, a last seed in it gives another go, and a last seed in an empty
//! house of the mover's row captures the house opposite.

pub mod bench;
pub mod build;
pub mod edges;
pub mod eval;
mod game;
mod perft;
mod position;
pub mod probe;
pub mod race;
pub mod report;
mod rules;
pub mod search;
pub mod solve;
pub mod tables;

pub use eval::{MancalaParams, NO_EVAL_FILE};
pub use game::MancalaGame;
pub use perft::{divide, perft};
pub use position::{
    MAX_SEEDS, MancalaEnd, MancalaMoveError, MancalaPosition, START_SEEDS, STOP_SEEDS, Sowing,
};
pub use rules::MancalaRules;
pub use search::Mancala;
pub use tables::MancalaTables;
