//! Arguments and helpers shared by several commands.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;

use oware::mancala::{Mancala, MancalaGame, MancalaPosition, MancalaRules, MancalaTables};
use oware::rules::notation::excerpt;
use oware::search::SearchGame;
use oware::{Game, Move, Position, RuleSet, Rules, Variant, mancala, parse_moves, search, tb};

use super::output;

/// The help of a command's position argument: the format in one line.
pub const POSITION_HELP: &str = "Position `p0-…-p11-S-N-T` (pits A–F then a–f, South's and North's stores, S or N to move), e.g. 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S; `startpos` (the default) is the start";

/// [`POSITION_HELP`] for a command that needs a position.
pub const POSITION_REQUIRED_HELP: &str = "Position `p0-…-p11-S-N-T` (pits A–F then a–f, South's and North's stores, S or N to move), e.g. 0-0-0-0-0-1-0-0-0-0-0-2-22-23-S";

/// The environment variable naming the default table folder.
pub const DB_ENV: &str = "OWARE_DB";

/// The table folder a command uses: the one given, else `$OWARE_DB`, else
/// `databases`; whether it was asked for (given or from the environment).
pub fn table_folder(given: Option<&PathBuf>) -> (PathBuf, bool) {
    match given {
        Some(dir) => (dir.clone(), true),
        None => match std::env::var_os(DB_ENV).filter(|v| !v.is_empty()) {
            Some(dir) => (PathBuf::from(dir), true),
            None => (PathBuf::from("databases"), false),
        },
    }
}

/// Options of the engine, shared by `bestmove`, `analyze` and `bench`.
#[derive(Args, Clone)]
pub struct EngineArgs {
    /// Search threads (1..=256).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Transposition table size in MiB (1..=65536; at most the memory
    /// available).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash: u64,
    /// Endgame table folder (default: $OWARE_DB, else `databases` when it
    /// exists).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Do not use endgame tables.
    #[arg(long, conflicts_with = "db")]
    pub no_db: bool,
    /// The largest level (seeds on the board) the search probes; higher
    /// levels are left closed (see the README).
    #[arg(long, default_value_t = tb::SEARCH_LEVEL_LIMIT, value_parser = clap::value_parser!(u64).range(0..=48))]
    pub tb_limit: u64,
    /// Evaluation from this file: weights (`name = value` lines) or a
    /// network, as `oware tune` writes them; default: the built-in network
    /// (`databases/eval/weights.txt` holds the weights used before it).
    #[arg(long, value_name = "FILE")]
    pub eval: Option<PathBuf>,
}

/// The rule set and the ending options.
#[derive(Args, Clone)]
pub struct RulesArgs {
    /// Rule set: abapa, grand-slam-forbidden, capture-and-end,
    /// capture-to-win, awari or mancala (Arabic Mancala; the manual's rules
    /// chapter has them all).
    #[arg(long, default_value = "abapa")]
    pub rules: RuleSet,
    /// Seeds a house at the start: 3 (the default), 4, 5 or 7 for mancala;
    /// Oware starts with 4.
    #[arg(long, value_name = "K")]
    pub start_seeds: Option<u8>,
    /// End the game after K half-moves without a capture.
    #[arg(long, value_name = "K")]
    pub no_capture_limit: Option<u32>,
    /// Do not end the game when a position repeats.
    #[arg(long)]
    pub no_repetition: bool,
    /// Mancala only: a last seed in an empty house of the mover's row, the
    /// opposite house empty, goes alone into the store (Kalah's rule).
    #[arg(long)]
    pub empty_capture: bool,
}

/// The game a command plays, as the options describe it.
#[derive(Copy, Clone, Debug)]
pub enum Choice {
    /// Oware with these rules.
    Oware(Rules),
    /// Arabic Mancala under these rules.
    Mancala(mancala::MancalaRules),
}

impl RulesArgs {
    /// The game these options describe.
    pub fn choice(&self) -> Result<Choice> {
        match self.rules {
            RuleSet::Oware(variant) => {
                if let Some(k) = self.start_seeds.filter(|&k| k != 4) {
                    bail!("--start-seeds {k}: Oware starts with 4 seeds a house");
                }
                if self.empty_capture {
                    bail!("--empty-capture applies only to --rules mancala");
                }
                let mut rules = Rules::of(variant).with_no_capture_limit(self.no_capture_limit);
                rules.repetition = !self.no_repetition;
                Ok(Choice::Oware(rules))
            }
            RuleSet::Mancala => {
                if self.no_capture_limit.is_some() || self.no_repetition {
                    bail!(
                        "--no-capture-limit and --no-repetition do not apply to mancala (its games have no cycles)"
                    );
                }
                let seeds = self.start_seeds.unwrap_or(3);
                let rules = mancala::MancalaRules::new(seeds, self.empty_capture);
                if !rules.start_seeds_valid() {
                    bail!("--start-seeds {seeds}: mancala starts with 3, 4, 5 or 7 seeds a house");
                }
                Ok(Choice::Mancala(rules))
            }
        }
    }
}

