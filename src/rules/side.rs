//! The two players.

use std::fmt;

/// One of the two players. South owns pits 0..5 and moves first from the
/// start position; North owns pits 6..11.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player owning pits `A`..`F` (0..5).
    South = 0,
    /// The player owning pits `a`..`f` (6..11).
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North (the index of this side's store).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The first pit of this side's row (0 or 6).
    #[inline]
    pub const fn first_pit(self) -> usize {
        6 * self as usize
    }

    /// Whether `pit` (0..11) lies in this side's row.
    #[inline]
    pub const fn owns(self, pit: usize) -> bool {
        pit / 6 == self as usize
    }

    /// `S` or `N`, as in the position string.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// Parses `S` or `N` (either case).
    pub const fn from_letter(c: char) -> Option<Side> {
        match c {
            'S' | 's' => Some(Side::South),
            'N' | 'n' => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}
