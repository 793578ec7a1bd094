//! Growing a book best first, in the manner of Lincke's drop-out expansion
//! for Awari: every position of the book has a cost, how much worse than
//! the best its line's moves are (in centiseeds) plus a fixed `step` for
//! each ply from the start; the cheapest position not yet expanded is
//! expanded next (its every move searched to the book's depth), and the
//! values are taken up to the start again. A small `step` grows the book
//! deep along the best lines; a large one makes it wide.

use std::collections::BTreeMap;

use super::{Book, Key, Node, key, position};
use crate::search::{Engine, Limits};
use crate::{Game, Position, Rules};

/// How a book is grown.
#[derive(Copy, Clone, Debug)]
pub struct Growth {
    /// The cost of one ply from the start, in centiseeds.
    pub step: i32,
    /// Stop when the book holds this many positions.
    pub positions: usize,
}

/// The value of a position for its side to move: a search to the book's
/// depth, or the final margin of a game that is over. The engine's table
/// is cleared first, so that a value depends only on the position.
pub fn evaluate(engine: &Engine, pos: &Position, rules: Rules, depth: u32) -> i32 {
    let game = Game::new(*pos, rules);
    if game.outcome().is_some() {
        let me = pos.side_to_move();
        return 100 * (i32::from(pos.store(me)) - i32::from(pos.store(me.opponent())));
    }
    engine.clear();
    match engine.search(&game, &Limits::depth(depth), |_| {}) {
        Ok(r) => r.last.score,
        Err(_) => 0,
    }
}

/// The position to expand next: the cheapest of the positions with legal
/// moves that the book has not expanded yet.
pub fn next_leaf(book: &Book, root: &Position, rules: Rules, step: i32) -> Option<Key> {
    let mut cost: BTreeMap<Key, i32> = BTreeMap::new();
    let mut frontier = vec![(key(root), 0)];
    let mut best: Option<(i32, Key)> = None;
    while let Some((k, c)) = frontier.pop() {
        if cost.get(&k).is_some_and(|&old| old <= c) {
            continue;
        }
        cost.insert(k, c);
        let Some(node) = book.nodes.get(&k) else {
            continue;
        };
        if node.moves.is_empty() {
            let playable = position(&k).is_some_and(|p| Game::new(p, rules).outcome().is_none());
            if playable && best.is_none_or(|(b, bk)| (c, k) < (b, bk)) {
                best = Some((c, k));
            }
            continue;
        }
        for (_, child) in &node.moves {
            if let Some(cn) = book.nodes.get(child) {
                // How much worse this move is than the best here.
                let loss = node.value + cn.value;
                frontier.push((*child, c + loss.max(0) + step));
            }
        }
    }
    best.map(|(_, k)| k)
}

/// Expands the book's position `k`: every legal move is played and the
/// position it leads to is scored (unless the book has it already).
pub fn expand(book: &mut Book, engine: &Engine, rules: Rules, k: Key) {
    let Some(pos) = position(&k) else { return };
    let mut moves = Vec::new();
    for &mv in pos.legal_moves(rules.variant).iter() {
        // The referee's move: a game that ends is swept as the rules say.
        let mut game = Game::new(pos, rules);
        if game.play(mv).is_err() {
            continue;
        }
        let child = *game.position();
        let ck = key(&child);
        if !book.nodes.contains_key(&ck) {
            let value = evaluate(engine, &child, rules, book.depth);
            book.nodes.insert(
                ck,
                Node {
                    value,
                    moves: Vec::new(),
                },
            );
        }
        moves.push((mv.house() as u8, ck));
    }
    if let Some(node) = book.nodes.get_mut(&k) {
        node.moves = moves;
    }
    book.propagate();
}

/// Grows `book` from `root` until it holds `growth.positions` positions or
/// nothing is left to expand, calling `after_each` after every expansion
/// (to save the book or show progress); it returns false to stop early.
pub fn grow(
    book: &mut Book,
    engine: &Engine,
    root: &Position,
    rules: Rules,
    growth: Growth,
    mut after_each: impl FnMut(&Book) -> bool,
) {
    let rk = key(root);
    if !book.nodes.contains_key(&rk) {
        let value = evaluate(engine, root, rules, book.depth);
        book.nodes.insert(
            rk,
            Node {
                value,
                moves: Vec::new(),
            },
        );
    }
    while book.nodes.len() < growth.positions {
        let Some(k) = next_leaf(book, root, rules, growth.step) else {
            break;
        };
        expand(book, engine, rules, k);
        if !after_each(book) {
            break;
        }
    }
}
