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

/// How a finished game ended, as `state_json` shows it: the winner (`None`
/// for a draw) and the end reason's name.
pub type Ending = (Option<Side>, &'static str);

/// The JSON object `show --json` prints for any game on this board:
/// `position`, `pits`, `stores`, `to_move`, `legal`, `status`, `winner`,
/// `reason`.
pub fn state_json(
    position: String,
    pits: &[u8; 12],
    stores: [u8; 2],
    to_move: Side,
    legal: &[Move],
    ending: Option<Ending>,
) -> Value {
    json!({
        "position": position,
        "pits": pits,
        "stores": stores,
        "to_move": side_letter(to_move),
        "legal": legal.iter().map(|m| m.letter().to_string()).collect::<Vec<_>>(),
        "status": if ending.is_some() { "over" } else { "ongoing" },
        "winner": ending.map(|(w, _)| w.map_or("draw".to_string(), side_letter)),
        "reason": ending.map(|(_, r)| r),
    })
}

/// The JSON object `show --json` prints for a game's current state.
pub fn game_json(game: &Game) -> Value {
    let pos = game.position();
    let ending = game.outcome().map(|o| (o.winner, o.reason.name()));
    state_json(
        pos.to_string(),
        pos.pits(),
        pos.stores(),
        pos.side_to_move(),
        &game.legal_moves(),
        ending,
    )
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
