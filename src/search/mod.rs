//! The searcher: alpha-beta with a transposition table, probing the
//! endgame tables, on one or more threads.

pub mod analyze;
pub mod bench;
pub mod busy;
pub mod engine;
pub mod eval;
pub mod features;
pub mod game;
pub mod keys;
pub mod limits;
pub mod oware;
pub mod proof;
pub mod report;
pub mod timing;
pub mod tt;
pub mod worker;

pub use engine::{Engine, Iteration, SearchError, SearchResult};
pub use eval::{EvalChoice, EvalParams, Evaluator, Network};
pub use features::Features;
pub use game::SearchGame;
pub use limits::{Clock, Limits, Pace};
pub use oware::{Oware, PROVEN, WIN};
