//! OGN game records, the PGN-like format of the Aualé GUI: tag pairs, then
//! numbered moves, each optionally followed by a capture mark (`a+2`: two
//! seeds captured), and a result (`25-20` in seeds, or `1-0`, `0-1`,
//! `1/2-1/2`, `*`). Comments (`{…}`, which nest, and `;` to the end of the
//! line outside braces) and variations (`(…)`) are skipped on reading.

use std::fmt;

use crate::MoveError;
use crate::{Game, Move, NotationError, Position, Rules, Side, Variant};

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
    /// A capture mark (`a+2`) that disagrees with the seeds the move takes.
    #[error("move {number} ({mv}) is marked +{marked} but captures {captured}")]
    CaptureMismatch {
        /// 1-based half-move number.
        number: usize,
        /// The move.
        mv: Move,
        /// The seeds the record says were captured.
        marked: u8,
        /// The seeds the move really captures.
        captured: u8,
    },
}

/// The tags the Aualé GUI writes first, in its order.
pub const ROSTER: [&str; 8] = [
    "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result",
];

/// The `Variant` tag value for a rule set, spelled as the Aualé GUI does for
/// Abapa (`Abapa`) and in the same style for the others.
pub const fn variant_tag(variant: Variant) -> &'static str {
    match variant {
        Variant::Abapa => "Abapa",
        Variant::GrandSlamForbidden => "Grand-Slam-Forbidden",
        Variant::CaptureAndEnd => "Capture-And-End",
        Variant::Awari => "Awari",
        Variant::CaptureToWin => "Capture-To-Win",
    }
}

/// A game record: its tag pairs (in order) and its main line of moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// Tag pairs, e.g. `("South", "Alice")`.
    pub tags: Vec<(String, String)>,
    /// The moves of the main line.
    pub moves: Vec<Move>,
    /// The capture mark of each move (`Some(2)` for `a+2`), parallel to
    /// `moves`; `None` (or a missing entry) means the move is not marked.
    pub captures: Vec<Option<u8>>,
    /// A comment written after each move (`{0.250s}`), parallel to
    /// `moves`; `None` or a missing entry for none. Parsing skips comments,
    /// so a parsed record has none.
    pub comments: Vec<Option<String>>,
}

impl GameRecord {
    /// Sets the Result tag to the stores `[south, north]`: a game over
    /// although the rules did not end it (adjudicated, forfeited, resigned)
    /// is recorded with the stores it ended on.
    pub fn set_result(&mut self, [south, north]: [u8; 2]) {
        for (k, v) in &mut self.tags {
            if k == "Result" {
                *v = format!("{south}-{north}");
            }
        }
    }

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

    /// The rule set named by the `Variant` tag (`Abapa`, `Awari`, …; case,
    /// spaces and hyphens do not matter), if the tag is present and known.
    pub fn variant(&self) -> Option<Variant> {
        let name = self.tag("Variant")?.trim().replace([' ', '_'], "-");
        name.parse().ok()
    }

    /// Replays the record under `rules`, checking every move and every
    /// capture mark.
    pub fn replay(&self, rules: Rules) -> Result<Game, OgnError> {
        let mut game = Game::new(self.start()?, rules);
        for (i, &mv) in self.moves.iter().enumerate() {
            let captured = game.play(mv).map_err(|error| OgnError::IllegalMove {
                number: i + 1,
                mv,
                error,
            })?;
            if let Some(marked) = self.captures.get(i).copied().flatten()
                && marked != captured
            {
                return Err(OgnError::CaptureMismatch {
                    number: i + 1,
                    mv,
                    marked,
                    captured,
                });
            }
        }
        Ok(game)
    }

    /// A record of `game` the way the Aualé GUI writes one: the tags
    /// Variant, Event, Site, Date, Round, South, North and Result in that
    /// order (`?` where `tags` gives no value), then `FEN` when the game did
    /// not start from the standard position, then any other of `tags`.
    /// Variant comes from the game's rules, Result from its final stores
    /// (`25-20`, or `*` while the game goes on), and each capturing move
    /// carries its capture mark.
    pub fn from_game(game: &Game, tags: &[(&str, &str)]) -> GameRecord {
        let result = game.outcome().map(|_| game.position().stores());
        let start = (*game.start() != Position::START).then(|| game.start().to_string());
        let mut record =
            GameRecord::with_gui_tags(variant_tag(game.rules().variant), result, start, tags);
        // Replaying the (legal) game again gives the seeds each move took.
        let mut replay = Game::new(*game.start(), *game.rules());
        for &mv in game.moves() {
            let captured = replay.play(mv).unwrap_or(0);
            record.moves.push(mv);
            record.captures.push((captured > 0).then_some(captured));
        }
        record
    }

