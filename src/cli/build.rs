//! `oware build`: endgame tables, level by level (resumable).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde_json::json;

use oware::mancala::MancalaRules;
use oware::tb;
use oware::tb::estimate::{self, Costs};

use super::common::thread_pool;
use super::interrupt;
use super::output;
use super::tables::{TableChoice, TableRulesArgs};

/// Arguments of `oware build`.
#[derive(Args)]
#[command(after_help = "\
Which --max-seeds (Abapa, 2 threads, measured on 2 cores, 24 GB; up to 30 with
this build's defaults but for the changes of the manual's Results after it; 31 and
32 with lower levels in format version 4 and every board re-checked):
  16  seconds
  20  about a minute
  24  about 6 minutes, 2.3 GB raw, 0.57 GB compact (the search's default --tb-limit)
  30  about 1 h 30 min, 4.8 GB compact (19 GB raw), 15.6 GB of memory with --memory 16GB
  31  about 55 minutes more, 1.9 GB more compact, 19.9 GB of memory with --memory 22GB
  32  about 1 h 50 min more, 2.5 GB more compact, 19.8 GB of memory with --memory 22GB

Before it starts, the build prints an estimate of the boards, disk, peak
memory and time of the levels still to build, and refuses (unless --force)
when the disk or the memory cannot hold them. Ctrl-C stops it within a
second or two, with nothing half-written: run the same command to resume.")]
pub struct BuildArgs {
    /// Build levels 0..=N (seeds on the board): 16 takes seconds, 20 about
    /// a minute, 24 about 6 minutes, 30 about 1 h 13 min and 15.0 GB of
    /// memory (with --memory 16GB).
    #[arg(long, value_name = "N")]
    max_seeds: usize,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Folder for the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    /// Write the levels raw (2 bytes a board) instead of compact (about
    /// 3.8 to 4.0 bits a board); `oware compress` converts them later.
    #[arg(long)]
    raw: bool,
    /// The first level coded by its boards' neighbours too (format version
    /// 5: about 0.2 bits a board, 5 %, smaller from level 24 on, but decoded
    /// and probed about three times slower, which slows the build of the
    /// levels above that read them); 49 for none (Oware's levels only, and
    /// only those of a million boards or more and at most 256 distinct
    /// entries: the others stay in version 4).
    #[arg(long, default_value_t = oware::tb::compact::NEIGHBOURS_FROM as u8, value_name = "LEVEL",
          value_parser = clap::value_parser!(u8).range(0..=49), conflicts_with = "raw")]
    neighbours_from: u8,
    /// The most memory the build may take, as `16GB`, `12GiB` or `9000MB`
    /// (default: what the machine has available, less a quarter). Each
    /// level needs its own state (about 3⅛ bytes a board: 8.6 GB at level 30); the
    /// rest goes to copies of the lower levels, which make it faster. (For
    /// Mancala's tables the lower levels are always decoded whole, whatever
    /// the limit.)
    #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
    memory: Option<u64>,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object when done instead of a line per level.
    #[arg(long)]
    json: bool,
    /// Build even when the estimate says the free disk or the available
    /// memory cannot hold the levels.
    #[arg(long)]
    force: bool,
    /// How much of each level to re-check against its children before it
    /// is written: `sample` re-checks one chunk of boards in 16, evenly
    /// spread; `all` re-checks every board, which takes about a quarter of
    /// a large level's time (`oware verify --db DIR` re-checks a built
    /// folder whole at any time).
    #[arg(long, value_enum, default_value_t = RecheckArg::Sample)]
    recheck: RecheckArg,
}

/// `--recheck`'s values.
#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum RecheckArg {
    /// One chunk of boards in 16.
    Sample,
    /// Every board.
    All,
}

impl From<RecheckArg> for tb::Recheck {
    fn from(arg: RecheckArg) -> tb::Recheck {
        match arg {
            RecheckArg::Sample => tb::Recheck::Sample,
            RecheckArg::All => tb::Recheck::All,
        }
    }
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
        TableChoice::MancalaRace(rules) => build(&args, &rules, &dir),
    }
}

