//! The match formats Oware is played in: a series of games between two
//! players, A and B, starting sides alternating, until the format decides it.
//!
//! * `first-to:N` — the first to win N games (Kumasi players race to 5);
//! * `first-to:N,lead:L` — the first to N wins or to a lead of L wins,
//!   whichever comes first (Antiguan players: to 6 wins or a lead of 3);
//! * `best-of:N` — N games at most, decided as soon as the trailer cannot catch
//!   up with the games left (draws count as games), drawn if level after N;
//! * `straight:N` — N wins in a row (Yoruba players play for 3); a draw breaks
//!   a streak.
//!
//! A cap on the number of games ([`Series::with_cap`], the match's `--games`)
//! ends formats that could go on for ever (`straight`, `first-to` with
//! draws): at the cap the player with more game wins takes the series, level
//! is a drawn series.
//!
//! ```
//! use oware::arena::series::{Format, GameResult, Player, Series, SeriesOutcome};
//!
//! let mut series = Series::new("best-of:3".parse::<Format>().unwrap());
//! assert_eq!(series.first_mover(), Player::A);
//! series.record(GameResult::Win);
//! assert_eq!(series.first_mover(), Player::B);
//! series.record(GameResult::Win);
//! assert_eq!(series.outcome(), Some(SeriesOutcome::Won(Player::A)));
//! assert_eq!(series.to_string(), "A wins 2-0");
//! ```

use std::fmt;
use std::str::FromStr;

/// One of the two players of a series.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first named player; moves first in the first game.
    A,
    /// The second named player.
    B,
}

impl Player {
    /// The other player.
    pub const fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::A => "A",
            Player::B => "B",
        })
    }
}

/// The result of one game, from player A's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A won.
    Win,
    /// Drawn.
    Draw,
    /// A lost (B won).
    Loss,
}

impl GameResult {
    /// The same result seen from the other player's side.
    pub const fn flipped(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }

    /// The winner of the game, if any.
    pub const fn winner(self) -> Option<Player> {
        match self {
            GameResult::Win => Some(Player::A),
            GameResult::Draw => None,
            GameResult::Loss => Some(Player::B),
        }
    }
}

/// A match format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The first to `wins` game wins, or (if given) to a lead of `lead` wins.
    FirstTo {
        /// Game wins needed.
        wins: u32,
        /// A lead in game wins that decides the series early.
        lead: Option<u32>,
    },
    /// At most N games; the most wins takes it, decided as soon as the trailer
    /// cannot catch up; level after N games is a drawn series.
    BestOf(u32),
    /// N wins in a row; a draw breaks a streak.
    Straight(u32),
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Format::FirstTo { wins, lead: None } => write!(f, "first-to:{wins}"),
            Format::FirstTo {
                wins,
                lead: Some(lead),
            } => write!(f, "first-to:{wins},lead:{lead}"),
            Format::BestOf(n) => write!(f, "best-of:{n}"),
            Format::Straight(n) => write!(f, "straight:{n}"),
        }
    }
}

/// Why a format string was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(String);

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (expected first-to:N, first-to:N,lead:L, best-of:N or straight:N, N >= 1)",
            self.0
        )
    }
}

impl std::error::Error for FormatError {}

fn count(what: &str, text: &str) -> Result<u32, FormatError> {
    match text.trim().parse::<u32>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(FormatError(format!("bad {what} `{}`", text.trim()))),
    }
}

impl FromStr for Format {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<Format, FormatError> {
        let s = s.trim();
        let (kind, rest) = s
            .split_once(':')
            .ok_or_else(|| FormatError(format!("bad series format `{s}`")))?;
        match kind.trim().to_ascii_lowercase().as_str() {
            "first-to" | "firstto" | "first_to" => {
                let (wins, lead) = match rest.split_once(',') {
                    None => (rest, None),
                    Some((wins, lead)) => {
                        let (key, value) = lead
                            .split_once(':')
                            .or_else(|| lead.split_once('='))
                            .ok_or_else(|| FormatError(format!("bad lead `{lead}`")))?;
                        if !key.trim().eq_ignore_ascii_case("lead") {
                            return Err(FormatError(format!("unknown option `{}`", key.trim())));
                        }
                        (wins, Some(count("lead", value)?))
                    }
                };
                Ok(Format::FirstTo {
                    wins: count("number of wins", wins)?,
                    lead,
                })
            }
            "best-of" | "bestof" | "best_of" => Ok(Format::BestOf(count("number of games", rest)?)),
            "straight" => Ok(Format::Straight(count("number of wins", rest)?)),
            other => Err(FormatError(format!("unknown series format `{other}`"))),
        }
    }
}

