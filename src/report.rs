//! Human- and machine-readable descriptions of positions and games, shared
//! by the command-line tools.

use serde_json::{Value, json};

use crate::{Game, Move, Position, Side};

/// An ASCII diagram: North's row on top (pits `f`..`a` left to right),
/// South's row below (`A`..`F`), North's store on the left and South's on
/// the right.
pub fn board_diagram(pos: &Position) -> String {
    board_of(pos.pits(), pos.stores())
}

/// [`board_diagram`] of any game on this board: twelve pits and the two
/// stores.
pub fn board_of(pits: &[u8; 12], stores: [u8; 2]) -> String {
    let cells = |range: &mut dyn Iterator<Item = usize>| -> String {
        range.map(|p| format!("{:>3} |", pits[p])).collect()
    };
    let letters = |range: &mut dyn Iterator<Item = usize>| -> String {
        range
            .map(|p| format!("  {}  ", Move::new(p).letter()))
            .collect::<String>()
    };
    let rule = "     +-----+-----+-----+-----+-----+-----+";
    let [south, north] = stores;
    let mut out = String::new();
    out.push_str(&format!("      {}\n", letters(&mut (6..12).rev())));
    out.push_str(&format!("{rule}\n"));
    out.push_str(&format!(
        "     |{}\n",
        cells(&mut (6..12).rev()).replace(" |", "  |")
    ));
    out.push_str(&format!(
        "{north:>4} +-----+-----+-----+-----+-----+-----+ {south}\n"
    ));
    out.push_str(&format!(
        "     |{}\n",
        cells(&mut (0..6)).replace(" |", "  |")
    ));
    out.push_str(&format!("{rule}\n"));
    out.push_str(&format!("      {}\n", letters(&mut (0..6))));
    out
}

/// A side as JSON shows it: `S` or `N`.
pub fn side_letter(side: Side) -> String {
    side.letter().to_string()
}

/// The JSON object `show --json` prints for a game's current state.
pub fn game_json(game: &Game) -> Value {
    let pos = game.position();
    let outcome = game.outcome();
    json!({
        "position": pos.to_string(),
        "pits": pos.pits(),
        "stores": pos.stores(),
        "to_move": side_letter(pos.side_to_move()),
        "legal": game.legal_moves().iter().map(|m| m.letter().to_string()).collect::<Vec<_>>(),
        "status": if outcome.is_some() { "over" } else { "ongoing" },
        "winner": outcome.map(|o| o.winner.map_or("draw".to_string(), side_letter)),
        "reason": outcome.map(|o| o.reason.name()),
    })
}

/// The text `show` prints for a game's current state.
pub fn game_text(game: &Game) -> String {
    let pos = game.position();
    let mut out = board_diagram(pos);
    let [south, north] = pos.stores();
    out.push_str(&format!("Position:   {pos}\n"));
    out.push_str(&format!("Rules:      {}\n", game.rules()));
    out.push_str(&format!("To move:    {}\n", pos.side_to_move()));
    out.push_str(&format!("Stores:     South {south}, North {north}\n"));
    let legal: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
    out.push_str(&format!("Legal:      {}\n", legal.join(" ")));
    match game.outcome() {
        None => out.push_str("Status:     ongoing\n"),
        Some(o) => {
            let result = match o.winner {
                Some(side) => format!("{side} wins"),
                None => "draw".to_string(),
            };
            out.push_str(&format!(
                "Status:     over, {result} {south}-{north} ({})\n",
                o.reason
            ));
        }
    }
    out
}
