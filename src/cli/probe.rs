//! `oware probe`: what the tables say about a position and its moves.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use oware::mancala::{self, MancalaPosition};
use oware::tb;

use super::common::parse_position;
use super::output;
use super::tables::{TableChoice, TableRulesArgs, open_mancala, open_tables};

/// Arguments of `oware probe`.
#[derive(Args)]
pub struct ProbeArgs {
    /// Position string.
    position: String,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Folder of the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware probe`.
pub fn run(args: ProbeArgs) -> Result<()> {
    let variant = match args.rules.choice()? {
        TableChoice::Oware(variant) => variant,
        choice @ TableChoice::Mancala(rules) => {
            let text = &args.position;
            let pos = text
                .parse::<MancalaPosition>()
                .with_context(|| format!("bad position '{text}'"))?
                .with_empty_capture(rules.empty_capture);
            let tables = open_mancala(&choice.folder(args.dir.as_ref()), rules)?;
            let report = mancala::probe::probe(&tables, &pos)?;
            if args.json {
                output::line(serde_json::to_string(&report)?);
            } else {
                output::text(mancala::probe::probe_text(&report));
            }
            return Ok(());
        }
    };
    let pos = parse_position(Some(&args.position))?;
    let tables = open_tables(args.dir.as_ref(), variant)?;
    let report = tb::probe::probe(&tables, &pos)?;
    if args.json {
        output::line(serde_json::to_string(&report)?);
    } else {
        output::text(tb::probe::probe_text(&report));
    }
    Ok(())
}
