//! # oware
//!
//! An Oware (Abapa) engine built around retrograde endgame databases, in the
//! spirit of Romein & Bal's 2002 solution of Awari. The `oware` binary is a
//! thin layer over this library; everything it does can be done from here.
//!
//! The rules live in [`Rules`] (Abapa by default, the Awari rules of the 2002
//! solution and the grand-slam variants as settings). A [`Position`] holds the
//! pits, the stores and the side to move and generates and plays moves without
//! allocating; a [`Game`] referees a whole game, including the history-based
//! endings.
//!
//! ## Where to start
//!
//! | job | entry points |
//! |---|---|
//! | play moves, print a position | [`Game`], [`Position`], [`parse_moves`], [`report::game_text`] |
//! | find the best move | [`search::Engine`], [`search::Limits`] |
//! | build and probe endgame tables | [`tb::build()`], [`tb::Tablebase`], [`tb::probe::probe`] |
//! | count the game tree | [`perft()`], [`divide()`] |
//! | play matches between engines | [`arena::runner::run_match`] |
//! | speak UCI, serve the web board | [`uci`], [`serve`] |
//! | Arabic Mancala, the second game | [`mancala`] |
//!
//! The map of the source, the traits a second game implements and the
//! invariants are in `ARCHITECTURE.md` at the root of the repository.
//!
//! ### Play moves on a position and print it
//!
//! ```
//! use oware::{Game, Move, Position, Rules, parse_moves, report};
//!
//! let mut game = Game::new(Position::START, Rules::ABAPA);
//! game.play(Move::from_letter('F').unwrap()).unwrap();
//! assert_eq!(game.position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
//!
//! // A move list, concatenated or spaced, as on the command line.
//! for mv in parse_moves("f B e").unwrap() {
//!     game.play(mv).unwrap();
//! }
//! println!("{}", report::game_text(&game)); // the board, legal moves, status
//!
//! // A position string: twelve pits (A–F, then a–f), both stores, the side to move.
//! let pos: Position = "0-0-0-0-0-1-0-0-0-0-0-2-22-23-S".parse().unwrap();
//! assert_eq!(pos.seeds_on_board(), 3);
//! ```
//!
//! ### Search for the best move
//!
//! ```
//! use oware::search::{Engine, Limits};
//! use oware::{Game, Position, Rules};
//!
//! let game = Game::new(Position::START, Rules::ABAPA);
//! // 16 MiB of hash, one thread, no endgame tables.
//! let engine: Engine = Engine::new(16, 1, None);
//! let result = engine
//!     .search(&game, &Limits::depth(8), |it| {
//!         println!("depth {} score {} pv {:?}", it.depth, it.score, it.pv);
//!     })
//!     .unwrap();
//! let best = result.best.unwrap();
//! assert!(game.legal_moves().contains(&best));
//! ```
//!
//! ### Build small tables and probe them
//!
//! ```
//! use oware::{Position, Variant, tb};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let options = tb::BuildOptions {
//!     dir: dir.path(),
//!     variant: Variant::Abapa,
//!     max_seeds: 4, // levels 0..=4: boards with at most 4 seeds
//!     progress: false,
//!     format: tb::TableFormat::COMPACT,
//!     recheck: tb::Recheck::All, // or Sample: a sixteenth of each level
//! };
//! tb::build(&options, |level| println!("{}", level.describe(Variant::Abapa))).unwrap();
//!
//! let tables = tb::Tablebase::open(dir.path(), Variant::Abapa).unwrap();
//! let pos: Position = "0-0-0-0-0-1-0-0-0-0-0-2-22-23-S".parse().unwrap();
//! let probe = tb::probe::probe(&tables, &pos).unwrap();
//! println!("{}", tb::probe::probe_text(&probe));
//! assert_eq!(probe.moves.len(), 1); // South has one move: F
//! ```
//!
//! ### Count the game tree (perft)
//!
//! ```
//! use oware::{Position, Rules, divide, perft};
//!
//! assert_eq!(perft(&Position::START, 5, &Rules::ABAPA), 5219);
//! // The same count split by the first move.
//! let split = divide(&Position::START, 5, &Rules::ABAPA);
//! assert_eq!(split.per_move.iter().map(|&(_, n)| n).sum::<u64>(), 5219);
//! ```

pub mod accuracy;
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
