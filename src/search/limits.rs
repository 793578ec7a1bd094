//! How long a search may run.

use std::time::{Duration, Instant};

/// A player's clock, as the engine protocol gives it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub time_left: Duration,
    /// Increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// How a clock is spent: the time manager's settings. The compiled-in
/// values ([`Pace::DEFAULT`]) are the ones matches kept; the match tool's
/// `self:pace-…` options try others.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The moves the game is taken to last still, when the clock does not
    /// say (`movestogo`): a move's share is the time left over these.
    pub moves: u32,
    /// Percent of the move's share after which no iteration starts, before
    /// the scaling by how settled the search is.
    pub soft: u32,
    /// Percent of the share an iteration may run on to (at most a quarter
    /// of the time left).
    pub cap: u32,
}

impl Pace {
    /// The time manager's settings unless told otherwise.
    pub const DEFAULT: Pace = Pace {
        moves: 30,
        soft: 100,
        cap: 300,
    };
}

impl Default for Pace {
    fn default() -> Pace {
        Pace::DEFAULT
    }
}

/// When to stop searching. With nothing set, the search runs until stopped.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after this much time.
    pub movetime: Option<Duration>,
    /// Use a share of this clock.
    pub clock: Option<Clock>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search only these root moves: a bit for each house (0..5) of the
    /// side to move. The search then always searches, even a forced move.
    pub root_moves: Option<u8>,
    /// How a clock is spent.
    pub pace: Pace,
}

/// Deadlines derived from limits at the start of a search.
#[derive(Copy, Clone, Debug)]
pub struct Deadlines {
    /// Do not start another iteration after this.
    pub soft: Option<Instant>,
    /// Abort the search at this moment.
    pub hard: Option<Instant>,
}

/// The deepest iteration the engine runs (deeper depth limits are cut to
/// it).
pub const MAX_DEPTH: u32 = super::worker::MAX_PLY as u32 - 8;

/// Margin kept for answering after the hard deadline.
const OVERHEAD: Duration = Duration::from_millis(15);

/// Below this much time left, an iteration never runs past the move's share.
const LOW_TIME: Duration = Duration::from_secs(1);

impl Limits {
    /// Fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// The deadlines of a search starting at `start`.
    pub fn deadlines(&self, start: Instant) -> Deadlines {
        let mut soft = None;
        let mut hard = None;
        if let Some(t) = self.movetime {
            let t = t.saturating_sub(OVERHEAD).max(Duration::from_millis(1));
            soft = Some(start + t);
            hard = Some(start + t);
        }
        if let Some(c) = self.clock {
            // An even share of the time left over the moves still to play
            // (the pace's guess when unknown), plus most of the increment;
            // never more than a third of what is left.
            let pace = self.pace;
            let moves = c.moves_to_go.unwrap_or(pace.moves).max(1);
            let left = c.time_left.saturating_sub(OVERHEAD);
            let share = left / moves + c.increment * 4 / 5;
            let target = share.min(left / 3).max(Duration::from_millis(1));
            // An iteration may run on to the pace's cap (three shares), at
            // most a quarter of what is left; short of time (under a
            // second) not past its share, so that a slow answer never costs
            // the game.
            let percent = |d: Duration, p: u32| d * p / 100;
            let cap = if left < LOW_TIME {
                target
            } else {
                percent(target, pace.cap).min(left / 4).max(target)
            };
            let begin = start + percent(target, pace.soft).min(cap);
            soft = Some(soft.map_or(begin, |s: Instant| s.min(begin)));
            hard = Some(hard.map_or(start + cap, |h: Instant| h.min(start + cap)));
        }
        Deadlines { soft, hard }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_clock_leaves_a_tiny_budget() {
        let start = Instant::now();
        let limits = Limits {
            clock: Some(Clock::default()),
            ..Limits::default()
        };
        let d = limits.deadlines(start);
        let hard = d.hard.expect("a deadline") - start;
        assert!(
            hard > Duration::ZERO && hard <= Duration::from_millis(2),
            "{hard:?}"
        );
        assert!(d.soft.expect("a deadline") <= d.hard.unwrap());
        let d = Limits::movetime(Duration::ZERO).deadlines(start);
        assert!(d.hard.unwrap() - start <= Duration::from_millis(2));
    }

    #[test]
    fn the_pace_sets_the_share_and_the_deadlines() {
        let start = Instant::now();
        let clock = |pace: Pace| Limits {
            clock: Some(Clock {
                time_left: Duration::from_millis(6_015),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            pace,
            ..Limits::default()
        };
        let ms = |d: Option<Instant>| (d.unwrap() - start).as_millis();
        // 6000 ms over 30 moves plus 80 % of the increment: a share of 280
        // ms; iterations start until all of it and run on to three.
        let d = clock(Pace::DEFAULT).deadlines(start);
        assert_eq!((ms(d.soft), ms(d.hard)), (280, 840));
        let d = clock(Pace {
            moves: 20,
            soft: 100,
            cap: 200,
        })
        .deadlines(start);
        assert_eq!((ms(d.soft), ms(d.hard)), (380, 760));
        // The cap bounds the soft deadline, a quarter of the time left the
        // cap.
        let d = clock(Pace {
            moves: 5,
            soft: 900,
            cap: 300,
        })
        .deadlines(start);
        assert_eq!((ms(d.soft), ms(d.hard)), (1500, 1500));
    }
}
