//! The engine as an opponent and an analyst: searches run on
//! [`SEARCH_PERMITS`] threads of their own, each with an engine with a small
//! hash table for each game (Oware's, and Mancala's once a Mancala game
//! asks), at a lower priority than the threads answering requests (so a
//! human move is answered at once however busy the engine is), each search
//! capped at [`SEARCH_CAP`].

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;

use super::limits::{ENGINE_HASH_MIB, SEARCH_CAP, SEARCH_PERMITS};
use super::referee::Referee;
use crate::mancala::tables::MancalaTables;
use crate::mancala::{self, Mancala, MancalaRules};
use crate::search::{self, Engine, Limits, SearchGame};
use crate::tb::{self, Tablebase};
use crate::{Move, Variant};

/// How strongly an engine seat plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// Depth 2, and 30 % of the time a random move among those within one
    /// seed of the best.
    Easy,
    /// Depth 6.
    Medium,
    /// 300 ms a move.
    Hard,
    /// 2000 ms a move, with the endgame tables.
    Full,
    /// A fixed time a move in ms (`movetime:N`, for tests and load tests).
    Movetime(u64),
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Easy => f.write_str("easy"),
            Level::Medium => f.write_str("medium"),
            Level::Hard => f.write_str("hard"),
            Level::Full => f.write_str("full"),
            Level::Movetime(ms) => write!(f, "movetime:{ms}"),
        }
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Level, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "medium" => Ok(Level::Medium),
            "hard" => Ok(Level::Hard),
            "full" => Ok(Level::Full),
            other => match other.strip_prefix("movetime:").map(str::parse::<u64>) {
                Some(Ok(ms)) if (1..=SEARCH_CAP.as_millis() as u64).contains(&ms) => {
                    Ok(Level::Movetime(ms))
                }
                _ => Err(format!("unknown level '{s}' (easy, medium, hard or full)")),
            },
        }
    }
}

/// Why a search gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Every search slot stayed busy for too long.
    #[error("the engine is busy; try again later")]
    Busy,
    /// The search failed.
    #[error("search failed: {0}")]
    Search(String),
}

/// A search thread's engines: Oware's, and Mancala's made when first
/// needed.
struct Engines {
    oware: Engine,
    mancala: Option<Engine<Mancala>>,
}

impl Engines {
    fn new() -> Engines {
        Engines {
            oware: Engine::new(ENGINE_HASH_MIB, 1, None),
            mancala: None,
        }
    }

    /// The Oware engine, searching with `tables`.
    fn oware(&mut self, tables: Option<Arc<Tablebase>>) -> &Engine {
        self.oware.set_tables(tables);
        &self.oware
    }

    /// The Mancala engine, searching with `tables`.
    fn mancala(&mut self, tables: Option<Arc<MancalaTables>>) -> &Engine<Mancala> {
        let engine = self
            .mancala
            .get_or_insert_with(|| Engine::new(ENGINE_HASH_MIB, 1, None));
        engine.set_tables(tables);
        engine
    }
}

/// A search to run on a search thread with its engines.
type Job = Box<dyn FnOnce(&mut Engines) + Send>;

/// The search threads and the tables they search with.
pub struct EnginePool {
    permits: Semaphore,
    jobs: std::sync::mpsc::Sender<Job>,
    tables: HashMap<Variant, Arc<Tablebase>>,
    mancala_tables: [Option<Arc<MancalaTables>>; 2],
}

/// Lowers the calling thread's priority (Linux: `nice` is per thread).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; `0` is this thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// `limits` with the server's cap on time.
fn capped(mut limits: Limits) -> Limits {
    limits.movetime = Some(limits.movetime.map_or(SEARCH_CAP, |t| t.min(SEARCH_CAP)));
    limits
}

/// A random number below `n` (n ≥ 1) from the OS source.
fn random_below(n: usize) -> usize {
    let x = getrandom::u64().unwrap_or(0);
    (x % n.max(1) as u64) as usize
}