/// A position string, or the start for `startpos` or nothing.
pub fn parse_position(text: Option<&str>) -> Result<Position> {
    match text {
        None | Some("startpos") => Ok(Position::START),
        Some(s) => s
            .parse()
            .with_context(|| format!("bad position '{}'", excerpt(s))),
    }
}

/// Plays the move list `moves` (if any) with `play`, naming the first
/// move that cannot be played.
fn play_list<E>(moves: Option<&str>, mut play: impl FnMut(Move) -> Result<(), E>) -> Result<()>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let Some(list) = moves else { return Ok(()) };
    for (i, mv) in parse_moves(list)
        .context("bad move list")?
        .into_iter()
        .enumerate()
    {
        play(mv).with_context(|| format!("move {} ({mv}) cannot be played", i + 1))?;
    }
    Ok(())
}

/// The game after `moves` (a move list) from `position`.
pub fn game_from(position: Option<&str>, moves: Option<&str>, rules: Rules) -> Result<Game> {
    let mut game = Game::new(parse_position(position)?, rules);
    play_list(moves, |mv| game.play(mv).map(drop))?;
    Ok(game)
}

/// A fixed depth, or a fixed time (`default_ms` when neither is given).
pub fn limits_from(depth: Option<u32>, movetime: Option<u64>, default_ms: u64) -> search::Limits {
    match (depth, movetime) {
        (Some(d), _) => search::Limits::depth(d),
        (None, ms) => search::Limits::movetime(Duration::from_millis(ms.unwrap_or(default_ms))),
    }
}

/// A rayon pool of `threads` threads (every core when `None`; the
/// commands' `--threads` and `--jobs` are bounded by [`parse_threads`]).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .spawn_handler(|thread| {
            let stack = thread.stack_size().unwrap_or(oware::threads::STACK);
            let mut builder = oware::threads::builder_with_stack(stack)?;
            if let Some(name) = thread.name() {
                builder = builder.name(name.to_owned());
            }
            builder.spawn(|| thread.run())?;
            Ok(())
        })
        .build()
        .context("cannot start worker threads")
}

/// The most worker threads a command starts (as for the search's
/// `--threads`).
pub const MAX_THREADS: usize = 256;

/// `--threads` of the commands with a worker pool: 1..=[`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of threads"))?;
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is not in 1..={MAX_THREADS}"))
    }
}

/// When a search's compact tables are decoded into memory (see
/// [`tb::Tablebase::decode_in_background`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decoding {
    /// Before the search starts: every probe at its fastest from the first
    /// node on (`bench`).
    First,
    /// On a thread of its own while the search runs: the answer does not
    /// wait for the decoding (`bestmove`, `analyze`, `uci`, `serve`).
    Alongside,
}

/// The endgame tables for a search, as `args` asks: none with `--no-db`;
/// a folder given (or named by `$OWARE_DB`) must exist; the default one is
/// used when it exists. Says on standard error which levels are in use and
/// which files were left closed as damaged.
pub fn search_tables(
    args: &EngineArgs,
    variant: Variant,
    decoding: Decoding,
) -> Result<Option<Arc<tb::Tablebase>>> {
    if args.no_db {
        return Ok(None);
    }
    if !variant.has_tables() {
        output::note(format_args!(
            "tables: none ({variant} has no tables: {})",
            oware::rules::NO_TABLES
        ));
        return Ok(None);
    }
    let (dir, asked) = table_folder(args.db.as_ref());
    if !asked && !dir.is_dir() {
        output::note(format_args!(
            "tables: none ({} not found; {})",
            dir.display(),
            build_hint(&dir, false, variant)
        ));
        return Ok(None);
    }
    let limit = args.tb_limit as usize;
    let tables = match decoding {
        Decoding::First => tb::Tablebase::open_for_search(&dir, variant, limit),
        Decoding::Alongside => tb::Tablebase::open_for_search_lazily(&dir, variant, limit),
    }
    .context("cannot open the tables")?;
    for rejected in tables.rejected() {
        output::note(format_args!("warning: table left closed: {rejected}"));
    }
    match tables.complete_up_to() {
        Some(_) => output::note(format_args!("tables: {}", tables.describe())),
        None => output::note(format_args!(
            "tables: {}; {}",
            tables.describe(),
            build_hint(&dir, asked, variant)
        )),
    }
    let tables = tables.complete_up_to().map(|_| Arc::new(tables));
    if let (Some(tables), Decoding::Alongside) = (&tables, decoding) {
        // Detached: the process may end before it is done.
        let _ = tables.decode_in_background(tb::levels::decode_budget());
    }
    Ok(tables)
}

