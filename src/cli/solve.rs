//! `oware solve`: the exact value of a Mancala position and of each of its
//! first moves, by proof search (and the endgame tables when given).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Value, json};

use oware::Side;
use oware::mancala::solve::{Control, Endgame, NoTables, Progress, Range, Solution, Solver, Table};
use oware::mancala::{MancalaPosition, MancalaRules, MancalaTables, START_SEEDS};

use super::common::{Choice, RulesArgs, mancala_position, thread_pool};
use super::output;

/// Progress lines start after this long (short solves print none).
const QUIET_FOR: Duration = Duration::from_secs(2);
/// A long solve says how many boards it has searched this often.
const HEARTBEAT: Duration = Duration::from_secs(60);

/// Arguments of `oware solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// Position `p0-…-p11-S-N-T` (pits A–F then a–f, South's and North's
    /// stores, S or N to move), e.g. 3-3-3-3-3-3-3-3-3-3-3-3-0-0-S
    /// (default: the start of `--start-seeds`).
    #[arg(long)]
    position: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
    /// Mancala endgame table folder (`oware build --rules mancala`); lines
    /// reaching its levels close there.
    #[arg(long)]
    db: Option<PathBuf>,
    /// The largest table level used (seeds on the board).
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u64).range(0..=48))]
    tb_limit: u64,
    /// Transposition table size in MiB (1..=65536).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Worker threads: the first moves are solved in parallel; with
    /// --value-only the other threads help the one proving the value
    /// (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// Solve the position's value only, not each first move's.
    #[arg(long)]
    value_only: bool,
    /// Stop after this many seconds and print the bounds reached.
    #[arg(long, value_name = "SECS")]
    max_time: Option<f64>,
    /// Enhanced transposition cutoffs at boards with more seeds than the
    /// tables' level plus this (tuning).
    #[arg(long, hide = true, default_value_t = oware::mancala::solve::ETC_ABOVE)]
    etc_above: u8,
    /// Play the race to 25: the 25-seed stop in play, who wins (the
    /// default when the position holds more than 49 seeds, as the 5- and
    /// 7-seed starts do). With --db, the folder of the start's race tables.
    #[arg(long, conflicts_with = "no_stop")]
    stop: bool,
    /// The final store difference with the 25-seed stop set aside (Kalah's
    /// scoring; the default up to 49 seeds, where the stop never changes
    /// who wins).
    #[arg(long)]
    no_stop: bool,
    /// No progress lines on standard error.
    #[arg(long)]
    quiet: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Seeds in play up to which a store of 25 is a majority, so the stop
/// never changes who wins (§7.6).
const STOP_DECIDED: u32 = 49;

impl SolveArgs {
    /// The table folder asked for.
    pub fn db(&self) -> Option<&std::path::Path> {
        self.db.as_deref()
    }
    /// `--hash` in MiB.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// `--tb-limit`.
    pub fn tb_limit(&self) -> usize {
        self.tb_limit as usize
    }
    /// `--max-time` in seconds.
    pub fn max_time(&self) -> Option<f64> {
        self.max_time
    }
    /// `--value-only`.
    pub fn value_only(&self) -> bool {
        self.value_only
    }
    /// `--quiet`.
    pub fn quiet(&self) -> bool {
        self.quiet
    }
    /// `--json`.
    pub fn json(&self) -> bool {
        self.json
    }
}

/// Runs `oware solve`.
pub fn run(args: SolveArgs) -> Result<()> {
    let mut rules = match args.rules.choice()? {
        Choice::Mancala(rules) => rules,
        Choice::Oware(_) => bail!("solve plays mancala only (give --rules mancala)"),
    };
    let pos = mancala_position(args.position.as_deref(), rules)?;
    if args.rules.start_seeds.is_none()
        && let Some(k) = start_of(&pos)
    {
        // A position's seeds name its start: 60 seeds were five a house.
        rules.start_seeds = k;
    }
    if let Some(secs) = args.max_time
        && !(secs.is_finite() && secs > 0.0)
    {
        bail!("--max-time {secs}: give a positive number of seconds");
    }
    let pool = thread_pool(args.threads)?;
    let seeds = pos.total_seeds();
    if args.stop || (!args.no_stop && seeds > STOP_DECIDED) {
        return super::solve_race::run(&args, rules, &pos, &pool);
    }
    match &args.db {
        None => solve_with(&args, rules, &pos, &NoTables, None, &pool),
        Some(dir) => {
            let tables = MancalaTables::open_for_search(dir, rules, args.tb_limit as usize)
                .context("cannot open the tables")?;
            for rejected in tables.rejected() {
                output::note(format_args!("warning: table left closed: {rejected}"));
            }
            let level = tables.level();
            if tables.complete_up_to().is_none() {
                bail!(
                    "{}: no Mancala tables of the {} convention (`oware build --rules mancala{} --max-seeds 20 --db {}` builds them)",
                    dir.display(),
                    rules.capture_name(),
                    if rules.empty_capture {
                        " --empty-capture"
                    } else {
                        ""
                    },
                    dir.display()
                );
            }
            let describe = format!("levels 0..={level} ({})", rules.capture_name());
            if !args.quiet {
                output::note(format_args!("tables: {describe}"));
            }
            solve_with(&args, rules, &pos, &tables, Some(describe), &pool)
        }
    }
}

