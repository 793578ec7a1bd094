//! `oware match`: a match between two engines (the built-in engine with its
//! options, or any UCI engine), with Elo, SPRT and the series formats.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use oware::arena::engine::{TimeControl, parse_spec_for, parse_tc};
use oware::arena::game::ArenaGame;
use oware::arena::openings::{Opening, every_opening, parse_openings_for, random_openings_for};
use oware::arena::record::{RecordInfo, record};
use oware::arena::referee::GameSettings;
use oware::arena::runner::{MatchConfig, MatchSummary, run_match};
use oware::arena::series::Format;
use oware::arena::stats::Sprt;
use oware::mancala::{self, Mancala, MancalaRules, MancalaTables};
use oware::search::Oware;
use oware::{Rules, tb};

use super::common::{Choice, RulesArgs};
use super::interrupt;
use super::output;

/// The openings shipped with the engine (`benches/openings.txt`).
const OPENINGS: &str = include_str!("../../benches/openings.txt");

/// Arguments of `oware match`.
#[derive(Args)]
pub struct MatchArgs {
    /// Engine A: `self`, `self:key=value,…` (hash, threads, db, tb-limit,
    /// depth, reductions, capture-search, defer, eval, time, name) or
    /// `uci:COMMAND`.
    a: String,
    /// Engine B, as A.
    b: String,
    /// The most games (pairs: N/2); with --series, series are repeated
    /// until N games are played and each is capped at N games.
    #[arg(long)]
    games: Option<u32>,
    /// Sequential test `elo0,elo1[,alpha,beta]` on the pairs: stops when it
    /// decides.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    sprt: Option<String>,
    /// Play a series: first-to:N, first-to:N,lead:L, best-of:N, straight:N.
    #[arg(long)]
    series: Option<String>,
    /// Time per move in milliseconds (the default: 100).
    #[arg(long, conflicts_with_all = ["depth", "nodes", "tc"])]
    movetime: Option<u64>,
    /// Fixed depth per move.
    #[arg(long, conflicts_with_all = ["nodes", "tc"])]
    depth: Option<u32>,
    /// About N nodes per move (`go nodes N` for an external engine).
    #[arg(long, conflicts_with = "tc")]
    nodes: Option<u64>,
    /// A clock BASE+INC in seconds (e.g. 10+0.1): running out loses.
    #[arg(long, value_name = "BASE+INC")]
    tc: Option<String>,
    /// Engine B's time as a multiple of A's: its movetime, nodes, or clock
    /// base and increment (0.5: half the time).
    #[arg(
        long,
        value_name = "FACTOR",
        default_value_t = 1.0,
        conflicts_with = "depth"
    )]
    time_odds: f64,
    /// How far past its clock (ms) an engine may answer and not lose on time.
    #[arg(long, default_value_t = 50)]
    clock_margin: u64,
    /// How long past its time (ms) an external engine may take before it
    /// is taken to hang.
    #[arg(long, default_value_t = 1000)]
    hang_margin: u64,
    /// How long (ms) a depth or node limited move may take.
    #[arg(long, default_value_t = 60_000)]
    timeout: u64,
    /// Openings file (position strings or move lists, one a line, `#`
    /// comments), or `start` for the start position only (default: the
    /// shipped set, benches/openings.txt).
    #[arg(long, conflicts_with = "random_plies")]
    openings: Option<PathBuf>,
    /// Make openings of K random plies instead, kept when a depth-6 search
    /// scores them within one seed of level.
    #[arg(long, value_name = "K")]
    random_plies: Option<usize>,
    /// Seed for --random-plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate positions whose table entry is exact with these tables.
    #[arg(long)]
    db: Option<PathBuf>,
    /// End games after P plies, decided by the stores.
    #[arg(long, value_name = "P")]
    max_plies: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Write every game to this OGN file.
    #[arg(long)]
    ogn: Option<PathBuf>,
    /// Print the score so far to stderr every N games (a terminal shows a
    /// progress bar instead).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    report_every: Option<u32>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

