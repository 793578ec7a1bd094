//! `oware tune`: fit the evaluation's weights to positions whose result is
//! known (the tables' decided entries and self-play games beyond them).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use oware::search::{EvalChoice, EvalParams};
use oware::tune::features::WEIGHTS;
use oware::tune::selfplay::SelfPlay;
use oware::tune::tables::TableSampling;
use oware::tune::{Fit, FitOptions, Rows, Sample, data, fit};
use oware::{Rules, Variant, tb};

use super::common::{table_folder, thread_pool};
use super::output;

/// The weights fitted unless `--tune` says otherwise: all but `store`
/// (which sets the scale, 100 a seed) and `mobility` (only `empty` less
/// `mobility` counts, so one of the two is enough).
const DEFAULT_FREE: &str = "own_seed,target,empty,kroo,threat";

/// Arguments of `oware tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// Endgame table folder (default: $OWARE_DB, else `databases` when it
    /// exists): positions drawn from its levels, self-play games ended by it.
    #[arg(long)]
    db: Option<PathBuf>,
    /// Use no tables: only self-play positions, games played to the end.
    #[arg(long, conflicts_with = "db")]
    no_db: bool,
    /// The largest level used (drawn from, probed by the self-play search).
    #[arg(long, default_value_t = tb::SEARCH_LEVEL_LIMIT as usize, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=48))]
    tb_limit: usize,
    /// Oware's rule set: abapa, grand-slam-forbidden, capture-and-end,
    /// capture-to-win or awari (the tuner fits Oware's evaluation only).
    #[arg(long, default_value = "abapa")]
    pub(super) rules: Variant,
    /// Positions drawn from the tables, the same number from each level.
    #[arg(long, default_value_t = 200_000, value_name = "N")]
    positions: usize,
    /// Self-play games.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    games: usize,
    /// The self-play engine's depth a move.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Random moves at the start of each self-play game.
    #[arg(long, default_value_t = 8, value_name = "K")]
    random_plies: usize,
    /// Seed of the random draws (positions and openings).
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Threads for the self-play games (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// Hash MiB of each self-play engine.
    #[arg(long, default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4096))]
    hash: usize,
    /// Weights to start from (and to play the games with); default: the
    /// built-in ones.
    #[arg(long, value_name = "FILE")]
    start: Option<PathBuf>,
    /// The evaluation that plays the self-play games instead of the start
    /// weights: a weights file or a network file (as `--eval` reads them).
    #[arg(long, value_name = "FILE", conflicts_with = "data")]
    play_eval: Option<PathBuf>,
    /// The weights to fit, by name (comma-separated), or `all`.
    #[arg(long, default_value = DEFAULT_FREE, value_name = "LIST")]
    tune: String,
    /// Read the labelled positions from this file (written by
    /// --save-data) instead of drawing and playing them; may be repeated.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["positions", "games"])]
    data: Vec<PathBuf>,
    /// Write the labelled positions to this file.
    #[arg(long, value_name = "FILE")]
    save_data: Option<PathBuf>,
    /// Write the tuned weights to this file (for --eval FILE).
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
    /// Train the learned evaluation (a network) on the positions instead
    /// of fitting the weights; --out writes the network file (for --eval).
    #[arg(long)]
    pub(super) network: bool,
    /// Passes over the positions (with --network).
    #[arg(long, default_value_t = 30, requires = "network", value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    pub(super) epochs: usize,
    /// Adam's step size (with --network).
    #[arg(long, default_value_t = 0.001, requires = "network", value_parser = parse_rate)]
    pub(super) learning_rate: f32,
    /// Hidden units of the network (with --network): 32, 64 or 128.
    #[arg(long, value_name = "N", default_value_t = oware::search::eval::network::HIDDEN, requires = "network", value_parser = parse_hidden)]
    pub(super) hidden: usize,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub(super) json: bool,
}

/// A hidden layer's width: one the network's inference is compiled for.
fn parse_hidden(text: &str) -> Result<usize, String> {
    use oware::search::eval::network::{WIDTHS, WIDTHS_TEXT};
    match text.parse::<usize>() {
        Ok(n) if WIDTHS.contains(&n) => Ok(n),
        _ => Err(format!("`{text}`: the hidden units are {WIDTHS_TEXT}")),
    }
}

/// A learning rate: a positive number up to 1.
fn parse_rate(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(r) if r > 0.0 && r <= 1.0 => Ok(r),
        _ => Err(format!("`{text}`: a learning rate is a number in (0, 1]")),
    }
}

