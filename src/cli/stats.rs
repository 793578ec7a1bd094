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
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware stats`.
pub fn run(args: StatsArgs) -> Result<()> {
    let choice = args.rules.choice()?;
    let (levels, rules) = match choice {
        TableChoice::MancalaRace(_) => return Err(super::tables::no_race("stats")),
        TableChoice::Oware(variant) => {
            let tables = open_tables(args.db.as_ref(), variant)?;
            (tb::verify::stats(&tables)?, tables.levels().rules())
        }
        TableChoice::Mancala(rules) => {
            let tables = open_mancala(&choice.folder(args.db.as_ref()), rules)?;
            (
                tb::verify::levels_stats(tables.levels())?,
                tables.levels().rules(),
            )
        }
    };
    if levels.is_empty() {
        let dir = choice.folder(args.db.as_ref());
        output::note(format_args!(
            "no {rules} tables in {} (`oware build {} --max-seeds 16 --db {}` builds them)",
            dir.display(),
            rules.build_flags(),
            dir.display()
        ));
    }
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
