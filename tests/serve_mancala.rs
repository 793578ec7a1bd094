//! `oware serve` playing Arabic Mancala (RULES.md §7) over real HTTP on
//! loopback: games by link and against the engine, another go, the
//! endings, the store across a restart, OGN records replayed by `oware
//! show --rules mancala`, the analysis, and bad settings.

mod server;

use std::process::Command;

use serde_json::{Value, json};

use server::{BIN, Lcg, Linked, Server, str_of};

/// `oware show --rules mancala [EXTRA…] --json`, which must succeed.
fn show(extra: &[&str]) -> Value {
    let out = Command::new(BIN)
        .args(["show", "--rules", "mancala"])
        .args(extra)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "show {extra:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The server's state agrees with `show` after the same moves: the board,
/// the stores, the side to move, the legal moves and the status.
fn check_against_show(state: &Value, rules: &[&str]) {
    let moves: String = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| str_of(m).to_string())
        .collect();
    let mut args: Vec<&str> = vec![str_of(&state["start"])];
    args.extend(rules);
    if !moves.is_empty() {
        args.extend(["--moves", &moves]);
    }
    let want = show(&args);
    for field in ["position", "pits", "stores", "to_move", "status"] {
        assert_eq!(state[field], want[field], "{field} after {moves}");
    }
    if state["status"] == "ongoing" {
        assert_eq!(state["legal"], want["legal"], "after {moves}");
    } else {
        assert_eq!(state["reason"], want["reason"], "after {moves}");
    }
}

#[test]
fn a_mancala_game_by_link_with_another_go_illegal_moves_and_a_record_that_replays() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"rules": "mancala", "south": "human", "north": "link"}));
    let state = &created["state"];
    assert_eq!(state["rules"], "mancala");
    assert_eq!(state["start_seeds"], 3);
    assert_eq!(state["empty_capture"], false);
    assert_eq!(state["move_cap"], Value::Null);
    assert_eq!(state["position"], "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S");
    assert_eq!(state["moves_again"], false);
    let id = str_of(&created["id"]).to_string();
    let south = str_of(&created["token"]).to_string();
    let north = server::token_of_link(&created["links"]["opponent"]);
    let mut ws = server.socket(&id);
    assert_eq!(ws.next()["ply"], 0);

    // D: E, F and South's store: another go, South moves again.
    let (status, after) = server.play(&id, "D", &south);
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["to_move"], "S");
    assert_eq!(after["stores"], json!([1, 0]));
    assert_eq!(after["another_go"], json!([true]));
    assert_eq!(after["moves_again"], true);
    assert_eq!(ws.next()["moves_again"], true);
    check_against_show(&after, &[]);
    // North waits; South cannot sow North's house, or the empty D.
    assert_eq!(server.play(&id, "a", &north).0, 403);
    let (status, err) = server.play(&id, "a", &south);
    assert_eq!(status, 400, "{err}");
    assert!(str_of(&err["error"]).contains("North"), "{err}");
    assert_eq!(server.play(&id, "D", &south).0, 400);
    // F: the store, a, b, c: North's turn.
    let (status, after) = server.play(&id, "F", &south);
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["to_move"], "N");
    assert_eq!(after["moves_again"], false);
    assert_eq!(after["another_go"], json!([true, false]));
    check_against_show(&after, &[]);
    assert_eq!(ws.next()["ply"], 2);

    // On to the end with random moves; every state as `show` has it.
    let mut rng = Lcg(11);
    let mut state = after;
    while state["status"] == "ongoing" {
        let next = server.play_random(&id, &state, [&south, &north], &mut rng);
        assert_eq!(ws.next()["ply"], next["ply"]);
        let goes = next["another_go"].as_array().unwrap();
        let gave = goes.last().unwrap() == true;
        if next["status"] == "ongoing" {
            assert_eq!(
                next["to_move"] == state["to_move"],
                gave,
                "another go, and only it, keeps the side to move: {next}"
            );
            assert_eq!(next["moves_again"], gave);
        }
        state = next;
        assert!(state["ply"].as_u64().unwrap() < 500);
    }
    check_against_show(&state, &[]);
    let [s, n] = [0, 1].map(|i| state["stores"][i].as_u64().unwrap());
    let winner = match s.cmp(&n) {
        std::cmp::Ordering::Greater => json!("S"),
        std::cmp::Ordering::Less => json!("N"),
        std::cmp::Ordering::Equal => Value::Null,
    };
    assert_eq!(state["winner"], winner, "the larger store wins: {state}");
    assert_eq!(state["result"]["stores"], state["stores"]);
    assert!(
        ["all-stored", "one-row", "stop"].contains(&str_of(&state["reason"])),
        "{state}"
    );
    assert_eq!(state["legal"], json!([]));
    assert_eq!(server.play(&id, "A", &south).0, 400, "the game is over");

    // The record is the one `show --emit-ogn` writes, and replays.
    let (status, ogn) = server.get(&format!("/api/ogn/{id}"));
    assert_eq!(status, 200);
    assert!(ogn.contains("[Variant \"Mancala\"]"), "{ogn}");
    assert!(!ogn.contains("FEN"), "the 3-seed start needs no FEN: {ogn}");
    let file = data.path().join("game.ogn");
    std::fs::write(&file, &ogn).unwrap();
    let replayed = show(&["--ogn", file.to_str().unwrap()]);
    assert_eq!(replayed["position"], state["position"]);
    assert_eq!(replayed["status"], "over");
    assert_eq!(replayed["reason"], state["reason"]);
}

