//! The `info` lines of a search: depth, score, nodes, speed, time, line.

use crate::search::proof::proven_margin;
use crate::search::{Iteration, PROVEN, WIN};
use crate::tb::Tablebase;
use crate::{Game, format_moves};

/// The `score …` fields of an `info` line: `cp X` (hundredths of a seed)
/// for a heuristic score; for a proven result, the final margin the
/// principal variation reaches (see [`proven_margin`]) and the plies to the
/// end, `cp 500 mate 7` (negative for a loss), or when the margin is not
/// known the least a win has, `cp 200 lowerbound mate 7` (`cp -200
/// upperbound mate -7` for a loss).
pub fn score_fields(it: &Iteration, game: &Game, tables: Option<&Tablebase>) -> String {
    if it.score.abs() < PROVEN {
        return format!("cp {}", it.score);
    }
    let sign = it.score.signum();
    let mate = sign * (WIN - it.score.abs());
    match proven_margin(game, &it.pv, tables) {
        Some(margin) if margin.signum() == sign => format!("cp {} mate {mate}", margin * 100),
        _ if sign > 0 => format!("cp 200 lowerbound mate {mate}"),
        _ => format!("cp -200 upperbound mate {mate}"),
    }
}

/// An `info` line for a finished iteration of a search of `game`.
pub fn info_line(it: &Iteration, game: &Game, tables: Option<&Tablebase>) -> String {
    let nps = crate::search::report::nps(it.nodes, it.time);
    format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv {}",
        it.depth,
        score_fields(it, game, tables),
        it.nodes,
        it.time.as_millis(),
        format_moves(&it.pv)
    )
}