/// The weights `list` names, as a mask.
fn free_weights(list: &str) -> Result<[bool; WEIGHTS]> {
    if list.trim() == "all" {
        return Ok([true; WEIGHTS]);
    }
    let mut free = [false; WEIGHTS];
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match EvalParams::index_of(name) {
            Some(i) => free[i] = true,
            None => bail!(
                "--tune: unknown weight `{name}` (the weights: {}, or all)",
                EvalParams::NAMES.join(", ")
            ),
        }
    }
    if !free.contains(&true) {
        bail!("--tune: no weight to fit");
    }
    Ok(free)
}

/// A progress bar on standard error (hidden when it is not a terminal).
fn bar(message: &'static str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:30}] {pos}/{len} {per_sec:>10} eta {eta}")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message);
    bar
}

/// The labelled positions and where they came from.
pub(super) struct DataSet {
    /// Drawn from the tables, then from self-play in the tables' levels,
    /// then from self-play beyond them.
    samples: Vec<Sample>,
    /// How many of each kind.
    counts: [usize; 3],
    /// The tables' levels drawn from.
    levels: Option<usize>,
    /// Self-play games played.
    games: usize,
}

/// The names of the data set's parts.
const PARTS: [&str; 3] = ["drawn", "endgames", "beyond"];

/// Draws and plays the data set as `args` asks.
fn gather(args: &TuneArgs, params: EvalChoice, show: bool) -> Result<DataSet> {
    let tables = if args.no_db {
        None
    } else {
        let (dir, asked) = table_folder(args.db.as_ref());
        if !asked && !dir.is_dir() {
            output::note(format_args!(
                "tables: none ({} not found; {})",
                dir.display(),
                super::common::build_hint(&dir, false, args.rules)
            ));
            None
        } else {
            let tables = tb::Tablebase::open_for_search(&dir, args.rules, args.tb_limit)
                .context("cannot open the tables")?;
            for rejected in tables.rejected() {
                output::note(format_args!("warning: table left closed: {rejected}"));
            }
            match tables.complete_up_to() {
                Some(top) if top >= 1 => {
                    output::note(format_args!("tables: {}", tables.describe()));
                    Some(Arc::new(tables))
                }
                _ => bail!(
                    "no complete levels 0..N of {} in {}",
                    args.rules,
                    dir.display()
                ),
            }
        }
    };
    let levels = tables.as_ref().and_then(|t| t.complete_up_to());
    let mut samples = Vec::new();
    if let (Some(t), Some(top)) = (&tables, levels) {
        let progress = bar("tables", show);
        let sampling = TableSampling {
            count: args.positions,
            levels: 1..=top,
            seed: args.seed,
        };
        samples = oware::tune::tables::sample(t, &sampling, &progress);
        progress.finish_and_clear();
    }
    let options = SelfPlay {
        games: args.games,
        random_plies: args.random_plies,
        depth: args.depth,
        params,
        rules: Rules::of(args.rules),
        seed: args.seed,
        max_plies: 2000,
    };
    let pool = thread_pool(args.threads)?;
    let progress = bar("self-play", show);
    let games =
        pool.install(|| oware::tune::selfplay::play_all(&options, tables, args.hash, &progress));
    progress.finish_and_clear();
    let played = games.len();
    let (endgames, beyond): (Vec<_>, Vec<_>) =
        games.into_iter().map(|g| (g.endgame, g.beyond)).unzip();
    let (endgames, beyond) = (endgames.concat(), beyond.concat());
    let counts = [samples.len(), endgames.len(), beyond.len()];
    samples.extend(endgames);
    samples.extend(beyond);
    Ok(DataSet {
        samples,
        counts,
        levels,
        games: played,
    })
}

