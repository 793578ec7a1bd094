//! `oware verify`: re-check table files.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::{Variant, tb};

use super::common::{table_folder, thread_pool};
use super::output;
use super::probe::open_tables;

/// Arguments of `oware verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Folder of the table files (default: $OWARE_DB, else `databases`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Rule set of the tables.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Only this level.
    #[arg(long)]
    level: Option<usize>,
    /// Check K boards per level instead of every board.
    #[arg(long, value_name = "K")]
    sample: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object when done.
    #[arg(long)]
    json: bool,
}

/// Runs `oware verify`.
pub fn run(args: VerifyArgs) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let tables = open_tables(args.dir.as_ref(), args.rules)?;
    let levels = match args.level {
        Some(level) => vec![level],
        None => tb::verify::present_levels(&tables),
    };
    if levels.is_empty() {
        let (dir, _) = table_folder(args.dir.as_ref());
        anyhow::bail!("no {} tables in {}", args.rules, dir.display());
    }
    let mut checked_levels = Vec::new();
    for level in levels {
        let started = Instant::now();
        let checked = pool.install(|| {
            tb::verify::verify_level(
                &tables,
                level,
                args.sample,
                &indicatif::ProgressBar::hidden(),
            )
        })?;
        let seconds = started.elapsed().as_secs_f64();
        if args.json {
            checked_levels.push(json!({"seeds": level, "checked": checked, "seconds": seconds}));
        } else {
            output::line(format_args!(
                "level {level:>2}: ok (header, checksum, {checked} boards re-checked) in {seconds:.2} s"
            ));
        }
    }
    if args.json {
        output::line(json!({"rules": args.rules.name(), "ok": true, "levels": checked_levels}));
    }
    Ok(())
}
