//! `oware bench`: a fixed suite searched one position after another.

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::{Variant, search};

use super::common::{EngineArgs, limits_from, make_engine};
use super::output;

/// Arguments of `oware bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search each position to this depth (default 14).
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position for this many milliseconds instead.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Print one JSON object when done.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `oware bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    let engine = make_engine(&args.engine, Variant::Abapa)?;
    let depth = Some(args.depth.unwrap_or(14)).filter(|_| args.movetime.is_none());
    let limits = limits_from(depth, args.movetime, 1000);
    let mut positions = Vec::new();
    let suite = search::bench::suite();
    let totals = search::bench::run(&engine, &limits, |i, name, r| {
        let nps = search::report::nps(r.last.nodes, r.last.time);
        if args.json {
            let mut map = serde_json::Map::new();
            map.insert("name".into(), json!(name));
            map.insert("depth".into(), json!(r.last.depth));
            map.insert("nodes".into(), json!(r.last.nodes));
            map.insert("time_ms".into(), json!(r.last.time.as_millis() as u64));
            map.insert("nps".into(), json!(nps));
            map.insert("best".into(), json!(r.best.map(|m| m.to_string())));
            let game = oware::Game::new(suite[i].1, oware::Rules::ABAPA);
            let tables = engine.tables().map(|t| &**t);
            let margin = search::proof::proven_margin(&game, &r.last.pv, tables);
            map.extend(search::report::score_fields(r.last.score, margin));
            positions.push(serde_json::Value::Object(map));
            return;
        }
        output::line(format_args!(
            "{:>2} {name:<14} depth {:>2}  nodes {:>10}  time {:>6} ms  nps {nps:>9}  best {}  score {}",
            i + 1,
            r.last.depth,
            r.last.nodes,
            r.last.time.as_millis(),
            r.best.map_or("-".into(), |m| m.to_string()),
            search::report::format_score(r.last.score),
        ));
    })?;
    let nps = search::report::nps(totals.nodes, totals.time);
    let mean_depth = totals.depths as f64 / totals.positions as f64;
    if args.json {
        output::line(json!({
            "positions": positions,
            "total": {
                "positions": totals.positions,
                "nodes": totals.nodes,
                "time_ms": totals.time.as_millis() as u64,
                "nps": nps,
                "mean_depth": mean_depth,
            },
        }));
        return Ok(());
    }
    output::line(format_args!(
        "total: {} positions, {} nodes, {:.3} s, {nps} nps, mean depth {mean_depth:.1}",
        totals.positions,
        totals.nodes,
        totals.time.as_secs_f64(),
    ));
    Ok(())
}
