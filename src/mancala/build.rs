//! Building Mancala's tables: the value of every board of a level, from
//! the levels below it.
//!
//! The game has no cycles (§7.6): a move that puts no seed in a store
//! keeps its seeds in the mover's row and moves them towards the mover's
//! store, so Φ = Σ seeds × distance to their owner's store falls along
//! every move within a level, and a move that stores a seed leaves a lower
//! level. A board's value is therefore plain minimax over its moves (the
//! best of gain ± child, see [`Edge::value`](super::edges::Edge::value)),
//! and a level is solved by memoised recursion: chunks of boards in
//! parallel, each board not yet known solved from its children, a
//! same-level child not yet known solved on the spot (at most 6n deep,
//! since Φ ≤ 6n). Every board is solved once (two threads may race to the
//! same board and both store the one value it has), with no ordering pass
//! and no memory beyond the level's own byte a board; the boards are taken
//! by their rotations' ranks, for the locality of their children (see the
//! README).

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::edges::{for_each_edge_word, terminal_word};
use super::rules::MancalaRules;
use crate::tb::board::{from_word, rotate_word, to_word};
use crate::tb::build::{CHUNK, FixpointError, atomic, checked_chunks, chunks};
use crate::tb::builder::{BuildError, Phases};
use crate::tb::game::TableGame;
use crate::tb::index::{FullBoards, full_level_size, rank_full_word, unrank_full};
use crate::tb::levels::Levels;
use crate::tb::prefetch::prefetch;
use crate::tb::recheck::Recheck;
use crate::tb::resident::{Resident, copy_budget};
use crate::tb::rules::TableRules;
use crate::tb::scratch::Scratch;

/// A value byte not solved yet (no board's value: they are −48..48).
const UNKNOWN: u8 = 0x80;

/// Boards expanded together: every child's entry is asked for before the
/// first is read, so that the cache misses overlap.
const BATCH: usize = 32;

/// The bytes a build of level `n` holds for it: one a board.
pub fn working_memory(n: usize) -> u64 {
    full_level_size(n)
}

/// A move of a board: the board it leaves, its rank and level, and what
/// the move gains.
#[derive(Copy, Clone, Default)]
struct Child {
    word: u128,
    rank: u64,
    seeds: u8,
    gain: i8,
    again: bool,
}

impl Child {
    /// The mover's value through this move, from the child's.
    #[inline(always)]
    const fn value(&self, child: i8) -> i8 {
        if self.again {
            self.gain + child
        } else {
            self.gain - child
        }
    }
}

/// The moves of a board, their children's entries prefetched.
#[derive(Copy, Clone, Default)]
struct Expanded {
    children: [Child; 6],
    moves: u8,
}

impl Expanded {
    /// Fills in the moves of `word` (`n` seeds, both rows holding seeds),
    /// the entry of each child asked for by `fetch(seeds, rank)`.
    #[inline(always)]
    fn fill(&mut self, word: u128, n: usize, empty_capture: bool, fetch: impl Fn(usize, u64)) {
        self.moves = 0;
        for_each_edge_word(word, n as u8, empty_capture, |edge| {
            let seeds = usize::from(edge.seeds);
            let rank = rank_full_word(edge.child, seeds);
            fetch(seeds, rank);
            self.children[usize::from(self.moves)] = Child {
                word: edge.child,
                rank,
                seeds: edge.seeds,
                gain: edge.gain,
                again: edge.again,
            };
            self.moves += 1;
        });
    }

    /// The best of the moves, each child's value from `value(child)`.
    #[inline(always)]
    fn best(&self, mut value: impl FnMut(&Child) -> i8) -> i8 {
        self.children[..usize::from(self.moves)]
            .iter()
            .fold(i8::MIN, |best, c| best.max(c.value(value(c))))
    }
}

/// Solves level `n` under `empty_capture`, the levels below it read
/// through `lower`: one signed byte a board, by rank.
pub fn solve_level(
    n: usize,
    empty_capture: bool,
    lower: &Resident,
    bar: &ProgressBar,
) -> std::io::Result<Scratch> {
    let size = full_level_size(n);
    let mut values = Scratch::zeroed(size as usize)?;
    values.par_chunks_mut(1 << 20).for_each(|c| c.fill(UNKNOWN));
    bar.set_length(size);
    bar.set_position(0);
    bar.set_message(format!("level {n}: solve"));
    {
        let solver = Solver {
            n,
            empty_capture,
            values: atomic(&mut values),
            lower: &(0..n).map(|l| lower.payload(l)).collect::<Vec<_>>(),
        };
        chunks(size).for_each(|(start, len)| {
            solver.solve_chunk(start, len);
            bar.inc(len);
        });
    }
    Ok(values)
}

