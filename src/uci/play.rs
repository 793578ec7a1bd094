//! The game a protocol session plays (Oware under one of its rule sets, or
//! Arabic Mancala), its engine and the current game; and the search of
//! either, on a thread of its own or on the session's.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use super::Output;
use super::control::{Control, lock};
use super::info::info_line;
use crate::mancala::{Mancala, MancalaGame, MancalaRules, MancalaTables};
use crate::search::{Engine, EvalChoice, Limits, Oware, SearchError, SearchGame};
use crate::tb::Tablebase;
use crate::{Game, Move, Position, Rules, Side, parse_moves};

/// The rules a session plays by (option `Rules`, and `StartSeeds` and
/// `EmptyCapture` for Mancala).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameRules {
    /// Oware with these rules.
    Oware(Rules),
    /// Arabic Mancala under these rules.
    Mancala(MancalaRules),
}

impl GameRules {
    /// The name the option `Rules` takes.
    pub fn name(self) -> &'static str {
        match self {
            GameRules::Oware(rules) => rules.variant.name(),
            GameRules::Mancala(_) => "mancala",
        }
    }
}

/// An engine and the game it plays.
pub(super) enum Play {
    /// Oware.
    Oware {
        engine: Arc<Mutex<Engine<Oware>>>,
        game: Game,
        rules: Rules,
    },
    /// Mancala.
    Mancala {
        engine: Arc<Mutex<Engine<Mancala>>>,
        game: MancalaGame,
        rules: MancalaRules,
    },
}

impl Play {
    /// A new engine for `rules` (`hash` MiB, `threads` threads, stopped by
    /// `stop`), at the start position.
    pub(super) fn new(
        rules: GameRules,
        hash: usize,
        threads: usize,
        stop: &Arc<AtomicBool>,
    ) -> Play {
        match rules {
            GameRules::Oware(rules) => {
                let mut engine = Engine::<Oware>::new(hash, threads, None);
                engine.set_stop_flag(Arc::clone(stop));
                Play::Oware {
                    engine: Arc::new(Mutex::new(engine)),
                    game: Game::new(Position::START, rules),
                    rules,
                }
            }
            GameRules::Mancala(rules) => {
                let mut engine = Engine::<Mancala>::new(hash, threads, None);
                engine.set_stop_flag(Arc::clone(stop));
                Play::Mancala {
                    engine: Arc::new(Mutex::new(engine)),
                    game: MancalaGame::new(rules.start()),
                    rules,
                }
            }
        }
    }

    /// The rules played.
    pub(super) fn rules(&self) -> GameRules {
        match self {
            Play::Oware { rules, .. } => GameRules::Oware(*rules),
            Play::Mancala { rules, .. } => GameRules::Mancala(*rules),
        }
    }

    /// The side to move in the current game.
    pub(super) fn side_to_move(&self) -> Side {
        match self {
            Play::Oware { game, .. } => game.position().side_to_move(),
            Play::Mancala { game, .. } => game.position().side_to_move(),
        }
    }

    /// The current Oware game (`None` when playing Mancala).
    pub(super) fn oware_game(&self) -> Option<&Game> {
        match self {
            Play::Oware { game, .. } => Some(game),
            Play::Mancala { .. } => None,
        }
    }

    /// `ucinewgame`: forgets what the engine learnt; the start position.
    pub(super) fn new_game(&mut self) {
        match self {
            Play::Oware {
                engine,
                game,
                rules,
            } => {
                lock(engine).clear();
                *game = Game::new(Position::START, *rules);
            }
            Play::Mancala {
                engine,
                game,
                rules,
            } => {
                lock(engine).clear();
                *game = MancalaGame::new(rules.start());
            }
        }
    }

    /// Uses these Oware tables (when playing Oware).
    pub(super) fn set_tables(&self, tables: Option<Arc<Tablebase>>) {
        if let Play::Oware { engine, .. } = self {
            lock(engine).set_tables(tables);
        }
    }

    /// Uses these Mancala tables (when playing Mancala).
    pub(super) fn set_mancala_tables(&self, tables: Option<Arc<MancalaTables>>) {
        if let Play::Mancala { engine, .. } = self {
            lock(engine).set_tables(tables);
        }
    }

    /// Uses this evaluation for Oware (Mancala's has no choice).
    pub(super) fn set_params(&self, params: EvalChoice) {
        if let Play::Oware { engine, .. } = self {
            lock(engine).params = params;
        }
    }

    /// Resizes the transposition table; the MiB it got.
    pub(super) fn set_hash(&self, mib: usize) -> usize {
        match self {
            Play::Oware { engine, .. } => resize(&mut lock(engine), mib),
            Play::Mancala { engine, .. } => resize(&mut lock(engine), mib),
        }
    }

    /// Sets the number of threads and starts them once; if the system
    /// will not start them all, the engine goes on with those it started
    /// (the error says how many).
    pub(super) fn set_threads(&self, threads: usize) -> Result<(), SearchError> {
        match self {
            Play::Oware { engine, .. } => thread_count(&mut lock(engine), threads),
            Play::Mancala { engine, .. } => thread_count(&mut lock(engine), threads),
        }
    }

