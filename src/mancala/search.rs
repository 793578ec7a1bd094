//! Arabic Mancala as the searcher sees it: [`SearchGame`] for [`Mancala`].
//!
//! The game has no cycles (RULES.md §7.6), so no path is kept; a move
//! whose last seed lands in the mover's store gives another go, searched
//! without negation. A finished game scores its final store difference for
//! the side to move, so the search finds exact values: a proven score
//! holds the margin and the ply where the game ends (see [`exact_score`]),
//! and the search ends once the root is solved (no evaluation went into
//! its score). The nodes use the searcher's generic leaf, frontier and
//! move ordering (every move sown, another go first, then captures).
//!
//! Mancala's endgame tables close a line at its arrival, as a finished
//! game does, when they hold its exact value: the board's level is open
//! and no store can reach 25 from here (the tables set the 25-seed stop
//! aside, §7.6). The score is then the stores' difference plus the
//! table's value of the board, proven at that ply.

use super::eval::{MancalaParams, evaluate};
use super::game::MancalaGame;
use super::position::MancalaPosition;
use super::tables::MancalaTables;
use crate::search::engine::SearchError;
use crate::search::game::{Child, Proven, Root, SearchGame};
use crate::search::keys::fold;
use crate::search::worker::Worker;
use crate::{Move, Side};

/// Arabic Mancala (RULES.md §7).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Mancala;

/// Which levels of the tables a search probes: a bit a level, none when
/// there are no tables or they follow the other capture convention than
/// the root's.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TableLevels(u64);

impl TableLevels {
    /// The open levels of `tables` for a search from `root`.
    pub fn new(tables: Option<&MancalaTables>, root: &MancalaPosition) -> TableLevels {
        let Some(tables) = tables.filter(|t| t.empty_capture() == root.empty_capture()) else {
            return TableLevels(0);
        };
        TableLevels(
            tables
                .levels()
                .present()
                .into_iter()
                .filter(|&n| n < 64)
                .fold(0, |m, n| m | 1 << n),
        )
    }

    /// Whether level `n` is probed.
    #[inline]
    pub const fn has(self, n: u8) -> bool {
        n < 64 && self.0 & (1 << n) != 0
    }

    /// Whether no level is.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The exact final store difference of `pos` (game not over) for its side
/// to move, when `tables` hold it: its level is in `levels` and no store
/// can reach 25 (see [`MancalaPosition::stop_out_of_reach`]).
#[inline]
pub fn table_margin(
    tables: &MancalaTables,
    levels: TableLevels,
    pos: &MancalaPosition,
) -> Option<i32> {
    if !levels.has(pos.seeds_on_board()) || !pos.stop_out_of_reach() {
        return None;
    }
    let value = tables.probe(pos)?;
    let me = pos.side_to_move();
    Some(i32::from(pos.store(me)) - i32::from(pos.store(me.opponent())) + i32::from(value))
}

/// Scores at least this large (in absolute value) are proven results;
/// the evaluation stays below it.
pub const PROVEN: i32 = 10_000;
/// The proven score of one seed of margin more: more than the plies a
/// score can be counted from (twice the deepest path).
const PER_SEED: i32 = 256;

/// The score of a finished game won (`margin` > 0) or lost by `margin`
/// seeds at `ply`: a larger margin always scores more; among equal
/// margins a win prefers the shorter line, a loss the longer. A draw
/// scores 0.
pub const fn exact_score(margin: i32, ply: usize) -> i32 {
    let value = PROVEN + PER_SEED * margin.abs() - ply as i32;
    match margin.signum() {
        1 => value,
        -1 => -value,
        _ => 0,
    }
}

/// The margin and the ply of a proven score ([`exact_score`]'s inverse).
pub const fn decode(score: i32) -> Option<(i32, i32)> {
    if score.abs() < PROVEN {
        return None;
    }
    let above = score.abs() - PROVEN;
    let seeds = (above + PER_SEED - 1) / PER_SEED;
    Some((score.signum() * seeds, seeds * PER_SEED - above))
}

/// The final score of an ended game, for its side to move.
fn final_score(pos: &MancalaPosition, ply: usize) -> i32 {
    let me = pos.side_to_move();
    exact_score(
        i32::from(pos.store(me)) - i32::from(pos.store(me.opponent())),
        ply,
    )
}

/// The houses of the side to move that hold seeds, a bit each.
#[inline]
fn houses(pos: &MancalaPosition) -> u8 {
    let first = pos.side_to_move().first_pit();
    let row = &pos.pits()[first..first + 6];
    (0..6).fold(0, |m, h| m | (u8::from(row[h] > 0) << h))
}

impl SearchGame for Mancala {
    type Position = MancalaPosition;
    type Game = MancalaGame;
    type Rules = ();
    type Tables = MancalaTables;
    type Probe = TableLevels;
    type Params = MancalaParams;
    type Eval = MancalaParams;

