//! The two games the server plays behind one face: the rule set a game is
//! created with ([`GameRules`]: one of Oware's, or Arabic Mancala's
//! settings) and its referee ([`Referee`]: Oware's [`Game`] or Mancala's
//! [`MancalaGame`], never a copy of their rules).

use serde_json::Value;

use crate::mancala::{self, MancalaGame, MancalaPosition, MancalaRules};
use crate::ogn::GameRecord;
use crate::{Game, Move, Position, RuleSet, Rules, Side, Variant, report};

/// The rule set of a game on the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameRules {
    /// Oware: a variant and the optional cap on half-moves without a capture.
    Oware(Rules),
    /// Arabic Mancala (RULES.md §7): the start seeds and the capture
    /// convention.
    Mancala(MancalaRules),
}

/// Why a rule set cannot be had from the settings given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// An unknown rule-set name.
    #[error(transparent)]
    Unknown(#[from] crate::rules::UnknownRules),
    /// Start seeds other than 3, 4, 5 or 7 for Mancala.
    #[error("start_seeds {0}: mancala starts with 3, 4, 5 or 7 seeds a house")]
    MancalaSeeds(u64),
    /// Start seeds other than 4 for Oware.
    #[error("start_seeds {0}: Oware starts with 4 seeds a house")]
    OwareSeeds(u64),
    /// The empty capture asked for in Oware.
    #[error("empty_capture applies only to rules 'mancala'")]
    EmptyCaptureInOware,
    /// A move cap asked for in Mancala.
    #[error("move_cap does not apply to mancala (its games have no cycles)")]
    MoveCapInMancala,
    /// A move cap out of range.
    #[error("move_cap must be between 1 and 1000 (or null)")]
    MoveCap,
}

impl GameRules {
    /// The rules from the settings of a request or a stored game: the
    /// rule set's name (`abapa` when none), the cap on half-moves without
    /// a capture (Oware), the seeds a house at the start and the empty
    /// capture (Mancala).
    pub fn from_settings(
        name: Option<&str>,
        move_cap: Option<u32>,
        start_seeds: Option<u64>,
        empty_capture: Option<bool>,
    ) -> Result<GameRules, RulesError> {
        let set = match name {
            None => RuleSet::Oware(Variant::Abapa),
            Some(s) => s.parse::<RuleSet>()?,
        };
        if matches!(move_cap, Some(0) | Some(1001..)) {
            return Err(RulesError::MoveCap);
        }
        match set {
            RuleSet::Oware(variant) => {
                if let Some(k) = start_seeds.filter(|&k| k != 4) {
                    return Err(RulesError::OwareSeeds(k));
                }
                if empty_capture == Some(true) {
                    return Err(RulesError::EmptyCaptureInOware);
                }
                Ok(GameRules::Oware(
                    Rules::of(variant).with_no_capture_limit(move_cap),
                ))
            }
            RuleSet::Mancala => {
                if move_cap.is_some() {
                    return Err(RulesError::MoveCapInMancala);
                }
                let seeds = start_seeds.unwrap_or(3);
                let rules = MancalaRules::new(
                    u8::try_from(seeds).map_err(|_| RulesError::MancalaSeeds(seeds))?,
                    empty_capture.unwrap_or(false),
                );
                if !rules.start_seeds_valid() {
                    return Err(RulesError::MancalaSeeds(seeds));
                }
                Ok(GameRules::Mancala(rules))
            }
        }
    }

