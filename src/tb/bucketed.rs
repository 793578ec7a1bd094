//! Settling a threshold with the parents' tells sorted into buckets.
//!
//! Telling a parent that a child was settled is a read-modify-write of its
//! record at a random place in the level. Once the records are far larger
//! than the caches, each tell costs a trip to memory, and the settling is
//! bound by how many of those trips the cores can keep in flight.
//!
//! Here the tells of a threshold are first written, in order, into
//! buckets: a bucket covers [`BUCKET_BOARDS`] consecutive ranks, whose
//! records fit in the cache. The tells are then applied bucket by bucket,
//! so that a line brought in serves every tell of the bucket that lands in
//! it, and a bucket's records lie within a few huge pages whose address
//! translations stay cached.
//!
//! A parent a tell settles is noted in a list of boards to expand: its
//! parents' tells are written to the buckets in turn, and applied with the
//! next ones. The order of the tells within a threshold does not matter:
//! they only count children down and settle parents at the threshold, each
//! once.

use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::board::for_each_parent_word;
use super::build::{CHUNK, RECORD, SETTLED, State, X_FLAG};
use super::index::rank_word;
use super::prefetch::prefetch;
use crate::Variant;

/// log2 of [`BUCKET_BOARDS`].
const BUCKET_SHIFT: u32 = 20;
/// Boards a bucket covers: their records (3 MiB) stay in the last-level
/// cache (32 MiB on the machine the builder was tuned on) while its tells
/// are applied. Buckets of 2^18 boards, in a core's second-level cache,
/// settled no faster (level 22), and make four times the lists to fill.
const BUCKET_BOARDS: u64 = 1 << BUCKET_SHIFT;
const _: () = assert!(
    BUCKET_BOARDS.is_multiple_of(CHUNK),
    "a chunk lies in one bucket"
);
const _: () = assert!(BUCKET_SHIFT < 31, "a tell's offset lies below its flag");

/// Bytes of tells held at most before they are applied, for a level of
/// `boards` boards: a tell (16 bytes) for every 128 boards, as level 30
/// was measured. Level 26 settled as fast with a tell for every 64 boards
/// as with one for every 16 (142.4 s against 144.3 s).
pub(crate) const fn tell_bytes(boards: u64) -> u64 {
    boards / 8
}

/// The bytes of a tell: the parent's board word, its offset in its bucket
/// in bits 96.. and [`X_FLAG`] for a settled x.
const TELL: u64 = 16;
/// Where a tell holds the offset.
const OFFSET_AT: u32 = 96;
/// The board's bytes in a word.
const BOARD: u128 = (1 << 96) - 1;

/// Parents a settled board is taken to have when a round of them is sized
/// to the buffers: about the average (a board has one parent for each way
/// to un-sow a move into an empty pit, so a round may overshoot a little).
const PARENTS: usize = 6;

/// The most chunks scanned in parallel between two looks at the buffers.
const MAX_GROUP: usize = 64;
/// The chunks of a threshold's first group, before the rate of its tells
/// is known.
const FIRST_GROUP: usize = 4;

/// Settled boards expanded in one parallel task.
const EXPAND_TASK: usize = 1 << 12;

/// Tells applied ahead of the one being applied: their records are asked
/// for first, so that the misses overlap.
const AHEAD: usize = 16;

/// One thread's tells, by bucket.
struct Tells {
    buckets: Vec<Vec<u128>>,
    len: usize,
}

impl Tells {
    fn new(buckets: usize, each: usize) -> Tells {
        Tells {
            buckets: (0..buckets).map(|_| Vec::with_capacity(each)).collect(),
            len: 0,
        }
    }

    /// Tells the parent `word` of rank `rank` that a child's x (`flag` is
    /// [`X_FLAG`]) or y (`flag` is 0) was settled.
    #[inline]
    fn push(&mut self, rank: u64, word: u128, flag: u128) {
        let bucket = (rank >> BUCKET_SHIFT) as usize;
        let offset = u128::from(rank & (BUCKET_BOARDS - 1));
        self.buckets[bucket].push(word | offset << OFFSET_AT | flag);
        self.len += 1;
    }