/// A level being solved.
struct Solver<'a> {
    n: usize,
    empty_capture: bool,
    /// The level's values by rank, [`UNKNOWN`] until solved.
    values: &'a [AtomicU8],
    /// The payloads of the levels below.
    lower: &'a [&'a [u8]],
}

impl Solver<'_> {
    /// Starts loading the entry of the board of rank `r` of level `seeds`.
    #[inline(always)]
    fn fetch(&self, seeds: usize, r: u64) {
        if seeds < self.n {
            prefetch(&self.lower[seeds][r as usize]);
        } else {
            prefetch(&self.values[r as usize]);
        }
    }

    /// Fills in the moves of `word`, their children's entries prefetched.
    #[inline(always)]
    fn expand(&self, word: u128, out: &mut Expanded) {
        out.fill(word, self.n, self.empty_capture, |s, r| self.fetch(s, r));
    }

    /// The value of a child, solving (and storing) it if it is of this
    /// level and not known yet.
    #[inline(always)]
    fn child_value(&self, c: &Child) -> i8 {
        let (seeds, rank) = (usize::from(c.seeds), c.rank as usize);
        if seeds < self.n {
            return self.lower[seeds][rank] as i8;
        }
        let known = self.values[rank].load(Relaxed);
        if known != UNKNOWN {
            return known as i8;
        }
        let v = self.solve(c.word);
        self.values[rank].store(v as u8, Relaxed);
        v
    }

    /// The value of the board word `word`.
    fn solve(&self, word: u128) -> i8 {
        if let Some(v) = terminal_word(word) {
            return v;
        }
        let mut moves = Expanded::default();
        self.expand(word, &mut moves);
        moves.best(|c| self.child_value(c))
    }

    /// Solves the boards not solved yet among those whose rotations have
    /// ranks `start..start + len` (see [`rotated`]), in batches.
    fn solve_chunk(&self, start: u64, len: u64) {
        let mut boards = rotated(self.n, start, len);
        let mut words = [0u128; BATCH];
        let mut ranks = [0usize; BATCH];
        let mut moves = [Expanded::default(); BATCH];
        // Whether each board of the batch is still to be solved.
        let mut todo = [false; BATCH];
        let mut left = len as usize;
        while left > 0 {
            let count = BATCH.min(left);
            for i in 0..count {
                (words[i], ranks[i]) = boards.next().expect("a board per rank");
                prefetch(&self.values[ranks[i]]);
            }
            for i in 0..count {
                todo[i] = self.values[ranks[i]].load(Relaxed) == UNKNOWN;
                if todo[i] && terminal_word(words[i]).is_none() {
                    self.expand(words[i], &mut moves[i]);
                }
            }
            for i in 0..count {
                // Solved meanwhile, by an earlier board's recursion?
                if !todo[i] || self.values[ranks[i]].load(Relaxed) != UNKNOWN {
                    continue;
                }
                let v = terminal_word(words[i])
                    .unwrap_or_else(|| moves[i].best(|c| self.child_value(c)));
                self.values[ranks[i]].store(v as u8, Relaxed);
            }
            left -= count;
        }
    }
}

/// The boards of `n` seeds whose rotations (rows swapped) have ranks
/// `start..start + len`, with their own ranks.
///
/// This is the order the builder takes the boards in: a board's moves
/// that pass the turn leave children whose rows are its own swapped, so
/// consecutive boards in this order (the same mover's row, the
/// opponent's changing fastest) have children of nearby ranks, and most
/// look-ups hit lines and pages already loaded. In rank order every such
/// child lands somewhere else in the level.
pub(crate) fn rotated(n: usize, start: u64, len: u64) -> impl Iterator<Item = (u128, usize)> {
    let mut boards = FullBoards::new(n, start, len);
    std::iter::from_fn(move || {
        let word = rotate_word(boards.next_word()?);
        Some((word, rank_full_word(word, n) as usize))
    })
}

