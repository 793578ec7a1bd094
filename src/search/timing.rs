//! When a timed search stops: after each iteration the time manager
//! decides whether another one is worth starting, from how settled the
//! result looks; the hard deadline stops an iteration midway.

use std::time::{Duration, Instant};

use super::engine::Iteration;
use super::limits::Limits;
use crate::Move;

/// Scaling of the soft budget when the best move has just changed: the
/// search has not made up its mind.
const UNSETTLED: f64 = 1.7;
/// Scaling when the score fell this iteration by at least [`DROP`].
const FALLING: f64 = 1.4;
/// A fall of the score (centiseeds) that asks for more time.
const DROP: i32 = 40;
/// Scaling once the best move has stayed the same for [`STEADY`]
/// iterations: one move dominates.
const SETTLED: f64 = 0.6;
/// Iterations with the same best move that make it [`SETTLED`].
const STEADY: u32 = 4;

/// The stopping rule of one timed search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// The time after which no iteration starts, before scaling (`None`:
    /// no clock: only the hard deadline, if any, stops the search).
    base: Option<Duration>,
    /// When the search is aborted, midway or not.
    hard: Option<Instant>,
    best: Option<Move>,
    /// Iterations in a row with the same best move.
    same: u32,
    score: Option<i32>,
}

impl TimeManager {
    /// The rule for a search with `limits` starting at `start`: with a
    /// clock, iterations start until about half the move's share of the
    /// time (scaled by how settled the result is) and are aborted at the
    /// hard cap; a fixed movetime is used in full.
    pub fn new(limits: &Limits, start: Instant) -> TimeManager {
        let deadlines = limits.deadlines(start);
        let base = match (limits.clock, deadlines.soft) {
            (Some(_), Some(soft)) if limits.movetime.is_none() => Some(soft - start),
            _ => None,
        };
        TimeManager {
            start,
            base,
            hard: deadlines.hard,
            best: None,
            same: 0,
            score: None,
        }
    }

    /// The moment the search is aborted, if any.
    pub fn hard(&self) -> Option<Instant> {
        self.hard
    }

    /// Takes a completed iteration; whether to start another.
    pub fn keep_going(&mut self, it: &Iteration, now: Instant) -> bool {
        let best = it.pv.first().copied();
        let changed = best != self.best;
        self.same = if changed { 1 } else { self.same + 1 };
        let fell = self.score.is_some_and(|s| s - it.score >= DROP);
        self.best = best;
        self.score = Some(it.score);
        let Some(base) = self.base else {
            return self.hard.is_none_or(|h| now < h);
        };
        let mut scale = if changed && it.depth > 1 {
            UNSETTLED
        } else if self.same >= STEADY {
            SETTLED
        } else {
            1.0
        };
        if fell {
            scale *= FALLING;
        }
        let soft = self.start + base.mul_f64(scale);
        now < soft && self.hard.is_none_or(|h| now < h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn iteration(depth: u32, score: i32, best: char) -> Iteration {
        Iteration {
            depth,
            score,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![Move::from_letter(best).unwrap()],
            tb_hits: 0,
            solved: false,
            settled: false,
        }
    }

    fn clock(ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                time_left: Duration::from_millis(ms),
                ..Clock::default()
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn a_changing_best_move_gets_more_time_than_a_steady_one() {
        let start = Instant::now();
        let limits = clock(30_000);
        let base = limits.deadlines(start).soft.unwrap() - start;
        // Just past the unscaled budget: a steady move stops, a change
        // goes on.
        let now = start + base.mul_f64(1.2);
        let mut steady = TimeManager::new(&limits, start);
        for d in 1..=6 {
            steady.keep_going(&iteration(d, 10, 'A'), start);
        }
        assert!(!steady.keep_going(&iteration(7, 10, 'A'), now));
        let mut changing = TimeManager::new(&limits, start);
        for d in 1..=6 {
            changing.keep_going(&iteration(d, 10, 'A'), start);
        }
        assert!(changing.keep_going(&iteration(7, 10, 'B'), now));
        // A steady move stops well before the unscaled budget.
        let early = start + base.mul_f64(0.7);
        let mut settled = TimeManager::new(&limits, start);
        for d in 1..=8 {
            settled.keep_going(&iteration(d, 10, 'A'), start);
        }
        assert!(!settled.keep_going(&iteration(9, 10, 'A'), early));
    }

    #[test]
    fn a_falling_score_gets_more_time() {
        let start = Instant::now();
        let limits = clock(30_000);
        let base = limits.deadlines(start).soft.unwrap() - start;
        let now = start + base.mul_f64(1.2);
        let mut tm = TimeManager::new(&limits, start);
        tm.keep_going(&iteration(1, 100, 'A'), start);
        tm.keep_going(&iteration(2, 100, 'A'), start);
        assert!(tm.keep_going(&iteration(3, 20, 'A'), now));
    }

    #[test]
    fn nothing_starts_past_the_hard_deadline_nor_past_a_movetime() {
        let start = Instant::now();
        let limits = Limits::movetime(Duration::from_millis(100));
        let mut tm = TimeManager::new(&limits, start);
        let hard = tm.hard().unwrap();
        assert!(tm.keep_going(&iteration(1, 0, 'A'), start));
        assert!(!tm.keep_going(&iteration(2, 0, 'B'), hard));
        let depth_only = Limits::depth(5);
        let mut tm = TimeManager::new(&depth_only, start);
        assert!(tm.keep_going(&iteration(1, 0, 'A'), start + Duration::from_secs(99)));
    }
}
