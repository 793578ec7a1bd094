//! The record of a played game: OGN with the match's tags.

use std::time::Duration;

use super::game::ArenaGame;
use super::referee::PlayedGame;
use crate::Side;
use crate::ogn::GameRecord;

/// What the record says besides the game.
pub struct RecordInfo<'a> {
    /// The event (the match).
    pub event: &'a str,
    /// The game's number in the match.
    pub round: u64,
    /// South's engine.
    pub south: &'a str,
    /// North's engine.
    pub north: &'a str,
    /// South's and North's time controls, e.g. `movetime 100 ms` or
    /// `10+0.1`.
    pub time_controls: [&'a str; 2],
    /// With a clock: how far past its time an engine may answer.
    pub clock_margin: Option<Duration>,
}

/// The OGN record of `played`: the game with the tags Event, Round, South,
/// North, TimeControl (SouthTimeControl and NorthTimeControl when they
/// differ), Termination, Winner (South, North or draw; the Result tag gives
/// the stores), and with a clock the time left of each side
/// at the end and the margin; the game's own tags besides (Mancala's
/// `Variant` and `EmptyCapture`). Each move the engines played is followed
/// by the time it took, as a comment (`{0.250s}`).
pub fn record<G: ArenaGame>(played: &PlayedGame<G>, info: &RecordInfo<'_>) -> GameRecord {
    let round = info.round.to_string();
    let termination = played.termination.tag();
    let winner = match played.winner {
        Some(Side::South) => "South",
        Some(Side::North) => "North",
        None => "draw",
    };
    let secs = |d: Duration| format!("{:.3}", d.as_secs_f64());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", info.event.to_string()),
        ("Round", round),
        ("South", info.south.to_string()),
        ("North", info.north.to_string()),
    ];
    match info.time_controls {
        [south, north] if south == north => tags.push(("TimeControl", south.to_string())),
        [south, north] => {
            tags.push(("SouthTimeControl", south.to_string()));
            tags.push(("NorthTimeControl", north.to_string()));
        }
    }
    tags.push(("Termination", termination));
    tags.push(("Winner", winner.to_string()));
    if let Some(left) = played.time_left {
        tags.push(("SouthTimeLeft", secs(left[0])));
        tags.push(("NorthTimeLeft", secs(left[1])));
    }
    if let Some(margin) = info.clock_margin {
        tags.push(("ClockMargin", secs(margin)));
    }
    let borrowed: Vec<(&str, &str)> = tags.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut rec = G::record(&played.game, &borrowed);
    // Each move the engines played carries the time it took; the
    // opening's moves come first and carry none.
    let opening = rec.moves.len().saturating_sub(played.move_times.len());
    rec.comments = vec![None; opening];
    rec.comments.extend(
        played
            .move_times
            .iter()
            .map(|t| Some(format!("{:.3}s", t.as_secs_f64()))),
    );
    // An adjudicated or forfeited game is over although the rules did not
    // end it: the Result tag gives the stores then too.
    if G::ending(&played.game).is_none() {
        rec.set_result(G::stores(&played.game));
    }
    rec
}
