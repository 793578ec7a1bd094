//! The position string `p0-p1-…-p11-S-N-T` and move lists.

use std::fmt;

use crate::{Move, Side};

/// What is wrong with a position string or a move list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not 15 dash-separated fields.
    #[error("a position needs 15 fields (12 pits, 2 stores, side to move), found {0}")]
    FieldCount(usize),
    /// A count that is not a whole number.
    #[error("{field} is not a whole number: '{text}'")]
    NotANumber {
        /// Which field ("pit 3", "South's store", …).
        field: String,
        /// The text found.
        text: String,
    },
    /// A count larger than the seeds of a whole game (it may not even
    /// fit in a machine word, e.g. `99999999999999999999`).
    #[error("{field} is too large: '{text}' (a game has only {max} seeds)")]
    TooLarge {
        /// Which field ("pit 3", "South's store", …).
        field: String,
        /// The text found.
        text: String,
        /// The seeds of a whole game.
        max: u32,
    },
    /// A negative count.
    #[error("{0} is negative")]
    Negative(String),
    /// More seeds in pits and stores together than a game has.
    #[error("the position holds {total} seeds; a game has only {max}")]
    TooManySeeds {
        /// Seeds in the position.
        total: u32,
        /// The seeds of a whole game.
        max: u32,
    },
    /// The side to move is not `S` or `N`.
    #[error("the side to move must be S or N, found '{0}'")]
    BadSide(String),
    /// A character that is not a move letter.
    #[error("'{0}' is not a move (moves are A-F for South, a-f for North)")]
    BadMoveLetter(char),
}

fn field_name(i: usize) -> String {
    match i {
        0..=11 => format!("pit {} ({})", i, Move::new(i).letter()),
        12 => "South's store".to_string(),
        13 => "North's store".to_string(),
        _ => "the side to move".to_string(),
    }
}

/// The fields of a position string, read but not yet a position of any
/// game: twelve pit counts, the two stores and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardText {
    /// Pits 0..11, then South's and North's stores.
    pub counts: [u32; 14],
    /// The side to move.
    pub side: Side,
}

impl BoardText {
    /// Reads `p0-…-p11-S-N-T` for a game of at most `max_seeds` seeds in
    /// pits and stores together (48 for Oware).
    pub fn parse(s: &str, max_seeds: u32) -> Result<BoardText, NotationError> {
        let parts: Vec<&str> = s.trim().split('-').collect();
        // A negative count shows up as an empty field followed by a number.
        let mut fields: Vec<&str> = Vec::with_capacity(15);
        let mut i = 0;
        while i < parts.len() {
            if parts[i].is_empty()
                && i + 1 < parts.len()
                && parts[i + 1]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            {
                return Err(NotationError::Negative(field_name(fields.len())));
            }
            fields.push(parts[i]);
            i += 1;
        }
        if fields.len() != 15 {
            return Err(NotationError::FieldCount(fields.len()));
        }
        let mut counts = [0u32; 14];
        for (i, (count, text)) in counts.iter_mut().zip(&fields).enumerate() {
            let text = text.trim();
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                return Err(NotationError::NotANumber {
                    field: field_name(i),
                    text: excerpt(text),
                });
            }
            // Digits only, so the parse fails only on overflow.
            *count = match text.parse::<u32>() {
                Ok(n) if n <= max_seeds => n,
                _ => {
                    return Err(NotationError::TooLarge {
                        field: field_name(i),
                        text: excerpt(text),
                        max: max_seeds,
                    });
                }
            };
        }
        let total = counts.iter().fold(0u32, |a, &c| a.saturating_add(c));
        if total > max_seeds {
            return Err(NotationError::TooManySeeds {
                total,
                max: max_seeds,
            });
        }
        let side_text = fields[14].trim();
        let mut chars = side_text.chars();
        let side = match (chars.next().and_then(Side::from_letter), chars.next()) {
            (Some(side), None) => side,
            _ => return Err(NotationError::BadSide(excerpt(side_text))),
        };
        Ok(BoardText { counts, side })
    }
}

/// Writes a position string: twelve pits, two stores, the side to move.
pub fn write_board(
    f: &mut fmt::Formatter<'_>,
    pits: &[u8; 12],
    stores: [u8; 2],
    side: Side,
) -> fmt::Result {
    for s in pits {
        write!(f, "{s}-")?;
    }
    let [south, north] = stores;
    write!(f, "{south}-{north}-{}", side.letter())
}

/// Parses a move list: letters concatenated (`FfBe`) or separated by spaces
/// or commas (`F f B e`).
pub fn parse_moves(s: &str) -> Result<Vec<Move>, NotationError> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| Move::from_letter(c).ok_or(NotationError::BadMoveLetter(c)))
        .collect()
}

/// Prints moves concatenated, as the engine protocol does (`FfBe`).
pub fn format_moves(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// `text` as an error quotes it on one line: its first 60 characters
/// escaped as Rust's `{:?}` escapes them (control characters, quotes,
/// backslashes), and past 60 how many characters it had.
pub fn excerpt(text: &str) -> String {
    const SHOWN: usize = 60;
    let shown: String = text
        .chars()
        .take(SHOWN)
        .flat_map(char::escape_debug)
        .collect();
    match text.chars().count() {
        n if n > SHOWN => format!("{shown}… ({n} characters)"),
        _ => shown,
    }
}
