//! The words of `go`: the limits they set, checked and clamped.

use std::time::Duration;

use crate::Side;
use crate::search::limits::MAX_DEPTH;
use crate::search::{Clock, Limits};

/// The longest time `go` accepts (a week, in ms); longer times are cut
/// to it.
pub const MAX_MS: i64 = 7 * 24 * 3600 * 1000;

/// The most nodes `go nodes` accepts.
pub const MAX_NODES: i64 = 1_000_000_000_000_000;

/// The most moves `movestogo` accepts.
pub const MAX_MOVES_TO_GO: i64 = 1000;

/// How long a `go` whose words set no usable limit searches, in ms.
pub const FALLBACK_MS: u64 = 1000;

/// A `go` command, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Go {
    /// The limits the search starts with.
    pub limits: Limits,
    /// The time limits that start at `ponderhit` (for `go ponder`).
    pub on_ponderhit: Limits,
    /// `go ponder`: search until `stop` or `ponderhit`.
    pub ponder: bool,
    /// `go infinite`: search until `stop`.
    pub infinite: bool,
    /// What was wrong with the words, for `info string` lines.
    pub notes: Vec<String>,
}

impl Go {
    /// Whether the `bestmove` waits for `stop` (or `ponderhit`), even
    /// when the search ends by itself.
    pub fn holds_bestmove(&self) -> bool {
        self.ponder || self.infinite
    }
}

const KEYWORDS: [&str; 11] = [
    "depth",
    "movetime",
    "nodes",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
];

/// A word as a number: an integer, saturated to `i64` when it has too
/// many digits; `None` if it is not an integer.
fn number(word: &str) -> Option<i64> {
    if let Ok(n) = word.parse::<i64>() {
        return Some(n);
    }
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Some(if word.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        });
    }
    None
}

/// `n` clamped to `lo..=hi`, with a note when it was outside.
fn clamp(key: &str, n: i64, lo: i64, hi: i64, notes: &mut Vec<String>) -> i64 {
    let c = n.clamp(lo, hi);
    if c != n {
        notes.push(format!("{key} {n} is out of range: using {c}"));
    }
    c
}

fn millis(key: &str, n: i64, notes: &mut Vec<String>) -> Duration {
    Duration::from_millis(clamp(key, n, 0, MAX_MS, notes) as u64)
}

/// Reads the words after `go` for a search with `side` to move.
pub fn parse_go(words: &[&str], side: Side) -> Go {
    let mut notes = Vec::new();
    let mut base = Limits::default();
    let mut movetime = None;
    let mut clock = [Clock::default(), Clock::default()];
    let mut timed = false;
    let (mut ponder, mut infinite) = (false, false);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "infinite" => {
                infinite = true;
                continue;
            }
            "ponder" => {
                ponder = true;
                continue;
            }
            k if !KEYWORDS.contains(&k) => {
                notes.push(format!("ignored '{k}' in go"));
                continue;
            }
            _ => {}
        }
        // A keyword with a value: the next word, unless it is a keyword.
        let value = match words.get(i) {
            Some(w) if !KEYWORDS.contains(w) => {
                i += 1;
                *w
            }
            _ => {
                notes.push(format!("'{key}' needs a value in go"));
                continue;
            }
        };
        if key == "searchmoves" {
            notes.push("searchmoves is not supported: searching every move".to_string());
            // The moves run up to the next keyword.
            while words.get(i).is_some_and(|w| !KEYWORDS.contains(w)) {
                i += 1;
            }
            continue;
        }
        let Some(n) = number(value) else {
            notes.push(format!("'{key}' needs a number in go, not '{value}'"));
            continue;
        };
        let notes = &mut notes;
        let player = |name: &str| usize::from(name.starts_with('b'));
        match key {
            "depth" => base.depth = Some(clamp(key, n, 1, i64::from(MAX_DEPTH), notes) as u32),
            "nodes" => base.nodes = Some(clamp(key, n, 1, MAX_NODES, notes) as u64),
            "movetime" => movetime = Some(millis(key, n, notes)),
            "wtime" | "btime" => {
                clock[player(key)].time_left = millis(key, n, notes);
                timed = true;
            }
            "winc" | "binc" => clock[player(key)].increment = millis(key, n, notes),
            _ => {
                let moves = clamp(key, n, 1, MAX_MOVES_TO_GO, notes) as u32;
                clock[0].moves_to_go = Some(moves);
                clock[1].moves_to_go = Some(moves);
            }
        }
    }
    let time = Limits {
        movetime,
        clock: timed.then_some(clock[usize::from(side == Side::North)]),
        ..Limits::default()
    };
    let mut limits = base;
    let mut on_ponderhit = Limits::default();
    if ponder {
        // The clock starts at `ponderhit`.
        on_ponderhit = time;
    } else if infinite {
        if time != Limits::default() {
            notes.push("time limits do not apply to go infinite".to_string());
        }
    } else {
        limits.movetime = time.movetime;
        limits.clock = time.clock;
        if limits == Limits::default() && !words.is_empty() {
            notes.push(format!(
                "no usable limit in go: searching for {FALLBACK_MS} ms"
            ));
            limits.movetime = Some(Duration::from_millis(FALLBACK_MS));
        }
    }
    Go {
        limits,
        on_ponderhit,
        ponder,
        infinite,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        let words: Vec<&str> = line.split_whitespace().collect();
        parse_go(&words, Side::South)
    }

    #[test]
    fn numbers_out_of_range_are_clamped_and_reported() {
        let g = go("wtime -50 btime -50");
        let clock = g.limits.clock.expect("a clock");
        assert_eq!(clock.time_left, Duration::ZERO);
        assert_eq!(g.notes.len(), 2, "{:?}", g.notes);
        let g = go("depth 99999999999999999999999 nodes -3");
        assert_eq!(g.limits.depth, Some(MAX_DEPTH));
        assert_eq!(g.limits.nodes, Some(1));
        assert_eq!(g.notes.len(), 2, "{:?}", g.notes);
        let g = go("movetime 18446744073709551615");
        assert_eq!(
            g.limits.movetime,
            Some(Duration::from_millis(MAX_MS as u64))
        );
    }

    #[test]
    fn garbage_never_makes_a_search_infinite() {
        for line in ["depth x", "wtime", "movetime ten", "foo", "nodes depth"] {
            let g = go(line);
            assert!(!g.holds_bestmove(), "{line}");
            assert_ne!(g.limits, Limits::default(), "{line}");
            assert!(!g.notes.is_empty(), "{line}");
        }
        assert_eq!(go("").limits, Limits::default());
        assert!(go("infinite").infinite);
    }

    #[test]
    fn ponder_keeps_the_clock_for_ponderhit() {
        let g = go("ponder wtime 1000 btime 2000 winc 10 binc 20 depth 9");
        assert!(g.ponder && g.notes.is_empty(), "{:?}", g.notes);
        assert_eq!(g.limits, Limits::depth(9));
        let clock = g.on_ponderhit.clock.expect("a clock");
        assert_eq!(clock.time_left, Duration::from_millis(1000));
        assert_eq!(clock.increment, Duration::from_millis(10));
        let north = parse_go(&["btime", "2000", "wtime", "1000"], Side::North);
        assert_eq!(
            north.limits.clock.unwrap().time_left,
            Duration::from_millis(2000)
        );
    }
}
