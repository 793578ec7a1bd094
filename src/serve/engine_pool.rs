//! The engine as an opponent and an analyst: searches run on
//! [`SEARCH_PERMITS`] threads of their own, each with an engine with a small
//! hash table, at a lower priority than the threads answering requests (so a
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
use crate::search::{self, Engine, Limits};
use crate::tb::{self, Tablebase};
use crate::{Game, Move, Variant};

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

/// A search to run on a search thread with its engine.
type Job = Box<dyn FnOnce(&mut Engine) + Send>;

/// The search threads and the tables they search with.
pub struct EnginePool {
    permits: Semaphore,
    jobs: std::sync::mpsc::Sender<Job>,
    tables: HashMap<Variant, Arc<Tablebase>>,
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
    /// A pool searching with `tables` (by rule set): starts the search
    /// threads.
    pub fn new(tables: HashMap<Variant, Arc<Tablebase>>) -> std::io::Result<EnginePool> {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..SEARCH_PERMITS {
            let queue = Arc::clone(&queue);
            std::thread::Builder::new()
                .name(format!("oware-search-{i}"))
                .spawn(move || {
                    lower_priority();
                    let mut engine = Engine::new(ENGINE_HASH_MIB, 1, None);
                    loop {
                        let job = match queue.lock().unwrap_or_else(|e| e.into_inner()).recv() {
                            Ok(job) => job,
                            Err(_) => return, // the server is gone
                        };
                        // A search that panics loses its answer, not the thread.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            job(&mut engine)
                        }));
                    }
                })?;
        }
        Ok(EnginePool {
            permits: Semaphore::new(SEARCH_PERMITS),
            jobs,
            tables,
        })
    }

    /// The tables of a rule set, if any were found.
    pub fn tables(&self, variant: Variant) -> Option<&Arc<Tablebase>> {
        self.tables.get(&variant)
    }

    /// Runs `f` with an engine (searching with `tables`) on a search thread
    /// once one is free, waiting at most `wait` for it.
    async fn run<T: Send + 'static>(
        &self,
        tables: Option<Arc<Tablebase>>,
        wait: Option<Duration>,
        f: impl FnOnce(&Engine) -> Result<T, String> + Send + 'static,
    ) -> Result<T, PoolError> {
        let permit = match wait {
            Some(wait) => tokio::time::timeout(wait, self.permits.acquire())
                .await
                .map_err(|_| PoolError::Busy)?,
            None => self.permits.acquire().await,
        }
        .map_err(|_| PoolError::Busy)?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |engine: &mut Engine| {
            engine.set_tables(tables);
            let _ = answer.send(f(engine));
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
    pub async fn engine_move(&self, game: Game, level: Level) -> Result<Move, PoolError> {
        let tables = match level {
            Level::Full => self.tables(game.rules().variant).cloned(),
            _ => None,
        };
        self.run(tables, None, move |engine| choose(engine, &game, level))
            .await
    }

    /// The analysis of `game` (every move, `movetime` shared among them)
    /// as `analyze --json` prints it, plus `tables`: what the tables say
    /// about the position when they cover it, else null.
    pub async fn analyze(&self, game: Game, movetime: Duration) -> Result<Value, PoolError> {
        let tables = self.tables(game.rules().variant).cloned();
        let for_search = tables.clone();
        self.run(for_search, Some(super::limits::QUEUE_WAIT), move |engine| {
            let legal = game.legal_moves().len().max(1) as u32;
            let each = (movetime / legal).max(Duration::from_millis(1));
            let rows = search::analyze::analyze(engine, &game, &capped(Limits::movetime(each)))
                .map_err(|e| e.to_string())?;
            let mut out = search::report::analysis_json::<search::Oware>(
                &game,
                game.position(),
                &rows,
                tables.as_deref(),
            );
            let probe = tables
                .as_deref()
                .and_then(|t| tb::probe::probe(t, game.position()).ok())
                .and_then(|p| serde_json::to_value(p).ok())
                .unwrap_or(Value::Null);
            if let Value::Object(map) = &mut out {
                map.insert("tables".into(), probe);
            }
            Ok(out)
        })
        .await
    }
}

/// The move of an engine of `level` in `game`.
fn choose(engine: &Engine, game: &Game, level: Level) -> Result<Move, String> {
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
        let engine = Engine::new(1, 1, None);
        let game = Game::new(crate::Position::START, crate::Rules::ABAPA);
        for level in [Level::Easy, Level::Medium, Level::Movetime(20)] {
            let mv = choose(&engine, &game, level).unwrap();
            assert!(game.legal_moves().contains(&mv));
        }
    }
}
