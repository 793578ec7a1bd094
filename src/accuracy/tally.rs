//! The benchmark's counts, by seeds on the board and in total.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::run::Answer;

/// The counts of a group of positions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Positions asked.
    pub positions: usize,
    /// Positions where the mover wins by force and some move drops the
    /// win.
    pub wins: usize,
    /// Of those, the wins the engine dropped.
    pub wins_dropped: usize,
    /// Positions where the mover is not lost and some move walks into a
    /// forced loss.
    pub losses_avoidable: usize,
    /// Of those, the losses the engine walked into.
    pub losses_walked_into: usize,
    /// Positions the engine gave no legal move for (a crash, a hang, an
    /// illegal or malformed answer); not counted as decisions.
    pub faults: usize,
}

impl Counts {
    /// Decisions: a position counts once for its win at stake and once for
    /// its avoidable loss (faults left out).
    pub fn decisions(&self) -> usize {
        self.wins + self.losses_avoidable
    }

    /// Decisions lost.
    pub fn errors(&self) -> usize {
        self.wins_dropped + self.losses_walked_into
    }

    /// Errors as a percentage of decisions (0 when there is none).
    pub fn error_rate(&self) -> f64 {
        match self.decisions() {
            0 => 0.0,
            d => 100.0 * self.errors() as f64 / d as f64,
        }
    }

    fn add(&mut self, a: &Answer) {
        self.positions += 1;
        if a.fault.is_some() {
            self.faults += 1;
            return;
        }
        self.wins += usize::from(a.win_at_stake);
        self.losses_avoidable += usize::from(a.loss_avoidable);
        self.wins_dropped += usize::from(a.verdict.drops_win);
        self.losses_walked_into += usize::from(a.verdict.walks_into_loss);
    }
}

/// The counts by seeds on the board, and in total.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// By seeds on the board.
    pub by_seeds: BTreeMap<u8, Counts>,
    /// Every position.
    pub total: Counts,
}

impl Tally {
    /// The counts of `answers`.
    pub fn of(answers: &[Answer]) -> Tally {
        let mut tally = Tally::default();
        for a in answers {
            tally.by_seeds.entry(a.seeds).or_default().add(a);
            tally.total.add(a);
        }
        tally
    }

    /// A table for people: a row for each number of seeds, then the total.
    pub fn text(&self) -> String {
        let mut out = String::from(
            "seeds  positions  wins  dropped  avoidable-losses  walked-into  errors  faults\n",
        );
        let row = |out: &mut String, label: &str, c: &Counts| {
            let _ = writeln!(
                out,
                "{label:>5}  {:>9}  {:>4}  {:>7}  {:>16}  {:>11}  {:>5.1}%  {:>6}",
                c.positions,
                c.wins,
                c.wins_dropped,
                c.losses_avoidable,
                c.losses_walked_into,
                c.error_rate(),
                c.faults
            );
        };
        for (seeds, c) in &self.by_seeds {
            row(&mut out, &seeds.to_string(), c);
        }
        row(&mut out, "all", &self.total);
        out
    }
}