/// Builds `game`'s tables into `dir` on this machine.
fn build<G: tb::TableGame>(args: &BuildArgs, game: &G, dir: &Path) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let progress = !args.quiet && std::io::stderr().is_terminal();
    let rules = game.rules();
    let threads = pool.current_num_threads();
    let recheck: tb::Recheck = args.recheck.into();
    if !args.json {
        output::line(format_args!(
            "building {rules} tables, levels 0..={} in {} with {threads} thread{}, re-checking {}",
            args.max_seeds,
            dir.display(),
            if threads == 1 { "" } else { "s" },
            rechecking(recheck),
        ));
    }
    if args.max_seeds > tb::index::MAX_SEEDS {
        return Err(tb::BuildError::TooManySeeds.into());
    }
    let costs = Costs::new(rules, args.raw, threads)
        .with_recheck(recheck)
        .with_memory(Some(tb::resident::usable_memory()), args.memory)
        .with_neighbours_from(usize::from(args.neighbours_from));
    let sizes: Vec<u64> = (0..=args.max_seeds).map(|n| rules.level_size(n)).collect();
    let present = estimate::present_levels(dir, rules, args.max_seeds);
    let plan = estimate::estimate(&sizes, &present, &costs);
    if !args.json {
        output::line(describe_estimate(&plan, args.raw, args.memory));
    }
    if let Some(limit) = args.memory
        && limit < plan.working_memory
    {
        anyhow::bail!(
            "--memory {}: the largest level needs about {} for its own state; give more, or pick a smaller --max-seeds",
            estimate::bytes(limit),
            estimate::bytes(plan.working_memory)
        );
    }
    if !args.force {
        check_room(&plan, dir)?;
    }
    tb::resident::set_memory_limit(args.memory);
    interrupt::install();
    let started = Instant::now();
    // Each level's line is printed once its file is in place, so a reader
    // that goes away stops the build between levels.
    let built = pool.install(|| {
        let format = if args.raw {
            tb::TableFormat::Raw
        } else {
            tb::TableFormat::Compact {
                neighbours_from: usize::from(args.neighbours_from),
            }
        };
        tb::build_levels_as(game, dir, args.max_seeds, progress, format, recheck, |s| {
            if !args.json {
                output::line(s.describe(rules));
            }
        })
    });
    let summaries = match built {
        Err(e @ tb::BuildError::Interrupted { .. }) => {
            output::note(e);
            std::process::exit(interrupt::status());
        }
        other => other?,
    };
    let boards: u64 = summaries.iter().map(|s| s.boards).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let levels: Vec<_> = summaries.iter().map(level_json).collect();
        let mut out = json!({
            "rules": args.rules.rules.name(),
            "dir": dir.display().to_string(),
            "threads": threads,
            "recheck": recheck.name(),
            "boards": boards,
            "seconds": seconds,
            "levels": levels,
        });
        if let tb::TableRules::Mancala { empty_capture } = rules {
            out["empty_capture"] = empty_capture.into();
        }
        output::line(out);
    } else {
        output::line(format_args!(
            "done: {} boards in {}; tables in {}",
            estimate::thousands(boards),
            estimate::duration(seconds),
            dir.display()
        ));
    }
    Ok(())
}

/// What the first line says a build re-checks.
const fn rechecking(recheck: tb::Recheck) -> &'static str {
    match recheck {
        tb::Recheck::All => "every board",
        tb::Recheck::Sample => "a sixteenth of each level",
    }
}

/// The estimate's line: `estimate for levels 21..24 (…): 949 M boards, …`.
fn describe_estimate(plan: &estimate::Estimate, raw: bool, limit: Option<u64>) -> String {
    let (Some(first), Some(last)) = (plan.levels.first(), plan.levels.last()) else {
        return "estimate: every level is built already".to_string();
    };
    let levels = if plan.levels.len() == (last - first + 1) {
        format!("levels {first}..{last}")
    } else {
        format!("{} levels up to {last}", plan.levels.len())
    };
    format!(
        "estimate for {levels}: {} boards, {} of disk ({}), {} of memory at the peak, {} (rates measured on {})",
        estimate::count(plan.boards),
        estimate::bytes(plan.disk_bytes),
        if raw { "raw" } else { "compact" },
        estimate::bytes(plan.peak_memory.min(limit.unwrap_or(u64::MAX))),
        estimate::duration(plan.seconds),
        estimate::MEASURED_ON,
    )
}

