//! Oware as the searcher sees it: [`SearchGame`] for [`Oware`], its
//! scores, and its fast paths (captures known without sowing, the nodes
//! next to the leaves in `worker/frontier.rs` and `worker/leaf.rs`, the
//! tables in `worker/probing.rs`).

use super::engine::SearchError;
use super::eval::{EvalChoice, Evaluator};
use super::game::{Child, Proven, Root, SearchGame};
use super::keys::{board_key, full_key};
use super::worker::{Ordered, OwareProbe, Worker};
use crate::tb::Tablebase;
use crate::{Game, Move, Position, Rules, Side};

/// The score of a won game at the root; a win `k` plies away scores `WIN − k`.
pub const WIN: i32 = 30_000;
/// Scores at least this large (in absolute value) are proven results.
pub const PROVEN: i32 = WIN - 1_000;

/// Oware, under any of its rule sets ([`Rules`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Oware;

/// The score of a finished game with final stores `mine` and `theirs`.
pub(super) fn result(mine: u8, theirs: u8, ply: usize) -> i32 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => WIN - ply as i32,
        std::cmp::Ordering::Less => -WIN + ply as i32,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The entry of a position in the repetition filter: a cheap hash of the
/// pits and the side to move, so that a leaf, which needs no key
/// otherwise, computes its key only when the filter hits.
#[inline]
pub(super) fn filter_slot(pos: &Position) -> usize {
    let word = pos.pits_word() ^ (u128::from(pos.side_to_move() as u8) << 96);
    let folded = (word as u64) ^ ((word >> 64) as u64).rotate_left(29);
    (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

impl SearchGame for Oware {
    type Position = Position;
    type Game = Game;
    type Rules = Rules;
    type Tables = Tablebase;
    type Probe = OwareProbe;
    type Params = EvalChoice;
    type Eval = Evaluator;

    const CYCLES: bool = true;
    const ANOTHER_GO: bool = false;
    const SOLVES: bool = false;
    const PROVEN: i32 = PROVEN;
    const EMPTY: Position = Position::EMPTY;
    const PARAMS: EvalChoice = EvalChoice::DEFAULT;

    fn root(game: &Game) -> Result<Root<'_, Position>, SearchError> {
        if let Some(outcome) = game.outcome() {
            return Err(SearchError::GameOver(outcome.reason.to_string()));
        }
        Ok(Root {
            position: *game.position(),
            history: game.positions_since_capture(),
            legal: game.legal_moves(),
        })
    }

    fn rules(game: &Game) -> Rules {
        *game.rules()
    }

    #[inline(always)]
    fn side_to_move(pos: &Position) -> Side {
        pos.side_to_move()
    }

    #[inline(always)]
    fn legal_houses(pos: &Position, rules: &Rules) -> u8 {
        pos.legal_houses(rules.variant)
    }

    #[inline(always)]
    fn play(pos: &Position, mv: Move, rules: &Rules) -> Child<Position> {
        let (pos, captured) = pos.after(mv, rules.variant);
        Child {
            pos,
            captured,
            another_go: false,
        }
    }

    #[inline(always)]
    fn play_known(pos: &Position, mv: Move, rules: &Rules, captured: u8) -> Child<Position> {
        let (pos, captured) = pos.after_capturing(mv, rules.variant, captured);
        Child {
            pos,
            captured,
            another_go: false,
        }
    }

    #[inline(always)]
    fn board_key(pos: &Position) -> u64 {
        board_key(pos)
    }

    #[inline(always)]
    fn full_key(pos: &Position, board_key: u64) -> u64 {
        full_key(pos, board_key)
    }

    #[inline(always)]
    fn filter_slot(pos: &Position) -> usize {
        filter_slot(pos)
    }

    fn evaluator(params: &EvalChoice) -> Evaluator {
        Evaluator::of(params)
    }

    #[inline(always)]
    fn evaluate(eval: &Evaluator, pos: &Position, best_capture: u8) -> i32 {
        eval.evaluate(pos, best_capture)
    }

    fn probe_state(tables: Option<&Tablebase>, root: &Position) -> OwareProbe {
        OwareProbe::new(tables, root)
    }

    fn proven(score: i32) -> Option<Proven> {
        (score.abs() >= PROVEN).then(|| Proven {
            plies: WIN - score.abs(),
            margin: None,
        })
    }

    fn line_margin(game: &Game, pv: &[Move], tables: Option<&Tablebase>) -> Option<i32> {
        super::proof::proven_margin(game, pv, tables)
    }

    #[inline(always)]
    fn arrival(
        w: &mut Worker<'_, Oware>,
        pos: &Position,
        key: &mut u64,
        slot: usize,
        ply: usize,
        captured: u8,
    ) -> Result<usize, i32> {
        w.arrival(pos, key, slot, ply, captured)
    }

    #[inline(always)]
    fn no_moves(w: &Worker<'_, Oware>, pos: &Position, ply: usize) -> i32 {
        w.no_moves(pos, ply)
    }

    #[inline(always)]
    fn table_window(
        w: &mut Worker<'_, Oware>,
        pos: &Position,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Result<(i32, i32), i32> {
        w.table_window(pos, ply, alpha, beta)
    }

    #[inline(always)]
    fn candidates(
        w: &Worker<'_, Oware>,
        pos: &Position,
        moves: u8,
        skip: Option<u8>,
        ply: usize,
        eager: bool,
        out: &mut Ordered<Position>,
    ) {
        w.candidates(pos, moves, skip, ply, eager, out);
    }

    #[inline(always)]
    fn leaf(w: &mut Worker<'_, Oware>, pos: &Position, ply: usize, alpha: i32, beta: i32) -> i32 {
        w.leaf(pos, ply, alpha, beta)
    }

    #[inline(always)]
    fn frontier(
        w: &mut Worker<'_, Oware>,
        pos: &Position,
        since: usize,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        w.enter_frontier(pos, since, alpha, beta, ply)
    }
}