    /// The rule set's name: an Oware variant's, or `mancala`.
    pub const fn name(self) -> &'static str {
        match self {
            GameRules::Oware(rules) => rules.variant.name(),
            GameRules::Mancala(_) => "mancala",
        }
    }

    /// The cap on half-moves without a capture (Oware only).
    pub const fn move_cap(self) -> Option<u32> {
        match self {
            GameRules::Oware(rules) => rules.no_capture_limit,
            GameRules::Mancala(_) => None,
        }
    }

    /// Seeds a house at the start of the rule set: 4 for Oware.
    pub const fn start_seeds(self) -> u8 {
        match self {
            GameRules::Oware(_) => 4,
            GameRules::Mancala(rules) => rules.start_seeds,
        }
    }

    /// Whether a lone last seed in an empty own house goes to the store
    /// (Mancala's setting; never in Oware).
    pub const fn empty_capture(self) -> bool {
        match self {
            GameRules::Oware(_) => false,
            GameRules::Mancala(rules) => rules.empty_capture,
        }
    }

    /// The rules a record names: Mancala for `[Variant "Mancala"]` (under
    /// the empty capture with `[EmptyCapture "Yes"]`, the start seeds those
    /// of a `FEN` tag holding a start), else the Oware variant of its
    /// `Variant` tag (Abapa when none is known).
    pub fn of_record(record: &GameRecord) -> GameRules {
        let mancala = record
            .tag("Variant")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case(mancala::report::VARIANT_TAG));
        if !mancala {
            return GameRules::Oware(Rules::of(record.variant().unwrap_or(Variant::Abapa)));
        }
        let empty = record
            .tag(mancala::report::EMPTY_CAPTURE_TAG)
            .is_some_and(|v| v.eq_ignore_ascii_case(mancala::report::EMPTY_CAPTURE_ON));
        let seeds = record
            .tag("FEN")
            .and_then(|fen| fen.parse::<MancalaPosition>().ok())
            .and_then(|pos| {
                mancala::START_SEEDS
                    .into_iter()
                    .find(|&k| pos == MancalaPosition::start(k))
            })
            .unwrap_or(3);
        GameRules::Mancala(MancalaRules::new(seeds, empty))
    }

    /// A new game under these rules from `start`, a position string (the
    /// rules' start for none, `""` or `startpos`).
    pub fn new_game(self, start: Option<&str>) -> Result<Referee, String> {
        let start = match start.map(str::trim) {
            None | Some("") | Some("startpos") => None,
            Some(s) => Some(s),
        };
        let bad = |s: &str, e: &dyn std::fmt::Display| {
            let s: String = s.chars().take(80).collect();
            format!("bad position '{s}': {e}")
        };
        Ok(match self {
            GameRules::Oware(rules) => {
                let pos = match start {
                    None => Position::START,
                    Some(s) => s.parse::<Position>().map_err(|e| bad(s, &e))?,
                };
                Referee::Oware(Game::new(pos, rules))
            }
            GameRules::Mancala(rules) => {
                let pos = match start {
                    None => rules.start(),
                    Some(s) => s
                        .parse::<MancalaPosition>()
                        .map_err(|e| bad(s, &e))?
                        .with_empty_capture(rules.empty_capture),
                };
                Referee::Mancala(rules, MancalaGame::new(pos))
            }
        })
    }
}

/// What one move did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Seeds captured (Mancala: taken from the opposite house).
    pub captured: u8,
    /// The last seed landed in the mover's store: the same side moves
    /// again (Mancala only).
    pub another_go: bool,
}

/// The referee of one game on the server.
#[derive(Clone, Debug)]
pub enum Referee {
    /// A game of Oware.
    Oware(Game),
    /// A game of Mancala under its rules.
    Mancala(MancalaRules, MancalaGame),
}

impl Referee {
    /// The rules of the game.
    pub fn rules(&self) -> GameRules {
        match self {
            Referee::Oware(game) => GameRules::Oware(*game.rules()),
            Referee::Mancala(rules, _) => GameRules::Mancala(*rules),
        }
    }

    /// The same game back at its start.
    pub fn restarted(&self) -> Referee {
        match self {
            Referee::Oware(game) => Referee::Oware(Game::new(*game.start(), *game.rules())),
            Referee::Mancala(rules, game) => {
                Referee::Mancala(*rules, MancalaGame::new(*game.start()))
            }
        }
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        match self {
            Referee::Oware(game) => game.moves(),
            Referee::Mancala(_, game) => game.moves(),
        }
    }

