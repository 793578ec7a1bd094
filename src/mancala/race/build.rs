//! Building race tables with the shared level loop ([`TableGame`]): each
//! board's [`RaceEntry`] from its children's, level by level.
//!
//! As for the difference tables (`mancala::build`), the moves within a
//! level form a DAG (a move that stores nothing stays in the level, one
//! that stores leaves it), so a level is solved by memoised recursion over
//! its boards in parallel, one byte a board, [`UNKNOWN`] until solved. A
//! board's entry is found by playing every need `a` of the level against
//! its children's entries ([`through`]); a profile that is not monotone,
//! or whose draw band is wider than a byte holds, stops the build
//! ([`RaceEntry::of_exact_profile`]). The re-check recomputes every `a` of
//! the boards it covers from the stored children and compares it with the
//! stored byte.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::entry::{Outcome, RaceEntry};
use super::rules::RaceRules;
use super::step::{board_outcome, through};
use crate::mancala::build::{check_in_chunks, rotated};
use crate::mancala::edges::{Edge, for_each_edge_word, terminal_word};
use crate::tb::board::{from_word, rotate_word, to_word};
use crate::tb::build::{FixpointError, atomic, chunks};
use crate::tb::builder::{BuildError, Phases};
use crate::tb::game::TableGame;
use crate::tb::index::{full_level_size, rank_full_word, unrank_full};
use crate::tb::levels::Levels;
use crate::tb::prefetch::prefetch;
use crate::tb::recheck::Recheck;
use crate::tb::resident::{Resident, copy_budget};
use crate::tb::rules::TableRules;
use crate::tb::scratch::Scratch;

/// A byte no entry packs to (`win` ≤ 25 and a band ≤ 7 give at most 249).
const UNKNOWN: u8 = 0xff;

/// The bytes a build of level `n` holds for it: one a board.
pub fn working_memory(n: usize) -> u64 {
    full_level_size(n)
}

/// The moves of a board with their children's ranks.
#[derive(Copy, Clone, Default)]
struct Moves {
    edges: [Edge; 6],
    ranks: [u64; 6],
    count: usize,
}

impl Moves {
    /// The moves of `word` (`n` seeds, both rows holding seeds), each
    /// child's entry asked for by `fetch(seeds, rank)`.
    fn of(word: u128, n: usize, empty_capture: bool, fetch: impl Fn(usize, u64)) -> Moves {
        let mut m = Moves::default();
        for_each_edge_word(word, n as u8, empty_capture, |e| {
            let rank = if e.seeds > 0 {
                rank_full_word(e.child, usize::from(e.seeds))
            } else {
                0
            };
            if e.seeds > 0 {
                fetch(usize::from(e.seeds), rank);
            }
            m.edges[m.count] = e;
            m.ranks[m.count] = rank;
            m.count += 1;
        });
        m
    }

    /// The entry of the board, each child's entry from `entry(i)` (`i` the
    /// move's index, only asked for moves that reach a child), or `None`
    /// when no byte holds its profile.
    fn entry(
        &self,
        rules: RaceRules,
        n: usize,
        mut entry: impl FnMut(usize) -> RaceEntry,
    ) -> Option<RaceEntry> {
        let k = rules.needs_sum(n);
        let mut children = [RaceEntry::default(); 6];
        for (i, c) in children.iter_mut().enumerate().take(self.count) {
            if self.edges[i].seeds > 0 {
                *c = entry(i);
            }
        }
        RaceEntry::of_exact_profile(rules.needs(n), |a| {
            self.outcome(a, (k - i32::from(a)) as u8, &children)
        })
    }

    /// The mover's outcome needing `a` (the opponent `b`), from the
    /// children's entries.
    fn outcome(&self, a: u8, b: u8, children: &[RaceEntry; 6]) -> Outcome {
        (0..self.count)
            .map(|i| {
                through(&self.edges[i], a, b, |_, _, need, _| {
                    children[i].outcome(need)
                })
            })
            .max()
            .unwrap_or(Outcome::Loss)
    }
}

/// The entry of a board one of whose rows is empty, or `None` when no byte
/// holds its profile.
fn terminal_entry(rules: RaceRules, n: usize, word: u128) -> Option<RaceEntry> {
    let k = rules.needs_sum(n);
    RaceEntry::of_exact_profile(rules.needs(n), |a| {
        board_outcome(word, a, (k - i32::from(a)) as u8).unwrap_or(Outcome::Loss)
    })
}

/// A level being solved.
struct Solver<'a> {
    rules: RaceRules,
    n: usize,
    values: &'a [AtomicU8],
    lower: &'a [&'a [u8]],
    /// The first board met whose profile no byte holds.
    misfit: OnceLock<u128>,
}

