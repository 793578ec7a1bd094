//! `oware bestmove`: search a position and print the best move.

use anyhow::Result;
use clap::Args;

use oware::search;

use super::common::{EngineArgs, RulesArgs, game_from, limits_from, make_engine};
use super::output;

/// Arguments of `oware bestmove` and `oware analyze`.
#[derive(Args)]
pub struct SearchArgs {
    /// Position string or `startpos` (the default).
    pub position: Option<String>,
    /// Moves played from the position (their history counts for repetitions).
    #[arg(long, value_name = "LIST")]
    pub moves: Option<String>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (bestmove: 3000 when no depth is
    /// given; analyze: this long for each move, 1000 when no depth is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `oware bestmove`.
pub fn run(args: SearchArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let game = game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
    let engine = make_engine(&args.engine, rules.variant)?;
    let limits = limits_from(args.depth, args.movetime, 3000);
    let json = args.json;
    let result = engine.search(&game, &limits, |it| {
        if !json {
            output::line(search::report::iteration_line(it));
        }
    })?;
    if result.threads < engine.threads() {
        output::note(format_args!(
            "warning: only {} of {} search threads could start",
            result.threads,
            engine.threads()
        ));
    }
    if json {
        let tables = engine.tables().map(|t| &**t);
        let margin = search::proof::proven_margin(&game, &result.last.pv, tables);
        output::line(search::report::result_json(&result, margin));
    } else {
        let best = result.best.map_or("none".to_string(), |m| m.to_string());
        output::line(format_args!("bestmove {best}"));
    }
    Ok(())
}
