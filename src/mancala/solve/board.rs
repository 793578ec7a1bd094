//! The solver's board: the twelve houses seen from the side to move, packed
//! one byte a house into two words, and the sowing rules of §7 on it.
//!
//! The stores are left out: under the solver's scoring (the final store
//! difference, no 25-seed stop) a board's value does not depend on them,
//! and a move only reports what it gained. Seeing the board from the mover
//! makes a position and its mirror image one entry of the table.

use crate::Side;
use crate::mancala::MancalaPosition;

/// One byte a house, six houses a row.
const ONES: u64 = 0x0101_0101_0101;
/// The slots of one lap of the mover's sowing: its six houses, its store,
/// the opponent's six houses.
const LAP: usize = 13;
/// The lap index of the mover's store.
const STORE: usize = 6;

/// What the seeds after the full laps add on one lap, for a sowing from
/// house `h` with `r` seeds left over: a seed to each of the next `r`
/// slots.
#[derive(Copy, Clone)]
struct Rest {
    mine: u64,
    theirs: u64,
    store: u8,
    /// The lap index (0..12) of the slot the last seed lands in.
    last: u8,
}

const fn rests() -> [[Rest; LAP]; 6] {
    let empty = Rest {
        mine: 0,
        theirs: 0,
        store: 0,
        last: 0,
    };
    let mut table = [[empty; LAP]; 6];
    let mut h = 0;
    while h < 6 {
        let mut r = 0;
        while r < LAP {
            let mut rest = empty;
            let mut k = 1;
            while k <= r {
                let slot = (h + k) % LAP;
                if slot < STORE {
                    rest.mine |= 1 << (8 * slot);
                } else if slot == STORE {
                    rest.store = 1;
                } else {
                    rest.theirs |= 1 << (8 * (slot - STORE - 1));
                }
                k += 1;
            }
            // With no seed over the full laps, the last one is the origin's.
            rest.last = ((h + r) % LAP) as u8;
            table[h][r] = rest;
            r += 1;
        }
        h += 1;
    }
    table
}

const RESTS: [[Rest; LAP]; 6] = rests();

/// The seeds of a row: the byte sum (every partial sum is under 256).
#[inline]
const fn row_sum(row: u64) -> u8 {
    (row.wrapping_mul(ONES) >> 40) as u8
}

/// The houses seen from the side to move: its row first (its houses 0..5
/// in sowing order), then the opponent's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    mine: u64,
    theirs: u64,
}

/// What one sowing did to a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sown {
    /// The board after the move, seen from the side that moves next: the
    /// mover after another go, else the opponent. Empty when the game is
    /// over.
    pub board: Board,
    /// Seeds the mover put in its store (sown, captured, swept) less the
    /// seeds swept into the opponent's store.
    pub gain: i8,
    /// The last seed landed in the mover's store: the mover moves again.
    pub again: bool,
}

impl Board {
    /// The board of `pits` (the mover's six houses first, then the
    /// opponent's, each row in sowing order).
    pub const fn new(pits: [u8; 12]) -> Board {
        let mut mine = 0;
        let mut theirs = 0;
        let mut i = 0;
        while i < 6 {
            mine |= (pits[i] as u64) << (8 * i);
            theirs |= (pits[6 + i] as u64) << (8 * i);
            i += 1;
        }
        Board { mine, theirs }
    }

    /// The board of `pos`, seen from its side to move.
    pub fn of(pos: &MancalaPosition) -> Board {
        let pits = pos.pits();
        let first = pos.side_to_move().first_pit();
        Board::new(std::array::from_fn(|i| pits[(first + i) % 12]))
    }

    /// The houses, the mover's first.
    pub const fn pits(self) -> [u8; 12] {
        let mut pits = [0; 12];
        let mut i = 0;
        while i < 6 {
            pits[i] = (self.mine >> (8 * i)) as u8;
            pits[6 + i] = (self.theirs >> (8 * i)) as u8;
            i += 1;
        }
        pits
    }

    /// The position with this board, `side` to move and empty stores,
    /// under §7.4's capture.
    pub fn position(self, side: Side) -> MancalaPosition {
        let pits = self.pits();
        let first = side.first_pit();
        let board = std::array::from_fn(|p| pits[(p + 12 - first) % 12]);
        // At most 84 seeds fit in a board built by sowing or from a position.
        MancalaPosition::new(board, [0, 0], side).expect("a board holds at most 84 seeds")
    }

