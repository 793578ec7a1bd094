//! What Mancala's tables say about a position and each of its moves, with
//! the stores taken into account.

use serde::Serialize;

use super::position::MancalaPosition;
use super::tables::{MancalaTables, mover_board};
use crate::Move;
use crate::tb::TableError;
use crate::tb::probe::Verdict;

/// A store of this many is a majority, and the 25-seed stop only ends a
/// game its store has already won, when at most this many seeds are in
/// play (§7.6).
const STOP_DECIDED_SEEDS: u32 = 49;

/// The tables' answer for a position, or for one move seen from the mover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MancalaProbe {
    /// The move (absent for the position itself).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// Store seeds the move gains, less any it gives the opponent (moves
    /// only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gain: Option<i8>,
    /// The mover moves again (moves only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub another_go: Option<bool>,
    /// Seeds on the board (the position only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u8>,
    /// The final store difference (mover − opponent) of the board's seeds
    /// under best play.
    pub score: i8,
    /// The final stores, South's and North's, under best play.
    #[serde(rename = "final")]
    pub final_stores: [u8; 2],
    /// What the score means with the stores.
    pub verdict: Verdict,
    /// More than 49 seeds are in play, so a store may reach 25 without a
    /// majority and the 25-seed stop (which the tables set aside) may
    /// change the result (the position only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_matters: Option<bool>,
    /// Each legal move (the position only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MancalaProbe>,
}

impl MancalaProbe {
    /// The answer for a mover whose value of the board is `score`.
    fn new(pos: &MancalaPosition, score: i8) -> MancalaProbe {
        let me = pos.side_to_move();
        let n = i16::from(pos.seeds_on_board());
        let (own, theirs) = (
            i16::from(pos.store(me)),
            i16::from(pos.store(me.opponent())),
        );
        let (gets, gives) = ((n + i16::from(score)) / 2, (n - i16::from(score)) / 2);
        let mut final_stores = [0u8; 2];
        final_stores[me.index()] = (own + gets) as u8;
        final_stores[me.opponent().index()] = (theirs + gives) as u8;
        let verdict = match (own + gets).cmp(&(theirs + gives)) {
            std::cmp::Ordering::Greater => Verdict::ForcedWin,
            std::cmp::Ordering::Less => Verdict::ForcedLoss,
            std::cmp::Ordering::Equal => Verdict::ForcedDraw,
        };
        MancalaProbe {
            mv: None,
            gain: None,
            another_go: None,
            seeds: None,
            score,
            final_stores,
            verdict,
            stop_matters: None,
            moves: Vec::new(),
        }
    }
}

/// Probes `pos` and each of its legal moves, first verifying the checksum
/// of every table it reads.
pub fn probe(tables: &MancalaTables, pos: &MancalaPosition) -> Result<MancalaProbe, TableError> {
    let board = mover_board(pos);
    let n = usize::from(pos.seeds_on_board());
    // The position's own level first: a move never adds seeds to the
    // board, so a missing level is reported as the highest one needed.
    tables.levels().require(n)?;
    let moves = tables.moves(pos)?;
    let mut levels: Vec<usize> = moves.iter().map(|(e, _)| usize::from(e.seeds)).collect();
    levels.push(n);
    levels.sort_unstable();
    levels.dedup();
    for level in levels {
        if let Some(table) = tables.levels().table(level) {
            table.verify_checksum()?;
        }
    }
    let score = tables.value_checked(&board)?;
    let mut out = MancalaProbe::new(pos, score);
    out.seeds = Some(n as u8);
    let in_play = pos.total_seeds();
    out.stop_matters = Some(in_play > STOP_DECIDED_SEEDS);
    for (edge, value) in moves {
        let mut m = MancalaProbe::new(pos, value);
        m.mv = Some(Move::of(pos.side_to_move(), usize::from(edge.house)).to_string());
        m.gain = Some(edge.gain);
        m.another_go = Some(edge.again);
        out.moves.push(m);
    }
    Ok(out)
}

/// The probe as text for people.
pub fn probe_text(p: &MancalaProbe) -> String {
    let [south, north] = p.final_stores;
    let mut out = format!(
        "seeds {}: score {:+}  => {} (stores at the end: South {south}, North {north})\n",
        p.seeds.unwrap_or(0),
        p.score,
        p.verdict.describe()
    );
    if p.stop_matters == Some(true) {
        out.push_str("  (more than 49 seeds in play: the 25-seed stop, which the tables set aside, may change this)\n");
    }
    for m in &p.moves {
        let again = if m.another_go == Some(true) {
            ", another go"
        } else {
            ""
        };
        out.push_str(&format!(
            "  {} gains {}{again}: score {:+}  => {}\n",
            m.mv.as_deref().unwrap_or("?"),
            m.gain.unwrap_or(0),
            m.score,
            m.verdict.describe()
        ));
    }
    out
}