    const CYCLES: bool = false;
    const ANOTHER_GO: bool = true;
    const SOLVES: bool = true;
    const PROVEN: i32 = PROVEN;
    const EMPTY: MancalaPosition = MancalaPosition::start(0);
    const PARAMS: MancalaParams = MancalaParams::DEFAULT;

    fn root(game: &MancalaGame) -> Result<Root<'_, MancalaPosition>, SearchError> {
        if let Some(end) = game.end() {
            return Err(SearchError::GameOver(end.to_string()));
        }
        Ok(Root {
            position: *game.position(),
            history: std::slice::from_ref(game.position()),
            legal: game.legal_moves().to_vec(),
        })
    }

    fn rules(_: &MancalaGame) {}

    #[inline]
    fn side_to_move(pos: &MancalaPosition) -> Side {
        pos.side_to_move()
    }

    /// Only asked of a position whose game goes on (an ended one stops at
    /// its arrival).
    #[inline]
    fn legal_houses(pos: &MancalaPosition, _: &()) -> u8 {
        houses(pos)
    }

    #[inline]
    fn play(pos: &MancalaPosition, mv: Move, _: &()) -> Child<MancalaPosition> {
        let (pos, sowing) = pos.after(mv.house());
        Child {
            pos,
            captured: sowing.captured,
            another_go: sowing.another_go,
        }
    }

    #[inline]
    fn board_key(pos: &MancalaPosition) -> u64 {
        // The whole position, both stores and the capture convention too:
        // one engine may search positions of different totals or rules in
        // turn (a UCI session, the web board's engines), and no two of them
        // may share an entry.
        let mut bytes = [0u8; 16];
        bytes[..12].copy_from_slice(pos.pits());
        bytes[12] = pos.side_to_move() as u8;
        bytes[13..15].copy_from_slice(&pos.stores());
        bytes[15] = u8::from(pos.empty_capture());
        fold(u128::from_le_bytes(bytes))
    }

    #[inline]
    fn full_key(_: &MancalaPosition, board_key: u64) -> u64 {
        board_key
    }

    fn evaluator(params: &MancalaParams) -> MancalaParams {
        *params
    }

    #[inline]
    fn evaluate(eval: &MancalaParams, pos: &MancalaPosition, _: u8) -> i32 {
        evaluate(pos, eval)
    }

    fn probe_state(tables: Option<&MancalaTables>, root: &MancalaPosition) -> TableLevels {
        TableLevels::new(tables, root)
    }

    fn proven(score: i32) -> Option<Proven> {
        decode(score).map(|(margin, plies)| Proven {
            plies,
            margin: Some(margin),
        })
    }

    /// Mancala's proven scores hold their margin, so this is only asked by
    /// a caller of its own: the line played out from `game`, to its end or
    /// to a position whose exact value the tables hold.
    fn line_margin(game: &MancalaGame, pv: &[Move], tables: Option<&MancalaTables>) -> Option<i32> {
        let root = game.position().side_to_move();
        let mut line = game.clone();
        for &mv in pv {
            if line.end().is_some() {
                break;
            }
            line.play(mv).ok()?;
        }
        let pos = line.position();
        let margin = if line.end().is_some() {
            let me = pos.side_to_move();
            i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()))
        } else {
            let tables = tables?;
            table_margin(tables, TableLevels::new(Some(tables), pos), pos)?
        };
        Some(if pos.side_to_move() == root {
            margin
        } else {
            -margin
        })
    }

    #[inline]
    fn arrival(
        w: &mut Worker<'_, Mancala>,
        pos: &MancalaPosition,
        _: &mut u64,
        _: usize,
        ply: usize,
        _: u8,
    ) -> Result<usize, i32> {
        if ply == 0 {
            return Ok(0);
        }
        if pos.end().is_some() {
            return Err(final_score(pos, ply));
        }
        let levels = *w.probe_state();
        if !levels.is_empty()
            && let Some(tables) = w.shared.tables
            && let Some(margin) = table_margin(tables, levels, pos)
        {
            w.count_tb_hit();
            return Err(exact_score(margin, ply));
        }
        Ok(0)
    }

    fn no_moves(_: &Worker<'_, Mancala>, pos: &MancalaPosition, ply: usize) -> i32 {
        final_score(pos, ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_scores_order_by_margin_then_plies_and_decode() {
        let mut last = i32::MIN;
        for margin in -84..=84 {
            // A win: the shorter line is better; a loss: the longer.
            let plies: Vec<usize> = if margin > 0 {
                (0..=254).rev().collect()
            } else {
                (0..=254).collect()
            };
            for ply in plies {
                let s = exact_score(margin, ply);
                if margin == 0 {
                    assert_eq!(s, 0);
                    continue;
                }
                assert!(s > last, "{margin} at {ply}");
                assert!(s.abs() >= PROVEN && s.abs() < 32_000);
                assert_eq!(decode(s), Some((margin, ply as i32)));
                last = s;
            }
        }
        assert_eq!(decode(PROVEN - 1), None);
    }
}
