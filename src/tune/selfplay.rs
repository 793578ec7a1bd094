//! Positions from self-play: fast games of the engine against itself from
//! random openings. Each position beyond the tables' levels is labelled
//! with the game's result, the first verdict of the tables on the way when
//! there is one (an exact entry, or either side sure of 25); each position
//! of the tables' levels whose entry decides the game, with that verdict.
//!
//! A game is played at a fixed depth on one thread with a cleared
//! transposition table, so it depends only on the seed and its number:
//! the games are the same on any number of threads.

use std::sync::Arc;

use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::arena::openings::Rng;
use crate::search::{Engine, EvalChoice, Limits};
use crate::tb::Tablebase;
use crate::tb::board::relative;
use crate::tb::probe::{Verdict, board_value};
use crate::{Game, Position, Rules, Side};

use super::Sample;

/// How the games are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Games.
    pub games: usize,
    /// Random moves from the start before the engine plays.
    pub random_plies: usize,
    /// The engine's depth a move.
    pub depth: u32,
    /// The engine's weights.
    pub params: EvalChoice,
    /// The rules.
    pub rules: Rules,
    /// The random generator's seed.
    pub seed: u64,
    /// A game not over after this many plies is left out.
    pub max_plies: usize,
}

/// One game's positions and their results.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The positions beyond the tables' levels the engine moved from, with
    /// the game's result: the first verdict of the tables on the way, else
    /// the result of play.
    pub beyond: Vec<Sample>,
    /// The positions of the tables' levels whose entry decides the game,
    /// each with its own verdict (the game goes on to the end past the
    /// first one, the engine playing with the tables).
    pub endgame: Vec<Sample>,
}

/// The tables' verdict on `pos` (the winner, `None` for a draw) if it
/// decides the game.
fn table_result(tables: &Tablebase, pos: &Position) -> Option<Option<Side>> {
    let seeds = pos.seeds_on_board() as usize;
    if !tables.has_level(seeds) {
        return None;
    }
    let value = board_value(tables, &relative(pos), seeds).ok()?;
    let me = pos.side_to_move();
    let verdict = Verdict::of(
        tables.variant(),
        value,
        seeds as u8,
        pos.store(me),
        pos.store(me.opponent()),
    );
    match verdict {
        Verdict::ForcedWin => Some(Some(me)),
        Verdict::ForcedLoss => Some(Some(me.opponent())),
        Verdict::ForcedDraw => Some(None),
        Verdict::DependsOnHistory => None,
    }
}

/// Plays game number `index`; `None` when it lasts past the ply cap.
pub fn play(
    engine: &Engine,
    tables: Option<&Tablebase>,
    options: &SelfPlay,
    index: usize,
) -> Option<PlayedGame> {
    let mut rng = Rng::new(options.seed ^ (index as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let mut game = Game::new(Position::START, options.rules);
    engine.clear();
    // The tables assume their variant's default endings.
    let tables = tables.filter(|t| options.rules == Rules::of(t.variant()));
    let (mut beyond, mut endgame) = (Vec::new(), Vec::new());
    // The first verdict of the tables: the winner, or `None` for a draw.
    let mut verdict: Option<Option<Side>> = None;
    let played = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.winner;
        }
        if game.moves().len() >= options.max_plies {
            return None;
        }
        let pos = *game.position();
        let random = game.moves().len() < options.random_plies;
        let in_tables = tables.is_some_and(|t| t.has_level(pos.seeds_on_board() as usize));
        if let Some(winner) = tables.and_then(|t| table_result(t, &pos)) {
            endgame.push(Sample::of_game(pos, winner));
            verdict.get_or_insert(winner);
        } else if !random && !in_tables {
            beyond.push(pos);
        }
        let mv = if random {
            let legal = game.legal_moves();
            legal[rng.below(legal.len())]
        } else {
            let result = engine.search(&game, &Limits::depth(options.depth), |_| {});
            result.ok().and_then(|r| r.best)?
        };
        game.play(mv).ok()?;
    };
    let winner = verdict.unwrap_or(played);
    Some(PlayedGame {
        beyond: beyond
            .into_iter()
            .map(|p| Sample::of_game(p, winner))
            .collect(),
        endgame,
    })
}

/// Plays the games on the current rayon pool, each thread with an engine
/// of its own (`hash_mib` MiB), searching with `tables`. The games come
/// back in order, those past the ply cap left out.
pub fn play_all(
    options: &SelfPlay,
    tables: Option<Arc<Tablebase>>,
    hash_mib: usize,
    progress: &ProgressBar,
) -> Vec<PlayedGame> {
    progress.set_length(options.games as u64);
    (0..options.games)
        .into_par_iter()
        .map_init(
            || {
                let mut engine = Engine::new(hash_mib, 1, tables.clone());
                engine.params = options.params;
                engine
            },
            |engine, index| {
                let game = play(engine, tables.as_deref(), options, index);
                progress.inc(1);
                game
            },
        )
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}
