//! The players of a match: the [`Player`] trait, the built-in engine
//! (`self:key=value,…`) and any external engine speaking the UCI dialect of
//! RULES.md §6 (`uci:COMMAND`), started as a child process whose answers are
//! read on a thread so that a hang is seen as one.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::search::{Clock, Engine, EvalParams, Features, Limits};
use crate::tb::Tablebase;
use crate::{Game, Move, Position, Side, Variant, format_moves};

/// How long each move may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed depth per move.
    Depth(u32),
    /// About this many nodes per move (`go nodes N` for external engines).
    Nodes(u64),
    /// A real clock: `base` for the game and `increment` a move; running out
    /// loses.
    Clock {
        /// The time for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl fmt::Display for TimeControl {
    /// `movetime 100 ms`, `depth 8`, `nodes 10000`, `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "nodes {n}"),
            TimeControl::Clock { base, increment } => {
                write!(f, "{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// Parses `BASE+INC` in seconds (`10+0.1`, `60`).
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let bad = || format!("bad time control `{text}` (expected BASE+INC in seconds, e.g. 10+0.1)");
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0 && *x < 1e7)
            .map(Duration::from_secs_f64)
    };
    let (base, increment) = (secs(base).ok_or_else(bad)?, secs(inc).ok_or_else(bad)?);
    if base.is_zero() && increment.is_zero() {
        return Err(bad());
    }
    Ok(TimeControl::Clock { base, increment })
}

/// What a player is asked for one move.
#[derive(Copy, Clone, Debug)]
pub struct MoveRequest {
    /// The time control.
    pub tc: TimeControl,
    /// With a clock: the time left of South and North.
    pub time_left: [Duration; 2],
    /// With a clock: the increment.
    pub increment: Duration,
    /// How long to wait for an answer before calling it a hang.
    pub wait: Duration,
}

/// How a player failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not start, or ended.
    Crash(String),
    /// No answer in time.
    Hang(Duration),
    /// A well-formed move that is not legal here.
    Illegal(String),
    /// An answer that is not a move.
    Garbage(String),
    /// The built-in engine could not search.
    Failed(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Crash(why) => write!(f, "crash: {why}"),
            Fault::Hang(t) => write!(f, "hang: no bestmove in {:.1} s", t.as_secs_f64()),
            Fault::Illegal(mv) => write!(f, "illegal move `{mv}`"),
            Fault::Garbage(line) => write!(f, "malformed answer `{line}`"),
            Fault::Failed(why) => write!(f, "failed: {why}"),
        }
    }
}

impl Fault {
    /// A short kind: crash, hang, illegal, garbage, failed.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Crash(_) => "crash",
            Fault::Hang(_) => "hang",
            Fault::Illegal(_) => "illegal",
            Fault::Garbage(_) => "garbage",
            Fault::Failed(_) => "failed",
        }
    }
}

/// A player of a match.
pub trait Player: Send {
    /// The name shown in the summary and the record.
    fn name(&self) -> &str;
    /// Gets ready for a new game (restarting a broken engine).
    fn new_game(&mut self) -> Result<(), Fault>;
    /// The move to play in `game` (legality is the referee's business,
    /// except that the answer must name a pit).
    fn choose(&mut self, game: &Game, request: &MoveRequest) -> Result<Move, Fault>;
    /// Told that its answer lost the game (an illegal move, time out): an
    /// external engine is ended and a new one started for the next game.
    fn faulted(&mut self) {}
}

/// A way to make players: the parsed and checked engine specification.
pub trait PlayerFactory: Send + Sync {
    /// The display name.
    fn name(&self) -> &str;
    /// A fresh player.
    fn make(&self) -> Result<Box<dyn Player>, String>;
}

/// The options of the built-in engine.
#[derive(Clone)]
pub struct SelfOptions {
    /// Display name.
    pub name: String,
    /// Hash MiB.
    pub hash: usize,
    /// Search threads.
    pub threads: usize,
    /// Tables.
    pub tables: Option<Arc<Tablebase>>,
    /// Techniques.
    pub features: Features,
    /// Evaluation weights.
    pub params: EvalParams,
    /// Scales the time (movetime) or nodes per move this engine is given:
    /// 2 thinks twice as long as its opponent (a clock is not scaled).
    pub time_factor: f64,
}