    /// Tells the parents of `board` that its x (`flag` is [`X_FLAG`]) or y
    /// was settled.
    #[inline]
    fn push_parents(&mut self, board: u128, flag: u128, n: usize, variant: Variant) {
        for_each_parent_word(board, variant, |parent| {
            self.push(rank_word(parent, n), parent, flag);
        });
    }
}

/// The buffers of a level's bucketed thresholds, made once per level.
pub(crate) struct Buckets {
    threads: Vec<Mutex<Tells>>,
    /// Boards settled by applied tells, whose parents are not told yet:
    /// board words, with [`X_FLAG`] for a settled x. One list per thread
    /// applying tells.
    settled: Vec<Mutex<Vec<u128>>>,
    /// Tells held at most before they are applied.
    capacity: usize,
    /// Buckets.
    count: usize,
    /// The room a bucket's list of one thread is given.
    each: usize,
}

impl Buckets {
    /// Buffers for a level of `size` boards.
    pub(crate) fn new(size: u64) -> Buckets {
        let count = size.div_ceil(BUCKET_BOARDS) as usize;
        let capacity = (tell_bytes(size) / TELL).max(1 << 16) as usize;
        let threads = rayon::current_num_threads().max(1);
        let each = capacity.div_ceil(count * threads);
        Buckets {
            threads: (0..threads)
                .map(|_| Mutex::new(Tells::new(count, each)))
                .collect(),
            settled: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
            capacity,
            count,
            each,
        }
    }

    /// Tells held.
    fn held(&self) -> usize {
        self.threads.iter().map(|t| lock(t).len).sum()
    }

