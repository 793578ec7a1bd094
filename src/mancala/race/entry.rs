//! A race table's entry: a board's outcome for every store the mover may
//! hold, as two thresholds in one byte.

use std::fmt;

/// The result of a race position for its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(i8)]
pub enum Outcome {
    /// The opponent wins.
    Loss = -1,
    /// Equal stores at the end.
    Draw = 0,
    /// The side to move wins.
    Win = 1,
}

impl Outcome {
    /// The outcome for the other side.
    #[inline]
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Win => Outcome::Loss,
        }
    }

    /// The outcome of a store difference (mover − opponent) at the end.
    #[inline]
    pub const fn of_difference(d: i32) -> Outcome {
        if d > 0 {
            Outcome::Win
        } else if d < 0 {
            Outcome::Loss
        } else {
            Outcome::Draw
        }
    }

    /// −1, 0 or 1.
    #[inline]
    pub const fn sign(self) -> i8 {
        self as i8
    }

    /// The outcome of −1, 0 or 1 (anything below 0 a loss, above a win).
    #[inline]
    pub const fn from_sign(v: i8) -> Outcome {
        Outcome::of_difference(v as i32)
    }

    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A board's entry in a race table: with `a` seeds still needed by the
/// mover (and so `b = k − a` by the opponent, `k` fixed by the level and
/// the start), the mover wins iff `a ≤ win` and draws or better iff
/// `a ≤ draw`. Zero means never (`a` is at least 1), and so does a `win`
/// below the level's smallest need.
///
/// The byte is `win | (draw − win) << 5`: `win` is at most 25 (a need
/// above 25 would be a negative store) and the draw band at most 7 wide;
/// a build meeting a wider band, or a profile that is not monotone, stops
/// rather than store a wrong byte ([`RaceEntry::of_exact_profile`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RaceEntry {
    /// The largest need with which the mover wins (0, or one below the
    /// level's smallest need: none).
    pub win: u8,
    /// The largest need with which the mover draws or wins (0: none).
    pub draw: u8,
}

impl RaceEntry {
    /// The widest draw band a byte holds.
    pub const MAX_BAND: u8 = 7;

    /// The entry of the outcomes `outcome(a)` for `a` in `needs`
    /// (thresholds of a monotone profile; a profile that is not monotone
    /// gives the thresholds of its last change, which no entry holds).
    pub fn of_profile(
        needs: std::ops::RangeInclusive<u8>,
        outcome: impl FnMut(u8) -> Outcome,
    ) -> RaceEntry {
        Self::profile(needs, outcome).0
    }

    /// [`RaceEntry::of_profile`], or `None` when no byte holds the profile:
    /// it is not monotone (an outcome better than the one at a smaller
    /// need) or its draw band is wider than [`RaceEntry::MAX_BAND`].
    pub fn of_exact_profile(
        needs: std::ops::RangeInclusive<u8>,
        outcome: impl FnMut(u8) -> Outcome,
    ) -> Option<RaceEntry> {
        let (entry, monotone) = Self::profile(needs, outcome);
        (monotone && entry.draw - entry.win <= Self::MAX_BAND).then_some(entry)
    }

    /// The thresholds of the profile, and whether it is monotone.
    fn profile(
        needs: std::ops::RangeInclusive<u8>,
        mut outcome: impl FnMut(u8) -> Outcome,
    ) -> (RaceEntry, bool) {
        let mut entry = RaceEntry::default();
        let (mut monotone, mut before) = (true, Outcome::Win);
        let low = *needs.start();
        for a in needs {
            let now = outcome(a);
            monotone &= now <= before;
            before = now;
            match now {
                Outcome::Win => {
                    entry.win = a;
                    entry.draw = a;
                }
                Outcome::Draw => entry.draw = a,
                Outcome::Loss => {}
            }
        }
        // Without a win, any `win` below the smallest need reads the same
        // on the level's needs. Zero, the usual one, would make the band
        // span every need below the draws, so where that is too wide the
        // band starts just below the smallest need instead.
        if entry.win == 0 && entry.draw > Self::MAX_BAND && low > 1 {
            entry.win = low - 1;
        }
        (entry, monotone)
    }

