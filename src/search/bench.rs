//! The fixed suite of positions `oware bench` searches.

use crate::Position;

const SUITE: &str = include_str!("../../benches/suite.txt");

/// The suite: (name, position), in file order.
pub fn suite() -> Vec<(String, Position)> {
    SUITE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, pos) = l.split_once('|').expect("name | position");
            let pos = pos
                .trim()
                .parse()
                .expect("the bench suite holds valid positions");
            (name.trim().to_string(), pos)
        })
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

/// Searches every suite position from a cleared table, calling
/// `on_position(index, name, result)` after each.
pub fn run(
    engine: &super::Engine,
    limits: &super::Limits,
    mut on_position: impl FnMut(usize, &str, &super::SearchResult),
) -> Result<BenchTotals, super::SearchError> {
    let mut totals = BenchTotals::default();
    for (i, (name, pos)) in suite().iter().enumerate() {
        engine.clear();
        let game = crate::Game::new(*pos, crate::Rules::ABAPA);
        let r = engine.search(&game, limits, |_| {})?;
        totals.positions += 1;
        totals.nodes += r.last.nodes;
        totals.time += r.last.time;
        totals.depths += u64::from(r.last.depth);
        on_position(i, name, &r);
    }
    Ok(totals)
}
