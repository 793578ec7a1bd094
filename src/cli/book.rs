//! `oware book`: grow an opening book, and show what it holds.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;

use oware::book::{self, Book, build::Growth};
use oware::{Position, Rules, Variant, search};

use super::common::{POSITION_HELP, parse_position};
use super::output;

/// The book file the commands use when none is given.
pub const DEFAULT_BOOK: &str = "databases/book.owb";

/// Arguments of `oware book`.
#[derive(Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand)]
enum BookCommand {
    /// Grow a book from the start (resumes the file if it exists).
    Build(BuildBookArgs),
    /// The moves the book has for a position, with their values.
    Show(ShowBookArgs),
}

#[derive(Args)]
struct BuildBookArgs {
    /// The book file (grown further if it exists).
    #[arg(long, default_value = DEFAULT_BOOK)]
    out: PathBuf,
    /// Stop when the book holds this many positions.
    #[arg(long, default_value_t = 2000)]
    positions: usize,
    /// Depth of the searches that score the book's leaves (a new book).
    #[arg(long, default_value_t = 16)]
    depth: u32,
    /// The cost of a ply from the start, in centiseeds: small grows the
    /// main lines deep, large grows the book wide.
    #[arg(long, default_value_t = 40)]
    step: i32,
    /// Transposition table size in MiB of the searches.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Save the book every this many expansions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    save_every: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

#[derive(Args)]
struct ShowBookArgs {
    #[arg(help = POSITION_HELP, value_name = "POSITION")]
    position: Option<String>,
    /// The book file.
    #[arg(long, default_value = DEFAULT_BOOK)]
    book: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `oware book`.
pub fn run(args: BookArgs) -> Result<()> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Show(a) => show(a),
    }
}

fn build(args: BuildBookArgs) -> Result<()> {
    search::tt::check_size(args.hash)?;
    let rules = Rules::ABAPA;
    let mut book = if args.out.exists() {
        let book = book::file::load(&args.out, rules.variant).context("cannot resume the book")?;
        output::note(format_args!(
            "resuming {} ({} positions, depth {})",
            args.out.display(),
            book.nodes.len(),
            book.depth
        ));
        book
    } else {
        Book::new(rules.variant, args.depth)
    };
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let engine = search::Engine::new(args.hash, 1, None);
    let bar = if !args.quiet && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(args.positions as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{msg:>12} [{bar:30}] {pos}/{len} positions {per_sec} eta {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = Instant::now();
    let mut expansions = 0;
    let mut saved: Result<()> = Ok(());
    let growth = Growth {
        step: args.step,
        positions: args.positions,
    };
    book::build::grow(&mut book, &engine, &Position::START, rules, growth, |b| {
        expansions += 1;
        bar.set_position(b.nodes.len() as u64);
        bar.set_message(format!("start {:+.2}", f64::from(root_value(b)) / 100.0));
        if expansions % args.save_every == 0 {
            saved = book::file::save(b, &args.out).context("cannot save the book");
        }
        saved.is_ok()
    });
    saved?;
    book::file::save(&book, &args.out).context("cannot save the book")?;
    bar.finish_and_clear();
    output::line(format_args!(
        "book {}: {} positions at depth {}, start {:+.2}, in {:.1} s",
        args.out.display(),
        book.nodes.len(),
        book.depth,
        f64::from(root_value(&book)) / 100.0,
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

fn root_value(book: &Book) -> i32 {
    book.nodes
        .get(&book::key(&Position::START))
        .map_or(0, |n| n.value)
}

fn show(args: ShowBookArgs) -> Result<()> {
    let book = book::file::load(&args.book, Variant::Abapa).context("cannot read the book")?;
    let pos = parse_position(args.position.as_deref())?;
    let moves = book.moves(&pos);
    if args.json {
        let list: Vec<_> = moves
            .iter()
            .map(|m| json!({"move": m.mv.to_string(), "score": f64::from(m.value) / 100.0}))
            .collect();
        output::line(json!({
            "position": pos.to_string(),
            "positions": book.nodes.len(),
            "depth": book.depth,
            "moves": list,
        }));
        return Ok(());
    }
    if moves.is_empty() {
        output::line(format_args!("{pos}: not in the book"));
    }
    for m in moves {
        output::line(format_args!("{}  {:+.2}", m.mv, f64::from(m.value) / 100.0));
    }
    Ok(())
}
