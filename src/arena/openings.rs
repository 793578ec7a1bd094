//! Openings: read from a file (position strings or move lists, one a line,
//! `#` comments), made at random, or every line of a few plies, kept when a
//! shallow search scores them near level. Each opening is played twice,
//! colours swapped.

use std::fmt;

use super::game::ArenaGame;
use crate::search::{Engine, Limits, Oware, SearchGame};
use crate::{Move, Position, format_moves, parse_moves};

/// A start for a game: a position (`None`: the start of the match's rules)
/// and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening<P = Position> {
    /// The position (`None`: the rules' start).
    pub position: Option<P>,
    /// The moves from it.
    pub moves: Vec<Move>,
}

impl<P: Copy + PartialEq + fmt::Display> Opening<P> {
    /// The start of the match's rules.
    pub fn start() -> Opening<P> {
        Opening {
            position: None,
            moves: Vec::new(),
        }
    }

    /// The game after the opening under `rules`, if the moves are legal and
    /// the game is not over.
    pub fn game<G: ArenaGame<Position = P>>(
        &self,
        rules: G::MatchRules,
    ) -> Result<G::Game, String> {
        let start = self.position.unwrap_or_else(|| G::start(rules));
        let mut game = G::new_game(start, rules);
        for (i, &mv) in self.moves.iter().enumerate() {
            G::play_move(&mut game, mv)
                .map_err(|e| format!("move {} ({mv}) cannot be played: {e}", i + 1))?;
        }
        if let Some((_, reason)) = G::ending(&game) {
            return Err(format!("the game is over ({reason})"));
        }
        Ok(game)
    }

    /// Parses one line for games of `G` under `rules`: a position string, a
    /// move list from the start, or a position string followed by moves.
    pub fn parse<G: ArenaGame<Position = P>>(
        line: &str,
        rules: G::MatchRules,
    ) -> Result<Opening<P>, String> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let first = words.next().ok_or("empty opening")?;
        if first.contains('-') {
            let position = G::parse_position(first, rules)
                .map_err(|e| format!("bad position `{first}`: {e}"))?;
            let rest: String = words.collect();
            let moves = parse_moves(&rest).map_err(|e| format!("bad moves `{rest}`: {e}"))?;
            return Ok(Opening {
                position: Some(position),
                moves,
            });
        }
        let moves = parse_moves(line).map_err(|e| format!("bad opening `{line}`: {e}"))?;
        Ok(Opening {
            position: None,
            moves,
        })
    }
}

/// The line format: the position string (when not the rules' start) and
/// the moves.
impl<P: fmt::Display> fmt::Display for Opening<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.position, self.moves.is_empty()) {
            (None, true) => f.write_str("start"),
            (None, false) => write!(f, "{}", format_moves(&self.moves)),
            (Some(p), true) => write!(f, "{p}"),
            (Some(p), false) => write!(f, "{p} {}", format_moves(&self.moves)),
        }
    }
}

/// Reads the openings of a file's text, checking each under Oware's
/// `rules` (see [`parse_openings_for`]).
pub fn parse_openings(text: &str, rules: crate::Rules) -> Result<Vec<Opening>, String> {
    parse_openings_for::<Oware>(text, rules)
}

/// Reads the openings of a file's text, checking each as a game of `G`
/// under `rules`.
pub fn parse_openings_for<G: ArenaGame>(
    text: &str,
    rules: G::MatchRules,
) -> Result<Vec<Opening<G::Position>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening =
            Opening::parse::<G>(line, rules).map_err(|e| format!("line {}: {e}", i + 1))?;
        opening
            .game::<G>(rules)
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
    rules: crate::Rules,
    seed: u64,
) -> Vec<Opening> {
    random_openings_for::<Oware>(count, plies, depth, margin, rules, seed)
}

/// [`random_openings`] for games of `G` under `rules`.
pub fn random_openings_for<G: ArenaGame>(
    count: usize,
    plies: usize,
    depth: u32,
    margin: i32,
    rules: G::MatchRules,
    seed: u64,
) -> Vec<Opening<G::Position>> {
    let mut rng = Rng::new(seed);
    let engine = Engine::<G>::new(4, 1, None);
    let mut out: Vec<Opening<G::Position>> = Vec::new();
    let mut last = None;
    let mut tries = 0;
    while out.len() < count && tries < 50 * count.max(1) {
        tries += 1;
        let mut game = G::new_game(G::start(rules), rules);
        let mut moves = Vec::new();
        while moves.len() < plies && G::ending(&game).is_none() {
            let legal = G::legal(&game);
            let mv = legal[rng.below(legal.len())];
            if G::play_move(&mut game, mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        if G::ending(&game).is_some() {
            continue;
        }
        let opening = Opening {
            position: None,
            moves,
        };
        if out.contains(&opening) {
            continue;
        }
        last = Some(opening.clone());
        if level(&engine, &game, depth, margin) {
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

/// Every line of `plies` moves from the start of `rules` (in move order),
/// kept when a search of `depth` scores it within `margin` centiseeds of
/// level; all of them when none is.
pub fn every_opening<G: ArenaGame>(
    plies: usize,
    depth: u32,
    margin: i32,
    rules: G::MatchRules,
) -> Vec<Opening<G::Position>> {
    let mut lines = vec![Vec::new()];
    for _ in 0..plies {
        let mut longer = Vec::new();
        for line in &lines {
            let Ok(game) = Opening::<G::Position> {
                position: None,
                moves: Vec::clone(line),
            }
            .game::<G>(rules) else {
                continue;
            };
            for mv in G::legal(&game) {
                let mut next = Vec::clone(line);
                next.push(mv);
                longer.push(next);
            }
        }
        lines = longer;
    }
    let engine = Engine::<G>::new(4, 1, None);
    let all: Vec<(Opening<G::Position>, G::Game)> = lines
        .into_iter()
        .filter_map(|moves| {
            let opening = Opening {
                position: None,
                moves,
            };
            let game = opening.game::<G>(rules).ok()?;
            Some((opening, game))
        })
        .collect();
    let kept: Vec<Opening<G::Position>> = all
        .iter()
        .filter(|(_, game)| level(&engine, game, depth, margin))
        .map(|(o, _)| o.clone())
        .collect();
    if kept.is_empty() {
        all.into_iter().map(|(o, _)| o).collect()
    } else {
        kept
    }
}

/// Whether a search of `game` to `depth` scores it within `margin`
/// centiseeds of level.
fn level<G: SearchGame>(engine: &Engine<G>, game: &G::Game, depth: u32, margin: i32) -> bool {
    engine.clear();
    engine
        .search(game, &Limits::depth(depth), |_| {})
        .is_ok_and(|r| r.last.score.abs() <= margin)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn lines_parse() {
        let parse = |line| Opening::parse::<Oware>(line, Rules::ABAPA);
        let o = parse("FfBe").unwrap();
        assert_eq!(o.moves.len(), 4);
        assert_eq!(o.to_string(), "FfBe");
        let o = parse("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N").unwrap();
        assert!(o.moves.is_empty());
        let o = parse("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a").unwrap();
        assert_eq!(o.to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a");
        assert!(parse("1-2-3").is_err());
        assert!(parse("xyz").is_err());
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
            o.game::<Oware>(Rules::ABAPA).unwrap();
        }
    }
}
