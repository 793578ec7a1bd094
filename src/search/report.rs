//! Printing search results for people and programs.

use serde_json::{Value, json};

use super::analyze::MoveAnalysis;
use super::engine::{Iteration, SearchResult};
use super::game::{Proven, SearchGame};
use crate::format_moves;

/// What a search's score says of the game, ready to print.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A heuristic score, in centiseeds for the side to move.
    Heuristic(i32),
    /// A proven result for the side to move.
    Proven {
        /// A win (else a loss).
        win: bool,
        /// The ply of the principal variation where it is proven (the
        /// move to play is ply 1).
        plies: i32,
        /// The final margin in seeds, when known: the one the principal
        /// variation reaches (Oware), or the one the score holds (Mancala).
        margin: Option<i32>,
        /// The margin is only a bound on the game's value: the least a win
        /// gets, the most a loss does (the search is not solved).
        bound: bool,
    },
    /// A solved draw.
    Draw,
}

/// The verdict of iteration `it` of a search of `game` (with `tables`,
/// which may settle the principal variation's margin).
pub fn verdict<G: SearchGame>(
    it: &Iteration,
    game: &G::Game,
    tables: Option<&G::Tables>,
) -> Verdict {
    match G::proven(it.score) {
        None if it.solved => Verdict::Draw,
        None => Verdict::Heuristic(it.score),
        Some(Proven { plies, margin }) => Verdict::Proven {
            win: it.score > 0,
            plies,
            bound: margin.is_some() && !it.solved,
            margin: margin.or_else(|| G::line_margin(game, &it.pv, tables)),
        },
    }
}

/// A score for people: seeds with a sign, or a proven result and the ply
/// of the principal variation where it is proven (the game ends there, or
/// the endgame tables settle it): `win@7`; when the score holds its margin,
/// with it: `win+5@12` solved, `win>=5@12` (`loss<=-5@12`) a bound; a
/// solved draw is `draw`.
pub fn format_score<G: SearchGame>(score: i32, solved: bool) -> String {
    let result = |win: bool| if win { "win" } else { "loss" };
    match G::proven(score) {
        None if solved => "draw".to_string(),
        None => format!("{:+.2}", f64::from(score) / 100.0),
        Some(Proven {
            plies,
            margin: None,
        }) => format!("{}@{plies}", result(score > 0)),
        Some(Proven {
            plies,
            margin: Some(m),
        }) => {
            let relation = match (solved, score > 0) {
                (true, true) => "+",
                (true, false) => "",
                (false, true) => ">=",
                (false, false) => "<=",
            };
            format!("{}{relation}{m}@{plies}", result(score > 0))
        }
    }
}

/// Nodes per second.
pub fn nps(nodes: u64, time: std::time::Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// One line per iteration, as `bestmove` prints it.
pub fn iteration_line<G: SearchGame>(it: &Iteration) -> String {
    format!(
        "depth {:>2}  score {:>11}  nodes {:>11}  nps {:>9}  time {:>6} ms  tbhits {:>9}  pv {}",
        it.depth,
        format_score::<G>(it.score, it.solved),
        it.nodes,
        nps(it.nodes, it.time),
        it.time.as_millis(),
        it.tb_hits,
        format_moves(&it.pv)
    )
}

/// The score fields every JSON output shares, for the side to move:
/// - `score`: seeds; for a proven result, its final margin (the one the
///   principal variation ends with, or the one the score holds), or the
///   least margin a win can have (±2, with `bound`) when it is not known;
/// - `result`: `"win"` or `"loss"` when proven, `"draw"` for a solved
///   draw, else `null`;
/// - `plies`: the ply of the principal variation where the result is
///   proven (the game ends there, or the tables settle it), else `null`;
/// - `bound`: `"lower"` or `"upper"` when `score` is only a bound.
pub fn score_fields(verdict: Verdict) -> serde_json::Map<String, Value> {
    let (seeds, result, plies, bound) = match verdict {
        Verdict::Heuristic(score) => (f64::from(score) / 100.0, None, None, None),
        Verdict::Draw => (0.0, Some("draw"), None, None),
        Verdict::Proven {
            win,
            plies,
            margin,
            bound,
        } => {
            let side = if win { "lower" } else { "upper" };
            let (seeds, bound) = match margin {
                Some(m) => (f64::from(m), bound.then_some(side)),
                None => (if win { 2.0 } else { -2.0 }, Some(side)),
            };
            let result = if win { "win" } else { "loss" };
            (seeds, Some(result), Some(plies), bound)
        }
    };
    let mut map = serde_json::Map::new();
    map.insert("score".into(), json!(seeds));
    map.insert("result".into(), json!(result));
    map.insert("plies".into(), json!(plies));
    map.insert("bound".into(), json!(bound));
    map
}

/// Moves as a JSON array of letters.
pub fn moves_json(moves: &[crate::Move]) -> Value {
    json!(
        moves
            .iter()
            .map(|m| m.letter().to_string())
            .collect::<Vec<_>>()
    )
}

/// The JSON object `bestmove --json` prints: `best`, the score fields of
/// [`score_fields`], `depth`, `nodes`, `nps`, `time_ms`, `pv` (an array of
/// letters), `tb_hits` and `threads`.
pub fn result_json(result: &SearchResult, verdict: Verdict) -> Value {
    let it = &result.last;
    let mut map = serde_json::Map::new();
    map.insert(
        "best".into(),
        json!(result.best.map(|m| m.letter().to_string())),
    );
    map.extend(score_fields(verdict));
    map.insert("depth".into(), json!(it.depth));
    map.insert("nodes".into(), json!(it.nodes));
    map.insert("nps".into(), json!(nps(it.nodes, it.time)));
    map.insert("time_ms".into(), json!(it.time.as_millis() as u64));
    map.insert("pv".into(), moves_json(&it.pv));
    map.insert("tb_hits".into(), json!(it.tb_hits));
    map.insert("threads".into(), json!(result.threads));
    Value::Object(map)
}

/// The JSON object `analyze --json` prints for the rows of
/// [`analyze`](super::analyze::analyze) on `game`, whose position is
/// `position`: `position` (its string), and `moves`, one object a move, best
/// first, with `move`, the score fields of [`score_fields`] (margins
/// proven with `tables`), `depth`, `nodes`, `time_ms` and `pv`.
pub fn analysis_json<G: SearchGame>(
    game: &G::Game,
    position: &impl std::fmt::Display,
    rows: &[MoveAnalysis],
    tables: Option<&G::Tables>,
) -> Value {
    let moves: Vec<Value> = rows
        .iter()
        .map(|r| {
            let it = &r.result.last;
            let mut map = serde_json::Map::new();
            map.insert("move".into(), json!(r.mv.to_string()));
            map.extend(score_fields(verdict::<G>(it, game, tables)));
            map.insert("depth".into(), json!(it.depth));
            map.insert("nodes".into(), json!(it.nodes));
            map.insert("time_ms".into(), json!(it.time.as_millis() as u64));
            map.insert("pv".into(), moves_json(&it.pv));
            Value::Object(map)
        })
        .collect();
    json!({
        "position": position.to_string(),
        "moves": moves,
    })
}
