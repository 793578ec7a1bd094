//! Solving a position: the value of each first move (in parallel over a
//! shared table) and of the position, or of the position alone.

use std::sync::Mutex;
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
                value: Range::exact(lead + Self::sweep(board)),
                moves: vec![],
                nodes: 0,
                elapsed: started.elapsed(),
                stopped: false,
            };
        }
        if !each_move {
            let guess = estimate(board, GUESS_DEPTH, empty);
            let mut searcher = self.searcher(empty);
            let range = mtdf(&mut searcher, board, guess, |r, nodes| {
                progress(Progress {
                    mv: None,
                    value: r.plus(lead),
                    nodes,
                    elapsed: started.elapsed(),
                })
            });
            let stopped = searcher.aborted();
            return Solution {
                value: range.plus(lead),
                moves: vec![],
                nodes: searcher.nodes(),
                elapsed: started.elapsed(),
                stopped,
            };
        }
        let nodes = Mutex::new(0u64);
        let houses: Vec<usize> = (0..6).filter(|&h| board.house(h) > 0).collect();
        let moves: Vec<(MoveValue, bool)> = houses
            .par_iter()
            .map(|&h| {
                let mv = Move::of(me, h);
                let sown = board.sow(h, board.seeds(), empty);
                let d = i32::from(sown.gain);
                let mut searcher = self.searcher(empty);
                let value = match searcher.closed(&sown) {
                    Some(v) => Range::exact(v),
                    None => {
                        let guess = estimate(sown.board, GUESS_DEPTH, empty);
                        let guess = if sown.again { guess } else { -guess };
                        let to_root = |r: Range| {
                            if sown.again {
                                r.plus(d)
                            } else {
                                r.from_opponent(d)
                            }
                        };
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
                *nodes.lock().expect("no panics while counting") += searcher.nodes();
                let value = value.plus(lead);
                let again = sown.again;
                (MoveValue { mv, again, value }, searcher.aborted())
            })
            .collect();
        let value = moves
            .iter()
            .map(|(m, _)| m.value)
            .reduce(Range::max)
            .expect("a position not over has a move");
        Solution {
            value,
            stopped: moves.iter().any(|&(_, stopped)| stopped),
            moves: moves.into_iter().map(|(m, _)| m).collect(),
            nodes: nodes.into_inner().expect("no panics while counting"),
            elapsed: started.elapsed(),
        }
    }

    fn searcher(&self, empty_capture: bool) -> Searcher<'a, E> {
        Searcher::new(self.table, self.endgame, empty_capture, self.control)
            .with_etc_above(self.etc_above)
    }

    /// The value of a board whose game is over: a one-row board goes to
    /// its row's owner.
    fn sweep(board: Board) -> i32 {
        let pits = board.pits();
        let mine: i32 = pits[..6].iter().map(|&s| i32::from(s)).sum();
        let theirs: i32 = pits[6..].iter().map(|&s| i32::from(s)).sum();
        if mine == 0 || theirs == 0 {
            mine - theirs
        } else {
            0
        }
    }
}
