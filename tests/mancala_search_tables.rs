//! The Mancala search with its endgame tables: the same exact values as
//! without them and as a plain memoised minimax (which plays the 25-seed
//! stop), the move chosen keeps the value, tables of the other capture
//! convention are never used, and the command line and the UCI engine
//! open, report and refuse tables as they should.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use common::mancala::{child_value, minimax, solved_search as solve};
use common::{Rng, fails, oware, uci_session};
use oware::mancala::search::decode;
use oware::mancala::{Mancala, MancalaGame, MancalaPosition, MancalaRules, MancalaTables};
use oware::search::{Engine, SearchGame, SearchResult};
use oware::{Side, tb};

/// The largest level built.
const LEVEL: usize = 8;

/// Builds levels 0..=[`LEVEL`] of `rules`' convention into `dir`.
fn build(dir: &Path, empty_capture: bool) {
    let rules = MancalaRules::new(3, empty_capture);
    tb::build_levels(&rules, dir, LEVEL, false, |_| {}).expect("build");
}

/// A random position of `board` seeds on the board (both rows holding
/// some) and stores below 25, or `None` when it is over.
fn random_position(rng: &mut Rng, board: usize, empty_capture: bool) -> Option<MancalaPosition> {
    let mut pits = [0u8; 12];
    for _ in 0..board {
        pits[rng.below(12)] += 1;
    }
    // Half the positions keep both stores low enough that the stop cannot
    // come (the tables are exact there), half may reach it.
    let top = if rng.below(2) == 0 { 25 - board } else { 25 };
    let stores = [rng.below(top) as u8, rng.below(top) as u8];
    let side = if rng.below(2) == 0 {
        Side::South
    } else {
        Side::North
    };
    let pos = MancalaPosition::new(pits, stores, side)
        .ok()?
        .with_empty_capture(empty_capture);
    pos.end().is_none().then_some(pos)
}

/// The margin a solved score holds (0 for a draw).
fn margin(r: &SearchResult) -> i32 {
    decode(r.last.score).map_or(0, |(m, _)| m)
}

#[test]
fn the_tables_give_the_exact_values_of_the_search_without_them() {
    for empty_capture in [false, true] {
        let (own, other) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        build(own.path(), empty_capture);
        build(other.path(), !empty_capture);
        let rules = MancalaRules::new(3, empty_capture);
        let other_rules = MancalaRules::new(3, !empty_capture);
        let tables = Arc::new(MancalaTables::open_for_search(own.path(), rules, 48).unwrap());
        let foreign =
            Arc::new(MancalaTables::open_for_search(other.path(), other_rules, 48).unwrap());
        let plain = Engine::<Mancala>::new(4, 1, None);
        let probing = Engine::<Mancala>::new(4, 1, Some(tables));
        let wrong = Engine::<Mancala>::new(4, 1, Some(foreign));
        let mut rng = Rng(0x5EED_0000 + u64::from(empty_capture));
        let (mut checked, mut hits, mut stop_reachable) = (0, 0, 0);
        while checked < 60 {
            let board = 3 + rng.below(10);
            let Some(pos) = random_position(&mut rng, board, empty_capture) else {
                continue;
            };
            checked += 1;
            stop_reachable += usize::from(!pos.stop_out_of_reach());
            let mut memo = HashMap::new();
            let exact = minimax(&pos, &mut memo);
            let without = solve(&plain, pos);
            let with = solve(&probing, pos);
            let ignored = solve(&wrong, pos);
            assert_eq!(margin(&without), exact, "{pos} without tables");
            assert_eq!(margin(&with), exact, "{pos} with tables");
            assert_eq!(margin(&ignored), exact, "{pos} with the other tables");
            assert_eq!(
                ignored.last.tb_hits, 0,
                "{pos}: the other convention probed"
            );
            let best = with.best.unwrap();
            assert_eq!(
                child_value(&pos, best, &mut memo),
                exact,
                "{pos} plays {best}"
            );
            hits += usize::from(with.last.tb_hits > 0);
        }
        assert!(hits >= 10, "only {hits} searches probed the tables");
        assert!(stop_reachable >= 10, "only {stop_reachable} could reach 25");
    }
}

#[test]
fn a_board_within_the_tables_is_settled_at_the_first_ply() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), false);
    let tables = MancalaTables::open_for_search(dir.path(), MancalaRules::DEFAULT, 48).unwrap();
    // Six seeds on the board, stores 3 and 5: every child is in level <= 6
    // and no store can reach 25.
    let pos: MancalaPosition = "1-0-2-0-0-0-0-1-0-0-2-0-3-5-S".parse().unwrap();
    assert!(pos.stop_out_of_reach());
    let table_value = i32::from(tables.probe(&pos).unwrap());
    let engine = Engine::<Mancala>::new(4, 1, Some(Arc::new(tables)));
    let r = solve(&engine, pos);
    assert_eq!(margin(&r), 3 - 5 + table_value);
    assert!(r.last.tb_hits > 0);
    // The root's children are all closed by the tables at ply 1 (or sooner
    // by the game's end), so the search is solved at depth 1 or 2.
    assert!(r.last.depth <= 2, "depth {}", r.last.depth);
    let pv = r.last.pv.clone();
    let game = MancalaGame::new(pos);
    let tables = engine.tables().map(|t| &**t);
    assert_eq!(Mancala::line_margin(&game, &pv, tables), Some(margin(&r)));
}

