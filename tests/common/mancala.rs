//! Mancala helpers shared by the integration tests: the obvious solver.

use std::collections::HashMap;

use oware::Move;
use oware::mancala::{Mancala, MancalaGame, MancalaPosition};
use oware::search::{Engine, Limits, SearchResult};

/// The solved search of `pos` by `engine` (cleared first; every root move
/// searched, even a forced one), which must be solved.
pub fn solved_search(engine: &Engine<Mancala>, pos: MancalaPosition) -> SearchResult {
    engine.clear();
    let limits = Limits {
        depth: Some(100),
        root_moves: Some(0b11_1111),
        ..Limits::default()
    };
    let r = engine
        .search(&MancalaGame::new(pos), &limits, |_| {})
        .unwrap();
    assert!(r.last.solved, "{pos}: not solved at depth {}", r.last.depth);
    r
}

/// The final store difference under best play, for the side to move: the
/// obvious recursion, memoised. After another go the same side moves, so
/// the child's value is not negated.
pub fn minimax(pos: &MancalaPosition, memo: &mut HashMap<MancalaPosition, i32>) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let me = pos.side_to_move();
    let v = if pos.end().is_some() {
        i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()))
    } else {
        pos.legal_moves()
            .iter()
            .map(|&mv| child_value(pos, mv, memo))
            .max()
            .expect("a game that goes on has a move")
    };
    memo.insert(*pos, v);
    v
}

/// The value of `mv` for the side to move in `pos`.
pub fn child_value(
    pos: &MancalaPosition,
    mv: Move,
    memo: &mut HashMap<MancalaPosition, i32>,
) -> i32 {
    let (child, _) = pos.play(mv).unwrap();
    let v = minimax(&child, memo);
    if child.side_to_move() == pos.side_to_move() {
        v
    } else {
        -v
    }
}
