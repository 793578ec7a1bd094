//! A position of Arabic Mancala (RULES.md §7): the twelve houses, the two
//! stores and the side to move, and the sowing rules.

use std::fmt;

use crate::rules::notation::{BoardText, NotationError, write_board};
use crate::{Move, MoveList, Side};

/// The most seeds a game holds: seven a house (the largest start).
pub const MAX_SEEDS: u32 = 84;
/// A store holding this many ends the game at once (§7.5 c).
pub const STOP_SEEDS: u8 = 25;
/// The start seeds a house may have (§7.1).
pub const START_SEEDS: [u8; 4] = [3, 4, 5, 7];
/// The slots a side sows through: its six houses, its store, the
/// opponent's six houses.
const LAP: usize = 13;

/// Why a game of Mancala ended (§7.5).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MancalaEnd {
    /// Every seed is in a store.
    AllStored,
    /// After a move all the seeds on the board were in one row: that row's
    /// owner took them.
    OneRow,
    /// A store holds 25 or more; the board stays as it is.
    Stop,
}

impl MancalaEnd {
    /// A short machine-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            MancalaEnd::AllStored => "all-stored",
            MancalaEnd::OneRow => "one-row",
            MancalaEnd::Stop => "stop",
        }
    }
}

impl fmt::Display for MancalaEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MancalaEnd::AllStored => "every seed is in a store",
            MancalaEnd::OneRow => "the seeds left were all in one row",
            MancalaEnd::Stop => "a store holds 25 or more",
        })
    }
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MancalaMoveError {
    /// The house belongs to the side not to move.
    #[error("move {mv} belongs to {}, but {side} is to move", mv.side())]
    WrongSide {
        /// The move tried.
        mv: Move,
        /// The side to move.
        side: Side,
    },
    /// The house is empty.
    #[error("move {0} sows from an empty house")]
    EmptyHouse(Move),
    /// The game has ended.
    #[error("the game is over ({0})")]
    GameOver(MancalaEnd),
}

/// What one move (one sowing) did.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Sowing {
    /// Seeds taken from the opposite house (the last seed goes to the
    /// store with them; under the empty capture it may go alone, and this
    /// is 0).
    pub captured: u8,
    /// The last seed landed in the mover's store: the mover moves again.
    pub another_go: bool,
    /// The move ended the game.
    pub ended: Option<MancalaEnd>,
}

/// Houses 0..5 are South's (`A`..`F`), 6..11 North's (`a`..`f`); house `p`
/// faces house `11 − p`. A position also carries the capture convention
/// its sowings follow (see [`MancalaRules`](super::MancalaRules)); the
/// position string does not show it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MancalaPosition {
    pits: [u8; 12],
    stores: [u8; 2],
    side: Side,
    empty_capture: bool,
}

const _: () = assert!(std::mem::size_of::<MancalaPosition>() == 16);

impl MancalaPosition {
    /// The start: `seeds` in every house, South to move, under §7.4's
    /// capture (see [`MancalaRules::start`](super::MancalaRules::start)).
    pub const fn start(seeds: u8) -> MancalaPosition {
        MancalaPosition {
            pits: [seeds; 12],
            stores: [0, 0],
            side: Side::South,
            empty_capture: false,
        }
    }

    /// The same position, its sowings under the empty capture or not.
    pub const fn with_empty_capture(mut self, on: bool) -> MancalaPosition {
        self.empty_capture = on;
        self
    }

    /// Whether a last seed in an empty house of the mover's row, the
    /// opposite house empty, goes alone into the mover's store.
    pub const fn empty_capture(&self) -> bool {
        self.empty_capture
    }

    /// A position from its parts, at most [`MAX_SEEDS`] seeds in all,
    /// under §7.4's capture. A position whose board seeds are all in one
    /// row is over; its sweep is made here, as a move would have made it
    /// (§7.5 b).
    pub fn new(
        pits: [u8; 12],
        stores: [u8; 2],
        side: Side,
    ) -> Result<MancalaPosition, NotationError> {
        let total = pits.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        if total > MAX_SEEDS {
            return Err(NotationError::TooManySeeds {
                total,
                max: MAX_SEEDS,
            });
        }
        let mut pos = MancalaPosition {
            pits,
            stores,
            side,
            empty_capture: false,
        };
        pos.settle();
        Ok(pos)
    }

    /// The houses.
    pub const fn pits(&self) -> &[u8; 12] {
        &self.pits
    }

    /// South's and North's stores.
    pub const fn stores(&self) -> [u8; 2] {
        self.stores
    }

    /// The store of `side`.
    pub const fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// The side to move.
    pub const fn side_to_move(&self) -> Side {
        self.side
    }

    /// Seeds on the board (not in a store).
    pub fn seeds_on_board(&self) -> u8 {
        self.pits.iter().sum()
    }

    /// Seeds in play: on the board and in both stores (12 × the start's
    /// seeds a house in a game from a start).
    pub fn total_seeds(&self) -> u32 {
        u32::from(self.seeds_on_board()) + self.stores.iter().map(|&s| u32::from(s)).sum::<u32>()
    }

    /// Seeds in `side`'s row.
    pub fn row_seeds(&self, side: Side) -> u8 {
        let first = side.first_pit();
        self.pits[first..first + 6].iter().sum()
    }

