//! Live games: the referee's game, the two seats and their tokens, the
//! draw offer, the series a game belongs to, and the hub that keeps the
//! games in memory (the least recently used dropped to the database only
//! past the cap) with a broadcast channel per game for the WebSockets.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::engine_pool::Level;
use super::referee::{GameRules, Referee};
use super::store::{ClockRow, GameRow, SeatRow, SeriesGameRow};
use crate::Side;
use crate::arena::series::{Format, GameResult, Player, Series};

/// Who sits on a seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// The person at the browser that created the game.
    Human,
    /// A person who opens the opponent link.
    Link,
    /// The engine.
    Engine,
}

impl SeatKind {
    /// The name in the API.
    pub const fn name(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Link => "link",
            SeatKind::Engine => "engine",
        }
    }

    /// The kind of a name in the API.
    pub fn parse(s: &str) -> Result<SeatKind, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(SeatKind::Human),
            "link" => Ok(SeatKind::Link),
            "engine" => Ok(SeatKind::Engine),
            _ => Err(format!("unknown seat '{s}' (human, link or engine)")),
        }
    }
}

/// One seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Who sits there.
    pub kind: SeatKind,
    /// The engine's level (engine seats).
    pub level: Option<Level>,
    /// The token that moves for this seat (people only).
    pub token: Option<String>,
    /// Whether the player has come (the creator and the engine at once, a
    /// link's player when the link is first opened).
    pub joined: bool,
    /// The player's name, if given.
    pub name: Option<String>,
}

/// The longest name a player may give, in characters.
pub const NAME_MAX: usize = 40;

