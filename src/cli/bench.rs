//! `oware bench`: a fixed suite searched one position after another.

use anyhow::{Result, bail};
use clap::Args;
use serde_json::json;

use oware::mancala::Mancala;
use oware::search::{self, Engine, Limits, Oware, SearchGame};
use oware::{RuleSet, Variant};

use super::common::{Decoding, EngineArgs, limits_from, make_engine, mancala_engine};
use super::output;

/// Arguments of `oware bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Search each position to this depth (default 14 for Oware, 16 for
    /// mancala).
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position for this many milliseconds instead.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Print one JSON object when done.
    #[arg(long)]
    json: bool,
    /// The suite: abapa (`benches/suite.txt`) or mancala
    /// (`benches/mancala.txt`).
    #[arg(long, default_value = "abapa")]
    rules: RuleSet,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `oware bench`.
pub fn run(args: BenchArgs) -> Result<()> {
    let fixed = |default| Some(args.depth.unwrap_or(default)).filter(|_| args.movetime.is_none());
    match args.rules {
        RuleSet::Oware(Variant::Abapa) => {
            let engine = make_engine(&args.engine, Variant::Abapa, Decoding::First)?;
            let limits = limits_from(fixed(14), args.movetime, 1000);
            bench::<Oware>(&engine, &search::bench::games(), &limits, args.json)
        }
        RuleSet::Mancala => {
            let engine = mancala_engine(&args.engine, oware::mancala::MancalaRules::DEFAULT)?;
            let limits = limits_from(fixed(16), args.movetime, 1000);
            bench::<Mancala>(&engine, &oware::mancala::bench::games(), &limits, args.json)
        }
        RuleSet::Oware(variant) => bail!(
            "--rules {}: the bench suites are abapa's and mancala's",
            variant.name()
        ),
    }
}

/// Searches `suite` and prints a line a position and the totals, or the
/// JSON object.
fn bench<G: SearchGame>(
    engine: &Engine<G>,
    suite: &[(String, G::Game)],
    limits: &Limits,
    json: bool,
) -> Result<()> {
    let mut positions = Vec::new();
    let tables = engine.tables().map(|t| &**t);
    let totals = search::bench::run(engine, suite, limits, |i, name, r| {
        let nps = search::report::nps(r.last.nodes, r.last.time);
        if json {
            let mut map = serde_json::Map::new();
            map.insert("name".into(), json!(name));
            map.insert("depth".into(), json!(r.last.depth));
            map.insert("nodes".into(), json!(r.last.nodes));
            map.insert("time_ms".into(), json!(r.last.time.as_millis() as u64));
            map.insert("nps".into(), json!(nps));
            map.insert("best".into(), json!(r.best.map(|m| m.to_string())));
            let verdict = search::report::verdict::<G>(&r.last, &suite[i].1, tables);
            map.extend(search::report::score_fields(verdict));
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
            search::report::format_score::<G>(r.last.score, r.last.solved),
        ));
    })?;
    let nps = search::report::nps(totals.nodes, totals.time);
    let mean_depth = totals.depths as f64 / totals.positions as f64;
    if json {
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
