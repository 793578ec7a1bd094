//! Running a match: pairs of games (each opening twice, colours swapped) or
//! series, several games at once, the running statistics and the SPRT stop.

use std::collections::{BTreeMap, HashMap};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

use serde_json::{Value, json};

use super::engine::{Player, PlayerFactory};
use super::game::ArenaGame;
use super::openings::Opening;
use super::referee::{GameSettings, PlayedGame, Termination, play_game};
use super::series::{Format, GameResult, Series, SeriesOutcome};
use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use crate::Side;
use crate::search::Oware;

/// What to play: a match of `G` (Oware unless said).
pub struct MatchConfig<G: ArenaGame = Oware> {
    /// The first engine (A): the statistics are from its side.
    pub a: Arc<dyn PlayerFactory<G>>,
    /// The second engine (B).
    pub b: Arc<dyn PlayerFactory<G>>,
    /// How each game is played.
    pub settings: GameSettings<G>,
    /// The openings, used in turn (at least one).
    pub openings: Vec<Opening<G::Position>>,
    /// The most games to play (pairs: games / 2, at least one pair).
    pub games: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// Play series of this format (each capped at `series_cap` games)
    /// until `games` games are played, instead of pairs.
    pub series: Option<Format>,
    /// The cap of each series.
    pub series_cap: u32,
    /// The most series to play (series mode).
    pub max_series: Option<u32>,
}

/// One finished game, as the runner reports it.
#[derive(Clone, Debug)]
pub struct GameReport<G: ArenaGame = Oware> {
    /// Its number in the match (1, 2, …, in the order games finished).
    pub number: u64,
    /// The side engine A played.
    pub a_side: Side,
    /// The game.
    pub played: PlayedGame<G>,
    /// The result from A's side.
    pub result: GameResult,
    /// The series it belongs to (series mode), numbered from 1.
    pub series: Option<u32>,
}

/// The figures of a match so far (or at the end).
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// The time control: A's, and B's after `against` when they differ.
    pub time_control: String,
    /// W/D/L from A's side.
    pub wdl: Wdl,
    /// The pairs.
    pub pairs: Pentanomial,
    /// The test, its LLR now and its verdict once it crossed a bound.
    pub sprt: Option<(Sprt, f64, Option<SprtVerdict>)>,
    /// The series format and the series won by A, won by B and drawn.
    pub series: Option<(Format, [u32; 3])>,
    /// The last finished series, as `A wins 6-3`.
    pub last_series: Option<String>,
    /// Each forfeit: game number, engine (A or B) and what happened.
    pub forfeits: Vec<(u64, char, String)>,
    /// How games ended, by kind (normal, tables, max-plies, time, fault).
    pub endings: BTreeMap<String, u32>,
    /// Wall time.
    pub seconds: f64,
}

fn ending_kind(t: &Termination) -> &'static str {
    match t {
        Termination::Rules(_) => "normal",
        Termination::Tables(..) => "tables",
        Termination::MaxPlies(_) => "max-plies",
        Termination::Time { .. } => "time",
        Termination::Fault(..) => "fault",
    }
}

impl MatchSummary {
    /// The text lines of the summary.
    pub fn lines(&self) -> Vec<String> {
        let w = self.wdl;
        let mut out = vec![format!(
            "{} vs {} at {}: {} games in {:.1} s",
            self.a,
            self.b,
            self.time_control,
            w.games(),
            self.seconds
        )];
        out.push(format!(
            "Score of {} vs {}: +{} ={} -{} [{:.3}]",
            self.a,
            self.b,
            w.wins,
            w.draws,
            w.losses,
            w.score()
        ));
        if let Some(elo) = w.elo() {
            out.push(format!("Elo: {elo} (95 %)"));
        }
        if self.pairs.pairs() > 0 {
            let elo = self
                .pairs
                .elo()
                .map(|e| format!("  Elo {e}"))
                .unwrap_or_default();
            out.push(format!(
                "Pentanomial [LL, LD, DD+WL, WD, WW]: {} ({} pairs){elo}",
                self.pairs,
                self.pairs.pairs()
            ));
        }
        if let Some((sprt, llr, verdict)) = self.sprt {
            let verdict = verdict.map_or("no verdict".to_string(), |v| v.to_string());
            out.push(format!("SPRT: {}  {verdict}", sprt.describe(llr)));
        }
        if let Some((format, [a, b, d])) = self.series {
            let n = a + b + d;
            let share = if n == 0 {
                0.0
            } else {
                (f64::from(a) + f64::from(d) / 2.0) / f64::from(n)
            };
            out.push(format!(
                "Series {format}: {n} played, {} won {a}, {} won {b}, {d} drawn (share {share:.3})",
                self.a, self.b
            ));
            if n == 1
                && let Some(last) = &self.last_series
            {
                let named = last
                    .replacen("A wins", &format!("{} wins", self.a), 1)
                    .replacen("B wins", &format!("{} wins", self.b), 1);
                out.push(format!("Series result: {named}"));
            }
        }
        let endings: Vec<String> = self
            .endings
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push(format!("Endings: {}", endings.join(", ")));
        for (game, who, what) in &self.forfeits {
            let name = if *who == 'A' { &self.a } else { &self.b };
            out.push(format!("Forfeit: game {game}: {name} ({who}): {what}"));
        }
        out
    }

