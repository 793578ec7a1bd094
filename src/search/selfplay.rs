//! Engine-against-engine matches, to check that a search technique helps.

use super::engine::Engine;
use super::limits::Limits;
use crate::{Game, Position, Rules, Side};

/// The score of a match, from engine A's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u32,
    /// Games drawn (including games stopped at the ply cap with equal stores).
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl MatchScore {
    /// A's points: 1 a win, ½ a draw, over the games played.
    pub fn share(&self) -> f64 {
        let games = self.wins + self.draws + self.losses;
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(games.max(1))
    }
}

/// Plays one game from `start`, `a` playing `a_side`; returns A's result
/// (+1, 0, −1). Games longer than `max_plies` are decided by the stores.
pub fn play_game(
    a: &Engine,
    b: &Engine,
    start: Position,
    a_side: Side,
    limits: &Limits,
    max_plies: usize,
) -> i32 {
    let mut game = Game::new(start, Rules::ABAPA);
    a.clear();
    b.clear();
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let engine = if game.position().side_to_move() == a_side {
            a
        } else {
            b
        };
        let Ok(result) = engine.search(&game, limits, |_| {}) else {
            break;
        };
        let Some(mv) = result.best else { break };
        if game.play(mv).is_err() {
            break;
        }
    }
    let mine = i32::from(game.position().store(a_side));
    let theirs = i32::from(game.position().store(a_side.opponent()));
    (mine - theirs).signum()
}

/// Plays every opening twice (each engine once as South) and sums the results.
pub fn play_match(
    a: &Engine,
    b: &Engine,
    openings: &[Position],
    limits: &Limits,
    max_plies: usize,
) -> MatchScore {
    let mut score = MatchScore::default();
    for &start in openings {
        for a_side in Side::ALL {
            match play_game(a, b, start, a_side, limits, max_plies) {
                1 => score.wins += 1,
                0 => score.draws += 1,
                _ => score.losses += 1,
            }
        }
    }
    score
}
