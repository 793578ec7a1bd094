//! Judging a position with the full tables: its forced value and each
//! move's (see [`super::verdict`]).

use crate::tb::board::{for_each_child, relative};
use crate::tb::probe::board_value;
use crate::tb::{TableError, Tablebase, Value};
use crate::{Move, Position, Variant};

use super::verdict::{Judged, MoveValue};

/// The tables' forced values of `pos` and of each of its legal moves. The
/// tables must be Abapa's and hold the position's level and every level
/// its moves reach (else [`TableError::Missing`]); checksums are not
/// verified here (see `oware verify`).
pub fn judge(tables: &Tablebase, pos: &Position) -> Result<Judged, TableError> {
    let board = relative(pos);
    let n = pos.seeds_on_board() as usize;
    let value = board_value(tables, &board, n)?;
    let mut edges = Vec::new();
    for_each_child(&board, Variant::Abapa, |e| edges.push(e));
    let me = pos.side_to_move();
    let mut moves = Vec::with_capacity(edges.len());
    for e in edges {
        let child = board_value(tables, &e.child, n - e.captured as usize)?;
        let (mover, opponent) = Value::candidates(Variant::Abapa, e.captured, child);
        moves.push(MoveValue {
            mv: Move::of(me, e.mv.house()),
            mover,
            opponent,
        });
    }
    moves.sort_by_key(|m| m.mv.house());
    Ok(Judged {
        position: *pos,
        gm: value.mover,
        gn: value.opponent,
        moves,
    })
}
