//! An exact solver for Arabic Mancala: the final store difference under
//! perfect play (no 25-seed stop, as the endgame tables score it).
//!
//! MTD(f) drives a fail-soft alpha-beta through null-window proofs. Every
//! bound the search proves is a bound on the game value (there is no depth
//! limit and no heuristic), so the transposition table keeps bounds that
//! stay true between passes, between first moves solved in parallel and
//! between the threads that help one proof.
//! Lines close at a finished game, at a board within the endgame tables'
//! levels, or as soon as the seeds left on the board (a board of `n` seeds
//! is worth `-n..=n`) or the children's stored bounds (enhanced
//! transposition cutoffs) settle the window. Another go keeps the side to
//! move: its value is added, not negated.

mod board;
mod control;
mod endgame;
mod mtdf;
mod root;
mod search;
mod tt;

pub use board::{Board, Sown};
pub use control::Control;
pub use endgame::{Endgame, NoTables};
pub use mtdf::{Range, estimate, mtdf};
pub use root::{MoveValue, Progress, Solution, Solver};
pub use search::{ETC_ABOVE, Searcher};
pub use tt::{Bounds, Key, Table};
