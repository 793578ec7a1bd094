//! The rules core of Oware: the sides ([`side`]), moves ([`moves`]), the
//! rule set as a value ([`Rules`]), positions and their moves
//! ([`position`]), the capture test of the tables ([`captures`]), a refereed
//! game with its history ([`game`]) and the position strings
//! ([`notation`]). Arabic Mancala ([`crate::mancala`]) shares the sides,
//! moves and notation.

mod bytes;
pub mod captures;
pub mod game;
pub mod moves;
pub mod notation;
pub mod position;
pub mod side;
mod variant;

pub use variant::{
    EndlessPlay, GrandSlam, NO_TABLES, RuleSet, Rules, Starving, UnknownRules, UnknownVariant,
    Variant, WINNING_SEEDS,
};
