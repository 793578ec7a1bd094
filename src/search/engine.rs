//! The engine: iterative deepening with aspiration windows over worker
//! threads sharing one transposition table (Lazy SMP).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::busy::Busy;
use super::features::Features;
use super::game::SearchGame;
use super::limits::{Limits, MAX_DEPTH};
use super::oware::Oware;
use super::timing::TimeManager;
use super::tt::{LocalTable, TranspositionTable};
use super::worker::{ALL_HOUSES, INFINITE, Shared, Worker, is_proven};
use crate::Move;

/// One finished iteration of the main thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Nominal depth.
    pub depth: u32,
    /// Score in centiseeds for the side to move (proven results as the
    /// game encodes them: for Oware ±30000 − plies; see
    /// [`SearchGame::proven`]).
    pub score: i32,
    /// Nodes of all threads so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Table probes so far.
    pub tb_hits: u64,
    /// No evaluation went into the score: it is the game's exact value
    /// (only for games whose search [solves](SearchGame::SOLVES)).
    pub solved: bool,
    /// A deeper search cannot change the result: the search ends on it.
    pub settled: bool,
}

impl Iteration {
    /// Whether the result is solved, or a proven result found deep enough
    /// that a deeper search cannot change it: the search ends on it.
    pub fn is_settled(&self) -> bool {
        self.settled
    }

    /// Whether this iteration replaces `current` as the search's result: it
    /// is deeper, or as deep and settled, and `current` is not settled.
    /// Threads sharing a table can finish the same depth with different
    /// scores, and one of them may be a proof the other missed.
    fn supersedes(&self, current: Option<&Iteration>) -> bool {
        current.is_none_or(|c| {
            !c.is_settled()
                && (self.depth > c.depth || (self.depth == c.depth && self.is_settled()))
        })
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`None` only when the game is over).
    pub best: Option<Move>,
    /// The last completed iteration (depth 0 when the move was forced).
    pub last: Iteration,
    /// The threads that searched: fewer than the engine's when the system
    /// would not start them all (the search then goes on with those).
    pub threads: usize,
}

/// Why a search cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The game has ended (why, as the game says it).
    #[error("the game is over ({0}); there is no move to search")]
    GameOver(String),
    /// The root moves asked for include no legal move.
    #[error("none of the moves to search is legal")]
    NoRootMove,
    /// The system would not start as many threads as asked.
    #[error("cannot start {asked} search threads, only {started}: {reason}")]
    Threads {
        /// Threads asked for.
        asked: usize,
        /// Threads that started.
        started: usize,
        /// What the system said.
        reason: String,
    },
}

/// A reusable engine for the game `G` (Oware unless said):
/// transposition table, tables and settings.
pub struct Engine<G: SearchGame = Oware> {
    tt: TranspositionTable,
    /// Each search thread's own small table (see [`LocalTable`]).
    locals: Vec<LocalTable>,
    tables: Option<Arc<G::Tables>>,
    threads: usize,
    stop: Arc<AtomicBool>,
    /// The evaluation (Oware: the built-in network unless set).
    pub params: G::Params,
    /// Search techniques in use.
    pub features: Features,
}

