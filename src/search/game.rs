//! What the searcher needs of a game: the trait [`SearchGame`], which the
//! worker, the engine, the transposition table's users and the reports
//! are generic over. Each game gets its own monomorphised searcher, with no
//! dynamic dispatch: Oware ([`Oware`](super::oware::Oware)) and Arabic
//! Mancala ([`Mancala`](crate::mancala::Mancala)).
//!
//! The trait has three parts: the rules as the search sees them (moves,
//! children, keys, the evaluation), what happens at a node (the game's end,
//! the tables, how a node's moves are ordered and how the nodes next to the
//! leaves are searched, each with a generic version a game may replace by a
//! faster one of its own), and what a score means (proven results and
//! their margins).

use std::fmt::Debug;

use super::engine::SearchError;
use super::worker::{INFINITE, Ordered, Worker};
use crate::{Move, Side};

/// A move's child and what the move did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Child<P> {
    /// The position after the move.
    pub pos: P,
    /// Seeds the move captured.
    pub captured: u8,
    /// The mover moves again (the child's score is the parent's, not its
    /// negation).
    pub another_go: bool,
}

/// What a search starts from.
#[derive(Clone, Debug)]
pub struct Root<'g, P> {
    /// The position to search.
    pub position: P,
    /// The positions the rules look back on (a repetition), oldest first,
    /// the root last.
    pub history: &'g [P],
    /// The legal moves of the root.
    pub legal: Vec<Move>,
}

/// What a proven score says by itself.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    /// The ply of the principal variation where the result is proven (the
    /// game ends there, or the tables settle it).
    pub plies: i32,
    /// The final margin in seeds for the side to move, when the score holds
    /// it: then a proven score is a bound on the game's value (the least a
    /// win gets, the most a loss does), exact once the search is solved.
    pub margin: Option<i32>,
}

