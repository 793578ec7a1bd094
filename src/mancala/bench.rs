//! The suite `oware bench --rules mancala` searches
//! (`benches/mancala.txt`).

use super::game::MancalaGame;
use super::position::MancalaPosition;
use crate::search::bench::parse_suite;

const SUITE: &str = include_str!("../../benches/mancala.txt");

/// The suite: (name, position), in file order.
pub fn suite() -> Vec<(String, MancalaPosition)> {
    parse_suite(SUITE)
}

/// The suite as games from its positions.
pub fn games() -> Vec<(String, MancalaGame)> {
    suite()
        .into_iter()
        .map(|(name, pos)| (name, MancalaGame::new(pos)))
        .collect()
}