fn time_control(args: &MatchArgs) -> Result<TimeControl> {
    Ok(match (args.depth, args.nodes, &args.tc) {
        (Some(d), _, _) => TimeControl::Depth(d.max(1)),
        (_, Some(n), _) => TimeControl::Nodes(n.max(1)),
        (_, _, Some(tc)) => parse_tc(tc).map_err(|e| anyhow!(e))?,
        _ => TimeControl::MoveTime(Duration::from_millis(args.movetime.unwrap_or(100).max(1))),
    })
}

/// What `oware match` does differently for each game: its default
/// openings and the tables its referee adjudicates with.
trait MatchGame: ArenaGame {
    /// The openings when none are given.
    fn default_openings(rules: Self::MatchRules) -> Result<Vec<Opening<Self::Position>>>;
    /// The tables of `--db DIR` for adjudication.
    fn referee_tables(dir: &std::path::Path, rules: Self::MatchRules) -> Result<Self::Tables>;
}

impl MatchGame for Oware {
    fn default_openings(rules: Rules) -> Result<Vec<Opening>> {
        parse_openings_for::<Oware>(OPENINGS, rules).map_err(|e| anyhow!("shipped openings: {e}"))
    }

    fn referee_tables(dir: &std::path::Path, rules: Rules) -> Result<tb::Tablebase> {
        if rules != Rules::of(rules.variant) {
            bail!(
                "--db adjudicates only under the default ending rules (no --no-capture-limit, --no-repetition)"
            );
        }
        if !rules.variant.has_tables() {
            bail!(
                "--db: {} has no endgame tables ({})",
                rules.variant,
                oware::rules::NO_TABLES
            );
        }
        if !dir.is_dir() {
            bail!("table folder {} not found", dir.display());
        }
        tb::Tablebase::open_for_search(dir, rules.variant, 48)
            .with_context(|| format!("cannot open the tables in {}", dir.display()))
    }
}

impl MatchGame for Mancala {
    /// Every line of two moves from the start kept near level by a depth-6
    /// search (the shipped openings are Oware's).
    fn default_openings(rules: MancalaRules) -> Result<Vec<Opening<mancala::MancalaPosition>>> {
        Ok(every_opening::<Mancala>(2, 6, 100, rules))
    }

    /// The tables of the game's capture convention in `dir` (or its
    /// `mancala` subfolder).
    fn referee_tables(dir: &std::path::Path, rules: MancalaRules) -> Result<MancalaTables> {
        let dir = mancala::tables::search_folder(dir, true);
        if !dir.is_dir() {
            bail!("table folder {} not found", dir.display());
        }
        let tables = MancalaTables::open_for_search(&dir, rules, 48)
            .with_context(|| format!("cannot open the tables in {}", dir.display()))?;
        if tables.levels().present().is_empty() {
            bail!("{}", mancala::tables::none_found(&dir, rules));
        }
        Ok(tables)
    }
}

/// Runs `oware match`.
pub fn run(args: MatchArgs) -> Result<()> {
    match args.rules.choice()? {
        Choice::Oware(rules) => play::<Oware>(&args, rules),
        Choice::Mancala(rules) => play::<Mancala>(&args, rules),
    }
}

