//! `oware stats`: per-level statistics of the tables.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use oware::tb;

use super::output;
use super::tables::{TableChoice, TableRulesArgs, open_mancala, open_tables};

/// Arguments of `oware stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// Folder of the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long)]
    dir: Option<PathBuf>,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    let choice = args.rules.choice()?;
    let levels = match choice {
        TableChoice::Oware(variant) => {
            tb::verify::stats(&open_tables(args.dir.as_ref(), variant)?)?
        }
        TableChoice::Mancala(rules) => {
            let tables = open_mancala(&choice.folder(args.dir.as_ref()), rules)?;
            tb::verify::levels_stats(tables.levels())?
        }
    };
    if args.json {
        let mut out = serde_json::json!({"rules": args.rules.rules.name(), "levels": levels});
        if let TableChoice::Mancala(rules) = choice {
            out["empty_capture"] = rules.empty_capture.into();
        }
        output::line(out);
        return Ok(());
    }
    for l in &levels {
        output::line(l.describe());
    }
    Ok(())
}
