//! An opening book of the engine's own: positions near the start with the
//! value of each move, grown best first from deep searches (see
//! [`build`]), kept in a small checked file (see [`mod@file`]), and played
//! with a choice among the moves that are nearly as good as the best.

pub mod build;
pub mod file;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{Move, Position, Side, Variant};

/// The book's file name in a table folder, where `bestmove` and `uci` look
/// for the book they use by default (`databases/book.owb` ships with the
/// engine).
pub const BOOK_FILE: &str = "book.owb";

/// A position as the book stores it: pits, stores and the side to move.
pub type Key = [u8; 15];

/// The book's key of a position.
pub fn key(pos: &Position) -> Key {
    let mut k = [0u8; 15];
    k[..12].copy_from_slice(pos.pits());
    k[12..14].copy_from_slice(&pos.stores());
    k[14] = pos.side_to_move() as u8;
    k
}

/// The position of a key (`None` if the key holds no valid position).
pub fn position(key: &Key) -> Option<Position> {
    let pits: [u8; 12] = key[..12].try_into().ok()?;
    let side = match key[14] {
        0 => Side::South,
        1 => Side::North,
        _ => return None,
    };
    Position::new(pits, [key[12], key[13]], side).ok()
}

/// One position of the book.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    /// The value for the side to move, in centiseeds: a search's score at a
    /// leaf, the best of its moves' values inside the book.
    pub value: i32,
    /// The moves expanded so far (empty at a leaf): each house played and
    /// the key of the position it leads to.
    pub moves: Vec<(u8, Key)>,
}

/// An opening book: its rules, the search depth that scored its leaves,
/// and its positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    /// The rules the book was grown for.
    pub variant: Variant,
    /// The depth of the searches that scored the leaves.
    pub depth: u32,
    /// Every position, by key.
    pub nodes: BTreeMap<Key, Node>,
}

/// A move the book knows, with its value for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value in centiseeds for the side to move (the negated value of
    /// the position it leads to).
    pub value: i32,
}

impl Book {
    /// An empty book.
    pub fn new(variant: Variant, depth: u32) -> Book {
        Book {
            variant,
            depth,
            nodes: BTreeMap::new(),
        }
    }

    /// The moves the book has for `pos`, best first (none for a position
    /// it does not have or has not expanded).
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let Some(node) = self.nodes.get(&key(pos)) else {
            return Vec::new();
        };
        let side = pos.side_to_move();
        let mut moves: Vec<BookMove> = node
            .moves
            .iter()
            .filter_map(|(house, child)| {
                let value = -self.nodes.get(child)?.value;
                Some(BookMove {
                    mv: Move::of(side, usize::from(*house)),
                    value,
                })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        moves
    }

    /// A move to play from `pos`: one of those whose value is within
    /// `margin` centiseeds of the best, picked by `random` (any number: it
    /// is reduced to the choices), so that play is not predictable.
    pub fn choose(&self, pos: &Position, margin: i32, random: u64) -> Option<BookMove> {
        let moves = self.moves(pos);
        let best = moves.first()?.value;
        let near: Vec<BookMove> = moves
            .into_iter()
            .take_while(|m| m.value >= best - margin)
            .collect();
        Some(near[(random % near.len() as u64) as usize])
    }

    /// The values of every position recomputed from the leaves up: a
    /// position inside the book is worth the best of its moves.
    pub fn propagate(&mut self) {
        let keys: Vec<Key> = self.nodes.keys().copied().collect();
        let mut done: BTreeMap<Key, i32> = BTreeMap::new();
        for k in keys {
            self.value_of(k, &mut done);
        }
        for (k, v) in done {
            if let Some(node) = self.nodes.get_mut(&k) {
                node.value = v;
            }
        }
    }

    fn value_of(&self, k: Key, done: &mut BTreeMap<Key, i32>) -> i32 {
        if let Some(&v) = done.get(&k) {
            return v;
        }
        let node = &self.nodes[&k];
        // A position met again on its own line (a cycle, rare this near
        // the start) counts with its stored value.
        done.insert(k, node.value);
        let v = if node.moves.is_empty() {
            node.value
        } else {
            node.moves
                .iter()
                .filter(|(_, c)| self.nodes.contains_key(c))
                .map(|&(_, c)| -self.value_of(c, done))
                .max()
                .unwrap_or(node.value)
        };
        done.insert(k, v);
        v
    }
}
