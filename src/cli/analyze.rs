//! `oware analyze`: a score and principal variation for every legal move.

use anyhow::Result;
use oware::{format_moves, search};

use super::bestmove::SearchArgs;
use super::common::{game_from, limits_from, make_engine};
use super::output;

/// Runs `oware analyze`.
pub fn run(args: SearchArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let game = game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
    let engine = make_engine(&args.engine, rules.variant)?;
    let limits = limits_from(args.depth, args.movetime, 1000);
    let rows = search::analyze::analyze(&engine, &game, &limits)?;
    if args.json {
        let tables = engine.tables().map(|t| &**t);
        output::line(search::report::analysis_json(&game, &rows, tables));
    } else {
        for r in rows {
            let it = &r.result.last;
            output::line(format_args!(
                "{}  {:>11}  depth {:>2}  pv {}",
                r.mv,
                search::report::format_score(it.score),
                it.depth,
                format_moves(&it.pv)
            ));
        }
    }
    Ok(())
}