    /// The summary as one JSON object.
    pub fn to_json(&self) -> Value {
        let elo = |e: Option<super::stats::Elo>| {
            e.map(|e| json!({"elo": finite(e.elo), "lower": finite(e.lower), "upper": finite(e.upper)}))
        };
        let w = self.wdl;
        json!({
            "a": self.a,
            "b": self.b,
            "time_control": self.time_control,
            "games": w.games(),
            "wins": w.wins,
            "draws": w.draws,
            "losses": w.losses,
            "score": w.score(),
            "elo": elo(w.elo()),
            "pentanomial": self.pairs.counts,
            "pentanomial_elo": elo(self.pairs.elo()),
            "sprt": self.sprt.map(|(s, llr, v)| {
                let (lower, upper) = s.bounds();
                json!({
                    "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                    "llr": llr, "lower": lower, "upper": upper,
                    "verdict": v.map(|v| match v { SprtVerdict::H0 => "H0", SprtVerdict::H1 => "H1" }),
                })
            }),
            "series": self.series.map(|(f, [a, b, d])| json!({
                "format": f.to_string(), "a_won": a, "b_won": b, "drawn": d,
            })),
            "last_series": self.last_series,
            "endings": self.endings,
            "forfeits": self.forfeits.iter().map(|(g, who, what)| json!({
                "game": g, "engine": who.to_string(), "what": what,
            })).collect::<Vec<_>>(),
            "seconds": self.seconds,
        })
    }
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// A message from a worker.
#[allow(clippy::large_enum_variant)]
enum Message<G: ArenaGame> {
    Game {
        /// The pair or series index.
        unit: u32,
        /// The game's index in its unit.
        index: u32,
        a_side: Side,
        played: PlayedGame<G>,
        /// The series, once decided.
        decided: Option<Series>,
    },
    Error(String),
}

fn result_for_a<G: ArenaGame>(played: &PlayedGame<G>, a_side: Side) -> GameResult {
    match played.winner {
        None => GameResult::Draw,
        Some(s) if s == a_side => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// Plays one game, A on `a_side`.
fn one_game<G: ArenaGame>(
    a: &mut dyn Player<G>,
    b: &mut dyn Player<G>,
    opening: &Opening<G::Position>,
    a_side: Side,
    settings: &GameSettings<G>,
) -> Result<PlayedGame<G>, String> {
    let start = opening.game::<G>(settings.rules)?;
    let tcs = settings.time_controls(a_side);
    Ok(match a_side {
        Side::South => play_game(a, b, start, settings, tcs),
        Side::North => play_game(b, a, start, settings, tcs),
    })
}

/// Runs the match, calling `on_game` after each game with its report and the
/// summary so far; when it answers `Break` no further game starts, not even
/// the second of a pair (those in flight are played out and reported).
/// Returns the final summary.
pub fn run_match<G: ArenaGame>(
    config: &MatchConfig<G>,
    mut on_game: impl FnMut(&GameReport<G>, &MatchSummary) -> ControlFlow<()>,
) -> Result<MatchSummary, String> {
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    let started = Instant::now();
    let mut summary = MatchSummary {
        a: config.a.name().to_string(),
        b: config.b.name().to_string(),
        time_control: {
            let [a, b] = config.settings.time_controls(Side::South);
            if a == b {
                a.to_string()
            } else {
                format!("{a} against {b}")
            }
        },
        sprt: config.sprt.map(|s| (s, 0.0, None)),
        series: config.series.map(|f| (f, [0; 3])),
        ..MatchSummary::default()
    };
    let pairs = (config.games / 2).max(1);
    let stop = AtomicBool::new(false);
    // Set when `on_game` breaks: not even the second game of a pair starts.
    let abort = AtomicBool::new(false);
    let next_unit = AtomicU32::new(0);
    let games_started = AtomicU32::new(0);
    let (tx, rx) = channel::<Message<G>>();
    let mut error = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let (stop, abort) = (&stop, &abort);
            let (next_unit, games_started) = (&next_unit, &games_started);
            scope.spawn(move || {
                let players = config.a.make().and_then(|a| Ok((a, config.b.make()?)));
                let (mut a, mut b) = match players {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Message::Error(e));
                        return;
                    }
                };
                let n = config.openings.len() as u32;
                while !stop.load(Ordering::Relaxed) {
                    let unit = next_unit.fetch_add(1, Ordering::Relaxed);
                    match config.series {
                        None => {
                            if unit >= pairs {
                                return;
                            }
                            let opening = &config.openings[(unit % n) as usize];
                            for (index, a_side) in
                                [Side::South, Side::North].into_iter().enumerate()
                            {
                                if abort.load(Ordering::Relaxed) {
                                    return;
                                }
                                let played = match one_game(
                                    &mut *a,
                                    &mut *b,
                                    opening,
                                    a_side,
                                    &config.settings,
                                ) {
                                    Ok(p) => p,
                                    Err(e) => {
                                        let _ = tx.send(Message::Error(e));
                                        return;
                                    }
                                };
                                let message = Message::Game {
                                    unit,
                                    index: index as u32,
                                    a_side,
                                    played,
                                    decided: None,
                                };
                                if tx.send(message).is_err() {
                                    return;
                                }
                            }
                        }
                        Some(format) => {
                            if games_started.load(Ordering::Relaxed) >= config.games
                                || config.max_series.is_some_and(|m| unit >= m)
                            {
                                return;
                            }
                            let mut series = Series::new(format).with_cap(config.series_cap);
                            let mut index = 0u32;
                            while !series.is_decided() {
                                if abort.load(Ordering::Relaxed) {
                                    return;
                                }
                                games_started.fetch_add(1, Ordering::Relaxed);
                                let opening = &config.openings[((unit + index / 2) % n) as usize];
                                let a_side = match series.first_mover() {
                                    super::series::Player::A => Side::South,
                                    super::series::Player::B => Side::North,
                                };
                                let played = match one_game(
                                    &mut *a,
                                    &mut *b,
                                    opening,
                                    a_side,
                                    &config.settings,
                                ) {
                                    Ok(p) => p,
                                    Err(e) => {
                                        let _ = tx.send(Message::Error(e));
                                        return;
                                    }
                                };
                                series.record(result_for_a(&played, a_side));
                                let message = Message::Game {
                                    unit,
                                    index,
                                    a_side,
                                    played,
                                    decided: series.is_decided().then(|| series.clone()),
                                };
                                if tx.send(message).is_err() {
                                    return;
                                }
                                index += 1;
                            }
                        }
                    }
                }
            });
        }
        drop(tx);
        // Results of the first game of each pair, waiting for the second.
        let mut waiting: HashMap<(u32, u32), GameResult> = HashMap::new();
        let mut number = 0u64;
        for message in rx {
            let (unit, index, a_side, played, decided) = match message {
                Message::Error(e) => {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
                Message::Game {
                    unit,
                    index,
                    a_side,
                    played,
                    decided,
                } => (unit, index, a_side, played, decided),
            };
            number += 1;
            let result = result_for_a(&played, a_side);
            summary.wdl.add(result);
            *summary
                .endings
                .entry(ending_kind(&played.termination).to_string())
                .or_insert(0) += 1;
            if let Some(side) = played.termination.forfeit() {
                let who = if side == a_side { 'A' } else { 'B' };
                summary
                    .forfeits
                    .push((number, who, played.termination.tag()));
            }
            let pair = (unit, index / 2);
            if index % 2 == 0 {
                waiting.insert(pair, result);
            } else if let Some(first) = waiting.remove(&pair) {
                summary.pairs.add_pair(first, result);
            }
            if let Some(series) = decided {
                if let Some((_, counts)) = summary.series.as_mut() {
                    match series.outcome() {
                        Some(SeriesOutcome::Won(super::series::Player::A)) => counts[0] += 1,
                        Some(SeriesOutcome::Won(super::series::Player::B)) => counts[1] += 1,
                        _ => counts[2] += 1,
                    }
                }
                summary.last_series = Some(series.to_string());
                waiting.retain(|(u, _), _| *u != unit);
            }
            if let Some((sprt, llr, verdict)) = summary.sprt.as_mut() {
                *llr = sprt.llr(&summary.pairs);
                if verdict.is_none() {
                    *verdict = sprt.verdict(*llr);
                    if verdict.is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
            summary.seconds = started.elapsed().as_secs_f64();
            let report = GameReport {
                number,
                a_side,
                played,
                result,
                series: config.series.map(|_| unit + 1),
            };
            if on_game(&report, &summary).is_break() {
                stop.store(true, Ordering::Relaxed);
                abort.store(true, Ordering::Relaxed);
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}
