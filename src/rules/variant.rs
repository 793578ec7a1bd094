//! The rule set as a value: which variant is played and how endless play ends.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Seeds a player must capture to win (more than half of the 48).
pub const WINNING_SEEDS: u8 = 25;

/// What happens to a capture that would take every seed in the opponent's row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GrandSlam {
    /// The move is played but nothing is captured (Abapa).
    Forfeit,
    /// The move is illegal unless every legal move is one; then it is played
    /// and, as in `Forfeit`, captures nothing.
    Forbid,
    /// The capture is made. The opponent is then left without seeds, so the
    /// game ends with each side taking its own row.
    Capture,
    /// The capture is made only when it brings the mover's store to
    /// [`WINNING_SEEDS`] or more, which ends the game, won; otherwise the
    /// move is played and captures nothing, as in `Forfeit`.
    CaptureToWin,
}

impl GrandSlam {
    /// Whether a grand slam taking `taken` seeds, by a mover with `store`
    /// seeds captured, is a capture (rather than a move that takes nothing).
    #[inline]
    pub const fn takes(self, store: u8, taken: u8) -> bool {
        match self {
            GrandSlam::Capture => true,
            GrandSlam::CaptureToWin => store as u16 + taken as u16 >= WINNING_SEEDS as u16,
            GrandSlam::Forfeit | GrandSlam::Forbid => false,
        }
    }
}

/// What a player must do about an opponent who has (or would be left with) no seeds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Starving {
    /// Abapa: if the opponent's row is empty you must sow into it; if you
    /// cannot, the game ends and you take every seed left on the board.
    MustFeed,
    /// Awari (Romein & Bal): a move that leaves the opponent with no seeds is
    /// legal only if every legal move does so.
    AvoidEmptying,
}

/// How seeds still on the board are shared when a game ends by endless play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndlessPlay {
    /// Each player takes the seeds in their own row (Abapa).
    OwnRows,
    /// The seeds are split evenly: a score difference of 0 (Awari).
    Split,
}

/// The board-level rule set: everything that decides legal moves, captures
/// and the value of a board. Endgame tables are built for one variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Variant {
    /// Abapa, the default: grand slam captures nothing, feeding is compulsory.
    Abapa,
    /// Abapa with the grand slam forbidden unless it is the only move.
    GrandSlamForbidden,
    /// Abapa where a grand slam captures and ends the game.
    CaptureAndEnd,
    /// The rules of Romein & Bal's 2002 solution of Awari.
    Awari,
    /// Abapa where a grand slam captures only when the capture brings the
    /// mover to 25 seeds or more (winning there); otherwise it is forfeited.
    /// Added last: the index of each variant is its encoding in book files.
    CaptureToWin,
}

impl Variant {
    /// Every variant, default first.
    pub const ALL: [Variant; 5] = [
        Variant::Abapa,
        Variant::GrandSlamForbidden,
        Variant::CaptureAndEnd,
        Variant::Awari,
        Variant::CaptureToWin,
    ];

    /// The grand slam setting of this variant.
    #[inline]
    pub const fn grand_slam(self) -> GrandSlam {
        match self {
            Variant::Abapa => GrandSlam::Forfeit,
            Variant::GrandSlamForbidden => GrandSlam::Forbid,
            Variant::CaptureAndEnd | Variant::Awari => GrandSlam::Capture,
            Variant::CaptureToWin => GrandSlam::CaptureToWin,
        }
    }

    /// The feeding setting of this variant.
    #[inline]
    pub const fn starving(self) -> Starving {
        match self {
            Variant::Awari => Starving::AvoidEmptying,
            _ => Starving::MustFeed,
        }
    }

    /// How endless play is scored in this variant.
    #[inline]
    pub const fn endless(self) -> EndlessPlay {
        match self {
            Variant::Awari => EndlessPlay::Split,
            _ => EndlessPlay::OwnRows,
        }
    }

    /// The name used on the command line and in table headers.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Abapa => "abapa",
            Variant::GrandSlamForbidden => "grand-slam-forbidden",
            Variant::CaptureAndEnd => "capture-and-end",
            Variant::Awari => "awari",
            Variant::CaptureToWin => "capture-to-win",
        }
    }

    /// Whether endgame tables can be built for this variant. A table holds
    /// a value for each board (the seeds in the pits and the side to move),
    /// but under [`Variant::CaptureToWin`] what a grand slam does depends on
    /// the mover's store, which a board does not hold: it has no tables.
    pub const fn has_tables(self) -> bool {
        !matches!(self, Variant::CaptureToWin)
    }
}

/// Why a variant has no endgame tables (see [`Variant::has_tables`]), in
/// a few words for a one-line message.
pub const NO_TABLES: &str = "a grand slam's capture depends on the mover's store, which a table indexed by the seeds on the board does not hold";

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown rule-set name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown rules '{0}' (expected abapa, grand-slam-forbidden, capture-and-end, capture-to-win, awari or mancala)"
)]
pub struct UnknownRules(pub String);

/// An unknown name of one of Oware's rule sets, where Arabic Mancala is no
/// choice (a table of Oware's, the weights of its evaluation).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown Oware rules '{0}' (expected abapa, grand-slam-forbidden, capture-and-end, capture-to-win or awari)"
)]
pub struct UnknownVariant(pub String);

/// The game a command plays: one of Oware's rule sets, or Arabic Mancala
/// (RULES.md §7), a game of its own on the same board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Oware under one of its rule sets.
    Oware(Variant),
    /// Arabic Mancala.
    Mancala,
}

impl RuleSet {
    /// The rule set's name, as `--rules` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Oware(v) => v.name(),
            RuleSet::Mancala => "mancala",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = UnknownRules;

    fn from_str(s: &str) -> Result<RuleSet, UnknownRules> {
        if s.eq_ignore_ascii_case("mancala") {
            return Ok(RuleSet::Mancala);
        }
        s.parse()
            .map(RuleSet::Oware)
            .map_err(|UnknownVariant(name)| UnknownRules(name))
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "abapa" | "default" => Ok(Variant::Abapa),
            "grand-slam-forbidden" | "forbid" => Ok(Variant::GrandSlamForbidden),
            "capture-and-end" => Ok(Variant::CaptureAndEnd),
            "capture-to-win" => Ok(Variant::CaptureToWin),
            "awari" => Ok(Variant::Awari),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// The complete rules of a game: the board-level variant plus the ending
/// rules that depend on a game's history.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Legal moves, captures and sweeps.
    pub variant: Variant,
    /// End the game when a position (pits and side to move) repeats since the
    /// last capture. On by default.
    pub repetition: bool,
    /// End the game after this many half-moves without a capture.
    pub no_capture_limit: Option<u32>,
}

impl Rules {
    /// Abapa with the repetition rule and no move cap.
    pub const ABAPA: Rules = Rules::of(Variant::Abapa);
    /// The rules of Romein & Bal's 2002 solution.
    pub const AWARI: Rules = Rules::of(Variant::Awari);

    /// `variant` with the default ending rules.
    pub const fn of(variant: Variant) -> Rules {
        Rules {
            variant,
            repetition: true,
            no_capture_limit: None,
        }
    }

    /// The same rules with a cap of `limit` half-moves without a capture.
    pub const fn with_no_capture_limit(mut self, limit: Option<u32>) -> Rules {
        self.no_capture_limit = limit;
        self
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::ABAPA
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.variant)?;
        if !self.repetition {
            f.write_str(" (no repetition rule)")?;
        }
        if let Some(k) = self.no_capture_limit {
            write!(f, " (ends after {k} half-moves without capture)")?;
        }
        Ok(())
    }
}
