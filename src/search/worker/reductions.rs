//! How much shallower a late quiet move is searched first.
//!
//! A quiet move tried after the first two of a node is searched with a
//! null window `r` plies shallower, and again at full depth only if it
//! beats alpha. `r` grows with the node's depth and with the move's place
//! in the order: `⌊0.5 + ln(depth) · ln(searched + 1) / 1.75⌋`, a ply less at
//! nodes of the principal variation, at least one ply and never so much
//! that the reduced search has no ply left. (One ply everywhere, the rule
//! before, reached depth 26 from the start in three times the nodes.)

use std::sync::LazyLock;

/// The depths the table holds: every depth a search reaches (deeper rows
/// would only repeat the last one's reductions, below their depth's cap).
const DEPTHS: usize = super::MAX_PLY;

/// The most moves a node has.
const MOVES: usize = 6;

/// `TABLE[depth][searched]`: the reduction at a node of the principal
/// variation's width (`[0]`) or of a null window (`[1]`).
static TABLE: LazyLock<[[[u8; 2]; MOVES]; DEPTHS]> = LazyLock::new(|| {
    let mut table = [[[0u8; 2]; MOVES]; DEPTHS];
    for (depth, row) in table.iter_mut().enumerate() {
        for (searched, cell) in row.iter_mut().enumerate() {
            *cell = [true, false].map(|pv| formula(depth as i32, searched, pv) as u8);
        }
    }
    table
});

/// The reduction of a quiet move at a node of `depth` (at least 3) after
/// `searched` moves (at least 2), `pv` at a node of the principal
/// variation.
#[inline]
pub(super) fn reduction(depth: i32, searched: usize, pv: bool) -> i32 {
    let row = (depth.max(0) as usize).min(DEPTHS - 1);
    i32::from(TABLE[row][searched.min(MOVES - 1)][usize::from(!pv)])
}

/// The reduction the table is made of (see the module's docs).
fn formula(depth: i32, searched: usize, pv: bool) -> i32 {
    let scaled = 0.5 + f64::from(depth.max(1)).ln() * ((searched + 1) as f64).ln() / 1.75;
    let r = scaled as i32 - i32::from(pv);
    r.min(depth - 2).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_follow_the_formula_and_its_bounds() {
        // (depth, searched, pv, plies): worked by hand from the formula
        // (the last: a depth past the table, read from its last row).
        let cases = [
            (3, 2, false, 1),
            (3, 5, false, 1),
            (5, 5, false, 2),
            (10, 2, false, 1),
            (10, 3, false, 2),
            (10, 3, true, 1),
            (20, 2, false, 2),
            (20, 5, false, 3),
            (20, 5, true, 2),
            (26, 5, false, 3),
            (100, 5, false, 5),
            (120, 5, true, 4),
            (1000, 5, false, 5),
        ];
        for (depth, searched, pv, plies) in cases {
            assert_eq!(
                reduction(depth, searched, pv),
                plies,
                "depth {depth}, {searched} searched, pv {pv}"
            );
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_order_and_leave_a_ply() {
        for depth in 3..100 {
            for searched in 2..MOVES {
                for pv in [false, true] {
                    let r = reduction(depth, searched, pv);
                    assert!((1..=depth - 2).contains(&r), "{depth} {searched} {pv}");
                    assert!(r >= reduction(depth - 1, searched, pv).min(depth - 2));
                    assert!(r >= reduction(depth, searched - 1, pv));
                    assert!(reduction(depth, searched, true) <= reduction(depth, searched, false));
                }
            }
        }
    }
}
