//! Perft: counting the leaves of the game tree, the standard check of move
//! generation. Ended games (25 captured, no legal move, repetition since the
//! last capture, the move cap) are not expanded.

use rayon::prelude::*;

use crate::{Move, Position, Rules};

/// The path from the root: position keys, and where the last capture was.
struct Path {
    keys: Vec<u128>,
    since_capture: usize,
    /// Interior positions entered below the root.
    interior: u64,
}

impl Path {
    fn new(root: &Position) -> Path {
        let mut keys = Vec::with_capacity(64);
        keys.push(root.key());
        Path {
            keys,
            since_capture: 0,
            interior: 0,
        }
    }

    /// Whether `key` (of the side not to move at the path's end) occurred
    /// since the last capture. Only every other position has that side to
    /// move, so only those are compared.
    #[inline]
    fn repeats(&self, key: u128) -> bool {
        self.keys[self.since_capture..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }
}

/// Leaves at exactly `depth` half-moves below `root`.
pub fn perft(root: &Position, depth: u32, rules: &Rules) -> u64 {
    divide(root, depth, rules).leaves
}

/// The result of a perft run split by root move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Divide {
    /// Leaves below each legal root move.
    pub per_move: Vec<(Move, u64)>,
    /// Leaves in all (1 at depth 0).
    pub leaves: u64,
    /// Every position in the tree below the root, leaves included.
    pub nodes: u64,
}

/// Leaves below each legal root move (none when `depth == 0` or the root
/// has ended), computed in parallel over the root moves.
pub fn divide(root: &Position, depth: u32, rules: &Rules) -> Divide {
    if depth == 0 {
        return Divide {
            per_move: vec![],
            leaves: 1,
            nodes: 0,
        };
    }
    if root.majority_reached() {
        return Divide::default();
    }
    let moves = root.legal_moves(rules.variant);
    let results: Vec<(Move, u64, u64)> = moves
        .par_iter()
        .map(|&mv| {
            let mut path = Path::new(root);
            let leaves = child(root, mv, depth, rules, &mut path);
            (mv, leaves, path.interior)
        })
        .collect();
    Divide {
        per_move: results.iter().map(|&(mv, n, _)| (mv, n)).collect(),
        leaves: results.iter().map(|r| r.1).sum(),
        nodes: results.iter().map(|r| r.1 + r.2).sum(),
    }
}

/// Leaves below the child reached by `mv` from `pos`, which is `depth`
/// half-moves above the leaves.
#[inline]
fn child(pos: &Position, mv: Move, depth: u32, rules: &Rules, path: &mut Path) -> u64 {
    if depth == 1 {
        return 1;
    }
    let (next, captured) = pos.after(mv, rules.variant);
    if next.majority_reached() {
        return 0;
    }
    let key = next.key();
    let saved = path.since_capture;
    if captured > 0 {
        path.since_capture = path.keys.len();
    } else if rules.repetition && path.repeats(key) {
        return 0;
    }
    path.keys.push(key);
    path.interior += 1;
    let ended = rules
        .no_capture_limit
        .is_some_and(|k| path.keys.len() - 1 - path.since_capture >= k as usize);
    let leaves = if ended {
        0
    } else {
        expand(&next, depth - 1, rules, path)
    };
    path.keys.pop();
    path.since_capture = saved;
    leaves
}

#[inline]
fn expand(pos: &Position, depth: u32, rules: &Rules, path: &mut Path) -> u64 {
    let moves = pos.legal_moves(rules.variant);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| child(pos, mv, depth, rules, path))
        .sum()
}
