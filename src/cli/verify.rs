//! `oware verify`: re-check table files.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use oware::tb::{self, Levels, TableGame};

use super::common::thread_pool;
use super::output;
use super::tables::{TableChoice, TableRulesArgs, open_mancala, open_tables};

/// Arguments of `oware verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Folder of the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Only this level.
    #[arg(long)]
    level: Option<usize>,
    /// Check K boards per level instead of every board.
    #[arg(long, value_name = "K")]
    sample: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// Print one JSON object when done.
    #[arg(long)]
    json: bool,
}

/// Runs `oware verify`.
pub fn run(args: VerifyArgs) -> Result<()> {
    let choice = args.rules.choice()?;
    match choice {
        TableChoice::Oware(variant) => {
            let tables = open_tables(args.db.as_ref(), variant)?;
            verify(&args, &variant, tables.levels())
        }
        TableChoice::Mancala(rules) => {
            let tables = open_mancala(&choice.folder(args.db.as_ref()), rules)?;
            verify(&args, &rules, tables.levels())
        }
        TableChoice::MancalaRace(rules) => {
            let levels = tb::Levels::open(&choice.folder(args.db.as_ref()), rules.table_rules())
                .context("cannot open the tables")?;
            verify(&args, &rules, &levels)
        }
    }
}

/// Verifies the levels asked for of `game`'s tables.
fn verify<G: TableGame>(args: &VerifyArgs, game: &G, tables: &Levels) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let levels = match args.level {
        Some(level) => vec![level],
        None => tables.present(),
    };
    if levels.is_empty() {
        anyhow::bail!(
            "no {} tables in {} (`oware build {} --max-seeds 16 --db {}` builds them)",
            tables.rules(),
            tables.dir().display(),
            tables.rules().build_flags(),
            tables.dir().display()
        );
    }
    let mut checked_levels = Vec::new();
    for level in levels {
        let started = Instant::now();
        let checked = pool.install(|| {
            tb::verify::verify_game_level(
                game,
                tables,
                level,
                args.sample,
                &indicatif::ProgressBar::hidden(),
            )
        })?;
        let seconds = started.elapsed().as_secs_f64();
        let table = tables.require(level)?;
        let format = table.format_name();
        let version = table.header().version;
        if args.json {
            checked_levels.push(json!({
                "seeds": level,
                "checked": checked,
                "seconds": seconds,
                "format": format,
                "version": version,
            }));
        } else {
            output::line(format_args!(
                "level {level:>2}: ok ({format} v{version}: header, checksum, {checked} boards re-checked) in {seconds:.2} s"
            ));
        }
    }
    if args.json {
        let mut out =
            json!({"rules": args.rules.rules.name(), "ok": true, "levels": checked_levels});
        if let tb::TableRules::Mancala { empty_capture } = tables.rules() {
            out["empty_capture"] = empty_capture.into();
        }
        output::line(out);
    }
    Ok(())
}