impl fmt::Debug for SelfOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SelfOptions")
            .field("name", &self.name)
            .field("hash", &self.hash)
            .field("threads", &self.threads)
            .field("tables", &self.tables.as_ref().map(|t| t.describe()))
            .field("features", &self.features)
            .field("params", &self.params)
            .field("time_factor", &self.time_factor)
            .finish()
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("bad value `{value}` for {key} (on or off)")),
    }
}

fn number<T: std::str::FromStr>(
    key: &str,
    value: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T, String> {
    value
        .trim()
        .parse::<T>()
        .ok()
        .filter(|v| ok(v))
        .ok_or_else(|| format!("bad value `{value}` for {key}"))
}

/// Reads evaluation weights: a JSON object or `key=value` lines (`#`
/// comments), keys as the fields of [`EvalParams`] (`own_seed` or
/// `own-seed`); weights not named keep their default.
pub fn parse_eval_params(text: &str) -> Result<EvalParams, String> {
    let mut p = EvalParams::DEFAULT;
    let mut pairs: Vec<(String, String)> = Vec::new();
    if text.trim_start().starts_with('{') {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("bad JSON: {e}"))?;
        let object = value.as_object().ok_or("expected a JSON object")?;
        for (k, v) in object {
            pairs.push((k.clone(), v.to_string()));
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (k, v) = line
                .split_once('=')
                .or_else(|| line.split_once(':'))
                .ok_or_else(|| format!("line {}: expected key=value", i + 1))?;
            pairs.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    for (k, v) in pairs {
        let value: i32 = number(&k, &v, |x: &i32| x.abs() <= 1_000_000)?;
        let field = match k.replace('-', "_").as_str() {
            "store" => &mut p.store,
            "own_seed" => &mut p.own_seed,
            "target" => &mut p.target,
            "empty" => &mut p.empty,
            "mobility" => &mut p.mobility,
            "kroo" => &mut p.kroo,
            "threat" => &mut p.threat,
            other => return Err(format!("unknown weight `{other}`")),
        };
        *field = value;
    }
    Ok(p)
}

/// Parses the options of `self:key=value,…` (the part after `self:`) for
/// games under `variant`: hash, threads, db, tb-limit, reductions,
/// capture-search (on, off or a number of plies), defer (the helper threads'
/// scheme), eval (a file of weights), time (a factor on the time or nodes a
/// move), name.
pub fn parse_self(options: &str, variant: Variant) -> Result<SelfOptions, String> {
    let mut o = SelfOptions {
        name: String::new(),
        hash: 16,
        threads: 1,
        tables: None,
        features: Features::DEFAULT,
        params: EvalParams::DEFAULT,
        time_factor: 1.0,
    };
    let mut db: Option<PathBuf> = None;
    let mut tb_limit = crate::tb::SEARCH_LEVEL_LIMIT as usize;
    let mut names = Vec::new();
    for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("bad engine option `{item}` (expected key=value)"))?;
        let (key, value) = (key.trim(), value.trim());
        match key {
            "name" => o.name = value.to_string(),
            "hash" => o.hash = number(key, value, |&x: &usize| (1..=65536).contains(&x))?,
            "threads" => o.threads = number(key, value, |&x: &usize| (1..=256).contains(&x))?,
            "db" => db = Some(PathBuf::from(value)),
            "tb-limit" => tb_limit = number(key, value, |&x: &usize| x <= 48)?,
            "reductions" => o.features.reductions = on_off(key, value)?,
            "defer" => o.features.defer = on_off(key, value)?,
            "time" => {
                o.time_factor = number(key, value, |&x: &f64| {
                    x.is_finite() && x > 0.0 && x <= 1000.0
                })?
            }
            "capture-search" => {
                o.features.capture_plies = match on_off(key, value) {
                    Ok(true) => 4,
                    Ok(false) => 0,
                    Err(_) => number(key, value, |&x: &i32| (0..=32).contains(&x))?,
                }
            }
            "eval" => {
                let text = std::fs::read_to_string(value)
                    .map_err(|e| format!("cannot read eval file {value}: {e}"))?;
                o.params =
                    parse_eval_params(&text).map_err(|e| format!("eval file {value}: {e}"))?;
            }
            _ => {
                return Err(format!(
                    "unknown engine option `{key}` (hash, threads, db, tb-limit, reductions, capture-search, defer, eval, time, name)"
                ));
            }
        }
        if key != "name" {
            names.push(item.to_string());
        }
    }
    if let Some(dir) = db {
        if !dir.is_dir() {
            return Err(format!("table folder {} not found", dir.display()));
        }
        let tables = Tablebase::open_for_search(&dir, variant, tb_limit)
            .map_err(|e| format!("cannot open the tables in {}: {e}", dir.display()))?;
        o.tables = tables.complete_up_to().map(|_| Arc::new(tables));
    }
    if o.name.is_empty() {
        o.name = if names.is_empty() {
            "self".to_string()
        } else {
            format!("self:{}", names.join(","))
        };
    }
    Ok(o)
}

