//! The positions file: one judged position a line, so that the benchmark
//! needs only the tables the engine searches with, not the deep ones that
//! judged the moves.
//!
//! ```text
//! # comment lines start with '#'; blank lines are ignored
//! 5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12/6 A=12/6 B=11/8 C=10/9
//! ```
//!
//! A line is the position string (RULES.md §1), the position's `gM/gN`,
//! then each legal move as `LETTER=x/y`: the seeds the mover can force
//! through the move (its captures plus the child's gN) and those the
//! opponent can force after it (the child's gM). A line is checked when it
//! is read ([`Judged::check`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::{Move, Position};

use super::verdict::{Judged, MoveValue};

/// The shipped set (`databases/accuracy/abapa-18-28.txt`), built into
/// the program so that `oware accuracy` runs anywhere.
pub const SHIPPED: &str = include_str!("../../databases/accuracy/abapa-18-28.txt");

/// The name the shipped set goes by in messages.
pub const SHIPPED_NAME: &str = "the shipped set (databases/accuracy/abapa-18-28.txt)";

/// The first line of a positions file.
pub const HEADER: &str = "# oware accuracy positions, abapa, v1";

/// A positions file that cannot be used.
#[derive(Debug, Error)]
pub enum PositionsError {
    /// The file cannot be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A line is not a judged position.
    #[error("{path}:{line}: {reason}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file holds no position.
    #[error("{0}: no positions")]
    Empty(PathBuf),
}

/// The line of one judged position.
pub fn format_line(j: &Judged) -> String {
    let mut line = format!("{} {}/{}", j.position, j.gm, j.gn);
    for m in &j.moves {
        let _ = write!(line, " {}={}/{}", m.mv, m.mover, m.opponent);
    }
    line
}

/// Parses `a/b` into two numbers.
fn pair(text: &str) -> Result<(u8, u8), String> {
    let (a, b) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}` is not x/y"))?;
    let number = |s: &str| {
        s.parse::<u8>()
            .map_err(|_| format!("`{s}` in `{text}` is not a number of seeds"))
    };
    Ok((number(a)?, number(b)?))
}

/// Parses one line (neither blank nor a comment), checking its values.
pub fn parse_line(line: &str) -> Result<Judged, String> {
    let mut words = line.split_whitespace();
    let position: Position = words
        .next()
        .ok_or("empty line")?
        .parse()
        .map_err(|e| format!("bad position: {e}"))?;
    let (gm, gn) = pair(words.next().ok_or("no gM/gN after the position")?)?;
    let mut moves = Vec::new();
    for word in words {
        let (letter, value) = word
            .split_once('=')
            .ok_or_else(|| format!("`{word}` is not MOVE=x/y"))?;
        let mut chars = letter.chars();
        let mv = match (chars.next().and_then(Move::from_letter), chars.next()) {
            (Some(mv), None) => mv,
            _ => return Err(format!("`{letter}` is not a move letter")),
        };
        let (mover, opponent) = pair(value)?;
        moves.push(MoveValue {
            mv,
            mover,
            opponent,
        });
    }
    let judged = Judged {
        position,
        gm,
        gn,
        moves,
    };
    judged.check()?;
    Ok(judged)
}

/// Parses the text of a positions file (`path` names it in errors).
pub fn parse(text: &str, path: &Path) -> Result<Vec<Judged>, PositionsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(
            parse_line(line).map_err(|reason| PositionsError::Malformed {
                path: path.to_path_buf(),
                line: i + 1,
                reason,
            })?,
        );
    }
    if out.is_empty() {
        return Err(PositionsError::Empty(path.to_path_buf()));
    }
    Ok(out)
}

/// Reads a positions file.
pub fn load(path: &Path) -> Result<Vec<Judged>, PositionsError> {
    let text = std::fs::read_to_string(path).map_err(|error| PositionsError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    parse(&text, path)
}

/// Writes a positions file whole or not at all (a temporary file renamed):
/// the header, `comments` (each a `# ` line), then a line a position.
pub fn save(path: &Path, comments: &[String], positions: &[Judged]) -> Result<(), PositionsError> {
    let io = |error| PositionsError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut text = format!("{HEADER}\n");
    for c in comments {
        let _ = writeln!(text, "# {c}");
    }
    for j in positions {
        text.push_str(&format_line(j));
        text.push('\n');
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12/6 A=12/6 B=11/8 C=10/9";

    #[test]
    fn the_shipped_set_reads() {
        let set = parse(SHIPPED, Path::new(SHIPPED_NAME)).unwrap();
        assert!(set.len() >= 2000 && set.iter().all(|j| j.at_stake()));
    }

    #[test]
    fn the_29_30_seed_set_reads() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("databases/accuracy/abapa-29-30.txt");
        let set = load(&path).unwrap();
        assert_eq!(set.len(), 364);
        assert!(set.iter().all(|j| j.at_stake()));
        // The counts the manual quotes.
        assert_eq!(set.iter().filter(|j| j.win_at_stake()).count(), 128);
        assert_eq!(set.iter().filter(|j| j.loss_avoidable()).count(), 292);
        for seeds in [29, 30] {
            let level = set.iter().filter(|j| j.position.seeds_on_board() == seeds);
            assert_eq!(level.count(), 182, "{seeds} seeds");
        }
    }

    #[test]
    fn a_line_reads_back_as_written() {
        let j = parse_line(LINE).unwrap();
        assert_eq!((j.gm, j.gn, j.moves.len()), (12, 6, 3));
        assert_eq!(format_line(&j), LINE);
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        for (line, says) in [
            ("5-3-2-0-0-0-2-2-2-2-1-1-14-S 12/6", "bad position"),
            ("5-3-2-0-0-0-2-2-2-2-1-1-14-14-S", "no gM/gN"),
            ("5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12-6", "not x/y"),
            (
                "5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12/6 A=12/x",
                "not a number",
            ),
            (
                "5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12/6 Q=1/1",
                "not a move letter",
            ),
            (
                "5-3-2-0-0-0-2-2-2-2-1-1-14-14-S 12/6 A=12/6 B=11/8",
                "legal moves",
            ),
        ] {
            let e = parse_line(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
        let text = format!("{HEADER}\n\n{LINE}\nnonsense\n");
        let e = parse(&text, Path::new("f.txt")).unwrap_err().to_string();
        assert!(e.starts_with("f.txt:4: bad position"), "{e}");
        let e = parse("# nothing\n", Path::new("f.txt")).unwrap_err();
        assert_eq!(e.to_string(), "f.txt: no positions");
    }
}
