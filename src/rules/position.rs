//! A position: twelve pits, two stores and the side to move, with sowing,
//! capturing and legal-move generation. Everything here is allocation-free.

use std::fmt;

use super::bytes::{HIGH_BYTES, ROW, at_least, byte_sum};
use super::notation::{BoardText, NotationError, write_board};
use super::{EndlessPlay, GrandSlam, Starving, Variant, WINNING_SEEDS};
use crate::{Move, MoveList, Side};

/// Seeds in a full game.
pub const TOTAL_SEEDS: u32 = 48;

/// A board: pit counts (0..11, counter-clockwise from South's `A`), both
/// stores and the side to move.
///
/// Stored as sixteen bytes: the pits (0..11), South's and North's stores
/// (12, 13), the side to move (14, 0 for South) and a zero byte. Sowing
/// updates the pits as one 128-bit word, and a position is copied as one.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(C, align(16))]
pub struct Position {
    cells: [u8; 16],
}

const _: () = assert!(std::mem::size_of::<Position>() == 16);

const STORES: usize = 12;
/// The pit bytes of the sixteen cells.
const PITS_MASK: u128 = (1 << 96) - 1;
const SIDE: usize = 14;

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("pits", self.pits())
            .field("stores", &self.stores())
            .field("side", &self.side_to_move())
            .finish()
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A player has captured 25 seeds; the board stays as it is.
    Majority,
    /// The side to move has no seeds: the opponent takes the seeds left.
    NoSeeds,
    /// The side to move cannot feed its empty opponent: it takes the seeds left.
    CannotFeed,
    /// A position repeated since the last capture.
    Repetition,
    /// The cap on half-moves without a capture was reached.
    MoveLimit,
}

impl EndReason {
    /// A short machine-readable name.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Majority => "majority",
            EndReason::NoSeeds => "no-seeds",
            EndReason::CannotFeed => "cannot-feed",
            EndReason::Repetition => "repetition",
            EndReason::MoveLimit => "move-limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Majority => "a player captured 25 seeds",
            EndReason::NoSeeds => "the side to move has no seeds; the opponent takes the rest",
            EndReason::CannotFeed => "the side to move cannot feed the opponent and takes the rest",
            EndReason::Repetition => "the position repeated since the last capture",
            EndReason::MoveLimit => "too many half-moves without a capture",
        })
    }
}

/// Why a move may not be played in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The pit belongs to the side not to move.
    #[error("move {mv} belongs to {}, but {side} is to move", mv.side())]
    WrongSide {
        /// The move tried.
        mv: Move,
        /// The side to move.
        side: Side,
    },
    /// The pit is empty.
    #[error("move {0} sows from an empty pit")]
    EmptyPit(Move),
    /// The opponent is empty and the move does not reach its row.
    #[error("move {0} is illegal: the opponent's row is empty and the move does not feed it")]
    MustFeed(Move),
    /// A grand slam while another move exists (grand slam forbidden).
    #[error("move {0} is illegal: a grand slam is forbidden while another move exists")]
    GrandSlamForbidden(Move),
    /// The move leaves the opponent without seeds while another move does not (Awari).
    #[error(
        "move {0} is illegal: it leaves the opponent without seeds while another move does not"
    )]
    LeavesOpponentEmpty(Move),
    /// The game is over.
    #[error("the game is over ({0}); no move can be played")]
    GameOver(EndReason),
}

/// `added()[origin][seeds]`: what sowing `seeds` seeds from `origin` adds
/// to each pit, as a little-endian `u128` of twelve bytes, and the pit where
/// the last seed falls. Run at compile time, sowing seed by seed.
const fn added() -> [[(u128, u8); 49]; 12] {
    let mut table = [[(0u128, 0u8); 49]; 12];
    let mut origin = 0;
    while origin < 12 {
        let mut inc = 0u128;
        let mut pit = origin;
        let mut seeds = 1;
        while seeds <= 48 {
            // The next pit, skipping the origin on every lap.
            pit = (pit + 1) % 12;
            if pit == origin {
                pit = (pit + 1) % 12;
            }
            inc += 1u128 << (8 * pit);
            table[origin][seeds] = (inc, pit as u8);
            seeds += 1;
        }
        origin += 1;
    }
    table
}

