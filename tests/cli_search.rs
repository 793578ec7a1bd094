//! `oware bestmove`, `analyze` and `bench` from the command line.

mod common;

use common::{oware, stdout};

#[test]
fn bestmove_prints_iterations_and_a_legal_move() {
    let text = stdout(&["bestmove", "--depth", "6", "--no-db", "--no-book"]);
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
        "--no-book",
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

/// A folder holding a copy of the shipped book (and no tables).
fn folder_with_the_book() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("databases/book.owb");
    std::fs::copy(shipped, dir.path().join("book.owb")).unwrap();
    dir
}

#[test]
fn bestmove_plays_the_book_next_to_the_tables_by_default_and_names_it() {
    let dir = folder_with_the_book();
    let db = dir.path().to_str().unwrap();
    let book = format!("book: {db}/book.owb (");
    // --db: the book in that folder is played, and named on stderr.
    let out = oware(&["bestmove", "--db", db, "--depth", "3"]);
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(err.contains(&book), "{err}");
    assert!(text.starts_with("book "), "{text}");
    assert!(!text.contains("depth"), "{text}");
    // $OWARE_DB names the folder as well.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["bestmove", "--depth", "3"])
        .env("OWARE_DB", db)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains(&book));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("book "));
    // With no folder named, databases/book.owb (shipped with the engine).
    let out = oware(&["bestmove", "--no-db", "--depth", "3"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("book: databases/book.owb ("), "{err}");
    // --no-book: a search.
    let out = oware(&["bestmove", "--db", db, "--depth", "3", "--no-book"]);
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("book"), "{err}");
    assert!(text.contains("depth  3"), "{text}");
    // Out of the book, a search.
    let text = stdout(&[
        "bestmove",
        "0-0-0-1-1-0-1-1-0-0-0-0-22-22-S",
        "--db",
        db,
        "--depth",
        "3",
    ]);
    assert!(text.contains("depth  3"), "{text}");
}

#[test]
fn without_a_book_bestmove_searches_as_before() {
    let empty = tempfile::tempdir().unwrap();
    let db = empty.path().to_str().unwrap();
    let out = oware(&["bestmove", "--db", db, "--depth", "4"]);
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("book"), "{err}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("depth")).count(),
        4,
        "{text}"
    );
    assert_eq!(
        text.lines().last(),
        stdout(&["bestmove", "--no-db", "--no-book", "--depth", "4"])
            .lines()
            .last()
    );
    // The book of other rules is said and not used.
    let dir = folder_with_the_book();
    let db = dir.path().to_str().unwrap();
    let out = oware(&["bestmove", "--db", db, "--rules", "awari", "--depth", "2"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("book not used"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("depth  2"));
}

#[test]
fn depth_zero_is_refused_on_the_command_line_and_one_ply_in_the_library() {
    for command in ["bestmove", "analyze"] {
        common::fails(&[command, "--depth", "0", "--no-db"], "--depth");
    }
    let engine: oware::search::Engine = oware::search::Engine::new(4, 1, None);
    let game = oware::Game::new(oware::Position::START, oware::Rules::ABAPA);
    let result = engine
        .search(&game, &oware::search::Limits::depth(0), |_| {})
        .unwrap();
    assert_eq!(result.last.depth, 1);
    assert!(result.last.nodes > 0);
}