impl EnginePool {
    /// A pool searching with `tables` (by rule set) and Mancala's
    /// `mancala_tables` (standard, empty capture): starts the search
    /// threads.
    pub fn new(
        tables: HashMap<Variant, Arc<Tablebase>>,
        mancala_tables: [Option<Arc<MancalaTables>>; 2],
    ) -> std::io::Result<EnginePool> {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..SEARCH_PERMITS {
            let queue = Arc::clone(&queue);
            crate::threads::builder()?
                .name(format!("oware-search-{i}"))
                .spawn(move || {
                    lower_priority();
                    let mut engines = Engines::new();
                    loop {
                        let job = match queue.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                            Ok(job) => job,
                            Err(_) => return, // the server is gone
                        };
                        // A search that panics loses its answer, not the thread.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            job(&mut engines)
                        }));
                    }
                })?;
        }
        Ok(EnginePool {
            permits: Semaphore::new(SEARCH_PERMITS),
            jobs,
            tables,
            mancala_tables,
        })
    }

    /// The tables of a rule set, if any were found.
    pub fn tables(&self, variant: Variant) -> Option<&Arc<Tablebase>> {
        self.tables.get(&variant)
    }

    /// Mancala's tables of a capture convention, if any were found.
    pub fn mancala_tables(&self, rules: MancalaRules) -> Option<&Arc<MancalaTables>> {
        self.mancala_tables[usize::from(rules.empty_capture)].as_ref()
    }

    /// Runs `f` with a thread's engines on a search thread once one is
    /// free, waiting at most `wait` for it.
    async fn run<T: Send + 'static>(
        &self,
        wait: Option<Duration>,
        f: impl FnOnce(&mut Engines) -> Result<T, String> + Send + 'static,
    ) -> Result<T, PoolError> {
        let permit = match wait {
            Some(wait) => tokio::time::timeout(wait, self.permits.acquire())
                .await
                .map_err(|_| PoolError::Busy)?,
            None => self.permits.acquire().await,
        }
        .map_err(|_| PoolError::Busy)?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |engines: &mut Engines| {
            let _ = answer.send(f(engines));
        });
        self.jobs
            .send(job)
            .map_err(|_| PoolError::Search("the search threads are gone".into()))?;
        let out = answered.await;
        drop(permit);
        out.map_err(|_| PoolError::Search("the search failed".into()))?
            .map_err(PoolError::Search)
    }

    /// The move an engine seat of `level` plays in `game` (waits for a
    /// slot as long as it takes).
    pub async fn engine_move(&self, game: Referee, level: Level) -> Result<Move, PoolError> {
        let (tables, mancala_tables) = match (&game, level) {
            (Referee::Oware(g), Level::Full) => (self.tables(g.rules().variant).cloned(), None),
            (Referee::Mancala(rules, _), Level::Full) => {
                (None, self.mancala_tables(*rules).cloned())
            }
            _ => (None, None),
        };
        self.run(None, move |engines| match &game {
            Referee::Oware(g) => choose(engines.oware(tables), g, level),
            Referee::Mancala(_, g) => choose(engines.mancala(mancala_tables), g, level),
        })
        .await
    }

    /// The analysis of `game` (every move, `movetime` shared among them)
    /// as `analyze --json` prints it, plus `tables`: what the tables say
    /// about the position when they cover it (`oware probe --json`'s
    /// object, for either game), else null.
    pub async fn analyze(&self, game: Referee, movetime: Duration) -> Result<Value, PoolError> {
        let (tables, mancala_tables) = match &game {
            Referee::Oware(g) => (self.tables(g.rules().variant).cloned(), None),
            Referee::Mancala(rules, _) => (None, self.mancala_tables(*rules).cloned()),
        };
        self.run(Some(super::limits::QUEUE_WAIT), move |engines| {
            let legal = game.legal_moves().len().max(1) as u32;
            let each = capped(Limits::movetime(
                (movetime / legal).max(Duration::from_millis(1)),
            ));
            let mut out = match &game {
                Referee::Oware(g) => {
                    let engine = engines.oware(tables.clone());
                    let mut out = analysis(engine, g, g.position(), &each)?;
                    let probe = tables
                        .as_deref()
                        .and_then(|t| tb::probe::probe(t, g.position()).ok())
                        .and_then(|p| serde_json::to_value(p).ok())
                        .unwrap_or(Value::Null);
                    out.insert("tables".into(), probe);
                    out
                }
                Referee::Mancala(_, g) => {
                    let engine = engines.mancala(mancala_tables.clone());
                    let mut out = analysis(engine, g, g.position(), &each)?;
                    let probe = mancala_tables
                        .as_deref()
                        .and_then(|t| mancala::probe::probe(t, g.position()).ok())
                        .and_then(|p| serde_json::to_value(p).ok())
                        .unwrap_or(Value::Null);
                    if probe.is_null() && mancala_tables.is_none() {
                        out.insert(
                            "tables_note".into(),
                            "none (no Mancala tables of this capture convention were found)".into(),
                        );
                    }
                    out.insert("tables".into(), probe);
                    out
                }
            };
            out.insert("rules".into(), game.rules().name().into());
            Ok(Value::Object(out))
        })
        .await
    }
}

