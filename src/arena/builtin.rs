//! The built-in engine as a player: `self` or `self:key=value,…` (hash,
//! threads, tables, techniques switched, evaluation weights, time factor).

use super::engine::{Fault, MoveRequest, Player, PlayerFactory, TimeControl};
use crate::search::{Clock, Engine, EvalParams, Features, Limits};
use crate::tb::Tablebase;
use crate::{Game, Move, Variant};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// The options of the built-in engine.
#[derive(Clone)]
pub struct SelfOptions {
    /// Display name.
    pub name: String,
    /// Hash MiB.
    pub hash: usize,
    /// Search threads.
    pub threads: usize,
    /// Tables.
    pub tables: Option<Arc<Tablebase>>,
    /// Techniques.
    pub features: Features,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Scales the time (movetime) or nodes per move this engine is given:
    /// 2 thinks twice as long as its opponent (a clock is not scaled).
    pub time_factor: f64,
}

impl fmt::Debug for SelfOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SelfOptions")
            .field("name", &self.name)
            .field("hash", &self.hash)
            .field("threads", &self.threads)
            .field("tables", &self.tables.as_ref().map(|t| t.describe()))
            .field("features", &self.features)
            .field("params", &self.params)
            .field("time_factor", &self.time_factor)
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
/// games under `variant`: hash, threads, db, tb-limit, reductions,
/// capture-search (on, off or a number of plies), defer (the helper threads'
/// scheme), table-order (moves ranked by the tables), eval (a file of weights), time (a factor on the time or nodes a
/// move), name.
pub fn parse_self(options: &str, variant: Variant) -> Result<SelfOptions, String> {
    let mut o = SelfOptions {
        name: String::new(),
        hash: 16,
        threads: 1,
        tables: None,
        features: Features::DEFAULT,
        params: EvalParams::DEFAULT,
        time_factor: 1.0,
    };
    let mut db: Option<PathBuf> = None;
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
            "reductions" => o.features.reductions = on_off(key, value)?,
            "defer" => o.features.defer = on_off(key, value)?,
            "table-order" => o.features.table_order = on_off(key, value)?,
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
            "eval" => {
                o.params =
                    EvalParams::load(std::path::Path::new(value)).map_err(|e| e.to_string())?;
            }
            _ => {
                return Err(format!(
                    "unknown engine option `{key}` (hash, threads, db, tb-limit, reductions, capture-search, defer, table-order, eval, time, name)"
                ));
            }
        }
        if key != "name" {
            names.push(item.to_string());
        }
    }
    if let Some(dir) = db {
        if !dir.is_dir() {
            return Err(format!("table folder {} not found", dir.display()));
        }
        let tables = Tablebase::open_for_search(&dir, variant, tb_limit)
            .map_err(|e| format!("cannot open the tables in {}: {e}", dir.display()))?;
        o.tables = tables.complete_up_to().map(|_| Arc::new(tables));
    }
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
pub struct BuiltIn {
    name: String,
    engine: Engine,
    time_factor: f64,
}

impl BuiltIn {
    /// An engine with these options.
    pub fn new(o: &SelfOptions) -> BuiltIn {
        let mut engine = Engine::new(o.hash, o.threads, o.tables.clone());
        engine.features = o.features;
        engine.params = o.params;
        BuiltIn {
            name: o.name.clone(),
            engine,
            time_factor: o.time_factor,
        }
    }
}

impl Player for BuiltIn {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game, request: &MoveRequest) -> Result<Move, Fault> {
        let mut limits = Limits::default();
        match request.tc {
            TimeControl::MoveTime(t) => limits.movetime = Some(t.mul_f64(self.time_factor)),
            TimeControl::Depth(d) => limits.depth = Some(d),
            TimeControl::Nodes(n) => {
                limits.nodes = Some(((n as f64 * self.time_factor) as u64).max(1))
            }
            TimeControl::Clock { .. } => {
                let me = game.position().side_to_move();
                limits.clock = Some(Clock {
                    time_left: request.time_left[me.index()],
                    increment: request.increment,
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

impl PlayerFactory for SelfOptions {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self) -> Result<Box<dyn Player>, String> {
        Ok(Box::new(BuiltIn::new(self)))
    }
}