#[test]
fn a_sweep_ends_the_game_and_the_engine_takes_its_goes_in_a_row() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    // F's one seed lands in South's store (another go), leaving South's row
    // empty: North's row goes to North, who wins 12 to 11.
    let start = "0-0-0-0-0-1-2-0-0-0-0-0-10-10-S";
    let Linked { id, south, .. } = server
        .linked(json!({"rules": "mancala", "start": start, "south": "human", "north": "link"}));
    let (status, over) = server.play(&id, "F", &south);
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["status"], "over");
    assert_eq!(over["reason"], "one-row");
    assert_eq!(over["pits"], json!(vec![0; 12]));
    assert_eq!(
        over["result"],
        json!({"winner": "N", "reason": "one-row", "stores": [11, 12]})
    );
    assert_eq!(over["moves_again"], false, "the game is over");
    check_against_show(&over, &[]);
    let (_, ogn) = server.get(&format!("/api/ogn/{id}"));
    assert!(ogn.contains(&format!("[FEN \"{start}\"]")), "{ogn}");
    assert!(ogn.contains("[Result \"11-12\"]"), "{ogn}");
    let file = data.path().join("sweep.ogn");
    std::fs::write(&file, &ogn).unwrap();
    let replayed = show(&["--ogn", file.to_str().unwrap()]);
    assert_eq!(replayed["reason"], "one-row");
    assert_eq!(replayed["stores"], json!([11, 12]));

    // Against the engine (North): South's another go keeps the engine
    // waiting; after South's turn the engine moves, as often as its goes
    // allow, until South is to move again.
    let created = server.create(
        json!({"rules": "mancala", "start_seeds": 4, "south": "human",
        "north": "engine", "level": "movetime:30"}),
    );
    let id = str_of(&created["id"]).to_string();
    let token = str_of(&created["token"]).to_string();
    let mut ws = server.socket(&id);
    ws.next();
    // From four seeds a house, C ends in the store.
    let (_, after) = server.play(&id, "C", &token);
    assert_eq!(
        (after["to_move"].clone(), after["thinking"].clone()),
        (json!("S"), json!(false))
    );
    let (_, after) = server.play(&id, "A", &token);
    assert_eq!(after["to_move"], "N");
    let back = ws.wait_for(30, |s| {
        s["ply"].as_u64() > Some(2)
            && s["thinking"] == false
            && (s["to_move"] == "S" || s["status"] == "over")
    });
    let moves: Vec<&str> = back["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(str_of)
        .collect();
    assert!(moves.len() >= 3, "{back}");
    assert!(
        moves[2..]
            .iter()
            .all(|m| m.chars().all(|c| c.is_ascii_lowercase())),
        "the engine plays North's houses only: {moves:?}"
    );
    check_against_show(&back, &[]);

    // An engine in the south seat opens, and hands over in time.
    let created = server
        .create(json!({"rules": "mancala", "south": "engine", "north": "human", "level": "easy"}));
    let id = str_of(&created["id"]).to_string();
    let mut ws = server.socket(&id);
    let opened = ws.wait_for(30, |s| s["to_move"] == "N" && s["thinking"] == false);
    assert!(opened["ply"].as_u64().unwrap() >= 1);
    check_against_show(&opened, &[]);
}

