//! A score and principal variation for every legal move.

use super::engine::{Engine, SearchError, SearchResult};
use super::game::SearchGame;
use super::limits::Limits;
use crate::Move;

/// One legal move, searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move.
    pub mv: Move,
    /// What the search of the position with only this move found: its
    /// score, depth and principal variation (starting with the move),
    /// counted from the analysed position as `bestmove` counts them.
    pub result: SearchResult,
}

impl MoveAnalysis {
    /// The score for the side to move, in centiseeds (proven results as in
    /// the search: for Oware ±(30000 − plies)).
    pub fn score(&self) -> i32 {
        self.result.last.score
    }
}

/// Searches every legal move of `game` with `limits` (each move gets them
/// in full: a search of the position whose root may play only that move)
/// and returns the moves best first. Depths, scores and the plies of
/// proven results are those `bestmove` would give for that move.
pub fn analyze<G: SearchGame>(
    engine: &Engine<G>,
    game: &G::Game,
    limits: &Limits,
) -> Result<Vec<MoveAnalysis>, SearchError> {
    let mut rows = Vec::new();
    for mv in G::root(game)?.legal {
        let only = Limits {
            root_moves: Some(1 << mv.house()),
            ..*limits
        };
        let result = engine.search(game, &only, |_| {})?;
        rows.push(MoveAnalysis { mv, result });
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.score()));
    Ok(rows)
}
