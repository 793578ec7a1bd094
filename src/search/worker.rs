//! One search thread: principal-variation alpha-beta with a transposition
//! table, table probes, repetition along the path and a capture search.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use super::eval::{EvalParams, evaluate};
use super::keys::{board_key, full_key};
use super::tt::{Bound, Entry, TranspositionTable};
use crate::rules::WINNING_SEEDS;
use crate::tb::Tablebase;
use crate::tb::board::relative;
use crate::tb::index::rank;
use crate::{EndReason, Move, MoveList, Position, Rules, Variant};

/// The score of a won game at the root; a win `k` plies away scores `WIN − k`.
pub const WIN: i32 = 30_000;
/// Scores at least this large (in absolute value) are proven results.
pub const PROVEN: i32 = WIN - 1_000;
/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// The deepest path searched.
pub const MAX_PLY: usize = 128;
/// Search techniques that can be switched off, to measure what each one
/// is worth (`oware match`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Search late quiet moves one ply shallower first.
    pub reductions: bool,
    /// Plies of captures searched beyond the nominal depth (0: none).
    pub capture_plies: i32,
}

impl Features {
    /// What the engine uses: reductions won 57.6 % against the engine
    /// without them at equal nodes; a four-ply capture search scored 48.6 %
    /// (no gain), so it is off (`oware match`, README).
    pub const DEFAULT: Features = Features {
        reductions: true,
        capture_plies: 0,
    };
}

impl Default for Features {
    fn default() -> Features {
        Features::DEFAULT
    }
}

/// Whether a score is a proven win or loss.
pub fn is_proven(score: i32) -> bool {
    score.abs() >= PROVEN
}

/// State shared by the threads of one search.
pub struct Shared<'a> {
    /// The deepest iteration any thread has completed.
    pub completed_depth: &'a AtomicU32,
    pub tt: &'a TranspositionTable,
    pub tables: Option<&'a Tablebase>,
    pub stop: &'a AtomicBool,
    /// The caller's stop flag.
    pub cancel: &'a AtomicBool,
    pub nodes: &'a AtomicU64,
    pub tb_hits: &'a AtomicU64,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    pub params: EvalParams,
    pub features: Features,
    pub rules: Rules,
}

/// One thread's search state.
pub struct Worker<'a> {
    pub shared: &'a Shared<'a>,
    /// Board keys since the last capture: the game's history, then the path.
    path: Vec<u64>,
    since_capture: usize,
    /// Nodes not yet added to the shared count.
    local_nodes: u64,
    local_tb_hits: u64,
    /// Bumped whenever a score depends on the path (repetition, move cap).
    path_events: u64,
    pub aborted: bool,
    /// Helper threads search the root moves in another order (rotated by
    /// this much after the table move) so that they explore other subtrees
    /// first and fill the shared table for the main thread.
    pub root_rotation: usize,
    /// The iteration this worker is searching; abandoned once another
    /// thread has completed it.
    pub depth: u32,
    killers: [[u8; 2]; MAX_PLY],
    history: [[i32; 6]; 2],
    pub pv: Vec<Vec<Move>>,
    /// The largest level whose table is loaded (levels are probed only when
    /// present).
    tb_levels: [bool; 49],
}

/// A legal move with what the search needs to order it.
#[derive(Copy, Clone)]
struct Candidate {
    mv: Move,
    child: Position,
    captured: u8,
    order: i32,
    /// The child's board key.
    key: u64,
}

impl Candidate {
    const EMPTY: Candidate = Candidate {
        mv: Move::new(0),
        child: Position::START,
        captured: 0,
        order: 0,
        key: 0,
    };
}

impl<'a> Worker<'a> {
    /// A worker for a root whose game history since the last capture has
    /// the positions `history` (oldest first, the root last).
    pub fn new(shared: &'a Shared<'a>, history: &[Position]) -> Worker<'a> {
        let mut tb_levels = [false; 49];
        if let Some(tb) = shared.tables {
            for (level, present) in tb_levels.iter_mut().enumerate() {
                *present = tb.has_level(level);
            }
        }
        Worker {
            shared,
            path: history.iter().map(board_key).collect(),
            since_capture: 0,
            local_nodes: 0,
            local_tb_hits: 0,
            path_events: 0,
            aborted: false,
            root_rotation: 0,
            depth: 0,
            killers: [[u8::MAX; 2]; MAX_PLY],
            history: [[0; 6]; 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
            tb_levels,
        }
    }

