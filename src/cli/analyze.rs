//! `oware analyze`: a score and principal variation for every legal move.

use anyhow::Result;
use oware::format_moves;
use oware::mancala::Mancala;
use oware::search::{self, Engine, Limits, Oware, SearchGame};

use super::bestmove::SearchArgs;
use super::common::{
    Choice, Decoding, game_from, limits_from, make_engine, mancala_engine, mancala_game_from,
};
use super::output;

/// Runs `oware analyze`.
pub fn run(args: SearchArgs) -> Result<()> {
    let limits = limits_from(args.depth, args.movetime, 1000);
    let (position, moves) = (args.position.as_deref(), args.moves.as_deref());
    match args.rules.choice()? {
        Choice::Oware(rules) => {
            let game = game_from(position, moves, rules)?;
            let engine = make_engine(&args.engine, rules.variant, Decoding::Alongside)?;
            print::<Oware>(&engine, &game, game.position(), &limits, args.json)
        }
        Choice::Mancala(rules) => {
            let game = mancala_game_from(position, moves, rules)?;
            let engine = mancala_engine(&args.engine, rules)?;
            print::<Mancala>(&engine, &game, game.position(), &limits, args.json)
        }
    }
}

/// Analyses `game`, whose position is `position`, and prints a move a
/// line, best first, or the JSON object.
fn print<G: SearchGame>(
    engine: &Engine<G>,
    game: &G::Game,
    position: &impl std::fmt::Display,
    limits: &Limits,
    json: bool,
) -> Result<()> {
    let rows = search::analyze::analyze(engine, game, limits)?;
    if json {
        let tables = engine.tables().map(|t| &**t);
        output::line(search::report::analysis_json::<G>(
            game, position, &rows, tables,
        ));
    } else {
        for r in rows {
            let it = &r.result.last;
            output::line(format_args!(
                "{}  {:>11}  depth {:>2}  pv {}",
                r.mv,
                search::report::format_score::<G>(it.score, it.solved),
                it.depth,
                format_moves(&it.pv)
            ));
        }
    }
    Ok(())
}