/// A `--memory` size: a number with a unit of bytes (`16GB`, `12GiB`,
/// `9000MB`); a bare number is bytes.
fn parse_memory(text: &str) -> Result<u64, String> {
    let size: bytesize::ByteSize = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a size; write it as 16GB, 12GiB or 9000MB"))?;
    Ok(size.as_u64())
}

/// Refuses a build the free disk under `dir` or the available memory
/// cannot hold, by the estimate (the working state of the largest level
/// must fit in memory; the lower levels it reads are mapped files, page
/// cache the kernel can drop).
fn check_room(plan: &estimate::Estimate, dir: &Path) -> Result<()> {
    if let Some(free) = free_disk(dir)
        && free < plan.disk_bytes
    {
        anyhow::bail!(
            "{}: {} free, the build needs about {} (estimate); free some space, use another --db, or --force",
            dir.display(),
            estimate::bytes(free),
            estimate::bytes(plan.disk_bytes)
        );
    }
    if let Some(available) = available_memory()
        && available < plan.working_memory
    {
        anyhow::bail!(
            "{} of memory available, the build needs about {} for its largest level (estimate); pick a smaller --max-seeds, or --force",
            estimate::bytes(available),
            estimate::bytes(plan.working_memory)
        );
    }
    Ok(())
}

/// Bytes free for an unprivileged user on the file system of `dir` (or of
/// its nearest existing parent); `None` when unknown.
#[cfg(target_os = "linux")]
fn free_disk(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let abs = std::path::absolute(dir).ok()?;
    let existing = abs.ancestors().find(|p| p.exists())?;
    let path = std::ffi::CString::new(existing.as_os_str().as_bytes()).ok()?;
    // SAFETY: `path` is a NUL-terminated string that outlives the call and
    // `stat` a writable, properly aligned `statvfs` the call fills in.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    // The fields are u64 on 64-bit Linux, narrower on some others.
    #[allow(clippy::useless_conversion)]
    // A file system that gives no size (procfs, some FUSE ones) is not
    // judged: writing in it fails or succeeds on its own terms.
    (rc == 0 && stat.f_blocks > 0)
        .then(|| u64::from(stat.f_bavail).saturating_mul(u64::from(stat.f_frsize)))
}

#[cfg(not(target_os = "linux"))]
fn free_disk(_dir: &Path) -> Option<u64> {
    None
}

/// MemAvailable of /proc/meminfo, in bytes.
fn available_memory() -> Option<u64> {
    tb::resident::meminfo("MemAvailable:")
}

/// `oware build` as one rank of an MPI job: rank 0 prints.
#[cfg(feature = "mpi")]
fn run_distributed(args: &BuildArgs, variant: oware::Variant, dir: &Path) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    // Each rank's own limit.
    tb::resident::set_memory_limit(args.memory);
    let opts = tb::BuildOptions {
        dir,
        variant,
        max_seeds: args.max_seeds,
        progress: false,
        format: tb::TableFormat::Raw,
        recheck: args.recheck.into(),
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
                        "building {} tables, levels 0..={} in {} on {} MPI ranks with {threads} threads each, re-checking {}",
                        variant,
                        args.max_seeds,
                        dir.display(),
                        s.sent.len(),
                        rechecking(opts.recheck),
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
            "recheck": opts.recheck.name(),
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
        "peak_rss": s.peak_rss,
        "phases": {
            "copy": s.phases.copy,
            "moves": s.phases.moves,
            "settle": s.phases.settle,
            "check": s.phases.check,
            "write": s.phases.write,
        },
    })
}
