//! `oware accuracy`: how often an engine, its tables capped below the
//! position's level, drops a forced win or walks into a forced loss in the
//! positions of a shipped file; `oware accuracy generate` makes the file.

mod generate;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use oware::accuracy::{self, Answer, Judged, Tally};
use oware::arena::engine::{PlayerFactory, TimeControl, parse_self, parse_spec};
use oware::{Variant, tb};

use super::common::table_folder;
use super::output;

/// The positions file `oware accuracy generate` writes unless told (the
/// shipped set, which `oware accuracy` has built in).
pub const DEFAULT_POSITIONS: &str = "databases/accuracy/abapa-18-28.txt";

/// Arguments of `oware accuracy`.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct AccuracyArgs {
    #[command(subcommand)]
    command: Option<AccuracyCommand>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum AccuracyCommand {
    /// Make a positions file: self-play games, the positions right after a
    /// capture judged with the full tables, those where a move can lose
    /// something kept.
    Generate(generate::GenerateArgs),
}

/// Arguments of a run of the benchmark.
#[derive(Args)]
struct RunArgs {
    /// The positions file (as `oware accuracy generate` writes it);
    /// default: the shipped set, built into the program.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Milliseconds a move (the default budget: 100).
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "depth"], value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// About this many nodes a move (`go nodes N` for a UCI engine).
    #[arg(long, value_name = "N", conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// A fixed depth a move.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// The largest level the built-in engine's tables hold: it probes
    /// levels 0..K only; positions of K seeds or fewer are skipped.
    #[arg(long, value_name = "K", default_value_t = 12, value_parser = clap::value_parser!(u8).range(0..=47))]
    tb_limit: u8,
    /// Cap the built-in engine's tables N levels below each position
    /// instead: a position of S seeds is searched with levels 0..S−N
    /// (which the folder must hold). Instead of --tb-limit.
    #[arg(long, value_name = "N", conflicts_with = "tb_limit", value_parser = clap::value_parser!(u8).range(1..=47))]
    tb_below: Option<u8>,
    /// Only the positions of these seeds: `25` or `25..28`.
    #[arg(long, value_name = "A..B", value_parser = parse_seeds)]
    seeds: Option<(u8, u8)>,
    /// The engine: `self` (the built-in), `self:key=value,…` (as `oware
    /// match` takes it, without db and tb-limit: --db and --tb-limit set
    /// them) or `uci:COMMAND` (an external engine, sent `position fen …`).
    #[arg(long, value_name = "SPEC", default_value = "self")]
    engine: String,
    /// The built-in engine's table folder (default: $OWARE_DB, else
    /// `databases`); it must hold levels 0..K (under --tb-below, every
    /// level the positions need).
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// The built-in engine's search threads.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// The built-in engine's hash table in MiB.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: Option<u64>,
    /// Positions searched at once, each by an engine of its own.
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,
    /// Only this many positions, spread evenly over the file.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Print the result as one JSON object (counts by seeds, total, and
    /// every position's answer).
    #[arg(long)]
    json: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `oware accuracy` or its subcommand.
pub fn run(args: AccuracyArgs) -> Result<()> {
    match args.command {
        Some(AccuracyCommand::Generate(generate)) => generate::run(generate),
        None => run_benchmark(args.run),
    }
}

