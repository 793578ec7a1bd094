//! Hash keys of positions.
//!
//! Sowing changes many pits at once, so incremental Zobrist keys buy
//! nothing here; instead the twelve pit bytes and the side to move are read
//! as two words and mixed by one folded multiplication (the 128-bit product
//! of the two words, each first XORed with a constant, with its halves
//! XORed together), which is cheaper than twelve table look-ups and reads
//! the pits the way sowing wrote them.

use crate::Position;

/// Every byte above 48, so that no word of pits (bytes of at most 48) XORed
/// with it is zero: a zero factor would make the product forget the other.
const LOW_SEED: u64 = 0xA0F6_E3D5_9B87_C4E9;
/// The same for the high word (four pits and the side to move).
const HIGH_SEED: u64 = 0xD6B3_F5A9_E7C1_8BED;

/// The key of the pits and the side to move (what the repetition rule
/// compares).
#[inline]
pub fn board_key(pos: &Position) -> u64 {
    let word = pos.pits_word() | (u128::from(pos.side_to_move() as u8) << 96);
    let product = u128::from(word as u64 ^ LOW_SEED) * u128::from((word >> 64) as u64 ^ HIGH_SEED);
    product as u64 ^ (product >> 64) as u64
}

/// What South's store adds to the key (North's store follows from it and
/// the seeds on the board): random words from a fixed generator.
static STORE_KEYS: [u64; 49] = {
    let mut keys = [0u64; 49];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut i = 0;
    while i < 49 {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// The full key: pits, side to move and stores (South's store determines
/// North's, given the seeds on the board).
#[inline]
pub fn full_key(pos: &Position, board_key: u64) -> u64 {
    board_key ^ STORE_KEYS[usize::from(pos.stores()[0]).min(48)]
}
