//! What `show` prints of a game of Mancala: the same shapes as for Oware.

use serde_json::Value;

use super::game::MancalaGame;
use super::position::MancalaPosition;
use super::rules::MancalaRules;
use crate::ogn::GameRecord;
use crate::report::{board_of, state_json};

/// The `Variant` tag of a Mancala record.
pub const VARIANT_TAG: &str = "Mancala";
/// The tag a record of a game under the empty capture carries, with the
/// value [`EMPTY_CAPTURE_ON`] (records of §7.4's game leave it out).
pub const EMPTY_CAPTURE_TAG: &str = "EmptyCapture";
/// The value of [`EMPTY_CAPTURE_TAG`] in a game under the empty capture.
pub const EMPTY_CAPTURE_ON: &str = "Yes";

/// The JSON object of `show --json`: `position`, `pits`, `stores`,
/// `to_move`, `legal`, `status`, `winner`, `reason`.
pub fn game_json(game: &MancalaGame) -> Value {
    let pos = game.position();
    let ending = game.end().map(|e| (game.winner(), e.name()));
    state_json(
        pos.to_string(),
        pos.pits(),
        pos.stores(),
        pos.side_to_move(),
        &game.legal_moves(),
        ending,
    )
}

/// The text of `show`: the board, the position string, the rules, whose
/// move, the stores, the legal moves and the status.
pub fn game_text(game: &MancalaGame, rules: MancalaRules) -> String {
    let pos = game.position();
    let mut out = board_of(pos.pits(), pos.stores());
    let [south, north] = pos.stores();
    out.push_str(&format!("Position:   {pos}\n"));
    out.push_str(&format!("Rules:      {rules}\n"));
    out.push_str(&format!("To move:    {}\n", pos.side_to_move()));
    out.push_str(&format!("Stores:     South {south}, North {north}\n"));
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    out.push_str(&format!("Legal:      {}\n", legal.join(" ")));
    match game.end() {
        None => out.push_str("Status:     ongoing\n"),
        Some(end) => {
            let result = match game.winner() {
                Some(side) => format!("{side} wins"),
                None => "draw".to_string(),
            };
            out.push_str(&format!(
                "Status:     over, {result} {south}-{north} ({end})\n"
            ));
        }
    }
    out
}

/// A record of `game` in the Aualé GUI's style (see
/// [`GameRecord::from_game`]): its `Variant` tag `Mancala`, a `FEN` tag
/// when the game did not start from three seeds a house, and
/// `[EmptyCapture "Yes"]` when it is played under the empty capture.
pub fn record(game: &MancalaGame, tags: &[(&str, &str)]) -> GameRecord {
    let first = game.start();
    let result = game.end().map(|_| game.position().stores());
    let standard = MancalaPosition::start(3).with_empty_capture(first.empty_capture());
    let start = (*first != standard).then(|| first.to_string());
    let mut record = GameRecord::with_gui_tags(VARIANT_TAG, result, start, tags);
    if first.empty_capture() {
        record
            .tags
            .push((EMPTY_CAPTURE_TAG.into(), EMPTY_CAPTURE_ON.into()));
    }
    for (&mv, sowing) in game.moves().iter().zip(game.sowings()) {
        record.moves.push(mv);
        record
            .captures
            .push((sowing.captured > 0).then_some(sowing.captured));
    }
    record
}
