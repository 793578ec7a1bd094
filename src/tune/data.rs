//! Labelled positions and their file: one `POSITION RESULT` line each, the
//! result for the side to move (`1` a win, `0.5` a draw, `0` a loss), `#`
//! lines comments.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::{Position, Side, Variant};

/// A position whose outcome is known, with the outcome for its side to
/// move: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (not over: its side to move has a legal move).
    pub position: Position,
    /// The outcome for the side to move.
    pub result: f32,
}

impl Sample {
    /// The sample of `position` in a game won by `winner` (`None`: drawn).
    pub fn of_game(position: Position, winner: Option<Side>) -> Sample {
        let result = match winner {
            None => 0.5,
            Some(side) if side == position.side_to_move() => 1.0,
            Some(_) => 0.0,
        };
        Sample { position, result }
    }
}

/// Why a data set file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file cannot be read.
    #[error("cannot read data set {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file cannot be written.
    #[error("cannot write data set {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A line that is not a sample.
    #[error("data set {}, line {line}: {reason}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// A result as the file writes it.
fn result_text(result: f32) -> &'static str {
    if result >= 0.75 {
        "1"
    } else if result >= 0.25 {
        "0.5"
    } else {
        "0"
    }
}

/// Writes `samples` to `path` after the `comments` (to a temporary file,
/// then renamed).
pub fn save(path: &Path, samples: &[Sample], comments: &[String]) -> Result<(), DataError> {
    let mut text = String::with_capacity(samples.len() * 40);
    for c in comments {
        text.push_str(&format!("# {c}\n"));
    }
    for s in samples {
        text.push_str(&format!("{} {}\n", s.position, result_text(s.result)));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    fs::write(&tmp, text)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|source| {
            let _ = fs::remove_file(&tmp);
            DataError::Write {
                path: path.to_path_buf(),
                source,
            }
        })
}

/// Reads the samples of a data set file; each position must be one whose
/// side to move has a move under `variant`.
pub fn load(path: &Path, variant: Variant) -> Result<Vec<Sample>, DataError> {
    let text = fs::read_to_string(path).map_err(|source| DataError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| DataError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            reason,
        };
        let (position, result) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| bad("expected `POSITION RESULT`".into()))?;
        let position: Position = position
            .parse()
            .map_err(|e| bad(format!("bad position: {e}")))?;
        if let Some(end) = position.board_end(variant) {
            return Err(bad(format!("the game is over ({end})")));
        }
        let result = match result.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(bad(format!("bad result `{other}` (1, 0.5 or 0)"))),
        };
        out.push(Sample { position, result });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_bad_lines_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let p: Position = "0-0-7-0-7-2-0-3-8-8-0-7-4-2-S".parse().unwrap();
        let samples = [
            Sample::of_game(p, Some(Side::South)),
            Sample::of_game(p, Some(Side::North)),
            Sample::of_game(p.with_side_to_move(Side::North), None),
        ];
        assert_eq!(
            samples.map(|s| s.result),
            [1.0, 0.0, 0.5],
            "results for the side to move"
        );
        save(&path, &samples, &["three".to_string()]).unwrap();
        assert_eq!(load(&path, Variant::Abapa).unwrap(), samples);
        for (text, needle) in [
            ("0-0-7-0-7-2-0-3-8-8-0-7-4-2-S", "line 2: expected"),
            ("0-0-7-0-7-2-0-3-8-8-0-7-4-S 1", "line 2: bad position"),
            ("0-0-7-0-7-2-0-3-8-8-0-7-4-2-S 2", "bad result `2`"),
            ("0-0-0-0-0-0-1-1-0-0-0-0-26-20-S 1", "the game is over"),
        ] {
            fs::write(&path, format!("# x\n{text}\n")).unwrap();
            let e = load(&path, Variant::Abapa).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        assert!(matches!(
            load(&dir.path().join("none"), Variant::Abapa),
            Err(DataError::Read { .. })
        ));
    }
}
