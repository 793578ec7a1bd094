//! What the table commands (`build`, `probe`, `verify`, `stats`) share:
//! the rules they are for and the folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use oware::mancala::race::RaceRules;
use oware::mancala::{MancalaRules, MancalaTables};
use oware::{RuleSet, Variant, tb};

use super::common::table_folder;

/// The default folder of Mancala's tables (both conventions: their file
/// names differ).
pub const MANCALA_FOLDER: &str = "databases/mancala";

/// The rules of a table command.
#[derive(Args, Clone)]
pub struct TableRulesArgs {
    /// Rule set the tables are for: abapa, grand-slam-forbidden,
    /// capture-and-end, awari or mancala (capture-to-win has no tables).
    #[arg(long, default_value = "abapa")]
    pub rules: RuleSet,
    /// Mancala's tables under the empty capture (with --rules mancala).
    #[arg(long)]
    pub empty_capture: bool,
    /// Mancala's race tables (the 25-seed stop in play) of the start of
    /// --start-seeds, instead of its final-difference tables.
    #[arg(long)]
    pub race: bool,
    /// The start whose race tables are meant (with --race): 3, 4, 5 or 7
    /// seeds a house.
    #[arg(long, value_name = "K", requires = "race")]
    pub start_seeds: Option<u8>,
}

/// The game of a table command.
#[derive(Copy, Clone, Debug)]
pub enum TableChoice {
    /// Oware's tables of a variant.
    Oware(Variant),
    /// Mancala's tables (the start seeds are the default: tables serve
    /// every start).
    Mancala(MancalaRules),
    /// Mancala's race tables of one start.
    MancalaRace(RaceRules),
}

impl TableRulesArgs {
    /// The game these options name.
    pub fn choice(&self) -> Result<TableChoice> {
        match self.rules {
            RuleSet::Oware(variant) => {
                if self.race {
                    bail!("--race applies only to --rules mancala");
                }
                if self.empty_capture {
                    bail!("--empty-capture applies only to --rules mancala");
                }
                if !variant.has_tables() {
                    bail!(
                        "--rules {variant} has no endgame tables: {}",
                        oware::rules::NO_TABLES
                    );
                }
                Ok(TableChoice::Oware(variant))
            }
            RuleSet::Mancala if self.race => {
                let rules = MancalaRules::new(
                    self.start_seeds
                        .unwrap_or(MancalaRules::DEFAULT.start_seeds),
                    self.empty_capture,
                );
                if !rules.start_seeds_valid() {
                    bail!(
                        "--start-seeds {}: give 3, 4, 5 or 7 seeds a house",
                        rules.start_seeds
                    );
                }
                Ok(TableChoice::MancalaRace(RaceRules::of(rules)))
            }
            RuleSet::Mancala => Ok(TableChoice::Mancala(MancalaRules::new(
                MancalaRules::DEFAULT.start_seeds,
                self.empty_capture,
            ))),
        }
    }
}

impl TableChoice {
    /// The folder a command reads: the one given, else Oware's default
    /// (`$OWARE_DB`, else `databases`) or Mancala's.
    pub fn folder(self, given: Option<&PathBuf>) -> PathBuf {
        match (self, given) {
            (_, Some(dir)) => dir.clone(),
            (TableChoice::Oware(_), None) => table_folder(None).0,
            (TableChoice::Mancala(_) | TableChoice::MancalaRace(_), None) => {
                PathBuf::from(MANCALA_FOLDER)
            }
        }
    }
}

/// Oware's tables in the folder a table command was given (or the default).
pub fn open_tables(dir: Option<&PathBuf>, rules: Variant) -> Result<tb::Tablebase> {
    let (dir, _) = table_folder(dir);
    tb::Tablebase::open(&dir, rules).context("cannot open the tables")
}

/// Mancala's tables in `dir`.
pub fn open_mancala(dir: &Path, rules: MancalaRules) -> Result<MancalaTables> {
    MancalaTables::open(dir, rules).context("cannot open the tables")
}

/// The one-line refusal of a table command that does not read race tables.
pub fn no_race(command: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "{command} does not read race tables (`oware solve --rules mancala --start-seeds K --db DIR` probes them, `oware verify --race` re-checks them)"
    )
}
