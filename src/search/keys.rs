//! Hash keys of positions.
//!
//! Sowing changes many pits at once, so incremental Zobrist keys buy
//! nothing here; instead the twelve pit bytes and the side to move are read
//! as two words and mixed by one folded multiplication (the 128-bit product
//! of the two words, each first XORed with a constant, with its halves
//! XORed together), which is cheaper than twelve table look-ups and reads
//! the pits the way sowing wrote them.

use crate::Position;

/// Every byte above 127, so that no word of pits (bytes of at most 127)
/// XORed with it is zero: a zero factor would make the product forget the
/// other.
const LOW_SEED: u64 = 0xA0F6_E3D5_9B87_C4E9;
/// The same for the high word (four pits and the side to move).
const HIGH_SEED: u64 = 0xD6B3_F5A9_E7C1_8BED;

/// The key of the pits and the side to move (what the repetition rule
/// compares).
#[inline]
pub fn board_key(pos: &Position) -> u64 {
    fold(pos.pits_word() | (u128::from(pos.side_to_move() as u8) << 96))
}

/// The key of a board as a word: twelve pit bytes (of at most 127 seeds)
/// from the lowest, then the side to move's byte (0 or 1) and zeros.
#[inline]
pub fn fold(word: u128) -> u64 {
    let product = u128::from(word as u64 ^ LOW_SEED) * u128::from((word >> 64) as u64 ^ HIGH_SEED);
    product as u64 ^ (product >> 64) as u64
}

/// `N` random words from a fixed generator (splitmix64 from `seed`): what
/// each count of seeds in South's store adds to a key.
pub const fn store_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        keys[i] = z ^ (z >> 31);
        i += 1;
    }
    keys
}

/// What South's store adds to the key (North's store follows from it and
/// the seeds on the board).
static STORE_KEYS: [u64; 49] = store_keys(0x2545_F491_4F6C_DD1D);

/// The full key: pits, side to move and stores (South's store determines
/// North's, given the seeds on the board).
#[inline]
pub fn full_key(pos: &Position, board_key: u64) -> u64 {
    board_key ^ STORE_KEYS[usize::from(pos.stores()[0]).min(48)]
}
