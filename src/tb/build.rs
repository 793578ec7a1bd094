//! Retrograde analysis of one level.
//!
//! Values are found threshold by threshold, from `n` down to 1, as in an
//! attractor computation, but each same-level edge is handled at most twice
//! in all:
//!
//! - A board's x (what the mover forces) is the largest of its capture
//!   candidates (known from lower levels) and of the y of its same-level
//!   children. When a child's y is settled at threshold v, every parent not
//!   yet settled gets x = v: nothing larger is left, since larger values were
//!   settled at earlier thresholds.
//! - A board's y is the smallest of its capture candidates and of the x of
//!   its same-level children. A counter of unsettled same-level children is
//!   decremented as each child's x is settled (in decreasing order); when it
//!   reaches zero at threshold v, y = min(v, capture bound).
//! - Whatever is unsettled after threshold 1 is 0: only captures (or the end
//!   of the game) ground a value, so cycles alone give nothing — this is what
//!   makes it the least fixpoint.
//!
//! State per board: the two value bytes (interleaved, as in the payload) and
//! the counter: 3 bytes.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::board::{for_each_child, for_each_parent, terminal_value};
use super::index::{Boards, level_size, rank, unrank};
use super::value::Value;
use crate::Variant;

/// A value byte that is final.
const SETTLED: u8 = 0x80;
/// A y byte still waiting for its counter (the low bits hold the capture bound).
const WAITING: u8 = 0x40;
const VALUE: u8 = 0x3F;
/// Boards per parallel task.
const CHUNK: u64 = 1 << 15;

/// Looks up the values of boards of solved levels.
pub trait LowerLevels: Sync {
    /// The value of the board of rank `r` in `level`.
    fn value_at(&self, level: usize, r: u64) -> Value;

    /// Reads the entry of rank `r` in `level` and returns a byte of it, so
    /// that a later [`LowerLevels::value_at`] finds it in the cache. Touching
    /// a batch of entries first lets their cache misses overlap.
    fn touch(&self, level: usize, r: u64) -> u8;

    /// The value of `board`, which holds `seeds` seeds.
    #[inline]
    fn value(&self, board: &[u8; 12], seeds: usize) -> Value {
        self.value_at(seeds, rank(board, seeds))
    }
}

/// The lower levels plus one level held in memory as interleaved pairs.
pub struct WithLevel<'a> {
    /// Levels below `level`.
    pub lower: &'a dyn LowerLevels,
    /// The level in memory.
    pub level: usize,
    /// Its values: x then y for each board, by rank.
    pub pairs: &'a [u8],
}

impl LowerLevels for WithLevel<'_> {
    #[inline]
    fn value_at(&self, level: usize, r: u64) -> Value {
        if level == self.level {
            Value::new(self.pairs[2 * r as usize], self.pairs[2 * r as usize + 1])
        } else {
            self.lower.value_at(level, r)
        }
    }

    #[inline]
    fn touch(&self, level: usize, r: u64) -> u8 {
        if level == self.level {
            self.pairs[2 * r as usize]
        } else {
            self.lower.touch(level, r)
        }
    }
}

/// Boards whose children are looked up together.
const EVAL_BATCH: usize = 64;

/// A board's moves folded over its children's values.
#[derive(Copy, Clone, Debug, Default)]
struct Folded {
    /// Legal moves.
    moves: u8,
    /// Moves that capture nothing (children in the same level).
    same: u8,
    /// Best x-candidate and smallest y-candidate over capturing moves.
    capture: (u8, u8),
    /// The same over every move (only when same-level values are known).
    all: (u8, u8),
}

/// Folds the children of each board in `boards` into `out`. Children in the
/// same level are looked up only when `with_same` is set.
fn fold_batch(
    boards: &[[u8; 12]],
    n: usize,
    variant: Variant,
    levels: &dyn LowerLevels,
    with_same: bool,
    out: &mut Vec<Folded>,
) {
    let mut edges: Vec<(u8, u8, u64)> = Vec::with_capacity(boards.len() * 6);
    out.clear();
    for (b, board) in boards.iter().enumerate() {
        let mut f = Folded {
            capture: (0, u8::MAX),
            all: (0, u8::MAX),
            ..Folded::default()
        };
        f.moves = for_each_child(board, variant, |e| {
            let level = n - e.captured as usize;
            f.same += u8::from(e.captured == 0);
            if e.captured > 0 || with_same {
                edges.push((b as u8, e.captured, rank(&e.child, level)));
            }
        }) as u8;
        out.push(f);
    }
    let mut touch = 0u8;
    for &(_, c, r) in &edges {
        touch ^= levels.touch(n - c as usize, r);
    }
    std::hint::black_box(touch);
    for &(b, c, r) in &edges {
        let child = levels.value_at(n - c as usize, r);
        let (x, y) = Value::candidates(variant, c, child);
        let f = &mut out[b as usize];
        if c > 0 {
            f.capture = (f.capture.0.max(x), f.capture.1.min(y));
        }
        f.all = (f.all.0.max(x), f.all.1.min(y));
    }
}

