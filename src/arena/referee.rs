//! Playing one game between two players: the clocks, the game's own rules
//! (see [`ArenaGame`]), and adjudication by the tables and by a ply cap.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::engine::{Fault, MoveRequest, Player, TimeControl};
use super::game::ArenaGame;
use crate::Side;
use crate::search::Oware;
use crate::tb::probe::Verdict;

/// How the games of `G` (Oware unless said) are played.
pub struct GameSettings<G: ArenaGame = Oware> {
    /// The rules (with the ending options).
    pub rules: G::MatchRules,
    /// Engine A's time control.
    pub tc: TimeControl,
    /// Engine B's time as a multiple of A's (1: even; 0.5: half the
    /// time): its movetime, nodes, or clock base and increment.
    pub odds: f64,
    /// With a clock: how far past its time an engine may answer and still
    /// not lose on time.
    pub clock_margin: Duration,
    /// Added to the time a move may take before an external engine is taken
    /// to hang (movetime + this, or time left + this).
    pub hang_margin: Duration,
    /// How long a depth or node limited move may take before it is a hang.
    pub untimed_wait: Duration,
    /// End a game after this many plies, by the stores.
    pub max_plies: Option<usize>,
    /// Adjudicate positions whose table entry is exact.
    pub tables: Option<Arc<G::Tables>>,
}

impl<G: ArenaGame> Clone for GameSettings<G> {
    fn clone(&self) -> GameSettings<G> {
        GameSettings {
            tables: self.tables.clone(),
            ..*self
        }
    }
}

impl<G: ArenaGame> GameSettings<G> {
    /// The time controls of South and North when engine A plays
    /// `a_side`.
    pub fn time_controls(&self, a_side: Side) -> [TimeControl; 2] {
        let (a, b) = (self.tc, self.tc.scaled(self.odds));
        match a_side {
            Side::South => [a, b],
            Side::North => [b, a],
        }
    }

