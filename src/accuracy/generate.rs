//! Making a positions file: quick self-play games from random openings,
//! the positions right after a capture judged with the full tables, those
//! where a move can lose something kept.
//!
//! A game is played at a fixed depth on one thread with a cleared
//! transposition table, so it depends only on the seed and its number; the
//! games are consumed in order and the set stops filling at the same game
//! whatever the number of threads: the file is reproducible from the seed
//! (with the same engine and tables).

use std::collections::HashSet;
use std::sync::Arc;

use rayon::prelude::*;

use crate::arena::openings::Rng;
use crate::search::{Engine, Limits};
use crate::tb::{TableError, Tablebase};
use crate::{Game, Position, Rules};

use super::judge::judge;
use super::verdict::Judged;

/// How the positions are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generation {
    /// Positions wanted in all, shared evenly among the levels.
    pub count: usize,
    /// The fewest seeds on the board.
    pub min_seeds: u8,
    /// The most seeds on the board (the judging tables must hold it).
    pub max_seeds: u8,
    /// The random generator's seed.
    pub seed: u64,
    /// The engine's depth a move in the games.
    pub depth: u32,
    /// The fewest random moves from the start (each game draws this many
    /// up to twice as many).
    pub random_plies: usize,
    /// Stop after this many games even if some level is short.
    pub max_games: usize,
}

impl Generation {
    /// Positions kept at most for each level.
    pub fn per_level(&self) -> usize {
        let levels = usize::from(self.max_seeds.saturating_sub(self.min_seeds)) + 1;
        self.count.div_ceil(levels)
    }
}

/// What a generation made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The positions, by seeds on the board then in the order found.
    pub positions: Vec<Judged>,
    /// Games played (and consumed).
    pub games: usize,
    /// Positions right after a capture in the range, judged.
    pub judged: usize,
}

/// A game never lasts longer than this in plies (it is left there).
const MAX_PLIES: usize = 400;

/// Games played at once before their positions are taken in order.
const BATCH: usize = 32;

/// Plays game number `index` and judges its positions right after a
/// capture with `min..=max` seeds, the game not over and at least two
/// moves to choose from.
fn play(
    engine: &Engine,
    judge_tables: &Tablebase,
    options: &Generation,
    index: usize,
) -> Result<Vec<Judged>, TableError> {
    let mut rng = Rng::new(options.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let random = options.random_plies + rng.below(options.random_plies + 1);
    let mut game = Game::new(Position::START, Rules::ABAPA);
    engine.clear();
    let mut found = Vec::new();
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        let legal = game.legal_moves();
        let mv = if game.moves().len() < random {
            legal[rng.below(legal.len())]
        } else {
            match engine.search(&game, &Limits::depth(options.depth), |_| {}) {
                Ok(result) => match result.best {
                    Some(mv) => mv,
                    None => break,
                },
                Err(_) => break,
            }
        };
        let captured = match game.play(mv) {
            Ok(captured) => captured,
            Err(_) => break,
        };
        let pos = *game.position();
        let seeds = pos.seeds_on_board() as u8;
        if captured > 0
            && (options.min_seeds..=options.max_seeds).contains(&seeds)
            && game.outcome().is_none()
            && game.legal_moves().len() >= 2
        {
            found.push(judge(judge_tables, &pos)?);
        }
    }
    Ok(found)
}

/// Generates the positions: games on the current rayon pool, each thread
/// with an engine of its own (16 MiB, `play_tables` to search with), the
/// positions judged with `judge_tables`, which must hold every level up to
/// `max_seeds`. `progress` is told the positions kept so far after each
/// batch of games.
pub fn generate(
    options: &Generation,
    judge_tables: &Tablebase,
    play_tables: Option<Arc<Tablebase>>,
    progress: impl Fn(usize),
) -> Result<Generated, TableError> {
    for level in 0..=usize::from(options.max_seeds) {
        judge_tables.require(level)?;
    }
    let per_level = options.per_level();
    let levels = usize::from(options.max_seeds.saturating_sub(options.min_seeds)) + 1;
    let mut kept: Vec<Vec<Judged>> = vec![Vec::new(); levels];
    let mut seen = HashSet::new();
    let (mut games, mut judged) = (0, 0);
    let full = |kept: &[Vec<Judged>]| kept.iter().all(|l| l.len() >= per_level);
    while games < options.max_games && !full(&kept) {
        let batch = BATCH.min(options.max_games - games);
        let played: Vec<Result<Vec<Judged>, TableError>> = (games..games + batch)
            .into_par_iter()
            .map_init(
                || Engine::new(16, 1, play_tables.clone()),
                |engine, index| play(engine, judge_tables, options, index),
            )
            .collect();
        for game in played {
            games += 1;
            for j in game? {
                judged += 1;
                let level = usize::from(j.seeds() - options.min_seeds);
                if j.at_stake() && kept[level].len() < per_level && seen.insert(j.position) {
                    kept[level].push(j);
                }
            }
            if full(&kept) {
                break;
            }
        }
        progress(kept.iter().map(Vec::len).sum());
    }
    Ok(Generated {
        positions: kept.into_iter().flatten().collect(),
        games,
        judged,
    })
}
