//! The capture-to-win rule set wherever rules are taken: show, the search,
//! the tables (which decline it), UCI, matches and their records, and the
//! web board's API. The rules themselves are in `tests/data/rules.txt`
//! (worked examples) and `tests/perft.rs` (perft against a slow path).

mod common;
mod server;

use common::{fails, oware, stdout};
use serde_json::json;

/// South's F is a grand slam of 5 seeds: from 20 seeds captured it reaches
/// 25 and wins under capture-to-win; Abapa forfeits it.
const WINS: &str = "3-0-0-0-0-2-1-2-0-0-0-0-20-20-S";
/// The same grand slam from 18: 23, forfeited under both rules.
const FORFEITED: &str = "3-0-0-0-0-2-1-2-0-0-0-0-18-22-S";

#[test]
fn show_plays_the_grand_slam_that_wins_and_forfeits_the_one_that_does_not() {
    let text = stdout(&["show", WINS, "--rules", "capture-to-win", "--moves", "F"]);
    assert!(
        text.contains("Position:   3-0-0-0-0-0-0-0-0-0-0-0-25-20-N"),
        "{text}"
    );
    assert!(text.contains("Rules:      capture-to-win"), "{text}");
    assert!(text.contains("over, South wins 25-20"), "{text}");
    let text = stdout(&[
        "show",
        FORFEITED,
        "--rules",
        "capture-to-win",
        "--moves",
        "F",
    ]);
    assert!(
        text.contains("Position:   3-0-0-0-0-0-2-3-0-0-0-0-18-22-N"),
        "{text}"
    );
    assert!(text.contains("Status:     ongoing"), "{text}");
    // Abapa forfeits the first one too.
    let text = stdout(&["show", WINS, "--moves", "F"]);
    assert!(
        text.contains("Position:   3-0-0-0-0-0-2-3-0-0-0-0-20-20-N"),
        "{text}"
    );
}

#[test]
fn the_search_takes_the_winning_grand_slam() {
    let json = |rules: &str, pos: &str| -> serde_json::Value {
        let out = stdout(&[
            "bestmove",
            pos,
            "--rules",
            rules,
            "--depth",
            "4",
            "--no-db",
            "--no-book",
            "--json",
        ]);
        serde_json::from_str(&out).unwrap()
    };
    let v = json("capture-to-win", WINS);
    assert_eq!(v["best"], "F", "{v}");
    assert_eq!(v["result"], "win", "{v}");
    assert_eq!(v["plies"], 1, "{v}");
    // Under Abapa, F captures nothing: no win at once.
    let v = json("abapa", WINS);
    assert_ne!(v["plies"], 1, "{v}");
}

#[test]
fn the_tables_decline_capture_to_win_with_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let why = "capture-to-win has no endgame tables";
    fails(
        &[
            "build",
            "--rules",
            "capture-to-win",
            "--max-seeds",
            "2",
            "--db",
            dir,
        ],
        why,
    );
    fails(&["probe", FORFEITED, "--rules", "capture-to-win"], why);
    fails(&["stats", "--rules", "capture-to-win", "--db", dir], why);
    fails(&["verify", "--rules", "capture-to-win", "--db", dir], why);
    // The search plays on without tables, and says why, even with Abapa's
    // tables in the folder.
    common::build(tmp.path(), "4");
    let out = oware(&[
        "bestmove",
        FORFEITED,
        "--rules",
        "capture-to-win",
        "--db",
        dir,
        "--depth",
        "3",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("tables: none (capture-to-win has no tables"),
        "{err}"
    );
    // A match refuses to adjudicate capture-to-win with tables.
    let out = oware(&[
        "match",
        "self",
        "self",
        "--rules",
        "capture-to-win",
        "--db",
        dir,
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no endgame tables"));
}

#[test]
fn uci_offers_and_plays_capture_to_win() {
    let out = common::uci_session(
        &["--db", "/nonexistent", "--no-book"],
        &[
            "uci",
            "setoption name Rules value capture-to-win",
            &format!("position fen {WINS}"),
            "go depth 3",
            "wait",
        ],
    );
    let rules = out
        .iter()
        .find(|l| l.starts_with("option name Rules"))
        .unwrap();
    assert!(rules.contains("var capture-to-win"), "{rules}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string tables: none (capture-to-win has no tables")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove F", "{out:?}");
    // `--rules` as well.
    let out = common::uci_session(
        &["--rules", "capture-to-win", "--db", "/nonexistent"],
        &[&format!("position fen {WINS}"), "go depth 2", "wait"],
    );
    assert_eq!(out.last().unwrap(), "bestmove F", "{out:?}");
}

#[test]
fn a_match_under_capture_to_win_tags_its_records() {
    let tmp = tempfile::tempdir().unwrap();
    let ogn = tmp.path().join("games.ogn");
    stdout(&[
        "match",
        "self",
        "self",
        "--rules",
        "capture-to-win",
        "--games",
        "2",
        "--depth",
        "1",
        "--max-plies",
        "12",
        "--ogn",
        ogn.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&ogn).unwrap();
    assert_eq!(
        text.matches("[Variant \"Capture-To-Win\"]").count(),
        2,
        "{text}"
    );
    for text in text.split("\n\n\n").filter(|r| !r.trim().is_empty()) {
        let record = oware::ogn::GameRecord::parse(text).unwrap();
        assert_eq!(record.variant(), Some(oware::Variant::CaptureToWin));
        record
            .replay(oware::Rules::of(oware::Variant::CaptureToWin))
            .unwrap();
    }
}

#[test]
fn the_web_board_creates_and_plays_capture_to_win_games() {
    let data = tempfile::tempdir().unwrap();
    let server = server::Server::open(data.path());
    let created = server.create(json!({
        "rules": "capture-to-win", "south": "human", "north": "human", "start": WINS,
    }));
    let id = server::str_of(&created["id"]).to_string();
    let token = server::str_of(&created["token"]).to_string();
    assert_eq!(created["state"]["rules"], "capture-to-win", "{created}");
    let (status, after) = server.play(&id, "F", &token);
    assert_eq!(status, 200, "{after}");
    let (_, state) = server.get_json(&format!("/api/games/{id}"));
    assert_eq!(state["status"], "over", "{state}");
    assert_eq!(state["winner"], "S", "{state}");
    // The new-game form lists it.
    let (status, script) = server.get("/static/util.js");
    assert_eq!(status, 200);
    assert!(script.contains("\"capture-to-win\""));
}