#[test]
fn the_command_line_reports_and_uses_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), false);
    let db = dir.path().to_str().unwrap();
    let pos = "2-1-0-0-1-0-1-0-2-0-0-1-10-12-N";
    let out = oware(&[
        "bestmove", "--rules", "mancala", pos, "--depth", "60", "--db", db, "--json",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tables: levels 0..8 of mancala from"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["tb_hits"].as_u64().unwrap() > 0, "{json}");
    assert_eq!(json["bound"], serde_json::Value::Null, "{json}");
    let mut memo = HashMap::new();
    let exact = minimax(&pos.parse().unwrap(), &mut memo);
    assert_eq!(json["score"].as_f64().unwrap(), f64::from(exact), "{json}");
    // The same with --no-db: no probe.
    let plain = oware(&[
        "bestmove", "--rules", "mancala", pos, "--depth", "60", "--no-db", "--json",
    ]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(plain["tb_hits"], 0);
    assert_eq!(plain["score"], json["score"]);
    // analyze and bench take the tables too.
    let out = oware(&[
        "analyze", "--rules", "mancala", pos, "--depth", "60", "--db", db, "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = oware(&[
        "bench",
        "--rules",
        "mancala",
        "--depth",
        "4",
        "--db",
        db,
        "--tb-limit",
        "6",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("tables: levels 0..6 of mancala"), "{err}");
}

#[test]
fn missing_and_foreign_tables_are_one_line_errors() {
    let (standard, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    build(standard.path(), false);
    build(empty.path(), true);
    let (standard, empty) = (
        standard.path().to_str().unwrap(),
        empty.path().to_str().unwrap(),
    );
    fails(
        &[
            "bestmove", "--rules", "mancala", "--db", empty, "--depth", "2",
        ],
        "no Mancala tables of the standard convention (it holds empty-capture ones",
    );
    fails(
        &[
            "analyze",
            "--rules",
            "mancala",
            "--empty-capture",
            "--db",
            standard,
            "--depth",
            "2",
        ],
        "no Mancala tables of the empty-capture convention",
    );
    fails(
        &[
            "bestmove",
            "--rules",
            "mancala",
            "--db",
            "/nonexistent/tables",
            "--depth",
            "2",
        ],
        "cannot open the tables",
    );
    fails(
        &["bench", "--rules", "mancala", "--db", empty, "--depth", "2"],
        "no Mancala tables of the standard convention",
    );
}

#[test]
fn the_uci_engine_probes_the_tables_of_its_table_path() {
    let (standard, empty) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    build(standard.path(), false);
    build(empty.path(), true);
    let pos = "position fen 2-1-0-0-1-0-1-0-2-0-0-1-10-12-N".to_string();
    let go = ["go depth 40", "wait"];
    let mut script = vec![
        "setoption name UseLeaves value false".to_string(),
        pos.clone(),
    ];
    script.extend(go.map(String::from));
    script.push(format!(
        "setoption name TablePath value {}",
        standard.path().display()
    ));
    script.push("setoption name UseLeaves value true".to_string());
    script.push(pos.clone());
    script.extend(go.map(String::from));
    // The other convention's game: these tables are refused.
    script.push("setoption name EmptyCapture value true".to_string());
    script.push(pos.clone());
    script.extend(go.map(String::from));
    script.push(format!(
        "setoption name TablePath value {}",
        empty.path().display()
    ));
    script.push(pos.clone());
    script.extend(go.map(String::from));
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    let out = uci_session(&["--rules", "mancala"], &script);
    // The nodes and score of the last info line of each search.
    let searches: Vec<(u64, String)> = out
        .split(|l| l.starts_with("bestmove"))
        .filter_map(|lines| {
            let last = lines.iter().rfind(|l| l.starts_with("info depth"))?;
            let words: Vec<&str> = last.split_whitespace().collect();
            let at = |w: &str| words.iter().position(|x| *x == w).unwrap();
            let nodes = words[at("nodes") + 1].parse().unwrap();
            Some((nodes, words[at("score")..at("score") + 3].join(" ")))
        })
        .collect();
    assert_eq!(searches.len(), 4, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.contains("tables: levels 0..8 of mancala from"))
    );
    assert!(
        out.iter()
            .any(|l| l.contains("no Mancala tables of the empty-capture convention")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("tables: levels 0..8 of mancala-empty-capture from")),
        "{out:?}"
    );
    // The standard tables: the same score in fewer nodes.
    assert_eq!(searches[1].1, searches[0].1, "{out:?}");
    assert!(searches[1].0 < searches[0].0, "{out:?}");
    // The empty-capture game, without then with its tables.
    assert_eq!(searches[3].1, searches[2].1, "{out:?}");
    assert!(searches[3].0 < searches[2].0, "{out:?}");
}
