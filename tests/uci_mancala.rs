//! The engine protocol playing Arabic Mancala: chosen by `--rules` or the
//! options `Rules` and `StartSeeds`, a move a letter, another go keeping
//! the side to move.

mod common;

use common::uci_session;

/// The letter of the last `bestmove`.
fn best(out: &[String]) -> char {
    let line = out
        .iter()
        .rfind(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {out:?}"));
    line.chars().nth("bestmove ".len()).unwrap()
}

#[test]
fn the_options_choose_mancala_and_its_start() {
    // Three seeds: D ends in South's store (another go), C does not.
    let out = uci_session(
        &[],
        &[
            "uci",
            "setoption name Rules value mancala",
            "position startpos moves D",
            "go depth 6",
            "wait",
            "position startpos moves C",
            "go depth 6",
            "wait",
            // Four seeds: C now ends in the store.
            "setoption name StartSeeds value 4",
            "position startpos moves C",
            "go depth 6",
            "wait",
        ],
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name Rules type combo default abapa")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.contains("option name StartSeeds")));
    assert!(out.iter().any(|l| l.starts_with("info string tables: ")));
    let bests: Vec<char> = out
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .map(|l| l.chars().nth(9).unwrap())
        .collect();
    assert_eq!(bests.len(), 3, "{out:?}");
    assert!(
        bests[0].is_ascii_uppercase(),
        "South again after D: {out:?}"
    );
    assert!(bests[1].is_ascii_lowercase(), "North after C: {out:?}");
    assert!(
        bests[2].is_ascii_uppercase(),
        "South again after C: {out:?}"
    );
}

#[test]
fn a_chain_of_other_goes_is_proven_with_its_margin() {
    let out = uci_session(
        &["--rules", "mancala"],
        &[
            "position fen 1-0-0-0-2-1-0-0-0-0-0-1-22-24-S",
            "go depth 12",
            "wait",
        ],
    );
    let last = out
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    // Solved: a win by one seed, the game over after three moves of South.
    assert!(last.contains(" score cp 100 mate 3 "), "{last}");
    assert!(last.ends_with(" pv FEF"), "{last}");
    assert_eq!(out.last().unwrap(), "bestmove F ponder E");
    // Before it is solved, a proven score is the least the win gets.
    assert!(
        out.iter()
            .any(|l| l.contains(" score cp 100 lowerbound mate 3 ")),
        "{out:?}"
    );
}

#[test]
fn the_start_seeds_flag_and_bad_input() {
    let out = uci_session(
        &["--rules", "mancala", "--start-seeds", "4"],
        &[
            "setoption name StartSeeds value 6",
            "setoption name Rules value chess",
            // With four seeds C gives another go: `a` is illegal after it.
            "position startpos moves Ca",
            "position fen 7-7-7-7-7-7-7-7-7-7-7-7-0-1-S",
            "position startpos moves C",
            "go depth 4",
            "wait",
            "isready",
        ],
    );
    for needle in [
        "bad StartSeeds value '6'",
        "bad Rules value 'chess'",
        "move 2 (a) is illegal",
        "bad position",
    ] {
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string") && l.contains(needle)),
            "{needle}: {out:?}"
        );
    }
    // Four seeds: C gave another go.
    assert!(best(&out).is_ascii_uppercase(), "{out:?}");
    assert_eq!(out.last().unwrap(), "readyok");
    // Back to Oware: its start, North to move after F.
    let out = uci_session(
        &["--rules", "mancala"],
        &[
            "setoption name Rules value abapa",
            "position startpos moves F",
            "go depth 4",
            "wait",
        ],
    );
    assert!(best(&out).is_ascii_lowercase(), "{out:?}");
}

#[test]
fn the_rules_flag_is_checked() {
    common::fails(
        &["uci", "--rules", "mancala", "--start-seeds", "6"],
        "3, 4, 5 or 7",
    );
    common::fails(&["uci", "--start-seeds", "3"], "Oware starts with 4");
    common::fails(&["uci", "--rules", "chess"], "chess");
}
