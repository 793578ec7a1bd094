//! `oware uci`: the engine protocol on standard input and output.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use oware::{Rules, Variant};

use super::common::table_folder;

/// Arguments of `oware uci`.
#[derive(Args)]
pub struct UciArgs {
    /// Rule set to play.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Endgame table folder (default: $OWARE_DB, else `databases` when it
    /// exists; option TablePath).
    #[arg(long)]
    db: Option<PathBuf>,
}

/// Runs `oware uci` until `quit` or the end of input.
pub fn run(args: UciArgs) -> Result<()> {
    let (dir, asked) = table_folder(args.db.as_ref());
    let stdin = std::io::stdin();
    oware::uci::run(stdin, std::io::stdout(), Rules::of(args.rules), dir, asked);
    Ok(())
}
