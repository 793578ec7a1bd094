//! The proof search: a fail-soft alpha-beta on exact board values, with
//! the transposition table of bounds, enhanced transposition cutoffs,
//! futility bounds from the seeds left, and endgame tables closing lines.

use std::sync::atomic::{AtomicBool, Ordering};

use super::board::{Board, Sown};
use super::control::{CHECK_EVERY, Control};
use super::endgame::Endgame;
use super::tt::{Bounds, Table};

/// Enhanced transposition cutoffs run at boards with more seeds than the
/// tables' level plus this: probing every child is worth its cost only far
/// from the leaves.
pub const ETC_ABOVE: u8 = 6;

/// One move of a node, with what is known of its value before searching.
#[derive(Copy, Clone)]
struct Child {
    house: u8,
    sown: Sown,
    lower: i32,
    upper: i32,
    order: i32,
}

/// What a helper searcher needs: the board of the proof it helps, whose
/// moves it tries rotated by `skew` places (so that it starts on another
/// move than the main search), and the flag raised when that proof is done.
#[derive(Copy, Clone)]
struct Help<'a> {
    root: Board,
    skew: usize,
    done: &'a AtomicBool,
}

/// One thread's search over a shared table.
pub struct Searcher<'a, E: Endgame> {
    table: &'a Table,
    endgame: &'a E,
    empty_capture: bool,
    etc_above: u8,
    level: i32,
    control: &'a Control,
    /// Set when this searcher helps another's proof.
    help: Option<Help<'a>>,
    nodes: u64,
    aborted: bool,
}

