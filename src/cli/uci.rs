//! `oware uci`: the engine protocol on standard input and output.

use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::Args;

use oware::mancala::{MancalaRules, START_SEEDS};
use oware::search::EvalChoice;
use oware::uci::GameRules;
use oware::{RuleSet, Rules};

use super::common::table_folder;

/// Arguments of `oware uci`.
#[derive(Args)]
pub struct UciArgs {
    /// Rule set to play: abapa, grand-slam-forbidden, capture-and-end,
    /// capture-to-win, awari or mancala (option Rules).
    #[arg(long, default_value = "abapa")]
    rules: RuleSet,
    /// Seeds a house at the start of mancala: 3 (the default), 4, 5 or 7
    /// (option StartSeeds).
    #[arg(long, value_name = "K")]
    start_seeds: Option<u8>,
    /// Mancala under the empty capture (option EmptyCapture).
    #[arg(long)]
    empty_capture: bool,
    /// Endgame table folder (default: $OWARE_DB, else `databases` when it
    /// exists; option TablePath).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Evaluation from this file, weights or a network as `oware tune`
    /// writes them (option EvalFile); default: the built-in network.
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
    /// Start with OwnBook off: without it, the book found in the table
    /// folder (`book.owb`) is played.
    #[arg(long)]
    no_book: bool,
}

/// Runs `oware uci` until `quit` or the end of input.
pub fn run(args: UciArgs) -> Result<()> {
    if args.empty_capture && args.rules != RuleSet::Mancala {
        bail!("--empty-capture applies only to --rules mancala");
    }
    let rules = match (args.rules, args.start_seeds) {
        (RuleSet::Oware(variant), None | Some(4)) => GameRules::Oware(Rules::of(variant)),
        (RuleSet::Oware(_), Some(k)) => {
            bail!("--start-seeds {k}: Oware starts with 4 seeds a house")
        }
        (RuleSet::Mancala, seeds) => {
            let seeds = seeds.unwrap_or(3);
            if !START_SEEDS.contains(&seeds) {
                bail!("--start-seeds {seeds}: mancala starts with 3, 4, 5 or 7 seeds a house");
            }
            GameRules::Mancala(MancalaRules::new(seeds, args.empty_capture))
        }
    };
    let (dir, asked) = table_folder(args.db.as_ref());
    let params = match &args.eval {
        Some(path) => EvalChoice::load(path)?,
        None => EvalChoice::DEFAULT,
    };
    let stdin = std::io::stdin();
    let eval = (params, args.eval);
    oware::uci::run(
        stdin,
        std::io::stdout(),
        rules,
        dir,
        asked,
        eval,
        !args.no_book,
    );
    Ok(())
}