    /// Adds this worker's counts to the shared ones.
    pub fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.local_nodes, Relaxed);
        self.shared.tb_hits.fetch_add(self.local_tb_hits, Relaxed);
        self.local_nodes = 0;
        self.local_tb_hits = 0;
    }

    fn check_limits(&mut self) {
        self.flush();
        if self.shared.stop.load(Relaxed) || self.shared.completed_depth.load(Relaxed) >= self.depth
        {
            self.aborted = true;
            return;
        }
        let out_of_time = self
            .shared
            .hard_deadline
            .is_some_and(|d| Instant::now() >= d);
        let out_of_nodes = self
            .shared
            .node_limit
            .is_some_and(|n| self.shared.nodes.load(Relaxed) >= n);
        if out_of_time || out_of_nodes {
            self.shared.stop.store(true, Relaxed);
            self.aborted = true;
        }
    }

    /// The score of a finished game with final stores `mine` and `theirs`.
    fn result(mine: u8, theirs: u8, ply: usize) -> i32 {
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => WIN - ply as i32,
            std::cmp::Ordering::Less => -WIN + ply as i32,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The score of a game that ends here for `reason`, after the sweep the
    /// rules make.
    fn ended(&self, pos: &Position, reason: EndReason, ply: usize) -> i32 {
        let mut last = *pos;
        last.end_game(reason, self.shared.rules.variant);
        let me = last.side_to_move();
        Worker::result(last.store(me), last.store(me.opponent()), ply)
    }

    /// What the tables say: `Ok(score)` for a settled result, or the bounds
    /// (lower, upper) on the final difference in centiseeds.
    fn probe(&mut self, pos: &Position, ply: usize) -> Option<Result<i32, (i32, i32)>> {
        let n = pos.seeds_on_board() as usize;
        if !self.tb_levels[n] {
            return None;
        }
        let board = relative(pos);
        if !board[6..].contains(&0) {
            return None;
        }
        let tables = self.shared.tables?;
        let v = tables.value_at(n, rank(&board, n));
        self.local_tb_hits += 1;
        let me = pos.side_to_move();
        let (c, c2) = (pos.store(me), pos.store(me.opponent()));
        if self.shared.rules.variant == Variant::Awari {
            let diff = i32::from(c) - i32::from(c2) + i32::from(v.score());
            return Some(Ok(Worker::result((diff > 0) as u8, (diff < 0) as u8, ply)));
        }
        let (gm, gn) = (c + v.mover, c2 + v.opponent);
        if gm >= WINNING_SEEDS {
            return Some(Ok(WIN - ply as i32));
        }
        if gn >= WINNING_SEEDS {
            return Some(Ok(-WIN + ply as i32));
        }
        if v.is_exact(n as u8) {
            return Some(Ok(Worker::result(gm, gn, ply)));
        }
        let total = i32::from(c) + i32::from(c2) + n as i32;
        let lower = (2 * i32::from(gm) - total) * 100;
        let upper = (2 * (i32::from(c) + n as i32 - i32::from(v.opponent)) - total) * 100;
        Some(Err((lower, upper)))
    }

    /// Fills `list` with the legal `moves` of `pos` (but `skip`) and their
    /// children, best-looking first; returns how many.
    fn candidates(
        &self,
        pos: &Position,
        moves: &MoveList,
        skip: Option<u8>,
        ply: usize,
        prefetch: bool,
        list: &mut [Candidate; 6],
    ) -> usize {
        let variant = self.shared.rules.variant;
        let side = pos.side_to_move().index();
        let mut len = 0;
        for &mv in moves.iter() {
            let house = mv.house() as u8;
            if Some(house) == skip {
                continue;
            }
            let (child, captured) = pos.after(mv, variant);
            // Children one ply above the leaves need their key only for the
            // repetition check, so it is computed here only where the table
            // will be probed (and prefetched).
            let key = if prefetch {
                let key = board_key(&child);
                self.shared.tt.prefetch(full_key(&child, key));
                key
            } else {
                0
            };
            let order = if captured > 0 {
                (1 << 20) + i32::from(captured)
            } else if self.killers[ply][0] == house {
                1 << 19
            } else if self.killers[ply][1] == house {
                1 << 18
            } else {
                self.history[side][house as usize].min((1 << 18) - 1)
            };
            list[len] = Candidate {
                mv,
                child,
                captured,
                order,
                key,
            };
            len += 1;
        }
        // Insertion sort: at most six moves.
        for i in 1..len {
            let mut j = i;
            while j > 0 && list[j - 1].order < list[j].order {
                list.swap(j - 1, j);
                j -= 1;
            }
        }
        len
    }

    /// Scores of proven results are stored relative to the node.
    fn to_tt(score: i32, ply: usize) -> i16 {
        let s = if score >= PROVEN {
            score + ply as i32
        } else if score <= -PROVEN {
            score - ply as i32
        } else {
            score
        };
        s as i16
    }

    fn from_tt(score: i16, ply: usize) -> i32 {
        let s = i32::from(score);
        if s >= PROVEN {
            s - ply as i32
        } else if s <= -PROVEN {
            s + ply as i32
        } else {
            s
        }
    }

    /// Searches `pos` (reached by a move that captured `captured`) to
    /// `depth` plies within (alpha, beta). The PV is left in `self.pv[ply]`.
    pub fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        self.search_keyed(pos, board_key(pos), depth, alpha, beta, ply, captured)
    }

    /// [`Worker::search`] with the board key of `pos` already known.
    #[allow(clippy::too_many_arguments)]
    fn search_keyed(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        self.pv[ply].clear();
        self.local_nodes += 1;
        if self.local_nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted {
            return 0;
        }
        let variant = self.shared.rules.variant;
        // The game may have ended with the move that led here.
        if ply > 0 {
            if pos.majority_reached() {
                return self.ended(pos, EndReason::Majority, ply);
            }
            if captured == 0 && self.shared.rules.repetition {
                let repeated = self.path[self.since_capture..]
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .any(|&k| k == key);
                if repeated {
                    self.path_events += 1;
                    return self.ended(pos, EndReason::Repetition, ply);
                }
            }
        }
        let saved_since = self.since_capture;
        if captured > 0 {
            self.since_capture = self.path.len();
        }
        if let Some(k) = self.shared.rules.no_capture_limit
            && self.path.len() - self.since_capture >= k as usize
        {
            self.since_capture = saved_since;
            self.path_events += 1;
            return self.ended(pos, EndReason::MoveLimit, ply);
        }
        self.path.push(key);
        let score = self.node(pos, key, depth, &mut alpha, &mut beta, ply, variant);
        self.path.pop();
        self.since_capture = saved_since;
        score
    }

    /// The score of candidate `c` for the side to move here, searched to
    /// `depth` within (alpha, beta).
    #[inline]
    fn search_child(
        &mut self,
        c: &Candidate,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        // A zero key was not computed (see `candidates`); recomputing a real
        // zero key is harmless.
        let key = if c.key == 0 {
            board_key(&c.child)
        } else {
            c.key
        };
        -self.search_keyed(&c.child, key, depth, -beta, -alpha, ply + 1, c.captured)
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &Position,
        key: u64,
        depth: i32,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
        variant: Variant,
    ) -> i32 {
        let moves = pos.legal_moves(variant);
        if moves.is_empty() {
            // No seeds: the opponent takes the rest; cannot feed: the mover does.
            let reason = if pos.row_seeds(pos.side_to_move()) == 0 {
                EndReason::NoSeeds
            } else {
                EndReason::CannotFeed
            };
            return self.ended(pos, reason, ply);
        }
        // Bounds the tables put on the result; the search result is kept
        // within them.
        let mut known = (-INFINITE, INFINITE);
        if ply > 0 {
            match self.probe(pos, ply) {
                Some(Ok(score)) => return score,
                Some(Err((lower, upper))) => {
                    if lower >= *beta {
                        return lower;
                    }
                    if upper <= *alpha {
                        return upper;
                    }
                    *alpha = (*alpha).max(lower);
                    *beta = (*beta).min(upper);
                    known = (lower, upper);
                }
                None => {}
            }
        }
        if depth <= 0 && self.shared.features.capture_plies == 0 {
            // A leaf: the evaluation needs only the best capture available.
            let best_capture = moves
                .iter()
                .map(|&mv| pos.after(mv, variant).1)
                .max()
                .unwrap_or(0);
            return evaluate(pos, best_capture, &self.shared.params).clamp(known.0, known.1);
        }
        let tt_key = full_key(pos, key);
        // The capture search does without the table: its nodes are many and
        // cheap, and a probe costs a memory access.
        let entry = if depth > 0 {
            self.shared.tt.probe(tt_key)
        } else {
            None
        };
        if let Some(e) = entry
            && ply > 0
            && i32::from(e.depth) >= depth
        {
            let s = Worker::from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= *beta,
                Bound::Upper => s <= *alpha,
                Bound::None => false,
            };
            if cut {
                return s;
            }
        }
        let in_capture_search = depth <= 0;
        let side = pos.side_to_move();
        // The table's move is tried before the others are even generated.
        let tt_move = entry
            .and_then(|e| e.house)
            .map(|h| Move::of(side, h as usize))
            .filter(|m| !in_capture_search && moves.contains(m));
        let first = tt_move.map(|mv| {
            let (child, captured) = pos.after(mv, variant);
            let key = board_key(&child);
            Candidate {
                mv,
                child,
                captured,
                order: 1 << 24,
                key,
            }
        });
        let mut list = [Candidate::EMPTY; 6];
        let mut len = 0;
        let mut generated = false;
        if in_capture_search {
            len = self.candidates(pos, &moves, None, ply, false, &mut list);
            generated = true;
            let best_capture = list[..len].iter().map(|c| c.captured).max().unwrap_or(0);
            let stand = evaluate(pos, best_capture, &self.shared.params);
            if stand >= *beta || depth <= -self.shared.features.capture_plies || ply >= MAX_PLY - 1
            {
                return stand;
            }
            *alpha = (*alpha).max(stand);
        }
        if ply >= MAX_PLY - 1 {
            return evaluate(pos, 0, &self.shared.params);
        }
        let pv_node = *beta - *alpha > 1;
        let events_before = self.path_events;
        let alpha_in = *alpha;
        let mut best = -INFINITE;
        let mut best_house = None;
        let mut searched = 0;
        let mut pending = if in_capture_search { None } else { first };
        let mut next = 0;
        loop {
            // The table move first, then the others (generated only now).
            let c = match pending.take() {
                Some(c) => c,
                None => {
                    if !generated {
                        let skip = tt_move.map(|m| m.house() as u8);
                        len = self.candidates(pos, &moves, skip, ply, depth > 1, &mut list);
                        if ply == 0 && len > 1 {
                            list[..len].rotate_left(self.root_rotation % len);
                        }
                        generated = true;
                    }
                    if next >= len {
                        break;
                    }
                    next += 1;
                    list[next - 1]
                }
            };
            if in_capture_search && c.captured == 0 {
                continue;
            }
            let house = c.mv.house() as u8;
            let quiet = c.captured == 0 && c.order < (1 << 18);
            let mut score;
            if searched == 0 {
                score = self.search_child(&c, depth - 1, *alpha, *beta, ply);
            } else {
                // Late quiet moves are first searched shallower.
                let reduce = i32::from(
                    self.shared.features.reductions
                        && depth >= 3
                        && searched >= 2
                        && quiet
                        && !in_capture_search,
                );
                score = self.search_child(&c, depth - 1 - reduce, *alpha, *alpha + 1, ply);
                if score > *alpha && (reduce > 0 || score < *beta) {
                    score = self.search_child(&c, depth - 1, *alpha, *beta, ply);
                }
            }
            searched += 1;
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_house = Some(house);
                if score > *alpha {
                    *alpha = score;
                    if pv_node {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(c.mv);
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if score >= *beta {
                        if c.captured == 0 {
                            let k = &mut self.killers[ply];
                            if k[0] != house {
                                k[1] = k[0];
                                k[0] = house;
                            }
                            self.history[side.index()][house as usize] +=
                                depth.max(1) * depth.max(1);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Capture search with no capture: the stand-pat score.
            return (*alpha).clamp(known.0, known.1);
        }
        let best = best.clamp(known.0, known.1);
        if self.path_events == events_before && !in_capture_search {
            let bound = if best >= *beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                tt_key,
                Entry::new(
                    Worker::to_tt(best, ply),
                    depth.clamp(0, 255) as u8,
                    bound,
                    best_house,
                ),
            );
        } else if !in_capture_search {
            // A path-dependent score is never stored; the move still helps ordering.
            self.shared
                .tt
                .store(tt_key, Entry::new(0, 0, Bound::None, best_house));
        }
        best
    }
}
