//! Printing search results for people and programs.

use serde_json::{Value, json};

use super::analyze::MoveAnalysis;
use super::engine::{Iteration, SearchResult};
use super::worker::{PROVEN, WIN};
use crate::tb::Tablebase;
use crate::{Game, format_moves};

/// A score for people: seeds with a sign, or a proven result and the ply
/// of the principal variation where it is proven (the game ends there, or
/// the endgame tables settle it).
pub fn format_score(score: i32) -> String {
    if score >= PROVEN {
        format!("win@{}", WIN - score)
    } else if score <= -PROVEN {
        format!("loss@{}", WIN + score)
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

/// Nodes per second.
pub fn nps(nodes: u64, time: std::time::Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// One line per iteration, as `bestmove` prints it.
pub fn iteration_line(it: &Iteration) -> String {
    format!(
        "depth {:>2}  score {:>11}  nodes {:>11}  nps {:>9}  time {:>6} ms  tbhits {:>9}  pv {}",
        it.depth,
        format_score(it.score),
        it.nodes,
        nps(it.nodes, it.time),
        it.time.as_millis(),
        it.tb_hits,
        format_moves(&it.pv)
    )
}

/// The plies to the end of a proven result (`None` for other scores).
pub fn proven_plies(score: i32) -> Option<i32> {
    (score.abs() >= PROVEN).then(|| WIN - score.abs())
}

/// The score fields every JSON output shares, for the side to move:
/// - `score`: seeds; for a proven result, the final margin the principal
///   variation ends with (`margin`), or the least margin a win can have
///   (±2, with `bound`) when the line stops before the end is known;
/// - `result`: `"win"` or `"loss"` when proven, else `null`;
/// - `plies`: the ply of the principal variation where the result is
///   proven (the game ends there, or the tables settle it), else `null`;
/// - `bound`: `"lower"` or `"upper"` when `score` is only a bound.
pub fn score_fields(score: i32, margin: Option<i32>) -> serde_json::Map<String, Value> {
    let plies = proven_plies(score);
    let result = plies.map(|_| if score > 0 { "win" } else { "loss" });
    let (seeds, bound) = match (plies, margin) {
        (None, _) => (f64::from(score) / 100.0, None),
        (Some(_), Some(m)) => (f64::from(m), None),
        (Some(_), None) if score > 0 => (2.0, Some("lower")),
        (Some(_), None) => (-2.0, Some("upper")),
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
pub fn result_json(result: &SearchResult, margin: Option<i32>) -> Value {
    let it = &result.last;
    let mut map = serde_json::Map::new();
    map.insert(
        "best".into(),
        json!(result.best.map(|m| m.letter().to_string())),
    );
    map.extend(score_fields(it.score, margin));
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
/// [`analyze`](super::analyze::analyze) on `game`: `position` and `moves`,
/// one object a move, best first, with `move`, the score fields of
/// [`score_fields`] (margins proven with `tables`), `depth`, `nodes`,
/// `time_ms` and `pv`.
pub fn analysis_json(game: &Game, rows: &[MoveAnalysis], tables: Option<&Tablebase>) -> Value {
    let moves: Vec<Value> = rows
        .iter()
        .map(|r| {
            let it = &r.result.last;
            let mut map = serde_json::Map::new();
            map.insert("move".into(), json!(r.mv.to_string()));
            let margin = super::proof::proven_margin(game, &it.pv, tables);
            map.extend(score_fields(it.score, margin));
            map.insert("depth".into(), json!(it.depth));
            map.insert("nodes".into(), json!(it.nodes));
            map.insert("time_ms".into(), json!(it.time.as_millis() as u64));
            map.insert("pv".into(), moves_json(&it.pv));
            Value::Object(map)
        })
        .collect();
    json!({
        "position": game.position().to_string(),
        "moves": moves,
    })
}
