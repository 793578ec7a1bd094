//! Counting the game tree: moves (sowings), not turns (§7.7).

use rayon::prelude::*;

use super::position::MancalaPosition;
use crate::Move;
use crate::perft::Divide;

/// Leaves at exactly `depth` plies below `pos` (an ended game is not
/// expanded: it counts as a leaf only at depth 0).
pub fn perft(pos: &MancalaPosition, depth: u32) -> u64 {
    count(pos, depth).0
}

/// The leaves at `depth` below `pos`, and every position below it up to
/// that depth (leaves included, `pos` not).
fn count(pos: &MancalaPosition, depth: u32) -> (u64, u64) {
    if depth == 0 {
        return (1, 0);
    }
    let houses = pos.legal_houses();
    if depth == 1 {
        let n = u64::from(houses.count_ones());
        return (n, n);
    }
    (0..6)
        .filter(|h| houses & (1 << h) != 0)
        .map(|h| {
            let (leaves, below) = count(&pos.after(h).0, depth - 1);
            (leaves, below + 1)
        })
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

/// Leaves below each legal root move, in parallel over the root moves;
/// `nodes` counts every position below the root, leaves included.
pub fn divide(root: &MancalaPosition, depth: u32) -> Divide {
    if depth == 0 {
        return Divide {
            per_move: vec![],
            leaves: 1,
            nodes: 0,
        };
    }
    let moves: Vec<Move> = root.legal_moves().iter().copied().collect();
    let results: Vec<(Move, u64, u64)> = moves
        .par_iter()
        .map(|&mv| {
            let (leaves, below) = count(&root.after(mv.house()).0, depth - 1);
            (mv, leaves, below + 1)
        })
        .collect();
    Divide {
        per_move: results.iter().map(|&(mv, n, _)| (mv, n)).collect(),
        leaves: results.iter().map(|r| r.1).sum(),
        nodes: results.iter().map(|r| r.2).sum(),
    }
}
