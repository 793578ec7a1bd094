//! `oware perft`: leaves of the game tree at a fixed depth.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::format_moves;
use oware::mancala;

use super::common::{
    Choice, POSITION_HELP, RulesArgs, mancala_position, parse_position, thread_pool,
};
use super::output;

/// Arguments of `oware perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[arg(help = POSITION_HELP, value_name = "POSITION")]
    position: Option<String>,
    /// Depth in half-moves.
    #[arg(long, short)]
    depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `oware perft`.
pub fn run(args: PerftArgs) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let started = Instant::now();
    let result = match args.rules.choice()? {
        Choice::Oware(rules) => {
            let pos = parse_position(args.position.as_deref())?;
            pool.install(|| oware::divide(&pos, args.depth, &rules))
        }
        Choice::Mancala(rules) => {
            let pos = mancala_position(args.position.as_deref(), rules)?;
            pool.install(|| mancala::divide(&pos, args.depth))
        }
    };
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    let threads = pool.current_num_threads();
    if args.json {
        let divide: serde_json::Map<String, serde_json::Value> = result
            .per_move
            .iter()
            .map(|(mv, n)| (mv.to_string(), json!(n)))
            .collect();
        output::line(json!({
            "depth": args.depth,
            "leaves": result.leaves,
            "nodes": result.nodes,
            "time_ms": (secs * 1000.0).round() as u64,
            "leaves_per_second": (result.leaves as f64 / secs) as u64,
            "nodes_per_second": (result.nodes as f64 / secs) as u64,
            "threads": threads,
            "divide": if args.divide { Some(divide) } else { None },
        }));
        return Ok(());
    }
    if args.divide {
        for (mv, n) in &result.per_move {
            output::line(format_args!("{}: {n}", format_moves(&[*mv])));
        }
    }
    output::line(format_args!(
        "perft {} = {} leaves, {} nodes in {secs:.3} s ({:.1} M leaves/s, {:.1} M nodes/s, {threads} threads)",
        args.depth,
        result.leaves,
        result.nodes,
        result.leaves as f64 / secs / 1e6,
        result.nodes as f64 / secs / 1e6,
    ));
    Ok(())
}
