//! The solver's board: the twelve houses seen from the side to move, one
//! byte a house in a word, and its moves.
//!
//! The stores are left out: under the solver's scoring (the final store
//! difference, no 25-seed stop) a board's value does not depend on them,
//! and a move only reports what it gained. Seeing the board from the mover
//! makes a position and its mirror image one entry of the table. The
//! sowing is the tables' ([`edges::sow`]), on the same word.

use crate::Side;
use crate::mancala::MancalaPosition;
use crate::mancala::edges::{self, terminal_word};
use crate::tb::board::{from_word, rotate_word, to_word};

/// The houses seen from the side to move: its row first (its houses 0..5
/// in sowing order), then the opponent's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board(u128);

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
    /// Seeds left on the board.
    pub seeds: u8,
    /// The last seed landed in the mover's store: the mover moves again.
    pub again: bool,
}

impl Board {
    /// The board of `pits` (the mover's six houses first, then the
    /// opponent's, each row in sowing order).
    pub fn new(pits: [u8; 12]) -> Board {
        Board(to_word(&pits))
    }

    /// The board of `pos`, seen from its side to move.
    pub fn of(pos: &MancalaPosition) -> Board {
        let pits = pos.pits();
        let first = pos.side_to_move().first_pit();
        Board::new(std::array::from_fn(|i| pits[(first + i) % 12]))
    }

    /// The houses, the mover's first.
    pub fn pits(self) -> [u8; 12] {
        from_word(self.0)
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
        Board(rotate_word(self.0))
    }

    /// Seeds on the board.
    #[inline]
    pub const fn seeds(self) -> u8 {
        // Byte 5 of the product sums a row's six bytes; the two rows added
        // first (at most 84 seeds: no byte carries).
        let rows = (self.0 as u64 & 0xffff_ffff_ffff) + (self.0 >> 48) as u64;
        (rows.wrapping_mul(0x0101_0101_0101) >> 40) as u8
    }

    /// Seeds in the mover's house `h`.
    #[inline]
    pub const fn house(self, h: usize) -> u8 {
        (self.0 >> (8 * h)) as u8
    }

    /// The game is over: a row is empty (a one-row board is swept at
    /// once, §7.5 b).
    #[inline]
    pub fn is_over(self) -> bool {
        self.final_value().is_some()
    }

    /// The value of a board whose game is over (the seeds left go to their
    /// row's owner), `None` while both rows hold seeds.
    #[inline]
    pub fn final_value(self) -> Option<i8> {
        terminal_word(self.0)
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
        self.house(h) as usize % 13 == 6 - h
    }

    /// The board as a word (the pits' bytes, pit 0 lowest), for the
    /// transposition table.
    pub(super) const fn word(self) -> u128 {
        self.0
    }

    /// Sows the mover's house `h` (0..5, not empty) of a board of `n`
    /// seeds; with `empty_capture` a last seed in an empty house of the
    /// mover's row goes to the store even when the house opposite is
    /// empty.
    #[inline]
    pub fn sow(self, h: usize, n: u8, empty_capture: bool) -> Sown {
        let edge = edges::sow(self.0, n, h, empty_capture);
        Sown {
            board: Board(edge.child),
            gain: edge.gain,
            seeds: edge.seeds,
            again: edge.again,
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
        let sown = start.sow(2, 48, false);
        assert!(sown.again);
        assert_eq!(sown.gain, 1);
        assert_eq!(sown.board.pits(), [4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
        // House 5 (F) ends in the opponent's row: the board turns round.
        let sown = start.sow(5, 48, false);
        assert!(!sown.again);
        assert_eq!(sown.board.pits(), [5, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 0]);
    }

    #[test]
    fn thirteen_seeds_capture_at_the_origin() {
        let mut pits = [1; 12];
        pits[0] = 13;
        let sown = Board::new(pits).sow(0, 24, false);
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
        let none = board.sow(0, 4, false);
        assert_eq!(none.gain, 0);
        assert_eq!(
            none.board.flip().pits(),
            [0, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]
        );
        let last = board.sow(0, 4, true);
        assert_eq!(last.gain, 1);
        assert_eq!(
            last.board.flip().pits(),
            [0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]
        );
    }
}