#[test]
fn a_mancala_game_comes_back_after_a_restart_with_its_settings() {
    let data = tempfile::tempdir().unwrap();
    let rules = ["--start-seeds", "4", "--empty-capture"];
    let (id, south, north, before) = {
        let server = Server::open(data.path());
        let Linked { id, south, north } = server.linked(json!({"rules": "mancala",
            "start_seeds": 4, "empty_capture": true, "south": "human", "north": "link"}));
        for (mv, token) in [("C", &south), ("F", &south), ("b", &north)] {
            let (status, s) = server.play(&id, mv, token);
            assert_eq!(status, 200, "{s}");
        }
        let (_, before) = server.get_json(&format!("/api/games/{id}"));
        check_against_show(&before, &rules);
        (id, south, north, before)
        // dropped: killed
    };
    let server = Server::open(data.path());
    let (status, after) = server.get_json(&format!("/api/games/{id}"));
    assert_eq!(status, 200);
    for field in [
        "rules",
        "start_seeds",
        "empty_capture",
        "start",
        "moves",
        "position",
        "captures",
        "another_go",
        "moves_again",
        "players",
        "status",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert_eq!(after["start_seeds"], 4);
    assert_eq!(after["empty_capture"], true);
    let token = if after["to_move"] == "S" {
        &south
    } else {
        &north
    };
    let mv = str_of(&after["legal"][0]).to_string();
    let (status, moved) = server.play(&id, &mv, token);
    assert_eq!(status, 200, "{moved}");
    check_against_show(&moved, &rules);
    // Its record says so, and `show` needs --empty-capture to replay it.
    let (_, ogn) = server.get(&format!("/api/ogn/{id}"));
    assert!(ogn.contains("[EmptyCapture \"Yes\"]"), "{ogn}");
    assert!(
        ogn.contains("[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]"),
        "{ogn}"
    );
    let file = data.path().join("kalah.ogn");
    std::fs::write(&file, &ogn).unwrap();
    let replayed = show(&["--ogn", file.to_str().unwrap(), "--empty-capture"]);
    assert_eq!(replayed["position"], moved["position"]);
    // The record imported again goes on under the same rules.
    let (status, imported) = server.post(
        "/api/games/import",
        json!({"ogn": ogn, "south": "human", "north": "human"}),
    );
    assert_eq!(status, 201, "{imported}");
    let state = &imported["state"];
    assert_eq!(state["rules"], "mancala");
    assert_eq!(state["start_seeds"], 4);
    assert_eq!(state["empty_capture"], true);
    assert_eq!(state["position"], moved["position"]);
    assert_eq!(state["another_go"], moved["another_go"]);
}

#[test]
fn the_analysis_of_a_mancala_position_is_the_search_s_without_tables() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let (status, out) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "position": null, "movetime": 120}),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["position"], "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S");
    assert_eq!(out["rules"], "mancala");
    assert_eq!(out["moves"].as_array().unwrap().len(), 6);
    assert_eq!(out["tables"], Value::Null);
    assert!(str_of(&out["tables_note"]).starts_with("none"), "{out}");
    // A small position is solved: the values are the command line's.
    let pos = "1-0-0-0-2-1-0-0-0-0-0-1-22-24-S";
    let (status, out) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "position": pos, "movetime": 300}),
    );
    assert_eq!(status, 200, "{out}");
    let cli = Command::new(BIN)
        .args([
            "analyze",
            "--rules",
            "mancala",
            pos,
            "--json",
            "--movetime",
            "300",
        ])
        .output()
        .unwrap();
    assert!(cli.status.success());
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let values = |v: &Value| -> Vec<(String, Value, Value)> {
        let mut rows: Vec<_> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    str_of(&m["move"]).to_string(),
                    m["score"].clone(),
                    m["result"].clone(),
                )
            })
            .collect();
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        rows
    };
    assert_eq!(values(&out), values(&cli));
    assert!(out["moves"][0]["result"].is_string(), "solved: {out}");
    // After moves, under the empty capture too.
    let (status, out) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "start_seeds": 4, "empty_capture": true, "moves": "C",
            "movetime": 60}),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["position"], "4-4-0-5-5-5-4-4-4-4-4-4-1-0-S");
}