    /// Settled boards waiting to tell their parents.
    fn waiting(&self) -> usize {
        self.settled.iter().map(|s| lock(s).len()).sum()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// This thread's slot among `slots`.
fn mine<T>(slots: &[Mutex<T>]) -> std::sync::MutexGuard<'_, T> {
    lock(&slots[rayon::current_thread_index().unwrap_or(0) % slots.len()])
}

/// Gives back the memory of a list that grew far past what it holds.
fn trim<T>(list: &mut Vec<T>, keep: usize) {
    if list.capacity() > 2 * keep.max(list.len()) {
        list.shrink_to(keep.max(list.len()));
    }
}

/// Settles every board of a level of `size` boards pending at threshold
/// `v`, and everything that follows from them at this threshold. Calls
/// `scanned` with the boards scanned, `size` in all.
pub(crate) fn settle_threshold(
    v: u8,
    n: usize,
    size: u64,
    variant: Variant,
    state: &State,
    buckets: &Buckets,
    mut scanned: impl FnMut(u64),
) {
    // Tells left over by an interrupted threshold are never applied: the
    // level is thrown away.
    if super::builder::interrupted() {
        return;
    }
    let bit = 1u64 << v;
    let pending: Vec<u64> = (0..size.div_ceil(CHUNK))
        .filter(|&c| state.pending[c as usize].load(Relaxed) & bit != 0)
        .collect();
    // Chunks are scanned a group at a time, the group sized so that its
    // tells fill about a quarter of the buffers at the rate the chunks
    // scanned so far gave.
    let (mut next, mut told, mut counted) = (0usize, 0usize, 0u64);
    while next < pending.len() {
        if super::builder::interrupted() {
            return;
        }
        let size_of_group = if next == 0 {
            FIRST_GROUP
        } else {
            let rate = told.div_ceil(next).max(1);
            (buckets.capacity / 4 / rate).clamp(1, MAX_GROUP)
        };
        let group = &pending[next..(next + size_of_group).min(pending.len())];
        next += group.len();
        let before = buckets.held();
        group.par_iter().for_each(|&c| {
            let start = c * CHUNK;
            let mut tells = mine(&buckets.threads);
            state.claim_chunk(start, CHUNK.min(size - start), v, n, |settled| {
                tells.push_parents(settled & BOARD, settled & X_FLAG, n, variant);
            });
        });
        let boards: u64 = group.iter().map(|&c| CHUNK.min(size - c * CHUNK)).sum();
        scanned(boards);
        counted += boards;
        let held = buckets.held();
        told += held - before;
        if held >= buckets.capacity / 4 * 3 {
            apply(v, state, buckets);
            expand_while(v, n, variant, state, buckets, buckets.capacity / 8);
        }
    }
    // The chunks with nothing pending count as scanned.
    scanned(size - counted);
    if super::builder::interrupted() {
        return;
    }
    apply(v, state, buckets);
    expand_while(v, n, variant, state, buckets, 0);
}

/// Writes the tells of settled boards and applies them, until at most
/// `left` settled boards wait.
fn expand_while(v: u8, n: usize, variant: Variant, state: &State, buckets: &Buckets, left: usize) {
    loop {
        let waiting = buckets.waiting();
        if waiting <= left || super::builder::interrupted() {
            return;
        }
        // As many boards as the buffers have room for, whatever their
        // parents, taken from the end of each thread's list in proportion.
        let room = (buckets.capacity / PARENTS).max(1);
        let mut lists: Vec<_> = buckets.settled.iter().map(lock).collect();
        let takes: Vec<usize> = lists
            .iter()
            .map(|list| (list.len() * room).div_ceil(waiting).min(list.len()))
            .collect();
        lists
            .iter()
            .zip(&takes)
            .flat_map(|(list, &take)| list[list.len() - take..].chunks(EXPAND_TASK))
            .collect::<Vec<_>>()
            .into_par_iter()
            .for_each(|part| {
                let mut tells = mine(&buckets.threads);
                for &entry in part {
                    tells.push_parents(entry & BOARD, entry & X_FLAG, n, variant);
                }
            });
        for (list, take) in lists.iter_mut().zip(takes) {
            let len = list.len();
            list.truncate(len - take);
            trim(list, EXPAND_TASK);
        }
        drop(lists);
        apply(v, state, buckets);
    }
}

/// Applies every held tell, bucket by bucket, empties the buffers, and notes
/// the boards the tells settled.
fn apply(v: u8, state: &State, buckets: &Buckets) {
    let mut taken: Vec<Vec<Vec<u128>>> = buckets
        .threads
        .iter()
        .map(|t| {
            let mut tells = lock(t);
            tells.len = 0;
            std::mem::take(&mut tells.buckets)
        })
        .collect();
    (0..buckets.count).into_par_iter().for_each(|b| {
        let base = (b as u64) << BUCKET_SHIFT;
        let mut found = mine(&buckets.settled);
        for lists in &taken {
            let list = &lists[b];
            for (k, &tell) in list.iter().enumerate() {
                let rank = |tell: u128| base + ((tell & !X_FLAG) >> OFFSET_AT) as u64;
                if let Some(&ahead) = list.get(k + AHEAD) {
                    prefetch(&state.records[RECORD * rank(ahead) as usize]);
                }
                if let Some(flag) = tell_now(rank(tell) as usize, tell & X_FLAG != 0, v, state) {
                    found.push((tell & BOARD) | flag);
                }
            }
        }
    });
    for (slot, mut lists) in buckets.threads.iter().zip(taken.drain(..)) {
        for list in &mut lists {
            list.clear();
            trim(list, buckets.each);
        }
        lock(slot).buckets = lists;
    }
}

/// Tells parent `p` that one same-level child's x (`is_x`) or y was settled
/// at `v`. Returns `Some(X_FLAG)` if that settled the parent's x, `Some(0)`
/// if it settled its y.
///
/// Only one thread applies the tells of a bucket, and no scan runs beside,
/// so plain loads and stores do.
#[inline]
fn tell_now(p: usize, is_x: bool, v: u8, state: &State) -> Option<u128> {
    if is_x {
        let count = state.count(p);
        let left = count.load(Relaxed);
        debug_assert!(left > 0, "a parent told of more children than it has");
        let left = left.wrapping_sub(1);
        count.store(left, Relaxed);
        if left == 0 {
            return state.last_child_settled(p, v);
        }
        None
    } else {
        let x = state.x(p);
        if x.load(Relaxed) & SETTLED == 0 {
            x.store(SETTLED | v, Relaxed);
            state.mark_x_done(p);
            return Some(X_FLAG);
        }
        None
    }
}
