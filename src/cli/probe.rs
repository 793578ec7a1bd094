//! `oware probe`: what the tables say about a position and its moves.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use oware::mancala::{self, MancalaEnd};
use oware::tb;

use super::common::{POSITION_REQUIRED_HELP, mancala_position, parse_position};
use super::output;
use super::tables::{TableChoice, TableRulesArgs, open_mancala, open_tables};

/// Arguments of `oware probe`.
#[derive(Args)]
pub struct ProbeArgs {
    #[arg(help = POSITION_REQUIRED_HELP, value_name = "POSITION")]
    position: String,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Folder of the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware probe`.
pub fn run(args: ProbeArgs) -> Result<()> {
    let variant = match args.rules.choice()? {
        TableChoice::Oware(variant) => variant,
        TableChoice::MancalaRace(_) => return Err(super::tables::no_race("probe")),
        choice @ TableChoice::Mancala(rules) => {
            let pos = mancala_position(Some(&args.position), rules)?;
            if pos.end() == Some(MancalaEnd::Stop) {
                bail!(
                    "the game is over: a store holds 25 or more (the tables set that stop aside)"
                );
            }
            if usize::from(pos.seeds_on_board()) > tb::index::MAX_SEEDS {
                bail!(
                    "{} seeds on the board: the tables hold at most {}",
                    pos.seeds_on_board(),
                    tb::index::MAX_SEEDS
                );
            }
            let tables = open_mancala(&choice.folder(args.db.as_ref()), rules)?;
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
    let tables = open_tables(args.db.as_ref(), variant)?;
    let report = tb::probe::probe(&tables, &pos)?;
    if args.json {
        output::line(serde_json::to_string(&report)?);
    } else {
        output::text(tb::probe::probe_text(&report));
    }
    Ok(())
}
