//! The built-in engine as a player: `self` or `self:key=value,…` (hash,
//! threads, tables, techniques switched, evaluation weights, time factor,
//! how a clock is spent).

use super::engine::{Fault, MoveRequest, Player, PlayerFactory, TimeControl};
use super::game::ArenaGame;
use crate::search::{Clock, Engine, Features, Limits, Oware, Pace, SearchGame};
use crate::{Move, Variant};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// The options of the built-in engine for the game `G` (Oware unless
/// said).
pub struct SelfOptions<G: SearchGame = Oware> {
    /// Display name.
    pub name: String,
    /// Hash MiB.
    pub hash: usize,
    /// Search threads.
    pub threads: usize,
    /// Tables.
    pub tables: Option<Arc<G::Tables>>,
    /// Techniques.
    pub features: Features,
    /// The evaluation.
    pub params: G::Params,
    /// Scales the time (movetime) or nodes per move this engine is given:
    /// 2 thinks twice as long as its opponent (a clock is not scaled: the
    /// match's time odds do that).
    pub time_factor: f64,
    /// How a clock is spent.
    pub pace: Pace,
    /// Search every move to this depth, whatever the match's time
    /// control.
    pub depth: Option<u32>,
}

impl<G: SearchGame> Clone for SelfOptions<G> {
    fn clone(&self) -> SelfOptions<G> {
        SelfOptions {
            name: self.name.clone(),
            tables: self.tables.clone(),
            ..*self
        }
    }
}

impl<G: SearchGame> fmt::Debug for SelfOptions<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SelfOptions")
            .field("name", &self.name)
            .field("hash", &self.hash)
            .field("threads", &self.threads)
            .field("tables", &self.tables.is_some())
            .field("features", &self.features)
            .field("params", &self.params)
            .field("time_factor", &self.time_factor)
            .field("pace", &self.pace)
            .field("depth", &self.depth)
            .finish()
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("bad value `{value}` for {key} (on or off)")),
    }
}

fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|v| ok(v))
        .ok_or_else(|| format!("bad value `{value}` for {key}"))
}

/// Parses the options of `self:key=value,…` (the part after `self:`) for
/// Oware games under `variant` (see [`parse_self_for`]).
pub fn parse_self(options: &str, variant: Variant) -> Result<SelfOptions, String> {
    parse_self_for::<Oware>(options, crate::Rules::of(variant))
}

