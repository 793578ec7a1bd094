//! An external engine as a player: `uci:COMMAND`, a child process speaking
//! the UCI dialect of RULES.md §6, its answers read on a thread so that a
//! hang is seen as one; a crash, a hang, an illegal or malformed answer is a
//! fault that loses the game, and the engine is started again.

use super::engine::{Fault, MoveRequest, Player, PlayerFactory, TimeControl};
use super::game::{ArenaGame, UciSetting};
use crate::{Move, Side};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Splits a command line into words: whitespace separates, single and
/// double quotes group.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in `{text}`"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// How to start an external engine.
#[derive(Clone, Debug)]
pub struct UciSpec {
    /// Program and arguments.
    pub command: Vec<String>,
    /// Display name (the engine's `id name`, else the command).
    pub name: String,
    /// How long the `uci` and `isready` handshakes may take.
    pub handshake: Duration,
    /// The options the engine is set to after the `uci` handshake (those
    /// it has; a required one it lacks is a fault).
    pub settings: Vec<UciSetting>,
}

impl UciSpec {
    /// The engine started by `command` (a command line).
    pub fn parse(command: &str) -> Result<UciSpec, String> {
        Ok(UciSpec {
            command: split_command(command)?,
            name: command.trim().to_string(),
            handshake: Duration::from_secs(10),
            settings: Vec::new(),
        })
    }

    /// The same engine, set to `settings` after each start.
    pub fn with_settings(mut self, settings: Vec<UciSetting>) -> UciSpec {
        self.settings = settings;
        self
    }

    /// Starts the engine once to check it and learn its name.
    pub fn check(mut self) -> Result<UciSpec, String> {
        let engine = UciEngine::start(&self).map_err(|f| format!("engine `{}`: {f}", self.name))?;
        if let Some(id) = &engine.id_name {
            self.name = id.clone();
        }
        Ok(self)
    }
}

impl<G: ArenaGame> PlayerFactory<G> for UciSpec {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self) -> Result<Box<dyn Player<G>>, String> {
        Ok(Box::new(UciPlayer {
            spec: self.clone(),
            engine: None,
        }))
    }
}

/// A running external engine.
struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    id_name: Option<String>,
}

impl UciEngine {
    fn start(spec: &UciSpec) -> Result<UciEngine, Fault> {
        let mut child = Command::new(&spec.command[0])
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start `{}`: {e}", spec.command[0])))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Crash("no pipes to the engine".into()));
        };
        let (tx, rx) = channel();
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::Crash(format!("cannot start a reader thread: {e}")));
        }
        let mut engine = UciEngine {
            child,
            stdin,
            lines: rx,
            id_name: None,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + spec.handshake;
        let mut options = Vec::new();
        loop {
            let line = engine.next_line(deadline, spec.handshake)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(name.trim().to_string());
            }
            if let Some(option) = option_name(&line) {
                options.push(option.to_ascii_lowercase());
            }
            if line == "uciok" {
                break;
            }
        }
        for setting in &spec.settings {
            if options.contains(&setting.name.to_ascii_lowercase()) {
                engine.send(&format!(
                    "setoption name {} value {}",
                    setting.name, setting.value
                ))?;
            } else if setting.required {
                return Err(Fault::Crash(format!(
                    "the engine has no option {}, which this match needs",
                    setting.name
                )));
            }
        }
        engine.ready(spec.handshake)?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Fault::Crash(format!("cannot write to the engine: {e}")))
    }

    fn next_line(&self, deadline: Instant, waited: Duration) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Hang(waited)),
            Err(RecvTimeoutError::Disconnected) => Err(Fault::Crash("the engine exited".into())),
        }
    }

    fn ready(&mut self, wait: Duration) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + wait;
        while self.next_line(deadline, wait)? != "readyok" {}
        Ok(())
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A short grace, then the engine is ended.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external engine as a player: started on the first game, restarted
/// after any fault.
pub struct UciPlayer {
    spec: UciSpec,
    engine: Option<UciEngine>,
}

/// The name of the option an `option name NAME type …` line declares.
fn option_name(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// The `go …` command for a request.
pub fn go_command(request: &MoveRequest) -> String {
    match request.tc {
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Clock { .. } => {
            let ms = |d: Duration| d.as_millis();
            let [south, north] = [Side::South, Side::North].map(|s| s.index());
            format!(
                "go wtime {} btime {} winc {} binc {}",
                ms(request.time_left[south]),
                ms(request.time_left[north]),
                ms(request.increments[south]),
                ms(request.increments[north])
            )
        }
    }
}

impl UciPlayer {
    fn ask<G: ArenaGame>(&mut self, game: &G::Game, request: &MoveRequest) -> Result<Move, Fault> {
        if self.engine.is_none() {
            self.engine = Some(UciEngine::start(&self.spec)?);
        }
        let Some(engine) = self.engine.as_mut() else {
            return Err(Fault::Crash("not started".into()));
        };
        engine.send(&G::position_command(game))?;
        engine.send(&go_command(request))?;
        let deadline = Instant::now() + request.wait;
        loop {
            let line = engine.next_line(deadline, request.wait)?;
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                continue;
            }
            let word = words.next().unwrap_or("");
            let mut chars = word.chars();
            return match (chars.next().and_then(Move::from_letter), chars.next()) {
                (Some(mv), None) => Ok(mv),
                _ => Err(Fault::Garbage(line.clone())),
            };
        }
    }
}

impl<G: ArenaGame> Player<G> for UciPlayer {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        if self.engine.is_none() {
            match UciEngine::start(&self.spec) {
                Ok(engine) => self.engine = Some(engine),
                Err(fault) => return Err(fault),
            }
        }
        let result = match self.engine.as_mut() {
            Some(engine) => engine
                .send("ucinewgame")
                .and_then(|()| engine.ready(self.spec.handshake)),
            None => Err(Fault::Crash("not started".into())),
        };
        if result.is_err() {
            self.engine = None;
        }
        result
    }

    fn choose(&mut self, game: &G::Game, request: &MoveRequest) -> Result<Move, Fault> {
        let result = self.ask::<G>(game, request);
        if result.is_err() {
            // Whatever it was doing, it starts afresh next game.
            self.engine = None;
        }
        result
    }

    fn faulted(&mut self) {
        self.engine = None;
    }
}
