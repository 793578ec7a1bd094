//! `oware show`: a position, after optional moves or an OGN record.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::Args;

use oware::mancala::{self, MancalaGame, MancalaPosition, MancalaRules};
use oware::ogn::GameRecord;
use oware::{Game, parse_moves, report};

use super::common::{Choice, POSITION_HELP, RulesArgs, parse_position};
use super::output;

/// Arguments of `oware show`.
#[derive(Args)]
pub struct ShowArgs {
    #[arg(help = POSITION_HELP, value_name = "POSITION")]
    position: Option<String>,
    /// Moves to play first, concatenated (`FfBe`) or spaced (`"F f B e"`).
    #[arg(long, value_name = "LIST")]
    moves: Option<String>,
    /// Read the game from an OGN record instead (its FEN tag and moves).
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    ogn: Option<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Print the JSON object for the start and after every move (JSON Lines).
    #[arg(long, conflicts_with = "json")]
    trace: bool,
    /// Print the game as an OGN record.
    #[arg(long, conflicts_with_all = ["json", "trace"])]
    emit_ogn: bool,
    #[command(flatten)]
    rules: RulesArgs,
}

/// Runs `oware show`.
pub fn run(args: ShowArgs) -> Result<()> {
    let rules = match args.rules.choice()? {
        Choice::Oware(rules) => rules,
        Choice::Mancala(rules) => return run_mancala(&args, rules),
    };
    let (start, mut moves) = match &args.ogn {
        Some(path) => {
            let record = read_record(path)?;
            record.replay(rules)?; // the moves and their capture marks (`a+2`)
            (record.start()?, record.moves)
        }
        None => (parse_position(args.position.as_deref())?, Vec::new()),
    };
    if let Some(list) = &args.moves {
        moves.extend(parse_moves(list).context("bad move list")?);
    }
    let mut game = Game::new(start, rules);
    if args.trace {
        output::line(report::game_json(&game));
    }
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv)
            .with_context(|| format!("move {} ({mv}) cannot be played", i + 1))?;
        if args.trace {
            output::line(report::game_json(&game));
        }
    }
    if args.json {
        output::line(report::game_json(&game));
    } else if args.emit_ogn {
        output::text(GameRecord::from_game(&game, &[("Event", "oware show")]));
    } else if !args.trace {
        output::text(report::game_text(&game));
    }
    Ok(())
}

fn read_record(path: &Path) -> Result<GameRecord> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    GameRecord::parse(&text).with_context(|| format!("bad OGN record {}", path.display()))
}

/// `show --rules mancala`: the same outputs for a game of Mancala.
fn run_mancala(args: &ShowArgs, rules: MancalaRules) -> Result<()> {
    let parse = |text: &str| -> Result<MancalaPosition> {
        let pos: MancalaPosition = text
            .parse()
            .with_context(|| format!("bad position '{}'", oware::rules::notation::excerpt(text)))?;
        Ok(pos.with_empty_capture(rules.empty_capture))
    };
    let (start, mut moves, marks) = match &args.ogn {
        Some(path) => {
            let record = read_record(path)?;
            let tagged = record.tag(mancala::report::EMPTY_CAPTURE_TAG);
            if let Some(value) = tagged
                && value.eq_ignore_ascii_case(mancala::report::EMPTY_CAPTURE_ON)
                    != rules.empty_capture
            {
                bail!(
                    "{} is tagged [{} \"{value}\"]: {} --empty-capture",
                    path.display(),
                    mancala::report::EMPTY_CAPTURE_TAG,
                    if rules.empty_capture {
                        "play it without"
                    } else {
                        "play it with"
                    },
                );
            }
            let start = match record.tag("FEN") {
                Some(fen) => parse(fen)?,
                None => rules.start(),
            };
            (start, record.moves, record.captures)
        }
        None => match args.position.as_deref() {
            None | Some("startpos") => (rules.start(), Vec::new(), Vec::new()),
            Some(text) => (parse(text)?, Vec::new(), Vec::new()),
        },
    };
    if let Some(list) = &args.moves {
        moves.extend(parse_moves(list).context("bad move list")?);
    }
    let mut game = MancalaGame::new(start);
    if args.trace {
        output::line(mancala::report::game_json(&game));
    }
    for (i, &mv) in moves.iter().enumerate() {
        let sowing = game
            .play(mv)
            .with_context(|| format!("move {} ({mv}) cannot be played", i + 1))?;
        if let Some(&Some(marked)) = marks.get(i)
            && marked != sowing.captured
        {
            bail!(
                "move {} ({mv}) is marked +{marked} but captures {}",
                i + 1,
                sowing.captured
            );
        }
        if args.trace {
            output::line(mancala::report::game_json(&game));
        }
    }
    if args.json {
        output::line(mancala::report::game_json(&game));
    } else if args.emit_ogn {
        output::text(mancala::report::record(&game, &[("Event", "oware show")]));
    } else if !args.trace {
        output::text(mancala::report::game_text(&game, rules));
    }
    Ok(())
}