/// A range of seeds, `25` or `25..28`.
fn parse_seeds(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}`: expected seeds as 25 or 25..28, at most 48");
    let number = |t: &str| t.trim().parse::<u8>().ok().filter(|&n| n <= 48);
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => (number(a).ok_or_else(bad)?, number(b).ok_or_else(bad)?),
        None => {
            let n = number(text).ok_or_else(bad)?;
            (n, n)
        }
    };
    if lo > hi {
        return Err(format!("`{text}`: the range is empty"));
    }
    Ok((lo, hi))
}

/// How the built-in engine's tables are capped: at one level for every
/// position, or some levels below each.
#[derive(Clone, Copy)]
enum Cap {
    /// Levels 0..K.
    Limit(u8),
    /// Levels 0..S−N in a position of S seeds.
    Below(u8),
}

impl Cap {
    /// The largest level the engine probes in a position of `seeds` seeds
    /// (`None`: the position is skipped, its seeds all within the tables).
    fn level(self, seeds: u8) -> Option<u8> {
        match self {
            Cap::Limit(k) => (seeds > k).then_some(k),
            Cap::Below(n) => seeds.checked_sub(n),
        }
    }

    /// The flag that set the cap, as given.
    fn flag(self) -> String {
        match self {
            Cap::Limit(k) => format!("--tb-limit {k}"),
            Cap::Below(n) => format!("--tb-below {n}"),
        }
    }

    /// The seeds of the positions searched, and of those skipped.
    fn kept_and_skipped(self) -> (String, String) {
        match self {
            Cap::Limit(k) => (
                format!("more than {k} seeds"),
                format!("{k} seeds or fewer"),
            ),
            Cap::Below(n) => (
                format!("{n} seeds or more"),
                format!("fewer than {n} seeds"),
            ),
        }
    }

    /// `tables 0..12`, `tables 4 levels below each position`.
    fn describe(self) -> String {
        match self {
            Cap::Limit(k) => format!("tables 0..{k}"),
            Cap::Below(n) => format!(
                "tables {n} level{} below each position",
                if n == 1 { "" } else { "s" }
            ),
        }
    }
}

/// `count` of `items`, spread evenly (all of them when there are fewer).
fn spread<T: Clone>(items: &[T], count: usize) -> Vec<T> {
    if count >= items.len() {
        return items.to_vec();
    }
    (0..count)
        .map(|i| items[i * items.len() / count].clone())
        .collect()
}

/// The time control of the run and its description.
fn time_control(args: &RunArgs) -> TimeControl {
    match (args.depth, args.nodes, args.movetime) {
        (Some(d), _, _) => TimeControl::Depth(d),
        (None, Some(n), _) => TimeControl::Nodes(n),
        (None, None, ms) => TimeControl::MoveTime(Duration::from_millis(ms.unwrap_or(100))),
    }
}

/// The engine under test: an external one as given, or the built-in one
/// with the tables of levels 0..`k` (all of them, or an error).
fn engine(args: &RunArgs, k: u8) -> Result<Arc<dyn PlayerFactory>> {
    let spec = args.engine.trim();
    if spec.starts_with("uci:") {
        if args.db.is_some() || args.threads.is_some() || args.hash.is_some() {
            bail!(
                "--db, --threads and --hash are the built-in engine's; a UCI engine is set up by its command"
            );
        }
        if args.tb_below.is_some() {
            bail!(
                "--tb-below caps the built-in engine's tables; a UCI engine's tables are set up by its command"
            );
        }
        return parse_spec(spec, Variant::Abapa).map_err(|e| anyhow::anyhow!("--engine: {e}"));
    }
    let options = match spec {
        "self" => "",
        _ => spec.strip_prefix("self:").with_context(|| {
            format!(
                "--engine: bad engine `{spec}` (expected self, self:key=value,… or uci:COMMAND)"
            )
        })?,
    };
    for item in options.split(',') {
        let key = item.split('=').next().unwrap_or("").trim();
        if key == "db" || key == "tb-limit" {
            bail!("--engine: `{key}` is set by --db and --tb-limit (or --tb-below) here");
        }
    }
    let mut o =
        parse_self(options, Variant::Abapa).map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
    if let Some(threads) = args.threads {
        o.threads = threads as usize;
    }
    if let Some(hash) = args.hash {
        oware::search::tt::check_size(hash as usize)?;
        o.hash = hash as usize;
    }
    o.tables = Some(capped_tables(args, k)?);
    Ok(Arc::new(o))
}

/// Levels 0..`k` of the table folder, every one of them present and sound.
fn capped_tables(args: &RunArgs, k: u8) -> Result<Arc<tb::Tablebase>> {
    let (dir, _) = table_folder(args.db.as_ref());
    let k = usize::from(k);
    if !dir.is_dir() {
        bail!(
            "tables: no folder {} (the engine needs levels 0..{k} of abapa; `oware build --max-seeds {k} --db {}` builds them)",
            dir.display(),
            dir.display()
        );
    }
    let tables = tb::Tablebase::open_for_search(&dir, Variant::Abapa, k)
        .with_context(|| format!("cannot open the tables in {}", dir.display()))?;
    if let Some(rejected) = tables.rejected().first() {
        bail!("tables: {rejected}");
    }
    if let Some(missing) = (0..=k).find(|&level| !tables.has_level(level)) {
        bail!(
            "tables: level {missing} of abapa is missing in {} (the engine needs levels 0..{k}; `oware build --max-seeds {k} --db {}` builds them)",
            dir.display(),
            dir.display()
        );
    }
    output::note(format_args!("tables: {}", tables.describe()));
    Ok(Arc::new(tables))
}

/// A progress bar on standard error, hidden when asked or not a terminal.
fn progress(len: usize, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg:>14} [{bar:30}] {pos}/{len} positions eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar
}

fn run_benchmark(args: RunArgs) -> Result<()> {
    let (all, source) = match &args.positions {
        Some(path) => (
            accuracy::file::load(path).context("cannot read the positions")?,
            path.display().to_string(),
        ),
        None => {
            let name = std::path::Path::new(accuracy::file::SHIPPED_NAME);
            let set = accuracy::file::parse(accuracy::file::SHIPPED, name)?;
            (set, accuracy::file::SHIPPED_NAME.to_string())
        }
    };
    let cap = match args.tb_below {
        Some(n) => Cap::Below(n),
        None => Cap::Limit(args.tb_limit),
    };
    let in_range = |j: &Judged| {
        args.seeds
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&j.seeds()))
    };
    let chosen: Vec<Judged> = all.iter().filter(|j| in_range(j)).cloned().collect();
    // The positions looked at, for the messages: the file, or those of its
    // positions that --seeds keeps.
    let scope = match args.seeds {
        None => source.clone(),
        Some((lo, hi)) => {
            let seeds = if lo == hi {
                format!("{lo} seeds")
            } else {
                format!("{lo}..{hi} seeds")
            };
            if chosen.is_empty() {
                bail!("no position of {source} has {seeds} (--seeds)");
            }
            format!("{source} with {seeds}")
        }
    };
    let above: Vec<Judged> = chosen
        .iter()
        .filter(|j| cap.level(j.seeds()).is_some())
        .cloned()
        .collect();
    let skipped = chosen.len() - above.len();
    let (kept, left_out) = cap.kept_and_skipped();
    if above.is_empty() {
        bail!("no position of {scope} has {kept} ({})", cap.flag());
    }
    let positions = match args.limit {
        Some(n) => spread(&above, n as usize),
        None => above,
    };
    if skipped > 0 {
        output::note(format_args!(
            "{skipped} positions of {left_out} skipped ({})",
            cap.flag()
        ));
    }
    // The positions by the level their tables stop at, each group searched
    // by an engine with those tables.
    let mut groups: BTreeMap<u8, Vec<usize>> = BTreeMap::new();
    for (i, j) in positions.iter().enumerate() {
        if let Some(level) = cap.level(j.seeds()) {
            groups.entry(level).or_default().push(i);
        }
    }
    let tc = time_control(&args);
    let bar = progress(positions.len(), args.quiet);
    let errors = std::sync::atomic::AtomicUsize::new(0);
    // Seconds of searching, the tables' opening left out.
    let mut seconds = 0.0;
    let tick = |a: &Answer| {
        let lost = usize::from(a.verdict.is_error());
        let e = errors.fetch_add(lost, std::sync::atomic::Ordering::Relaxed) + lost;
        bar.set_message(format!("{e} errors"));
        bar.inc(1);
    };
    let mut answers: Vec<Option<Answer>> = vec![None; positions.len()];
    let mut name = String::new();
    // The highest first: a level missing for it is found before anything
    // runs (the others need fewer).
    for (level, members) in groups.iter().rev() {
        let factory = bar.suspend(|| engine(&args, *level))?;
        name = factory.name().to_string();
        let group: Vec<Judged> = members.iter().map(|&i| positions[i].clone()).collect();
        let started = Instant::now();
        let found = accuracy::run(
            &group,
            factory.as_ref(),
            tc,
            args.concurrency as usize,
            &tick,
        )
        .map_err(|e| anyhow::anyhow!("--engine: {e}"))?;
        seconds += started.elapsed().as_secs_f64();
        if found.len() != members.len() {
            bail!(
                "--engine: {} of {} positions answered",
                found.len(),
                members.len()
            );
        }
        for (&i, answer) in members.iter().zip(found) {
            answers[i] = Some(answer);
        }
    }
    let answers: Vec<Answer> = answers.into_iter().flatten().collect();
    bar.finish_and_clear();
    let tally = Tally::of(&answers);
    if args.json {
        output::line(serde_json::json!({
            "engine": name,
            "positions_file": source,
            "tb_limit": match cap { Cap::Limit(k) => Some(k), Cap::Below(_) => None },
            "tb_below": args.tb_below,
            "seeds": args.seeds.map(|(lo, hi)| [lo, hi]),
            "budget": tc.to_string(),
            "skipped": skipped,
            "seconds": seconds,
            "by_seeds": tally.by_seeds,
            "total": tally.total,
            "decisions": tally.total.decisions(),
            "errors": tally.total.errors(),
            "answers": answers,
        }));
        return Ok(());
    }
    output::line(format_args!(
        "{name}: {} positions of {source}, {tc}, {}",
        positions.len(),
        cap.describe()
    ));
    output::line(tally.text().trim_end());
    let t = &tally.total;
    output::line(format_args!(
        "dropped {} of {} forced wins, walked into {} of {} avoidable forced losses: {} of {} decisions ({:.1} %)",
        t.wins_dropped,
        t.wins,
        t.losses_walked_into,
        t.losses_avoidable,
        t.errors(),
        t.decisions(),
        t.error_rate()
    ));
    if t.faults > 0 {
        output::note(format_args!(
            "warning: {} positions without a legal answer (faults), not counted",
            t.faults
        ));
    }
    Ok(())
}
