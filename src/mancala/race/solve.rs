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
use crate::mancala::solve::{Bounds, Key, Table};
use crate::mancala::tables::mover_board;
use crate::mancala::{MancalaEnd, MancalaPosition, STOP_SEEDS};
use crate::tb::board::to_word;

/// Children of more seeds than this above the race tables' top level
/// have their bounds looked up in the transposition table before search
/// (nearer the tables the lookups cost more than they save).
const ETC_ABOVE: usize = 2;

/// A move of the node being searched, with its bounds known before search
/// (for the mover) and its place in the order.
#[derive(Copy, Clone, Default)]
struct Child {
    edge: Edge,
    lower: i8,
    upper: i8,
    order: u16,
}

/// What a solve needs: the rules, the tables and the shared state.
pub struct RaceSearch<'a> {
    rules: RaceRules,
    tables: Option<&'a RaceTables>,
    /// The largest level the tables close lines at.
    table_level: usize,
    table: &'a Table,
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
        table: &'a Table,
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
        if let Some(o) = self.table_outcome(word, n, a, b) {
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
        let held = self.table.probe(Key::new(word, a));
        // The outcome is monotone in the need (the opponent's moving the
        // other way, their sum fixed by the start): the mover does at
        // least as well needing a seed less, at most as well needing one
        // more.
        let (mut lower, mut upper) = held.map_or((-1, 1), |h| (h.lower, h.upper));
        if lower < upper {
            if let Some(h) = self.table.probe(Key::new(word, a + 1)) {
                lower = lower.max(h.lower);
            }
            if a > 1
                && let Some(h) = self.table.probe(Key::new(word, a - 1))
            {
                upper = upper.min(h.upper);
            }
        }
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let hint = held.and_then(|h| h.best);

        let mut children = [Child::default(); 6];
        let mut count = 0;
        let mut win_now = None;
        for_each_edge_word(word, n, self.rules.empty_capture, |e| {
            if e.stored >= a {
                win_now = win_now.or(Some(e.house));
            }
            children[count].edge = e;
            count += 1;
        });
        if let Some(house) = win_now {
            self.record(word, a, 1, 1, Some(house), 0);
            return 1;
        }
        let children = &mut children[..count];
        self.bound_children(children, a, b, hint);
        // What the children's bounds settle before any search.
        if let Some(c) = children.iter().max_by_key(|c| c.lower)
            && c.lower >= beta
        {
            self.record(word, a, c.lower, 1, Some(c.edge.house), 0);
            return c.lower;
        }
        let best_upper = children.iter().map(|c| c.upper).max().unwrap_or(-1);
        if best_upper <= alpha {
            self.record(word, a, -1, best_upper, None, 0);
            return best_upper;
        }
        children.sort_unstable_by_key(|c| std::cmp::Reverse(c.order));

        let before = nodes;
        let mut best = -1i8;
        let mut best_house = None;
        for c in children.iter() {
            let floor = alpha.max(best);
            if c.upper <= floor {
                // It cannot raise the value: its bound stands in for it.
                best = best.max(c.upper);
                continue;
            }
            let e = &c.edge;
            let left = a - e.stored;
            let v = if c.lower == c.upper {
                c.lower
            } else if e.again {
                self.value(e.child, e.seeds, left, b, floor, beta)
            } else {
                -self.value(e.child, e.seeds, b, left, -beta, -floor)
            };
            if self.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_house = Some(e.house);
            }
            if best >= beta {
                break;
            }
        }
        let spent = self.nodes.load(Ordering::Relaxed).saturating_sub(before);
        let work = (64 - spent.leading_zeros()) as u8;
        if best <= alpha0 {
            self.record(word, a, -1, best, None, work);
        } else if best >= beta0 {
            self.record(word, a, best, 1, best_house, work);
        } else {
            self.record(word, a, best, best, best_house, work);
        }
        best
    }

    /// The outcome of a board the race tables answer, counted as a hit.
    #[inline]
    fn table_outcome(&self, word: u128, n: u8, a: u8, b: u8) -> Option<Outcome> {
        let t = self.tables?;
        if usize::from(n) > self.table_level {
            return None;
        }
        let o = t.outcome(word, usize::from(n), a, b)?;
        self.table_hits.fetch_add(1, Ordering::Relaxed);
        Some(o)
    }

    /// Each child's bounds known before search (the game's end, the race
    /// tables, far from them the transposition table) and its place in the
    /// order: the table's move, then another go (nearest the store
    /// first), then the most stored.
    fn bound_children(&self, children: &mut [Child], a: u8, b: u8, hint: Option<u8>) {
        for c in children.iter_mut() {
            let e = c.edge;
            let left = a - e.stored;
            (c.lower, c.upper) = if e.seeds == 0 {
                let o = Outcome::of_difference(i32::from(b) - i32::from(a) + i32::from(e.gain));
                (o.sign(), o.sign())
            } else {
                let (ca, cb) = if e.again { (left, b) } else { (b, left) };
                let known = board_outcome(e.child, ca, cb)
                    .or_else(|| self.table_outcome(e.child, e.seeds, ca, cb))
                    .map(|o| (o.sign(), o.sign()))
                    .or_else(|| {
                        (usize::from(e.seeds) > self.table_level + ETC_ABOVE)
                            .then(|| self.table.probe(Key::new(e.child, ca)))
                            .flatten()
                            .map(|h| (h.lower, h.upper))
                    });
                match known {
                    Some((lo, hi)) if e.again => (lo, hi),
                    Some((lo, hi)) => (-hi, -lo),
                    None => (-1, 1),
                }
            };
            c.order = if hint == Some(e.house) {
                1 << 12
            } else if e.again {
                (1 << 8) + u16::from(e.house)
            } else {
                u16::from(e.stored) << 3 | u16::from(e.house)
            };
        }
    }

    fn record(&self, word: u128, a: u8, lower: i8, upper: i8, best: Option<u8>, work: u8) {
        self.table
            .store(Key::new(word, a), Bounds { lower, upper, best }, work);
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
    ///
    /// # Panics
    ///
    /// When a store of `pos` holds 25 or more (the game has stopped).
    pub fn solve(
        &self,
        pos: &MancalaPosition,
        value_only: bool,
        report: impl Fn(&RaceMove) + Sync,
    ) -> RaceSolution {
        assert!(
            pos.end() != Some(MancalaEnd::Stop),
            "{pos}: a store of 25 or more has stopped the game"
        );
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
