//! What the table commands (`build`, `probe`, `verify`, `stats`) share:
//! the rules they are for and the folder.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

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
}

/// The game of a table command.
#[derive(Copy, Clone, Debug)]
pub enum TableChoice {
    /// Oware's tables of a variant.
    Oware(Variant),
    /// Mancala's tables (the start seeds are the default: tables serve
    /// every start).
    Mancala(MancalaRules),
}

impl TableRulesArgs {
    /// The game these options name.
    pub fn choice(&self) -> Result<TableChoice> {
        match self.rules {
            RuleSet::Oware(variant) => {
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
            (TableChoice::Mancala(_), None) => PathBuf::from(MANCALA_FOLDER),
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