/// Plays the match of `args`, a match of `G` under `rules`.
fn play<G: MatchGame>(args: &MatchArgs, rules: G::MatchRules) -> Result<()> {
    let format: Option<Format> = match &args.series {
        Some(s) => Some(s.parse().map_err(|e| anyhow!("{e}"))?),
        None => None,
    };
    let sprt: Option<Sprt> = match &args.sprt {
        Some(s) => Some(s.parse()?),
        None => None,
    };
    let games = match (args.games, format) {
        (Some(0), _) => bail!("--games must be at least 1"),
        (Some(n), _) => n,
        (None, Some(_)) => 1000,
        (None, None) if sprt.is_some() => 20_000,
        (None, None) => 100,
    };
    let tc = time_control(args)?;
    let openings: Vec<Opening<G::Position>> = match (&args.openings, args.random_plies) {
        (Some(path), _) if path.as_os_str() == "start" => vec![Opening::start()],
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the openings {}", path.display()))?;
            parse_openings_for::<G>(&text, rules)
                .map_err(|e| anyhow!("openings {}: {e}", path.display()))?
        }
        (None, Some(plies)) => {
            let count = (games as usize).div_ceil(2).clamp(1, 1000);
            random_openings_for::<G>(count, plies, 6, 100, rules, args.seed)
        }
        (None, None) => G::default_openings(rules)?,
    };
    let a = parse_spec_for::<G>(&args.a, rules).map_err(|e| anyhow!(e))?;
    let b = parse_spec_for::<G>(&args.b, rules).map_err(|e| anyhow!(e))?;
    if !(args.time_odds.is_finite() && args.time_odds > 0.0 && args.time_odds <= 1000.0) {
        bail!("--time-odds must be a factor above 0 and at most 1000");
    }
    let mut settings = GameSettings::<G>::new(rules, tc);
    settings.odds = args.time_odds;
    settings.clock_margin = Duration::from_millis(args.clock_margin);
    settings.hang_margin = Duration::from_millis(args.hang_margin);
    settings.untimed_wait = Duration::from_millis(args.timeout);
    settings.max_plies = args.max_plies;
    if let Some(dir) = &args.db {
        settings.tables = Some(Arc::new(G::referee_tables(dir, rules)?));
    }
    let ogn = match &args.ogn {
        Some(path) => {
            Some(BufWriter::new(File::create(path).with_context(|| {
                format!("cannot create {}", path.display())
            })?))
        }
        None => None,
    };
    let config = MatchConfig {
        a,
        b,
        settings,
        openings,
        games,
        concurrency: args.concurrency as usize,
        sprt,
        series: format,
        series_cap: games,
        max_series: match (format, args.games) {
            (Some(_), None) => Some(1),
            _ => None,
        },
    };
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(u64::from(match format {
            Some(_) if args.games.is_none() => format.and_then(series_length).unwrap_or(0),
            _ => games,
        }));
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let margin = matches!(tc, TimeControl::Clock { .. }).then_some(config.settings.clock_margin);
    let report_every = args
        .report_every
        .filter(|_| !std::io::stderr().is_terminal());
    // What the games have given so far, shared with the watcher of Ctrl-C,
    // which prints it: the callback holds it while it writes a record, so
    // an interruption never cuts one.
    let shared = Mutex::new(Progress {
        ogn,
        write_error: None,
        written: 0,
        summary: MatchSummary {
            a: config.a.name().to_string(),
            b: config.b.name().to_string(),
            ..MatchSummary::default()
        },
    });
    let finished = std::sync::atomic::AtomicBool::new(false);
    interrupt::install();
    let summary = std::thread::scope(|scope| {
        scope.spawn(|| watch_for_interruption(&shared, &finished, &bar, args.json));
        // Ends the watcher however the match ends, a panic included.
        let _finished = SetOnDrop(&finished);
        run_match(&config, |report, summary| {
            let mut progress = shared.lock().unwrap_or_else(|e| e.into_inner());
            // A game that ends after the signal may have ended by it (an
            // external engine in the same process group killed by the
            // Ctrl-C): it is dropped with those in play.
            if interrupt::requested() {
                return ControlFlow::Break(());
            }
            let progress = &mut *progress;
            progress.summary = summary.clone();
            // After a failed write nothing more goes to the file: a record
            // cut short would otherwise sit between whole ones.
            if let Some(out) = progress
                .ogn
                .as_mut()
                .filter(|_| progress.write_error.is_none())
            {
                let (south, north) = match report.a_side {
                    oware::Side::South => (&summary.a, &summary.b),
                    oware::Side::North => (&summary.b, &summary.a),
                };
                let [south_tc, north_tc] = config
                    .settings
                    .time_controls(report.a_side)
                    .map(|tc| tc.to_string());
                let rec = record(
                    &report.played,
                    &RecordInfo {
                        event: "oware match",
                        round: report.number,
                        south,
                        north,
                        time_controls: [&south_tc, &north_tc],
                        clock_margin: margin,
                    },
                );
                // Each game reaches the file when it ends: a match cut short
                // keeps every game it finished. One that cannot be written
                // (a full disk) stops the match.
                if let Err(e) = write!(out, "{rec}\n\n").and_then(|()| out.flush()) {
                    progress.write_error = Some(e);
                    return ControlFlow::Break(());
                }
                progress.written += 1;
            }
            let msg = score_so_far(summary);
            let games = summary.wdl.games();
            if report_every.is_some_and(|n| games % n == 0) {
                output::note(format_args!("{games} games: {msg}"));
            }
            bar.set_position(u64::from(games));
            bar.set_message(msg);
            ControlFlow::Continue(())
        })
    })
    .map_err(|e| anyhow!(e))?;
    bar.finish_and_clear();
    let mut progress = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if interrupt::requested() {
        // The signal came as the match ended, or its callback saw it first.
        report_interruption(&mut progress, args.json);
    }
    // The summary first, even when the records failed: the games were
    // played.
    print_summary(&summary, args.json, false);
    if let (Some(mut out), Some(path)) = (progress.ogn, &args.ogn) {
        if let Some(e) = progress.write_error {
            // What the failed write left in the buffer is dropped, not
            // written after the whole records.
            drop(out.into_parts());
            bail!(
                "cannot write {}: {e} (the match stopped; {} of its {} games are in it)",
                path.display(),
                progress.written,
                summary.wdl.games()
            );
        }
        out.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// What a match has played so far.
struct Progress {
    ogn: Option<BufWriter<File>>,
    write_error: Option<std::io::Error>,
    written: u32,
    summary: MatchSummary,
}

/// Sets its flag when dropped.
struct SetOnDrop<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The score line of the progress bar and of `--report-every`.
fn score_so_far(summary: &MatchSummary) -> String {
    let w = summary.wdl;
    let mut msg = format!("+{} ={} -{}", w.wins, w.draws, w.losses);
    if let Some(elo) = summary.pairs.elo().or(w.elo()) {
        msg.push_str(&format!("  Elo {:+.1} ± {:.1}", elo.elo, elo.margin()));
    }
    if let Some((_, llr, _)) = summary.sprt {
        msg.push_str(&format!("  LLR {llr:.2}"));
    }
    msg
}

/// Prints the summary, as text lines or one JSON object.
fn print_summary(summary: &MatchSummary, json: bool, interrupted: bool) {
    if json {
        let mut value = summary.to_json();
        value["interrupted"] = serde_json::Value::Bool(interrupted);
        output::line(value);
    } else {
        for line in summary.lines() {
            output::line(line);
        }
        if interrupted {
            output::line(format!(
                "Interrupted: {} finished; the games in play were dropped",
                games_phrase(summary.wdl.games())
            ));
        }
    }
}

/// `1 game`, `2 games`.
fn games_phrase(n: u32) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

/// Until the match has finished: on Ctrl-C (or SIGTERM), prints the summary
/// of the games finished so far and ends the process with status 128 + the
/// signal (the games in play are dropped; the records file holds every
/// finished one).
fn watch_for_interruption(
    shared: &Mutex<Progress>,
    finished: &std::sync::atomic::AtomicBool,
    bar: &ProgressBar,
    json: bool,
) {
    while !finished.load(std::sync::atomic::Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if !interrupt::requested() {
            continue;
        }
        let mut progress = shared.lock().unwrap_or_else(|e| e.into_inner());
        if finished.load(std::sync::atomic::Ordering::Relaxed) {
            // The match ended before the signal was seen: it is whole.
            return;
        }
        bar.finish_and_clear();
        report_interruption(&mut progress, json);
    }
}

/// After Ctrl-C (or SIGTERM): prints the summary of the games finished and
/// ends the process with status 128 + the signal.
fn report_interruption(progress: &mut Progress, json: bool) -> ! {
    // A record is whole in the buffer unless its write failed: then
    // nothing more goes to the file.
    if let (Some(out), None) = (progress.ogn.as_mut(), &progress.write_error) {
        let _ = out.flush();
    }
    print_summary(&progress.summary, json, true);
    let games = progress.summary.wdl.games();
    match &progress.write_error {
        Some(e) => output::note(format_args!(
            "interrupted, after the records stopped: {e} ({} of the {} finished are in the file)",
            progress.written,
            games_phrase(games)
        )),
        None => output::note(format_args!(
            "interrupted: the summary is of the {} finished; the games in play are dropped",
            games_phrase(games)
        )),
    }
    std::process::exit(interrupt::status());
}

/// The most games a series of `format` lasts, if bounded by itself.
fn series_length(format: Format) -> Option<u32> {
    match format {
        Format::BestOf(n) => Some(n),
        Format::FirstTo { wins, .. } => Some(2 * wins - 1),
        Format::Straight(_) => None,
    }
}