/// How a series ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeriesOutcome {
    /// This player won the series.
    Won(Player),
    /// Level at the end (best-of, or the cap).
    Drawn,
}

/// The game score of a series.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Score {
    /// Games won by A.
    pub a_wins: u32,
    /// Games won by B.
    pub b_wins: u32,
    /// Drawn games.
    pub draws: u32,
}

impl Score {
    /// Games played.
    pub const fn games(&self) -> u32 {
        self.a_wins + self.b_wins + self.draws
    }

    /// Wins of `player`.
    pub const fn wins(&self, player: Player) -> u32 {
        match player {
            Player::A => self.a_wins,
            Player::B => self.b_wins,
        }
    }
}

/// A series in progress (or finished) between players A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    format: Format,
    cap: Option<u32>,
    first: Player,
    results: Vec<GameResult>,
    score: Score,
    /// The player on a winning streak and its length.
    streak: Option<(Player, u32)>,
    outcome: Option<SeriesOutcome>,
}

impl Series {
    /// A new series; A moves first in the first game.
    pub fn new(format: Format) -> Series {
        Series {
            format,
            cap: None,
            first: Player::A,
            results: Vec::new(),
            score: Score::default(),
            streak: None,
            outcome: None,
        }
    }

    /// Ends the series after at most `games` games (at least 1): the player
    /// with more game wins takes it then, level is drawn.
    pub fn with_cap(mut self, games: u32) -> Series {
        self.cap = Some(games.max(1));
        self
    }

    /// Who moves first in the first game (A by default).
    pub fn with_first_mover(mut self, player: Player) -> Series {
        self.first = player;
        self
    }

    /// The format.
    pub const fn format(&self) -> Format {
        self.format
    }

    /// The cap on the number of games, if any.
    pub const fn cap(&self) -> Option<u32> {
        self.cap
    }