fn solve_with<E: Endgame>(
    args: &SolveArgs,
    rules: MancalaRules,
    pos: &MancalaPosition,
    endgame: &E,
    tables: Option<String>,
    pool: &rayon::ThreadPool,
) -> Result<()> {
    let table = Table::new(args.hash as usize);
    let control = Control::new();
    let me = pos.side_to_move();
    let quiet = args.quiet;
    let started = Instant::now();
    let progress = |p: Progress| {
        if quiet || p.elapsed < QUIET_FOR {
            return;
        }
        let what = p.mv.map_or("position".to_string(), |m| format!("move {m}"));
        output::note(format_args!(
            "{what}: {} ({} nodes, {:.1} s)",
            range_text(p.value),
            p.nodes,
            p.elapsed.as_secs_f64()
        ));
    };
    let solver = Solver::new(&table, endgame, &control).with_etc_above(args.etc_above);
    let done = AtomicBool::new(false);
    let solution = std::thread::scope(|scope| {
        // The watcher: stops the solve at --max-time and says how far a
        // long one has got.
        scope.spawn(|| {
            let deadline = args.max_time.map(Duration::from_secs_f64);
            let mut next_note = HEARTBEAT;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                let elapsed = started.elapsed();
                if deadline.is_some_and(|d| elapsed >= d) {
                    control.stop();
                }
                if elapsed >= next_note {
                    next_note += HEARTBEAT;
                    if !quiet {
                        output::note(format_args!(
                            "searching: {} nodes, {:.0} s",
                            control.nodes(),
                            elapsed.as_secs_f64()
                        ));
                    }
                }
            }
        });
        let solution = pool.install(|| solver.solve(pos, !args.value_only, &progress));
        done.store(true, Ordering::Relaxed);
        solution
    });
    if args.json {
        output::line(solution_json(pos, rules, &solution, tables.as_deref()));
        return Ok(());
    }
    output::line(format_args!("Position:  {pos}"));
    output::line(format_args!("Rules:     {}", rules_text(rules, pos)));
    output::line("Scoring:   final store difference under perfect play, no 25-seed stop");
    output::line(format_args!(
        "Value:     {} ({} for {me}, to move)",
        outcome_text(me, solution.value),
        range_text(solution.value)
    ));
    for m in &solution.moves {
        output::line(format_args!(
            "  {}  {:>9}  {}{}",
            m.mv,
            range_text(m.value),
            outcome_text(me, m.value),
            if m.again { "  (another go)" } else { "" }
        ));
    }
    let secs = solution.elapsed.as_secs_f64().max(1e-9);
    output::line(format_args!(
        "{} nodes in {secs:.2} s ({:.1} M nodes/s, {} threads), tables: {}{}",
        solution.nodes,
        solution.nodes as f64 / secs / 1e6,
        pool.current_num_threads(),
        tables.as_deref().unwrap_or("none"),
        if solution.stopped {
            " — stopped by --max-time: bounds only"
        } else {
            ""
        }
    ));
    Ok(())
}

/// `+10`, or `-2..+4` while the bounds have not met.
fn range_text(r: Range) -> String {
    match r.value() {
        Some(v) => format!("{v:+}"),
        None => format!("{:+}..{:+}", r.lower, r.upper),
    }
}

/// Who wins and by how much, from the value `r` for `me`.
fn outcome_text(me: Side, r: Range) -> String {
    let them = me.opponent();
    match r.value() {
        Some(0) => "draw".to_string(),
        Some(v) if v > 0 => format!("{me} wins by {v}"),
        Some(v) => format!("{them} wins by {}", -v),
        None if r.lower > 0 => format!("{me} wins by {}..{}", r.lower, r.upper),
        None if r.upper < 0 => format!("{them} wins by {}..{}", -r.upper, -r.lower),
        None => "not yet known".to_string(),
    }
}

fn range_json(r: Range) -> Value {
    json!({ "value": r.value(), "lower": r.lower, "upper": r.upper })
}

fn solution_json(
    pos: &MancalaPosition,
    rules: MancalaRules,
    s: &Solution,
    tables: Option<&str>,
) -> Value {
    let me = pos.side_to_move();
    let mut out = range_json(s.value);
    let moves: Vec<Value> = s
        .moves
        .iter()
        .map(|m| {
            let mut v = range_json(m.value);
            v["move"] = json!(m.mv.to_string());
            v["another_go"] = json!(m.again);
            v["result"] = json!(outcome_text(me, m.value));
            v
        })
        .collect();
    let best: Vec<String> = match s.value.value() {
        Some(v) => s
            .moves
            .iter()
            .filter(|m| m.value.value() == Some(v))
            .map(|m| m.mv.to_string())
            .collect(),
        None => vec![],
    };
    let extra = json!({
        "position": pos.to_string(),
        "rules": "mancala",
        "start_seeds": start_of(pos),
        "capture": rules.capture_name(),
        "to_move": me.letter().to_string(),
        "result": outcome_text(me, s.value),
        "moves": moves,
        "best": best,
        "solved": !s.stopped,
        "nodes": s.nodes,
        "time_ms": s.elapsed.as_millis() as u64,
        "tables": tables,
    });
    if let (Value::Object(o), Value::Object(e)) = (&mut out, extra) {
        o.extend(e);
    }
    out
}

/// The seeds a house of the start `pos`'s total of seeds comes from, if
/// it is a start's (12 × 3, 4, 5 or 7).
pub(super) fn start_of(pos: &MancalaPosition) -> Option<u8> {
    let total = pos.total_seeds();
    let k = u8::try_from(total / 12).ok()?;
    (total.is_multiple_of(12) && START_SEEDS.contains(&k)).then_some(k)
}

/// The `Rules:` line: the start's seeds a house when `pos` has a start's
/// total, else the seeds in play.
pub(super) fn rules_text(rules: MancalaRules, pos: &MancalaPosition) -> String {
    match start_of(pos) {
        Some(k) if k == rules.start_seeds => rules.to_string(),
        _ => {
            let capture = if rules.empty_capture {
                ", empty capture"
            } else {
                ""
            };
            format!("mancala ({} seeds in play{capture})", pos.total_seeds())
        }
    }
}