/// The object of `analyze --json` for `game` (at `position`).
fn analysis<G: SearchGame>(
    engine: &Engine<G>,
    game: &G::Game,
    position: &impl fmt::Display,
    limits: &Limits,
) -> Result<serde_json::Map<String, Value>, String> {
    let rows = search::analyze::analyze(engine, game, limits).map_err(|e| e.to_string())?;
    let tables = engine.tables().map(|t| &**t);
    match search::report::analysis_json::<G>(game, position, &rows, tables) {
        Value::Object(map) => Ok(map),
        _ => Err("the analysis is not an object".into()),
    }
}

/// The move of an engine of `level` in `game`.
fn choose<G: SearchGame>(engine: &Engine<G>, game: &G::Game, level: Level) -> Result<Move, String> {
    let limits = match level {
        Level::Easy => {
            let rows = search::analyze::analyze(engine, game, &capped(Limits::depth(2)))
                .map_err(|e| e.to_string())?;
            let best = rows.first().ok_or("no legal move")?;
            if random_below(10) < 3 {
                let near: Vec<Move> = rows
                    .iter()
                    .filter(|r| r.score() >= best.score() - 100)
                    .map(|r| r.mv)
                    .collect();
                return Ok(near[random_below(near.len())]);
            }
            return Ok(best.mv);
        }
        Level::Medium => Limits::depth(6),
        Level::Hard => Limits::movetime(Duration::from_millis(300)),
        Level::Full => Limits::movetime(Duration::from_millis(2000)),
        Level::Movetime(ms) => Limits::movetime(Duration::from_millis(ms)),
    };
    let result = engine
        .search(game, &capped(limits), |_| {})
        .map_err(|e| e.to_string())?;
    result
        .best
        .ok_or_else(|| "the search found no move".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_print_alike() {
        for name in ["easy", "medium", "hard", "full", "movetime:100"] {
            let level: Level = name.parse().unwrap();
            assert_eq!(level.to_string(), name);
        }
        assert_eq!("HARD".parse::<Level>(), Ok(Level::Hard));
        for bad in [
            "",
            "expert",
            "movetime:0",
            "movetime:5001",
            "movetime:-1",
            "movetime:x",
        ] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
    }

    #[test]
    fn searches_are_capped() {
        assert_eq!(capped(Limits::depth(6)).movetime, Some(SEARCH_CAP));
        let long = Limits::movetime(Duration::from_secs(60));
        assert_eq!(capped(long).movetime, Some(SEARCH_CAP));
        let short = Limits::movetime(Duration::from_millis(300));
        assert_eq!(capped(short).movetime, Some(Duration::from_millis(300)));
    }

    #[test]
    fn every_level_plays_a_legal_move() {
        let engine: Engine = Engine::new(1, 1, None);
        let game = crate::Game::new(crate::Position::START, crate::Rules::ABAPA);
        let mancala: Engine<Mancala> = Engine::new(1, 1, None);
        let start = crate::mancala::MancalaRules::new(4, true).start();
        let mut other = crate::mancala::MancalaGame::new(start);
        // C from four seeds a house ends in the store: South again.
        other.play(Move::from_letter('C').unwrap()).unwrap();
        for level in [Level::Easy, Level::Medium, Level::Movetime(20)] {
            let mv = choose(&engine, &game, level).unwrap();
            assert!(game.legal_moves().contains(&mv));
            let mv = choose(&mancala, &other, level).unwrap();
            assert!(other.legal_moves().contains(&mv), "{mv}");
            assert_eq!(mv.side(), crate::Side::South);
        }
    }
}
