//! An exact solver of the race to 25 (the 25-seed stop in play): the
//! outcome of a position and of each first move.
//!
//! Alpha-beta over the three outcomes (loss, draw, win for the side to
//! move), fail-soft, with a lock-free transposition table of bounds keyed
//! by the board and the mover's need (the opponent's follows from the
//! seeds on the board, the start being fixed). A line closes when a move
//! stores what the mover needs (the stop, §7.5 c), when the game ends by
//! (a) or (b) (the stores compared), or at a board within the race tables'
//! levels. Another go keeps the side to move. The first moves are solved
//! in parallel, sharing the table; each is proved in two null-window
//! passes ("draw or better?", then "win?"), so a stopped solve still gives
//! the bounds proved.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::entry::Outcome;
use super::rules::RaceRules;
use super::step::board_outcome;
use super::tables::RaceTables;
use crate::mancala::edges::{Edge, for_each_edge_word};
use crate::mancala::tables::mover_board;
use crate::mancala::{MancalaPosition, STOP_SEEDS};
use crate::tb::board::to_word;

/// Entries a bucket holds (one cache line).
const WAYS: usize = 4;

#[repr(align(64))]
struct Bucket([AtomicU64; 2 * WAYS]);

/// Bounds on race outcomes, shared between threads without locks (an
/// entry's first word is stored XOR-ed with its second, so a torn read
/// fails the key check).
pub struct RaceTable {
    buckets: Vec<Bucket>,
    mask: usize,
}