impl<'a, E: Endgame> Searcher<'a, E> {
    /// A searcher over `table` (which must only ever hold boards of one
    /// capture convention), closing lines with `endgame`, sowing with
    /// `empty_capture` or not; it counts its boards into `control` and
    /// gives up soon after a stop is asked there.
    pub fn new(
        table: &'a Table,
        endgame: &'a E,
        empty_capture: bool,
        control: &'a Control,
    ) -> Searcher<'a, E> {
        Searcher {
            table,
            endgame,
            empty_capture,
            etc_above: ETC_ABOVE,
            level: i32::from(endgame.level()),
            control,
            help: None,
            nodes: 0,
            aborted: false,
        }
    }

    /// Boards searched so far.
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The search gave up (a stop was asked): the last result is
    /// meaningless.
    pub const fn aborted(&self) -> bool {
        self.aborted
    }

    /// The same searcher with enhanced transposition cutoffs from
    /// `etc_above` seeds over the tables' level (`u8::MAX`: none).
    pub const fn with_etc_above(mut self, etc_above: u8) -> Searcher<'a, E> {
        self.etc_above = etc_above;
        self
    }

    /// The same searcher as a helper of a search of `root`: it tries the
    /// moves of `root` rotated by `skew` places from the usual order, and
    /// gives up soon after `done` is raised.
    pub const fn helping(
        mut self,
        root: Board,
        skew: usize,
        done: &'a AtomicBool,
    ) -> Searcher<'a, E> {
        self.help = Some(Help { root, skew, done });
        self
    }

    /// Whether the searcher sows under the empty capture.
    pub const fn empty_capture(&self) -> bool {
        self.empty_capture
    }

    /// What the table holds for `board`.
    pub fn bounds(&self, board: Board) -> Option<Bounds> {
        self.table.probe(board)
    }

    /// The exact value of a move's outcome when it is known without search:
    /// the game is over, or the tables hold the board.
    pub fn closed(&self, sown: &Sown) -> Option<i32> {
        let d = i32::from(sown.gain);
        let board = sown.board;
        if board.is_over() {
            return Some(d);
        }
        if i32::from(sown.seeds) > self.level {
            return None;
        }
        let v = i32::from(self.endgame.value(board));
        Some(if sown.again { d + v } else { d - v })
    }

    /// The value of `board` (game not over) for the side to move, fail-soft
    /// in the window `(alpha, beta)`: a result `g <= alpha` is an upper
    /// bound, `g >= beta` a lower bound, anything between is exact.
    pub fn value(&mut self, board: Board, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(!board.is_over());
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.control.add_nodes(CHECK_EVERY);
            self.aborted |= self.control.stopped()
                || self
                    .help
                    .is_some_and(|help| help.done.load(Ordering::Relaxed));
        }
        if self.aborted {
            return 0;
        }
        // The value lies in -n..n: a window outside it is settled.
        let n = i32::from(board.seeds());
        if n <= alpha {
            return n;
        }
        if -n >= beta {
            return -n;
        }
        if n <= self.level {
            return i32::from(self.endgame.value(board));
        }
        let held = self.table.probe(board);
        let (lower, upper) = held.map_or((-n, n), |b| (i32::from(b.lower), i32::from(b.upper)));
        if lower >= beta {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        let first_node = self.nodes;
        let hint = held.and_then(|b| b.best);

        let (mut children, count) = self.children(board, n, hint);
        let children = &mut children[..count];
        // What the children's bounds settle before any search: a cutoff
        // from one child, or no child able to reach the window.
        let best_lower = children
            .iter()
            .max_by_key(|c| c.lower)
            .map(|c| (c.lower, c.house));
        let best_upper = children.iter().map(|c| c.upper).max().unwrap_or(-n);
        if let Some((g, house)) = best_lower.filter(|&(g, _)| g >= beta) {
            self.record(board, g, n, Some(house), first_node);
            return g;
        }
        if best_upper <= alpha {
            self.record(board, -n, best_upper, None, first_node);
            return best_upper;
        }
        children.sort_unstable_by_key(|c| -c.order);
        if let Some(help) = self.help
            && help.root == board
        {
            children.rotate_left(help.skew % children.len());
        }

        let (low, high) = (alpha, beta);
        let mut g = i32::MIN;
        let mut best = None;
        for child in children.iter() {
            let a = alpha.max(g);
            if child.upper <= a {
                // It cannot raise the value: its bound stands in for it.
                g = g.max(child.upper);
                continue;
            }
            let d = i32::from(child.sown.gain);
            let v = if child.lower == child.upper {
                child.lower
            } else if child.sown.again {
                d + self.value(child.sown.board, a - d, beta - d)
            } else {
                d - self.value(child.sown.board, d - beta, d - a)
            };
            if self.aborted {
                return 0;
            }
            if v > g {
                g = v;
                best = Some(child.house);
            }
            if g >= beta {
                break;
            }
        }
        if g <= low {
            self.record(board, -n, g, None, first_node);
        } else if g >= high {
            self.record(board, g, n, best, first_node);
        } else {
            self.record(board, g, g, best, first_node);
        }
        g
    }

    /// The moves of `board` (`n` seeds), each with the bounds on its value
    /// known before search, in a rough order of promise: the table's move,
    /// then another go (nearest the store first), then by seeds gained.
    fn children(&self, board: Board, n: i32, hint: Option<u8>) -> ([Child; 6], usize) {
        let mut children = [Child {
            house: 0,
            sown: Sown {
                board,
                gain: 0,
                seeds: 0,
                again: false,
            },
            lower: 0,
            upper: 0,
            order: 0,
        }; 6];
        let mut count = 0;
        let legal = board.legal_houses();
        for h in 0..6u8 {
            if legal & (1 << h) != 0 {
                let sown = board.sow(usize::from(h), n as u8, self.empty_capture);
                children[count].house = h;
                children[count].sown = sown;
                count += 1;
            }
        }
        // Far from the leaves every child's bounds are looked up: the
        // loads start together.
        let probe_children = n > self.level + i32::from(self.etc_above);
        if probe_children {
            for child in &children[..count] {
                if !child.sown.board.is_over() {
                    self.table.prefetch(child.sown.board);
                }
            }
        }
        for child in &mut children[..count] {
            let sown = child.sown;
            let d = i32::from(sown.gain);
            (child.lower, child.upper) = match self.closed(&sown) {
                Some(v) => (v, v),
                None => {
                    let m = i32::from(sown.seeds);
                    let (cl, cu) = probe_children
                        .then(|| self.table.probe(sown.board))
                        .flatten()
                        .map_or((-m, m), |b| (i32::from(b.lower), i32::from(b.upper)));
                    if sown.again {
                        (d + cl, d + cu)
                    } else {
                        (d - cu, d - cl)
                    }
                }
            };
            let h = child.house;
            child.order = if hint == Some(h) {
                1 << 20
            } else if sown.again {
                (1 << 16) + i32::from(h)
            } else {
                (d << 4) + i32::from(h)
            };
        }
        (children, count)
    }

    fn record(&self, board: Board, lower: i32, upper: i32, best: Option<u8>, first_node: u64) {
        let work = (self.nodes - first_node + 1).ilog2() as u8;
        self.table.store(
            board,
            Bounds {
                lower: lower as i8,
                upper: upper as i8,
                best,
            },
            work,
        );
    }
}
