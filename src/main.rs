//! The `oware` command line: parses arguments and calls the library.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use oware::ogn::GameRecord;
use oware::{Game, Position, Rules, Variant, format_moves, parse_moves, report, search, tb};

const EXAMPLES: &str = "Examples:
  oware show                                   the start position
  oware show --moves FfBe                      after four moves
  oware show 0-0-0-0-0-1-0-0-0-0-0-0-20-27-S --json
  oware perft --depth 9                        count leaves 9 plies deep";

/// An Oware (Abapa) engine built around retrograde endgame databases.
#[derive(Parser)]
#[command(name = "oware", version, after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Show a position (after optional moves): board, legal moves, status.
    Show(ShowArgs),
    /// Count the leaves of the game tree at a fixed depth.
    Perft(PerftArgs),
    /// Build endgame tables, level by level (resumable).
    Build(BuildArgs),
    /// What the tables say about a position and each of its moves.
    Probe(ProbeArgs),
    /// Re-check table files: header, checksum and fixpoint equations.
    Verify(VerifyArgs),
    /// Per-level statistics of the tables.
    Stats(StatsArgs),
    /// Search a position and print the best move.
    Bestmove(BestmoveArgs),
    /// A score and principal variation for every legal move.
    Analyze(BestmoveArgs),
    /// Search a fixed suite of positions and print node counts and speed.
    Bench(BenchArgs),
    /// Speak the engine protocol of the Aualé GUI on stdin/stdout.
    Uci(UciArgs),
    /// Play the engine against itself with one search technique switched.
    Match(MatchArgs),
}