/// `SOWING[origin][seeds]`: the whole change a sowing of `seeds` seeds from
/// `origin` makes to the sixteen cells read as one `u128` (mod 2¹²⁸): the
/// seeds added, the origin emptied and the turn passed, so that sowing is
/// one addition. With the pit where the last seed falls.
static SOWING: [[(u128, u8); 49]; 12] = {
    let added = added();
    let mut table = [[(0u128, 0u8); 49]; 12];
    let mut origin = 0;
    while origin < 12 {
        // The side byte goes from 0 to 1 after South's move, 1 to 0 after North's.
        let turn = if origin < 6 {
            1u128 << (8 * SIDE)
        } else {
            (1u128 << (8 * SIDE)).wrapping_neg()
        };
        let mut seeds = 1;
        while seeds <= 48 {
            let (inc, last) = added[origin][seeds];
            let emptied = (seeds as u128) << (8 * origin);
            table[origin][seeds] = (inc.wrapping_sub(emptied).wrapping_add(turn), last);
            seeds += 1;
        }
        origin += 1;
    }
    table
};

/// `LANDING[origin][seeds]`: the pit where the last seed of a sowing falls
/// and how many seeds that sowing adds to it (more than one after a lap),
/// or [`OWN_ROW`] when that pit is the sower's own, where nothing is
/// captured. A compact extract of [`added`] for the capture test.
static LANDING: [[(u8, u8); 49]; 12] = {
    let added = added();
    let mut table = [[(0u8, 0u8); 49]; 12];
    let mut origin = 0;
    while origin < 12 {
        let mut seeds = 1;
        while seeds <= 48 {
            let (inc, last) = added[origin][seeds];
            let gained = if last as usize / 6 == origin / 6 {
                OWN_ROW
            } else {
                (inc >> (8 * last as u32)) as u8
            };
            table[origin][seeds] = (last, gained);
            seeds += 1;
        }
        origin += 1;
    }
    table
};

/// Stands in [`LANDING`] for the seeds added to a pit of the sower's own
/// row: added to any pit count (at most 48) it makes neither 2 nor 3.
const OWN_ROW: u8 = 0x80;

/// The seeds a capture ending at `last` would take, and the first pit of the
/// captured run. Walks clockwise from `last` while pits hold 2 or 3 and stay
/// in the row starting at `row_start`. `last` must be in that row.
#[inline]
pub fn capture_run(pits: &[u8], last: usize, row_start: usize) -> (u8, usize) {
    let mut seeds = 0;
    let mut pit = last;
    loop {
        let s = pits[pit];
        if s != 2 && s != 3 {
            return (seeds, pit + 1);
        }
        seeds += s;
        if pit == row_start {
            return (seeds, pit);
        }
        pit -= 1;
    }
}

/// Sum of the six pits starting at `first`.
#[inline]
fn row_sum(pits: &[u8], first: usize) -> u8 {
    pits[first..first + 6].iter().sum()
}

impl Position {
    /// No seeds anywhere, South to move (a placeholder).
    pub const EMPTY: Position = Position::from_board([0; 12]);

    /// The start position: four seeds in every pit, South to move.
    pub const START: Position = Position::from_board([4; 12]);

    /// A position from its parts. Fails if there are more than 48 seeds.
    pub fn new(pits: [u8; 12], stores: [u8; 2], side: Side) -> Result<Position, NotationError> {
        let total: u32 = pits.iter().chain(&stores).map(|&s| u32::from(s)).sum();
        if total > TOTAL_SEEDS {
            return Err(NotationError::TooManySeeds {
                total,
                max: TOTAL_SEEDS,
            });
        }
        Ok(Position::from_board(pits)
            .with_stores(stores)
            .with_side_to_move(side))
    }

