//! The `oware` command line: parses arguments and calls the library.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};

use oware::ogn::GameRecord;
use oware::{Game, Position, Rules, Variant, format_moves, parse_moves, report};

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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            println!("oware — an Oware (Abapa) engine\n");
            println!("Run `oware --help` for every command.\n\n{EXAMPLES}");
            Ok(())
        }
        Some(Command::Show(args)) => show(args),
        Some(Command::Perft(args)) => perft(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
