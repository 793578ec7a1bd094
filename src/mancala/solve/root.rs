//! Solving a position: the value of each first move (in parallel over a
//! shared table) and of the position, or of the position alone.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::board::Board;
use super::control::Control;
use super::endgame::Endgame;
use super::mtdf::{Range, estimate, mtdf};
use super::search::{ETC_ABOVE, Searcher};
use super::tt::Table;
use crate::Move;
use crate::mancala::MancalaPosition;

/// Depth of the shallow search that gives MTD(f) its first guess.
const GUESS_DEPTH: u32 = 8;

/// The value of one first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its last seed lands in the mover's store: the mover moves again.
    pub again: bool,
    /// The final store difference for the side to move after this move
    /// under perfect play (exact unless the solve was stopped).
    pub value: Range,
}

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final store difference for the side to move (its store less the
    /// opponent's at the end) under perfect play, stores included and no
    /// 25-seed stop. Exact unless the solve was stopped.
    pub value: Range,
    /// Each legal first move's value (empty when only the position's value
    /// was asked for).
    pub moves: Vec<MoveValue>,
    /// Boards searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The solve was stopped before every value was exact.
    pub stopped: bool,
}

/// A report from a running solve.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// The first move being solved (`None`: the position itself).
    pub mv: Option<Move>,
    /// The bounds reached, as final store differences for the side to
    /// move at the root.
    pub value: Range,
    /// Boards searched by this move's solve so far.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: Duration,
}

/// A solver: a shared table, the endgame tables, the rules and a pool.
pub struct Solver<'a, E: Endgame> {
    table: &'a Table,
    endgame: &'a E,
    etc_above: u8,
    control: &'a Control,
}

impl<'a, E: Endgame> Solver<'a, E> {
    /// A solver over `table`, closing lines with `endgame`; it counts its
    /// boards into `control` and stops soon after a stop is asked there.
    /// Parallel work runs on the current rayon pool.
    /// The table and the endgame tables must serve the capture convention
    /// of the positions solved.
    pub fn new(table: &'a Table, endgame: &'a E, control: &'a Control) -> Solver<'a, E> {
        Solver {
            table,
            endgame,
            etc_above: ETC_ABOVE,
            control,
        }
    }

    /// The same solver with enhanced transposition cutoffs from
    /// `etc_above` seeds over the tables' level (`u8::MAX`: none).
    pub const fn with_etc_above(mut self, etc_above: u8) -> Solver<'a, E> {
        self.etc_above = etc_above;
        self
    }

    /// The value of `pos` (stores included, under its capture convention)
    /// and, with `each_move`, of each legal first move, reporting every
    /// MTD(f) pass to `progress`.
    pub fn solve(
        &self,
        pos: &MancalaPosition,
        each_move: bool,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Solution {
        let started = Instant::now();
        let me = pos.side_to_move();
        let lead = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        let board = Board::of(pos);
        let empty = pos.empty_capture();
        if board.is_over() {
            return Solution {
                value: Range::exact(lead + board.final_value().map_or(0, i32::from)),
                moves: vec![],
                nodes: 0,
                elapsed: started.elapsed(),
                stopped: false,
            };
        }
        if !each_move {
            let guess = estimate(board, GUESS_DEPTH, empty);
            let (range, nodes, stopped) =
                self.value_with_helpers(board, empty, guess, &|r, nodes| {
                    progress(Progress {
                        mv: None,
                        value: r.plus(lead),
                        nodes,
                        elapsed: started.elapsed(),
                    })
                });
            return Solution {
                value: range.plus(lead),
                moves: vec![],
                nodes,
                elapsed: started.elapsed(),
                stopped,
            };
        }
        let houses: Vec<usize> = (0..6).filter(|&h| board.house(h) > 0).collect();
        let moves: Vec<(MoveValue, u64, bool)> = houses
            .par_iter()
            .map(|&h| self.first_move(pos, h, started, progress))
            .collect();
        let value = moves
            .iter()
            .map(|(m, ..)| m.value)
            .reduce(Range::max)
            .expect("a position not over has a move");
        Solution {
            value,
            stopped: moves.iter().any(|&(.., stopped)| stopped),
            nodes: moves.iter().map(|&(_, nodes, _)| nodes).sum(),
            moves: moves.into_iter().map(|(m, ..)| m).collect(),
            elapsed: started.elapsed(),
        }
    }

    /// The value of `pos`'s move from house `h` (stores included), the
    /// boards it took, and whether the solve was stopped.
    fn first_move(
        &self,
        pos: &MancalaPosition,
        h: usize,
        started: Instant,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> (MoveValue, u64, bool) {
        let me = pos.side_to_move();
        let lead = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        let board = Board::of(pos);
        let empty = pos.empty_capture();
        let mv = Move::of(me, h);
        let sown = board.sow(h, board.seeds(), empty);
        let d = i32::from(sown.gain);
        // The child's value as the root mover's, after this move.
        let to_root = |r: Range| {
            if sown.again {
                r.plus(d)
            } else {
                r.from_opponent(d)
            }
        };
        let mut searcher = self.searcher(empty);
        let value = match searcher.closed(&sown) {
            Some(v) => Range::exact(v),
            None => {
                let guess = estimate(sown.board, GUESS_DEPTH, empty);
                let guess = if sown.again { guess } else { -guess };
                let range = mtdf(&mut searcher, sown.board, guess, |r, nodes| {
                    progress(Progress {
                        mv: Some(mv),
                        value: to_root(r).plus(lead),
                        nodes,
                        elapsed: started.elapsed(),
                    })
                });
                to_root(range)
            }
        };
        let again = sown.again;
        let value = value.plus(lead);
        (
            MoveValue { mv, again, value },
            searcher.nodes(),
            searcher.aborted(),
        )
    }

    /// The value of `board` by MTD(f) from `guess` on every thread of the
    /// current pool: the first thread proves it, the others help through
    /// the shared table (each starts on another move of `board`) until it
    /// is done. The range, the boards all of them searched, and whether
    /// the solve was stopped.
    fn value_with_helpers(
        &self,
        board: Board,
        empty_capture: bool,
        guess: i32,
        on_pass: &(dyn Fn(Range, u64) + Sync),
    ) -> (Range, u64, bool) {
        let done = AtomicBool::new(false);
        let helpers = rayon::current_num_threads().saturating_sub(1);
        let helped = AtomicU64::new(0);
        let mut main = self.searcher(empty_capture);
        let range = rayon::scope(|scope| {
            for skew in 1..=helpers {
                let (done, helped) = (&done, &helped);
                scope.spawn(move |_| {
                    let mut helper = self.searcher(empty_capture).helping(board, skew, done);
                    mtdf(&mut helper, board, guess, |_, _| {});
                    helped.fetch_add(helper.nodes(), Ordering::Relaxed);
                });
            }
            let range = mtdf(&mut main, board, guess, on_pass);
            done.store(true, Ordering::Relaxed);
            range
        });
        (
            range,
            main.nodes() + helped.load(Ordering::Relaxed),
            main.aborted(),
        )
    }

    fn searcher(&self, empty_capture: bool) -> Searcher<'a, E> {
        Searcher::new(self.table, self.endgame, empty_capture, self.control)
            .with_etc_above(self.etc_above)
    }
}