    /// A record with no moves yet and the tags the Aualé GUI writes: the
    /// roster in its order (`?` where `tags` gives no value), `variant` as
    /// the Variant, the final stores of an ended game as the Result (`*`
    /// while it goes on), `FEN` when the game has a set-up `start`, then
    /// any other of `tags`.
    pub fn with_gui_tags(
        variant: &str,
        result: Option<[u8; 2]>,
        start: Option<String>,
        tags: &[(&str, &str)],
    ) -> GameRecord {
        let given = |name: &str| tags.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
        let result = result.map_or("*".to_string(), |[south, north]| format!("{south}-{north}"));
        let mut record = GameRecord::default();
        for name in ROSTER {
            let value = match name {
                "Variant" => variant.to_string(),
                "Result" => result.clone(),
                _ => given(name).unwrap_or("?").to_string(),
            };
            record.tags.push((name.to_string(), value));
        }
        if let Some(fen) = start {
            record.tags.push(("FEN".into(), fen));
        }
        for (k, v) in tags {
            if !ROSTER.contains(k) && *k != "FEN" {
                record.tags.push((k.to_string(), v.to_string()));
            }
        }
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
                movetext.push_str(line);
                movetext.push('\n');
            }
        }
        for (mv, mark) in parse_movetext(&movetext)? {
            record.moves.push(mv);
            record.captures.push(mark);
        }
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

/// Removes comments and variations in one pass: `{…}` comments (which may
/// nest and may hold `;`, `(` or `)`), `;` comments to the end of the line
/// (only outside braces) and `(…)` variations (which may nest and hold
/// comments). What remains is the main line.
fn strip_comments(text: &str) -> Result<String, OgnError> {
    let mut main = String::with_capacity(text.len());
    let mut braces = 0usize;
    let mut variations = 0usize;
    let mut line_comment = false;
    for c in text.chars() {
        if line_comment {
            if c == '\n' {
                line_comment = false;
                main.push(' ');
            }
            continue;
        }
        match c {
            '{' => braces += 1,
            '}' if braces > 0 => {
                braces -= 1;
                if braces == 0 {
                    main.push(' ');
                }
            }
            _ if braces > 0 => {}
            ';' => line_comment = true,
            '(' => variations += 1,
            ')' => {
                variations = variations
                    .checked_sub(1)
                    .ok_or(OgnError::UnbalancedVariation)?;
                main.push(' ');
            }
            _ if variations > 0 => {}
            c => main.push(c),
        }
    }
    if braces != 0 {
        return Err(OgnError::UnclosedComment);
    }
    if variations != 0 {
        return Err(OgnError::UnbalancedVariation);
    }
    Ok(main)
}

/// Whether `token` is a game result: `1-0`, `0-1`, `1/2-1/2`, `*`, or the
/// seeds each side captured, `25-20` (each at most 48).
fn is_result(token: &str) -> bool {
    if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return true;
    }
    let seeds = |s: &str| {
        !s.is_empty()
            && s.len() <= 2
            && s.bytes().all(|b| b.is_ascii_digit())
            && s.parse::<u8>().is_ok_and(|n| n <= 48)
    };
    token
        .split_once('-')
        .is_some_and(|(south, north)| seeds(south) && seeds(north))
}

/// The moves of the main line with their capture marks.
fn parse_movetext(text: &str) -> Result<Vec<(Move, Option<u8>)>, OgnError> {
    let main = strip_comments(text)?;
    let mut moves = Vec::new();
    for token in main.split_whitespace() {
        if is_result(token) {
            continue;
        }
        let bad = || OgnError::BadToken(token.to_string());
        // A move number (`12.` or `12...`), possibly glued to its move.
        let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.trim_start_matches('.');
        let rest = rest.trim_end_matches(['!', '?']);
        // A capture mark after the (last) move: `a+2`.
        let (letters, mark) = match rest.split_once('+') {
            None => (rest, None),
            Some((letters, n)) => {
                let digits_only =
                    !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit());
                match n.parse::<u8>() {
                    Ok(n) if digits_only && n <= 48 && !letters.is_empty() => (letters, Some(n)),
                    _ => return Err(bad()),
                }
            }
        };
        let start = moves.len();
        for c in letters.chars() {
            moves.push((Move::from_letter(c).ok_or_else(bad)?, None));
        }
        if let Some(last) = moves.get_mut(start..).and_then(|m| m.last_mut()) {
            last.1 = mark;
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
            let mark = match self.captures.get(i).copied().flatten() {
                Some(n) => format!("+{n}"),
                None => String::new(),
            };
            push(f, format!("{}{mark}", mv.letter()))?;
            if let Some(comment) = self.comments.get(i).and_then(Option::as_ref) {
                // Braces nest and close comments, and a blank line would
                // end the record: keep them out.
                let text = comment
                    .replace('{', "(")
                    .replace('}', ")")
                    .replace(['\n', '\r'], " ");
                push(f, format!("{{{text}}}"))?;
            }
        }
        // The result closes the moves; a Result tag that is not one (`?`)
        // is written as `*` so that the record reads back.
        let result = self.tag("Result").filter(|r| is_result(r)).unwrap_or("*");
        push(f, result.to_string())?;
        writeln!(f, "{line}")
    }
}