#[derive(Args)]
struct MatchArgs {
    /// The technique engine B switches (on if the engine has it off, off if
    /// on): reductions or capture-search.
    #[arg(long)]
    toggle: String,
    /// Search depth per move.
    #[arg(long, default_value_t = 8, conflicts_with = "nodes")]
    depth: u32,
    /// Search about this many nodes per move instead (fair to techniques
    /// that save nodes).
    #[arg(long)]
    nodes: Option<u64>,
    /// Stop games after this many plies (decided by the stores).
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

#[derive(Args)]
struct UciArgs {
    /// Rule set to play.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Endgame table folder (used when it exists; option TablePath).
    #[arg(long, default_value = "databases")]
    db: PathBuf,
}

#[derive(Args, Clone)]
struct EngineArgs {
    /// Search threads (1..=256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Transposition table size in MiB (1..=65536).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Endgame table folder (used when it exists).
    #[arg(long, default_value = "databases")]
    db: PathBuf,
    /// Do not use endgame tables.
    #[arg(long)]
    no_db: bool,
    /// The largest level (seeds on the board) the search probes; higher
    /// levels are left closed (see the README).
    #[arg(long, default_value_t = tb::SEARCH_LEVEL_LIMIT, value_parser = clap::value_parser!(u64).range(0..=48))]
    tb_limit: u64,
}

#[derive(Args)]
struct BestmoveArgs {
    /// Position string or `startpos` (the default).
    position: Option<String>,
    /// Moves played from the position (their history counts for repetitions).
    #[arg(long, value_name = "LIST")]
    moves: Option<String>,
    /// Search to this depth.
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search for this many milliseconds (default 3000 when no depth is given).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Args)]
struct BenchArgs {
    /// Search each position to this depth (default 14).
    #[arg(long, conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position for this many milliseconds instead.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Args)]
struct BuildArgs {
    /// Build levels 0..=N (seeds on the board).
    #[arg(long, value_name = "N")]
    max_seeds: usize,
    /// Rule set the tables are for.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Folder for the table files.
    #[arg(long, default_value = "databases")]
    dir: PathBuf,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct ProbeArgs {
    /// Position string.
    position: String,
    /// Rule set of the tables.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Folder of the table files.
    #[arg(long, default_value = "databases")]
    dir: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct VerifyArgs {
    /// Folder of the table files.
    #[arg(long, default_value = "databases")]
    dir: PathBuf,
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
}

#[derive(Args)]
struct StatsArgs {
    /// Folder of the table files.
    #[arg(long, default_value = "databases")]
    dir: PathBuf,
    /// Rule set of the tables.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Clone)]
struct RulesArgs {
    /// Rule set: abapa, grand-slam-forbidden, capture-and-end or awari.
    #[arg(long, default_value = "abapa")]
    rules: Variant,
    /// End the game after K half-moves without a capture.
    #[arg(long, value_name = "K")]
    no_capture_limit: Option<u32>,
    /// Do not end the game when a position repeats.
    #[arg(long)]
    no_repetition: bool,
}

impl RulesArgs {
    fn rules(&self) -> Rules {
        let mut rules = Rules::of(self.rules).with_no_capture_limit(self.no_capture_limit);
        rules.repetition = !self.no_repetition;
        rules
    }
}

#[derive(Args)]
struct ShowArgs {
    /// Position string `p0-…-p11-S-N-T` or `startpos` (the default).
    position: Option<String>,
    /// Moves to play first, concatenated (`FfBe`) or spaced (`"F f B e"`).
    #[arg(long, value_name = "LIST")]
    moves: Option<String>,
    /// Read the game from an OGN record instead (its FEN tag and moves).
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    ogn: Option<std::path::PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Print the JSON object for the start and after every move (JSON Lines).
    #[arg(long, conflicts_with = "json")]
    trace: bool,
    /// Print the game as an OGN record.
    #[arg(long, conflicts_with_all = ["json", "trace"])]
    emit_ogn: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

#[derive(Args)]
struct PerftArgs {
    /// Position string or `startpos` (the default).
    position: Option<String>,
    /// Depth in half-moves.
    #[arg(long, short)]
    depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    rules: RulesArgs,
}

fn parse_position(text: Option<&str>) -> Result<Position> {
    match text {
        None | Some("startpos") => Ok(Position::START),
        Some(s) => s.parse().with_context(|| format!("bad position '{s}'")),
    }
}

fn show(args: ShowArgs) -> Result<()> {
    let rules = args.rules.rules();
    let (start, mut moves) = match &args.ogn {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let record = GameRecord::parse(&text)
                .with_context(|| format!("bad OGN record {}", path.display()))?;
            record.replay(rules)?; // the moves and their capture marks (`a+2`)
            (record.start()?, record.moves)
        }
        None => (parse_position(args.position.as_deref())?, Vec::new()),
    };
    if let Some(list) = &args.moves {
        moves.extend(parse_moves(list).context("bad move list")?);
    }
    let mut game = Game::new(start, rules);
    if args.trace {
        println!("{}", report::game_json(&game));
    }
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .with_context(|| format!("move {} ({mv}) cannot be played", i + 1))?;
        if args.trace {
            println!("{}", report::game_json(&game));
        }
    }
    if args.json {
        println!("{}", report::game_json(&game));
    } else if args.emit_ogn {
        print!(
            "{}",
            GameRecord::from_game(&game, &[("Event", "oware show")])
        );
    } else if !args.trace {
        print!("{}", report::game_text(&game));
    }
    Ok(())
}

fn perft(args: PerftArgs) -> Result<()> {
    let rules = args.rules.rules();
    let pos = parse_position(args.position.as_deref())?;
    let pool = thread_pool(args.threads)?;
    let started = Instant::now();
    let result = pool.install(|| oware::divide(&pos, args.depth, &rules));
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    if args.divide {
        for (mv, n) in &result.per_move {
            println!("{}: {n}", format_moves(&[*mv]));
        }
    }
    println!(
        "perft {} = {} leaves, {} nodes in {secs:.3} s ({:.1} M leaves/s, {:.1} M nodes/s, {} threads)",
        args.depth,
        result.leaves,
        result.nodes,
        result.leaves as f64 / secs / 1e6,
        result.nodes as f64 / secs / 1e6,
        pool.current_num_threads()
    );
    Ok(())
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")
}

fn build(args: BuildArgs) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let opts = tb::BuildOptions {
        dir: &args.dir,
        variant: args.rules,
        max_seeds: args.max_seeds,
        progress: !args.quiet && std::io::stderr().is_terminal(),
    };
    println!(
        "building {} tables, levels 0..={} in {} with {} threads",
        args.rules,
        args.max_seeds,
        args.dir.display(),
        pool.current_num_threads()
    );
    let started = Instant::now();
    let summaries =
        pool.install(|| tb::build(&opts, |s| println!("{}", s.describe(args.rules))))?;
    let boards: u64 = summaries.iter().map(|s| s.boards).sum();
    println!(
        "done: {boards} boards in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn open_tables(dir: &std::path::Path, rules: Variant) -> Result<tb::Tablebase> {
    tb::Tablebase::open(dir, rules).context("cannot open the tables")
}

fn probe(args: ProbeArgs) -> Result<()> {
    let pos = parse_position(Some(&args.position))?;
    let tables = open_tables(&args.dir, args.rules)?;
    let report = tb::probe::probe(&tables, &pos)?;
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", tb::probe::probe_text(&report));
    }
    Ok(())
}

fn verify(args: VerifyArgs) -> Result<()> {
    let pool = thread_pool(args.threads)?;
    let tables = open_tables(&args.dir, args.rules)?;
    let levels = match args.level {
        Some(level) => vec![level],
        None => tb::verify::present_levels(&tables),
    };
    if levels.is_empty() {
        anyhow::bail!("no {} tables in {}", args.rules, args.dir.display());
    }
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
        println!(
            "level {level:>2}: ok (header, checksum, {checked} boards re-checked) in {:.2} s",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

fn stats(args: StatsArgs) -> Result<()> {
    let tables = open_tables(&args.dir, args.rules)?;
    let levels = tb::verify::stats(&tables);
    if args.json {
        let json = serde_json::json!({"rules": args.rules.name(), "levels": levels});
        println!("{json}");
        return Ok(());
    }
    for l in &levels {
        println!("{}", l.describe());
    }
    Ok(())
}

fn make_engine(args: &EngineArgs, variant: Variant) -> Result<search::Engine> {
    let tables = if args.no_db || !args.db.is_dir() {
        None
    } else {
        let tables = tb::Tablebase::open_for_search(&args.db, variant, args.tb_limit as usize)
            .context("cannot open the tables")?;
        tables.complete_up_to().map(|_| std::sync::Arc::new(tables))
    };
    Ok(search::Engine::new(
        args.hash as usize,
        args.threads as usize,
        tables,
    ))
}

fn game_from(position: Option<&str>, moves: Option<&str>, rules: Rules) -> Result<Game> {
    let mut game = Game::new(parse_position(position)?, rules);
    if let Some(list) = moves {
        for (i, mv) in parse_moves(list)
            .context("bad move list")?
            .into_iter()
            .enumerate()
        {
            game.play(mv)
                .with_context(|| format!("move {} ({mv}) cannot be played", i + 1))?;
        }
    }
    Ok(game)
}

fn limits_from(depth: Option<u32>, movetime: Option<u64>, default_ms: u64) -> search::Limits {
    match (depth, movetime) {
        (Some(d), _) => search::Limits::depth(d),
        (None, ms) => search::Limits::movetime(Duration::from_millis(ms.unwrap_or(default_ms))),
    }
}

fn bestmove(args: BestmoveArgs) -> Result<()> {
    let rules = args.rules.rules();
    let game = game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
    let engine = make_engine(&args.engine, rules.variant)?;
    let limits = limits_from(args.depth, args.movetime, 3000);
    let json = args.json;
    let result = engine.search(&game, &limits, |it| {
        if !json {
            println!("{}", search::report::iteration_line(it));
        }
    })?;
    if json {
        println!("{}", search::report::result_json(&result));
    } else {
        let best = result.best.map_or("none".to_string(), |m| m.to_string());
        println!("bestmove {best}");
    }
    Ok(())
}

fn analyze(args: BestmoveArgs) -> Result<()> {
    let rules = args.rules.rules();
    let game = game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
    let engine = make_engine(&args.engine, rules.variant)?;
    // Each reply is searched one ply less deep than asked.
    let limits = limits_from(
        args.depth.map(|d| d.saturating_sub(1).max(1)),
        args.movetime,
        1000,
    );
    let rows = search::analyze::analyze(&engine, &game, &limits)?;
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .map(|r| {
                serde_json::json!({"move": r.mv.to_string(), "score": f64::from(r.score) / 100.0,
                    "depth": r.depth, "pv": format_moves(&r.pv)})
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
    } else {
        for r in rows {
            println!(
                "{}  {:>11}  depth {:>2}  pv {}",
                r.mv,
                search::report::format_score(r.score),
                r.depth,
                format_moves(&r.pv)
            );
        }
    }
    Ok(())
}

fn bench(args: BenchArgs) -> Result<()> {
    let engine = make_engine(&args.engine, Variant::Abapa)?;
    let depth = Some(args.depth.unwrap_or(14)).filter(|_| args.movetime.is_none());
    let limits = limits_from(depth, args.movetime, 1000);
    let totals = search::bench::run(&engine, &limits, |i, name, r| {
        println!(
            "{:>2} {name:<14} depth {:>2}  nodes {:>10}  time {:>6} ms  nps {:>9}  best {}  score {}",
            i + 1,
            r.last.depth,
            r.last.nodes,
            r.last.time.as_millis(),
            search::report::nps(r.last.nodes, r.last.time),
            r.best.map_or("-".into(), |m| m.to_string()),
            search::report::format_score(r.last.score),
        );
    })?;
    println!(
        "total: {} positions, {} nodes, {:.3} s, {} nps, mean depth {:.1}",
        totals.positions,
        totals.nodes,
        totals.time.as_secs_f64(),
        search::report::nps(totals.nodes, totals.time),
        totals.depths as f64 / totals.positions as f64
    );
    Ok(())
}

fn self_match(args: MatchArgs) -> Result<()> {
    let a = search::Engine::new(16, 1, None);
    let mut b = search::Engine::new(16, 1, None);
    match args.toggle.as_str() {
        "reductions" => b.features.reductions = !b.features.reductions,
        "capture-search" => {
            b.features.capture_plies = if b.features.capture_plies > 0 { 0 } else { 4 }
        }
        other => anyhow::bail!("unknown technique '{other}' (reductions or capture-search)"),
    }
    // Every position of the bench suite, each played with both colours.
    let openings: Vec<Position> = search::bench::suite().into_iter().map(|(_, p)| p).collect();
    let started = Instant::now();
    let (limits, budget) = match args.nodes {
        Some(n) => (
            search::Limits {
                nodes: Some(n),
                ..Default::default()
            },
            format!("{n} nodes"),
        ),
        None => (
            search::Limits::depth(args.depth),
            format!("depth {}", args.depth),
        ),
    };
    let score = search::selfplay::play_match(&a, &b, &openings, &limits, args.max_plies);
    println!(
        "engine vs engine with {} switched: +{} ={} -{} ({:.1}% for the engine) at {budget} a move in {:.1} s",
        args.toggle,
        score.wins,
        score.draws,
        score.losses,
        100.0 * score.share(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as clap formats them.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // A usage error, on one line: what clap says before its usage hint.
        Err(e) => {
            let text = e.to_string();
            let what: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            eprintln!("{}", what.join(" "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => {
            println!("oware — an Oware (Abapa) engine\n");
            println!("Run `oware --help` for every command.\n\n{EXAMPLES}");
            Ok(())
        }
        Some(Command::Show(args)) => show(args),
        Some(Command::Perft(args)) => perft(args),
        Some(Command::Build(args)) => build(args),
        Some(Command::Probe(args)) => probe(args),
        Some(Command::Verify(args)) => verify(args),
        Some(Command::Stats(args)) => stats(args),
        Some(Command::Bestmove(args)) => bestmove(args),
        Some(Command::Analyze(args)) => analyze(args),
        Some(Command::Bench(args)) => bench(args),
        Some(Command::Match(args)) => self_match(args),
        Some(Command::Uci(args)) => {
            let stdin = std::io::stdin();
            oware::uci::run(stdin, std::io::stdout(), Rules::of(args.rules), args.db);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
