//! `oware match`: the engine against itself with one technique switched.

use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::{Position, search};

use super::output;

/// Arguments of `oware match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The technique engine B switches (on if the engine has it off, off if
    /// on): reductions or capture-search.
    #[arg(long)]
    toggle: String,
    /// Search depth per move.
    #[arg(long, default_value_t = 8, conflicts_with = "nodes")]
    depth: u32,
    /// Search about this many nodes per move instead (fair to techniques
    /// that save nodes).
    #[arg(long)]
    nodes: Option<u64>,
    /// Stop games after this many plies (decided by the stores).
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware match`.
pub fn run(args: MatchArgs) -> Result<()> {
    let a = search::Engine::new(16, 1, None);
    let mut b = search::Engine::new(16, 1, None);
    match args.toggle.as_str() {
        "reductions" => b.features.reductions = !b.features.reductions,
        "capture-search" => {
            b.features.capture_plies = if b.features.capture_plies > 0 { 0 } else { 4 }
        }
        other => anyhow::bail!("unknown technique '{other}' (reductions or capture-search)"),
    }
    // Every position of the bench suite, each played with both colours.
    let openings: Vec<Position> = search::bench::suite().into_iter().map(|(_, p)| p).collect();
    let started = Instant::now();
    let (limits, budget) = match args.nodes {
        Some(n) => (
            search::Limits {
                nodes: Some(n),
                ..Default::default()
            },
            format!("{n} nodes"),
        ),
        None => (
            search::Limits::depth(args.depth),
            format!("depth {}", args.depth),
        ),
    };
    let score = search::selfplay::play_match(&a, &b, &openings, &limits, args.max_plies);
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        output::line(json!({
            "toggle": args.toggle,
            "budget": budget,
            "wins": score.wins,
            "draws": score.draws,
            "losses": score.losses,
            "score": score.share(),
            "seconds": seconds,
        }));
        return Ok(());
    }
    output::line(format_args!(
        "engine vs engine with {} switched: +{} ={} -{} ({:.1}% for the engine) at {budget} a move in {seconds:.1} s",
        args.toggle,
        score.wins,
        score.draws,
        score.losses,
        100.0 * score.share(),
    ));
    Ok(())
}
