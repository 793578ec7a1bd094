//! What the tables say about a position and each of its moves, with the
//! stores taken into account.

use serde::Serialize;

use super::board::{for_each_child, relative};
use super::build::{LowerLevels, expected_value};
use super::file::TableError;
use super::index::{is_indexed, rank};
use super::tables::Tablebase;
use super::value::Value;
use crate::rules::WINNING_SEEDS;
use crate::{Position, Variant};

/// The tables' verdict on a position for its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The side to move wins whatever the opponent does.
    ForcedWin,
    /// The side to move loses whatever it does.
    ForcedLoss,
    /// Neither side can do better than a draw.
    ForcedDraw,
    /// The result depends on which position repeats first (Abapa only).
    DependsOnHistory,
}

impl Verdict {
    /// The verdict for a mover with `own` captured and value `v` against an
    /// opponent with `theirs` captured, `seeds` on the board.
    pub fn of(variant: Variant, v: Value, seeds: u8, own: u8, theirs: u8) -> Verdict {
        let (mine, other) = (u16::from(own), u16::from(theirs));
        if variant == Variant::Awari {
            let diff = i16::from(own) - i16::from(theirs) + i16::from(v.score());
            return match diff.signum() {
                1 => Verdict::ForcedWin,
                -1 => Verdict::ForcedLoss,
                _ => Verdict::ForcedDraw,
            };
        }
        let (gm, gn) = (mine + u16::from(v.mover), other + u16::from(v.opponent));
        let win = u16::from(WINNING_SEEDS);
        if gm >= win {
            Verdict::ForcedWin
        } else if gn >= win {
            Verdict::ForcedLoss
        } else if v.is_exact(seeds) {
            match gm.cmp(&gn) {
                std::cmp::Ordering::Greater => Verdict::ForcedWin,
                std::cmp::Ordering::Less => Verdict::ForcedLoss,
                std::cmp::Ordering::Equal => Verdict::ForcedDraw,
            }
        } else {
            Verdict::DependsOnHistory
        }
    }

    /// A phrase for people.
    pub const fn describe(self) -> &'static str {
        match self {
            Verdict::ForcedWin => "forced win",
            Verdict::ForcedLoss => "forced loss",
            Verdict::ForcedDraw => "forced draw",
            Verdict::DependsOnHistory => "depends on history",
        }
    }
}

/// The tables' answer for one position (or one move, seen from the mover).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Probe {
    /// The move (absent for the position itself).
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// Seeds the move captures (moves only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<u8>,
    /// Seeds on the board (before the move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<u8>,
    /// gM (Abapa tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gm: Option<u8>,
    /// gN (Abapa tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gn: Option<u8>,
    /// The Romein & Bal score (Awari tables).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i8>,
    /// Whether the value is independent of history.
    pub exact: bool,
    /// What the value means with the stores.
    pub verdict: Verdict,
    /// Each legal move (position only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<Probe>,
}

impl Probe {
    fn new(variant: Variant, v: Value, seeds: u8, own: u8, theirs: u8) -> Probe {
        let awari = variant == Variant::Awari;
        Probe {
            mv: None,
            captures: None,
            seeds: None,
            gm: (!awari).then_some(v.mover),
            gn: (!awari).then_some(v.opponent),
            score: awari.then_some(v.score()),
            exact: awari || v.is_exact(seeds),
            verdict: Verdict::of(variant, v, seeds, own, theirs),
            moves: Vec::new(),
        }
    }
}

/// The value of a board of `seeds` seeds from the tables; boards outside
/// the index (the opponent has no empty pit) are valued from their children.
pub fn board_value(tb: &Tablebase, board: &[u8; 12], seeds: usize) -> Result<Value, TableError> {
    let variant = tb.variant();
    if is_indexed(board) {
        let table = tb.require(seeds)?;
        let v = tb.value_at(seeds, rank(board, seeds));
        if v.mover as usize > seeds || v.opponent as usize > seeds {
            return Err(TableError::Corrupt {
                path: table.path().to_path_buf(),
                reason: format!("value {v:?} exceeds {seeds} seeds"),
            });
        }
        return Ok(v);
    }
    // Not in the index: valued from its children, whose levels must be
    // there (the highest asked first, so that a missing one is reported
    // as the build that reaches them all).
    let (mut needed, mut count) = ([0usize; 6], 0);
    for_each_child(board, variant, |e| {
        needed[count] = seeds - e.captured as usize;
        count += 1;
    });
    let needed = &mut needed[..count];
    needed.sort_unstable_by(|a, b| b.cmp(a));
    for &level in needed.iter() {
        tb.require(level)?;
    }
    Ok(expected_value(
        board,
        seeds,
        variant,
        &|b| tb.value(b, seeds),
        tb,
    ))
}

/// Probes `pos` and each of its legal moves, first verifying the checksum
/// of every table it reads.
pub fn probe(tb: &Tablebase, pos: &Position) -> Result<Probe, TableError> {
    let variant = tb.variant();
    let board = relative(pos);
    let n = pos.seeds_on_board() as usize;
    let mut levels = vec![n];
    for_each_child(&board, variant, |e| levels.push(n - e.captured as usize));
    levels.sort_unstable();
    levels.dedup();
    for level in levels {
        if let Some(table) = tb.table(level) {
            table.verify_checksum()?;
        }
    }
    let me = pos.side_to_move();
    let (own, theirs) = (pos.store(me), pos.store(me.opponent()));
    let value = board_value(tb, &board, n)?;
    let mut out = Probe::new(variant, value, n as u8, own, theirs);
    out.seeds = Some(n as u8);
    let mut edges = Vec::new();
    for_each_child(&board, variant, |e| edges.push(e));
    for e in edges {
        let seeds = n - e.captured as usize;
        let child = board_value(tb, &e.child, seeds)?;
        let (x, y) = Value::candidates(variant, e.captured, child);
        let v = Value::new(x, y);
        let mut m = Probe::new(variant, v, n as u8, own, theirs);
        // The move's letter for the real side to move.
        let mv = crate::Move::of(me, e.mv.house());
        m.mv = Some(mv.letter().to_string());
        m.captures = Some(e.captured);
        // A move's value is seen before the capture, so `exact` compares
        // with the seeds before the move.
        m.exact = variant == Variant::Awari || v.is_exact(n as u8);
        out.moves.push(m);
    }
    Ok(out)
}

/// The probe as text for people.
pub fn probe_text(p: &Probe) -> String {
    let value = |p: &Probe| match (p.gm, p.gn, p.score) {
        (Some(gm), Some(gn), _) => format!(
            "gM {gm:>2}  gN {gn:>2}  {}",
            if p.exact { "exact  " } else { "inexact" }
        ),
        (_, _, Some(s)) => format!("score {s:>+3}"),
        _ => String::new(),
    };
    let mut out = format!(
        "seeds {}: {}  => {}\n",
        p.seeds.unwrap_or(0),
        value(p),
        p.verdict.describe()
    );
    for m in &p.moves {
        out.push_str(&format!(
            "  {} captures {:>2}: {}  => {}\n",
            m.mv.as_deref().unwrap_or("?"),
            m.captures.unwrap_or(0),
            value(m),
            m.verdict.describe()
        ));
    }
    out
}
