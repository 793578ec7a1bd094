//! `oware bestmove`: search a position and print the best move.

use anyhow::{Context, Result, bail};
use clap::Args;

use oware::book::{BOOK_FILE, Book};
use oware::mancala::Mancala;
use oware::search::{self, Engine, Oware, SearchGame};

use super::common::{
    Choice, Decoding, EngineArgs, POSITION_HELP, RulesArgs, game_from, limits_from, make_engine,
    mancala_engine, mancala_game_from, table_folder,
};
use super::output;

/// Arguments of `oware bestmove` and `oware analyze`.
#[derive(Args)]
pub struct SearchArgs {
    #[arg(help = POSITION_HELP, value_name = "POSITION")]
    pub position: Option<String>,
    /// Moves played from the position (their history counts for
    /// repetitions; in mancala, after another go the same side moves).
    #[arg(long, value_name = "LIST")]
    pub moves: Option<String>,
    /// Search to this depth (at least 1: depth 0 is refused).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (bestmove: 3000 when no depth is
    /// given; analyze: this long for each move, 1000 when no depth is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Play from this opening book when it has the position (bestmove
    /// only): a move within --book-margin of the book's best, at random.
    #[arg(long, value_name = "FILE")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book (bestmove only): not even the one
    /// found next to the tables, `book.owb` in the --db folder (default:
    /// $OWARE_DB, else `databases`), which is used by default.
    #[arg(long, conflicts_with = "book")]
    pub no_book: bool,
    /// How much worse than the book's best a book move may be, in seeds.
    #[arg(long, default_value_t = 0.2, value_name = "SEEDS", value_parser = parse_margin)]
    pub book_margin: f64,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Runs `oware bestmove`.
pub fn run(args: SearchArgs) -> Result<()> {
    let rules = match args.rules.choice()? {
        Choice::Oware(rules) => rules,
        Choice::Mancala(rules) => {
            if args.book.is_some() {
                bail!("--book: the opening book is Oware's; mancala has none");
            }
            let game = mancala_game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
            let engine = mancala_engine(&args.engine, rules)?;
            return search_and_print::<Mancala>(&engine, &game, &args);
        }
    };
    let game = game_from(args.position.as_deref(), args.moves.as_deref(), rules)?;
    // The engine's options are checked even when the book answers.
    if let Some(path) = &args.engine.eval {
        search::EvalChoice::load(path)?;
    }
    search::tt::check_size(args.engine.hash as usize)?;
    if let Some(book) = open_book(&args, rules.variant)? {
        let random = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos().into());
        let margin = (args.book_margin * 100.0).round() as i32;
        if let Some(choice) = book.choose(game.position(), margin, random) {
            let value = f64::from(choice.value) / 100.0;
            if args.json {
                output::line(serde_json::json!({
                    "best": choice.mv.to_string(), "book": true, "score": value,
                    "result": null, "plies": null, "bound": null, "depth": book.depth,
                    "pv": [choice.mv.to_string()],
                }));
            } else {
                output::line(format_args!("book {} {value:+.2}", choice.mv));
                output::line(format_args!("bestmove {}", choice.mv));
            }
            return Ok(());
        }
    }
    let engine = make_engine(&args.engine, rules.variant, Decoding::Alongside)?;
    search_and_print::<Oware>(&engine, &game, &args)
}

/// The opening book `bestmove` plays from: the one `--book` names (which
/// must be readable), none with `--no-book`, else `book.owb` in the table
/// folder when it is there (one that cannot be read, or is another rule
/// set's, is said and not used). Says on standard error which book is used
/// (nothing when there is none: the search goes on as without a book).
fn open_book(args: &SearchArgs, variant: oware::Variant) -> Result<Option<Book>> {
    if args.no_book {
        return Ok(None);
    }
    let path = match &args.book {
        Some(path) => path.clone(),
        None => {
            let path = table_folder(args.engine.db.as_ref()).0.join(BOOK_FILE);
            if !path.is_file() {
                return Ok(None);
            }
            path
        }
    };
    let book = match oware::book::file::load(&path, variant) {
        Ok(book) => book,
        Err(e) if args.book.is_some() => return Err(e).context("cannot read the book"),
        Err(e) => {
            output::note(format_args!("book not used: {e}"));
            return Ok(None);
        }
    };
    output::note(format_args!(
        "book: {} ({} positions)",
        path.display(),
        book.nodes.len()
    ));
    Ok(Some(book))
}

/// Searches `game` and prints an iteration a line and the move, or the
/// JSON object.
fn search_and_print<G: SearchGame>(
    engine: &Engine<G>,
    game: &G::Game,
    args: &SearchArgs,
) -> Result<()> {
    let limits = limits_from(args.depth, args.movetime, 3000);
    let json = args.json;
    let result = engine.search(game, &limits, |it| {
        if !json {
            output::line(search::report::iteration_line::<G>(it));
        }
    })?;
    if result.threads < engine.threads() {
        output::note(format_args!(
            "warning: only {} of {} search threads could start",
            result.threads,
            engine.threads()
        ));
    }
    if json {
        let tables = engine.tables().map(|t| &**t);
        let verdict = search::report::verdict::<G>(&result.last, game, tables);
        output::line(search::report::result_json(&result, verdict));
    } else {
        let best = result.best.map_or("none".to_string(), |m| m.to_string());
        output::line(format_args!("bestmove {best}"));
    }
    Ok(())
}

/// `--book-margin`: seeds, 0 to 48.
fn parse_margin(s: &str) -> Result<f64, String> {
    let seeds: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seeds"))?;
    if (0.0..=48.0).contains(&seeds) {
        Ok(seeds)
    } else {
        Err(format!("{s} is not in 0..=48 seeds"))
    }
}
