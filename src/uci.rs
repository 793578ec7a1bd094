//! The engine protocol of the Aualé GUI (a UCI dialect, RULES.md §6).
//!
//! A thread reads the input, line by line as bytes; the session handles
//! each line, and a search runs on a thread of its own so that `stop`,
//! `ponderhit`, `isready` and `quit` are answered while it thinks. The
//! `bestmove` of `go ponder` and `go infinite` waits for `stop` (or
//! `ponderhit`) even when the search ends by itself. The session ends on
//! `quit`, at the end of the input (stopping any search, which prints its
//! `bestmove`) or when the output can no longer be written.

mod control;
pub mod go;
mod info;
pub mod lines;
mod options;
mod play;
mod tables;

use std::io::{BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use crate::search::{EvalChoice, Limits};
use crate::tb::Tablebase;
use control::{Control, Hold, Running, lock};
use go::parse_go;
pub use info::{info_line, score_fields};
use lines::{Line, MAX_LINE, read_line};
pub use play::GameRules;
use play::Play;

/// Protocol settings that are not the engine's own.
struct Options {
    hash: usize,
    threads: usize,
    use_leaves: bool,
    table_path: PathBuf,
    /// Whether the folder was asked for (it must then exist) rather than
    /// the default one.
    table_asked: bool,
    /// `OwnBook`: whether the book is played (on at the start when the
    /// book file is found, unless `--no-book`).
    own_book: bool,
    /// The opening book, when `OwnBook` is on and it could be read.
    book: Option<crate::book::Book>,
    /// `BookFile`: where the book is read from (default: `book.owb` in
    /// the table folder).
    book_file: Option<PathBuf>,
    /// `StartSeeds`: Mancala's seeds a house at the start.
    start_seeds: u8,
    /// `EmptyCapture`: Mancala's capture convention.
    empty_capture: bool,
    /// `EvalFile`: Oware's evaluation (weights or a network), and the file it came from
    /// (`None`: the built-in network).
    eval: EvalChoice,
    eval_file: Option<PathBuf>,
}

/// What the session's loop waits for.
enum Event {
    /// A line of input.
    Line(Line),
    /// The input ended (or could not be read).
    End,
    /// Writing the output failed.
    OutputClosed,
}

/// The output, shared with the search thread. Once a write fails, nothing
/// more is written, the search is stopped and the session's loop told.
struct Output<W> {
    writer: Mutex<W>,
    closed: AtomicBool,
    stop: Arc<AtomicBool>,
    events: Mutex<Option<SyncSender<Event>>>,
}

impl<W: Write> Output<W> {
    /// Writes one line; false if the output is closed.
    fn send(&self, line: &str) -> bool {
        if self.closed.load(Relaxed) {
            return false;
        }
        let mut writer = lock(&self.writer);
        if writeln!(writer, "{line}")
            .and_then(|()| writer.flush())
            .is_ok()
        {
            return true;
        }
        drop(writer);
        self.closed.store(true, Relaxed);
        self.stop.store(true, Relaxed);
        if let Some(events) = lock(&self.events).as_ref() {
            let _ = events.try_send(Event::OutputClosed);
        }
        false
    }
}

/// The protocol session: the engine, the current game and the running search.
pub struct Session<W: Write + Send + 'static> {
    /// The engine and the current game, of the game the option `Rules`
    /// names.
    play: Play,
    options: Options,
    out: Arc<Output<W>>,
    search: Option<Running>,
    stop: Arc<AtomicBool>,
    /// `info string` lines said before the next `uciok`, or before the
    /// answer to any other command (what the tables opened at the start
    /// hold: said at once, they would come before `id name`).
    pending: Vec<String>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing to `out`, playing by `rules`, looking for tables
    /// in `table_path` (which must exist if `table_asked`; otherwise a
    /// missing folder only means no tables). What it finds is said as
    /// `info string` lines before `uciok`.
    pub fn new(out: W, rules: GameRules, table_path: PathBuf, table_asked: bool) -> Session<W> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut session = Session {
            play: Play::new(rules, 64, 1, &stop),
            options: Options {
                hash: 64,
                threads: 1,
                use_leaves: true,
                table_path,
                table_asked,
                own_book: false,
                book: None,
                book_file: None,
                start_seeds: match rules {
                    GameRules::Mancala(rules) => rules.start_seeds,
                    GameRules::Oware(_) => 3,
                },
                empty_capture: matches!(rules, GameRules::Mancala(r) if r.empty_capture),
                eval: EvalChoice::DEFAULT,
                eval_file: None,
            },
            out: Arc::new(Output {
                writer: Mutex::new(out),
                closed: AtomicBool::new(false),
                stop: Arc::clone(&stop),
                events: Mutex::new(None),
            }),
            search: None,
            stop,
            pending: Vec::new(),
        };
        session.load_tables();
        session
    }

    /// Whether writing the output has failed (the session should end).
    pub fn output_closed(&self) -> bool {
        self.out.closed.load(Relaxed)
    }

    fn say(&self, line: &str) {
        self.out.send(line);
    }

    /// Opens the tables of the option `TablePath` (unless `UseLeaves` is
    /// off) and says which levels are in use, which files were left closed
    /// as damaged, or why none are used.
    fn load_tables(&mut self) {
        self.halt();
        let path = &self.options.table_path;
        let mut notes = Vec::new();
        let rules = match self.play.rules() {
            GameRules::Oware(rules) => rules,
            GameRules::Mancala(rules) => {
                let tables = tables::mancala(
                    &self.options.table_path,
                    self.options.table_asked,
                    self.options.use_leaves,
                    rules,
                    &mut notes,
                );
                self.play.set_mancala_tables(tables);
                self.pending
                    .extend(notes.into_iter().map(|n| format!("info string {n}")));
                return;
            }
        };
        let tables = if !self.options.use_leaves {
            notes.push("tables: none (UseLeaves is off)".to_string());
            None
        } else if !rules.variant.has_tables() {
            notes.push(format!(
                "tables: none ({} has no tables: {})",
                rules.variant,
                crate::rules::NO_TABLES
            ));
            None
        } else if !self.options.table_asked && !path.is_dir() {
            notes.push(format!("tables: none ({} not found)", path.display()));
            None
        } else {
            // Decoded alongside the first searches: the GUI's `isready`
            // is answered at once.
            match Tablebase::open_for_search_lazily(
                path,
                rules.variant,
                crate::tb::SEARCH_LEVEL_LIMIT as usize,
            ) {
                Ok(tb) => {
                    for rejected in tb.rejected() {
                        notes.push(format!("table left closed: {rejected}"));
                    }
                    notes.push(format!("tables: {}", tb.describe()));
                    let tb = tb.complete_up_to().is_some().then(|| Arc::new(tb));
                    if let Some(tb) = &tb {
                        let _ = tb.decode_in_background(crate::tb::levels::decode_budget());
                    }
                    tb
                }
                Err(e) => {
                    notes.push(format!("tables not used: {e}"));
                    None
                }
            }
        };
        self.play.set_tables(tables);
        self.pending
            .extend(notes.into_iter().map(|n| format!("info string {n}")));
    }

    /// Says what waits to be said (see [`Session::new`]).
    fn flush_pending(&mut self) {
        for line in std::mem::take(&mut self.pending) {
            self.say(&line);
        }
    }

    /// Stops the running search (if any), which then prints its
    /// `bestmove`, and waits for it.
    pub fn halt(&mut self) {
        if let Some(running) = self.search.take() {
            self.stop.store(true, Relaxed);
            running.control.release();
            let _ = running.thread.join();
            if let Some(timer) = running.timer {
                let _ = timer.join();
            }
        }
    }

    /// Handles one line read as bytes; returns false on `quit`. A line
    /// that is not UTF-8, or longer than [`MAX_LINE`], is reported and
    /// ignored.
    pub fn handle_line(&mut self, line: &Line) -> bool {
        if line.discarded > 0 {
            self.say(&format!(
                "info string ignored a line longer than {MAX_LINE} bytes"
            ));
            return true;
        }
        match std::str::from_utf8(&line.bytes) {
            Ok(text) => self.handle(text),
            Err(_) => {
                self.say("info string ignored a line that is not UTF-8");
                true
            }
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        if !matches!(words.first(), None | Some(&"uci")) {
            self.flush_pending();
        }
        match words.first().copied() {
            None => {}
            Some("uci") => {
                self.say(&format!("id name oware {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the oware developers");
                self.say("option name Hash type spin default 64 min 1 max 65536");
                self.say("option name Threads type spin default 1 min 1 max 256");
                self.say(&format!(
                    "option name OwnBook type check default {}",
                    self.options.own_book
                ));
                self.say("option name BookFile type string default <TablePath>/book.owb");
                self.say("option name UseLeaves type check default true");
                self.say(&format!(
                    "option name Rules type combo default {} var abapa var grand-slam-forbidden var capture-and-end var capture-to-win var awari var mancala",
                    self.play.rules().name()
                ));
                self.say(&format!(
                    "option name StartSeeds type spin default {} min 3 max 7",
                    self.options.start_seeds
                ));
                self.say(&format!(
                    "option name EmptyCapture type check default {}",
                    self.options.empty_capture
                ));
                self.say(&format!(
                    "option name TablePath type string default {}",
                    self.options.table_path.display()
                ));
                self.say(&format!(
                    "option name EvalFile type string default {}",
                    self.options
                        .eval_file
                        .as_ref()
                        .map_or("<built-in>".to_string(), |p| p.display().to_string())
                ));
                self.flush_pending();
                self.say("uciok");
            }
            Some("isready") => self.say("readyok"),
            Some("ucinewgame") => {
                self.halt();
                self.play.new_game();
            }
            Some("position") => self.position(&words[1..]),
            Some("go") => self.go(&words[1..]),
            Some("stop") => self.halt(),
            Some("ponderhit") => self.ponderhit(),
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
        if let Err(e) = self.play.set_position(words) {
            self.say(&format!("info string {e}"));
        }
    }

    fn go(&mut self, words: &[&str]) {
        self.halt();
        if !words.iter().any(|w| matches!(*w, "infinite" | "ponder"))
            && let Some(choice) = self.book_move()
        {
            self.say(&format!(
                "info string book move {} {:+.2}",
                choice.mv,
                f64::from(choice.value) / 100.0
            ));
            self.say(&format!("bestmove {}", choice.mv));
            return;
        }
        let go = parse_go(words, self.play.side_to_move());
        for note in &go.notes {
            self.say(&format!("info string {note}"));
        }
        let control = Arc::new(Control {
            hold: Mutex::new(Hold {
                held: go.holds_bestmove(),
                infinite: go.infinite,
                ponder: go.ponder.then_some(go.on_ponderhit),
                ..Hold::default()
            }),
            changed: Condvar::new(),
        });
        self.stop.store(false, Relaxed);
        match self.play.spawn(&self.out, &self.stop, &control, go.limits) {
            Ok(thread) => {
                self.search = Some(Running {
                    thread,
                    control,
                    timer: None,
                });
            }
            Err(e) => self.search_here(&go.limits, &e),
        }
    }

    /// A search on the session's own thread, for when its thread cannot be
    /// started: `stop` is not read meanwhile, so a search without limits
    /// gets one second.
    fn search_here(&mut self, limits: &Limits, error: &std::io::Error) {
        self.say(&format!(
            "info string cannot start the search thread ({error}); searching on this one"
        ));
        let mut limits = *limits;
        if limits.depth.is_none()
            && limits.movetime.is_none()
            && limits.clock.is_none()
            && limits.nodes.is_none()
        {
            limits.movetime = Some(std::time::Duration::from_secs(1));
        }
        self.play.search_here(&self.out, &limits);
    }

    /// `ponderhit`: the ponder search goes on as a timed one, its clock
    /// starting now, and its `bestmove` is no longer held.
    fn ponderhit(&mut self) {
        let Some(running) = self.search.as_mut() else {
            self.say("info string ponderhit with no search running");
            return;
        };
        let control = Arc::clone(&running.control);
        let mut hold = lock(&control.hold);
        let Some(limits) = hold.ponder.take() else {
            drop(hold);
            self.say("info string ponderhit when not pondering");
            return;
        };
        let deadlines = limits.deadlines(Instant::now());
        hold.soft = deadlines.soft;
        hold.held = hold.infinite;
        drop(hold);
        control.changed.notify_all();
        if let Some(hard) = deadlines.hard {
            let stop = Arc::clone(&self.stop);
            // Without the timer, the search still stops at the end of the
            // first iteration past the soft deadline.
            running.timer = std::thread::Builder::new()
                .spawn(move || control.stop_at(hard, &stop))
                .ok();
        }
    }
}

/// Runs the protocol on `input` and `output` until `quit`, the end of the
/// input (which stops a running search) or a failed write, evaluating with
/// `eval` (the evaluation and the file it came from) and, when `book`,
/// playing from the book found in the table folder (see
/// [`BOOK_FILE`](crate::book::BOOK_FILE)) with `OwnBook` on.
pub fn run<R: Read + Send + 'static, W: Write + Send + 'static>(
    input: R,
    output: W,
    rules: GameRules,
    tables: PathBuf,
    tables_asked: bool,
    eval: (EvalChoice, Option<PathBuf>),
    book: bool,
) {
    let mut session = Session::new(output, rules, tables, tables_asked);
    session.set_eval(eval.0, eval.1);
    if book {
        session.open_default_book();
    } else {
        session
            .pending
            .push("info string book: none (--no-book)".to_string());
    }
    // A few lines of look-ahead: the reader waits while the session is busy.
    let (events, received) = sync_channel(16);
    *lock(&session.out.events) = Some(events.clone());
    let mut input = BufReader::new(input);
    let reader = std::thread::Builder::new().spawn(move || {
        loop {
            let event = match read_line(&mut input, MAX_LINE) {
                Ok(Some(line)) => Event::Line(line),
                Ok(None) | Err(_) => Event::End,
            };
            let end = matches!(event, Event::End);
            if events.send(event).is_err() || end {
                return;
            }
        }
    });
    if let Err(e) = reader {
        // Nothing can be read: the session ends, saying why.
        session.say(&format!("info string cannot start the input reader: {e}"));
        return;
    }
    for event in received.iter() {
        let go_on = match event {
            Event::Line(line) => session.handle_line(&line),
            Event::End | Event::OutputClosed => false,
        };
        if !go_on || session.output_closed() {
            break;
        }
    }
    session.halt();
    *lock(&session.out.events) = None;
}
