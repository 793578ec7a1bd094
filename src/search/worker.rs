//! One search thread: principal-variation alpha-beta with a transposition
//! table, table probes, repetition along the path and a capture search,
//! generic over the game ([`SearchGame`]).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use super::busy::Busy;
use super::features::Features;
use super::game::SearchGame;
use super::tt::{Bound, Entry, LocalTable, TranspositionTable};
use crate::Move;

mod frontier;
mod generic;
mod leaf;
mod ordering;
mod oware;
mod probing;
mod reductions;

use ordering::Keys;
pub use ordering::{Candidate, Ordered};
use ordering::{capture_order, key, move_order, take_best};
pub use oware::OwareProbe;

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// The deepest path searched.
pub const MAX_PLY: usize = 128;
/// The least depth at which threads tell each other which positions they
/// are searching: shallower subtrees are too cheap to be worth sharing out
/// (bench at depth 20 on 2 threads: 3.7–3.8 s from depth 3 or 4, 3.4–3.7 s
/// from 6 to 10).
const DEFER_DEPTH: i32 = 6;
/// Nodes this many plies above the leaves use their thread's small
/// [`LocalTable`] rather than the shared table (whose probes wait for
/// memory); deeper nodes use the shared one. Bench at depth 19, 1.71–1.76 s
/// against 1.86–1.90 s with every node on the shared table, and depth 25
/// from the start in 4.0 s against 6.2 s with no table at this depth.
const LOCAL_DEPTH: i32 = 2;
/// Every house: a root that may play any legal move.
pub const ALL_HOUSES: u8 = 0b11_1111;

/// Whether a score is a proven result of `G`.
pub fn is_proven<G: SearchGame>(score: i32) -> bool {
    score.abs() >= G::PROVEN
}

/// State shared by the threads of one search.
pub struct Shared<'a, G: SearchGame> {
    /// The deepest iteration any thread has completed.
    pub completed_depth: &'a AtomicU32,
    pub tt: &'a TranspositionTable,
    pub tables: Option<&'a G::Tables>,
    pub stop: &'a AtomicBool,
    /// The caller's stop flag.
    pub cancel: &'a AtomicBool,
    pub nodes: &'a AtomicU64,
    pub tb_hits: &'a AtomicU64,
    /// Positions being searched by some thread (only with several threads
    /// and [`Features::defer`]).
    pub busy: Option<&'a Busy>,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
    /// The evaluation, prepared from the engine's `params`.
    pub eval: G::Eval,
    pub features: Features,
    pub rules: G::Rules,
}

