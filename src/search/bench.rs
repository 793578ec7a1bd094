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
