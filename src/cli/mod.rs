//! The commands: one file each, with its arguments and what it runs.

mod accuracy;
mod analyze;
mod arena;
mod bench;
mod bestmove;
mod book;
mod build;
mod common;
mod completions;
mod compress;
mod interrupt;
mod man;
pub mod output;
mod perft;
mod probe;
mod serve;
mod show;
mod solve;
mod solve_race;
mod stats;
mod tables;
mod tune;
mod tune_network;
mod uci;
mod verify;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Examples shown after the help.
pub const EXAMPLES: &str = "Examples:
  oware show                                   the start position
  oware show --moves FfBe                      after four moves
  oware show 0-0-0-0-0-1-0-0-0-0-0-0-20-27-S --json
  oware perft --depth 9                        count leaves 9 plies deep
  oware bestmove --movetime 2000               the best move from the start
  oware bestmove --rules mancala --depth 20    the same in Arabic Mancala
  oware build --max-seeds 16                   endgame tables of levels 0..16
  oware serve                                  play in the browser at http://127.0.0.1:8080";

/// An Oware (Abapa) engine built around retrograde endgame databases.
#[derive(Parser)]
#[command(name = "oware", version, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Show a position (after optional moves): board, legal moves, status.
    Show(show::ShowArgs),
    /// Count the leaves of the game tree at a fixed depth.
    Perft(perft::PerftArgs),
    /// Build endgame tables, level by level (resumable).
    Build(build::BuildArgs),
    /// What the tables say about a position and each of its moves.
    Probe(probe::ProbeArgs),
    /// Re-check table files: header, checksum and fixpoint equations.
    Verify(verify::VerifyArgs),
    /// Per-level statistics of the tables.
    Stats(stats::StatsArgs),
    /// Convert raw tables (and older compact ones) to the compact format,
    /// level by level (resumable).
    Compress(compress::CompressArgs),
    /// The exact value of a Mancala position and of each first move.
    Solve(solve::SolveArgs),
    /// Search a position and print the best move.
    Bestmove(bestmove::SearchArgs),
    /// A score and principal variation for every legal move.
    Analyze(bestmove::SearchArgs),
    /// Grow an opening book, or show what it holds.
    Book(book::BookArgs),
    /// Search a fixed suite of positions and print node counts and speed.
    Bench(bench::BenchArgs),
    /// How often an engine with capped tables drops a forced win or walks
    /// into a forced loss, on a shipped set of positions judged by the full
    /// tables; `accuracy generate` makes the set.
    Accuracy(accuracy::AccuracyArgs),
    /// Speak the engine protocol of the Aualé GUI on stdin/stdout.
    Uci(uci::UciArgs),
    /// Play a match between two engines (built-in or UCI): Elo, SPRT, series.
    Match(arena::MatchArgs),
    /// Play in the browser: a web page and a JSON API on this machine.
    Serve(serve::ServeArgs),
    /// Fit the evaluation's weights to positions of known result (tables,
    /// self-play) and write them to a file for --eval.
    Tune(tune::TuneArgs),
    /// Print the completion script of a shell (bash, zsh, fish, powershell,
    /// elvish).
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff): `oware man > oware.1`.
    Man(man::ManArgs),
}

/// A usage error of clap on one line: what it says before its usage hint,
/// its tips ("a similar argument exists: '--depth'") kept, the pointer to
/// `--help` left out.
pub fn one_line_error(text: &str) -> String {
    let before_usage = text.split("\nUsage:").next().unwrap_or_default();
    before_usage
        .split("\n\n")
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| !paragraph.is_empty() && !paragraph.starts_with("For more information"))
        .collect::<Vec<_>>()
        .join("; ")
}

impl Cli {
    /// Whether the command recovers from a panic: only the web board does
    /// (its catch-panic layer answers 500, its engine pool restarts a
    /// search). Every other command should rather end at once, as a crash,
    /// than leave a GUI or a match waiting for an answer.
    pub fn recovers_from_panics(&self) -> bool {
        matches!(self.command, Some(Command::Serve(_)))
    }

    /// Runs the command.
    pub fn run(self) -> Result<()> {
        match self.command {
            None => {
                output::line("oware — an Oware (Abapa) engine\n");
                output::line(format_args!(
                    "Run `oware --help` for every command.\n\n{EXAMPLES}"
                ));
                Ok(())
            }
            Some(Command::Show(args)) => show::run(args),
            Some(Command::Perft(args)) => perft::run(args),
            Some(Command::Build(args)) => build::run(args),
            Some(Command::Probe(args)) => probe::run(args),
            Some(Command::Verify(args)) => verify::run(args),
            Some(Command::Stats(args)) => stats::run(args),
            Some(Command::Compress(args)) => compress::run(args),
            Some(Command::Solve(args)) => solve::run(args),
            Some(Command::Bestmove(args)) => bestmove::run(args),
            Some(Command::Analyze(args)) => analyze::run(args),
            Some(Command::Bench(args)) => bench::run(args),
            Some(Command::Accuracy(args)) => accuracy::run(args),
            Some(Command::Book(args)) => book::run(args),
            Some(Command::Uci(args)) => uci::run(args),
            Some(Command::Match(args)) => arena::run(args),
            Some(Command::Serve(args)) => serve::run(args),
            Some(Command::Tune(args)) => tune::run(args),
            Some(Command::Completions(args)) => completions::run(args),
            Some(Command::Man(args)) => man::run(args),
        }
    }
}