/// The built-in engine.
pub struct BuiltIn {
    name: String,
    engine: Engine,
    time_factor: f64,
}

impl BuiltIn {
    /// An engine with these options.
    pub fn new(o: &SelfOptions) -> BuiltIn {
        let mut engine = Engine::new(o.hash, o.threads, o.tables.clone());
        engine.features = o.features;
        engine.params = o.params;
        BuiltIn {
            name: o.name.clone(),
            engine,
            time_factor: o.time_factor,
        }
    }
}

impl Player for BuiltIn {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), Fault> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game, request: &MoveRequest) -> Result<Move, Fault> {
        let mut limits = Limits::default();
        match request.tc {
            TimeControl::MoveTime(t) => limits.movetime = Some(t.mul_f64(self.time_factor)),
            TimeControl::Depth(d) => limits.depth = Some(d),
            TimeControl::Nodes(n) => {
                limits.nodes = Some(((n as f64 * self.time_factor) as u64).max(1))
            }
            TimeControl::Clock { .. } => {
                let me = game.position().side_to_move();
                limits.clock = Some(Clock {
                    time_left: request.time_left[me.index()],
                    increment: request.increment,
                    moves_to_go: None,
                })
            }
        }
        let result = self
            .engine
            .search(game, &limits, |_| {})
            .map_err(|e| Fault::Failed(e.to_string()))?;
        result
            .best
            .ok_or_else(|| Fault::Failed("no move found".into()))
    }
}

impl PlayerFactory for SelfOptions {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self) -> Result<Box<dyn Player>, String> {
        Ok(Box::new(BuiltIn::new(self)))
    }
}

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
}