impl Solver<'_> {
    fn fetch(&self, seeds: usize, r: u64) {
        if seeds < self.n {
            prefetch(&self.lower[seeds][r as usize]);
        } else {
            prefetch(&self.values[r as usize]);
        }
    }

    /// The entry of child `i` of `moves`, solved on the spot if it is of
    /// this level and not known yet.
    fn child(&self, moves: &Moves, i: usize) -> RaceEntry {
        let (seeds, rank) = (usize::from(moves.edges[i].seeds), moves.ranks[i] as usize);
        if seeds < self.n {
            return RaceEntry::unpack(self.lower[seeds][rank]);
        }
        let known = self.values[rank].load(Relaxed);
        if known != UNKNOWN {
            return RaceEntry::unpack(known);
        }
        let e = self.solve(moves.edges[i].child);
        self.values[rank].store(e.pack(), Relaxed);
        e
    }

    /// The entry of `word`; one whose profile no byte holds is noted in
    /// [`Solver::misfit`] (and stored as the entry of no outcome).
    fn solve(&self, word: u128) -> RaceEntry {
        let entry = if terminal_word(word).is_some() {
            terminal_entry(self.rules, self.n, word)
        } else {
            let moves = Moves::of(word, self.n, self.rules.empty_capture, |s, r| {
                self.fetch(s, r)
            });
            moves.entry(self.rules, self.n, |i| self.child(&moves, i))
        };
        entry.unwrap_or_else(|| {
            let _ = self.misfit.set(word);
            RaceEntry::default()
        })
    }

    fn solve_chunk(&self, start: u64, len: u64) {
        // A level with a board no entry holds is not written: stop early.
        if self.misfit.get().is_some() {
            return;
        }
        for (word, rank) in rotated(self.n, start, len) {
            if self.values[rank].load(Relaxed) == UNKNOWN {
                let e = self.solve(word);
                self.values[rank].store(e.pack(), Relaxed);
            }
        }
    }
}

/// Solves level `n` of `rules`, the levels below read through `lower`.
fn solve_level(
    rules: RaceRules,
    n: usize,
    lower: &Resident,
    bar: &ProgressBar,
) -> Result<Scratch, BuildError> {
    let size = full_level_size(n);
    let mut values =
        Scratch::zeroed(size as usize).map_err(|error| BuildError::Memory { level: n, error })?;
    bar.set_length(size);
    bar.set_position(0);
    bar.set_message(format!("level {n}: solve"));
    if rules.needs(n).is_empty() {
        // No position of this start has n seeds on the board with both
        // stores under 25: every entry is 0, never read.
        bar.set_position(size);
        return Ok(values);
    }
    values.iter_mut().for_each(|v| *v = UNKNOWN);
    let lower: Vec<&[u8]> = (0..n).map(|l| lower.payload(l)).collect();
    let solver = Solver {
        rules,
        n,
        values: atomic(&mut values),
        lower: &lower,
        misfit: OnceLock::new(),
    };
    chunks(size).for_each(|(start, len)| {
        solver.solve_chunk(start, len);
        bar.inc(len);
    });
    if let Some(&word) = solver.misfit.get() {
        return Err(BuildError::RaceEntry {
            level: n,
            board: from_word(word),
        });
    }
    Ok(values)
}

/// Re-checks the `len` boards of level `n` whose rotations have ranks
/// from `start` on: every need of every board against the stored
/// children.
fn check_boards(
    rules: RaceRules,
    n: usize,
    payload: &[&[u8]],
    start: u64,
    len: u64,
) -> Result<(), FixpointError<u8>> {
    let k = rules.needs_sum(n);
    for (word, rank) in rotated(n, start, len) {
        let stored = RaceEntry::unpack(payload[n][rank]);
        let outcome_of: Box<dyn Fn(u8) -> Outcome> = if terminal_word(word).is_some() {
            Box::new(move |a| {
                board_outcome(word, a, (k - i32::from(a)) as u8).unwrap_or(Outcome::Loss)
            })
        } else {
            let moves = Moves::of(word, n, rules.empty_capture, |_, _| {});
            let children: [RaceEntry; 6] = std::array::from_fn(|i| {
                if i < moves.count && moves.edges[i].seeds > 0 {
                    let s = usize::from(moves.edges[i].seeds);
                    RaceEntry::unpack(payload[s][moves.ranks[i] as usize])
                } else {
                    RaceEntry::default()
                }
            });
            Box::new(move |a| moves.outcome(a, (k - i32::from(a)) as u8, &children))
        };
        let consistent = rules.needs(n).all(|a| stored.outcome(a) == outcome_of(a));
        if !consistent || (rules.needs(n).is_empty() && payload[n][rank] != 0) {
            // The byte an entry of this profile packs to (cut if it fits
            // none), worked out only for the report.
            let expected = RaceEntry::of_profile(rules.needs(n), &outcome_of);
            return Err(FixpointError {
                level: n,
                board: from_word(word),
                stored: payload[n][rank],
                expected: expected.pack(),
            });
        }
    }
    Ok(())
}