#[test]
fn bad_mancala_settings_are_refused_up_front_with_one_line() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    for body in [
        json!({"rules": "mancala", "start_seeds": 6}),
        json!({"rules": "mancala", "start_seeds": 0}),
        json!({"rules": "mancala", "start_seeds": 8}),
        json!({"rules": "mancala", "start_seeds": 259}),
        json!({"rules": "mancala", "start_seeds": 18446744073709551615u64}),
        json!({"rules": "mancala", "start_seeds": -3}),
        json!({"rules": "mancala", "start_seeds": 3.5}),
        json!({"rules": "mancala", "start_seeds": "four"}),
        json!({"rules": "mancala", "empty_capture": "yes"}),
        json!({"rules": "mancala", "move_cap": 100}),
        json!({"rules": "mancala", "series": "best-of:3"}),
        json!({"rules": "mancala", "start": "1-2-3"}),
        json!({"rules": "mancala", "start": "50-50-0-0-0-0-0-0-0-0-0-0-0-0-S"}),
        json!({"rules": "kalah"}),
        json!({"rules": "mancala\n"}),
        json!({"rules": "abapa", "start_seeds": 3}),
        json!({"rules": "awari", "empty_capture": true}),
        json!({"start_seeds": 5}),
    ] {
        let (status, err) = server.post("/api/games", body.clone());
        assert_eq!(status, 400, "{body} -> {err}");
        let msg = str_of(&err["error"]);
        assert!(!msg.is_empty() && !msg.contains('\n'), "{body} -> {err}");
    }
    // The messages say what is wrong.
    let (_, err) = server.post("/api/games", json!({"rules": "mancala", "start_seeds": 6}));
    assert!(str_of(&err["error"]).contains("3, 4, 5 or 7"), "{err}");
    let (_, err) = server.post(
        "/api/games",
        json!({"rules": "mancala", "series": "best-of:3"}),
    );
    assert!(str_of(&err["error"]).contains("Oware only"), "{err}");
    for body in [
        json!({"rules": "mancala", "start_seeds": 2}),
        json!({"rules": "mancala", "moves": "DD"}),
        json!({"rules": "mancala", "moves": "Da"}),
        json!({"rules": "abapa", "empty_capture": true}),
    ] {
        let (status, err) = server.post("/api/analyze", body.clone());
        assert_eq!(status, 400, "{body} -> {err}");
        assert!(err["error"].is_string());
    }
    // A finished position is not searched: the answer says how it ended.
    let (status, over) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "position": "0-0-0-0-0-0-0-0-0-0-0-0-18-18-S"}),
    );
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["moves"], json!([]));
    assert_eq!(over["result"]["winner"], Value::Null, "{over}");
    // A record whose tag disagrees with the rules asked for.
    let ogn = "[Variant \"Mancala\"]\n[EmptyCapture \"Yes\"]\n\n1. D F *\n";
    let (status, err) = server.post(
        "/api/games/import",
        json!({"ogn": ogn, "empty_capture": false}),
    );
    assert_eq!(status, 400, "{err}");
    let (status, err) = server.post(
        "/api/games/import",
        json!({"ogn": "[Variant \"Mancala\"]\n\n1. D a *\n"}),
    );
    assert_eq!(status, 400, "a is North's, South moves again: {err}");
    let (status, ok) = server.post("/api/games/import", json!({"ogn": ogn}));
    assert_eq!(status, 201, "{ok}");
    assert_eq!(ok["state"]["empty_capture"], true);
    // None of it left a game behind, and the server is well.
    assert_eq!(server.get("/").0, 200);
}

#[test]
fn the_analysis_gives_what_mancala_s_tables_say() {
    let data = tempfile::tempdir().unwrap();
    let db = tempfile::tempdir().unwrap();
    let dir = db.path().to_str().unwrap();
    let built = Command::new(BIN)
        .args([
            "build",
            "--rules",
            "mancala",
            "--max-seeds",
            "8",
            "--dir",
            dir,
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let server = Server::start(data.path(), &["--rate", "0", "--db", dir]);
    let pos = "1-0-0-0-2-1-0-0-0-0-1-1-5-4-S";
    let (status, out) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "position": pos, "movetime": 200}),
    );
    assert_eq!(status, 200, "{out}");
    let cli = Command::new(BIN)
        .args(["probe", "--rules", "mancala", pos, "--dir", dir, "--json"])
        .output()
        .unwrap();
    assert!(cli.status.success());
    let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(out["tables"], cli, "{out}");
    assert!(out.get("tables_note").is_none(), "{out}");
    // The search with the tables proves the same final difference for
    // every move, at once.
    let diff = (cli["score"].as_i64().unwrap() + 5 - 4) as f64;
    for m in out["moves"].as_array().unwrap() {
        assert_eq!(str_of(&m["result"]), "win", "{out}");
        assert_eq!(m["score"].as_f64(), Some(diff), "{out}");
        assert_eq!(m["depth"], 1, "{out}");
    }
    // The empty capture has no tables there: null, and a note.
    let (status, out) = server.post(
        "/api/analyze",
        json!({"rules": "mancala", "position": pos, "empty_capture": true, "movetime": 60}),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["tables"], Value::Null);
    assert!(str_of(&out["tables_note"]).starts_with("none"), "{out}");
}