    /// Plays `mv`, or says why it cannot be played.
    pub fn play(&mut self, mv: Move) -> Result<Played, String> {
        match self {
            Referee::Oware(game) => game
                .play(mv)
                .map(|captured| Played {
                    captured,
                    another_go: false,
                })
                .map_err(|e| e.to_string()),
            Referee::Mancala(_, game) => game
                .play(mv)
                .map(|s| Played {
                    captured: s.captured,
                    another_go: s.another_go,
                })
                .map_err(|e| e.to_string()),
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        match self {
            Referee::Oware(game) => game.position().side_to_move(),
            Referee::Mancala(_, game) => game.position().side_to_move(),
        }
    }

    /// The legal moves (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        match self {
            Referee::Oware(game) => game.legal_moves(),
            Referee::Mancala(_, game) => game.legal_moves().to_vec(),
        }
    }

    /// How the game ended on the board, if it has: the winner (`None`
    /// for a draw) and the reason's name (Oware's, or Mancala's
    /// `all-stored`, `one-row`, `stop`).
    pub fn outcome(&self) -> Option<(Option<Side>, &'static str)> {
        match self {
            Referee::Oware(game) => game.outcome().map(|o| (o.winner, o.reason.name())),
            Referee::Mancala(_, game) => game.end().map(|e| (game.winner(), e.name())),
        }
    }

    /// South's and North's stores now.
    pub fn stores(&self) -> [u8; 2] {
        match self {
            Referee::Oware(game) => game.position().stores(),
            Referee::Mancala(_, game) => game.position().stores(),
        }
    }

    /// The start position's string.
    pub fn start_string(&self) -> String {
        match self {
            Referee::Oware(game) => game.start().to_string(),
            Referee::Mancala(_, game) => game.start().to_string(),
        }
    }

    /// For each move, whether it gave another go.
    pub fn another_goes(&self) -> Vec<bool> {
        match self {
            Referee::Oware(game) => vec![false; game.moves().len()],
            Referee::Mancala(_, game) => game.sowings().iter().map(|s| s.another_go).collect(),
        }
    }

    /// The object of `show --json` for the game now.
    pub fn show_json(&self) -> Value {
        match self {
            Referee::Oware(game) => report::game_json(game),
            Referee::Mancala(_, game) => mancala::report::game_json(game),
        }
    }

    /// The game's record as `show --emit-ogn` writes it (with `tags`).
    pub fn record(&self, tags: &[(&str, &str)]) -> GameRecord {
        match self {
            Referee::Oware(game) => GameRecord::from_game(game, tags),
            Referee::Mancala(_, game) => mancala::report::record(game, tags),
        }
    }

    /// The game a record holds under `rules`: its start from the `FEN`
    /// tag, every move checked with its capture mark. A Mancala record
    /// whose `EmptyCapture` tag disagrees with the rules is refused.
    pub fn from_record(record: &GameRecord, rules: GameRules) -> Result<Referee, String> {
        if let (GameRules::Mancala(m), Some(value)) =
            (rules, record.tag(mancala::report::EMPTY_CAPTURE_TAG))
            && value.eq_ignore_ascii_case(mancala::report::EMPTY_CAPTURE_ON) != m.empty_capture
        {
            return Err(format!(
                "the record is tagged [{} \"{value}\"], the game is {}",
                mancala::report::EMPTY_CAPTURE_TAG,
                if m.empty_capture {
                    "under the empty capture"
                } else {
                    "without the empty capture"
                }
            ));
        }
        let mut game = rules.new_game(record.tag("FEN"))?;
        for (i, &mv) in record.moves.iter().enumerate() {
            let played = game
                .play(mv)
                .map_err(|e| format!("move {} ({mv}) cannot be played: {e}", i + 1))?;
            if let Some(marked) = record.captures.get(i).copied().flatten()
                && marked != played.captured
            {
                return Err(format!(
                    "move {} ({mv}) is marked +{marked} but captures {}",
                    i + 1,
                    played.captured
                ));
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked_up_front() {
        let mancala = |seeds, empty| GameRules::from_settings(Some("mancala"), None, seeds, empty);
        assert_eq!(
            mancala(None, None),
            Ok(GameRules::Mancala(MancalaRules::DEFAULT))
        );
        for k in [3, 4, 5, 7] {
            assert_eq!(mancala(Some(k), Some(true)).unwrap().start_seeds(), k as u8);
        }
        for k in [0, 1, 2, 6, 8, 256, u64::MAX] {
            assert_eq!(mancala(Some(k), None), Err(RulesError::MancalaSeeds(k)));
        }
        assert_eq!(
            GameRules::from_settings(Some("mancala"), Some(100), None, None),
            Err(RulesError::MoveCapInMancala)
        );
        assert_eq!(
            GameRules::from_settings(Some("awari"), None, Some(3), None),
            Err(RulesError::OwareSeeds(3))
        );
        assert_eq!(
            GameRules::from_settings(None, None, None, Some(true)),
            Err(RulesError::EmptyCaptureInOware)
        );
        let oware = GameRules::from_settings(None, Some(100), Some(4), Some(false)).unwrap();
        assert_eq!(oware.name(), "abapa");
        assert_eq!(oware.move_cap(), Some(100));
        assert!(GameRules::from_settings(Some("kalah"), None, None, None).is_err());
    }

    #[test]
    fn a_mancala_game_keeps_the_side_after_another_go_and_ends_by_the_rules() {
        let rules = GameRules::Mancala(MancalaRules::DEFAULT);
        let mut game = rules.new_game(None).unwrap();
        // D from three seeds a house: E, F, the store: another go.
        let played = game.play(Move::from_letter('D').unwrap()).unwrap();
        assert!(played.another_go);
        assert_eq!(game.side_to_move(), Side::South);
        assert_eq!(game.stores(), [1, 0]);
        assert!(game.play(Move::from_letter('a').unwrap()).is_err());
        // A board all in one row is over: its seeds go to that row's owner.
        let mut swept = rules
            .new_game(Some("0-0-0-0-0-1-2-0-0-0-0-0-10-10-S"))
            .unwrap();
        swept.play(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(swept.outcome(), Some((Some(Side::North), "one-row")));
        assert_eq!(swept.stores(), [11, 12]);
        assert!(swept.legal_moves().is_empty());
    }
}
