//! What the arena needs of a game: [`ArenaGame`], which the referee, the
//! runner, the openings, the records and the players are generic over.
//! It extends the searcher's [`SearchGame`] (the built-in player searches
//! with `Engine<G>`) with a game's match rules, its referee's view of a
//! game in progress, its records and what an external engine is told.
//! Oware ([`Oware`]) and Arabic Mancala ([`Mancala`]) implement it, each
//! with its own rules code: nothing of a game's rules is copied here.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::mancala::tables::{MancalaTables, none_found, search_folder};
use crate::mancala::{Mancala, MancalaGame, MancalaPosition, MancalaRules, report};
use crate::ogn::GameRecord;
use crate::search::{EvalChoice, Oware, SearchGame};
use crate::tb::Tablebase;
use crate::tb::board::relative;
use crate::tb::probe::{Verdict, board_value};
use crate::{Game, Move, Position, Rules, Side, format_moves};

/// How a game ended by its rules: the winner (`None`: a draw) and the
/// reason's short name.
pub type Ending = (Option<Side>, &'static str);

/// A UCI option an external engine is set to before a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciSetting {
    /// The option's name.
    pub name: &'static str,
    /// Its value.
    pub value: String,
    /// An engine without this option cannot play the match (otherwise it
    /// is only set when the engine has it).
    pub required: bool,
}

/// A game the arena can referee. The game in progress is the searcher's
/// [`SearchGame::Game`]; its moves are checked and its endings applied by
/// the game's own rules code.
pub trait ArenaGame:
    SearchGame<Position: PartialEq + fmt::Display, Game: fmt::Debug> + Clone + fmt::Debug
{
    /// The rules of a match: the start and the ending options.
    type MatchRules: Copy + fmt::Debug + PartialEq + Send + Sync + 'static;

    /// The start position of `rules`.
    fn start(rules: Self::MatchRules) -> Self::Position;
    /// Reads a position string under `rules`.
    fn parse_position(text: &str, rules: Self::MatchRules) -> Result<Self::Position, String>;
    /// A game from `start`.
    fn new_game(start: Self::Position, rules: Self::MatchRules) -> Self::Game;
    /// The position the game started from.
    fn first(game: &Self::Game) -> &Self::Position;
    /// The current position.
    fn current(game: &Self::Game) -> &Self::Position;
    /// The moves played.
    fn moves(game: &Self::Game) -> &[Move];
    /// The legal moves now.
    fn legal(game: &Self::Game) -> Vec<Move>;
    /// Plays a move, checked by the rules.
    fn play_move(game: &mut Self::Game, mv: Move) -> Result<(), String>;
    /// How the game ended by its rules, if it has.
    fn ending(game: &Self::Game) -> Option<Ending>;
    /// The stores, South's and North's.
    fn stores(game: &Self::Game) -> [u8; 2];
    /// The tables' exact verdict on the current position for its side to
    /// move, and the seeds on the board, when the tables hold one.
    fn adjudicate(game: &Self::Game, tables: &Self::Tables) -> Option<(Verdict, u8)>;
    /// The OGN record of the game with `tags`.
    fn record(game: &Self::Game, tags: &[(&str, &str)]) -> GameRecord;
    /// The options an external engine is set to for games under `rules`.
    fn uci_settings(rules: Self::MatchRules) -> Vec<UciSetting>;
    /// The `position …` command for `game`.
    fn position_command(game: &Self::Game) -> String;
    /// The built-in engine's tables and evaluation under `rules`, from the
    /// options `db` (a table folder), `tb-limit` and `eval` (a weights or
    /// network file) of `self:…`.
    fn engine_setup(
        rules: Self::MatchRules,
        db: Option<&Path>,
        tb_limit: usize,
        eval: Option<&Path>,
    ) -> Result<EngineSetup<Self>, String>;
}

/// The built-in engine's tables and evaluation.
pub type EngineSetup<G> = (
    Option<Arc<<G as SearchGame>::Tables>>,
    <G as SearchGame>::Params,
);

impl ArenaGame for Oware {
    type MatchRules = Rules;

    fn start(_: Rules) -> Position {
        Position::START
    }

    fn parse_position(text: &str, _: Rules) -> Result<Position, String> {
        text.parse().map_err(|e| format!("{e}"))
    }

    fn new_game(start: Position, rules: Rules) -> Game {
        Game::new(start, rules)
    }

    fn first(game: &Game) -> &Position {
        game.start()
    }

    fn current(game: &Game) -> &Position {
        game.position()
    }

    fn moves(game: &Game) -> &[Move] {
        game.moves()
    }

    fn legal(game: &Game) -> Vec<Move> {
        game.legal_moves()
    }

    fn play_move(game: &mut Game, mv: Move) -> Result<(), String> {
        game.play(mv).map(drop).map_err(|e| e.to_string())
    }

    fn ending(game: &Game) -> Option<Ending> {
        game.outcome().map(|o| (o.winner, o.reason.name()))
    }

    fn stores(game: &Game) -> [u8; 2] {
        game.position().stores()
    }

    fn adjudicate(game: &Game, tables: &Tablebase) -> Option<(Verdict, u8)> {
        let pos = game.position();
        let seeds = pos.seeds_on_board() as u8;
        // The tables assume the default ending rules of their variant.
        if *game.rules() != Rules::of(tables.variant()) || !tables.has_level(seeds as usize) {
            return None;
        }
        let value = board_value(tables, &relative(pos), seeds as usize).ok()?;
        let me = pos.side_to_move();
        let verdict = Verdict::of(
            tables.variant(),
            value,
            seeds,
            pos.store(me),
            pos.store(me.opponent()),
        );
        (verdict != Verdict::DependsOnHistory).then_some((verdict, seeds))
    }

