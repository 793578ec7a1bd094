//! A score and principal variation for every legal move.

use super::engine::{Engine, SearchError};
use super::limits::Limits;
use super::worker::{PROVEN, WIN};
use crate::{Game, Move};

/// One legal move, searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move, in centiseeds (proven results as in
    /// the search: ±(30000 − plies)).
    pub score: i32,
    /// The depth searched, counting the move itself.
    pub depth: u32,
    /// The principal variation, starting with the move.
    pub pv: Vec<Move>,
}

/// Searches the reply to every legal move of `game` with `limits` and
/// returns the moves best first.
pub fn analyze(
    engine: &Engine,
    game: &Game,
    limits: &Limits,
) -> Result<Vec<MoveAnalysis>, SearchError> {
    if let Some(outcome) = game.outcome() {
        return Err(SearchError::GameOver(outcome.reason));
    }
    let me = game.position().side_to_move();
    let mut rows = Vec::new();
    for mv in game.legal_moves() {
        let mut child = game.clone();
        child.play(mv).expect("a legal move plays");
        let row = match child.outcome() {
            // The move ends the game: its result is proven at ply 1.
            Some(o) => {
                let score = match o.winner {
                    Some(w) if w == me => WIN - 1,
                    Some(_) => -WIN + 1,
                    None => 0,
                };
                MoveAnalysis {
                    mv,
                    score,
                    depth: 1,
                    pv: vec![mv],
                }
            }
            None => {
                let r = engine.search(&child, limits, |_| {})?;
                let score = -r.last.score;
                // Proven scores count plies from the child: one more from here.
                let score = if score.abs() >= PROVEN {
                    score - score.signum()
                } else {
                    score
                };
                let mut pv = vec![mv];
                pv.extend(r.last.pv);
                MoveAnalysis {
                    mv,
                    score,
                    depth: r.last.depth + 1,
                    pv,
                }
            }
        };
        rows.push(row);
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.score));
    Ok(rows)
}
