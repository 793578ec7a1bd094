//! Mancala's endgame tables for a protocol session: opened from the
//! option `TablePath`, with what was found said as notes.

use std::path::Path;
use std::sync::Arc;

use crate::mancala::MancalaRules;
use crate::mancala::tables::{MancalaTables, none_found, search_folder};

/// Mancala's tables for `rules` from `table_path` (its `mancala` subfolder
/// when it has one, or always when the folder was not asked for), unless
/// `use_leaves` is off; what was found goes to `notes`.
pub(super) fn mancala(
    table_path: &Path,
    asked: bool,
    use_leaves: bool,
    rules: MancalaRules,
    notes: &mut Vec<String>,
) -> Option<Arc<MancalaTables>> {
    if !use_leaves {
        notes.push("tables: none (UseLeaves is off)".to_string());
        return None;
    }
    let path = search_folder(table_path, asked);
    if !asked && !path.is_dir() {
        notes.push(format!("tables: none ({} not found)", path.display()));
        return None;
    }
    let limit = crate::tb::SEARCH_LEVEL_LIMIT as usize;
    match MancalaTables::open_for_search(&path, rules, limit) {
        Ok(tables) => {
            for rejected in tables.rejected() {
                notes.push(format!("table left closed: {rejected}"));
            }
            if tables.levels().present().is_empty() {
                notes.push(format!("tables: none ({})", none_found(&path, rules)));
                return None;
            }
            notes.push(format!("tables: {}", tables.describe()));
            Some(Arc::new(tables))
        }
        Err(e) => {
            notes.push(format!("tables not used: {e}"));
            None
        }
    }
}
