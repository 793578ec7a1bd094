//! Openings: read from a file (position strings or move lists, one a line,
//! `#` comments) or made at random and kept when a shallow search scores
//! them near level. Each opening is played twice, colours swapped.

use std::fmt;

use crate::search::{Engine, Limits};
use crate::{Game, Move, Position, Rules, format_moves, parse_moves};

/// A start for a game: a position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position.
    pub position: Position,
    /// The moves from it.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start.
    pub fn start() -> Opening {
        Opening {
            position: Position::START,
            moves: Vec::new(),
        }
    }

    /// The game after the opening under `rules`, if the moves are legal and
    /// the game is not over.
    pub fn game(&self, rules: Rules) -> Result<Game, String> {
        let mut game = Game::new(self.position, rules);
        for (i, &mv) in self.moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("move {} ({mv}) cannot be played: {e}", i + 1))?;
        }
        if let Some(outcome) = game.outcome() {
            return Err(format!("the game is over ({})", outcome.reason.name()));
        }
        Ok(game)
    }

    /// Parses one line: a position string, a move list from the start, or a
    /// position string followed by moves.
    pub fn parse(line: &str) -> Result<Opening, String> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let first = words.next().ok_or("empty opening")?;
        if let Ok(position) = first.parse::<Position>() {
            let rest: String = words.collect();
            let moves = parse_moves(&rest).map_err(|e| format!("bad moves `{rest}`: {e}"))?;
            return Ok(Opening { position, moves });
        }
        if first.contains('-') {
            return Err(format!("bad position `{first}`"));
        }
        let moves = parse_moves(line).map_err(|e| format!("bad opening `{line}`: {e}"))?;
        Ok(Opening {
            position: Position::START,
            moves,
        })
    }
}

/// The line format: the position string (when not the start) and the moves.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.position == Position::START, self.moves.is_empty()) {
            (true, true) => write!(f, "{}", self.position),
            (true, false) => write!(f, "{}", format_moves(&self.moves)),
            (false, true) => write!(f, "{}", self.position),
            (false, false) => write!(f, "{} {}", self.position, format_moves(&self.moves)),
        }
    }
}

/// Reads the openings of a file's text, checking each under `rules`.
pub fn parse_openings(text: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = Opening::parse(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        opening
            .game(rules)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err("no openings".into());
    }
    Ok(out)
}

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// Seeded.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (n ≥ 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// `count` openings of `plies` random moves from the start, each kept only
/// when a search of `depth` scores it within `margin` centiseeds (100 = one
/// seed) of level. Gives up after 50 tries an opening, keeping what it has
/// (at least one: the last try).
pub fn random_openings(
    count: usize,
    plies: usize,
    depth: u32,
    margin: i32,
    rules: Rules,
    seed: u64,
) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    let engine: Engine = Engine::new(4, 1, None);
    let mut out: Vec<Opening> = Vec::new();
    let mut last = None;
    let mut tries = 0;
    while out.len() < count && tries < 50 * count.max(1) {
        tries += 1;
        let mut game = Game::new(Position::START, rules);
        let mut moves = Vec::new();
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.legal_moves();
            let mv = legal[rng.below(legal.len())];
            if game.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        if game.outcome().is_some() {
            continue;
        }
        let opening = Opening {
            position: Position::START,
            moves,
        };
        if out.contains(&opening) {
            continue;
        }
        engine.clear();
        let Ok(result) = engine.search(&game, &Limits::depth(depth), |_| {}) else {
            continue;
        };
        last = Some(opening.clone());
        if result.last.score.abs() <= margin {
            out.push(opening);
        }
    }
    if out.is_empty() {
        out.extend(last);
    }
    if out.is_empty() {
        out.push(Opening::start());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse() {
        let o = Opening::parse("FfBe").unwrap();
        assert_eq!(o.moves.len(), 4);
        assert_eq!(o.to_string(), "FfBe");
        let o = Opening::parse("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N").unwrap();
        assert!(o.moves.is_empty());
        let o = Opening::parse("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a").unwrap();
        assert_eq!(o.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a");
        assert!(Opening::parse("1-2-3").is_err());
        assert!(Opening::parse("xyz").is_err());
        let text = "# comment\nFf\n\nAa # two moves\n";
        assert_eq!(parse_openings(text, Rules::ABAPA).unwrap().len(), 2);
        assert!(parse_openings("FF", Rules::ABAPA).is_err());
        assert!(parse_openings("# nothing", Rules::ABAPA).is_err());
    }

    #[test]
    fn random_openings_are_legal_and_distinct() {
        let list = random_openings(3, 4, 2, 10_000, Rules::ABAPA, 7);
        assert_eq!(list.len(), 3);
        for o in &list {
            assert_eq!(o.moves.len(), 4);
            o.game(Rules::ABAPA).unwrap();
        }
    }
}