/// How to build `variant`'s tables into `dir` (named on the command line
/// or by `$OWARE_DB` when `asked`), in a few words for the end of a line.
pub fn build_hint(dir: &std::path::Path, asked: bool, variant: Variant) -> String {
    let rules = match variant {
        Variant::Abapa => String::new(),
        v => format!(" --rules {}", v.name()),
    };
    if asked {
        format!(
            "`oware build{rules} --max-seeds 16 --db {}` builds them",
            dir.display()
        )
    } else {
        format!("`oware build{rules} --max-seeds 16` builds them")
    }
}

/// An engine as `args` asks (its evaluation read from `--eval`), its table
/// pre-faulted and its threads checked.
pub fn make_engine(
    args: &EngineArgs,
    variant: Variant,
    decoding: Decoding,
) -> Result<search::Engine> {
    let params = match &args.eval {
        Some(path) => search::EvalChoice::load(path)?,
        None => search::EvalChoice::DEFAULT,
    };
    search::tt::check_size(args.hash as usize)?;
    let tables = search_tables(args, variant, decoding)?;
    let mut engine = engine_with(args, tables)?;
    engine.params = params;
    Ok(engine)
}

/// An engine for the game `G` with `tables`, as `args` asks: its table
/// pre-faulted and its threads checked.
pub fn engine_with<G: SearchGame>(
    args: &EngineArgs,
    tables: Option<Arc<G::Tables>>,
) -> Result<search::Engine<G>> {
    let hash = args.hash as usize;
    search::tt::check_size(hash)?;
    let engine = search::Engine::<G>::new(hash, args.threads as usize, tables);
    if engine.hash_mib() < hash {
        output::note(format_args!(
            "warning: {} MiB for the hash table, not {hash}: memory is short",
            engine.hash_mib()
        ));
    }
    engine.check_threads()?;
    Ok(engine)
}

/// Mancala's endgame tables for a search of `rules`, as `args` asks: none
/// with `--no-db`; a folder given (or named by `$OWARE_DB`) must exist and
/// hold tables of the game's capture convention (its `mancala` subfolder
/// is read when it has one); the default `databases/mancala` is used when
/// it exists. Says on standard error which levels are in use.
pub fn mancala_tables(
    args: &EngineArgs,
    rules: MancalaRules,
) -> Result<Option<Arc<MancalaTables>>> {
    if args.no_db {
        return Ok(None);
    }
    let (dir, asked) = table_folder(args.db.as_ref());
    let dir = mancala::tables::search_folder(&dir, asked);
    if !asked && !dir.is_dir() {
        output::note(format_args!(
            "tables: none ({} not found; `oware build --rules mancala --max-seeds 20` builds them)",
            dir.display()
        ));
        return Ok(None);
    }
    let tables = MancalaTables::open_for_search(&dir, rules, args.tb_limit as usize)
        .context("cannot open the tables")?;
    for rejected in tables.rejected() {
        output::note(format_args!("warning: table left closed: {rejected}"));
    }
    if tables.levels().present().is_empty() {
        let why = mancala::tables::none_found(&dir, rules);
        if asked {
            bail!("{why}");
        }
        output::note(format_args!("tables: none ({why})"));
        return Ok(None);
    }
    output::note(format_args!("tables: {}", tables.describe()));
    Ok(Some(Arc::new(tables)))
}

/// A Mancala engine for `rules` as `args` asks, with Mancala's tables (see
/// [`mancala_tables`]).
pub fn mancala_engine(args: &EngineArgs, rules: MancalaRules) -> Result<search::Engine<Mancala>> {
    if let Some(path) = &args.eval {
        bail!(
            "--eval {}: {}",
            path.display(),
            oware::mancala::NO_EVAL_FILE
        );
    }
    let tables = mancala_tables(args, rules)?;
    engine_with(args, tables)
}

/// A Mancala position string, or the start of `rules` for `startpos` or
/// nothing; either follows `rules`' capture convention.
pub fn mancala_position(text: Option<&str>, rules: MancalaRules) -> Result<MancalaPosition> {
    match text {
        None | Some("startpos") => Ok(rules.start()),
        Some(s) => Ok(s
            .parse::<MancalaPosition>()
            .with_context(|| format!("bad position '{}'", excerpt(s)))?
            .with_empty_capture(rules.empty_capture)),
    }
}

/// The game of Mancala after `moves` (a move list) from `position`.
pub fn mancala_game_from(
    position: Option<&str>,
    moves: Option<&str>,
    rules: MancalaRules,
) -> Result<MancalaGame> {
    let mut game = MancalaGame::new(mancala_position(position, rules)?);
    play_list(moves, |mv| game.play(mv).map(drop))?;
    Ok(game)
}
