//! Mancala's tables opened for probing: the value of a position's board
//! for the side to move, from a memory map, without allocating.

use std::path::{Path, PathBuf};

use super::edges::{Edge, for_each_edge, terminal_value};
use super::position::MancalaPosition;
use super::rules::MancalaRules;
use crate::Side;
use crate::tb::board::rotate;
use crate::tb::index::{MAX_SEEDS, rank_full};
use crate::tb::{Levels, TableError, TableRules};

/// The levels of Mancala's tables of one capture convention in a folder.
///
/// A table holds, for every board of its level (seeds on the board, the
/// stores left out), the final store difference the side to move gains
/// from those seeds under best play, the 25-seed stop set aside (§7.6).
/// It serves every start: the values do not depend on it.
pub struct MancalaTables {
    levels: Levels,
    empty_capture: bool,
    rejected: Vec<TableError>,
}

impl MancalaTables {
    /// Opens every level present in `dir` for `rules`' capture convention
    /// (headers and sizes checked, not checksums). A file of other rules
    /// under a level's name, a damaged header, or a `dir` that is not a
    /// folder is an error.
    pub fn open(dir: &Path, rules: MancalaRules) -> Result<MancalaTables, TableError> {
        Ok(MancalaTables {
            levels: Levels::open(dir, table_rules(rules))?,
            empty_capture: rules.empty_capture,
            rejected: Vec::new(),
        })
    }

    /// Opens the levels up to `max_level` for a search: each is read into
    /// the page cache and its checksum verified; a damaged level is left
    /// closed and listed in [`MancalaTables::rejected`]. Compact levels are
    /// decoded into memory as far as `OWARE_TB_MEMORY` allows.
    pub fn open_for_search(
        dir: &Path,
        rules: MancalaRules,
        max_level: usize,
    ) -> Result<MancalaTables, TableError> {
        let (levels, rejected) = Levels::open_for_search(dir, table_rules(rules), max_level)?;
        levels.decode_in_memory(crate::tb::levels::decode_budget());
        Ok(MancalaTables {
            levels,
            empty_capture: rules.empty_capture,
            rejected,
        })
    }

    /// The files [`MancalaTables::open_for_search`] left closed.
    pub fn rejected(&self) -> &[TableError] {
        &self.rejected
    }

    /// The open levels.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// Whether the tables are for the empty capture.
    pub fn empty_capture(&self) -> bool {
        self.empty_capture
    }

    /// The largest `n` such that levels 0..=n are all open.
    pub fn complete_up_to(&self) -> Option<usize> {
        self.levels.complete_up_to()
    }

    /// The levels in use, in one line (see [`Levels::describe`]).
    pub fn describe(&self) -> String {
        self.levels.describe()
    }

    /// The value of `pos`'s board for its side to move: the final store
    /// difference (mover − opponent) of the seeds on the board under best
    /// play, the 25-seed stop set aside; add the stores' difference for
    /// the game's. `None` when the level is not open or `pos` follows the
    /// other capture convention.
    #[inline]
    pub fn probe(&self, pos: &MancalaPosition) -> Option<i8> {
        if pos.empty_capture() != self.empty_capture {
            return None;
        }
        self.value(&mover_board(pos))
    }

    /// The value of a board seen from its side to move (houses 0..5 the
    /// mover's), if its level is open.
    #[inline]
    pub fn value(&self, board: &[u8; 12]) -> Option<i8> {
        let n: usize = board.iter().map(|&s| usize::from(s)).sum();
        if n > MAX_SEEDS {
            return None;
        }
        let table = self.levels.table(n)?;
        Some(table.entry(rank_full(board, n)) as u8 as i8)
    }

    /// The value of the board, checked: an error names the missing level's
    /// file, or the damaged file of a value out of range.
    pub fn value_checked(&self, board: &[u8; 12]) -> Result<i8, TableError> {
        let n: usize = board.iter().map(|&s| usize::from(s)).sum();
        if let Some(v) = terminal_value(board) {
            return Ok(v);
        }
        let table = self.levels.require(n)?;
        let v = table.entry(rank_full(board, n)) as u8 as i8;
        if v.unsigned_abs() as usize > n || (v as isize - n as isize) % 2 != 0 {
            return Err(TableError::Corrupt {
                path: table.path().to_path_buf(),
                reason: format!("value {v} is impossible with {n} seeds"),
            });
        }
        Ok(v)
    }

    /// Each move of `pos`'s board with the mover's value through it (the
    /// gain plus or minus the child's value), checked.
    pub fn moves(&self, pos: &MancalaPosition) -> Result<Vec<(Edge, i8)>, TableError> {
        let mut edges = Vec::with_capacity(6);
        if pos.end().is_none() {
            for_each_edge(&mover_board(pos), self.empty_capture, |e| edges.push(e));
        }
        edges
            .into_iter()
            .map(|e| Ok((e, e.value(self.value_checked(&e.child_board())?))))
            .collect()
    }
}

/// The folder a search reads Mancala's tables from, given a table folder
/// `dir` (Oware's): its `mancala` subfolder (the default
/// `databases/mancala`, beside Oware's tables), or when the folder was
/// asked for and has no such subfolder, `dir` itself.
pub fn search_folder(dir: &Path, asked: bool) -> PathBuf {
    let sub = dir.join("mancala");
    if asked && !sub.is_dir() {
        dir.to_path_buf()
    } else {
        sub
    }
}

/// Why `dir` gives a search of `rules` no tables, in one line, when it
/// holds no level of their capture convention: it names the other
/// convention's files when the folder has those (they are never used).
pub fn none_found(dir: &Path, rules: MancalaRules) -> String {
    let other = MancalaRules::new(rules.start_seeds, !rules.empty_capture);
    let files = Levels::empty(dir, table_rules(other));
    let flags = if rules.empty_capture {
        " --empty-capture"
    } else {
        ""
    };
    let mut out = format!(
        "{}: no Mancala tables of the {} convention",
        dir.display(),
        rules.capture_name()
    );
    if (0..=MAX_SEEDS).any(|n| files.path(n).is_file()) {
        out.push_str(&format!(
            " (it holds {} ones, which a game of the {} convention cannot use)",
            other.capture_name(),
            rules.capture_name()
        ));
    } else {
        out.push_str(&format!(
            " (`oware build --rules mancala{flags} --max-seeds 20 --db {}` builds them)",
            dir.display()
        ));
    }
    out
}

/// The header's rules of `rules`' tables.
pub const fn table_rules(rules: MancalaRules) -> TableRules {
    TableRules::Mancala {
        empty_capture: rules.empty_capture,
    }
}

/// `pos`'s houses seen from its side to move.
#[inline]
pub fn mover_board(pos: &MancalaPosition) -> [u8; 12] {
    match pos.side_to_move() {
        Side::South => *pos.pits(),
        Side::North => rotate(pos.pits()),
    }
}
