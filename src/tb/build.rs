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
//! State per board: a 3-byte record (x, y and the counter) and one bit of a
//! filter saying that its x is settled. The records are compacted into the
//! payload's value pairs at the end.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::board::{
    for_each_child, for_each_child_word, for_each_parent_word, from_word, terminal_value,
};
use super::bucketed::{Buckets, settle_threshold, tell_bytes};
use super::index::{Boards, level_size, rank, rank_word, unrank_word};
use super::prefetch::prefetch;
use super::recheck::Recheck;
use super::scratch::Scratch;
use super::value::Value;
use crate::Variant;

/// A value byte that is final.
pub(crate) const SETTLED: u8 = 0x80;
/// A y byte still waiting for its counter (the low bits hold the capture bound).
pub(crate) const WAITING: u8 = 0x40;
pub(crate) const VALUE: u8 = 0x3F;
/// Boards per parallel task.
pub(crate) const CHUNK: u64 = 1 << 15;

/// Looks up the values of boards of solved levels.
///
/// The builder's passes are generic over it rather than taking a trait
/// object: every child look-up then inlines down to the byte it reads,
/// where a virtual call per look-up (two with [`WithLevel`]) cost 5–10 % of
/// a level's time (levels 21, 23 and 25 on 2 threads).
pub trait LowerLevels: Sync {
    /// The value of the board of rank `r` in `level`.
    fn value_at(&self, level: usize, r: u64) -> Value;

    /// Starts loading the entry of rank `r` in `level`, so that a later
    /// [`LowerLevels::value_at`] finds it in the cache: asking for a batch
    /// of entries first lets their cache misses overlap.
    fn prefetch(&self, level: usize, r: u64);

    /// The value of `board`, which holds `seeds` seeds.
    #[inline]
    fn value(&self, board: &[u8; 12], seeds: usize) -> Value {
        self.value_at(seeds, rank(board, seeds))
    }
}

/// The lower levels plus one level held in memory as interleaved pairs.
pub struct WithLevel<'a, L: LowerLevels + ?Sized> {
    /// Levels below `level`.
    pub lower: &'a L,
    /// The level in memory.
    pub level: usize,
    /// Its values: x then y for each board, by rank.
    pub pairs: &'a [u8],
}

impl<L: LowerLevels + ?Sized> LowerLevels for WithLevel<'_, L> {
    #[inline]
    fn value_at(&self, level: usize, r: u64) -> Value {
        if level == self.level {
            Value::new(self.pairs[2 * r as usize], self.pairs[2 * r as usize + 1])
        } else {
            self.lower.value_at(level, r)
        }
    }

    #[inline]
    fn prefetch(&self, level: usize, r: u64) {
        if level == self.level {
            prefetch(&self.pairs[2 * r as usize]);
        } else {
            self.lower.prefetch(level, r);
        }
    }
}

/// Boards whose children are looked up together.
const EVAL_BATCH: usize = 64;

/// A board's moves folded over its children's values.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Folded {
    /// Legal moves.
    pub(crate) moves: u8,
    /// Moves that capture nothing (children in the same level).
    pub(crate) same: u8,
    /// Best x-candidate and smallest y-candidate over capturing moves.
    pub(crate) capture: (u8, u8),
    /// The same over every move (only when same-level values are known).
    pub(crate) all: (u8, u8),
}

