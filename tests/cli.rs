//! The `oware` binary: good output, and bad input giving a one-line error
//! and exit code 2 without a panic.

mod common;

use std::process::Output;

use common::{fails, oware};

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn no_subcommand_prints_help_with_examples() {
    let out = oware(&[]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("oware show --moves FfBe"));
}

#[test]
fn show_prints_board_and_status() {
    let out = oware(&["show"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("Position:   4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
        "{text}"
    );
    assert!(text.contains("Legal:      A B C D E F"), "{text}");
    assert!(text.contains("Status:     ongoing"), "{text}");
}

#[test]
fn show_json_has_every_field() {
    let out = oware(&["show", "--json", "--moves", "F"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["position"], "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
    assert_eq!(v["pits"].as_array().unwrap().len(), 12);
    assert_eq!(v["stores"], serde_json::json!([0, 0]));
    assert_eq!(v["to_move"], "N");
    assert_eq!(
        v["legal"],
        serde_json::json!(["a", "b", "c", "d", "e", "f"])
    );
    assert_eq!(v["status"], "ongoing");
    assert!(v["winner"].is_null() && v["reason"].is_null());
}

#[test]
fn show_json_reports_the_end_and_sweep() {
    let out = oware(&["show", "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "over");
    assert_eq!(v["winner"], "N");
    assert_eq!(v["reason"], "no-seeds");
    assert_eq!(v["stores"], serde_json::json!([20, 23]));
    assert_eq!(v["legal"], serde_json::json!([]));
}

#[test]
fn trace_prints_one_line_per_state() {
    let out = oware(&["show", "--trace", "--moves", "F f B"]);
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["position"], "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    assert_eq!(lines[3]["to_move"], "N");
}

#[test]
fn ogn_files_are_read_and_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ogn");
    let out = oware(&["show", "--moves", "FfBe", "--emit-ogn"]);
    std::fs::write(&path, &out.stdout).unwrap();
    let text = stdout(&out);
    assert!(text.contains("1. F f 2. B e *"), "{text}");
    let back = oware(&["show", "--ogn", path.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    let direct = oware(&["show", "--moves", "FfBe", "--json"]);
    let w: serde_json::Value = serde_json::from_slice(&direct.stdout).unwrap();
    assert_eq!(v, w);
}

#[test]
fn perft_counts_and_divides() {
    let out = oware(&["perft", "--depth", "3"]);
    assert!(
        stdout(&out).contains("perft 3 = 190 leaves"),
        "{}",
        stdout(&out)
    );
    let out = oware(&["perft", "--depth", "2", "--divide", "--threads", "1"]);
    let text = stdout(&out);
    assert_eq!(
        text.lines().filter(|l| l.ends_with(": 6")).count(),
        6,
        "{text}"
    );
}

#[test]
fn bad_input_fails_with_exit_code_2() {
    fails(&["show", "4-4-4-S"], "15 fields");
    fails(&["show", "4-4-4-4-4-4-4-4-4-4-4-4-9-0-S"], "57 seeds");
    fails(
        &["show", "99999999999999999999-4-4-4-4-4-4-4-4-4-4-4-0-0-S"],
        "pit 0 (A) is too large",
    );
    fails(&["show", "--moves", "FF"], "move 2 (F)");
    fails(&["show", "--moves", "FZ"], "'Z' is not a move");
    fails(&["show", "--moves", "a"], "belongs to North");
    fails(&["show", "--rules", "bogus"], "unknown rules");
    // Oware's own rule sets only: Mancala is not offered where it is no choice.
    fails(
        &["tune", "--rules", "mancala"],
        "unknown Oware rules 'mancala' (expected abapa, grand-slam-forbidden, capture-and-end, capture-to-win or awari)",
    );
    fails(&["show", "--ogn", "/nonexistent/game.ogn"], "cannot read");
    fails(&["perft"], "--depth");
    fails(
        &["show", "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S", "--moves", "A"],
        "game is over",
    );
}
