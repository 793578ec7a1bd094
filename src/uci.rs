//! The engine protocol of the Aualé GUI (a UCI dialect, RULES.md §6).
//!
//! Commands are read one a line; a search runs on its own thread so that
//! `stop`, `isready` and `quit` are answered while it thinks.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::search::{Clock, Engine, Iteration, Limits, PROVEN};
use crate::tb::Tablebase;
use crate::{Game, Position, Rules, Side, format_moves, parse_moves};

/// Protocol settings that are not the engine's own.
struct Options {
    hash: usize,
    threads: usize,
    use_leaves: bool,
    table_path: PathBuf,
}

/// The protocol session: the engine, the current game and the running search.
pub struct Session<W: Write + Send + 'static> {
    engine: Arc<Mutex<Engine>>,
    game: Game,
    rules: Rules,
    options: Options,
    out: Arc<Mutex<W>>,
    search: Option<JoinHandle<()>>,
    /// Whether the running search has no limit of its own.
    infinite: bool,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

fn send<W: Write>(out: &Mutex<W>, line: &str) {
    let mut out = out.lock().expect("no panic while printing");
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// An `info` line for a finished iteration.
pub fn info_line(it: &Iteration) -> String {
    let nps = crate::search::report::nps(it.nodes, it.time);
    let score = if it.score.abs() >= PROVEN {
        // Proven results: the sign carries the result, the size the plies.
        it.score.signum() * (10_000 + (crate::search::WIN - it.score.abs()))
    } else {
        it.score
    };
    format!(
        "info depth {} score cp {score} nodes {} nps {nps} time {} pv {}",
        it.depth,
        it.nodes,
        it.time.as_millis(),
        format_moves(&it.pv)
    )
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing to `out`, playing by `rules`, looking for tables
    /// in `table_path`.
    pub fn new(out: W, rules: Rules, table_path: PathBuf) -> Session<W> {
        let engine = Engine::new(64, 1, None);
        let stop = engine.stop_flag();
        let mut session = Session {
            engine: Arc::new(Mutex::new(engine)),
            game: Game::new(Position::START, rules),
            rules,
            options: Options {
                hash: 64,
                threads: 1,
                use_leaves: true,
                table_path,
            },
            out: Arc::new(Mutex::new(out)),
            search: None,
            infinite: false,
            stop,
        };
        session.load_tables();
        session
    }

    fn say(&self, line: &str) {
        send(&self.out, line);
    }

    fn load_tables(&mut self) {
        let tables = if self.options.use_leaves && self.options.table_path.is_dir() {
            match Tablebase::open_for_search(
                &self.options.table_path,
                self.rules.variant,
                crate::tb::SEARCH_LEVEL_LIMIT as usize,
            ) {
                Ok(tb) if tb.complete_up_to().is_some() => Some(Arc::new(tb)),
                Ok(_) => None,
                Err(e) => {
                    self.say(&format!("info string tables not used: {e}"));
                    None
                }
            }
        } else {
            None
        };
        self.halt();
        self.engine.lock().expect("engine").set_tables(tables);
    }

    /// Waits for the running search (if any) to finish.
    fn wait(&mut self) {
        if let Some(handle) = self.search.take() {
            let _ = handle.join();
        }
    }

    /// Stops the running search (which then prints its `bestmove`) and
    /// waits for it.
    fn halt(&mut self) {
        if self.search.is_some() {
            self.stop.store(true, Relaxed);
            self.wait();
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            None => {}
            Some("uci") => {
                self.say(&format!("id name oware {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the oware developers");
                self.say("option name Hash type spin default 64 min 1 max 65536");
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say("option name OwnBook type check default false");
                self.say("option name UseLeaves type check default true");
                self.say(&format!(
                    "option name TablePath type string default {}",
                    self.options.table_path.display()
                ));
                self.say("uciok");
            }
            Some("isready") => self.say("readyok"),
            Some("ucinewgame") => {
                self.halt();
                self.engine.lock().expect("engine").clear();
                self.game = Game::new(Position::START, self.rules);
            }
            Some("position") => self.position(&words[1..]),
            Some("go") => self.go(&words[1..]),
            Some("stop") => self.halt(),
            Some("ponderhit") => {}
            Some("setoption") => self.setoption(&words[1..]),
            Some("quit") => {
                self.halt();
                return false;
            }
            Some(other) => self.say(&format!("info string unknown command '{other}'")),
        }
        true
    }

    fn position(&mut self, words: &[&str]) {
        let (start, rest) = match words {
            ["startpos", rest @ ..] => (Ok(Position::START), rest),
            ["fen", fen, rest @ ..] => (fen.parse::<Position>().map_err(|e| e.to_string()), rest),
            _ => {
                self.say("info string position needs 'startpos' or 'fen <position>'");
                return;
            }
        };
        let start = match start {
            Ok(p) => p,
            Err(e) => {
                self.say(&format!("info string bad position: {e}"));
                return;
            }
        };
        let mut game = Game::new(start, self.rules);
        match rest {
            [] => {}
            ["moves", list @ ..] => {
                let moves = match parse_moves(&list.join("")) {
                    Ok(m) => m,
                    Err(e) => {
                        self.say(&format!("info string bad moves: {e}"));
                        return;
                    }
                };
                if let Err((i, e)) = game.play_all(&moves) {
                    self.say(&format!(
                        "info string move {} ({}) is illegal: {e}",
                        i + 1,
                        moves[i]
                    ));
                    return;
                }
            }
            _ => {
                self.say("info string expected 'moves' after the position");
                return;
            }
        }
        self.game = game;
    }

    fn setoption(&mut self, words: &[&str]) {
        // setoption name <Name> value <v>
        let name_end = words
            .iter()
            .position(|w| *w == "value")
            .unwrap_or(words.len());
        let name = words
            .get(1..name_end)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        let value = words
            .get(name_end + 1..)
            .map(|w| w.join(" "))
            .unwrap_or_default();
        self.halt();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mib) if (1..=65536).contains(&mib) => {
                    self.options.hash = mib;
                    self.engine.lock().expect("engine").set_hash(mib);
                }
                _ => self.say(&format!("info string bad Hash value '{value}'")),
            },
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=256).contains(&t) => {
                    self.options.threads = t;
                    self.engine.lock().expect("engine").set_threads(t);
                }
                _ => self.say(&format!("info string bad Threads value '{value}'")),
            },
            "ownbook" => {}
            "useleaves" => {
                self.options.use_leaves = value.eq_ignore_ascii_case("true");
                self.load_tables();
            }
            "tablepath" => {
                self.options.table_path = PathBuf::from(value);
                self.load_tables();
            }
            _ => self.say(&format!("info string unknown option '{name}'")),
        }
    }

    fn go(&mut self, words: &[&str]) {
        self.halt();
        self.infinite = false;
        let mut limits = Limits::default();
        let mut clock = [Clock::default(), Clock::default()];
        let mut timed = false;
        let mut i = 0;
        while i < words.len() {
            let number = words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
            let ms = number.map(Duration::from_millis);
            let used = match (words[i], number) {
                ("depth", Some(n)) => {
                    limits.depth = Some(n as u32);
                    true
                }
                ("movetime", Some(_)) => {
                    limits.movetime = ms;
                    true
                }
                ("nodes", Some(n)) => {
                    limits.nodes = Some(n);
                    true
                }
                ("wtime", Some(_)) => {
                    clock[0].time_left = ms.unwrap_or_default();
                    timed = true;
                    true
                }
                ("btime", Some(_)) => {
                    clock[1].time_left = ms.unwrap_or_default();
                    timed = true;
                    true
                }
                ("winc", Some(_)) => {
                    clock[0].increment = ms.unwrap_or_default();
                    true
                }
                ("binc", Some(_)) => {
                    clock[1].increment = ms.unwrap_or_default();
                    true
                }
                ("movestogo", Some(n)) => {
                    clock[0].moves_to_go = Some(n as u32);
                    clock[1].moves_to_go = Some(n as u32);
                    true
                }
                ("infinite" | "ponder", _) => {
                    self.infinite = true;
                    false
                }
                (word, _) => {
                    self.say(&format!("info string ignored '{word}' in go"));
                    false
                }
            };
            i += if used { 2 } else { 1 };
        }
        if limits == Limits::default() && !timed {
            self.infinite = true;
        }
        if timed {
            let side = self.game.position().side_to_move();
            limits.clock = Some(clock[usize::from(side == Side::North)]);
        }
        self.stop.store(false, Relaxed);
        let engine = Arc::clone(&self.engine);
        let out = Arc::clone(&self.out);
        let game = self.game.clone();
        self.search = Some(std::thread::spawn(move || {
            let engine = engine.lock().expect("engine");
            let result = engine.search(&game, &limits, |it| send(&out, &info_line(it)));
            match result {
                Ok(r) => {
                    let best = r.best.map_or("0000".to_string(), |m| m.to_string());
                    match r.last.pv.get(1) {
                        Some(ponder) => send(&out, &format!("bestmove {best} ponder {ponder}")),
                        None => send(&out, &format!("bestmove {best}")),
                    }
                }
                Err(e) => {
                    send(&out, &format!("info string {e}"));
                    send(&out, "bestmove 0000");
                }
            }
        }));
    }
}

/// Runs the protocol on `input` and `output` until `quit` or end of input.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    rules: Rules,
    tables: PathBuf,
) {
    let mut session = Session::new(output, rules, tables);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !session.handle(line.trim()) {
            return;
        }
    }
    // End of input: a search with limits finishes; an infinite one stops.
    if session.infinite {
        session.halt();
    }
    session.wait();
}
