//! Moves (one pit letter) and a fixed-capacity move list.

use std::fmt;
use std::ops::Deref;

use crate::Side;

/// A move: the pit (0..11) whose seeds are sown. South's pits are lettered
/// `A`..`F`, North's `a`..`f`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Move(u8);

const _: () = assert!(std::mem::size_of::<Move>() == 1);

impl Move {
    /// The move sowing from `pit`. Panics (at compile time in const
    /// contexts) if `pit > 11`.
    #[inline]
    pub const fn new(pit: usize) -> Move {
        assert!(pit < 12, "a pit is 0..11");
        Move(pit as u8)
    }

    /// The move of `side` from its `house`-th pit (0..5, left to right as that
    /// side sees its row).
    #[inline]
    pub const fn of(side: Side, house: usize) -> Move {
        assert!(house < 6, "a house is 0..5");
        Move((side.first_pit() + house) as u8)
    }

    /// The absolute pit index (0..11).
    #[inline]
    pub const fn pit(self) -> usize {
        self.0 as usize
    }

    /// The pit index within the mover's row (0..5).
    #[inline]
    pub const fn house(self) -> usize {
        self.0 as usize % 6
    }

    /// The side that owns the pit, i.e. the only side that may play this move.
    #[inline]
    pub const fn side(self) -> Side {
        if self.0 < 6 { Side::South } else { Side::North }
    }

    /// The move's letter: `A`..`F` for South, `a`..`f` for North.
    pub const fn letter(self) -> char {
        if self.0 < 6 {
            (b'A' + self.0) as char
        } else {
            (b'a' + self.0 - 6) as char
        }
    }

    /// Parses a move letter.
    pub const fn from_letter(c: char) -> Option<Move> {
        match c {
            'A'..='F' => Some(Move(c as u8 - b'A')),
            'a'..='f' => Some(Move(c as u8 - b'a' + 6)),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Up to six moves, stored inline (no allocation).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    moves: [u8; 6],
    len: u8,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [0; 6],
            len: 0,
        }
    }

    /// Appends a move. There are never more than six legal moves.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < 6);
        self.moves[self.len as usize] = mv.0;
        self.len += 1;
    }

    /// Keeps only the moves for which `keep` is true, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut out = 0;
        for i in 0..self.len as usize {
            let mv = Move(self.moves[i]);
            if keep(mv) {
                self.moves[out] = mv.0;
                out += 1;
            }
        }
        self.len = out as u8;
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        let bytes = &self.moves[..self.len as usize];
        // SAFETY: `Move` is `#[repr(transparent)]` over `u8`, so a `[u8]` slice
        // has the layout of a `[Move]` slice; every stored byte came from a
        // valid `Move`, so each element is a valid `Move`.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<Move>(), bytes.len()) }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