    /// The most games this series can last, if bounded.
    pub fn max_games(&self) -> Option<u32> {
        let own = match self.format {
            Format::BestOf(n) => Some(n),
            _ => None,
        };
        match (own, self.cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Who moves first in the next game: the players alternate.
    pub fn first_mover(&self) -> Player {
        if self.results.len().is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The games so far, results from A's side.
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Games played.
    pub fn games_played(&self) -> u32 {
        self.score.games()
    }

    /// The game score.
    pub const fn score(&self) -> Score {
        self.score
    }

    /// The current winning streak: who and how long.
    pub const fn streak(&self) -> Option<(Player, u32)> {
        self.streak
    }

    /// Records one game (from A's side) and returns the outcome once the
    /// series is decided. A game recorded after the series is decided is
    /// ignored.
    pub fn record(&mut self, result: GameResult) -> Option<SeriesOutcome> {
        if self.outcome.is_some() {
            return self.outcome;
        }
        self.results.push(result);
        match result.winner() {
            Some(Player::A) => self.score.a_wins += 1,
            Some(Player::B) => self.score.b_wins += 1,
            None => self.score.draws += 1,
        }
        self.streak = match (result.winner(), self.streak) {
            (None, _) => None,
            (Some(w), Some((p, n))) if p == w => Some((w, n + 1)),
            (Some(w), _) => Some((w, 1)),
        };
        self.outcome = self.decide();
        self.outcome
    }

    fn decide(&self) -> Option<SeriesOutcome> {
        let Score { a_wins, b_wins, .. } = self.score;
        let played = self.games_played();
        let leader = match a_wins.cmp(&b_wins) {
            std::cmp::Ordering::Greater => Some(Player::A),
            std::cmp::Ordering::Less => Some(Player::B),
            std::cmp::Ordering::Equal => None,
        };
        let lead = a_wins.abs_diff(b_wins);
        let decided = match self.format {
            Format::FirstTo { wins, lead: need } => {
                if a_wins >= wins {
                    Some(Player::A)
                } else if b_wins >= wins {
                    Some(Player::B)
                } else if need.is_some_and(|need| lead >= need) {
                    leader
                } else {
                    None
                }
            }
            Format::BestOf(n) => {
                let left = n.saturating_sub(played);
                if lead > left {
                    leader
                } else if left == 0 {
                    return Some(SeriesOutcome::Drawn);
                } else {
                    None
                }
            }
            Format::Straight(n) => match self.streak {
                Some((p, len)) if len >= n => Some(p),
                _ => None,
            },
        };
        if let Some(p) = decided {
            return Some(SeriesOutcome::Won(p));
        }
        if self.cap.is_some_and(|cap| played >= cap) {
            return Some(leader.map_or(SeriesOutcome::Drawn, SeriesOutcome::Won));
        }
        None
    }

    /// How the series ended, `None` while it goes on.
    pub const fn outcome(&self) -> Option<SeriesOutcome> {
        self.outcome
    }

    /// The series winner, `None` while undecided or if drawn.
    pub fn winner(&self) -> Option<Player> {
        match self.outcome {
            Some(SeriesOutcome::Won(p)) => Some(p),
            _ => None,
        }
    }

    /// Whether the series is over.
    pub const fn is_decided(&self) -> bool {
        self.outcome.is_some()
    }
}

/// `A wins 6-3 (2 draws)`, `drawn 2-2 (1 draw)`, `A leads 2-1` (undecided).
impl fmt::Display for Series {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.score;
        match self.outcome {
            Some(SeriesOutcome::Won(p)) => {
                write!(f, "{p} wins {}-{}", s.wins(p), s.wins(p.other()))?
            }
            Some(SeriesOutcome::Drawn) => write!(f, "drawn {}-{}", s.a_wins, s.b_wins)?,
            None if s.a_wins >= s.b_wins => write!(f, "A leads {}-{}", s.a_wins, s.b_wins)?,
            None => write!(f, "B leads {}-{}", s.b_wins, s.a_wins)?,
        }
        match s.draws {
            0 => Ok(()),
            1 => write!(f, " (1 draw)"),
            n => write!(f, " ({n} draws)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::{Draw as D, Loss as L, Win as W};

    fn play(format: &str, results: &[GameResult]) -> Series {
        let mut series = Series::new(format.parse().unwrap());
        for (i, &r) in results.iter().enumerate() {
            assert!(!series.is_decided(), "decided before game {}", i + 1);
            series.record(r);
        }
        series
    }

    #[test]
    fn formats_parse_and_print() {
        for (text, format) in [
            (
                "first-to:5",
                Format::FirstTo {
                    wins: 5,
                    lead: None,
                },
            ),
            (
                "first-to:6,lead:3",
                Format::FirstTo {
                    wins: 6,
                    lead: Some(3),
                },
            ),
            ("best-of:5", Format::BestOf(5)),
            ("straight:3", Format::Straight(3)),
        ] {
            assert_eq!(text.parse::<Format>().unwrap(), format);
            assert_eq!(format.to_string(), text);
        }
        for bad in [
            "",
            "first-to",
            "first-to:0",
            "first-to:x",
            "best-of:-1",
            "first-to:6,lead:0",
            "first-to:6,foo:3",
            "straight:",
            "lots:3",
        ] {
            assert!(bad.parse::<Format>().is_err(), "{bad}");
        }
    }

    #[test]
    fn first_mover_alternates() {
        let mut series = Series::new(Format::FirstTo {
            wins: 3,
            lead: None,
        });
        let mut seen = Vec::new();
        for r in [W, D, L, D] {
            seen.push(series.first_mover());
            series.record(r);
        }
        assert_eq!(seen, [Player::A, Player::B, Player::A, Player::B]);
        let series = Series::new(Format::BestOf(3)).with_first_mover(Player::B);
        assert_eq!(series.first_mover(), Player::B);
    }

    #[test]
    fn first_to_counts_wins_not_draws() {
        let s = play("first-to:3", &[W, D, L, D, W, L, L]);
        assert_eq!(s.outcome(), Some(SeriesOutcome::Won(Player::B)));
        assert_eq!(s.to_string(), "B wins 3-2 (2 draws)");
    }

    #[test]
    fn first_to_six_lead_three_decided_by_the_lead() {
        // 4-1 after five games: lead 3 before anyone reaches 6.
        let s = play("first-to:6,lead:3", &[W, L, W, W, D, W]);
        assert_eq!(s.winner(), Some(Player::A));
        assert_eq!(
            s.score(),
            Score {
                a_wins: 4,
                b_wins: 1,
                draws: 1
            }
        );
        // B comes back from behind by the lead.
        let s = play("first-to:6,lead:3", &[W, L, L, L, L]);
        assert_eq!(s.winner(), Some(Player::B));
        assert_eq!(s.to_string(), "B wins 4-1");
        // ... or by the six wins, when the lead never reaches 3.
        let s = play("first-to:6,lead:3", &[W, L, W, L, W, L, W, L, W, L, W]);
        assert_eq!(s.to_string(), "A wins 6-5");
        let s = play(
            "first-to:6,lead:3",
            &[W, W, L, D, L, W, L, W, L, W, L, D, L],
        );
        assert_eq!(s.to_string(), "B wins 6-5 (2 draws)");
    }

    #[test]
    fn best_of_stops_when_the_trailer_cannot_catch_up() {
        // 2-0 with 3 left: B can still catch up (tie) — go on; 3-0 with 2 left: over.
        let s = play("best-of:5", &[W, W, W]);
        assert_eq!(s.to_string(), "A wins 3-0");
        // Draws count as games: 1-0 after 2 draws with 2 left goes on, 2-0 with 1 left stops.
        let s = play("best-of:5", &[D, W, D, W]);
        assert_eq!(s.to_string(), "A wins 2-0 (2 draws)");
        // Level after five games: drawn.
        let s = play("best-of:5", &[W, L, D, W, L]);
        assert_eq!(s.outcome(), Some(SeriesOutcome::Drawn));
        assert_eq!(s.winner(), None);
        assert_eq!(s.to_string(), "drawn 2-2 (1 draw)");
        let s = play("best-of:3", &[L, D, D]);
        assert_eq!(s.to_string(), "B wins 1-0 (2 draws)");
        let s = play("best-of:1", &[D]);
        assert_eq!(s.outcome(), Some(SeriesOutcome::Drawn));
    }

    #[test]
    fn straight_needs_wins_in_a_row_and_a_draw_breaks_a_streak() {
        let s = play("straight:3", &[W, W, D, W, W, L, W, W, W]);
        assert_eq!(s.to_string(), "A wins 7-1 (1 draw)");
        let s = play("straight:2", &[W, L, W, L, L]);
        assert_eq!(s.winner(), Some(Player::B));
        // The cap: the one with more wins takes it, level is drawn.
        let mut s = Series::new(Format::Straight(3)).with_cap(4);
        for r in [W, L, W, D] {
            s.record(r);
        }
        assert_eq!(s.to_string(), "A wins 2-1 (1 draw)");
        let mut s = Series::new(Format::Straight(3)).with_cap(2);
        s.record(W);
        assert!(!s.is_decided());
        s.record(L);
        assert_eq!(s.outcome(), Some(SeriesOutcome::Drawn));
        assert_eq!(s.max_games(), Some(2));
    }

    #[test]
    fn recording_after_the_end_is_ignored() {
        let mut s = play("first-to:1", &[W]);
        assert_eq!(s.record(L), Some(SeriesOutcome::Won(Player::A)));
        assert_eq!(s.games_played(), 1);
    }
}
