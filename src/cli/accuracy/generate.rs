//! `oware accuracy generate`: the positions file of the benchmark.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;

use oware::accuracy::{self, Generation};
use oware::{Variant, tb};

use super::super::common::{table_folder, thread_pool};
use super::super::output;
use super::DEFAULT_POSITIONS;

/// Arguments of `oware accuracy generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// The file to write.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_POSITIONS)]
    out: PathBuf,
    /// The table folder that judges the moves (default: $OWARE_DB, else
    /// `databases`): it must hold every level up to --max-seeds.
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    /// Positions wanted, shared evenly among the levels.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    count: u64,
    /// The fewest seeds on the board.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u8).range(1..=46))]
    min_seeds: u8,
    /// The most seeds on the board.
    #[arg(long, default_value_t = 28, value_parser = clap::value_parser!(u8).range(1..=46))]
    max_seeds: u8,
    /// The random generator's seed: the same seed, engine and tables make
    /// the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The engine's depth a move in the games.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Random moves from the start: each game draws between this many and
    /// twice as many.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// The largest level the players' search probes.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u8).range(0..=24))]
    play_tb_limit: u8,
    /// Give up after this many games even if some level is short.
    #[arg(long, default_value_t = 100_000)]
    max_games: usize,
    /// Games played at once (default: every core).
    #[arg(long, value_parser = crate::cli::common::parse_threads)]
    jobs: Option<usize>,
}

/// Runs `oware accuracy generate`.
pub fn run(args: GenerateArgs) -> Result<()> {
    if args.min_seeds > args.max_seeds {
        bail!(
            "--min-seeds {} is above --max-seeds {}",
            args.min_seeds,
            args.max_seeds
        );
    }
    let (dir, _) = table_folder(args.db.as_ref());
    let judge = tb::Tablebase::open(&dir, Variant::Abapa)
        .with_context(|| format!("cannot open the tables in {}", dir.display()))?;
    if let Some(missing) = (0..=usize::from(args.max_seeds)).find(|&l| !judge.has_level(l)) {
        bail!(
            "tables: level {missing} of abapa is missing in {} (judging positions of up to {} seeds needs levels 0..{})",
            dir.display(),
            args.max_seeds,
            args.max_seeds
        );
    }
    let play =
        tb::Tablebase::open_for_search(&dir, Variant::Abapa, usize::from(args.play_tb_limit))
            .with_context(|| format!("cannot open the tables in {}", dir.display()))?;
    let play = play.complete_up_to().map(|_| Arc::new(play));
    let options = Generation {
        count: args.count as usize,
        min_seeds: args.min_seeds,
        max_seeds: args.max_seeds,
        seed: args.seed,
        depth: args.depth,
        random_plies: args.random_plies,
        max_games: args.max_games,
    };
    let pool = thread_pool(args.jobs)?;
    let terminal = std::io::stderr().is_terminal();
    let generated = pool.install(|| {
        accuracy::generate(&options, &judge, play, |kept| {
            if terminal {
                eprint!("\r{kept} positions");
            }
        })
    })?;
    if terminal {
        eprintln!();
    }
    if generated.positions.is_empty() {
        bail!(
            "no position found in {} games (--max-games {})",
            generated.games,
            args.max_games
        );
    }
    let per_level = options.per_level();
    let mut comments = vec![
        format!(
            "seeds {}..{}, at most {per_level} a level; seed {}, self-play at depth {} with tables 0..{}, {}..{} random plies",
            args.min_seeds,
            args.max_seeds,
            args.seed,
            args.depth,
            args.play_tb_limit,
            args.random_plies,
            2 * args.random_plies
        ),
        format!(
            "{} games, {} positions right after a capture judged, {} kept (a move can lose something)",
            generated.games,
            generated.judged,
            generated.positions.len()
        ),
        "position gM/gN MOVE=x/y...: x = seeds the mover can force through the move, y = the opponent's after it".to_string(),
    ];
    for level in args.min_seeds..=args.max_seeds {
        let n = generated
            .positions
            .iter()
            .filter(|j| j.seeds() == level)
            .count();
        if n < per_level {
            comments.push(format!("level {level}: {n} positions only"));
        }
    }
    accuracy::file::save(&args.out, &comments, &generated.positions)
        .context("cannot write the positions")?;
    output::line(format_args!(
        "{} positions ({} games) written to {}",
        generated.positions.len(),
        generated.games,
        args.out.display()
    ));
    Ok(())
}
