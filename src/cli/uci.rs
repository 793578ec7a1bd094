//! `oware uci`: the engine protocol on standard input and output.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use oware::search::EvalParams;
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
    /// Evaluation weights from this file, as `oware tune` writes it
    /// (option EvalFile); default: the built-in ones.
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
}

/// Runs `oware uci` until `quit` or the end of input.
pub fn run(args: UciArgs) -> Result<()> {
    let (dir, asked) = table_folder(args.db.as_ref());
    let params = match &args.eval {
        Some(path) => EvalParams::load(path)?,
        None => EvalParams::DEFAULT,
    };
    let stdin = std::io::stdin();
    let eval = (params, args.eval);
    oware::uci::run(
        stdin,
        std::io::stdout(),
        Rules::of(args.rules),
        dir,
        asked,
        eval,
    );
    Ok(())
}