/// Runs `oware tune`.
pub fn run(args: TuneArgs) -> Result<()> {
    let free = free_weights(&args.tune)?;
    let start = match &args.start {
        Some(path) => EvalParams::load(path)?,
        None => EvalParams::DEFAULT,
    };
    let show = !args.json && std::io::stderr().is_terminal();
    let set = if args.data.is_empty() {
        let players = match &args.play_eval {
            Some(path) => EvalChoice::load(path)?,
            None => start.into(),
        };
        gather(&args, players, show)?
    } else {
        let mut samples = Vec::new();
        for path in &args.data {
            samples.extend(data::load(path, args.rules)?);
        }
        DataSet {
            counts: [0, 0, samples.len()],
            samples,
            levels: None,
            games: 0,
        }
    };
    let source = if args.data.is_empty() {
        format!(
            "{} positions drawn from the tables{}, {} from {} self-play games ({} in the tables' levels, {} beyond)",
            set.counts[0],
            set.levels
                .filter(|_| set.counts[0] > 0)
                .map_or(String::new(), |top| format!(" (levels 1..{top})")),
            set.counts[1] + set.counts[2],
            set.games,
            set.counts[1],
            set.counts[2],
        )
    } else {
        let files: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
        format!("{} positions from {}", set.samples.len(), files.join(", "))
    };
    if let Some(path) = &args.save_data {
        data::save(path, &set.samples, &[format!("oware tune: {source}")])?;
    }
    let rows = Rows::of(&set.samples, args.rules);
    if rows.is_empty() {
        bail!("no positions to fit (ask for --positions or --games, or give --data FILE)");
    }
    if args.network {
        return super::tune_network::run(&args, &set.samples, &rows, &start, &source, show);
    }
    let options = FitOptions::new(free);
    let result = fit::fit(&rows, &start.to_array(), &options);
    let tuned = EvalParams::from_array(result.weights);
    if tuned.max_evaluation() > oware::search::eval::MAX_EVALUATION {
        bail!(
            "the fitted weights could make the evaluation reach {} centiseeds (at most {}): the data set is too small or one-sided",
            tuned.max_evaluation(),
            oware::search::eval::MAX_EVALUATION
        );
    }
    // The error on each part, with the weights at the start and at the end.
    let mut parts = Vec::new();
    if args.data.is_empty() {
        let mut from = 0;
        for (name, count) in PARTS.iter().zip(set.counts) {
            parts.push((
                *name,
                Rows::of(&set.samples[from..from + count], args.rules),
            ));
            from += count;
        }
    }
    if let Some(path) = &args.out {
        let comments = vec![
            "oware evaluation weights, in centiseeds (100 = one seed)".to_string(),
            format!("oware tune: {source}"),
            format!(
                "error {:.6} -> {:.6}, K {:.6} -> {:.6}",
                result.error_start, result.error, result.k_start, result.k
            ),
        ];
        tuned.save(path, &comments)?;
    }
    if args.json {
        print_json(&args, &set, &start, &result, &parts);
    } else {
        print_text(&args, &source, &start, &result, &parts);
    }
    Ok(())
}

fn named(w: &[i32; WEIGHTS]) -> serde_json::Value {
    EvalParams::NAMES
        .iter()
        .zip(w)
        .map(|(n, w)| (n.to_string(), json!(w)))
        .collect()
}

fn print_json(args: &TuneArgs, set: &DataSet, start: &EvalParams, r: &Fit, parts: &[(&str, Rows)]) {
    let start_w = start.to_array().map(f64::from);
    let tuned_w = r.weights.map(f64::from);
    let errors: serde_json::Map<String, serde_json::Value> = parts
        .iter()
        .map(|(name, rows)| {
            (
                name.to_string(),
                json!({
                    "positions": rows.len(),
                    "start": fit::error(rows, &start_w, r.k_start),
                    "tuned": fit::error(rows, &tuned_w, r.k),
                }),
            )
        })
        .collect();
    let real: serde_json::Value = EvalParams::NAMES
        .iter()
        .zip(r.real_weights)
        .map(|(n, w)| (n.to_string(), json!((w * 100.0).round() / 100.0)))
        .collect();
    output::line(json!({
        "positions": set.samples.len(),
        "drawn": set.counts[0],
        "endgames": set.counts[1],
        "beyond": set.counts[2],
        "levels": set.levels,
        "games": set.games,
        "k_start": r.k_start,
        "error_start": r.error_start,
        "k": r.k,
        "error": r.error,
        "parts": errors,
        "start": named(&start.to_array()),
        "weights": named(&r.weights),
        "real_weights": real,
        "out": args.out.as_ref().map(|p| p.display().to_string()),
    }));
}

fn print_text(args: &TuneArgs, source: &str, start: &EvalParams, r: &Fit, parts: &[(&str, Rows)]) {
    output::line(format_args!("data: {source}"));
    output::line(format_args!(
        "K: {:.6} -> {:.6} (per centiseed)",
        r.k_start, r.k
    ));
    output::line(format_args!(
        "error: {:.6} -> {:.6}",
        r.error_start, r.error
    ));
    let (start_w, tuned_w) = (start.to_array().map(f64::from), r.weights.map(f64::from));
    for (name, rows) in parts.iter().filter(|(_, rows)| !rows.is_empty()) {
        output::line(format_args!(
            "  {name}: {} positions, {:.6} -> {:.6}",
            rows.len(),
            fit::error(rows, &start_w, r.k_start),
            fit::error(rows, &tuned_w, r.k)
        ));
    }
    output::line(format_args!(
        "{:<10} {:>6} {:>6} {:>9}",
        "weight", "start", "tuned", "real"
    ));
    for (i, name) in EvalParams::NAMES.iter().enumerate() {
        output::line(format_args!(
            "{name:<10} {:>6} {:>6} {:>9.2}",
            start.to_array()[i],
            r.weights[i],
            r.real_weights[i]
        ));
    }
    if let Some(path) = &args.out {
        output::line(format_args!("wrote {}", path.display()));
    }
}