    /// `position startpos|fen P [moves …]`: the game after the moves, or
    /// what is wrong with the words.
    pub(super) fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        let (fen, rest) = match words {
            ["startpos", rest @ ..] => (None, rest),
            ["fen", fen, rest @ ..] => (Some(*fen), rest),
            _ => return Err("position needs 'startpos' or 'fen <position>'".to_string()),
        };
        let bad = |e: crate::NotationError| format!("bad position: {e}");
        match self {
            Play::Oware { game, rules, .. } => {
                let start = fen.map_or(Ok(Position::START), str::parse).map_err(bad)?;
                let mut next = Game::new(start, *rules);
                let moves = moves_of(rest)?;
                next.play_all(&moves)
                    .map_err(|(i, e)| illegal(&moves, i, e))?;
                *game = next;
            }
            Play::Mancala { game, rules, .. } => {
                let start = match fen {
                    None => rules.start(),
                    Some(fen) => fen
                        .parse::<crate::mancala::MancalaPosition>()
                        .map_err(bad)?
                        .with_empty_capture(rules.empty_capture),
                };
                let mut next = MancalaGame::new(start);
                let moves = moves_of(rest)?;
                next.play_all(&moves)
                    .map_err(|(i, e)| illegal(&moves, i, e))?;
                *game = next;
            }
        }
        Ok(())
    }

    /// Starts the search of the current game on a thread of its own; it
    /// prints its `info` lines and, once `control` releases it, its
    /// `bestmove`.
    pub(super) fn spawn<W: Write + Send + 'static>(
        &self,
        out: &Arc<Output<W>>,
        stop: &Arc<AtomicBool>,
        control: &Arc<Control>,
        limits: Limits,
    ) -> std::io::Result<JoinHandle<()>> {
        match self {
            Play::Oware { engine, game, .. } => spawn(engine, game, out, stop, control, limits),
            Play::Mancala { engine, game, .. } => spawn(engine, game, out, stop, control, limits),
        }
    }

    /// Searches the current game on this thread and prints its `info`
    /// lines and `bestmove`.
    pub(super) fn search_here<W: Write + Send + 'static>(&self, out: &Output<W>, limits: &Limits) {
        match self {
            Play::Oware { engine, game, .. } => search_here(engine, game, out, limits),
            Play::Mancala { engine, game, .. } => search_here(engine, game, out, limits),
        }
    }
}

/// The moves of `moves …` after a position (none if nothing follows it).
fn moves_of(rest: &[&str]) -> Result<Vec<Move>, String> {
    match rest {
        [] => Ok(Vec::new()),
        ["moves", list @ ..] => parse_moves(&list.join("")).map_err(|e| format!("bad moves: {e}")),
        _ => Err("expected 'moves' after the position".to_string()),
    }
}

/// What is said of move `i` of `moves`, which cannot be played.
fn illegal(moves: &[Move], i: usize, e: impl std::fmt::Display) -> String {
    format!("move {} ({}) is illegal: {e}", i + 1, moves[i])
}

fn resize<G: SearchGame>(engine: &mut Engine<G>, mib: usize) -> usize {
    engine.set_hash(mib);
    engine.hash_mib()
}

fn thread_count<G: SearchGame>(engine: &mut Engine<G>, threads: usize) -> Result<(), SearchError> {
    engine.set_threads(threads);
    engine.check_threads().inspect_err(|e| {
        let started = match e {
            SearchError::Threads { started, .. } => (*started).max(1),
            _ => 1,
        };
        engine.set_threads(started);
    })
}

/// The search thread of [`Play::spawn`].
fn spawn<G: SearchGame, W: Write + Send + 'static>(
    engine: &Arc<Mutex<Engine<G>>>,
    game: &G::Game,
    out: &Arc<Output<W>>,
    stop: &Arc<AtomicBool>,
    control: &Arc<Control>,
    limits: Limits,
) -> std::io::Result<JoinHandle<()>> {
    let (engine, out, stop) = (Arc::clone(engine), Arc::clone(out), Arc::clone(stop));
    let (game, control) = (game.clone(), Arc::clone(control));
    std::thread::Builder::new().spawn(move || {
        let engine = lock(&engine);
        let tables = engine.tables().map(|t| &**t);
        let result = engine.search(&game, &limits, |it| {
            out.send(&info_line::<G>(it, &game, tables));
            // After `ponderhit`, no iteration starts past the soft
            // deadline.
            if lock(&control.hold)
                .soft
                .is_some_and(|s| Instant::now() >= s)
            {
                stop.store(true, Relaxed);
            }
        });
        drop(engine);
        control.wait_for_release();
        match result {
            Ok(r) => {
                let best = r.best.map_or("0000".to_string(), |m| m.to_string());
                match r.last.pv.get(1) {
                    Some(ponder) => out.send(&format!("bestmove {best} ponder {ponder}")),
                    None => out.send(&format!("bestmove {best}")),
                };
            }
            Err(e) => {
                out.send(&format!("info string {e}"));
                out.send("bestmove 0000");
            }
        }
        control.finish();
    })
}

/// The search of [`Play::search_here`].
fn search_here<G: SearchGame, W: Write + Send + 'static>(
    engine: &Mutex<Engine<G>>,
    game: &G::Game,
    out: &Output<W>,
    limits: &Limits,
) {
    let engine = lock(engine);
    let tables = engine.tables().map(|t| &**t);
    let result = engine.search(game, limits, |it| {
        out.send(&info_line::<G>(it, game, tables));
    });
    drop(engine);
    match result {
        Ok(r) => {
            let best = r.best.map_or("0000".to_string(), |m| m.to_string());
            out.send(&format!("bestmove {best}"));
        }
        Err(e) => {
            out.send(&format!("info string {e}"));
            out.send("bestmove 0000");
        }
    }
}