    /// A position with South to move and empty stores, without the seed
    /// count check (table boards never exceed 48 seeds).
    #[inline]
    pub(crate) const fn from_board(pits: [u8; 12]) -> Position {
        let mut cells = [0u8; 16];
        let mut i = 0;
        while i < 12 {
            cells[i] = pits[i];
            i += 1;
        }
        Position { cells }
    }

    /// A position with South to move and empty stores whose pits are the
    /// low twelve bytes of `word` (pit 0 lowest; see `tb::board::to_word`).
    #[inline]
    pub(crate) const fn from_pits_word(word: u128) -> Position {
        Position {
            cells: (word & PITS_MASK).to_le_bytes(),
        }
    }

    /// The pits as the low twelve bytes of a word.
    #[inline]
    pub(crate) const fn pits_word(&self) -> u128 {
        u128::from_le_bytes(self.cells) & PITS_MASK
    }

    const fn with_stores(mut self, stores: [u8; 2]) -> Position {
        self.cells[STORES] = stores[0];
        self.cells[STORES + 1] = stores[1];
        self
    }

    /// Seeds in each pit.
    #[inline]
    pub const fn pits(&self) -> &[u8; 12] {
        match self.cells.first_chunk::<12>() {
            Some(pits) => pits,
            None => unreachable!(),
        }
    }

    /// Seeds captured by South and North.
    #[inline]
    pub const fn stores(&self) -> [u8; 2] {
        [self.cells[STORES], self.cells[STORES + 1]]
    }

    /// Seeds captured by `side`.
    #[inline]
    pub const fn store(&self, side: Side) -> u8 {
        self.cells[STORES + side.index()]
    }