impl<G: SearchGame> Engine<G> {
    /// An engine with a `hash_mib` MiB table and `threads` threads.
    pub fn new(hash_mib: usize, threads: usize, tables: Option<Arc<G::Tables>>) -> Engine<G> {
        // The small tables first: the large one shrinks when memory is short.
        let locals = (0..threads.max(1)).map(|_| LocalTable::new()).collect();
        Engine {
            tt: TranspositionTable::new(hash_mib),
            locals,
            tables,
            threads: threads.max(1),
            stop: Arc::new(AtomicBool::new(false)),
            params: G::PARAMS,
            features: Features::DEFAULT,
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash(&mut self, mib: usize) {
        // The old table is given back first: the new one may need its room.
        self.tt = TranspositionTable::new(1);
        self.tt = TranspositionTable::new(mib);
    }

    /// The size of the transposition table in MiB: what was asked, or
    /// less when memory was short (see [`TranspositionTable::new`]).
    pub fn hash_mib(&self) -> usize {
        self.tt.mib()
    }

    /// Sets the number of threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        self.locals.resize_with(self.threads, LocalTable::new);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Checks that the system starts the engine's search threads now, by
    /// starting them (they end once all are started, as a search's all run
    /// at once). A search that cannot start them all later goes on with
    /// those it could start.
    pub fn check_threads(&self) -> Result<(), SearchError> {
        if self.threads == 1 {
            return Ok(());
        }
        let gate = std::sync::Mutex::new(());
        std::thread::scope(|scope| {
            let closed = gate.lock();
            let mut checked = Ok(());
            for started in 0..self.threads {
                let spawned = crate::threads::builder()
                    .and_then(|b| b.spawn_scoped(scope, || drop(gate.lock())));
                if let Err(e) = spawned {
                    checked = Err(SearchError::Threads {
                        asked: self.threads,
                        started,
                        reason: e.to_string(),
                    });
                    break;
                }
            }
            // The threads end once the gate opens, before the scope waits.
            drop(closed);
            checked
        })
    }

    /// Uses these tables (or none).
    pub fn set_tables(&mut self, tables: Option<Arc<G::Tables>>) {
        self.tables = tables;
    }

    /// The tables in use, if any.
    pub fn tables(&self) -> Option<&Arc<G::Tables>> {
        self.tables.as_ref()
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        for local in &self.locals {
            local.clear();
        }
    }

    /// Makes `flag` the one that stops this engine's searches (see
    /// [`Engine::stop_flag`]).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// A flag that stops the running search when set. The engine never
    /// clears it: whoever sets it clears it before the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Searches the current position of `game`, calling `on_iteration`
    /// after each completed iteration of the main thread.
    pub fn search(
        &self,
        game: &G::Game,
        limits: &Limits,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Result<SearchResult, SearchError> {
        let start = Instant::now();
        let origin = G::root(game)?;
        // The search's own stop flag, raised at the deadline or when the
        // caller's flag is set.
        let stop = AtomicBool::new(false);
        let root = origin.position;
        let mut legal = origin.legal;
        let root_moves = limits.root_moves.unwrap_or(ALL_HOUSES) & ALL_HOUSES;
        legal.retain(|m| root_moves & (1 << m.house()) != 0);
        if legal.is_empty() {
            return Err(SearchError::NoRootMove);
        }
        if legal.len() == 1 && limits.root_moves.is_none() {
            let last = Iteration {
                depth: 0,
                score: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: vec![legal[0]],
                tb_hits: 0,
                solved: false,
                settled: false,
            };
            on_iteration(&last);
            return Ok(SearchResult {
                best: Some(legal[0]),
                last,
                threads: 1,
            });
        }
        self.tt.new_search();
        let mut timing = TimeManager::new(limits, start);
        let nodes = AtomicU64::new(0);
        let completed_depth = AtomicU32::new(0);
        let tb_hits = AtomicU64::new(0);
        let busy = Busy::new();
        let shared = Shared {
            busy: (self.threads > 1 && self.features.defer).then_some(&busy),
            completed_depth: &completed_depth,
            tt: &self.tt,
            tables: self.tables.as_deref(),
            stop: &stop,
            cancel: &self.stop,
            nodes: &nodes,
            tb_hits: &tb_hits,
            // Iterations start while the time manager says so; this
            // aborts one midway.
            hard_deadline: timing.hard(),
            node_limit: limits.nodes,
            eval: G::evaluator(&self.params),
            features: self.features,
            rules: G::rules(game),
        };
        let history = origin.history;
        // A depth limit of 0 still searches one ply: the move returned is
        // always a searched one.
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let (result, threads) = if self.threads == 1 {
            // No thread to start: the search runs here, and reports its
            // iterations as it completes them.
            let mut result: Option<Iteration> = None;
            let mut worker = Worker::new(&shared, &self.locals[0], history);
            worker.root_moves = root_moves;
            deepen(&mut worker, &root, max_depth, start, |iteration| {
                if !timing.keep_going(&iteration, Instant::now()) {
                    shared.stop.store(true, Relaxed);
                }
                if iteration.supersedes(result.as_ref()) {
                    on_iteration(&iteration);
                    result = Some(iteration);
                }
            });
            (result, 1)
        } else {
            self.search_threads(
                &shared,
                history,
                &root,
                root_moves,
                max_depth,
                start,
                &mut timing,
                on_iteration,
            )
        };
        let last = result.unwrap_or_else(|| {
            // Stopped before depth 1 finished: any legal move.
            Iteration {
                depth: 0,
                score: 0,
                nodes: nodes.load(Relaxed),
                time: start.elapsed(),
                pv: vec![legal[0]],
                tb_hits: 0,
                solved: false,
                settled: false,
            }
        });
        let best = last.pv.first().copied().or(Some(legal[0]));
        Ok(SearchResult {
            best,
            last: Iteration {
                nodes: nodes.load(Relaxed),
                time: start.elapsed(),
                ..last
            },
            threads,
        })
    }

    /// The search on several threads: each deepens on its own, starting
    /// each iteration past the deepest one completed by any thread and
    /// abandoning an iteration that another thread completes first;
    /// completed iterations come here through a channel, in increasing
    /// depth, and this thread watches the soft deadline and the stop flag.
    /// Threads the system will not start are done without; with none at
    /// all, this thread searches alone. Returns the result and the number
    /// of threads that searched.
    #[allow(clippy::too_many_arguments)]
    fn search_threads(
        &self,
        shared: &Shared<G>,
        history: &[G::Position],
        root: &G::Position,
        root_moves: u8,
        max_depth: u32,
        start: Instant,
        timing: &mut TimeManager,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> (Option<Iteration>, usize) {
        let mut result: Option<Iteration> = None;
        let mut started = 0;
        let (sender, receiver) = std::sync::mpsc::channel::<Iteration>();
        std::thread::scope(|scope| {
            for index in 0..self.threads {
                let sender = sender.clone();
                let local = &self.locals[index];
                let spawned = crate::threads::builder().and_then(|b| {
                    b.spawn_scoped(scope, move || {
                        let mut worker = Worker::new(shared, local, history);
                        worker.root_rotation = index;
                        worker.root_moves = root_moves;
                        deepen(&mut worker, root, max_depth, start, |iteration| {
                            let _ = sender.send(iteration);
                        });
                    })
                });
                if spawned.is_err() {
                    break;
                }
                started += 1;
            }
            drop(sender);
            if started == 0 {
                let mut worker = Worker::new(shared, &self.locals[0], history);
                worker.root_moves = root_moves;
                deepen(&mut worker, root, max_depth, start, |iteration| {
                    if iteration.supersedes(result.as_ref()) {
                        on_iteration(&iteration);
                        result = Some(iteration);
                    }
                });
                return;
            }
            loop {
                let wait = timing.hard().map_or(Duration::from_millis(50), |h| {
                    h.saturating_duration_since(Instant::now())
                        .min(Duration::from_millis(50))
                });
                match receiver.recv_timeout(wait) {
                    Ok(iteration) => {
                        if !iteration.supersedes(result.as_ref()) {
                            continue;
                        }
                        on_iteration(&iteration);
                        let done = iteration.is_settled()
                            || iteration.depth >= max_depth
                            || !timing.keep_going(&iteration, Instant::now());
                        result = Some(iteration);
                        if done {
                            break;
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                }
                if timing.hard().is_some_and(|h| Instant::now() >= h)
                    || self.stop.load(Relaxed)
                    || shared.stop.load(Relaxed)
                {
                    break;
                }
            }
            shared.stop.store(true, Relaxed);
        });
        // Iterations completed after the loop stopped listening (all threads
        // have finished now) still count.
        for iteration in receiver.try_iter() {
            if iteration.supersedes(result.as_ref()) {
                on_iteration(&iteration);
                result = Some(iteration);
            }
        }
        (result, started.max(1))
    }
}

/// One thread's iterative deepening: each iteration is the one after the
/// deepest any thread has completed; `completed` gets each iteration this
/// thread completes first, and any that settles the result.
fn deepen<G: SearchGame>(
    worker: &mut Worker<G>,
    root: &G::Position,
    max_depth: u32,
    start: Instant,
    mut completed: impl FnMut(Iteration),
) {
    let shared = worker.shared;
    let mut previous: Option<i32> = None;
    loop {
        // Every thread works on the iteration after the deepest completed
        // one; they split its work by telling each other which positions
        // they are in (`Features::defer`). Sending odd helpers one iteration
        // ahead instead was slower: bench at depth 20 on 2 threads,
        // 3.84–3.94 s against 3.43–3.71 s.
        let depth = shared.completed_depth.load(Relaxed) + 1;
        if depth > max_depth || shared.stop.load(Relaxed) {
            break;
        }
        worker.depth = depth;
        worker.aborted = false;
        let Some((score, solved)) = aspiration(worker, root, depth as i32, previous) else {
            if shared.stop.load(Relaxed) {
                break;
            }
            continue;
        };
        worker.flush();
        previous = Some(score);
        let iteration = Iteration {
            depth,
            score,
            nodes: shared.nodes.load(Relaxed),
            time: start.elapsed(),
            pv: worker.pv[0].clone(),
            tb_hits: shared.tb_hits.load(Relaxed),
            solved,
            settled: solved
                || (!G::SOLVES && G::proven(score).is_some_and(|p| depth as i32 > p.plies + 2)),
        };
        // A settled result ends the search (decided here, so that one
        // thread stays deterministic). It is passed on even when another
        // thread has completed this depth first: that thread may not have
        // seen the proof, and the search stops on this one.
        let settled = iteration.is_settled();
        let first = shared.completed_depth.fetch_max(depth, Relaxed) < depth;
        if first || settled {
            completed(iteration);
        }
        if settled {
            shared.stop.store(true, Relaxed);
        }
    }
    worker.flush();
}

/// One iteration with an aspiration window around the previous score:
/// the score and whether it is solved (no evaluation went into it);
/// `None` if the search was stopped before it finished.
fn aspiration<G: SearchGame>(
    worker: &mut Worker<G>,
    root: &G::Position,
    depth: i32,
    previous: Option<i32>,
) -> Option<(i32, bool)> {
    let mut delta = 60;
    let (mut alpha, mut beta) = match previous {
        Some(p) if depth >= 4 && !is_proven::<G>(p) => (p - delta, p + delta),
        _ => (-INFINITE, INFINITE),
    };
    loop {
        let guesses = worker.guesses();
        let score = worker.search(root, depth, alpha, beta, 0, 0);
        if worker.aborted {
            return None;
        }
        if score <= alpha && alpha > -INFINITE {
            alpha = (score - delta).max(-INFINITE);
        } else if score >= beta && beta < INFINITE {
            beta = (score + delta).min(INFINITE);
        } else {
            return Some((score, G::SOLVES && worker.guesses() == guesses));
        }
        delta *= 4;
    }
}
