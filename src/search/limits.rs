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
            // (assume 30 when unknown), plus most of the increment; never
            // more than a third of what is left.
            let moves = c.moves_to_go.unwrap_or(30).max(1);
            let left = c.time_left.saturating_sub(OVERHEAD);
            let share = left / moves + c.increment * 4 / 5;
            let target = share.min(left / 3).max(Duration::from_millis(1));
            // An iteration may run on to three shares, at most a quarter of
            // what is left; short of time (under a second) not past its
            // share, so that a slow answer never costs the game.
            let cap = if left < LOW_TIME {
                target
            } else {
                (target * 3).min(left / 4).max(target)
            };
            soft = Some(soft.map_or(start + target / 2, |s: Instant| s.min(start + target / 2)));
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
}