/// Parses the options of `self:key=value,…` (the part after `self:`) for
/// games of `G` under `rules`: hash, threads, db, tb-limit, reductions,
/// capture-search (on, off or a number of plies), defer (the helper threads'
/// scheme), table-order (moves ranked by the tables), eval (a weights
/// or network file), time (a factor on the time or nodes a move), depth (every move
/// searched to this depth, whatever the time control), pace-moves,
/// pace-soft and pace-cap (how a clock is spent: [`Pace`]), name.
pub fn parse_self_for<G: ArenaGame>(
    options: &str,
    rules: G::MatchRules,
) -> Result<SelfOptions<G>, String> {
    let mut o = SelfOptions::<G> {
        name: String::new(),
        hash: 16,
        threads: 1,
        tables: None,
        features: Features::DEFAULT,
        params: G::PARAMS,
        time_factor: 1.0,
        pace: Pace::DEFAULT,
        depth: None,
    };
    let mut db: Option<PathBuf> = None;
    let mut eval: Option<PathBuf> = None;
    let mut tb_limit = crate::tb::SEARCH_LEVEL_LIMIT as usize;
    let mut names = Vec::new();
    for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("bad engine option `{item}` (expected key=value)"))?;
        let (key, value) = (key.trim(), value.trim());
        match key {
            "name" => o.name = value.to_string(),
            "hash" => o.hash = number(key, value, |&x: &usize| (1..=65536).contains(&x))?,
            "threads" => o.threads = number(key, value, |&x: &usize| (1..=256).contains(&x))?,
            "db" => db = Some(PathBuf::from(value)),
            "tb-limit" => tb_limit = number(key, value, |&x: &usize| x <= 48)?,
            "depth" => o.depth = Some(number(key, value, |&x: &u32| (1..=127).contains(&x))?),
            "reductions" => o.features.reductions = on_off(key, value)?,
            "defer" => o.features.defer = on_off(key, value)?,
            "table-order" => o.features.table_order = on_off(key, value)?,
            "pace-moves" => o.pace.moves = number(key, value, |&x: &u32| (1..=1000).contains(&x))?,
            "pace-soft" => o.pace.soft = number(key, value, |&x: &u32| (1..=1000).contains(&x))?,
            "pace-cap" => o.pace.cap = number(key, value, |&x: &u32| (100..=1000).contains(&x))?,
            "time" => {
                o.time_factor = number(key, value, |&x: &f64| {
                    x.is_finite() && x > 0.0 && x <= 1000.0
                })?
            }
            "capture-search" => {
                o.features.capture_plies = match on_off(key, value) {
                    Ok(true) => 4,
                    Ok(false) => 0,
                    Err(_) => number(key, value, |&x: &i32| (0..=32).contains(&x))?,
                }
            }
            "eval" => eval = Some(PathBuf::from(value)),
            _ => {
                return Err(format!(
                    "unknown engine option `{key}` (hash, threads, db, tb-limit, depth, reductions, capture-search, defer, table-order, eval, time, name)"
                ));
            }
        }
        if key != "name" {
            names.push(item.to_string());
        }
    }
    (o.tables, o.params) = G::engine_setup(rules, db.as_deref(), tb_limit, eval.as_deref())?;
    if o.name.is_empty() {
        o.name = if names.is_empty() {
            "self".to_string()
        } else {
            format!("self:{}", names.join(","))
        };
    }
    Ok(o)
}

/// The built-in engine.
pub struct BuiltIn<G: SearchGame = Oware> {
    name: String,
    engine: Engine<G>,
    time_factor: f64,
    pace: Pace,
    depth: Option<u32>,
}

impl<G: SearchGame> BuiltIn<G> {
    /// An engine with these options.
    pub fn new(o: &SelfOptions<G>) -> BuiltIn<G> {
        let mut engine = Engine::new(o.hash, o.threads, o.tables.clone());
        engine.features = o.features;
        engine.params = o.params;
        BuiltIn {
            name: o.name.clone(),
            engine,
            time_factor: o.time_factor,
            pace: o.pace,
            depth: o.depth,
        }
    }
}

impl<G: ArenaGame> Player<G> for BuiltIn<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &G::Game, request: &MoveRequest) -> Result<Move, Fault> {
        let mut limits = Limits {
            pace: self.pace,
            ..Limits::default()
        };
        match request.tc {
            _ if self.depth.is_some() => limits.depth = self.depth,
            TimeControl::MoveTime(t) => limits.movetime = Some(t.mul_f64(self.time_factor)),
            TimeControl::Depth(d) => limits.depth = Some(d),
            TimeControl::Nodes(n) => {
                limits.nodes = Some(((n as f64 * self.time_factor) as u64).max(1))
            }
            TimeControl::Clock { .. } => {
                let me = G::side_to_move(G::current(game));
                limits.clock = Some(Clock {
                    time_left: request.time_left[me.index()],
                    increment: request.increments[me.index()],
                    moves_to_go: None,
                })
            }
        }
        let result = self
            .engine
            .search(game, &limits, |_| {})
            .map_err(|e| Fault::Failed(e.to_string()))?;
        result
            .best
            .ok_or_else(|| Fault::Failed("no move found".into()))
    }
}

impl<G: ArenaGame> PlayerFactory<G> for SelfOptions<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self) -> Result<Box<dyn Player<G>>, String> {
        Ok(Box::new(BuiltIn::new(self)))
    }
}
