//! The fixed suites of positions `oware bench` searches, and the run.

use super::{Engine, Limits, SearchError, SearchGame, SearchResult};
use crate::Position;

const SUITE: &str = include_str!("../../benches/suite.txt");

/// The lines `name | position` of a suite file (comments start with `#`),
/// in file order.
pub fn parse_suite<P: std::str::FromStr>(text: &str) -> Vec<(String, P)> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, pos) = l.split_once('|').expect("name | position");
            let pos = pos
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("the bench suite holds valid positions: {l}"));
            (name.trim().to_string(), pos)
        })
        .collect()
}

/// Oware's suite (`benches/suite.txt`): (name, position), in file order.
pub fn suite() -> Vec<(String, Position)> {
    parse_suite(SUITE)
}

/// Oware's suite as games under the Abapa rules.
pub fn games() -> Vec<(String, crate::Game)> {
    suite()
        .into_iter()
        .map(|(name, pos)| (name, crate::Game::new(pos, crate::Rules::ABAPA)))
        .collect()
}

/// Totals of a bench run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BenchTotals {
    /// Positions searched.
    pub positions: usize,
    /// Nodes of all searches.
    pub nodes: u64,
    /// Time of all searches.
    pub time: std::time::Duration,
    /// Sum of the depths reached.
    pub depths: u64,
}

/// Searches every game of `suite` from a cleared table, calling
/// `on_position(index, name, result)` after each.
pub fn run<G: SearchGame>(
    engine: &Engine<G>,
    suite: &[(String, G::Game)],
    limits: &Limits,
    mut on_position: impl FnMut(usize, &str, &SearchResult),
) -> Result<BenchTotals, SearchError> {
    let mut totals = BenchTotals::default();
    for (i, (name, game)) in suite.iter().enumerate() {
        engine.clear();
        let r = engine.search(game, limits, |_| {})?;
        totals.positions += 1;
        totals.nodes += r.last.nodes;
        totals.time += r.last.time;
        totals.depths += u64::from(r.last.depth);
        on_position(i, name, &r);
    }
    Ok(totals)
}
