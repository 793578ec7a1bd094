//! `oware analyze`: a score and principal variation for every legal move.

use anyhow::Result;
use serde_json::json;

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
        let moves: Vec<_> = rows
            .iter()
            .map(|r| {
                let it = &r.result.last;
                let mut map = serde_json::Map::new();
                map.insert("move".into(), json!(r.mv.to_string()));
                let tables = engine.tables().map(|t| &**t);
                let margin = search::proof::proven_margin(&game, &it.pv, tables);
                map.extend(search::report::score_fields(it.score, margin));
                map.insert("depth".into(), json!(it.depth));
                map.insert("nodes".into(), json!(it.nodes));
                map.insert("time_ms".into(), json!(it.time.as_millis() as u64));
                map.insert("pv".into(), search::report::moves_json(&it.pv));
                serde_json::Value::Object(map)
            })
            .collect();
        output::line(json!({
            "position": game.position().to_string(),
            "moves": moves,
        }));
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