    /// The outcome with `a` seeds still needed by the mover.
    #[inline]
    pub const fn outcome(self, a: u8) -> Outcome {
        if a <= self.win {
            Outcome::Win
        } else if a <= self.draw {
            Outcome::Draw
        } else {
            Outcome::Loss
        }
    }

    /// The byte stored (a band wider than [`RaceEntry::MAX_BAND`] is cut:
    /// the builder packs only entries of [`RaceEntry::of_exact_profile`]).
    #[inline]
    pub const fn pack(self) -> u8 {
        let band = self.draw.saturating_sub(self.win);
        let band = if band > Self::MAX_BAND {
            Self::MAX_BAND
        } else {
            band
        };
        (self.win & 0x1f) | (band << 5)
    }

    /// The entry of a stored byte.
    #[inline]
    pub const fn unpack(byte: u8) -> RaceEntry {
        let win = byte & 0x1f;
        RaceEntry {
            win,
            draw: win + (byte >> 5),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        for win in 0..=25u8 {
            for band in 0..=RaceEntry::MAX_BAND {
                let e = RaceEntry {
                    win,
                    draw: win + band,
                };
                assert_eq!(RaceEntry::unpack(e.pack()), e);
            }
        }
        let e = RaceEntry::of_profile(1..=9, |a| match a {
            1..=3 => Outcome::Win,
            4 => Outcome::Draw,
            _ => Outcome::Loss,
        });
        assert_eq!(e, RaceEntry { win: 3, draw: 4 });
        assert_eq!(e.outcome(4), Outcome::Draw);
        assert_eq!(e.outcome(5), Outcome::Loss);
    }

    /// `outcomes` for the needs from `low` on give the entry `exact` (as
    /// (win, draw)), or none; an entry given packs, unpacks and reads them.
    fn assert_exact_profile(low: u8, outcomes: &[Outcome], exact: Option<(u8, u8)>) {
        let needs = low..=low + outcomes.len() as u8 - 1;
        let at = |a: u8| outcomes[usize::from(a - low)];
        let got = RaceEntry::of_exact_profile(needs.clone(), at);
        assert_eq!(
            got,
            exact.map(|(win, draw)| RaceEntry { win, draw }),
            "{low} {outcomes:?}"
        );
        if let Some(e) = got {
            assert_eq!(RaceEntry::unpack(e.pack()), e);
            assert!(needs.clone().all(|a| e.outcome(a) == at(a)), "{outcomes:?}");
        }
    }

    #[test]
    fn only_profiles_a_byte_holds_are_exact() {
        use Outcome::{Draw, Loss, Win};
        // (outcomes for needs 1.., exact entry as (win, draw) or none)
        type Case = (&'static [Outcome], Option<(u8, u8)>);
        let cases: [Case; 8] = [
            (&[Win, Win, Draw, Loss], Some((2, 3))),
            (&[Loss, Loss], Some((0, 0))),
            (&[Draw; 7], Some((0, 7))),
            // A band of 8 draws does not fit.
            (&[Draw; 8], None),
            (&[Win, Draw, Draw, Draw, Draw, Draw, Draw, Draw, Draw], None),
            (
                &[Win, Draw, Draw, Draw, Draw, Draw, Draw, Draw],
                Some((1, 8)),
            ),
            // Needing more is never better.
            (&[Win, Loss, Draw], None),
            (&[Draw, Win], None),
        ];
        for (outcomes, exact) in cases {
            assert_exact_profile(1, outcomes, exact);
        }
    }

    #[test]
    fn draws_without_a_win_fit_above_a_high_smallest_need() {
        use Outcome::{Draw, Loss, Win};
        // (smallest need, outcomes from it on, exact entry or none)
        type Case = (u8, &'static [Outcome], Option<(u8, u8)>);
        let cases: [Case; 6] = [
            // A band from zero would be 10 wide; from 8 it is 2.
            (9, &[Draw, Draw, Loss], Some((8, 10))),
            (9, &[Loss, Loss], Some((0, 0))),
            // Draws within 7 of zero keep the usual zero.
            (3, &[Draw, Draw, Loss], Some((0, 4))),
            (12, &[Draw; 7], Some((11, 18))),
            (12, &[Draw; 8], None),
            (9, &[Win, Draw, Loss], Some((9, 10))),
        ];
        for (low, outcomes, exact) in cases {
            assert_exact_profile(low, outcomes, exact);
        }
    }
}
