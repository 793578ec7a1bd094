//! `oware bestmove`, `analyze` and `bench` playing Arabic Mancala
//! (`--rules mancala`), and what they refuse.

mod common;

use common::{fails, stdout};

/// The position where South's only win is F, E, F: three moves in a row,
/// each ending in its store (see tests/mancala_search.rs).
const CHAIN: &str = "1-0-0-0-2-1-0-0-0-0-0-1-22-24-S";

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

#[test]
fn bestmove_proves_a_chain_of_other_goes_with_its_margin() {
    let v = json(&[
        "bestmove", "--rules", "mancala", CHAIN, "--depth", "20", "--json",
    ]);
    assert_eq!(v["best"], "F", "{v}");
    assert_eq!(v["pv"], serde_json::json!(["F", "E", "F"]), "{v}");
    assert_eq!(v["score"], 1.0, "{v}");
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["plies"], 3, "{v}");
    assert!(v["bound"].is_null(), "solved: {v}");
    // Solved at a shallow depth, the search stopped there.
    assert!(v["depth"].as_u64().unwrap() < 20, "{v}");
    let text = stdout(&["bestmove", "--rules", "mancala", CHAIN, "--depth", "20"]);
    assert!(text.lines().any(|l| l.contains("win+1@3")), "{text}");
    assert_eq!(text.lines().last(), Some("bestmove F"));
}

#[test]
fn bestmove_moves_follow_another_go() {
    // From the 3-seed start D ends in South's store: South moves again.
    let v = json(&[
        "bestmove", "--rules", "mancala", "--moves", "D", "--depth", "6", "--json",
    ]);
    let best = v["best"].as_str().unwrap();
    assert!(("A"..="F").contains(&best), "{v}");
    // Four seeds: C does that, D does not.
    let v = json(&[
        "bestmove",
        "--rules",
        "mancala",
        "--start-seeds",
        "4",
        "--moves",
        "D",
        "--depth",
        "6",
        "--json",
    ]);
    let best = v["best"].as_str().unwrap();
    assert!(("a"..="f").contains(&best), "{v}");
}

#[test]
fn analyze_scores_every_move_best_first() {
    let v = json(&[
        "analyze", "--rules", "mancala", CHAIN, "--depth", "20", "--json",
    ]);
    assert_eq!(v["position"], CHAIN);
    let moves = v["moves"].as_array().unwrap();
    let order: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(order[0], "F", "{v}");
    assert_eq!(order.len(), 3, "{v}");
    assert_eq!(moves[0]["result"], "win");
    for m in &moves[1..] {
        assert_eq!(m["result"], "loss", "{m}");
        assert!(m["score"].as_f64().unwrap() < 0.0, "{m}");
        assert!(m["bound"].is_null(), "solved: {m}");
    }
    let text = stdout(&["analyze", "--rules", "mancala", "--depth", "4"]);
    assert_eq!(text.lines().count(), 6, "{text}");
}

#[test]
fn bench_runs_its_own_suite_deterministically() {
    let run = || stdout(&["bench", "--rules", "mancala", "--depth", "8"]);
    let (a, b) = (run(), run());
    let total = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split(", ")
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(
        a.lines().last().unwrap().starts_with("total: 20 positions"),
        "{a}"
    );
    assert_eq!(total(&a), total(&b));
    let v = json(&["bench", "--rules", "mancala", "--depth", "4", "--json"]);
    assert_eq!(v["positions"].as_array().unwrap().len(), 20);
    assert_eq!(v["positions"][0]["name"], "start-3");
    // Oware's suite is still the default.
    let oware = stdout(&["bench", "--depth", "2", "--no-db"]);
    assert!(
        oware
            .lines()
            .last()
            .unwrap()
            .starts_with("total: 36 positions")
    );
}

#[test]
fn bad_input_is_refused_on_one_line() {
    for (args, needle) in [
        (
            vec!["bestmove", "--rules", "mancala", "1-2-3"],
            "bad position",
        ),
        (
            vec!["bestmove", "--rules", "mancala", "--moves", "Da"],
            "move 2 (a) cannot be played",
        ),
        (
            vec![
                "analyze",
                "--rules",
                "mancala",
                "0-0-0-0-0-0-0-0-0-0-0-0-18-18-S",
                "--no-db",
            ],
            "the game is over",
        ),
        (
            vec!["bestmove", "--rules", "mancala", "--db", "databases"],
            "no Mancala tables of the standard convention",
        ),
        (
            vec!["bestmove", "--rules", "mancala", "--book", "book.owb"],
            "the opening book is Oware's",
        ),
        (
            vec!["bestmove", "--rules", "mancala", "--start-seeds", "6"],
            "3, 4, 5 or 7",
        ),
        (
            vec!["bench", "--rules", "awari"],
            "the bench suites are abapa's and mancala's",
        ),
    ] {
        fails(&args, needle);
    }
}
