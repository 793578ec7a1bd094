//! Matches between any two engines: the built-in engine and external
//! engines speaking the UCI dialect of RULES.md §6, fair openings, clocks and
//! adjudication, the statistics (Elo, pentanomial, SPRT) and the match formats
//! Oware is played in (series). Generic over the game ([`game::ArenaGame`]):
//! Oware and Arabic Mancala.

pub mod builtin;
pub mod engine;
pub mod game;
pub mod openings;
pub mod record;
pub mod referee;
pub mod runner;
pub mod series;
pub mod stats;
pub mod uci_player;