    /// The board seen from the other side.
    #[inline]
    pub const fn flip(self) -> Board {
        Board {
            mine: self.theirs,
            theirs: self.mine,
        }
    }

    /// Seeds on the board.
    #[inline]
    pub const fn seeds(self) -> u8 {
        row_sum(self.mine) + row_sum(self.theirs)
    }

    /// Seeds in the mover's house `h`.
    #[inline]
    pub const fn house(self, h: usize) -> u8 {
        (self.mine >> (8 * h)) as u8
    }

    /// The game is over: a row is empty (a one-row board is swept at
    /// once, §7.5 b).
    #[inline]
    pub const fn is_over(self) -> bool {
        self.mine == 0 || self.theirs == 0
    }

    /// The houses (a bit each) the mover may sow.
    #[inline]
    pub const fn legal_houses(self) -> u8 {
        let mut set = 0;
        let mut h = 0;
        while h < 6 {
            set |= ((self.house(h) != 0) as u8) << h;
            h += 1;
        }
        set
    }

    /// The sowing would end in the mover's store (another go).
    #[inline]
    pub const fn gives_another_go(self, h: usize) -> bool {
        self.house(h) as usize % LAP == STORE - h
    }

    /// The two words, for the transposition table.
    #[inline]
    pub(super) const fn words(self) -> (u64, u64) {
        (self.mine, self.theirs)
    }

    /// Sows the mover's house `h` (0..5, not empty); with `empty_capture`
    /// a last seed in an empty house of the mover's row goes to the store
    /// even when the house opposite is empty.
    pub fn sow(self, h: usize, empty_capture: bool) -> Sown {
        let shift = 8 * h;
        let seeds = usize::from(self.house(h));
        debug_assert!(seeds > 0, "sowing an empty house");
        let laps = (seeds / LAP) as u64;
        let rest = &RESTS[h][seeds % LAP];
        let mut mine = (self.mine & !(0xff << shift)) + laps * ONES + rest.mine;
        let mut theirs = self.theirs + laps * ONES + rest.theirs;
        let mut gain = laps as i32 + i32::from(rest.store);
        let last = usize::from(rest.last);
        let again = last == STORE;
        if last < STORE && (mine >> (8 * last)) & 0xff == 1 {
            let facing = 8 * (5 - last);
            let opposite = (theirs >> facing) & 0xff;
            if opposite > 0 || empty_capture {
                gain += opposite as i32 + 1;
                mine &= !(0xff << (8 * last));
                theirs &= !(0xff << facing);
            }
        }
        if mine == 0 || theirs == 0 {
            gain += i32::from(row_sum(mine)) - i32::from(row_sum(theirs));
            mine = 0;
            theirs = 0;
        }
        let board = Board { mine, theirs };
        Sown {
            board: if again { board } else { board.flip() },
            gain: gain as i8,
            again,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_move_from_the_four_seed_start() {
        let start = Board::new([4; 12]);
        // House 2 (C) reaches the store with its fourth seed.
        assert!(start.gives_another_go(2));
        let sown = start.sow(2, false);
        assert!(sown.again);
        assert_eq!(sown.gain, 1);
        assert_eq!(sown.board.pits(), [4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
        // House 5 (F) ends in the opponent's row: the board turns round.
        let sown = start.sow(5, false);
        assert!(!sown.again);
        assert_eq!(sown.board.pits(), [5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 0]);
    }

    #[test]
    fn thirteen_seeds_capture_at_the_origin() {
        let mut pits = [1; 12];
        pits[0] = 13;
        let sown = Board::new(pits).sow(0, false);
        // One seed in every slot, the store's included; the origin then
        // holds one, and the house facing it two.
        assert_eq!(sown.gain, 1 + 2 + 1);
        assert_eq!(sown.board.pits()[5], 0);
        assert_eq!(sown.board.pits()[6], 0);
    }

    #[test]
    fn an_empty_capture_takes_the_last_seed_alone() {
        // South's A has one seed, B is empty, North's house facing B too.
        let pits = [1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0];
        let board = Board::new(pits);
        let none = board.sow(0, false);
        assert_eq!(none.gain, 0);
        assert_eq!(
            none.board.flip().pits(),
            [0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]
        );
        let last = board.sow(0, true);
        assert_eq!(last.gain, 1);
        assert_eq!(
            last.board.flip().pits(),
            [0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]
        );
    }
}