impl UciSpec {
    /// The engine started by `command` (a command line).
    pub fn parse(command: &str) -> Result<UciSpec, String> {
        Ok(UciSpec {
            command: split_command(command)?,
            name: command.trim().to_string(),
            handshake: Duration::from_secs(10),
        })
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

impl PlayerFactory for UciSpec {
    fn name(&self) -> &str {
        &self.name
    }

    fn make(&self) -> Result<Box<dyn Player>, String> {
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
        loop {
            let line = engine.next_line(deadline, spec.handshake)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.id_name = Some(name.trim().to_string());
            }
            if line == "uciok" {
                break;
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

/// The `position …` command for `game`: `startpos` or `fen` with the start,
/// then every move.
pub fn position_command(game: &Game) -> String {
    let mut cmd = if *game.start() == Position::START {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start())
    };
    if !game.moves().is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&format_moves(game.moves()));
    }
    cmd
}

/// The `go …` command for a request.
pub fn go_command(request: &MoveRequest) -> String {
    match request.tc {
        TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
        TimeControl::Clock { .. } => {
            let ms = |d: Duration| d.as_millis();
            let inc = ms(request.increment);
            format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                ms(request.time_left[Side::South.index()]),
                ms(request.time_left[Side::North.index()])
            )
        }
    }
}

impl UciPlayer {
    fn ask(&mut self, game: &Game, request: &MoveRequest) -> Result<Move, Fault> {
        if self.engine.is_none() {
            self.engine = Some(UciEngine::start(&self.spec)?);
        }
        let Some(engine) = self.engine.as_mut() else {
            return Err(Fault::Crash("not started".into()));
        };
        engine.send(&position_command(game))?;
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

impl Player for UciPlayer {
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

    fn choose(&mut self, game: &Game, request: &MoveRequest) -> Result<Move, Fault> {
        let result = self.ask(game, request);
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

/// An engine specification: `self`, `self:key=value,…` or `uci:COMMAND`.
pub fn parse_spec(text: &str, variant: Variant) -> Result<Arc<dyn PlayerFactory>, String> {
    let text = text.trim();
    if text == "self" {
        return Ok(Arc::new(parse_self("", variant)?));
    }
    if let Some(options) = text.strip_prefix("self:") {
        return Ok(Arc::new(parse_self(options, variant)?));
    }
    if let Some(command) = text.strip_prefix("uci:") {
        return Ok(Arc::new(UciSpec::parse(command)?.check()?));
    }
    Err(format!(
        "bad engine `{text}` (expected self, self:key=value,… or uci:COMMAND)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_options() {
        let o = parse_self(
            "hash=8,reductions=off,capture-search=on,name=x",
            Variant::Abapa,
        )
        .unwrap();
        assert_eq!((o.hash, o.name.as_str()), (8, "x"));
        assert!(!o.features.reductions);
        assert_eq!(o.features.capture_plies, 4);
        let o = parse_self("time=2", Variant::Abapa).unwrap();
        assert_eq!((o.time_factor, o.name.as_str()), (2.0, "self:time=2"));
        let o = parse_self("reductions=off", Variant::Abapa).unwrap();
        assert_eq!(o.name, "self:reductions=off");
        for bad in [
            "hash=0",
            "threads=x",
            "speed=3",
            "reductions=maybe",
            "db=/nonexistent",
            "eval=/nonexistent",
            "hash",
            "time=0",
            "time=inf",
        ] {
            assert!(parse_self(bad, Variant::Abapa).is_err(), "{bad}");
        }
    }

    #[test]
    fn eval_files() {
        let p = parse_eval_params("# weights\nstore = 90\nown-seed=5\n").unwrap();
        assert_eq!(
            (p.store, p.own_seed, p.kroo),
            (90, 5, EvalParams::DEFAULT.kroo)
        );
        let p = parse_eval_params(r#"{"threat": 7, "own_seed": 1}"#).unwrap();
        assert_eq!((p.threat, p.own_seed), (7, 1));
        assert!(parse_eval_params("nonsense").is_err());
        assert!(parse_eval_params("store=abc").is_err());
        assert!(parse_eval_params("power=3").is_err());
        assert!(parse_eval_params("[1]").is_err());
    }

    #[test]
    fn commands() {
        assert_eq!(split_command("a 'b c' \"d\"").unwrap(), ["a", "b c", "d"]);
        assert!(split_command("  ").is_err());
        assert!(split_command("'a").is_err());
        let mut game = Game::new(Position::START, crate::Rules::ABAPA);
        assert_eq!(position_command(&game), "position startpos");
        game.play(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(position_command(&game), "position startpos moves F");
        let r = MoveRequest {
            tc: parse_tc("1+0.1").unwrap(),
            time_left: [Duration::from_millis(900), Duration::from_secs(1)],
            increment: Duration::from_millis(100),
            wait: Duration::from_secs(1),
        };
        assert_eq!(go_command(&r), "go wtime 900 btime 1000 winc 100 binc 100");
        assert!(parse_tc("x").is_err() && parse_tc("0+0").is_err() && parse_tc("-1").is_err());
    }
}