    /// Settings with even time, no adjudication, margins of 1 s (hang) and 50 ms
    /// (clock), 60 s for untimed moves.
    pub fn new(rules: G::MatchRules, tc: TimeControl) -> GameSettings<G> {
        GameSettings {
            rules,
            tc,
            odds: 1.0,
            clock_margin: Duration::from_millis(50),
            hang_margin: Duration::from_secs(1),
            untimed_wait: Duration::from_secs(60),
            max_plies: None,
            tables: None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules, for the reason of this name.
    Rules(&'static str),
    /// The tables' exact verdict, at this many seeds on the board.
    Tables(Verdict, u8),
    /// The ply cap: decided by the stores.
    MaxPlies(usize),
    /// A player ran out of time: it used `used` with `left` on its clock.
    Time {
        /// The side that lost on time.
        side: Side,
        /// The time it took.
        used: Duration,
        /// The time it had.
        left: Duration,
    },
    /// A player failed (crash, hang, illegal or malformed move).
    Fault(Side, Fault),
}

impl Termination {
    /// The short tag: normal, adjudication, time forfeit, rules infraction.
    pub fn tag(&self) -> String {
        match self {
            Termination::Rules(reason) => format!("normal ({reason})"),
            Termination::Tables(v, seeds) => {
                format!("adjudication: tables, {} at {seeds} seeds", v.describe())
            }
            Termination::MaxPlies(p) => format!("adjudication: {p} plies, by the stores"),
            Termination::Time { side, used, left } => format!(
                "time forfeit: {side:?} took {:.3} s with {:.3} s left",
                used.as_secs_f64(),
                left.as_secs_f64()
            ),
            Termination::Fault(side, fault) => format!("rules infraction: {side:?} {fault}"),
        }
    }

    /// The side that forfeited by a fault or on time.
    pub fn forfeit(&self) -> Option<Side> {
        match self {
            Termination::Time { side, .. } | Termination::Fault(side, _) => Some(*side),
            _ => None,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tag())
    }
}

/// A finished game of `G` (Oware unless said).
#[derive(Clone, Debug)]
pub struct PlayedGame<G: ArenaGame = Oware> {
    /// The moves (the opening's included).
    pub game: G::Game,
    /// The winner, `None` for a draw.
    pub winner: Option<Side>,
    /// Why it ended.
    pub termination: Termination,
    /// With a clock: the time left of South and North at the end.
    pub time_left: Option<[Duration; 2]>,
    /// The time each move after the opening took, as the referee saw it.
    pub move_times: Vec<Duration>,
}

fn by_stores<G: ArenaGame>(game: &G::Game) -> Option<Side> {
    let [south, north] = G::stores(game);
    match south.cmp(&north) {
        std::cmp::Ordering::Greater => Some(Side::South),
        std::cmp::Ordering::Less => Some(Side::North),
        std::cmp::Ordering::Equal => None,
    }
}

/// Plays `start` (a game in progress: the opening) to the end, `south` and
/// `north` choosing the moves under their time controls `tcs` (South's,
/// North's; the settings' own `tc` and `odds` are not read). Both should be
/// of one kind: a side without a clock has none to show, so a clocked
/// opponent is told it has 0 ms and no increment. Every failure of a player ends the game as a
/// loss for it (and the player is told, to restart). The side to move is
/// asked for each move, so after another go the same player moves again.
pub fn play_game<G: ArenaGame>(
    south: &mut dyn Player<G>,
    north: &mut dyn Player<G>,
    start: G::Game,
    settings: &GameSettings<G>,
    tcs: [TimeControl; 2],
) -> PlayedGame<G> {
    let mut game = start;
    let clocks = tcs.map(|tc| match tc {
        TimeControl::Clock { base, increment } => Some((base, increment)),
        _ => None,
    });
    let mut time_left = clocks.map(|c| c.map_or(Duration::ZERO, |c| c.0));
    let increments = clocks.map(|c| c.map_or(Duration::ZERO, |c| c.1));
    let mut move_times = Vec::new();
    let (winner, termination) = 'game: {
        for side in Side::ALL {
            let player: &mut dyn Player<G> = match side {
                Side::South => &mut *south,
                Side::North => &mut *north,
            };
            if let Err(fault) = player.new_game() {
                player.faulted();
                break 'game (Some(side.opponent()), Termination::Fault(side, fault));
            }
        }
        loop {
            if let Some((winner, reason)) = G::ending(&game) {
                break 'game (winner, Termination::Rules(reason));
            }
            if let Some(tables) = &settings.tables
                && let Some((verdict, seeds)) = G::adjudicate(&game, tables)
            {
                let me = G::side_to_move(G::current(&game));
                let winner = match verdict {
                    Verdict::ForcedWin => Some(me),
                    Verdict::ForcedLoss => Some(me.opponent()),
                    _ => None,
                };
                break 'game (winner, Termination::Tables(verdict, seeds));
            }
            if let Some(cap) = settings.max_plies
                && G::moves(&game).len() >= cap
            {
                break 'game (by_stores::<G>(&game), Termination::MaxPlies(cap));
            }
            let me = G::side_to_move(G::current(&game));
            let player: &mut dyn Player<G> = match me {
                Side::South => &mut *south,
                Side::North => &mut *north,
            };
            let wait = match tcs[me.index()] {
                TimeControl::MoveTime(t) => t + settings.hang_margin,
                TimeControl::Clock { .. } => {
                    time_left[me.index()] + settings.clock_margin + settings.hang_margin
                }
                TimeControl::Depth(_) | TimeControl::Nodes(_) => settings.untimed_wait,
            };
            let request = MoveRequest {
                tc: tcs[me.index()],
                time_left,
                increments,
                wait,
            };
            let started = Instant::now();
            let answer = player.choose(&game, &request);
            let used = started.elapsed();
            // A failure, an answer past the clock or an illegal move loses;
            // a move in time is paid for on the clock before it is played.
            let left = time_left[me.index()];
            let clock = clocks[me.index()];
            let over_time = clock.is_some() && used > left + settings.clock_margin;
            if let (Ok(_), Some((_, increment)), false) = (&answer, clock, over_time) {
                time_left[me.index()] = left.saturating_sub(used) + increment;
            }
            let lost = match answer {
                Err(Fault::Hang(_)) if clock.is_some() => Some(Termination::Time {
                    side: me,
                    used,
                    left,
                }),
                Err(fault) => Some(Termination::Fault(me, fault)),
                Ok(_) if over_time => Some(Termination::Time {
                    side: me,
                    used,
                    left,
                }),
                Ok(mv) if mv.side() != me || G::play_move(&mut game, mv).is_err() => {
                    Some(Termination::Fault(me, Fault::Illegal(mv.to_string())))
                }
                Ok(_) => None,
            };
            if let Some(termination) = lost {
                player.faulted();
                break 'game (Some(me.opponent()), termination);
            }
            move_times.push(used);
        }
    };
    PlayedGame {
        game,
        winner,
        termination,
        time_left: clocks.iter().any(Option::is_some).then_some(time_left),
        move_times,
    }
}