/// A game the searcher can play. Every method is small and inlined into
/// the search; the hooks with a `Worker` argument have generic versions
/// (`generic_*` on [`Worker`]) that a game uses unless it has a faster way.
pub trait SearchGame: Sized + Send + Sync + 'static {
    /// A position: houses, stores and the side to move.
    type Position: Copy + Send + Sync + Debug;
    /// A game in progress, the search's root.
    type Game: Clone + Send + Sync;
    /// The settings of the rules the search reads at its nodes.
    type Rules: Copy + Send + Sync;
    /// Endgame tables.
    type Tables: Send + Sync;
    /// What a search thread keeps to probe the tables (which levels are
    /// loaded, say).
    type Probe: Copy + Send;
    /// The evaluation's settings (Oware: which evaluation; Mancala: its weights).
    type Params: Copy + Debug + PartialEq + Send + Sync;
    /// The evaluation, prepared from `Params`.
    type Eval: Copy + Send + Sync;

    /// Positions can repeat: the worker keeps the board keys of the path
    /// since the last capture, for [`SearchGame::arrival`].
    const CYCLES: bool;
    /// A move may give the mover another go.
    const ANOTHER_GO: bool;
    /// Proven scores are exact values (final margins), not only wins and
    /// losses: the search tracks which scores no evaluation went into
    /// ("solved"), keeps them in the table at any depth, and ends when the
    /// root is solved.
    const SOLVES: bool;
    /// Scores at least this large (in absolute value) are proven results;
    /// every evaluation is smaller.
    const PROVEN: i32;
    /// A placeholder position.
    const EMPTY: Self::Position;
    /// The default evaluation.
    const PARAMS: Self::Params;

    /// The root of a search of `game`; an error when the game is over.
    fn root(game: &Self::Game) -> Result<Root<'_, Self::Position>, SearchError>;
    /// The rules `game` is played by.
    fn rules(game: &Self::Game) -> Self::Rules;
    /// The side to move.
    fn side_to_move(pos: &Self::Position) -> Side;
    /// The houses (0..5 of the mover's row) it may play, a bit each.
    fn legal_houses(pos: &Self::Position, rules: &Self::Rules) -> u8;
    /// The child of a legal move.
    fn play(pos: &Self::Position, mv: Move, rules: &Self::Rules) -> Child<Self::Position>;
    /// The child of a legal move known to capture `captured` (a game that
    /// knows captures before sowing can sow quiet moves faster).
    #[inline(always)]
    fn play_known(
        pos: &Self::Position,
        mv: Move,
        rules: &Self::Rules,
        captured: u8,
    ) -> Child<Self::Position> {
        let _ = captured;
        Self::play(pos, mv, rules)
    }
    /// The key of the houses and the side to move (what a repetition
    /// compares).
    fn board_key(pos: &Self::Position) -> u64;
    /// The transposition table's key: `board_key` with the stores.
    fn full_key(pos: &Self::Position, board_key: u64) -> u64;
    /// A position's slot in the worker's 256-entry repetition filter
    /// (only with [`SearchGame::CYCLES`]).
    #[inline(always)]
    fn filter_slot(pos: &Self::Position) -> usize {
        let _ = pos;
        0
    }
    /// The evaluation of these weights.
    fn evaluator(params: &Self::Params) -> Self::Eval;
    /// The evaluation for the side to move, in centiseeds; `best_capture`
    /// is the largest capture the side to move is known to have (0 if not
    /// known).
    fn evaluate(eval: &Self::Eval, pos: &Self::Position, best_capture: u8) -> i32;
    /// A thread's probing state for a search whose root is `root`.
    fn probe_state(tables: Option<&Self::Tables>, root: &Self::Position) -> Self::Probe;

    /// What a proven score says by itself (`None` when not proven).
    fn proven(score: i32) -> Option<Proven>;
    /// The final margin (seeds, for the side to move in `game`) that the
    /// line `pv` reaches, for a proven score that does not hold its margin.
    fn line_margin(game: &Self::Game, pv: &[Move], tables: Option<&Self::Tables>) -> Option<i32>;

    /// A node's arrival after the generic bookkeeping (its PV cleared and
    /// it counted): `Err(score)` when the move that led here ended the game
    /// (`captured`: what that move captured), else where the moves since the
    /// last capture start on the path (0 without [`SearchGame::CYCLES`]).
    /// `key` is the board key when known (0: not computed), `slot` the
    /// [`SearchGame::filter_slot`].
    fn arrival(
        w: &mut Worker<'_, Self>,
        pos: &Self::Position,
        key: &mut u64,
        slot: usize,
        ply: usize,
        captured: u8,
    ) -> Result<usize, i32>;
    /// The score of a node whose side to move has no legal move.
    fn no_moves(w: &Worker<'_, Self>, pos: &Self::Position, ply: usize) -> i32;
    /// What the tables say of a node: `Err(score)` when that settles it,
    /// otherwise the bounds (lower, upper) its score keeps, the window
    /// (alpha, beta) narrowed to them.
    #[inline(always)]
    fn table_window(
        w: &mut Worker<'_, Self>,
        pos: &Self::Position,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Result<(i32, i32), i32> {
        let _ = (w, pos, ply, alpha, beta);
        Ok((-INFINITE, INFINITE))
    }
    /// Fills `out` with the legal `moves` of `pos` (but `skip`) and their
    /// ordering keys; `eager` asks for the children's keys, and their table
    /// entries to be fetched.
    #[inline(always)]
    fn candidates(
        w: &Worker<'_, Self>,
        pos: &Self::Position,
        moves: u8,
        skip: Option<u8>,
        ply: usize,
        eager: bool,
        out: &mut Ordered<Self::Position>,
    ) {
        w.generic_candidates(pos, moves, skip, ply, eager, out);
    }
    /// A leaf (depth 0, no capture search): its evaluation within what the
    /// tables say.
    #[inline(always)]
    fn leaf(
        w: &mut Worker<'_, Self>,
        pos: &Self::Position,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        w.generic_leaf(pos, ply, alpha, beta)
    }
    /// A node one ply above the leaves (not the root, no capture search)
    /// that [`SearchGame::arrival`] let through.
    #[inline(always)]
    fn frontier(
        w: &mut Worker<'_, Self>,
        pos: &Self::Position,
        since: usize,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        w.generic_frontier(pos, since, alpha, beta, ply)
    }
}