/// A player's name from a request: trimmed, `None` when empty; refused when
/// longer than [`NAME_MAX`] characters or holding control characters.
pub fn parse_name(name: Option<&str>) -> Result<Option<String>, String> {
    let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    if name.chars().count() > NAME_MAX {
        return Err(format!("a name holds at most {NAME_MAX} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("a name cannot hold control characters".into());
    }
    Ok(Some(name.to_string()))
}

/// A time control `M+S` (minutes, and seconds added a move): the clocks'
/// start, or an error. Minutes from 0.05 (3 s) to 180, seconds 0 to 60.
pub fn parse_time_control(tc: &str) -> Result<ClockRow, String> {
    let bad = || {
        format!(
            "bad time control '{}' (expected minutes+seconds, e.g. 5+3: 0.05 to 180 minutes, 0 to 60 seconds a move)",
            tc.chars().take(40).collect::<String>()
        )
    };
    let (m, inc) = tc.trim().split_once('+').ok_or_else(bad)?;
    let m: f64 = m.trim().parse().map_err(|_| bad())?;
    let inc: f64 = inc.trim().parse().map_err(|_| bad())?;
    if !(0.05..=180.0).contains(&m) || !(0.0..=60.0).contains(&inc) {
        return Err(bad());
    }
    let base_ms = (m * 60_000.0).round() as i64;
    Ok(ClockRow {
        base_ms,
        inc_ms: (inc * 1000.0).round() as i64,
        left_ms: [base_ms; 2],
        since_ms: None,
    })
}

/// A time control as the API writes it: `5+3`.
pub fn time_control_text(c: &ClockRow) -> String {
    let minutes = c.base_ms as f64 / 60_000.0;
    let seconds = c.inc_ms as f64 / 1000.0;
    format!("{minutes}+{seconds}")
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A date `YYYY.MM.DD` (UTC) of seconds since the epoch, as OGN writes it.
pub fn ogn_date(secs: i64) -> String {
    // Days to a civil date (proleptic Gregorian), by 400-year eras.
    let days = secs.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// An unguessable token: 128 bits from the OS random source, in hex.
pub fn new_token() -> std::io::Result<String> {
    random_hex(16)
}

/// A game or series id: 64 random bits in hex.
pub fn new_id() -> std::io::Result<String> {
    random_hex(8)
}

fn random_hex(bytes: usize) -> std::io::Result<String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two tokens in time independent of where they differ.
fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The games of a series, shared by its games in memory.
#[derive(Clone, Debug)]
pub struct SeriesState {
    /// The series id.
    pub id: String,
    /// The format.
    pub format: Format,
    /// Its games in order.
    pub games: Vec<SeriesGameRow>,
}

impl SeriesState {
    /// The referee of the series after the games that are over.
    pub fn series(&self) -> Series {
        let mut series = Series::new(self.format).with_cap(super::limits::SERIES_CAP);
        for g in self.games.iter().filter(|g| g.over) {
            let south = if g.south_player == "B" {
                Player::B
            } else {
                Player::A
            };
            let winner = match g.winner.as_deref() {
                Some("S") => Some(south),
                Some("N") => Some(south.other()),
                _ => None,
            };
            series.record(match winner {
                Some(Player::A) => GameResult::Win,
                Some(Player::B) => GameResult::Loss,
                None => GameResult::Draw,
            });
        }
        series
    }

    /// The `series` object of the game state.
    pub fn json(&self) -> Value {
        let series = self.series();
        let score = series.score();
        let games: Vec<Value> = self
            .games
            .iter()
            .map(|g| {
                json!({
                    "id": g.id,
                    "winner": g.winner,
                    "south": g.south_player,
                    "over": g.over,
                })
            })
            .collect();
        json!({
            "format": self.format.to_string(),
            "games": games,
            "score": {"A": score.a_wins, "B": score.b_wins, "draws": score.draws},
            "decided": series.is_decided(),
            "winner": series.winner().map(|p| p.to_string()),
            "next": self.games.last().map(|g| g.id.clone()),
        })
    }
}

/// A shared, lockable series.
pub type SharedSeries = Arc<Mutex<SeriesState>>;

/// An ending off the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// `resigned` or `draw-agreed`.
    pub reason: &'static str,
}

/// A game being played (or over) with its seats.
pub struct LiveGame {
    /// The id.
    pub id: String,
    /// The referee (Oware's or Mancala's), with the game's rules.
    pub game: Referee,
    /// The seeds each move captured.
    pub captures: Vec<u8>,
    /// South's and North's seats.
    pub seats: [Seat; 2],
    /// An ending off the board.
    pub ending: Option<Ending>,
    /// The side offering a draw.
    pub draw_offer: Option<Side>,
    /// The series, this game's index and who sits South.
    pub series: Option<(SharedSeries, u32, Player)>,
    /// When it was made, seconds since the epoch.
    pub created: i64,
    /// The side offering a rematch.
    pub rematch_offer: Option<Side>,
    /// The rematch's id, once it is made.
    pub rematch: Option<String>,
    /// The clocks, when the game has a time control.
    pub clock: Option<ClockRow>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

fn side_letter(side: Option<Side>) -> Option<String> {
    side.map(|s| s.letter().to_string())
}

impl LiveGame {
    /// Whether the game is over (on the board or off it).
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.game.outcome().is_some()
    }

    /// The winner (`None` for a draw) once the game is over.
    pub fn winner(&self) -> Option<Option<Side>> {
        match (self.ending, self.game.outcome()) {
            (Some(e), _) => Some(e.winner),
            (None, Some((winner, _))) => Some(winner),
            (None, None) => None,
        }
    }

    /// The sides `token` moves for (none for a watcher or a wrong token).
    pub fn sides_of(&self, token: Option<&str>) -> Vec<Side> {
        let Some(token) = token else {
            return Vec::new();
        };
        Side::ALL
            .into_iter()
            .filter(|s| {
                self.seats[s.index()]
                    .token
                    .as_deref()
                    .is_some_and(|t| same_token(t, token))
            })
            .collect()
    }

    /// The seat name for a set of sides: `south`, `north`, `both` or null.
    pub fn seat_json(sides: &[Side]) -> Value {
        match sides {
            [] => Value::Null,
            [s] => json!(side_name(*s)),
            _ => json!("both"),
        }
    }

    /// The side to move if an engine seat should move now.
    pub fn engine_to_move(&self) -> Option<(Side, Level)> {
        if self.is_over() {
            return None;
        }
        let side = self.game.side_to_move();
        let seat = &self.seats[side.index()];
        match (seat.kind, seat.level) {
            (SeatKind::Engine, Some(level)) => Some((side, level)),
            _ => None,
        }
    }

    /// The side whose clock runs now.
    pub fn clock_running(&self) -> Option<Side> {
        let c = self.clock.as_ref()?;
        (c.since_ms.is_some() && !self.is_over()).then(|| self.game.side_to_move())
    }

    /// Each side's time left at `now` (ms, never below 0).
    pub fn clock_left(&self, now: i64) -> Option<[i64; 2]> {
        let c = self.clock.as_ref()?;
        let mut left = c.left_ms;
        if let (Some(side), Some(since)) = (self.clock_running(), c.since_ms) {
            left[side.index()] -= (now - since).max(0);
        }
        Some(left.map(|l| l.max(0)))
    }

    /// When the running clock falls (ms since the epoch).
    pub fn clock_deadline(&self) -> Option<i64> {
        let c = self.clock.as_ref()?;
        let side = self.clock_running()?;
        Some(c.since_ms? + c.left_ms[side.index()])
    }

    /// The side whose time has run out at `now`.
    pub fn flagged(&self, now: i64) -> Option<Side> {
        let side = self.clock_running()?;
        (self.clock_deadline()? <= now).then_some(side)
    }

    /// The clocks stopped at `now` (the time used taken off the side to
    /// move).
    pub fn clock_stopped(&self, now: i64) -> Option<ClockRow> {
        let mut c = self.clock.clone()?;
        c.left_ms = self.clock_left(now)?;
        c.since_ms = None;
        Some(c)
    }

    /// The clocks after the side to move plays at `now`: its time used is
    /// taken off and the increment added, and the other side's clock starts
    /// (none runs before the first move, nor after the end).
    pub fn clock_after_move(&self, now: i64, over: bool) -> Option<ClockRow> {
        let mut c = self.clock.clone()?;
        let mover = self.game.side_to_move().index();
        if c.since_ms.is_some() {
            c.left_ms = self.clock_left(now)?;
            c.left_ms[mover] += c.inc_ms;
        }
        c.since_ms = (!over).then_some(now);
        Some(c)
    }

    /// The next game of the same players, each on the other side (tokens
    /// and names go with their seats): the same rules and time control, a
    /// fresh start, under `id` and in `series` (a rematch: none).
    pub fn next_swapped(
        &self,
        id: String,
        series: Option<(SharedSeries, u32, Player)>,
    ) -> LiveGame {
        let [south, north] = self.seats.clone();
        LiveGame {
            id,
            game: self.game.restarted(),
            captures: Vec::new(),
            seats: [north, south],
            ending: None,
            draw_offer: None,
            series,
            created: now_ms() / 1000,
            rematch_offer: None,
            rematch: None,
            clock: self.fresh_clock(),
        }
    }

    /// The clocks as at the start of a game of the same time control.
    pub fn fresh_clock(&self) -> Option<ClockRow> {
        self.clock.as_ref().map(|c| ClockRow {
            left_ms: [c.base_ms; 2],
            since_ms: None,
            ..c.clone()
        })
    }

    /// The `clock` object of the state.
    fn clock_json(&self) -> Value {
        let (Some(c), Some(left)) = (self.clock.as_ref(), self.clock_left(now_ms())) else {
            return Value::Null;
        };
        json!({
            "control": time_control_text(c),
            "base_ms": c.base_ms,
            "increment_ms": c.inc_ms,
            "south_ms": left[0],
            "north_ms": left[1],
            "running": side_letter(self.clock_running()),
        })
    }

    /// The full state the API and the WebSockets send.
    pub fn state_json(&self, thinking: bool) -> Value {
        let mut state = self.game.show_json();
        let over = self.is_over();
        let winner = self.winner();
        let reason = match (self.ending, self.game.outcome()) {
            (Some(e), _) => Some(e.reason),
            (None, Some((_, reason))) => Some(reason),
            _ => None,
        };
        let result = winner.map(|w| {
            json!({
                "winner": side_letter(w),
                "reason": reason,
                "stores": self.game.stores(),
            })
        });
        let rules = self.game.rules();
        let goes = self.game.another_goes();
        let player = |s: &Seat| {
            json!({
                "kind": s.kind.name(),
                "level": s.level.map(|l| l.to_string()),
                "joined": s.joined,
                "name": s.name,
            })
        };
        let series = self
            .series
            .as_ref()
            .map(|(s, _, _)| s.lock().unwrap_or_else(|e| e.into_inner()).json());
        if let Value::Object(map) = &mut state {
            map.insert("id".into(), json!(self.id));
            if over {
                map.insert("legal".into(), json!([]));
            }
            map.insert(
                "status".into(),
                json!(if over { "over" } else { "ongoing" }),
            );
            map.insert(
                "winner".into(),
                json!(winner.flatten().map(|s| s.letter().to_string())),
            );
            map.insert("reason".into(), json!(reason));
            map.insert("rules".into(), json!(rules.name()));
            map.insert("start_seeds".into(), json!(rules.start_seeds()));
            map.insert("empty_capture".into(), json!(rules.empty_capture()));
            map.insert("move_cap".into(), json!(rules.move_cap()));
            map.insert("start".into(), json!(self.game.start_string()));
            map.insert(
                "moves".into(),
                json!(
                    self.game
                        .moves()
                        .iter()
                        .map(|m| m.letter().to_string())
                        .collect::<Vec<_>>()
                ),
            );
            map.insert("captures".into(), json!(self.captures));
            // Mancala: the moves that gave another go, and whether the
            // side to move moves again now.
            map.insert("another_go".into(), json!(goes));
            map.insert(
                "moves_again".into(),
                json!(!over && goes.last() == Some(&true)),
            );
            map.insert("ply".into(), json!(self.game.moves().len()));
            map.insert(
                "players".into(),
                json!({"south": player(&self.seats[0]), "north": player(&self.seats[1])}),
            );
            map.insert("result".into(), json!(result));
            map.insert("draw_offer".into(), json!(side_letter(self.draw_offer)));
            map.insert("series".into(), json!(series));
            map.insert("clock".into(), self.clock_json());
            map.insert("created".into(), json!(self.created));
            map.insert(
                "rematch_offer".into(),
                json!(side_letter(self.rematch_offer)),
            );
            map.insert("rematch".into(), json!(self.rematch));
            map.insert("thinking".into(), json!(thinking && !over));
        }
        state
    }

    /// The row the database keeps for this game.
    pub fn to_row(&self) -> GameRow {
        let seat = |s: &Seat| SeatRow {
            kind: s.kind.name().to_string(),
            level: s.level.map(|l| l.to_string()),
            token: s.token.clone(),
            joined: s.joined,
            name: s.name.clone(),
        };
        let rules = self.game.rules();
        let mancala = matches!(rules, GameRules::Mancala(_));
        GameRow {
            id: self.id.clone(),
            rules: rules.name().to_string(),
            move_cap: rules.move_cap(),
            start_seeds: mancala.then_some(rules.start_seeds()),
            empty_capture: rules.empty_capture(),
            start: self.game.start_string(),
            seats: [seat(&self.seats[0]), seat(&self.seats[1])],
            end: self
                .ending
                .map(|e| (side_letter(e.winner), e.reason.to_string())),
            draw_offer: side_letter(self.draw_offer),
            moves: self
                .game
                .moves()
                .iter()
                .map(|m| m.letter().to_string())
                .collect(),
            series: self.series.as_ref().map(|(s, i, p)| {
                let id = s.lock().unwrap_or_else(|e| e.into_inner()).id.clone();
                (id, *i, p.to_string())
            }),
            created: self.created,
            rematch: (side_letter(self.rematch_offer), self.rematch.clone()),
            clock: self.clock.clone(),
        }
    }

    /// A game read back from its row (and its series, if any).
    pub fn from_row(row: GameRow, series: Option<SharedSeries>) -> Result<LiveGame, String> {
        let rules = GameRules::from_settings(
            Some(&row.rules),
            row.move_cap,
            row.start_seeds.map(u64::from),
            Some(row.empty_capture),
        )
        .map_err(|e| e.to_string())?;
        let mut game = rules.new_game(Some(&row.start))?;
        let mut captures = Vec::with_capacity(row.moves.len());
        for mv in &row.moves {
            let m = mv
                .chars()
                .next()
                .and_then(crate::Move::from_letter)
                .ok_or_else(|| format!("bad stored move '{mv}'"))?;
            captures.push(game.play(m)?.captured);
        }
        let seat = |s: &SeatRow| -> Result<Seat, String> {
            Ok(Seat {
                kind: SeatKind::parse(&s.kind)?,
                level: s.level.as_deref().map(str::parse).transpose()?,
                token: s.token.clone(),
                joined: s.joined,
                name: s.name.clone(),
            })
        };
        let letter_side = |s: &str| s.chars().next().and_then(Side::from_letter);
        let ending = row.end.as_ref().map(|(winner, reason)| Ending {
            winner: winner.as_deref().and_then(letter_side),
            reason: match reason.as_str() {
                "resigned" => "resigned",
                "time" => "time",
                _ => "draw-agreed",
            },
        });
        let series = match (series, &row.series) {
            (Some(shared), Some((_, index, player))) => Some((
                shared,
                *index,
                if player == "B" { Player::B } else { Player::A },
            )),
            _ => None,
        };
        Ok(LiveGame {
            id: row.id,
            game,
            captures,
            seats: [seat(&row.seats[0])?, seat(&row.seats[1])?],
            ending,
            draw_offer: row.draw_offer.as_deref().and_then(letter_side),
            series,
            created: row.created,
            rematch_offer: row.rematch.0.as_deref().and_then(letter_side),
            rematch: row.rematch.1.clone(),
            clock: row.clock.clone(),
        })
    }

    /// Records in the series that this game is over.
    pub fn note_over_in_series(&self) {
        if let (Some((shared, index, _)), Some(winner)) = (&self.series, self.winner()) {
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(g) = s.games.get_mut(*index as usize) {
                g.over = true;
                g.winner = side_letter(winner);
            }
        }
    }
}

/// A game in memory with its channel to the WebSockets.
pub struct Entry {
    /// The game.
    pub game: tokio::sync::Mutex<LiveGame>,
    /// Every change of state, as JSON text.
    pub tx: broadcast::Sender<Arc<str>>,
    /// The engine is searching for this game.
    pub thinking: AtomicBool,
    last_used: AtomicU64,
}

impl Entry {
    /// Sends the state to every WebSocket of the game.
    pub fn broadcast(&self, game: &LiveGame) {
        let text = game
            .state_json(self.thinking.load(Ordering::Acquire))
            .to_string();
        let _ = self.tx.send(Arc::from(text));
    }
}

/// Why a game could not be kept in memory.
#[derive(Debug)]
pub struct Full;

/// The games in memory.
pub struct Hub {
    games: Mutex<HashMap<String, Arc<Entry>>>,
    series: Mutex<HashMap<String, SharedSeries>>,
    clock: AtomicU64,
    cap: usize,
}

impl Hub {
    /// A hub keeping at most `cap` games in memory.
    pub fn new(cap: usize) -> Hub {
        Hub {
            games: Mutex::new(HashMap::new()),
            series: Mutex::new(HashMap::new()),
            clock: AtomicU64::new(0),
            cap: cap.max(1),
        }
    }

    fn tick(&self) -> u64 {
        self.clock.fetch_add(1, Ordering::Relaxed)
    }

    /// The game if it is in memory.
    pub fn get(&self, id: &str) -> Option<Arc<Entry>> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let entry = games.get(id).cloned();
        if let Some(e) = &entry {
            e.last_used.store(self.tick(), Ordering::Relaxed);
        }
        entry
    }

    /// Games in memory.
    pub fn len(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no game is in memory.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a game could come into memory now (below the cap, or an
    /// idle game to drop).
    pub fn has_room(&self) -> bool {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.len() < self.cap || games.values().any(Self::idle)
    }

    fn idle(e: &Arc<Entry>) -> bool {
        Arc::strong_count(e) == 1
            && e.tx.receiver_count() == 0
            && !e.thinking.load(Ordering::Acquire)
    }

    /// Puts a game in memory (dropping the least recently used idle game
    /// at the cap) and returns its entry, or the one already there under
    /// the same id; `Full` when every game in memory is in use.
    pub fn insert(&self, game: LiveGame) -> Result<(Arc<Entry>, bool), Full> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = games.get(&game.id) {
            return Ok((Arc::clone(e), false));
        }
        if games.len() >= self.cap {
            // Idle: nobody holds it, nobody listens, the engine is not on it.
            let victim = games
                .iter()
                .filter(|(_, e)| Self::idle(e))
                .min_by_key(|(_, e)| e.last_used.load(Ordering::Relaxed))
                .map(|(id, _)| id.clone());
            match victim {
                Some(id) => {
                    games.remove(&id);
                }
                None => return Err(Full),
            }
            self.prune_series();
        }
        let id = game.id.clone();
        let (tx, _) = broadcast::channel(16);
        let entry = Arc::new(Entry {
            game: tokio::sync::Mutex::new(game),
            tx,
            thinking: AtomicBool::new(false),
            last_used: AtomicU64::new(self.tick()),
        });
        games.insert(id, Arc::clone(&entry));
        Ok((entry, true))
    }

    /// The series in memory, if there.
    pub fn series(&self, id: &str) -> Option<SharedSeries> {
        self.series
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Puts a series in memory, or returns the one already there.
    pub fn insert_series(&self, state: SeriesState) -> SharedSeries {
        let mut map = self.series.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            map.entry(state.id.clone())
                .or_insert_with(|| Arc::new(Mutex::new(state))),
        )
    }

    /// Drops the series no game in memory refers to.
    fn prune_series(&self) {
        let mut map = self.series.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > self.cap {
            map.retain(|_, s| Arc::strong_count(s) > 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, south: &str, winner: Option<&str>) -> SeriesGameRow {
        SeriesGameRow {
            id: id.into(),
            south_player: south.into(),
            over: true,
            winner: winner.map(String::from),
        }
    }

    #[test]
    fn series_results_follow_the_players_across_sides() {
        let mut state = SeriesState {
            id: "s".into(),
            format: "first-to:2".parse().unwrap(),
            games: vec![row("g1", "A", Some("N")), row("g2", "B", Some("N"))],
        };
        // B won game 1 from North, A won game 2 from North.
        let json = state.json();
        assert_eq!(json["score"], json!({"A": 1, "B": 1, "draws": 0}));
        assert_eq!(json["decided"], false);
        assert_eq!(json["next"], "g2");
        state.games.push(row("g3", "A", Some("S")));
        let json = state.json();
        assert_eq!(json["decided"], true);
        assert_eq!(json["winner"], "A");
    }

    #[test]
    fn tokens_are_long_random_and_compared_whole() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert!(!same_token(&a, &a[..31]));
        assert_eq!(new_id().unwrap().len(), 16);
    }
}
