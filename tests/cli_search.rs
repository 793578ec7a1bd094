//! `oware bestmove`, `analyze` and `bench` from the command line.

mod common;

use common::{oware, stdout};

#[test]
fn bestmove_prints_iterations_and_a_legal_move() {
    let text = stdout(&["bestmove", "--depth", "6", "--no-db"]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("depth")).count(),
        6,
        "{text}"
    );
    let last = text.lines().last().unwrap();
    let mv = last.strip_prefix("bestmove ").unwrap();
    assert!(["A", "B", "C", "D", "E", "F"].contains(&mv), "{text}");
}

#[test]
fn bestmove_json_has_every_field() {
    let text = stdout(&[
        "bestmove",
        "--moves",
        "FfB",
        "--movetime",
        "200",
        "--no-db",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    for field in [
        "best", "score", "depth", "nodes", "nps", "time_ms", "pv", "tb_hits",
    ] {
        assert!(!v[field].is_null(), "{field} missing in {text}");
    }
    let best = v["best"].as_str().unwrap();
    assert!(("a"..="f").contains(&best), "North to move: {best}");
    assert_eq!(v["pv"][0], v["best"]);
    assert!(v["time_ms"].as_u64().unwrap() < 1000);
}

#[test]
fn analyze_scores_every_move() {
    let text = stdout(&["analyze", "startpos", "--depth", "5", "--no-db"]);
    assert_eq!(text.lines().count(), 6, "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&["analyze", "--depth", "5", "--no-db", "--json"])).unwrap();
    let scores: Vec<f64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores.len(), 6);
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "sorted best first: {scores:?}"
    );
}

#[test]
fn bench_node_count_is_deterministic() {
    let total = |out: String| out.lines().last().unwrap().to_string();
    let a = total(stdout(&["bench", "--depth", "7", "--no-db"]));
    let b = total(stdout(&["bench", "--depth", "7", "--no-db"]));
    assert!(a.starts_with("total: 36 positions"), "{a}");
    let nodes = |s: &str| s.split(", ").nth(1).unwrap().to_string();
    assert_eq!(nodes(&a), nodes(&b));
}

#[test]
fn bestmove_rejects_bad_input_and_finished_games() {
    for (args, needle) in [
        (
            vec![
                "bestmove",
                "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S",
                "--depth",
                "3",
            ],
            "game is over",
        ),
        (vec!["bestmove", "1-2-3", "--depth", "3"], "15 fields"),
        (
            vec!["bestmove", "--moves", "FF", "--depth", "3"],
            "cannot be played",
        ),
        (
            vec!["analyze", "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S"],
            "game is over",
        ),
        (
            vec!["bestmove", "--depth", "3", "--movetime", "10"],
            "cannot be used with",
        ),
    ] {
        let out = oware(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"));
    }
}