impl RaceTable {
    /// A table of at most `mib` MiB (a power of two of buckets).
    pub fn new(mib: usize) -> RaceTable {
        let fit = ((mib.max(1) << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = 1usize << fit.ilog2();
        RaceTable {
            buckets: (0..buckets)
                .map(|_| Bucket(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            mask: buckets - 1,
        }
    }

    fn key(word: u128, a: u8) -> (u64, u64) {
        (
            word as u64,
            ((word >> 64) as u64 & 0xffff_ffff) << 32 | u64::from(a) << 24,
        )
    }

    fn bucket(&self, (low, high): (u64, u64)) -> &Bucket {
        let h =
            (low ^ high.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        &self.buckets[(h >> 20) as usize & self.mask]
    }

    /// The bounds (lower, upper) on the mover's outcome stored for `word`
    /// with need `a`.
    pub fn probe(&self, word: u128, a: u8) -> Option<(i8, i8)> {
        let k = RaceTable::key(word, a);
        let bucket = self.bucket(k);
        (0..WAYS).find_map(|w| {
            let data = bucket.0[2 * w + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * w].load(Ordering::Relaxed);
            (check ^ data == k.0 && data & !0xff_ffff == k.1)
                .then_some(((data >> 8) as u8 as i8, data as u8 as i8))
        })
    }

    /// Adds bounds proved for `word` with need `a`, found with `work` (log
    /// of the nodes) of search; a new entry replaces the cheapest.
    pub fn store(&self, word: u128, a: u8, lower: i8, upper: i8, work: u8) {
        let k = RaceTable::key(word, a);
        let bucket = self.bucket(k);
        let (mut victim, mut cheapest) = (0, u8::MAX);
        for w in 0..WAYS {
            let data = bucket.0[2 * w + 1].load(Ordering::Relaxed);
            let check = bucket.0[2 * w].load(Ordering::Relaxed);
            let held_work = (data >> 16) as u8;
            if check ^ data == k.0 && data & !0xff_ffff == k.1 {
                let lo = lower.max((data >> 8) as u8 as i8);
                let hi = upper.min(data as u8 as i8);
                RaceTable::write(bucket, w, k, lo, hi, work.max(held_work));
                return;
            }
            let cost = if data == 0 {
                0
            } else {
                held_work.saturating_add(1)
            };
            if cost < cheapest {
                cheapest = cost;
                victim = w;
            }
        }
        RaceTable::write(bucket, victim, k, lower, upper, work);
    }

    fn write(bucket: &Bucket, w: usize, k: (u64, u64), lower: i8, upper: i8, work: u8) {
        let data =
            k.1 | u64::from(work) << 16 | u64::from(lower as u8) << 8 | u64::from(upper as u8);
        bucket.0[2 * w + 1].store(data, Ordering::Relaxed);
        bucket.0[2 * w].store(k.0 ^ data, Ordering::Relaxed);
    }
}

/// What a solve needs: the rules, the tables and the shared state.
pub struct RaceSearch<'a> {
    rules: RaceRules,
    tables: Option<&'a RaceTables>,
    /// The largest level the tables close lines at.
    table_level: usize,
    table: &'a RaceTable,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: AtomicU64,
    table_hits: AtomicU64,
}

/// A first move's outcome, as far as proved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RaceMove {
    /// The house sown, 0..5 from the mover's first.
    pub house: u8,
    /// The move gives another go.
    pub again: bool,
    /// The outcome is at least this.
    pub lower: Outcome,
    /// The outcome is at most this.
    pub upper: Outcome,
}

/// A solved (or stopped) position.
#[derive(Clone, Debug)]
pub struct RaceSolution {
    /// Bounds on the position's outcome for its side to move.
    pub lower: Outcome,
    /// See `lower`.
    pub upper: Outcome,
    /// Each first move (empty with `value_only`).
    pub moves: Vec<RaceMove>,
    /// Nodes searched.
    pub nodes: u64,
    /// Lines closed by the race tables.
    pub table_hits: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The search was stopped (time or interruption) before the end.
    pub stopped: bool,
}

impl<'a> RaceSearch<'a> {
    /// A search of `rules`' race with `tables` (used up to `table_level`).
    pub fn new(
        rules: RaceRules,
        tables: Option<&'a RaceTables>,
        table_level: usize,
        table: &'a RaceTable,
        stop: &'a AtomicBool,
        deadline: Option<Instant>,
    ) -> RaceSearch<'a> {
        let table_level = match tables.and_then(|t| t.complete_up_to()) {
            Some(top) => top.min(table_level),
            None => 0,
        };
        RaceSearch {
            rules,
            tables: tables.filter(|_| table_level > 0),
            table_level,
            table,
            stop,
            deadline,
            nodes: AtomicU64::new(0),
            table_hits: AtomicU64::new(0),
        }
    }

    /// The largest level whose boards close at the tables (0: none).
    pub fn table_level(&self) -> usize {
        self.table_level
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The mover's outcome (as −1, 0, 1) of board `word` of `n` seeds, the
    /// mover needing `a` and the opponent `b`, within the window
    /// (alpha, beta), fail-soft. Meaningless once stopped.
    pub fn value(&self, word: u128, n: u8, a: u8, b: u8, mut alpha: i8, mut beta: i8) -> i8 {
        if let Some(o) = board_outcome(word, a, b) {
            return o.sign();
        }
        if let Some(t) = self.tables
            && usize::from(n) <= self.table_level
            && let Some(o) = t.outcome(word, usize::from(n), a, b)
        {
            self.table_hits.fetch_add(1, Ordering::Relaxed);
            return o.sign();
        }
        let nodes = self.nodes.fetch_add(1, Ordering::Relaxed);
        if nodes & 0xfffff == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stop.store(true, Ordering::Relaxed);
        }
        if self.stopped() {
            return 0;
        }
        let (alpha0, beta0) = (alpha, beta);
        if let Some((lo, hi)) = self.table.probe(word, a) {
            if lo >= beta || lo == hi {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
        }
        let mut edges = [Edge::default(); 6];
        let mut count = 0;
        let mut win_now = false;
        for_each_edge_word(word, n, self.rules.empty_capture, |e| {
            win_now |= e.stored >= a;
            edges[count] = e;
            count += 1;
        });
        if win_now {
            self.table.store(word, a, 1, 1, 0);
            return 1;
        }
        // Another go first, then the most stored.
        let edges = &mut edges[..count];
        edges.sort_unstable_by_key(|e| (!e.again, u8::MAX - e.stored));
        let before = nodes;
        let mut best = -1i8;
        for e in edges.iter() {
            let left = a - e.stored;
            let v = if e.seeds == 0 {
                Outcome::of_difference(i32::from(b) - i32::from(a) + i32::from(e.gain)).sign()
            } else if e.again {
                self.value(e.child, e.seeds, left, b, alpha.max(best), beta)
            } else {
                -self.value(e.child, e.seeds, b, left, -beta, -alpha.max(best))
            };
            if self.stopped() {
                return 0;
            }
            best = best.max(v);
            if best >= beta {
                break;
            }
        }
        let spent = self.nodes.load(Ordering::Relaxed).saturating_sub(before);
        let work = (64 - spent.leading_zeros()) as u8;
        let (lo, hi) = if best <= alpha0 {
            (-1, best)
        } else if best >= beta0 {
            (best, 1)
        } else {
            (best, best)
        };
        self.table.store(word, a, lo, hi, work);
        best
    }

    /// Bounds on the outcome of a board proved by two null-window passes
    /// (the second only if the first leaves it open).
    fn bounds(&self, word: u128, n: u8, a: u8, b: u8) -> (i8, i8) {
        let mut lo = -1;
        let mut hi = 1;
        // Draw or better?
        let v = self.value(word, n, a, b, -1, 0);
        if self.stopped() {
            return (lo, hi);
        }
        if v >= 0 {
            lo = v;
        } else {
            hi = v;
        }
        if lo == 0 {
            // Win?
            let v = self.value(word, n, a, b, 0, 1);
            if self.stopped() {
                return (lo, hi);
            }
            if v >= 1 {
                lo = 1;
            } else {
                hi = 0;
            }
        }
        (lo, hi)
    }

    /// Solves `pos` (not over): its outcome and, unless `value_only`, each
    /// first move's, the moves in parallel; `report` is called with each
    /// move as it is proved.
    pub fn solve(
        &self,
        pos: &MancalaPosition,
        value_only: bool,
        report: impl Fn(&RaceMove) + Sync,
    ) -> RaceSolution {
        let started = Instant::now();
        let word = to_word(&mover_board(pos));
        let n = pos.seeds_on_board();
        let me = pos.side_to_move();
        let a = STOP_SEEDS - pos.store(me);
        let b = STOP_SEEDS - pos.store(me.opponent());
        let (lower, upper, moves) = if value_only {
            let (lo, hi) = self.bounds(word, n, a, b);
            (lo, hi, Vec::new())
        } else {
            let mut edges = Vec::new();
            for_each_edge_word(word, n, self.rules.empty_capture, |e| edges.push(e));
            let moves: Vec<RaceMove> = edges
                .par_iter()
                .map(|e| {
                    let (lo, hi) = if e.stored >= a {
                        (1, 1)
                    } else if e.seeds == 0 {
                        let o =
                            Outcome::of_difference(i32::from(b) - i32::from(a) + i32::from(e.gain))
                                .sign();
                        (o, o)
                    } else if e.again {
                        self.bounds(e.child, e.seeds, a - e.stored, b)
                    } else {
                        let (lo, hi) = self.bounds(e.child, e.seeds, b, a - e.stored);
                        (-hi, -lo)
                    };
                    let m = RaceMove {
                        house: e.house,
                        again: e.again,
                        lower: Outcome::from_sign(lo),
                        upper: Outcome::from_sign(hi),
                    };
                    report(&m);
                    m
                })
                .collect();
            let lo = moves.iter().map(|m| m.lower.sign()).max().unwrap_or(-1);
            let hi = moves.iter().map(|m| m.upper.sign()).max().unwrap_or(-1);
            (lo, hi, moves)
        };
        RaceSolution {
            lower: Outcome::from_sign(lower),
            upper: Outcome::from_sign(upper),
            moves,
            nodes: self.nodes.load(Ordering::Relaxed),
            table_hits: self.table_hits.load(Ordering::Relaxed),
            elapsed: started.elapsed(),
            stopped: self.stopped(),
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}
