//! `oware match --rules mancala`: real matches between the built-in engine
//! and our own UCI engine, records that replay through `show`, a broken
//! engine losing its games, the SPRT stop, adjudication by the tables and
//! the errors.

mod common;

use std::path::Path;

use common::{fails, oware, stdout};
use oware::ogn::GameRecord;

const BIN: &str = env!("CARGO_BIN_EXE_oware");

fn json(args: &[&str]) -> serde_json::Value {
    let text = stdout(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}: {text}"))
}

/// The records of an OGN file of the match.
fn records(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .split("\n\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Replays each record through `oware show --rules mancala --ogn` (with
/// `flags`) and checks that the game it gives ended as the record says.
fn replay_all(dir: &Path, records: &[String], flags: &[&str]) {
    for (i, text) in records.iter().enumerate() {
        let rec = GameRecord::parse(text).unwrap();
        assert_eq!(rec.tag("Variant"), Some("Mancala"), "{text}");
        let file = dir.join(format!("game{i}.ogn"));
        std::fs::write(&file, text).unwrap();
        let mut args = vec!["show", "--rules", "mancala", "--json", "--ogn"];
        args.push(file.to_str().unwrap());
        args.extend_from_slice(flags);
        let shown: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
        let stores = shown["stores"].as_array().unwrap();
        let result = format!("{}-{}", stores[0], stores[1]);
        assert_eq!(rec.tag("Result"), Some(result.as_str()), "{text}\n{shown}");
        let termination = rec.tag("Termination").unwrap();
        if termination.starts_with("normal") {
            assert_eq!(shown["status"], "over", "{text}\n{shown}");
            let reason = shown["reason"].as_str().unwrap();
            assert_eq!(termination, format!("normal ({reason})"), "{text}");
            let winner = match shown["winner"].as_str() {
                Some("S") => "South",
                Some("N") => "North",
                _ => "draw",
            };
            assert_eq!(rec.tag("Winner"), Some(winner), "{text}\n{shown}");
        }
    }
}

/// The score from A's side sums to the games.
fn check_counts(v: &serde_json::Value, games: u64) {
    let count = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(count("games"), games, "{v}");
    assert_eq!(
        count("wins") + count("draws") + count("losses"),
        games,
        "{v}"
    );
    let score = (count("wins") as f64 + count("draws") as f64 / 2.0) / games as f64;
    assert!((v["score"].as_f64().unwrap() - score).abs() < 1e-9, "{v}");
}

#[test]
fn the_built_in_engine_against_our_uci_engine() {
    let dir = tempfile::tempdir().unwrap();
    let ogn = dir.path().join("games.ogn");
    let spec = format!("uci:{BIN} uci --rules mancala");
    let v = json(&[
        "match",
        "self",
        &spec,
        "--rules",
        "mancala",
        "--depth",
        "2",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--ogn",
        ogn.to_str().unwrap(),
        "--json",
    ]);
    check_counts(&v, 6);
    assert_eq!(v["forfeits"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["endings"]["normal"], 6, "{v}");
    let records = records(&ogn);
    assert_eq!(records.len(), 6);
    // Another go: some game has a side moving twice in a row.
    let twice = records.iter().any(|r| {
        let rec = GameRecord::parse(r).unwrap();
        rec.moves.windows(2).any(|w| w[0].side() == w[1].side())
    });
    assert!(twice, "no another go in {records:?}");
    replay_all(dir.path(), &records, &[]);
}

#[test]
fn an_engine_not_started_for_mancala_is_set_to_its_rules() {
    // `oware uci` plays Oware until told otherwise: the match sets Rules,
    // StartSeeds and EmptyCapture.
    let dir = tempfile::tempdir().unwrap();
    let ogn = dir.path().join("games.ogn");
    let spec = format!("uci:{BIN} uci");
    let v = json(&[
        "match",
        "self",
        &spec,
        "--rules",
        "mancala",
        "--start-seeds",
        "4",
        "--empty-capture",
        "--nodes",
        "500",
        "--games",
        "4",
        "--random-plies",
        "3",
        "--ogn",
        ogn.to_str().unwrap(),
        "--json",
    ]);
    check_counts(&v, 4);
    assert_eq!(v["forfeits"].as_array().unwrap().len(), 0, "{v}");
    let records = records(&ogn);
    for r in &records {
        assert!(r.contains("[EmptyCapture \"Yes\"]"), "{r}");
        assert!(r.contains("[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]"), "{r}");
    }
    replay_all(
        dir.path(),
        &records,
        &["--empty-capture", "--start-seeds", "4"],
    );
}

/// A fake engine: a shell script answering the handshake and `go` with
/// `on_go` (a shell command).
fn script(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("uci:sh {}", path.display())
}

#[test]
fn a_broken_engine_loses_its_games_without_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    for (name, on_go, kind) in [
        ("hanger", "sleep 30", "hang"),
        ("crasher", "exit 1", "crash"),
        ("liar", "echo 'bestmove a'", "illegal"),
    ] {
        let spec = script(dir.path(), name, on_go);
        let started = std::time::Instant::now();
        let v = json(&[
            "match",
            "self",
            &spec,
            "--rules",
            "mancala",
            "--movetime",
            "20",
            "--hang-margin",
            "300",
            "--games",
            "2",
            "--openings",
            "start",
            "--json",
        ]);
        assert!(started.elapsed().as_secs() < 20, "{name} took too long");
        check_counts(&v, 2);
        // South moves first: the liar's `a` is North's, so illegal as
        // South; as North it may be legal, so only its South game counts.
        let forfeits = v["forfeits"].as_array().unwrap();
        assert!(!forfeits.is_empty(), "{name}: {v}");
        for f in forfeits {
            assert_eq!(f["engine"], "B", "{v}");
            assert!(f["what"].as_str().unwrap().contains(kind), "{v}");
        }
        if kind != "illegal" {
            assert_eq!(v["wins"], 2, "{name}: {v}");
        }
    }
}

#[test]
fn an_sprt_run_finishes_with_a_verdict() {
    let v = json(&[
        "match",
        "self",
        "self:depth=1",
        "--rules",
        "mancala",
        "--depth",
        "6",
        "--sprt",
        "0,300",
        "--games",
        "600",
        "--json",
    ]);
    let sprt = &v["sprt"];
    assert!(sprt["verdict"].is_string(), "{v}");
    let games = v["games"].as_u64().unwrap();
    assert!(games < 600, "{v}");
    check_counts(&v, games);
}

#[test]
fn a_series_of_mancala() {
    let v = json(&[
        "match",
        "self",
        "self:depth=2",
        "--rules",
        "mancala",
        "--depth",
        "4",
        "--series",
        "best-of:3",
        "--json",
    ]);
    let series = &v["series"];
    let played = series["a_won"].as_u64().unwrap()
        + series["b_won"].as_u64().unwrap()
        + series["drawn"].as_u64().unwrap();
    assert_eq!(played, 1, "{v}");
}

#[test]
fn the_tables_adjudicate_exact_positions() {
    let dir = tempfile::tempdir().unwrap();
    let rules = oware::mancala::MancalaRules::DEFAULT;
    oware::tb::build_levels(&rules, dir.path(), 6, false, |_| {}).unwrap();
    // 22 seeds in play: no store can reach 25, so every table value is
    // the game's.
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "1-1-1-1-1-1-1-1-1-1-1-1-5-5-S\n").unwrap();
    let v = json(&[
        "match",
        "self",
        "self:depth=1",
        "--rules",
        "mancala",
        "--depth",
        "3",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--db",
        dir.path().to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["endings"]["tables"], 2, "{v}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let plain = script(dir.path(), "plain", "echo 'bestmove A'");
    fails(
        &[
            "match",
            "self",
            &plain,
            "--rules",
            "mancala",
            "--empty-capture",
        ],
        "has no option EmptyCapture",
    );
    fails(
        &["match", "self", "self:eval=x.txt", "--rules", "mancala"],
        "eval files are Oware's",
    );
    fails(
        &[
            "match",
            "self",
            "self:db=/nonexistent",
            "--rules",
            "mancala",
        ],
        "not found",
    );
    let empty = tempfile::tempdir().unwrap();
    let rules = oware::mancala::MancalaRules::new(3, true);
    oware::tb::build_levels(&rules, empty.path(), 2, false, |_| {}).unwrap();
    fails(
        &[
            "match",
            "self",
            "self",
            "--rules",
            "mancala",
            "--db",
            empty.path().to_str().unwrap(),
        ],
        "no Mancala tables of the standard convention",
    );
    let openings = dir.path().join("bad.txt");
    std::fs::write(&openings, "Da\n").unwrap();
    fails(
        &[
            "match",
            "self",
            "self",
            "--rules",
            "mancala",
            "--openings",
            openings.to_str().unwrap(),
        ],
        "line 1",
    );
    fails(
        &[
            "match",
            "self",
            "self",
            "--rules",
            "mancala",
            "--no-repetition",
        ],
        "do not apply to mancala",
    );
    let out = oware(&[
        "match",
        "self",
        "self",
        "--rules",
        "mancala",
        "--start-seeds",
        "6",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
