//! `oware stats`: per-level statistics of the tables.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use oware::{Variant, tb};

use super::output;
use super::probe::open_tables;

/// Arguments of `oware stats`.
#[derive(Args)]
pub struct StatsArgs {
    /// Folder of the table files (default: $OWARE_DB, else `databases`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Rule set of the tables.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    let tables = open_tables(args.dir.as_ref(), args.rules)?;
    let levels = tb::verify::stats(&tables)?;
    if args.json {
        output::line(serde_json::json!({"rules": args.rules.name(), "levels": levels}));
        return Ok(());
    }
    for l in &levels {
        output::line(l.describe());
    }
    Ok(())
}