    /// Whether no store can reach 25 from here: neither holds 25 less than
    /// the seeds on the board, so the 25-seed stop cannot end the game and
    /// its final stores are those of the tables' value (§7.6).
    pub fn stop_out_of_reach(&self) -> bool {
        let most = self.stores[0].max(self.stores[1]);
        u32::from(most) + u32::from(self.seeds_on_board()) < u32::from(STOP_SEEDS)
    }

    /// Why the game is over, if it is: a store at 25, or no seed left on
    /// the board (after the sweep of a one-row board).
    pub fn end(&self) -> Option<MancalaEnd> {
        if self.stores.iter().any(|&s| s >= STOP_SEEDS) {
            Some(MancalaEnd::Stop)
        } else if self.seeds_on_board() == 0 {
            Some(MancalaEnd::AllStored)
        } else {
            None
        }
    }

    /// The winner of an ended game (the larger store), `None` for a draw.
    pub fn winner(&self) -> Option<Side> {
        match self.stores[0].cmp(&self.stores[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// The houses (0..5, from the mover's first) the side to move may sow:
    /// a bit each; none once the game is over.
    pub fn legal_houses(&self) -> u8 {
        if self.end().is_some() {
            return 0;
        }
        let first = self.side.first_pit();
        (0..6).fold(0, |m, h| m | (u8::from(self.pits[first + h] > 0) << h))
    }

    /// The legal moves, in house order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let houses = self.legal_houses();
        for h in 0..6 {
            if houses & (1 << h) != 0 {
                list.push(Move::of(self.side, h));
            }
        }
        list
    }

    /// Plays `mv`, checking it.
    pub fn play(&self, mv: Move) -> Result<(MancalaPosition, Sowing), MancalaMoveError> {
        if let Some(end) = self.end() {
            return Err(MancalaMoveError::GameOver(end));
        }
        if mv.side() != self.side {
            return Err(MancalaMoveError::WrongSide {
                mv,
                side: self.side,
            });
        }
        if self.pits[mv.pit()] == 0 {
            return Err(MancalaMoveError::EmptyHouse(mv));
        }
        Ok(self.after(mv.house()))
    }

    /// The position after the side to move sows its house `house` (0..5),
    /// which must hold seeds, and what the sowing did.
    pub fn after(&self, house: usize) -> (MancalaPosition, Sowing) {
        let me = self.side;
        let origin = me.first_pit() + house;
        let seeds = usize::from(self.pits[origin]);
        debug_assert!(seeds > 0);
        let mut next = *self;
        next.pits[origin] = 0;
        // The mover's lap: its houses from `house` on, its store at slot
        // 6, the opponent's houses at slots 7..12. Every slot gets the
        // full laps, the ones after the origin one more.
        let (laps, rest) = ((seeds / LAP) as u8, seeds % LAP);
        for slot in 0..LAP {
            // How far past the origin this slot is, on the lap.
            let distance = (slot + LAP - house) % LAP;
            let add = laps + u8::from(distance != 0 && distance <= rest);
            if add == 0 {
                continue;
            }
            match slot_pit(me, slot) {
                Some(pit) => next.pits[pit] += add,
                None => next.stores[me.index()] += add,
            }
        }
        let last = (house + seeds) % LAP;
        let mut sowing = Sowing::default();
        match slot_pit(me, last) {
            None => sowing.another_go = true,
            Some(pit) => {
                let opposite = 11 - pit;
                let taken = next.pits[opposite];
                if me.owns(pit) && next.pits[pit] == 1 && (taken > 0 || self.empty_capture) {
                    sowing.captured = taken;
                    next.stores[me.index()] += taken + 1;
                    next.pits[opposite] = 0;
                    next.pits[pit] = 0;
                }
            }
        }
        if !sowing.another_go {
            next.side = me.opponent();
        }
        sowing.ended = next.settle();
        (next, sowing)
    }

    /// Ends the game if it is over (§7.5), sweeping a one-row board into
    /// its owner's store; says why it ended.
    fn settle(&mut self) -> Option<MancalaEnd> {
        if self.stores.iter().any(|&s| s >= STOP_SEEDS) {
            return Some(MancalaEnd::Stop);
        }
        let (south, north) = (self.row_seeds(Side::South), self.row_seeds(Side::North));
        if south == 0 && north == 0 {
            return Some(MancalaEnd::AllStored);
        }
        if south == 0 || north == 0 {
            let owner = if south > 0 { Side::South } else { Side::North };
            self.stores[owner.index()] += south + north;
            self.pits = [0; 12];
            return Some(MancalaEnd::OneRow);
        }
        None
    }
}

/// The house of slot `slot` (0..12) of `side`'s lap, or `None` for its
/// store (slot 6).
const fn slot_pit(side: Side, slot: usize) -> Option<usize> {
    let first = side.first_pit();
    match slot {
        0..=5 => Some(first + slot),
        6 => None,
        _ => Some((first + slot - 1) % 12),
    }
}

impl std::str::FromStr for MancalaPosition {
    type Err = NotationError;

    /// Reads a position string `p0-…-p11-S-N-T` (RULES.md §1, §7).
    fn from_str(s: &str) -> Result<MancalaPosition, NotationError> {
        let BoardText { counts, side } = BoardText::parse(s, MAX_SEEDS)?;
        // Every count is at most 84 here, so the narrowing is lossless.
        let pits: [u8; 12] = std::array::from_fn(|i| counts[i] as u8);
        MancalaPosition::new(pits, [counts[12] as u8, counts[13] as u8], side)
    }
}

impl fmt::Display for MancalaPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_board(f, &self.pits, self.stores, self.side)
    }
}
