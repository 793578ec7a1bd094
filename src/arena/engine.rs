//! The players of a match: the [`Player`] trait, the built-in engine
//! (`self:key=value,…`) and any external engine speaking the UCI dialect of
//! RULES.md §6 (`uci:COMMAND`), started as a child process whose answers are
//! read on a thread so that a hang is seen as one.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use super::game::ArenaGame;
use crate::search::Oware;
use crate::{Move, Variant};

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

impl TimeControl {
    /// This time control with `factor` times the time: the movetime, the
    /// nodes, or the clock's base and increment (a depth is kept). Times
    /// are rounded to whole milliseconds, as the protocol sends them, and
    /// nodes to a whole number; neither falls to zero unless it was.
    pub fn scaled(self, factor: f64) -> TimeControl {
        let ms = |t: Duration| {
            let scaled = (t.as_secs_f64() * 1000.0 * factor).round() as u64;
            Duration::from_millis(if t.is_zero() { 0 } else { scaled.max(1) })
        };
        match self {
            TimeControl::MoveTime(t) => TimeControl::MoveTime(ms(t)),
            TimeControl::Depth(d) => TimeControl::Depth(d),
            TimeControl::Nodes(n) => {
                TimeControl::Nodes(((n as f64 * factor).round() as u64).max(1))
            }
            TimeControl::Clock { base, increment } => TimeControl::Clock {
                base: ms(base),
                increment: ms(increment),
            },
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
    /// The mover's time control.
    pub tc: TimeControl,
    /// With a clock: the time left of South and North.
    pub time_left: [Duration; 2],
    /// With a clock: the increments of South and North.
    pub increments: [Duration; 2],
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

/// A player of a match of the game `G` (Oware unless said).
pub trait Player<G: ArenaGame = Oware>: Send {
    /// The name shown in the summary and the record.
    fn name(&self) -> &str;
    /// Gets ready for a new game (restarting a broken engine).
    fn new_game(&mut self) -> Result<(), Fault>;
    /// The move to play in `game` (legality is the referee's business,
    /// except that the answer must name a pit). After another go the same
    /// side is asked again.
    fn choose(&mut self, game: &G::Game, request: &MoveRequest) -> Result<Move, Fault>;
    /// Told that its answer lost the game (an illegal move, time out): an
    /// external engine is ended and a new one started for the next game.
    fn faulted(&mut self) {}
}

/// A way to make players: the parsed and checked engine specification.
pub trait PlayerFactory<G: ArenaGame = Oware>: Send + Sync {
    /// The display name.
    fn name(&self) -> &str;
    /// A fresh player.
    fn make(&self) -> Result<Box<dyn Player<G>>, String>;
}

pub use super::builtin::*;
pub use super::uci_player::*;

/// An Oware engine specification: `self`, `self:key=value,…` or
/// `uci:COMMAND`.
pub fn parse_spec(text: &str, variant: Variant) -> Result<Arc<dyn PlayerFactory>, String> {
    parse_spec_for::<Oware>(text, crate::Rules::of(variant))
}

/// An engine specification for games of `G` under `rules`: `self`,
/// `self:key=value,…` or `uci:COMMAND` (an external engine is set to
/// `rules` before each game, see [`ArenaGame::uci_settings`]).
pub fn parse_spec_for<G: ArenaGame>(
    text: &str,
    rules: G::MatchRules,
) -> Result<Arc<dyn PlayerFactory<G>>, String> {
    let text = text.trim();
    if text == "self" {
        return Ok(Arc::new(parse_self_for::<G>("", rules)?));
    }
    if let Some(options) = text.strip_prefix("self:") {
        return Ok(Arc::new(parse_self_for::<G>(options, rules)?));
    }
    if let Some(command) = text.strip_prefix("uci:") {
        let spec = UciSpec::parse(command)?.with_settings(G::uci_settings(rules));
        return Ok(Arc::new(spec.check()?));
    }
    Err(format!(
        "bad engine `{text}` (expected self, self:key=value,… or uci:COMMAND)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Position};

    #[test]
    fn scaled_time_controls_keep_whole_milliseconds() {
        let clock = |b, i| TimeControl::Clock {
            base: Duration::from_millis(b),
            increment: Duration::from_millis(i),
        };
        assert_eq!(clock(10_000, 100).scaled(0.5), clock(5_000, 50));
        assert_eq!(clock(1_000, 0).scaled(0.0001), clock(1, 0));
        assert_eq!(clock(100, 1).scaled(1.004), clock(100, 1));
        let movetime = |t| TimeControl::MoveTime(Duration::from_millis(t));
        assert_eq!(movetime(100).scaled(1.0 / 3.0), movetime(33));
        assert_eq!(movetime(1).scaled(0.5), movetime(1));
        assert_eq!(TimeControl::Nodes(90).scaled(0.7), TimeControl::Nodes(63));
        assert_eq!(TimeControl::Depth(7).scaled(0.5), TimeControl::Depth(7));
    }

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
        let o = parse_self("pace-moves=20,pace-soft=80,pace-cap=250", Variant::Abapa).unwrap();
        assert_eq!((o.pace.moves, o.pace.soft, o.pace.cap), (20, 80, 250));
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
            "pace-moves=0",
            "pace-cap=50",
        ] {
            assert!(parse_self(bad, Variant::Abapa).is_err(), "{bad}");
        }
    }

    #[test]
    fn commands() {
        assert_eq!(split_command("a 'b c' \"d\"").unwrap(), ["a", "b c", "d"]);
        assert!(split_command("  ").is_err());
        assert!(split_command("'a").is_err());
        let mut game = Game::new(Position::START, crate::Rules::ABAPA);
        assert_eq!(Oware::position_command(&game), "position startpos");
        game.play(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(Oware::position_command(&game), "position startpos moves F");
        let r = MoveRequest {
            tc: parse_tc("1+0.1").unwrap(),
            time_left: [Duration::from_millis(900), Duration::from_secs(1)],
            increments: [Duration::from_millis(100), Duration::from_millis(50)],
            wait: Duration::from_secs(1),
        };
        assert_eq!(go_command(&r), "go wtime 900 btime 1000 winc 100 binc 50");
        assert!(parse_tc("x").is_err() && parse_tc("0+0").is_err() && parse_tc("-1").is_err());
    }
}
