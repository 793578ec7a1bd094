//! Printing search results for people and programs.

use serde_json::{Value, json};

use super::engine::{Iteration, SearchResult};
use super::worker::{PROVEN, WIN};
use crate::format_moves;

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

/// The JSON object `bestmove --json` prints.
pub fn result_json(result: &SearchResult) -> Value {
    let it = &result.last;
    let proven = if it.score >= PROVEN {
        Some("win")
    } else if it.score <= -PROVEN {
        Some("loss")
    } else {
        None
    };
    json!({
        "best": result.best.map(|m| m.letter().to_string()),
        "score": f64::from(it.score) / 100.0,
        "result": proven,
        "depth": it.depth,
        "nodes": it.nodes,
        "nps": nps(it.nodes, it.time),
        "time_ms": it.time.as_millis() as u64,
        "pv": it.pv.iter().map(|m| m.letter().to_string()).collect::<Vec<_>>(),
        "tb_hits": it.tb_hits,
    })
}