fn check_level(
    rules: RaceRules,
    n: usize,
    payload: &[&[u8]],
    bar: &ProgressBar,
    recheck: Recheck,
) -> Result<(), FixpointError<u8>> {
    check_in_chunks(n, bar, recheck, |start, len| {
        check_boards(rules, n, payload, start, len)
    })
}

/// The race levels of one start for the shared table code.
impl TableGame for RaceRules {
    type Entry = u8;

    fn rules(&self) -> TableRules {
        self.table_rules()
    }

    fn solve(
        &self,
        n: usize,
        lower: &Levels,
        bar: &ProgressBar,
        phases: &mut Phases,
        recheck: Recheck,
    ) -> Result<Scratch, BuildError> {
        let mut lap = Instant::now();
        let mut split = || {
            let seconds = lap.elapsed().as_secs_f64();
            lap = Instant::now();
            seconds
        };
        let resident = Resident::reaching_raw(lower, n, 0..n, copy_budget(working_memory(n)))
            .map_err(|error| BuildError::copying(n, error))?;
        phases.copy = split();
        let values = solve_level(*self, n, &resident, bar)?;
        phases.moves = split();
        let mut payload: Vec<&[u8]> = (0..n).map(|l| resident.payload(l)).collect();
        payload.push(&values);
        check_level(*self, n, &payload, bar, recheck)?;
        phases.check = split();
        Ok(values)
    }

    fn check(&self, n: usize, levels: &Levels, bar: &ProgressBar) -> Result<(), FixpointError<u8>> {
        let raw: Vec<_> = (0..=n).map(|l| levels.loaded(l).raw()).collect();
        let payload: Vec<&[u8]> = raw.iter().map(|p| &**p).collect();
        check_level(*self, n, &payload, bar, Recheck::All)
    }

    fn check_board(&self, n: usize, levels: &Levels, r: u64) -> Result<(), FixpointError<u8>> {
        let raw: Vec<_> = (0..=n).map(|l| levels.loaded(l).raw()).collect();
        let payload: Vec<&[u8]> = raw.iter().map(|p| &**p).collect();
        let rotation = rank_full_word(rotate_word(to_word(&unrank_full(r, n))), n);
        check_boards(*self, n, &payload, rotation, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::build_levels;

    /// Level 9 of the 3-seed start (167,960 boards, 6 chunks: a sample
    /// covers the first) with the byte at `rank` set to `byte`, re-checked.
    fn check_with(
        payloads: &[Vec<u8>],
        rank: usize,
        byte: u8,
        recheck: Recheck,
    ) -> Result<(), FixpointError<u8>> {
        let rules = RaceRules {
            empty_capture: false,
            total: 36,
        };
        let mut level = payloads[9].clone();
        level[rank] = byte;
        let mut views: Vec<&[u8]> = payloads[..9].iter().map(|p| &p[..]).collect();
        views.push(&level);
        check_level(rules, 9, &views, &ProgressBar::hidden(), recheck)
    }

    #[test]
    fn a_sampled_recheck_reads_the_first_chunk_and_skips_others() {
        let rules = RaceRules {
            empty_capture: false,
            total: 36,
        };
        let dir = tempfile::tempdir().unwrap();
        build_levels(&rules, dir.path(), 9, false, |_| {}).unwrap();
        let mut levels = Levels::empty(dir.path(), rules.table_rules());
        let payloads: Vec<Vec<u8>> = (0..=9)
            .map(|l| {
                levels.load(l, true).unwrap();
                levels.loaded(l).raw().into_owned()
            })
            .collect();
        assert!(check_with(&payloads, 0, payloads[9][0], Recheck::All).is_ok());
        // A byte that misstates its own board: in the first chunk, both
        // find it.
        let wrong = |rank: usize| {
            (0..=249u8)
                .filter(|&b| b != payloads[9][rank] && b & 0x1f <= 25)
                .find(|&b| check_with(&payloads, rank, b, Recheck::All).is_err())
        };
        // (The chunks run over the boards' rotations: a board's own rank is
        // elsewhere.)
        let (_, first) = rotated(9, 0, 1).next().unwrap();
        let byte = wrong(first).expect("a byte the whole re-check rejects");
        assert!(check_with(&payloads, first, byte, Recheck::Sample).is_err());
        // In the last chunk, some such byte passes the sample.
        let size = payloads[9].len() as u64;
        let skipped = rotated(9, size - 40, 40).any(|(_, rank)| {
            wrong(rank).is_some_and(|b| check_with(&payloads, rank, b, Recheck::Sample).is_ok())
        });
        assert!(skipped);
    }
}
