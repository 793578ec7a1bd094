//! Zobrist keys of positions, from tables generated at compile time.

use crate::Position;

/// splitmix64, usable in const context.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `PITS[pit][seeds]`, then the side and South's store.
const KEYS: ([[u64; 49]; 12], u64, [u64; 49]) = {
    let mut pits = [[0u64; 49]; 12];
    let mut stores = [0u64; 49];
    let mut state = 0x0DDB_1A5E_5BAD_5EEDu64;
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 49 {
            let (next, key) = splitmix(state);
            state = next;
            pits[p][s] = key;
            s += 1;
        }
        p += 1;
    }
    let (next, side) = splitmix(state);
    state = next;
    let mut s = 0;
    while s < 49 {
        let (next, key) = splitmix(state);
        state = next;
        stores[s] = key;
        s += 1;
    }
    (pits, side, stores)
};

/// The key of the pits and the side to move (what the repetition rule
/// compares).
#[inline]
pub fn board_key(pos: &Position) -> u64 {
    let mut k = if pos.side_to_move() as usize == 1 {
        KEYS.1
    } else {
        0
    };
    for (pit, &s) in pos.pits().iter().enumerate() {
        k ^= KEYS.0[pit][s as usize];
    }
    k
}

/// The full key: pits, side to move and stores (South's store determines
/// North's, given the seeds on the board).
#[inline]
pub fn full_key(pos: &Position, board_key: u64) -> u64 {
    board_key ^ KEYS.2[pos.stores()[0] as usize]
}
