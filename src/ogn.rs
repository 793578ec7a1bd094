//! OGN game records, the PGN-like format of the Aualé GUI: tag pairs, then
//! numbered moves. Comments (`{…}`, `;…`) and variations (`(…)`) are skipped
//! on reading.

use std::fmt;

use crate::position::MoveError;
use crate::{Game, Move, NotationError, Position, Rules, Side};

/// What is wrong with an OGN record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OgnError {
    /// A tag-pair line that is not `[Name "value"]`.
    #[error("line {line}: malformed tag pair '{text}'")]
    BadTag {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A token in the moves that is neither a move, a move number nor a result.
    #[error("unexpected '{0}' in the moves")]
    BadToken(String),
    /// A `{` comment without its `}`.
    #[error("a comment is not closed")]
    UnclosedComment,
    /// Unbalanced `(` and `)`.
    #[error("unbalanced parentheses in a variation")]
    UnbalancedVariation,
    /// The `FEN` tag is not a valid position.
    #[error("the FEN tag is not a valid position: {0}")]
    BadFen(NotationError),
    /// A move that cannot be played.
    #[error("move {number} ({mv}): {error}")]
    IllegalMove {
        /// 1-based half-move number.
        number: usize,
        /// The move.
        mv: Move,
        /// Why it cannot be played.
        error: MoveError,
    },
}

/// A game record: its tag pairs (in order) and its main line of moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Tag pairs, e.g. `("South", "Alice")`.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line.
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The start position: the `FEN` tag, or the standard start.
    pub fn start(&self) -> Result<Position, OgnError> {
        match self.tag("FEN") {
            Some(fen) => fen.parse().map_err(OgnError::BadFen),
            None => Ok(Position::START),
        }
    }

    /// Replays the record under `rules`, checking every move.
    pub fn replay(&self, rules: Rules) -> Result<Game, OgnError> {
        let mut game = Game::new(self.start()?, rules);
        game.play_all(&self.moves)
            .map_err(|(i, error)| OgnError::IllegalMove {
                number: i + 1,
                mv: self.moves[i],
                error,
            })?;
        Ok(game)
    }

    /// A record of `game` with the given tags, plus `FEN` when the game did
    /// not start from the standard position and `Result` from its outcome.
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> GameRecord {
        let mut record = GameRecord {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            moves: game.moves().to_vec(),
        };
        if *game.start() != Position::START {
            record.tags.push(("FEN".into(), game.start().to_string()));
        }
        let result = match game.outcome() {
            None => "*",
            Some(o) => match o.winner {
                Some(Side::South) => "1-0",
                Some(Side::North) => "0-1",
                None => "1/2-1/2",
            },
        };
        record.tags.retain(|(k, _)| k != "Result");
        record.tags.push(("Result".into(), result.into()));
        record
    }

    /// Parses a record.
    pub fn parse(text: &str) -> Result<GameRecord, OgnError> {
        let mut record = GameRecord::default();
        let mut movetext = String::new();
        let mut in_tags = true;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if in_tags && trimmed.starts_with('[') {
                record
                    .tags
                    .push(parse_tag(trimmed).ok_or_else(|| OgnError::BadTag {
                        line: i + 1,
                        text: trimmed.to_string(),
                    })?);
            } else if !(in_tags && trimmed.is_empty()) {
                in_tags = false;
                // A `;` comment runs to the end of its line.
                movetext.push_str(trimmed.split(';').next().unwrap_or(""));
                movetext.push('\n');
            }
        }
        record.moves = parse_movetext(&movetext)?;
        Ok(record)
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

fn parse_movetext(text: &str) -> Result<Vec<Move>, OgnError> {
    // First strip comments and variations, then read the tokens that remain.
    let mut main = String::new();
    let mut depth = 0usize;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                if !chars.by_ref().any(|c| c == '}') {
                    return Err(OgnError::UnclosedComment);
                }
                main.push(' ');
            }
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1).ok_or(OgnError::UnbalancedVariation)?,
            c if depth == 0 => main.push(c),
            _ => {}
        }
    }
    if depth != 0 {
        return Err(OgnError::UnbalancedVariation);
    }
    let mut moves = Vec::new();
    for token in main.split_whitespace() {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        // A move number (`12.` or `12...`), possibly glued to its move.
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = token.trim_start_matches('.');
        let token = token.trim_end_matches(['!', '?']);
        for c in token.chars() {
            moves.push(Move::from_letter(c).ok_or_else(|| OgnError::BadToken(token.to_string()))?);
        }
    }
    Ok(moves)
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{escaped}\"]")?;
        }
        writeln!(f)?;
        let north_first = self.moves.first().is_some_and(|m| m.side() == Side::North);
        let mut line = String::new();
        let mut push = |f: &mut fmt::Formatter<'_>, token: String| -> fmt::Result {
            if !line.is_empty() && line.len() + token.len() + 1 > 79 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
            Ok(())
        };
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(north_first);
            if ply % 2 == 0 {
                push(f, format!("{}.", ply / 2 + 1))?;
            } else if i == 0 {
                push(f, "1...".to_string())?;
            }
            push(f, mv.letter().to_string())?;
        }
        push(f, self.tag("Result").unwrap_or("*").to_string())?;
        writeln!(f, "{line}")
    }
}
