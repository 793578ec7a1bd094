//! `oware probe`: what the tables say about a position and its moves.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use oware::{Variant, tb};

use super::common::{parse_position, table_folder};
use super::output;

/// Arguments of `oware probe`.
#[derive(Args)]
pub struct ProbeArgs {
    /// Position string.
    position: String,
    /// Rule set of the tables.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Folder of the table files (default: $OWARE_DB, else `databases`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// The tables in the folder a table command was given (or the default).
pub fn open_tables(dir: Option<&PathBuf>, rules: Variant) -> Result<tb::Tablebase> {
    let (dir, _) = table_folder(dir);
    tb::Tablebase::open(&dir, rules).context("cannot open the tables")
}

/// Runs `oware probe`.
pub fn run(args: ProbeArgs) -> Result<()> {
    let pos = parse_position(Some(&args.position))?;
    let tables = open_tables(args.dir.as_ref(), args.rules)?;
    let report = tb::probe::probe(&tables, &pos)?;
    if args.json {
        output::line(serde_json::to_string(&report)?);
    } else {
        output::text(tb::probe::probe_text(&report));
    }
    Ok(())
}
