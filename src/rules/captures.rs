//! What the moves of a position capture, found without sowing them.
//!
//! A sowing of fewer than twelve seeds whose last seed falls in the
//! opponent's `j`-th pit adds one seed to each of the opponent's pits up to
//! `j` and to no other. So it captures the run of pits holding 1 or 2 seeds
//! (2 or 3 once sown) that ends at `j`, unless that run is a grand slam the
//! variant does not let capture. That run depends on `j` alone, so a few
//! operations on the opponent's row, read as six bytes, give the capture of
//! every landing pit at once. Pits holding a lap's worth of seeds (twelve or
//! more) are sown in full.

use super::bytes::{LOW_BYTES, ROW, at_least, bytes_set, max_byte, prefix_sums, running_max};
use super::{GrandSlam, Starving, Variant};
use crate::Position;

/// What each of the side to move's six pits would capture if sown, one
/// byte per house (see [`Position::captures`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Captures(u64);

impl Captures {
    /// The captures of each house, from a list.
    #[inline]
    pub fn from_houses(captures: [u8; 6]) -> Captures {
        Captures(
            captures
                .iter()
                .rev()
                .fold(0, |all, &c| (all << 8) | u64::from(c)),
        )
    }

    /// What sowing the `house`-th pit (0..6) captures.
    #[inline]
    pub const fn of(self, house: usize) -> u8 {
        (self.0 >> (8 * house)) as u8
    }

    /// The largest capture (captures are at most 18 seeds).
    #[inline]
    pub const fn best(self) -> u8 {
        max_byte(self.0)
    }
}

/// Byte `j`: what a sowing of fewer than twelve seeds whose last seed falls
/// in pit `j` of the row `opponent` (six bytes, not all zero) takes under
/// `grand_slam`, for a mover with `store` seeds captured: the sum of `s + 1`
/// over the pits of the run, at most 18.
#[inline(always)]
fn landing_captures(opponent: u64, grand_slam: GrandSlam, store: u8) -> u64 {
    // 0xFF in each pit holding 1 or 2.
    let in_run = bytes_set(at_least(opponent, 1) & !at_least(opponent, 3));
    // A run's take is a difference of prefix sums of `s + 1` over the run
    // pits: the sum up to `j` less the sum up to the last pit before `j`
    // that breaks the run, a running maximum since the sums never decrease.
    let prefix = prefix_sums((opponent + LOW_BYTES) & in_run) & ROW;
    let mut runs = prefix - (running_max(prefix & !in_run) & ROW);
    // A run over every pit up to the opponent's last seeds is a grand slam
    // (only the last pit with seeds can end one).
    let last = opponent.ilog2() / 8;
    let through_last = u64::MAX >> (56 - 8 * last);
    if grand_slam != GrandSlam::Capture
        && in_run & through_last == through_last
        && !grand_slam.takes(store, (runs >> (8 * last)) as u8)
    {
        runs &= !(0xFF << (8 * last));
    }
    runs
}

impl Position {
    /// The most seeds a legal move captures, or `None` when there is no
    /// legal move (the game has ended). Equal to the largest capture of
    /// [`Position::after`] over [`Position::legal_moves`], but cheaper:
    /// see [`Position::captures`].
    #[inline]
    pub fn best_capture(&self, variant: Variant) -> Option<u8> {
        if let Some(captures) = self.captures(variant) {
            let any_move = self.row_seeds(self.side_to_move()) > 0;
            return any_move.then(|| captures.best());
        }
        // Feeding or emptying decides which moves are legal: the slow way.
        let moves = self.legal_moves(variant);
        moves.iter().map(|&mv| self.after(mv, variant).1).max()
    }

    /// What each of the side to move's six pits would capture if sown (0
    /// for an empty pit), found without a branch on the pits (see the
    /// module's documentation); `None` when the starving rules decide which
    /// moves are legal (an opponent with no seeds, or the Awari variant).
    /// Under [`GrandSlam::Forbid`] a grand slam may be illegal, but it
    /// would capture nothing anyway.
    #[inline(always)]
    pub fn captures(&self, variant: Variant) -> Option<Captures> {
        let side = self.side_to_move();
        let word = self.pits_word();
        let own = (word >> (8 * side.first_pit())) as u64 & ROW;
        let opponent = (word >> (8 * side.opponent().first_pit())) as u64 & ROW;
        if opponent == 0 || variant.starving() != Starving::MustFeed {
            return None;
        }
        let runs = landing_captures(opponent, variant.grand_slam(), self.store(side));
        let mut captures = 0;
        for house in 0..6 {
            let seeds = (own >> (8 * house)) as u8;
            let landed = (house + usize::from(seeds)).wrapping_sub(6);
            let taken = if landed < 6 {
                (runs >> (8 * landed)) & 0xFF
            } else {
                0
            };
            captures |= taken << (8 * house);
        }
        let mut laps = at_least(own, 12);
        while laps != 0 {
            let house = laps.trailing_zeros() as usize / 8;
            laps &= laps - 1;
            let taken = self.capture_of(side.first_pit() + house, variant.grand_slam());
            captures = (captures & !(0xFF << (8 * house))) | (u64::from(taken) << (8 * house));
        }
        Some(Captures(captures))
    }
}
