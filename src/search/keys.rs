//! Hash keys of positions.
//!
//! Sowing changes many pits at once, so incremental Zobrist keys buy
//! nothing here; instead the twelve pit bytes are read as two words and
//! mixed (the splitmix64 finaliser), which is cheaper than twelve table
//! look-ups and reads the pits the way sowing wrote them.

use crate::Position;

#[inline]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of the pits and the side to move (what the repetition rule
/// compares).
#[inline]
pub fn board_key(pos: &Position) -> u64 {
    let p = pos.pits();
    let lo = u64::from_le_bytes([p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]]);
    let hi = u64::from(u32::from_le_bytes([p[8], p[9], p[10], p[11]]))
        | ((pos.side_to_move() as u64) << 32);
    mix(lo ^ mix(hi ^ 0x9E37_79B9_7F4A_7C15))
}

/// The full key: pits, side to move and stores (South's store determines
/// North's, given the seeds on the board).
#[inline]
pub fn full_key(pos: &Position, board_key: u64) -> u64 {
    board_key ^ mix(u64::from(pos.stores()[0]) + 0x2545_F491_4F6C_DD1D)
}