/// Re-checks the `len` boards of level `n` whose rotations have ranks from
/// `start` on (see [`rotated`]): each stored value must be what its
/// children's give. `payload(level)` reads level
/// `n` and the levels below it.
fn check_boards(
    n: usize,
    empty_capture: bool,
    payload: &[&[u8]],
    start: u64,
    len: u64,
) -> Result<(), FixpointError<i8>> {
    let mut boards = rotated(n, start, len);
    let mut words = [0u128; BATCH];
    let mut ranks = [0usize; BATCH];
    let mut moves = [Expanded::default(); BATCH];
    let fetch = |seeds: usize, rank: u64| prefetch(&payload[seeds][rank as usize]);
    let mut left = len as usize;
    while left > 0 {
        let count = BATCH.min(left);
        for i in 0..count {
            (words[i], ranks[i]) = boards.next().expect("a board per rank");
            prefetch(&payload[n][ranks[i]]);
            if terminal_word(words[i]).is_none() {
                moves[i].fill(words[i], n, empty_capture, fetch);
            }
        }
        for i in 0..count {
            let expected = terminal_word(words[i]).unwrap_or_else(|| {
                moves[i].best(|c| payload[usize::from(c.seeds)][c.rank as usize] as i8)
            });
            let stored = payload[n][ranks[i]] as i8;
            if stored != expected {
                return Err(FixpointError {
                    level: n,
                    board: from_word(words[i]),
                    stored,
                    expected,
                });
            }
        }
        left -= count;
    }
    Ok(())
}

/// [`check_boards`] over the whole level, in parallel.
fn check_level(
    n: usize,
    empty_capture: bool,
    payload: &[&[u8]],
    bar: &ProgressBar,
    recheck: Recheck,
) -> Result<(), FixpointError<i8>> {
    check_in_chunks(n, bar, recheck, |start, len| {
        check_boards(n, empty_capture, payload, start, len)
    })
}

/// Runs `check` over the chunks (first rank, boards) of level `n`'s full
/// index that `recheck` covers, in parallel, showing it on `bar` as the
/// level's check.
pub(crate) fn check_in_chunks<E: Send>(
    n: usize,
    bar: &ProgressBar,
    recheck: Recheck,
    check: impl Fn(u64, u64) -> Result<(), E> + Sync + Send,
) -> Result<(), E> {
    let size = full_level_size(n);
    bar.set_length(recheck.boards(size, CHUNK));
    bar.set_position(0);
    bar.set_message(format!("level {n}: check"));
    checked_chunks(size, recheck).try_for_each(|(start, len)| {
        check(start, len)?;
        bar.inc(len);
        Ok(())
    })
}

/// Mancala's levels for the shared table code (the start does not matter:
/// only the capture convention is a table's).
impl TableGame for MancalaRules {
    type Entry = i8;

    fn rules(&self) -> TableRules {
        TableRules::Mancala {
            empty_capture: self.empty_capture,
        }
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
        // A move stores one seed or more: every lower level may be reached.
        let resident = Resident::reaching_raw(lower, n, 0..n, copy_budget(working_memory(n)))
            .map_err(|error| BuildError::copying(n, error))?;
        phases.copy = split();
        let values = solve_level(n, self.empty_capture, &resident, bar)
            .map_err(|error| BuildError::Memory { level: n, error })?;
        phases.moves = split();
        let mut payload: Vec<&[u8]> = (0..n).map(|l| resident.payload(l)).collect();
        payload.push(&values);
        check_level(n, self.empty_capture, &payload, bar, recheck)?;
        phases.check = split();
        Ok(values)
    }

    fn check(&self, n: usize, levels: &Levels, bar: &ProgressBar) -> Result<(), FixpointError<i8>> {
        let raw = raw_levels(levels, n);
        check_level(n, self.empty_capture, &payloads(&raw), bar, Recheck::All)
    }

    fn check_board(&self, n: usize, levels: &Levels, r: u64) -> Result<(), FixpointError<i8>> {
        let raw = raw_levels(levels, n);
        let payload = payloads(&raw);
        // `check_boards` walks the boards by their rotations' ranks.
        let rotation = rank_full_word(rotate_word(to_word(&unrank_full(r, n))), n);
        check_boards(n, self.empty_capture, &payload, rotation, 1)
    }
}

/// The raw payloads of levels 0..=n, which must be open (compact ones
/// decoded).
fn raw_levels(levels: &Levels, n: usize) -> Vec<std::borrow::Cow<'_, [u8]>> {
    (0..=n).map(|l| levels.loaded(l).raw()).collect()
}

fn payloads<'a>(raw: &'a [std::borrow::Cow<'_, [u8]>]) -> Vec<&'a [u8]> {
    raw.iter().map(|p| &**p).collect()
}
