//! The `info` lines of a search: depth, score, nodes, speed, time, line.

use crate::format_moves;
use crate::search::Iteration;
use crate::search::SearchGame;
use crate::search::report::{Verdict, verdict};

/// The `score …` fields of an `info` line: `cp X` (hundredths of a seed)
/// for a heuristic score (`cp 0` for a solved draw); for a proven result,
/// its final margin (the one the principal variation reaches, or the one
/// the score holds) and the plies to the end, `cp 500 mate 7` (negative for
/// a loss), `cp 500 lowerbound mate 7` when the margin is only the least a
/// win gets (`upperbound` for a loss), or when the margin is not known the
/// least a win has, `cp 200 lowerbound mate 7` (`cp -200 upperbound mate
/// -7` for a loss).
pub fn score_fields(verdict: Verdict) -> String {
    match verdict {
        Verdict::Heuristic(score) => format!("cp {score}"),
        Verdict::Draw => "cp 0".to_string(),
        Verdict::Proven {
            win,
            plies,
            margin,
            bound,
        } => {
            let sign = if win { 1 } else { -1 };
            let mate = sign * plies;
            let side = if win { "lowerbound" } else { "upperbound" };
            match margin {
                Some(m) if m.signum() == sign && !bound => format!("cp {} mate {mate}", m * 100),
                Some(m) if m.signum() == sign => format!("cp {} {side} mate {mate}", m * 100),
                _ => format!("cp {} {side} mate {mate}", sign * 200),
            }
        }
    }
}

/// An `info` line for a finished iteration of a search of `game`.
pub fn info_line<G: SearchGame>(
    it: &Iteration,
    game: &G::Game,
    tables: Option<&G::Tables>,
) -> String {
    let nps = crate::search::report::nps(it.nodes, it.time);
    format!(
        "info depth {} score {} nodes {} nps {nps} time {} pv {}",
        it.depth,
        score_fields(verdict::<G>(it, game, tables)),
        it.nodes,
        it.time.as_millis(),
        format_moves(&it.pv)
    )
}