    /// The side to move.
    #[inline]
    pub const fn side_to_move(&self) -> Side {
        if self.cells[SIDE] == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// Seeds still on the board.
    #[inline]
    pub fn seeds_on_board(&self) -> u32 {
        self.pits().iter().map(|&s| u32::from(s)).sum()
    }

    /// Seeds in `side`'s row.
    #[inline]
    pub fn row_seeds(&self, side: Side) -> u8 {
        row_sum(self.pits(), side.first_pit())
    }

    /// A compact key of the pits and the side to move (not the stores): equal
    /// keys mean the same position for the repetition rule.
    #[inline]
    pub fn key(&self) -> u128 {
        let mut k = self.side_to_move() as u128;
        for &s in self.pits() {
            k = (k << 6) | u128::from(s);
        }
        k
    }

    /// Whether `side`'s six pits are all empty (read as one word).
    #[inline]
    fn row_empty(&self, side: Side) -> bool {
        (u128::from_le_bytes(self.cells) >> (8 * side.first_pit())) & 0xFFFF_FFFF_FFFF == 0
    }

    /// Whether both rows hold seeds: the side to move then has a legal move
    /// under every rule set (no feeding is owed, and a move that would
    /// empty the opponent's row is allowed when every move would).
    #[inline]
    pub fn both_rows_hold_seeds(&self) -> bool {
        !self.row_empty(Side::South) && !self.row_empty(Side::North)
    }

    /// The moves the side to move may play under `variant`. Empty exactly
    /// when the game has ended at the start of this turn (see [`Position::board_end`]),
    /// except for the 25-seed end, which this does not look at.
    #[inline]
    pub fn legal_moves(&self, variant: Variant) -> MoveList {
        let side = self.side_to_move();
        let first = side.first_pit();
        let mut moves = MoveList::new();
        let must_feed = self.row_empty(side.opponent()) && variant.starving() == Starving::MustFeed;
        for house in 0..6 {
            let seeds = self.cells[first + house];
            // Sowing from `house` reaches the opponent's row iff it has more
            // seeds than there are pits after it in the mover's own row.
            if seeds > 0 && (!must_feed || usize::from(seeds) > 5 - house) {
                moves.push(Move::new(first + house));
            }
        }
        match (variant.starving(), variant.grand_slam()) {
            (Starving::AvoidEmptying, _) => self.keep_unless_all(&mut moves, |after, _| {
                after.row_seeds(after.side_to_move()) == 0
            }),
            (Starving::MustFeed, GrandSlam::Forbid) => {
                self.keep_unless_all(&mut moves, |_, slam| slam)
            }
            (Starving::MustFeed, _) => {}
        }
        moves
    }

    /// The legal moves as a set of houses: bit `h` is set when the side to
    /// move may sow its `h`-th pit (see [`Move::of`]). The same moves as
    /// [`Position::legal_moves`], found without a list in the common case
    /// (an opponent with seeds, grand slams not forbidden).
    #[inline]
    pub fn legal_houses(&self, variant: Variant) -> u8 {
        let side = self.side_to_move();
        if self.row_empty(side.opponent())
            || variant.starving() != Starving::MustFeed
            || variant.grand_slam() == GrandSlam::Forbid
        {
            return self
                .legal_moves(variant)
                .iter()
                .fold(0, |set, mv| set | (1 << mv.house()));
        }
        // Every pit with seeds: the high bit of each byte holding seeds,
        // gathered into six bits by one multiplication (the shifted copies
        // of these bits never overlap, so no carry disturbs the top byte).
        let row = (u128::from_le_bytes(self.cells) >> (8 * side.first_pit())) as u64 & ROW;
        let nonzero = at_least(row, 1) >> 7;
        (nonzero.wrapping_mul(0x0102_0408_1020_0000) >> 56) as u8 & 0x3F
    }

    /// What sowing the side to move's `pit` captures, found by sowing it
    /// (the move need not be legal: under [`GrandSlam::Forbid`] a grand
    /// slam captures nothing either way).
    #[cold]
    pub(crate) fn capture_of(&self, pit: usize, grand_slam: GrandSlam) -> u8 {
        if !self.may_capture(pit) {
            return 0;
        }
        let mut after = *self;
        after.sow_and_capture(Move::new(pit), grand_slam).0
    }

    /// Whether sowing the (non-empty) `pit` of the side to move might
    /// capture: its last seed falls in the opponent's row and leaves 2 or 3
    /// there. When false the move captures nothing.
    #[inline]
    pub fn may_capture(&self, pit: usize) -> bool {
        let (last, added) = LANDING[pit][usize::from(self.cells[pit])];
        let landing = self.cells[usize::from(last)] + added;
        landing == 2 || landing == 3
    }

    /// Removes the moves for which `bad` holds of the result, unless it holds
    /// for every move.
    fn keep_unless_all(&self, moves: &mut MoveList, bad: impl Fn(&Position, bool) -> bool) {
        let mut flags = [false; 6];
        for (flag, &mv) in flags.iter_mut().zip(moves.iter()) {
            let mut after = *self;
            let (_, slam) = after.sow_and_capture(mv, GrandSlam::Capture);
            *flag = bad(&after, slam);
        }
        if flags[..moves.len()].iter().all(|&f| f) {
            return;
        }
        let mut i = 0;
        moves.retain(|_| {
            i += 1;
            !flags[i - 1]
        });
    }

    /// Sows `mv`, makes the capture allowed by `grand_slam` and passes the
    /// turn. Returns the seeds captured and whether the capture run covered
    /// the opponent's whole row (a grand slam).
    #[inline(always)]
    fn sow_and_capture(&mut self, mv: Move, grand_slam: GrandSlam) -> (u8, bool) {
        // Everything happens on the sixteen cells as one 128-bit word and is
        // stored once: the pits, the side-to-move byte and the stores.
        let mover = self.side_to_move();
        let (mut board, last) = self.sown(mv);
        // The capture, without a branch on the pits (which move captures
        // is hard to predict). In the opponent's row, read as six bytes: the
        // run is the pits holding 2 or 3 that ends at the last seed's pit.
        let row_start = mover.opponent().first_pit();
        let opponent = (board >> (8 * row_start)) as u64 & ROW;
        let landed = last.wrapping_sub(row_start);
        let valid = landed < 6;
        // Bytes 0..=landed (none when the last seed fell in the mover's row).
        let upto = (u64::MAX >> (56 - 8 * (landed as u32 % 8))) & u64::from(valid).wrapping_neg();
        // The run starts after the last byte up to `landed` that holds
        // neither 2 nor 3.
        let two_or_three = at_least(opponent, 2) & !at_least(opponent, 4);
        let breaks = !two_or_three & HIGH_BYTES & upto;
        let before = u64::MAX.checked_shr(breaks.leading_zeros()).unwrap_or(0);
        let run = upto & !before;
        let taken = byte_sum(opponent & run);
        let slam = taken > 0 && taken == byte_sum(opponent);
        let take =
            taken > 0 && (!slam || grand_slam.takes(self.cells[STORES + mover.index()], taken));
        let (run, taken) = if take { (run, taken) } else { (0, 0) };
        board = (board & !(u128::from(run) << (8 * row_start)))
            + (u128::from(taken) << (8 * (STORES + mover.index())));
        let result = (taken, slam);
        self.cells = board.to_le_bytes();
        result
    }

    /// The sixteen cells after sowing `mv` (a non-empty pit), before any
    /// capture, and the pit where the last seed fell.
    #[inline(always)]
    fn sown(&self, mv: Move) -> (u128, usize) {
        let seeds = self.cells[mv.pit()];
        debug_assert!(seeds > 0 && seeds <= 48);
        let (change, last) = SOWING[mv.pit()][usize::from(seeds)];
        // No byte of the result is negative or above 48, so the one
        // addition changes each byte as it should.
        (
            u128::from_le_bytes(self.cells).wrapping_add(change),
            usize::from(last),
        )
    }

    /// The position after `mv`, which must be legal and capture `captured`
    /// seeds (as [`Position::captures`] tells): sown without the capture
    /// test when that is none.
    #[inline(always)]
    pub fn after_capturing(&self, mv: Move, variant: Variant, captured: u8) -> (Position, u8) {
        match captured {
            0 => (self.after_quiet(mv, variant), 0),
            _ => {
                let after = self.after(mv, variant);
                debug_assert_eq!(after.1, captured, "{mv} captures {} seeds", after.1);
                after
            }
        }
    }

    /// The position after `mv`, which must be legal and capture nothing
    /// (as [`Position::captures`] can tell): a sowing without the capture
    /// test.
    #[inline]
    pub fn after_quiet(&self, mv: Move, variant: Variant) -> Position {
        let next = Position {
            cells: self.sown(mv).0.to_le_bytes(),
        };
        debug_assert_eq!(
            (next, 0),
            self.after(mv, variant),
            "{mv} is not a quiet move"
        );
        next
    }

    /// Plays `mv`, which must be legal, and returns the seeds it captured.
    #[inline(always)]
    pub fn play(&mut self, mv: Move, variant: Variant) -> u8 {
        debug_assert!(self.legal_moves(variant).contains(&mv), "illegal move {mv}");
        self.sow_and_capture(mv, variant.grand_slam()).0
    }

    /// The position after `mv` (which must be legal) and the seeds it captured.
    #[inline]
    pub fn after(&self, mv: Move, variant: Variant) -> (Position, u8) {
        let mut next = *self;
        let captured = next.play(mv, variant);
        (next, captured)
    }

    /// Checks that `mv` may be played, naming the rule it breaks if not.
    pub fn check_move(&self, mv: Move, variant: Variant) -> Result<(), MoveError> {
        if let Some(reason) = self.board_end(variant) {
            return Err(MoveError::GameOver(reason));
        }
        if mv.side() != self.side_to_move() {
            return Err(MoveError::WrongSide {
                mv,
                side: self.side_to_move(),
            });
        }
        if self.cells[mv.pit()] == 0 {
            return Err(MoveError::EmptyPit(mv));
        }
        if self.legal_moves(variant).contains(&mv) {
            return Ok(());
        }
        let opponent_empty = self.row_empty(self.side_to_move().opponent());
        let feeds = usize::from(self.cells[mv.pit()]) > 5 - mv.house();
        Err(match variant.starving() {
            Starving::AvoidEmptying => MoveError::LeavesOpponentEmpty(mv),
            Starving::MustFeed if opponent_empty && !feeds => MoveError::MustFeed(mv),
            Starving::MustFeed => MoveError::GrandSlamForbidden(mv),
        })
    }

    /// Whether the game is over at the start of this turn, judging from the
    /// board alone (history-based ends are the referee's business).
    pub fn board_end(&self, variant: Variant) -> Option<EndReason> {
        if self.majority_reached() {
            Some(EndReason::Majority)
        } else if self.row_seeds(self.side_to_move()) == 0 {
            Some(EndReason::NoSeeds)
        } else if self.legal_moves(variant).is_empty() {
            Some(EndReason::CannotFeed)
        } else {
            None
        }
    }

    /// Whether a player has captured enough seeds to win.
    #[inline]
    pub fn majority_reached(&self) -> bool {
        self.stores().iter().any(|&s| s >= WINNING_SEEDS)
    }

    /// Sweeps the seeds left on the board as the rules say for a game
    /// ending for `reason` with this side to move.
    pub fn end_game(&mut self, reason: EndReason, variant: Variant) {
        let mover = self.side_to_move();
        match reason {
            EndReason::Majority => {}
            EndReason::NoSeeds => self.sweep_to(mover.opponent()),
            EndReason::CannotFeed => self.sweep_to(mover),
            EndReason::Repetition | EndReason::MoveLimit => match variant.endless() {
                EndlessPlay::OwnRows => self.sweep_own_rows(),
                // Split evenly: the difference is unchanged, so the board
                // stays as it is and the stores decide.
                EndlessPlay::Split => {}
            },
        }
    }

    /// The side with more seeds captured, or `None` when level.
    pub fn leader(&self) -> Option<Side> {
        let [south, north] = self.stores();
        match south.cmp(&north) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Moves every seed on the board into `side`'s store.
    pub fn sweep_to(&mut self, side: Side) {
        let seeds = row_sum(self.pits(), 0) + row_sum(self.pits(), 6);
        self.cells[STORES + side.index()] += seeds;
        self.cells[..12].fill(0);
    }

    /// Moves the seeds of each row into its owner's store.
    pub fn sweep_own_rows(&mut self) {
        for side in Side::ALL {
            self.cells[STORES + side.index()] += self.row_seeds(side);
        }
        self.cells[..12].fill(0);
    }

    /// The same position with the other side to move.
    pub const fn with_side_to_move(mut self, side: Side) -> Position {
        self.cells[SIDE] = side as u8;
        self
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl std::str::FromStr for Position {
    type Err = NotationError;

    /// Reads a position string `p0-…-p11-S-N-T` (RULES.md §1).
    fn from_str(s: &str) -> Result<Position, NotationError> {
        let BoardText { counts, side } = BoardText::parse(s, TOTAL_SEEDS)?;
        // Every count is at most 48 here, so the narrowing is lossless.
        let pits: [u8; 12] = std::array::from_fn(|i| counts[i] as u8);
        Position::new(pits, [counts[12] as u8, counts[13] as u8], side)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_board(f, self.pits(), self.stores(), self.side_to_move())
    }
}