/// A fixpoint equation that does not hold after a build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {level}, board {board:?}: stored {stored:?} but its children give {expected:?}")]
pub struct FixpointError {
    /// The level.
    pub level: usize,
    /// The board.
    pub board: [u8; 12],
    /// The value found.
    pub stored: Value,
    /// The value the equations give.
    pub expected: Value,
}

fn chunks(size: u64) -> impl ParallelIterator<Item = (u64, u64)> {
    (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(move |c| (c * CHUNK, CHUNK.min(size - c * CHUNK)))
}

fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as
    // `u8`, and the exclusive borrow guarantees no non-atomic access to
    // these bytes while the returned slice lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// Solves level `n` of `variant`: returns the payload-ordered value pairs
/// (x then y for each board, by rank).
pub fn solve_level(
    n: usize,
    variant: Variant,
    lower: &dyn LowerLevels,
    bar: &ProgressBar,
) -> Vec<u8> {
    let size = level_size(n);
    let mut values = vec![0u8; 2 * size as usize];
    let mut counters = vec![0u8; size as usize];
    {
        let vals = atomic(&mut values);
        let cnt = atomic(&mut counters);
        bar.set_length(size * (n as u64 + 1));
        bar.set_position(0);
        bar.set_message(format!("level {n}: moves"));
        chunks(size).for_each(|(start, len)| {
            let _ = fold_chunk(start, len, n, variant, lower, false, |i, board, f| {
                let (x, y, same) = init(board, n, f);
                let i = i as usize;
                vals[2 * i].store(x, Relaxed);
                vals[2 * i + 1].store(y, Relaxed);
                cnt[i].store(same, Relaxed);
                Ok::<(), ()>(())
            });
            bar.inc(len);
        });
        for v in (1..=n as u8).rev() {
            bar.set_message(format!("level {n}: value {v}"));
            chunks(size).for_each(|(start, len)| {
                settle(start, len, v, n, variant, vals, cnt);
                bar.inc(len);
            });
        }
    }
    drop(counters);
    // Whatever is not settled is 0.
    values.par_chunks_mut(1 << 16).for_each(|block| {
        for b in block {
            *b = if *b & SETTLED != 0 { *b & VALUE } else { 0 };
        }
    });
    values
}

/// Initial state of one board: (x byte, y byte, same-level move count).
#[inline]
fn init(board: &[u8; 12], n: usize, f: &Folded) -> (u8, u8, u8) {
    let (best, bound, same) = (f.capture.0, f.capture.1.min(n as u8), f.same);
    if f.moves == 0 {
        // A finished game: its values are final but still have to reach the
        // parents at their thresholds, so they start pending (0 needs no
        // propagation).
        let (x, y) = terminal_value(board, n as u8);
        let pend = |v: u8| if v == 0 { SETTLED } else { v };
        return (pend(x), pend(y), 0);
    }
    let y = if same > 0 { WAITING | bound } else { bound };
    (best, y, same)
}

/// Claims a pending byte at threshold `v`: true if this call settled it.
fn claim(slot: &AtomicU8, v: u8) -> bool {
    slot.compare_exchange(v, SETTLED | v, Relaxed, Relaxed)
        .is_ok()
}

/// Settled boards whose parents are told together: their parents' slots
/// are touched first, so the cache misses overlap instead of queueing.
const BATCH: usize = 256;

/// Settles the boards of one chunk whose pending value is `v`, and
/// everything that follows from them at this threshold.
fn settle(
    start: u64,
    len: u64,
    v: u8,
    n: usize,
    variant: Variant,
    vals: &[AtomicU8],
    cnt: &[AtomicU8],
) {
    // Boards settled at `v` whose parents have not been told yet: the board
    // and true for x / false for y.
    let mut stack: Vec<([u8; 12], bool)> = Vec::new();
    let mut edges: Vec<(usize, [u8; 12], bool)> = Vec::with_capacity(BATCH * 8);
    for i in start..start + len {
        let k = 2 * i as usize;
        let x_now = vals[k].load(Relaxed) == v && claim(&vals[k], v);
        let y_now = vals[k + 1].load(Relaxed) == v && claim(&vals[k + 1], v);
        if x_now || y_now {
            let board = unrank(i, n);
            if x_now {
                stack.push((board, true));
            }
            if y_now {
                stack.push((board, false));
            }
        }
        if stack.len() >= BATCH || (i + 1 == start + len) {
            while !stack.is_empty() {
                let from = stack.len().saturating_sub(BATCH);
                edges.clear();
                for (board, is_x) in stack.drain(from..) {
                    for_each_parent(&board, variant, |parent| {
                        edges.push((rank(&parent, n) as usize, parent, is_x));
                    });
                }
                // Independent loads of every slot about to be updated.
                let mut touch = 0u8;
                for &(p, _, is_x) in &edges {
                    touch ^= if is_x {
                        cnt[p].load(Relaxed)
                    } else {
                        vals[2 * p].load(Relaxed)
                    };
                }
                std::hint::black_box(touch);
                for &(p, parent, is_x) in &edges {
                    if let Some(settled_x) = tell_parent(p, is_x, v, vals, cnt) {
                        stack.push((parent, settled_x));
                    }
                }
            }
        }
    }
}

/// Tells parent `p` that one same-level child's x (`is_x`) or y was
/// settled at `v`. Returns `Some(true)` if that settled the parent's x,
/// `Some(false)` if it settled its y.
#[inline]
fn tell_parent(p: usize, is_x: bool, v: u8, vals: &[AtomicU8], cnt: &[AtomicU8]) -> Option<bool> {
    if is_x {
        // One more same-level child settled; the last one gives the
        // smallest x, which bounds the parent's y.
        if cnt[p].fetch_sub(1, Relaxed) == 1 {
            let bound = vals[2 * p + 1].load(Relaxed) & VALUE;
            if bound >= v {
                vals[2 * p + 1].store(SETTLED | v, Relaxed);
                return Some(false);
            }
            // Settled later, at the threshold of its bound.
            vals[2 * p + 1].store(bound, Relaxed);
        }
        None
    } else {
        let slot = &vals[2 * p];
        let mut cur = slot.load(Relaxed);
        while cur & SETTLED == 0 {
            debug_assert!(cur <= v, "pending x above the threshold");
            match slot.compare_exchange_weak(cur, SETTLED | v, Relaxed, Relaxed) {
                Ok(_) => return Some(true),
                Err(now) => cur = now,
            }
        }
        None
    }
}

/// Re-checks every board of level `n` against its children: x must be
/// the largest x-candidate and y the smallest y-candidate. `levels` serves
/// level `n` and every level below it.
pub fn check_level(
    n: usize,
    variant: Variant,
    levels: &dyn LowerLevels,
    bar: &ProgressBar,
) -> Result<(), FixpointError> {
    let size = level_size(n);
    bar.set_length(size);
    bar.set_position(0);
    bar.set_message(format!("level {n}: check"));
    chunks(size).try_for_each(|(start, len)| {
        fold_chunk(start, len, n, variant, levels, true, |r, board, f| {
            let stored = levels.value_at(n, r);
            let expected = if f.moves == 0 {
                let (x, y) = terminal_value(board, n as u8);
                Value::new(x, y)
            } else {
                Value::new(f.all.0, f.all.1)
            };
            if stored == expected {
                Ok(())
            } else {
                Err(FixpointError {
                    level: n,
                    board: *board,
                    stored,
                    expected,
                })
            }
        })?;
        bar.inc(len);
        Ok(())
    })
}

/// Calls `f(rank, board, folded)` for the `len` boards of level `n` from
/// rank `start`, folding their children in batches (see [`fold_batch`]).
#[allow(clippy::too_many_arguments)]
fn fold_chunk<E>(
    start: u64,
    len: u64,
    n: usize,
    variant: Variant,
    levels: &dyn LowerLevels,
    with_same: bool,
    mut f: impl FnMut(u64, &[u8; 12], &Folded) -> Result<(), E>,
) -> Result<(), E> {
    let boards: Vec<[u8; 12]> = Boards::new(n, start, len).collect();
    let mut folded = Vec::with_capacity(EVAL_BATCH);
    for (b, batch) in boards.chunks(EVAL_BATCH).enumerate() {
        fold_batch(batch, n, variant, levels, with_same, &mut folded);
        for (k, (board, fold)) in batch.iter().zip(&folded).enumerate() {
            f(start + (b * EVAL_BATCH + k) as u64, board, fold)?;
        }
    }
    Ok(())
}

/// The value the fixpoint equations give a board from its children's values.
pub fn expected_value(
    board: &[u8; 12],
    n: usize,
    variant: Variant,
    same_level: &dyn Fn(&[u8; 12]) -> Value,
    lower: &dyn LowerLevels,
) -> Value {
    let mut x = 0u8;
    let mut y = u8::MAX;
    let moves = for_each_child(board, variant, |edge| {
        let child = if edge.captured == 0 {
            same_level(&edge.child)
        } else {
            lower.value(&edge.child, n - edge.captured as usize)
        };
        let (cx, cy) = Value::candidates(variant, edge.captured, child);
        x = x.max(cx);
        y = y.min(cy);
    });
    if moves == 0 {
        let (x, y) = terminal_value(board, n as u8);
        return Value::new(x, y);
    }
    Value::new(x, y)
}