/// Folds the children of each board in `boards` (words, see [`to_word`](super::board::to_word))
/// into `out`. Children in the same level are looked up only when
/// `with_same` is set.
fn fold_batch<L: LowerLevels + ?Sized>(
    boards: &[u128],
    n: usize,
    variant: Variant,
    levels: &L,
    with_same: bool,
    out: &mut Vec<Folded>,
) {
    let mut edges: Vec<(u8, u8, u64)> = Vec::with_capacity(boards.len() * 6);
    out.clear();
    for (b, &board) in boards.iter().enumerate() {
        let mut f = Folded {
            capture: (0, u8::MAX),
            all: (0, u8::MAX),
            ..Folded::default()
        };
        f.moves = for_each_child_word(board, variant, |_, captured, child| {
            f.same += u8::from(captured == 0);
            if captured > 0 || with_same {
                let r = rank_word(child, n - captured as usize);
                levels.prefetch(n - captured as usize, r);
                edges.push((b as u8, captured, r));
            }
        }) as u8;
        out.push(f);
    }
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

/// A fixpoint equation that does not hold after a build: a board's entry
/// (an Oware [`Value`], or a Mancala score) is not what its children give.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level {level}, board {board:?}: stored {stored:?} but its children give {expected:?}")]
pub struct FixpointError<V: std::fmt::Debug = Value> {
    /// The level.
    pub level: usize,
    /// The board.
    pub board: [u8; 12],
    /// The value found.
    pub stored: V,
    /// The value the equations give.
    pub expected: V,
}

/// The chunks of a level's `size` boards, as (first rank, boards); once
/// the build is [interrupted](super::builder::interrupted), the chunks not
/// yet started are skipped, so a pass ends within a chunk's time.
pub(crate) fn chunks(size: u64) -> impl ParallelIterator<Item = (u64, u64)> {
    (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .filter(|_| !super::builder::interrupted())
        .map(move |c| (c * CHUNK, CHUNK.min(size - c * CHUNK)))
}

/// The chunks of [`chunks`] that `recheck` covers.
pub(crate) fn checked_chunks(
    size: u64,
    recheck: Recheck,
) -> impl ParallelIterator<Item = (u64, u64)> {
    chunks(size).filter(move |&(start, _)| recheck.covers(start / CHUNK))
}

pub(crate) fn atomic(bytes: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as
    // `u8`, and the exclusive borrow guarantees no non-atomic access to
    // these bytes while the returned slice lives.
    unsafe { &*(bytes as *mut [u8] as *const [AtomicU8]) }
}

/// The bytes [`solve_level`] needs at least for level `n`: one record per
/// board. [Bucketed](Settling::Bucketed) settling takes
/// [`settling_bytes`] more.
pub fn working_memory(n: usize) -> u64 {
    RECORD as u64 * level_size(n)
}

/// The bytes the settling of a level of `boards` boards takes beside its
/// records when it pays to bucket it: six times its buffers of tells, for
/// the boards the tells settle and the lists' growth (level 30's peak rose
/// by 0.78 bytes a board, its buffers being 0.125: this plans a little
/// less); nothing for a level
/// settled directly.
pub fn settling_bytes(boards: u64) -> u64 {
    if boards > FILTER_MAX_BOARDS {
        6 * tell_bytes(boards)
    } else {
        0
    }
}

/// A solved level.
pub struct Solved {
    /// The payload-ordered value pairs: x then y for each board, by rank.
    pub values: Scratch,
    /// Seconds of the pass over the moves.
    pub moves_seconds: f64,
    /// Seconds of the thresholds (the retrograde settling).
    pub settle_seconds: f64,
}

/// How the thresholds of a level are settled. Both give the same values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Settling {
    /// Each parent is told at once, at its place in the records.
    Direct,
    /// The tells are sorted into buckets of neighbouring ranks first (see
    /// `bucketed.rs`): for levels far larger than the caches.
    Bucketed,
}

impl Settling {
    /// The settling that pays for level `n`: bucketed once the records,
    /// and the filter that spares the direct settling most of its trips to
    /// memory, leave the caches.
    pub fn for_level(n: usize) -> Settling {
        Settling::within(n, u64::MAX)
    }

    /// [`Settling::for_level`] when `spare` bytes are free beside the
    /// records: direct where the buckets' buffers would not fit.
    pub fn within(n: usize, spare: u64) -> Settling {
        match settling_bytes(level_size(n)) {
            0 => Settling::Direct,
            bytes if bytes > spare => Settling::Direct,
            _ => Settling::Bucketed,
        }
    }

    /// The bytes this settling of level `n` takes beside its records.
    pub fn bytes(self, n: usize) -> u64 {
        match self {
            Settling::Direct => 0,
            Settling::Bucketed => settling_bytes(level_size(n)),
        }
    }
}

/// Solves level `n` of `variant`, settling as [`Settling::for_level`] says
/// whatever the memory, or fails to map the memory.
pub fn solve_level<L: LowerLevels + ?Sized>(
    n: usize,
    variant: Variant,
    lower: &L,
    bar: &ProgressBar,
) -> std::io::Result<Solved> {
    solve_level_as(n, variant, lower, bar, Settling::for_level(n))
}

/// Solves level `n` of `variant` settling as `settling` says, or fails to
/// map the memory. Both settlings give the same values.
pub fn solve_level_as<L: LowerLevels + ?Sized>(
    n: usize,
    variant: Variant,
    lower: &L,
    bar: &ProgressBar,
    settling: Settling,
) -> std::io::Result<Solved> {
    let size = level_size(n);
    let mut records = Scratch::zeroed(working_memory(n) as usize)?;
    let started = Instant::now();
    let moves_seconds;
    {
        // The filter only pays while it stays in the cache.
        let x_done: Option<Vec<AtomicU64>> = (size <= FILTER_MAX_BOARDS)
            .then(|| (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect());
        let pending: Vec<AtomicU64> = (0..size.div_ceil(CHUNK))
            .map(|_| AtomicU64::new(0))
            .collect();
        let state = State {
            records: atomic(&mut records),
            x_done: x_done.as_deref(),
            pending: &pending,
        };
        bar.set_length(size * (n as u64 + 1));
        bar.set_position(0);
        bar.set_message(format!("level {n}: moves"));
        chunks(size).for_each(|(start, len)| {
            let mut thresholds = 0;
            let _ = fold_chunk(start, len, n, variant, lower, false, |i, board, f| {
                let (x, y, same) = init(board, n, f);
                let i = i as usize;
                state.x(i).store(x, Relaxed);
                state.y(i).store(y, Relaxed);
                state.count(i).store(same, Relaxed);
                thresholds |= pending_bit(x) | pending_bit(y);
                Ok::<(), ()>(())
            });
            state.pending[(start / CHUNK) as usize].store(thresholds, Relaxed);
            bar.inc(len);
        });
        moves_seconds = started.elapsed().as_secs_f64();
        let buckets = (settling == Settling::Bucketed).then(|| Buckets::new(size));
        for v in (1..=n as u8).rev() {
            bar.set_message(format!("level {n}: value {v}"));
            if let Some(buckets) = &buckets {
                settle_threshold(v, n, size, variant, &state, buckets, |boards| {
                    bar.inc(boards)
                });
            } else {
                chunks(size).for_each(|(start, len)| {
                    settle(start, len, v, n, variant, &state);
                    bar.inc(len);
                });
            }
        }
    }
    Ok(Solved {
        values: compact(records, size),
        moves_seconds,
        settle_seconds: started.elapsed().as_secs_f64() - moves_seconds,
    })
}

/// Initial state of one board: (x byte, y byte, same-level move count).
#[inline]
pub(crate) fn init(board: &[u8; 12], n: usize, f: &Folded) -> (u8, u8, u8) {
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

/// Bytes of a board's record while its level is solved: x, y, and the
/// count of same-level children whose x is not settled yet. The count sits
/// next to y, which is read when the count reaches zero: one cache line.
pub(crate) const RECORD: usize = 3;

/// The shared state of a level being solved.
pub(crate) struct State<'a> {
    /// The records of the boards, by rank.
    pub(crate) records: &'a [AtomicU8],
    /// Boards whose x is settled, one bit each: most parents told of a
    /// settled y already have their x, and this filter answers from the
    /// cache where the records would cost a trip to memory. Only for levels
    /// of at most [`FILTER_MAX_BOARDS`] boards. Plain words: bitvec's
    /// atomic bit slice made the settling phase slower (level 18 on one
    /// thread: 14.3 s against 12.2 s).
    x_done: Option<&'a [AtomicU64]>,
    /// For each chunk, bit v set when one of its boards may hold a byte
    /// pending at threshold v: a chunk without one is not scanned then.
    pub(crate) pending: &'a [AtomicU64],
}

/// The bit of [`State::pending`] for a record byte: its threshold if it is
/// pending (a value with no flag), else nothing.
#[inline]
pub(crate) fn pending_bit(byte: u8) -> u64 {
    if byte & (SETTLED | WAITING) == 0 && byte > 0 {
        1 << byte
    } else {
        0
    }
}

impl State<'_> {
    /// Board `i`'s x byte.
    #[inline]
    pub(crate) fn x(&self, i: usize) -> &AtomicU8 {
        &self.records[RECORD * i]
    }

    /// Board `i`'s y byte.
    #[inline]
    pub(crate) fn y(&self, i: usize) -> &AtomicU8 {
        &self.records[RECORD * i + 1]
    }

    /// Board `i`'s count of same-level children without a settled x.
    #[inline]
    pub(crate) fn count(&self, i: usize) -> &AtomicU8 {
        &self.records[RECORD * i + 2]
    }

    /// Board `p`'s last same-level child got its x at threshold `v`: its y
    /// is settled at `v` if its capture bound is no less (`Some(0)`, the
    /// flag of a settled y), else left pending at the bound's threshold.
    #[inline]
    pub(crate) fn last_child_settled(&self, p: usize, v: u8) -> Option<u128> {
        let y = self.y(p);
        let bound = y.load(Relaxed) & VALUE;
        if bound >= v {
            y.store(SETTLED | v, Relaxed);
            return Some(0);
        }
        y.store(bound, Relaxed);
        self.pending[p / CHUNK as usize].fetch_or(pending_bit(bound), Relaxed);
        None
    }

    /// Claims the bytes pending at threshold `v` of the chunk of `len`
    /// boards of level `n` from rank `start`, and calls `settled` with the
    /// word of each board claimed, [`X_FLAG`] set for its x (once for each
    /// of its two bytes claimed). A chunk without a byte pending there is
    /// not scanned.
    #[inline]
    pub(crate) fn claim_chunk(
        &self,
        start: u64,
        len: u64,
        v: u8,
        n: usize,
        mut settled: impl FnMut(u128),
    ) {
        if self.pending[(start / CHUNK) as usize].load(Relaxed) >> v & 1 == 0 {
            return;
        }
        for i in start..start + len {
            let x_now = self.claim(i as usize, true, v);
            let y_now = self.claim(i as usize, false, v);
            if x_now || y_now {
                let board = unrank_word(i, n);
                if x_now {
                    settled(board | X_FLAG);
                }
                if y_now {
                    settled(board);
                }
            }
        }
    }

    /// Records that board `i`'s x is settled.
    #[inline]
    pub(crate) fn mark_x_done(&self, i: usize) {
        if let Some(filter) = self.x_done {
            filter[i / 64].fetch_or(1 << (i % 64), Relaxed);
        }
    }

    /// Whether board `i`'s x is known to be settled (always false without
    /// the filter).
    #[inline]
    fn x_is_done(&self, i: usize) -> bool {
        self.x_done
            .is_some_and(|filter| filter[i / 64].load(Relaxed) >> (i % 64) & 1 != 0)
    }

    /// Claims board `i`'s x (`is_x`) or y byte if it is pending at
    /// threshold `v`: true if this call settled it.
    #[inline]
    pub(crate) fn claim(&self, i: usize, is_x: bool, v: u8) -> bool {
        let slot = if is_x { self.x(i) } else { self.y(i) };
        let claimed = slot.load(Relaxed) == v
            && slot
                .compare_exchange(v, SETTLED | v, Relaxed, Relaxed)
                .is_ok();
        if claimed && is_x {
            self.mark_x_done(i);
        }
        claimed
    }
}

/// Settled boards whose parents are told together: every parent's slot is
/// prefetched before the first is updated, so the cache misses overlap
/// instead of queueing.
pub(crate) const BATCH: usize = 256;

/// The most boards a level may have to get the settled-x filter; larger
/// levels are settled by buckets (see [`Settling::for_level`]). Up to
/// level 22 (180 M boards, a 23 MB filter) it saves time (52.0 s against
/// 55.0 s on 2 threads); at level 24 (383 M boards) it is even (131.8 s
/// against 132.3 s); level 25 took 208 s with it and 219 s without. The one
/// build of level 30 with it took 1,737 s where the builder before it took
/// 1,508 s: once the filter leaves the cache its own misses add to the
/// records'. With the current builder, level 25 took 165.6 and 175.6 s
/// with it against 166.7 and 166.8 s without, so larger levels go
/// without it.
const FILTER_MAX_BOARDS: u64 = 400 << 20;

/// Flags a board word (bytes 0..11) with the value that was settled, in a
/// byte no board uses.
pub(crate) const X_FLAG: u128 = 1 << 127;

/// Settles the boards of one chunk whose pending value is `v`, and
/// everything that follows from them at this threshold.
fn settle(start: u64, len: u64, v: u8, n: usize, variant: Variant, state: &State) {
    // Boards settled at `v` whose parents have not been told yet, as words
    // with `X_FLAG` set when it was their x (else their y).
    let mut stack: Vec<u128> = Vec::new();
    // Parents to tell: rank, and the word of the parent with the flag of
    // the child's settled value.
    let mut edges: Vec<(usize, u128)> = Vec::with_capacity(BATCH * 8);
    let mut tell_all = |stack: &mut Vec<u128>| {
        while !stack.is_empty() {
            let from = stack.len().saturating_sub(BATCH);
            edges.clear();
            // Each parent's slot is asked for as soon as its rank is
            // known; for a settled y, first the word of the filter.
            for child in stack.drain(from..) {
                let flag = child & X_FLAG;
                for_each_parent_word(child & !X_FLAG, variant, |parent| {
                    let p = rank_word(parent, n) as usize;
                    match state.x_done {
                        _ if flag != 0 => prefetch(state.count(p)),
                        Some(filter) => prefetch(&filter[p / 64]),
                        None => prefetch(state.x(p)),
                    }
                    edges.push((p, parent | flag));
                });
            }
            // A settled y only matters to parents without an x.
            if state.x_done.is_some() {
                edges.retain(|&(p, parent)| {
                    let keep = parent & X_FLAG != 0 || !state.x_is_done(p);
                    if keep && parent & X_FLAG == 0 {
                        prefetch(state.x(p));
                    }
                    keep
                });
            }
            for &(p, parent) in &edges {
                let flag = parent & X_FLAG;
                if let Some(settled) = tell_parent(p, flag != 0, v, state) {
                    stack.push((parent & !X_FLAG) | settled);
                }
            }
        }
    };
    state.claim_chunk(start, len, v, n, |settled| {
        stack.push(settled);
        if stack.len() >= BATCH {
            tell_all(&mut stack);
        }
    });
    tell_all(&mut stack);
}

/// Tells parent `p` that one same-level child's x (`is_x`) or y was
/// settled at `v`. Returns `Some(X_FLAG)` if that settled the parent's x,
/// `Some(0)` if it settled its y.
#[inline]
fn tell_parent(p: usize, is_x: bool, v: u8, state: &State) -> Option<u128> {
    if is_x {
        // One more same-level child settled; the last one gives the
        // smallest x, which bounds the parent's y.
        if state.count(p).fetch_sub(1, Relaxed) == 1 {
            return state.last_child_settled(p, v);
        }
        None
    } else {
        let slot = state.x(p);
        let mut cur = slot.load(Relaxed);
        while cur & SETTLED == 0 {
            debug_assert!(cur <= v, "pending x above the threshold");
            match slot.compare_exchange_weak(cur, SETTLED | v, Relaxed, Relaxed) {
                Ok(_) => {
                    state.mark_x_done(p);
                    return Some(X_FLAG);
                }
                Err(now) => cur = now,
            }
        }
        None
    }
}

/// Re-checks the boards of level `n` that `recheck` covers against their
/// children: x must be the largest x-candidate and y the smallest
/// y-candidate. `levels` serves level `n` and every level below it.
pub fn check_level<L: LowerLevels + ?Sized>(
    n: usize,
    variant: Variant,
    levels: &L,
    bar: &ProgressBar,
    recheck: Recheck,
) -> Result<(), FixpointError> {
    let size = level_size(n);
    bar.set_length(recheck.boards(size, CHUNK));
    bar.set_position(0);
    bar.set_message(format!("level {n}: check"));
    checked_chunks(size, recheck).try_for_each(|(start, len)| {
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
pub(crate) fn fold_chunk<L: LowerLevels + ?Sized, E>(
    start: u64,
    len: u64,
    n: usize,
    variant: Variant,
    levels: &L,
    with_same: bool,
    mut f: impl FnMut(u64, &[u8; 12], &Folded) -> Result<(), E>,
) -> Result<(), E> {
    let mut boards = Boards::new(n, start, len);
    let mut batch = Vec::with_capacity(EVAL_BATCH);
    let mut folded = Vec::with_capacity(EVAL_BATCH);
    let mut r = start;
    loop {
        batch.clear();
        batch.extend(std::iter::from_fn(|| boards.next_word()).take(EVAL_BATCH));
        if batch.is_empty() {
            return Ok(());
        }
        fold_batch(&batch, n, variant, levels, with_same, &mut folded);
        for (&board, fold) in batch.iter().zip(&folded) {
            f(r, &from_word(board), fold)?;
            r += 1;
        }
    }
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

/// The payload of `len` records: the two value bytes of each, moved down in
/// place (board i's pair lands at 2i, never past its own record at 3i, so
/// nothing is overwritten before it is read); whatever is not settled is 0.
pub(super) fn compact(mut records: Scratch, len: u64) -> Scratch {
    let final_value = |b: u8| if b & SETTLED != 0 { b & VALUE } else { 0 };
    for i in 0..len as usize {
        let (x, y) = (records[RECORD * i], records[RECORD * i + 1]);
        records[2 * i] = final_value(x);
        records[2 * i + 1] = final_value(y);
    }
    records.truncate(2 * len as usize);
    records
}