/// One thread's search state.
pub struct Worker<'a, G: SearchGame> {
    pub shared: &'a Shared<'a, G>,
    /// Board keys since the last capture: the game's history, then the path.
    path: Vec<u64>,
    /// How many keys of `path` have each top byte: a repetition is looked
    /// for only when this count is not zero.
    on_path: [u16; 256],
    since_capture: usize,
    /// The positions of the game's history on the path (before the root).
    history_len: usize,
    /// Where the moves since the last capture start on the path, for the
    /// node last arrived at ([`SearchGame::arrival`]'s answer).
    arrival_since: usize,
    /// Nodes not yet added to the shared count.
    local_nodes: u64,
    local_tb_hits: u64,
    /// Bumped whenever a score depends on the path (repetition, move cap).
    path_events: u64,
    /// Bumped whenever a score comes from the evaluation rather than the
    /// game's end or the tables (only with [`SearchGame::SOLVES`]): a score
    /// found while this stays the same is solved.
    guesses: u64,
    pub aborted: bool,
    /// Helper threads search the root moves in another order (rotated by
    /// this much after the table move) so that they explore other subtrees
    /// first and fill the shared table for the main thread.
    pub root_rotation: usize,
    /// The houses the root may play (a bit each; all six but when the
    /// caller searches only some root moves, as `analyze` does).
    pub root_moves: u8,
    /// The iteration this worker is searching; abandoned once another
    /// thread has completed it.
    pub depth: u32,
    killers: [[u8; 2]; MAX_PLY],
    history: [[i32; 6]; 2],
    pub pv: Vec<Vec<Move>>,
    /// The thread's table of the nodes two plies above the leaves.
    local: &'a LocalTable,
    /// What the game's table probes need to know (which levels are loaded).
    probe: G::Probe,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// A worker for a root whose game history since the last capture has
    /// the positions `history` (oldest first, the root last).
    pub fn new(
        shared: &'a Shared<'a, G>,
        local: &'a LocalTable,
        history: &[G::Position],
    ) -> Worker<'a, G> {
        let root = history.last().copied().unwrap_or(G::EMPTY);
        // The root goes on the path when it is searched: the path starts
        // with the positions before it, so that every second one back is
        // the same side's.
        let history = match history.split_last() {
            Some((_, before)) if G::CYCLES => before,
            _ => &[],
        };
        Worker {
            shared,
            path: history.iter().map(G::board_key).collect(),
            on_path: history.iter().fold([0; 256], |mut counts, p| {
                counts[G::filter_slot(p)] += 1;
                counts
            }),
            since_capture: 0,
            history_len: history.len(),
            arrival_since: 0,
            local_nodes: 0,
            local_tb_hits: 0,
            path_events: 0,
            guesses: 0,
            aborted: false,
            root_rotation: 0,
            root_moves: ALL_HOUSES,
            depth: 0,
            killers: [[u8::MAX; 2]; MAX_PLY],
            history: [[0; 6]; 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
            local,
            probe: G::probe_state(shared.tables, &root),
        }
    }

    /// How many scores have come from the evaluation so far (see
    /// [`SearchGame::SOLVES`]).
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// What this thread keeps to probe the tables (see
    /// [`SearchGame::Probe`]).
    #[inline(always)]
    pub fn probe_state(&self) -> &G::Probe {
        &self.probe
    }

    /// Counts a table probe (for a game's [`SearchGame::table_window`]).
    pub fn count_tb_hit(&mut self) {
        self.local_tb_hits += 1;
    }

    /// Counts a score that comes from the evaluation.
    #[inline(always)]
    fn guess(&mut self) {
        if G::SOLVES {
            self.guesses += 1;
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
        if out_of_time || out_of_nodes || self.shared.cancel.load(Relaxed) {
            self.shared.stop.store(true, Relaxed);
            self.aborted = true;
        }
    }

    /// The entry of a node `depth` plies above the leaves, from the table
    /// that nodes of that depth use.
    #[inline]
    fn tt_probe(&self, key: u64, depth: i32) -> Option<Entry> {
        if depth > LOCAL_DEPTH {
            self.shared.tt.probe(key)
        } else {
            self.local.probe(key)
        }
    }

    /// Stores the entry of a node `depth` plies above the leaves in the
    /// table that nodes of that depth use.
    #[inline]
    fn tt_store(&self, key: u64, depth: i32, entry: Entry) {
        if depth > LOCAL_DEPTH {
            self.shared.tt.store(key, entry);
        } else {
            self.local.store(key, entry);
        }
    }

    /// Makes `mv` followed by the child's PV the PV at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Scores of proven results are stored relative to the node.
    fn to_tt(score: i32, ply: usize) -> i16 {
        let s = if score >= G::PROVEN {
            score + ply as i32
        } else if score <= -G::PROVEN {
            score - ply as i32
        } else {
            score
        };
        s as i16
    }

    fn from_tt(score: i16, ply: usize) -> i32 {
        let s = i32::from(score);
        if s >= G::PROVEN {
            s - ply as i32
        } else if s <= -G::PROVEN {
            s + ply as i32
        } else {
            s
        }
    }

    /// Searches `pos` (reached by a move that captured `captured`) to
    /// `depth` plies within (alpha, beta). The PV is left in `self.pv[ply]`.
    pub fn search(
        &mut self,
        pos: &G::Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        self.search_keyed(pos, G::board_key(pos), depth, alpha, beta, ply, captured)
    }

    /// [`Worker::search`] with the board key of `pos` if it is already
    /// known (0: not computed; a leaf or a node one ply above the leaves
    /// then never computes it unless the repetition filter hits, and
    /// recomputing a real zero key is harmless). Inlined into the move
    /// loop: a node one ply above the leaves goes straight to the game's
    /// [`SearchGame::frontier`], others to one of the two copies of
    /// [`Worker::node`].
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_keyed(
        &mut self,
        pos: &G::Position,
        mut key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        captured: u8,
    ) -> i32 {
        let slot = G::filter_slot(pos);
        let since = match self.arrive::<true>(pos, &mut key, slot, ply, captured) {
            Ok(since) => since,
            Err(score) => return score,
        };
        if self.shared.features.capture_plies == 0 {
            if depth <= 0 {
                return G::leaf(self, pos, ply, alpha, beta);
            }
            if depth == 1 && ply > 0 {
                return G::frontier(self, pos, since, alpha, beta, ply);
            }
        }
        if key == 0 {
            key = G::board_key(pos);
        }
        self.interior(pos, key, slot, since, depth, alpha, beta, ply)
    }

    /// An interior node: its key goes on the path (for a game with cycles)
    /// while [`Worker::node`] searches it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn interior(
        &mut self,
        pos: &G::Position,
        key: u64,
        slot: usize,
        since: usize,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        let saved_since = self.since_capture;
        if G::CYCLES {
            self.since_capture = since;
            self.path.push(key);
            self.on_path[slot] += 1;
        }
        // Most interior nodes need none of what only the root, the capture
        // search or a node worth sharing out among threads needs: they take
        // the leaner copy of `node`.
        let general = ply == 0 || depth >= DEFER_DEPTH || self.shared.features.capture_plies > 0;
        let score = if general {
            self.node::<true>(pos, key, depth, &mut alpha, &mut beta, ply)
        } else {
            self.node::<false>(pos, key, depth, &mut alpha, &mut beta, ply)
        };
        if G::CYCLES {
            self.path.pop();
            self.on_path[slot] -= 1;
            self.since_capture = saved_since;
        }
        score
    }

    /// What every node does first: clears its PV (unless `CLEAR_PV` is
    /// false: a leaf's PV is cleared once by its parent), counts itself,
    /// checks the limits, and asks the game whether the move that led here
    /// ended it ([`SearchGame::arrival`]: `Err(score)` when that settles the
    /// node, otherwise where the moves since the last capture start on the
    /// path, counting this node). `key` is computed if the game needs it;
    /// `slot` is the position's [`SearchGame::filter_slot`].
    #[inline(always)]
    fn arrive<const CLEAR_PV: bool>(
        &mut self,
        pos: &G::Position,
        key: &mut u64,
        slot: usize,
        ply: usize,
        captured: u8,
    ) -> Result<usize, i32> {
        if CLEAR_PV {
            self.pv[ply].clear();
        }
        self.local_nodes += 1;
        if self.local_nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.aborted {
            return Err(0);
        }
        G::arrival(self, pos, key, slot, ply, captured)
    }

    /// The score of candidate `c` for the side to move here, searched to
    /// `depth` within (alpha, beta).
    /// After another go the child is the same side's: its score and window
    /// are not negated.
    #[inline]
    fn search_child(
        &mut self,
        c: &Candidate<G::Position>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if G::ANOTHER_GO && c.another_go {
            self.search_keyed(&c.child, c.key, depth, alpha, beta, ply + 1, c.captured)
        } else {
            -self.search_keyed(&c.child, c.key, depth, -beta, -alpha, ply + 1, c.captured)
        }
    }

    /// An interior node (or a capture-search node), its key on the path.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn node<const GENERAL: bool>(
        &mut self,
        pos: &G::Position,
        key: u64,
        depth: i32,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
    ) -> i32 {
        let rules = self.shared.rules;
        let mut moves = G::legal_houses(pos, &rules);
        if GENERAL && ply == 0 {
            // The engine checked that some legal move is left.
            moves &= self.root_moves;
        }
        if moves == 0 {
            return G::no_moves(self, pos, ply);
        }
        // Bounds the tables put on the result; the search result is kept
        // within them.
        let known = match G::table_window(self, pos, ply, alpha, beta) {
            Ok(known) => known,
            Err(score) => return score,
        };
        let tt_key = G::full_key(pos, key);
        // Nodes one ply above the leaves (and the capture search) do without
        // a table: they are many and cheap. Those two plies up use the
        // thread's small one, which stays in the cache.
        let entry = if depth > 1 {
            self.tt_probe(tt_key, depth)
        } else {
            None
        };
        if let Some(e) = entry
            && (!GENERAL || ply > 0)
            && i32::from(e.depth) >= depth
        {
            let s = Self::from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= *beta,
                Bound::Upper => s <= *alpha,
                Bound::None => false,
            };
            if cut {
                if !e.solved {
                    self.guess();
                }
                return s;
            }
        }
        let in_capture_search = GENERAL && depth <= 0;
        let side = G::side_to_move(pos);
        // The table's move is tried before the others are even generated.
        let tt_move = entry
            .and_then(|e| e.house)
            .map(|h| Move::of(side, h as usize))
            .filter(|m| !in_capture_search && moves & (1 << m.house()) != 0);
        let blank = Candidate::empty(G::EMPTY);
        let mut first = blank;
        if let Some(mv) = tt_move {
            let child = G::play(pos, mv, &rules);
            first = Candidate {
                mv,
                child: child.pos,
                captured: child.captured,
                another_go: child.another_go,
                ready: true,
                order: 1 << 24,
                key: G::board_key(&child.pos),
            };
            // The child probes the shared table first thing (if it uses it):
            // start loading its entry now.
            if depth - 1 > LOCAL_DEPTH {
                self.shared
                    .tt
                    .prefetch(G::full_key(&first.child, first.key));
            }
        }
        let mut ordered = Ordered {
            list: [blank; 6],
            keys: [0; 8],
        };
        // At the root, the whole order (rotated for helper threads).
        let (mut root_order, mut root_len) = ([0u8; 6], 0);
        let mut generated = false;
        if in_capture_search {
            G::candidates(self, pos, moves, None, ply, false, &mut ordered);
            generated = true;
            let best_capture = ordered.list.iter().map(|c| c.captured).max().unwrap_or(0);
            self.guess();
            let stand = G::evaluate(&self.shared.eval, pos, best_capture);
            if stand >= *beta || depth <= -self.shared.features.capture_plies || ply >= MAX_PLY - 1
            {
                return stand;
            }
            *alpha = (*alpha).max(stand);
        }
        if ply >= MAX_PLY - 1 {
            self.guess();
            return G::evaluate(&self.shared.eval, pos, 0);
        }
        let pv_node = *beta - *alpha > 1;
        let events_before = self.path_events;
        let guesses_before = self.guesses;
        let alpha_in = *alpha;
        let mut best = -INFINITE;
        let mut best_house = None;
        let mut searched = 0;
        let mut pending = !in_capture_search && tt_move.is_some();
        let mut next_root = 0;
        // Moves put off because another thread is searching their position
        // (indexes into `ordered.list`), searched after the others.
        let busy = self.shared.busy.filter(|_| GENERAL && depth >= DEFER_DEPTH);
        let mut deferred = [0u8; 6];
        let (mut n_deferred, mut next_deferred) = (0, 0);
        loop {
            // The table move first, then the others (generated only now).
            let c = match std::mem::take(&mut pending) {
                true => &first,
                false => {
                    if !generated {
                        let skip = tt_move.map(|m| m.house() as u8);
                        let eager = depth - 1 > LOCAL_DEPTH;
                        G::candidates(self, pos, moves, skip, ply, eager, &mut ordered);
                        if GENERAL && ply == 0 {
                            while let Some(index) = take_best(&mut ordered.keys) {
                                root_order[root_len] = index as u8;
                                root_len += 1;
                            }
                            root_order[..root_len]
                                .rotate_left(self.root_rotation % root_len.max(1));
                        }
                        generated = true;
                    }
                    let taken = if !GENERAL || ply > 0 {
                        take_best(&mut ordered.keys)
                    } else {
                        next_root += 1;
                        root_order[..root_len]
                            .get(next_root - 1)
                            .map(|&i| usize::from(i))
                    };
                    let first_pass = taken.is_some();
                    let index = if let Some(index) = taken {
                        index
                    } else if next_deferred < n_deferred {
                        next_deferred += 1;
                        usize::from(deferred[next_deferred - 1])
                    } else {
                        break;
                    };
                    let c = &mut ordered.list[index];
                    if !c.ready {
                        // Unsown moves are known to capture `c.captured`.
                        let child = G::play_known(pos, c.mv, &rules, c.captured);
                        (c.child, c.captured) = (child.pos, child.captured);
                        if G::ANOTHER_GO {
                            c.another_go = child.another_go;
                        }
                    }
                    // Keys are computed at this depth (`candidates` is eager).
                    if first_pass && searched > 0 && busy.is_some_and(|b| b.is_busy(c.key)) {
                        deferred[n_deferred] = index as u8;
                        n_deferred += 1;
                        continue;
                    }
                    &*c
                }
            };
            if in_capture_search && c.captured == 0 {
                continue;
            }
            let house = c.mv.house() as u8;
            let quiet = c.captured == 0 && move_order(c.order) < (1 << 18);
            if let Some(b) = busy {
                b.enter(c.key);
            }
            let mut score;
            if searched == 0 {
                score = self.search_child(c, depth - 1, *alpha, *beta, ply);
            } else {
                // Late quiet moves are first searched shallower (see `reductions`).
                let reduce = if self.shared.features.reductions
                    && depth >= 3
                    && searched >= 2
                    && quiet
                    && !in_capture_search
                {
                    reductions::reduction(depth, searched, pv_node)
                } else {
                    0
                };
                score = self.search_child(c, depth - 1 - reduce, *alpha, *alpha + 1, ply);
                if score > *alpha && (reduce > 0 || score < *beta) {
                    score = self.search_child(c, depth - 1, *alpha, *beta, ply);
                }
            }
            if let Some(b) = busy {
                b.leave(c.key);
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
                        self.update_pv(ply, c.mv);
                    }
                    if score >= *beta {
                        if c.captured == 0 {
                            self.reward_quiet(ply, side.index(), house, depth);
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
        // A cut-off is a lower bound even when the tables' cap lowers the
        // score below beta: an unsearched sibling may hold a proven result.
        let failed_high = best >= *beta;
        // A proven result stands (the tables' bounds hold for a fresh
        // history, the result for this path).
        let best = if G::proven(best).is_some() {
            best
        } else {
            best.clamp(known.0, known.1)
        };
        if depth <= 1 {
            // Frontier nodes skip the table: a probe there costs a memory
            // access and saves little.
        } else if GENERAL && ply == 0 && self.root_moves != ALL_HOUSES {
            // A root searched on some of its moves only has no value to keep.
        } else if self.path_events == events_before {
            let bound = if failed_high || best >= *beta {
                Bound::Lower
            } else if best > alpha_in {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let mut entry = Entry::new(
                Self::to_tt(best, ply),
                depth.clamp(0, 255) as u8,
                bound,
                best_house,
            );
            if G::SOLVES && self.guesses == guesses_before {
                // No evaluation went into it: it holds at every depth.
                entry.solved = true;
                entry.depth = u8::MAX;
            }
            self.tt_store(tt_key, depth, entry);
        } else {
            // A path-dependent score is never stored; the move still helps ordering.
            self.tt_store(tt_key, depth, Entry::new(0, 0, Bound::None, best_house));
        }
        best
    }
}
