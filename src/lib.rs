//! # oware
//!
//! An Oware (Abapa) engine built around retrograde endgame databases, in the
//! spirit of Romein & Bal's 2002 solution of Awari.
//!
//! The rules live in [`Rules`] (Abapa by default, the Awari rules of the 2002
//! solution and the grand-slam variants as settings). A [`Position`] holds the
//! pits, the stores and the side to move and generates and plays moves without
//! allocating; a [`Game`] referees a whole game, including the history-based
//! endings.
//!
//! ```
//! use oware::{Game, Move, Position, Rules};
//!
//! let mut game = Game::new(Position::START, Rules::ABAPA);
//! game.play(Move::from_letter('F').unwrap()).unwrap();
//! assert_eq!(game.position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
//! ```

pub mod arena;
pub mod book;
pub mod mancala;
pub mod ogn;
pub mod perft;
pub mod report;
pub mod rules;
pub mod search;
pub mod serve;
pub mod tb;
pub mod threads;
pub mod tune;
pub mod uci;

pub use perft::{divide, perft};
pub use rules::captures::Captures;
pub use rules::game::{Game, Outcome};
pub use rules::moves::{Move, MoveList};
pub use rules::notation::{NotationError, format_moves, parse_moves};
pub use rules::position::{EndReason, MoveError, Position};
pub use rules::side::Side;
pub use rules::{RuleSet, Rules, Variant};
