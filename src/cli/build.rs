//! `oware build`: endgame tables, level by level (resumable).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::mancala::MancalaRules;
use oware::tb;

use super::common::thread_pool;
use super::output;
use super::tables::{TableChoice, TableRulesArgs};

/// Arguments of `oware build`.
#[derive(Args)]
pub struct BuildArgs {
    /// Build levels 0..=N (seeds on the board).
    #[arg(long, value_name = "N")]
    max_seeds: usize,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Folder for the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    /// Write the levels raw (2 bytes a board) instead of compact (about
    /// 4.3 bits a board); `oware compress` converts them later.
    #[arg(long)]
    raw: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object when done instead of a line per level.
    #[arg(long)]
    json: bool,
}

/// Runs `oware build`.
pub fn run(args: BuildArgs) -> Result<()> {
    let choice = args.rules.choice()?;
    let dir = choice.folder(args.db.as_ref());
    match choice {
        TableChoice::Oware(variant) => {
            #[cfg(feature = "mpi")]
            if tb::distributed::launched_by_mpi() {
                return run_distributed(&args, variant, &dir);
            }
            build(&args, &variant, &dir)
        }
        TableChoice::Mancala(rules) => {
            #[cfg(feature = "mpi")]
            if tb::distributed::launched_by_mpi() {
                anyhow::bail!("the distributed build is for Oware's tables only");
            }
            build::<MancalaRules>(&args, &rules, &dir)
        }
    }
}

/// Builds `game`'s tables into `dir` on this machine.
fn build<G: tb::TableGame>(args: &BuildArgs, game: &G, dir: &Path) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let progress = !args.quiet && std::io::stderr().is_terminal();
    let rules = game.rules();
    let threads = pool.current_num_threads();
    if !args.json {
        output::line(format_args!(
            "building {rules} tables, levels 0..={} in {} with {threads} threads",
            args.max_seeds,
            dir.display(),
        ));
    }
    let started = Instant::now();
    // Each level's line is printed once its file is in place, so a reader
    // that goes away stops the build between levels.
    let summaries = pool.install(|| {
        let format = if args.raw {
            tb::TableFormat::Raw
        } else {
            tb::TableFormat::Compact
        };
        tb::build_levels_as(game, dir, args.max_seeds, progress, format, |s| {
            if !args.json {
                output::line(s.describe(rules));
            }
        })
    })?;
    let boards: u64 = summaries.iter().map(|s| s.boards).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let levels: Vec<_> = summaries.iter().map(level_json).collect();
        let mut out = json!({
            "rules": args.rules.rules.name(),
            "dir": dir.display().to_string(),
            "threads": threads,
            "boards": boards,
            "seconds": seconds,
            "levels": levels,
        });
        if let tb::TableRules::Mancala { empty_capture } = rules {
            out["empty_capture"] = empty_capture.into();
        }
        output::line(out);
    } else {
        output::line(format_args!("done: {boards} boards in {seconds:.1} s"));
    }
    Ok(())
}

/// `oware build` as one rank of an MPI job: rank 0 prints.
#[cfg(feature = "mpi")]
fn run_distributed(args: &BuildArgs, variant: oware::Variant, dir: &Path) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let opts = tb::BuildOptions {
        dir,
        variant,
        max_seeds: args.max_seeds,
        progress: false,
        format: tb::TableFormat::Raw,
    };
    let threads = pool.current_num_threads();
    let started = Instant::now();
    let mut root = false;
    let summaries = pool.install(|| {
        tb::distributed::build(&opts, |s| {
            if !root {
                root = true;
                if !args.json {
                    output::line(format_args!(
                        "building {} tables, levels 0..={} in {} on {} MPI ranks with {threads} threads each",
                        variant,
                        args.max_seeds,
                        dir.display(),
                        s.sent.len(),
                    ));
                }
            }
            if !args.json {
                output::line(s.describe(variant));
            }
        })
    })?;
    if !root {
        // Not rank 0 (or nothing to report): rank 0 prints the summary.
        return Ok(());
    }
    let boards: u64 = summaries.iter().map(|s| s.summary.boards).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let levels: Vec<_> = summaries
            .iter()
            .map(|d| {
                let s = &d.summary;
                let mut level = level_json(s);
                level["rounds"] = json!(d.rounds);
                level["sent"] = json!(d.sent);
                level["received"] = json!(d.received);
                level["cpu"] = json!(d.cpu);
                level
            })
            .collect();
        output::line(json!({
            "rules": variant.name(),
            "dir": dir.display().to_string(),
            "threads": threads,
            "ranks": summaries.first().map_or(0, |s| s.sent.len()),
            "boards": boards,
            "seconds": seconds,
            "levels": levels,
        }));
    } else {
        let sent: u64 = summaries.iter().flat_map(|s| &s.sent).sum();
        output::line(format_args!(
            "done: {boards} boards in {seconds:.1} s, {sent} bytes sent between ranks"
        ));
    }
    Ok(())
}

/// A level's summary as `build --json` gives it.
fn level_json(s: &tb::LevelSummary) -> serde_json::Value {
    json!({
        "seeds": s.level,
        "boards": s.boards,
        "built": s.built,
        "exact": s.stats.exact,
        "seconds": s.seconds,
        "phases": {
            "copy": s.phases.copy,
            "moves": s.phases.moves,
            "settle": s.phases.settle,
            "check": s.phases.check,
            "write": s.phases.write,
        },
    })
}