    fn record(game: &Game, tags: &[(&str, &str)]) -> GameRecord {
        GameRecord::from_game(game, tags)
    }

    fn uci_settings(_: Rules) -> Vec<UciSetting> {
        Vec::new()
    }

    fn position_command(game: &Game) -> String {
        let start = (*game.start() != Position::START).then(|| game.start().to_string());
        command(start, game.moves())
    }

    fn engine_setup(
        rules: Rules,
        db: Option<&Path>,
        tb_limit: usize,
        eval: Option<&Path>,
    ) -> Result<EngineSetup<Oware>, String> {
        let params = match eval {
            Some(path) => EvalChoice::load(path).map_err(|e| e.to_string())?,
            None => EvalChoice::DEFAULT,
        };
        let Some(dir) = db else {
            return Ok((None, params));
        };
        if !dir.is_dir() {
            return Err(format!("table folder {} not found", dir.display()));
        }
        let tables = Tablebase::open_for_search(dir, rules.variant, tb_limit)
            .map_err(|e| format!("cannot open the tables in {}: {e}", dir.display()))?;
        Ok((tables.complete_up_to().map(|_| Arc::new(tables)), params))
    }
}

impl ArenaGame for Mancala {
    type MatchRules = MancalaRules;

    fn start(rules: MancalaRules) -> MancalaPosition {
        rules.start()
    }

    fn parse_position(text: &str, rules: MancalaRules) -> Result<MancalaPosition, String> {
        let pos: MancalaPosition = text.parse().map_err(|e| format!("{e}"))?;
        Ok(pos.with_empty_capture(rules.empty_capture))
    }

    fn new_game(start: MancalaPosition, _: MancalaRules) -> MancalaGame {
        MancalaGame::new(start)
    }

    fn first(game: &MancalaGame) -> &MancalaPosition {
        game.start()
    }

    fn current(game: &MancalaGame) -> &MancalaPosition {
        game.position()
    }

    fn moves(game: &MancalaGame) -> &[Move] {
        game.moves()
    }

    fn legal(game: &MancalaGame) -> Vec<Move> {
        game.legal_moves().to_vec()
    }

    fn play_move(game: &mut MancalaGame, mv: Move) -> Result<(), String> {
        game.play(mv).map(drop).map_err(|e| e.to_string())
    }

    fn ending(game: &MancalaGame) -> Option<Ending> {
        game.end().map(|end| (game.winner(), end.name()))
    }

    fn stores(game: &MancalaGame) -> [u8; 2] {
        game.position().stores()
    }

    /// Exact where the search takes the tables as exact: the board's level
    /// is open, the tables follow the game's capture convention, and no
    /// store can reach 25 (§7.6).
    fn adjudicate(game: &MancalaGame, tables: &MancalaTables) -> Option<(Verdict, u8)> {
        let pos = game.position();
        if !pos.stop_out_of_reach() {
            return None;
        }
        let value = i32::from(tables.probe(pos)?);
        let me = pos.side_to_move();
        let margin = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent())) + value;
        let verdict = match margin.signum() {
            1 => Verdict::ForcedWin,
            -1 => Verdict::ForcedLoss,
            _ => Verdict::ForcedDraw,
        };
        Some((verdict, pos.seeds_on_board()))
    }

    fn record(game: &MancalaGame, tags: &[(&str, &str)]) -> GameRecord {
        report::record(game, tags)
    }

    /// The rule set, the start and the capture convention; an engine that
    /// cannot be told the empty capture cannot play it.
    fn uci_settings(rules: MancalaRules) -> Vec<UciSetting> {
        vec![
            UciSetting {
                name: "Rules",
                value: "mancala".into(),
                required: false,
            },
            UciSetting {
                name: "StartSeeds",
                value: rules.start_seeds.to_string(),
                required: false,
            },
            UciSetting {
                name: "EmptyCapture",
                value: rules.empty_capture.to_string(),
                required: rules.empty_capture,
            },
        ]
    }

    /// Always the start's position string: an engine's `startpos` is its
    /// own setting of the start seeds.
    fn position_command(game: &MancalaGame) -> String {
        command(Some(game.start().to_string()), game.moves())
    }

    /// Mancala's evaluation has no weights file; its tables are those of
    /// the game's capture convention in `db` (or its `mancala` subfolder).
    fn engine_setup(
        rules: MancalaRules,
        db: Option<&Path>,
        tb_limit: usize,
        eval: Option<&Path>,
    ) -> Result<EngineSetup<Mancala>, String> {
        if let Some(path) = eval {
            return Err(format!(
                "eval={}: {}",
                path.display(),
                crate::mancala::NO_EVAL_FILE
            ));
        }
        let params = <Mancala as SearchGame>::PARAMS;
        let Some(dir) = db else {
            return Ok((None, params));
        };
        let dir = search_folder(dir, true);
        if !dir.is_dir() {
            return Err(format!("table folder {} not found", dir.display()));
        }
        let tables = MancalaTables::open_for_search(&dir, rules, tb_limit)
            .map_err(|e| format!("cannot open the tables in {}: {e}", dir.display()))?;
        if tables.levels().present().is_empty() {
            return Err(none_found(&dir, rules));
        }
        Ok((Some(Arc::new(tables)), params))
    }
}

/// `position startpos` or `position fen START`, then the moves.
fn command(start: Option<String>, moves: &[Move]) -> String {
    let mut cmd = match start {
        None => "position startpos".to_string(),
        Some(fen) => format!("position fen {fen}"),
    };
    if !moves.is_empty() {
        cmd.push_str(" moves ");
        cmd.push_str(&format_moves(moves));
    }
    cmd
}
