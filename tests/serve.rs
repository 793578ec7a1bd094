//! `oware serve` over real HTTP on loopback: the real binary, a temp data
//! folder, an HTTP client and WebSockets (the helpers in `server/`).

mod server;

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use server::{BIN, Lcg, Linked, Server, str_of, token_of_link};

#[test]
fn two_seats_play_a_whole_game_by_links_and_the_other_socket_sees_each_move() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"rules": "abapa", "south": "human", "north": "link"}));
    let id = str_of(&created["id"]).to_string();
    assert_eq!(created["seat"], "south");
    let south = str_of(&created["token"]).to_string();
    assert!(south.len() >= 32, "a 128-bit token");
    let north = token_of_link(&created["links"]["opponent"]);
    assert_ne!(south, north);
    assert!(str_of(&created["links"]["watch"]).ends_with(&format!("/#/game/{id}")));
    assert_eq!(created["state"]["players"]["north"]["joined"], false);

    // The link's player opens the game: the seat is theirs, and joined.
    let (status, seen) = server.get_json(&format!("/api/games/{id}?token={north}"));
    assert_eq!(status, 200);
    assert_eq!(seen["seat"], "north");
    assert_eq!(seen["players"]["north"]["joined"], true);

    let mut ws = server.socket(&id);
    assert_eq!(ws.next()["ply"], 0);
    let mut rng = Lcg(7);
    let mut state = seen;
    let mut ply = 0;
    while state["status"] == "ongoing" {
        let after = server.play_random(&id, &state, [&south, &north], &mut rng);
        ply += 1;
        assert_eq!(after["ply"], ply);
        // The other browser hears of it at once.
        let heard = ws.next();
        assert_eq!(heard["ply"], ply);
        assert_eq!(heard["moves"], after["moves"]);
        state = after;
        assert!(ply < 2000, "the game should end");
    }
    assert_eq!(state["status"], "over");
    assert!(state["result"].is_object(), "{state}");
    assert!(state["reason"].is_string());
    assert_eq!(state["legal"], json!([]));
    let stores = state["stores"].as_array().unwrap();
    assert_eq!(state["result"]["stores"], json!(stores));
    assert_eq!(state["captures"].as_array().unwrap().len(), ply);
    // A finished game takes no more moves.
    let (status, _) = server.play(&id, "A", &south);
    assert_eq!(status, 400);
    // Its record replays to the same end.
    let (status, ogn) = server.get(&format!("/api/ogn/{id}"));
    assert_eq!(status, 200);
    assert!(ogn.contains("[Variant \"Abapa\"]"), "{ogn}");
}

#[test]
fn wrong_tokens_watchers_turns_bad_input_and_unknown_games_are_refused() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let Linked { id, south, north } = server.linked(json!({"south": "human", "north": "link"}));
    let moves = format!("/api/games/{id}/moves");

    // Wrong token, no token (a watcher), the other seat out of turn: 403.
    assert_eq!(server.play(&id, "F", "0123456789abcdef").0, 403);
    assert_eq!(server.post(&moves, json!({"move": "F"})).0, 403);
    assert_eq!(server.play(&id, "a", &north).0, 403);
    let (status, err) = server.play(&id, "F", &north);
    assert_eq!(status, 403);
    assert!(err["error"].is_string());
    // Illegal or unreadable moves: 400.
    assert_eq!(server.play(&id, "f", &south).0, 400); // North's pit
    assert_eq!(server.play(&id, "X", &south).0, 400);
    assert_eq!(server.play(&id, "FA", &south).0, 400);
    assert_eq!(server.play(&id, "", &south).0, 400);
    assert_eq!(server.play(&id, "F", &south).0, 200);
    assert_eq!(server.play(&id, "f", &north).0, 200);
    assert_eq!(server.play(&id, "F", &south).0, 400); // now empty
    // A watcher sees the game, without a seat.
    let (status, watched) = server.get_json(&format!("/api/games/{id}?token=nope"));
    assert_eq!(status, 200);
    assert_eq!(watched["seat"], Value::Null);
    assert_eq!(watched["ply"], 2);
    // Unknown games: 404.
    assert_eq!(server.get_json("/api/games/ffffffffffffffff").0, 404);
    assert_eq!(server.get_json("/api/games/..%2F..").0, 404);
    assert_eq!(server.play("ffffffffffffffff", "F", &south).0, 404);
    assert_eq!(server.get("/api/ogn/ffffffffffffffff").0, 404);
    assert_eq!(server.get_json("/api/nothing").0, 404);
    // Malformed JSON, wrong types, missing fields: 400.
    assert_eq!(server.post_raw(&moves, "{\"move\": ").0, 400);
    assert_eq!(server.post_raw(&moves, "\u{0}\u{1}garbage").0, 400);
    assert_eq!(
        server.post(&moves, json!({"move": 5, "token": south})).0,
        400
    );
    assert_eq!(server.post(&moves, json!({"token": south})).0, 400);
    assert_eq!(server.post("/api/games", json!([1, 2])).0, 400);
    // Too large: 413.
    let big = format!("{{\"move\": \"{}\"}}", "A".repeat(70 * 1024));
    let (status, err) = server.post_raw(&moves, &big);
    assert_eq!(status, 413);
    assert!(err["error"].is_string());
    // Bad settings of a new game: 400.
    for body in [
        json!({"rules": "chess"}),
        json!({"south": "robot"}),
        json!({"south": "link", "north": "link"}),
        json!({"north": "engine", "level": "grandmaster"}),
        json!({"series": "first-to:0"}),
        json!({"series": "best-of"}),
        json!({"start": "1-2-3"}),
        json!({"move_cap": 0}),
        json!({"move_cap": -1}),
    ] {
        let (status, err) = server.post("/api/games", body.clone());
        assert_eq!(status, 400, "{body} -> {err}");
        assert!(err["error"].is_string());
    }
    for body in [
        json!({"position": "nonsense"}),
        json!({"moves": "FZ"}),
        json!({"moves": "FF"}),
        json!({"rules": "go"}),
        json!({"movetime": "soon"}),
    ] {
        assert_eq!(server.post("/api/analyze", body.clone()).0, 400, "{body}");
    }
    let (status, _) = server.post("/api/games/import", json!({"ogn": "1. F f Q"}));
    assert_eq!(status, 400);
    // Draws and resigning need a seat too.
    assert_eq!(
        server
            .post(&format!("/api/games/{id}/resign"), json!({"token": "x"}))
            .0,
        403
    );
    assert_eq!(
        server
            .post(
                &format!("/api/games/{id}/draw"),
                json!({"token": south, "action": "maybe"})
            )
            .0,
        400
    );
    assert_eq!(
        server
            .post(
                &format!("/api/games/{id}/draw"),
                json!({"token": south, "action": "accept"})
            )
            .0,
        400
    );
    assert_eq!(
        server
            .post(&format!("/api/games/{id}/next"), json!({"token": south}))
            .0,
        400
    );
    // The page is there, and says what it is.
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.to_lowercase().contains("oware"));
    assert_eq!(server.get("/static/app.js").0, 200);
    assert_eq!(server.get("/static/style.css").0, 200);
    // The modules app.js imports are there too; nothing else is.
    let (status, app) = server.get("/static/app.js");
    assert_eq!(status, 200);
    let module = app
        .lines()
        .find_map(|l| l.strip_prefix("import { newGameView } from \"./"))
        .and_then(|rest| rest.split('"').next())
        .expect("app.js imports the new-game form");
    assert_eq!(server.get(&format!("/static/{module}")).0, 200);
    assert_eq!(server.get("/static/nothing.js").0, 404);
    assert_eq!(server.get("/static/..%2Fmod.rs").0, 404);
}

#[test]
fn rate_limits_and_the_socket_cap_answer_429_and_503() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(
        data.path(),
        &["--rate", "1", "--burst", "3", "--max-sockets", "1"],
    );
    let created = server.create(json!({"south": "human", "north": "link"})); // 1
    let id = str_of(&created["id"]).to_string();
    let _ws = server.socket(&id); // 2
    let url = format!(
        "{}/api/games/{id}/ws",
        server.base.replacen("http://", "ws://", 1)
    );
    match tungstenite::connect(url) {
        // 3
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status().as_u16(), 503),
        other => panic!("a second socket should be refused: {:?}", other.is_ok()),
    }
    // The bucket refills at one a second: a few quick requests overflow it.
    let refused = (0..6)
        .map(|_| server.get_json(&format!("/api/games/{id}")))
        .find(|(status, _)| *status == 429);
    let (_, err) = refused.expect("a request over the rate is refused");
    assert!(err["error"].is_string());
    // The page's files are not counted: a page load is a dozen of them.
    for _ in 0..12 {
        assert_eq!(server.get("/static/app.js").0, 200);
        assert_eq!(server.get("/").0, 200);
    }
}

#[test]
fn an_engine_seat_answers_and_its_move_arrives_by_websocket() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"south": "human", "north": "engine", "level": "easy"}));
    let id = str_of(&created["id"]).to_string();
    let token = str_of(&created["token"]).to_string();
    assert_eq!(created["state"]["players"]["north"]["level"], "easy");
    let mut ws = server.socket(&id);
    assert_eq!(ws.next()["ply"], 0);
    let (status, after) = server.play(&id, "C", &token);
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["to_move"], "N");
    let replied = ws.wait_for(20, |s| s["ply"] == 2);
    assert_eq!(replied["to_move"], "S");
    assert_eq!(replied["thinking"], false);
    let reply = str_of(&replied["moves"][1]).to_string();
    assert!(("a"..="f").contains(&reply.as_str()), "{reply}");

    // While the engine thinks, it says so, and the human waits.
    let created = server.create(json!({"north": "engine", "level": "movetime:800"}));
    let id = str_of(&created["id"]).to_string();
    let token = str_of(&created["token"]).to_string();
    let mut ws = server.socket(&id);
    ws.next();
    assert_eq!(server.play(&id, "C", &token).0, 200);
    ws.wait_for(5, |s| s["thinking"] == true);
    let (status, err) = server.play(&id, "A", &token);
    assert_eq!(status, 403, "{err}");
    assert_eq!(ws.wait_for(20, |s| s["ply"] == 2)["thinking"], false);

    // An engine in the south seat opens the game by itself.
    let created = server.create(json!({"south": "engine", "north": "human", "level": "medium"}));
    assert_eq!(created["seat"], "north");
    let id = str_of(&created["id"]).to_string();
    let mut ws = server.socket(&id);
    let opened = ws.wait_for(20, |s| s["ply"] == 1);
    assert_eq!(opened["to_move"], "N");
}

#[test]
fn analyze_gives_scores_and_with_tables_their_verdicts() {
    let tables = tempfile::tempdir().unwrap();
    let built = Command::new(BIN)
        .args(["build", "--max-seeds", "8", "--dir"])
        .arg(tables.path())
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(built.status.success());
    let data = tempfile::tempdir().unwrap();
    let db = tables.path().to_str().unwrap();
    let server = Server::start(data.path(), &["--rate", "0", "--db", db]);
    let (status, out) = server.post("/api/analyze", json!({"position": null, "movetime": 300}));
    assert_eq!(status, 200, "{out}");
    let moves = out["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    for m in moves {
        assert!(m["score"].is_number() && m["move"].is_string() && m["pv"].is_array());
    }
    assert_eq!(out["tables"], Value::Null, "48 seeds: beyond the tables");
    // 6 seeds on the board: the tables know it.
    let pos = "1-1-1-0-0-0-1-1-1-0-0-0-21-21-S";
    let (status, out) = server.post(
        "/api/analyze",
        json!({"position": pos, "moves": null, "rules": "abapa", "movetime": 200}),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["position"], pos);
    assert!(!out["moves"].as_array().unwrap().is_empty());
    let t = &out["tables"];
    assert_eq!(t["seeds"], 6, "{out}");
    assert!(t["verdict"].is_string() && t["exact"].is_boolean());
    let tm = t["moves"].as_array().unwrap();
    assert_eq!(tm.len(), 3);
    assert!(tm[0]["move"].is_string() && tm[0]["verdict"].is_string());
    // After moves, too.
    let (status, out) = server.post("/api/analyze", json!({"moves": "FfB", "movetime": 100}));
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["position"].as_str().unwrap().chars().last(), Some('N'));
}

#[test]
fn a_killed_server_restarts_with_every_game_and_its_tokens() {
    let data = tempfile::tempdir().unwrap();
    let (id, south, north, before) = {
        let server = Server::open(data.path());
        let Linked { id, south, north } =
            server.linked(json!({"south": "human", "north": "link", "move_cap": 100}));
        for (mv, token) in [("C", &south), ("d", &north), ("F", &south), ("a", &north)] {
            assert_eq!(server.play(&id, mv, token).0, 200);
        }
        let offer = server.post(
            &format!("/api/games/{id}/draw"),
            json!({"token": south, "action": "offer"}),
        );
        assert_eq!(offer.0, 200);
        let (_, before) = server.get_json(&format!("/api/games/{id}"));
        (id, south, north, before)
        // dropped: SIGKILL, no goodbye
    };
    let server = Server::open(data.path());
    let (status, after) = server.get_json(&format!("/api/games/{id}"));
    assert_eq!(status, 200);
    for field in [
        "moves",
        "position",
        "captures",
        "ply",
        "players",
        "draw_offer",
        "move_cap",
        "status",
    ] {
        assert_eq!(after[field], before[field], "{field}");
    }
    assert_eq!(after["draw_offer"], "S");
    assert_eq!(server.play(&id, "A", &north).0, 403);
    let (status, moved) = server.play(&id, "A", &south);
    assert_eq!(status, 200, "{moved}");
    assert_eq!(
        moved["draw_offer"],
        Value::Null,
        "a move withdraws the offer"
    );
    assert_eq!(server.play(&id, "b", &north).0, 200);
    assert_eq!(server.get_json(&format!("/api/games/{id}")).1["ply"], 6);
}

#[test]
fn resigning_and_draws_by_offer_and_acceptance() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let Linked { id, south, north } = server.linked(json!({"south": "human", "north": "link"}));
    let draw = |token: &str, action: &str| {
        server.post(
            &format!("/api/games/{id}/draw"),
            json!({"token": token, "action": action}),
        )
    };
    let (status, s) = draw(&south, "offer");
    assert_eq!(status, 200);
    assert_eq!(s["draw_offer"], "S");
    assert_eq!(draw(&south, "accept").0, 400, "not one's own offer");
    let (_, s) = draw(&north, "decline");
    assert_eq!(s["draw_offer"], Value::Null);
    draw(&north, "offer");
    let (status, s) = draw(&south, "accept");
    assert_eq!(status, 200);
    assert_eq!(s["status"], "over");
    assert_eq!(s["winner"], Value::Null);
    assert_eq!(s["result"]["reason"], "draw-agreed");
    assert_eq!(s["reason"], "draw-agreed");
    // The record says how it ended, who won, and the stores.
    let ending = |id: &str| {
        let (_, ogn) = server.get(&format!("/api/ogn/{id}"));
        let tag = |name: &str| {
            let start = format!("[{name} \"");
            let at = ogn
                .find(&start)
                .unwrap_or_else(|| panic!("no {name} in {ogn}"))
                + start.len();
            ogn[at..].split('"').next().unwrap().to_string()
        };
        (tag("Termination"), tag("Winner"), tag("Result"), ogn)
    };
    let (how, winner, result, _) = ending(&id);
    assert_eq!(
        (how.as_str(), winner.as_str(), result.as_str()),
        ("draw-agreed", "draw", "0-0")
    );
    assert_eq!(draw(&north, "offer").0, 400);

    let Linked { id, south, north } = server.linked(json!({"south": "human", "north": "link"}));
    assert_eq!(server.play(&id, "F", &south).0, 200);
    let (status, s) = server.post(&format!("/api/games/{id}/resign"), json!({"token": north}));
    assert_eq!(status, 200);
    assert_eq!(
        s["result"],
        json!({"winner": "S", "reason": "resigned", "stores": [0, 0]})
    );
    assert_eq!(s["winner"], "S");
    let (how, winner, result, ogn) = ending(&id);
    assert_eq!(
        (how.as_str(), winner.as_str(), result.as_str()),
        ("resigned", "South", "0-0")
    );
    assert!(ogn.contains("1. F 0-0"), "{ogn}");
    assert_eq!(server.play(&id, "a", &north).0, 400);
    let (status, _) = server.post(&format!("/api/games/{id}/resign"), json!({"token": south}));
    assert_eq!(status, 400);

    // A creator holding both seats resigns for the side to move.
    let created = server.create(json!({"south": "human", "north": "human"}));
    assert_eq!(created["seat"], "both");
    assert_eq!(created["links"]["opponent"], Value::Null);
    let id = str_of(&created["id"]).to_string();
    let both = str_of(&created["token"]).to_string();
    assert_eq!(server.play(&id, "F", &both).0, 200);
    assert_eq!(server.play(&id, "f", &both).0, 200);
    assert_eq!(server.play(&id, "A", &both).0, 200);
    let (_, s) = server.post(&format!("/api/games/{id}/resign"), json!({"token": both}));
    assert_eq!(s["result"]["winner"], "S");
}

#[test]
fn a_first_to_two_series_is_played_to_its_end_with_sides_alternating() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"south": "human", "north": "link", "series": "first-to:2"}));
    let a = str_of(&created["token"]).to_string();
    let b = token_of_link(&created["links"]["opponent"]);
    let mut id = str_of(&created["id"]).to_string();
    let first = id.clone();
    let series = &created["state"]["series"];
    assert_eq!(series["format"], "first-to:2");
    assert_eq!(series["next"], id.as_str());
    assert_eq!(series["decided"], false);

    let mut ws = server.socket(&first);
    ws.next();
    // Game 1: A south, B resigns. Game 2: B south, agreed draw.
    // Game 3: A south again, B resigns: A wins 2-0 with a draw.
    let mut souths = Vec::new();
    for game in 0..3 {
        let (_, sa) = server.get_json(&format!("/api/games/{id}?token={a}"));
        let expected = if game % 2 == 0 { "south" } else { "north" };
        assert_eq!(sa["seat"], expected, "A's seat in game {}", game + 1);
        let (_, sb) = server.get_json(&format!("/api/games/{id}?token={b}"));
        assert_ne!(sb["seat"], sa["seat"]);
        souths.push(if game % 2 == 0 { "A" } else { "B" });
        let last = if game == 1 {
            server.post(
                &format!("/api/games/{id}/draw"),
                json!({"token": b, "action": "offer"}),
            );
            server.post(
                &format!("/api/games/{id}/draw"),
                json!({"token": a, "action": "accept"}),
            )
        } else {
            server.post(&format!("/api/games/{id}/resign"), json!({"token": b}))
        };
        assert_eq!(last.0, 200, "{}", last.1);
        let s = &last.1["series"];
        if game < 2 {
            assert_eq!(s["decided"], false, "{s}");
            let (status, next) = server.post(&format!("/api/games/{id}/next"), json!({"token": b}));
            assert_eq!(status, 200, "{next}");
            assert_ne!(next["id"], id.as_str());
            // The other player asking too lands on the same game.
            let (_, again) = server.post(&format!("/api/games/{id}/next"), json!({"token": a}));
            assert_eq!(again["id"], next["id"]);
            id = str_of(&next["id"]).to_string();
        } else {
            assert_eq!(s["decided"], true, "{s}");
            assert_eq!(s["winner"], "A");
            assert_eq!(s["score"], json!({"A": 2, "B": 0, "draws": 1}));
            let games = s["games"].as_array().unwrap();
            let got: Vec<&str> = games.iter().map(|g| str_of(&g["south"])).collect();
            assert_eq!(got, souths);
            assert_eq!(games[0]["winner"], "S");
            assert_eq!(games[1]["winner"], Value::Null);
            assert_eq!(games[2]["winner"], "S");
        }
    }
    let (status, _) = server.post(&format!("/api/games/{id}/next"), json!({"token": a}));
    assert_eq!(status, 400, "the series is decided");
    // Watchers of the first game heard of the next one.
    let heard = ws.wait_for(10, |s| s["series"]["next"] != first.as_str());
    assert_ne!(heard["series"]["next"], first.as_str());
    // And a game of the series outlives a restart.
    drop(server);
    let server = Server::open(data.path());
    let (_, s) = server.get_json(&format!("/api/games/{first}"));
    assert_eq!(s["series"]["decided"], true);
    assert_eq!(s["series"]["next"], id.as_str());
}

#[test]
fn an_ogn_record_is_imported_where_it_ends() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let ogn = "[Variant \"Abapa\"]\n\n1. F f 2. B e *\n";
    let (status, created) = server.post(
        "/api/games/import",
        json!({"ogn": ogn, "south": "human", "north": "link"}),
    );
    assert_eq!(status, 201, "{created}");
    let state = &created["state"];
    assert_eq!(state["moves"], json!(["F", "f", "B", "e"]));
    assert_eq!(state["to_move"], "S");
    let id = str_of(&created["id"]).to_string();
    let (_, text) = server.get(&format!("/api/ogn/{id}"));
    assert!(text.contains("1. F f 2. B e"), "{text}");
}

/// The load test: 200 games at once, each against the engine at 100 ms a
/// move, the human moves sent by 200 clients; prints the latency of a
/// human move (POST to answer). Run it on a release build:
/// `cargo test --release --test serve -- --ignored --nocapture load`.
#[test]
#[ignore]
fn load_200_games_against_the_engine() {
    let games: usize = std::env::var("OWARE_LOAD_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let moves_each: usize = std::env::var("OWARE_LOAD_MOVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let level = std::env::var("OWARE_LOAD_LEVEL").unwrap_or_else(|_| "movetime:100".into());
    let data = tempfile::tempdir().unwrap();
    let server = std::sync::Arc::new(Server::open(data.path()));
    let deadline = Instant::now() + Duration::from_secs(300);
    let started = Instant::now();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(games));
    let clients: Vec<_> = (0..games)
        .map(|i| {
            let server = std::sync::Arc::clone(&server);
            let barrier = std::sync::Arc::clone(&barrier);
            let level = level.clone();
            std::thread::spawn(move || {
                let created =
                    server.create(json!({"south": "human", "north": "engine", "level": level}));
                let id = str_of(&created["id"]).to_string();
                let token = str_of(&created["token"]).to_string();
                let mut ws = server.socket(&id);
                let mut state = ws.next();
                if barrier.wait().is_leader() {
                    println!(
                        "load: {games} games created and watched in {:.1} s",
                        started.elapsed().as_secs_f64()
                    );
                }
                let mut rng = Lcg(i as u64 + 1);
                let mut latencies = Vec::new();
                while latencies.len() < moves_each && Instant::now() < deadline {
                    if state["status"] != "ongoing" {
                        break;
                    }
                    if state["to_move"] != "S" {
                        state = ws.next();
                        continue;
                    }
                    let t = Instant::now();
                    state = server.play_random(&id, &state, [&token, ""], &mut rng);
                    latencies.push(t.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut all: Vec<Duration> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    all.sort();
    let pick = |q: f64| all[((all.len() as f64 * q) as usize).min(all.len() - 1)];
    println!(
        "load: {games} games against {level}, {} human moves in {:.1} s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        all.len(),
        started.elapsed().as_secs_f64(),
        pick(0.50).as_secs_f64() * 1e3,
        pick(0.99).as_secs_f64() * 1e3,
        all.last().unwrap().as_secs_f64() * 1e3,
    );
    assert!(all.len() >= games);
}

#[test]
fn games_past_the_memory_cap_are_read_back_and_busy_games_refuse_more() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::start(data.path(), &["--rate", "0", "--max-games", "2"]);
    let mut games = Vec::new();
    for _ in 0..3 {
        let created = server.create(json!({"south": "human", "north": "link"}));
        let id = str_of(&created["id"]).to_string();
        let token = str_of(&created["token"]).to_string();
        assert_eq!(server.play(&id, "F", &token).0, 200);
        games.push((id, token));
    }
    // The first was dropped from memory for the third, and comes back.
    for (id, token) in &games {
        let (status, s) = server.get_json(&format!("/api/games/{id}?token={token}"));
        assert_eq!(status, 200);
        assert_eq!(s["moves"], json!(["F"]));
        assert_eq!(s["seat"], "south");
    }
    // Two games watched stay in memory: a third cannot come in.
    let _w0 = server.socket(&games[0].0);
    let _w1 = server.socket(&games[1].0);
    let (status, err) = server.get_json(&format!("/api/games/{}", games[2].0));
    assert_eq!(status, 503, "{err}");
    assert_eq!(server.post("/api/games", json!({})).0, 503);
}

#[test]
fn random_and_mutated_requests_get_clean_refusals_never_a_crash() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"south": "human", "north": "link", "series": "best-of:3"}));
    let id = str_of(&created["id"]).to_string();
    let token = str_of(&created["token"]).to_string();
    let paths = [
        "/api/games".to_string(),
        "/api/games/import".to_string(),
        "/api/analyze".to_string(),
        format!("/api/games/{id}/moves"),
        format!("/api/games/{id}/resign"),
        format!("/api/games/{id}/draw"),
        format!("/api/games/{id}/next"),
    ];
    let valid = [
        json!({"rules": "awari", "move_cap": 100, "south": "link", "north": "human", "series": "straight:2", "start": "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N"}),
        json!({"ogn": "[FEN \"0-0-0-0-0-1-0-0-0-0-0-1-23-23-S\"]\n1. F *", "south": "human"}),
        json!({"position": "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", "moves": "F", "movetime": 5}),
        json!({"move": "A", "token": token}),
        json!({"token": null}),
        json!({"token": token, "action": "offer"}),
        json!({"token": token}),
    ];
    let pieces = [
        "{",
        "}",
        "[",
        "]",
        "\"",
        ":",
        ",",
        "null",
        "true",
        "1e999",
        "-1",
        "18446744073709551616",
        "\"move\"",
        "\"token\"",
        "\"rules\"",
        "\"abapa\"",
        "\"ogn\"",
        "\"position\"",
        "\"moves\"",
        "\"series\"",
        "\"first-to:99999999999\"",
        "\"start\"",
        "\"\u{0}\"",
        "\"\\ud800\"",
        "é",
        "\"movetime\"",
        "\"level\"",
        "\"movetime:0\"",
        "\"FfFfFf\"",
        "\"48-0-0-0-0-0-0-0-0-0-0-0-0-0-S\"",
        "\"mancala\"",
        "\"start_seeds\"",
        "\"empty_capture\"",
    ];
    let mut rng = Lcg(2024);
    for round in 0..400 {
        let k = rng.below(paths.len());
        let body = match round % 3 {
            // A valid body with one value swapped for a random piece.
            0 => {
                let mut text = valid[k].to_string();
                let at = rng.below(text.len());
                let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap();
                text.insert_str(at, pieces[rng.below(pieces.len())]);
                text
            }
            // A soup of JSON-ish pieces.
            1 => (0..rng.below(12))
                .map(|_| pieces[rng.below(pieces.len())])
                .collect(),
            // Valid fields with values from elsewhere.
            _ => {
                let mut map = serde_json::Map::new();
                for _ in 0..rng.below(5) {
                    let key = [
                        "move",
                        "token",
                        "rules",
                        "ogn",
                        "position",
                        "moves",
                        "series",
                        "start",
                        "movetime",
                        "level",
                        "south",
                        "north",
                        "action",
                        "move_cap",
                        "start_seeds",
                        "empty_capture",
                    ][rng.below(16)];
                    let value = [
                        json!("A"),
                        json!(null),
                        json!(-5),
                        json!(1.5),
                        json!([1]),
                        json!({"a": 1}),
                        json!("awari"),
                        json!("link"),
                        json!("engine"),
                        json!("accept"),
                        json!(100),
                        json!("f"),
                        json!("1. F f"),
                        json!("mancala"),
                        json!(7),
                        json!(true),
                    ][rng.below(16)]
                    .clone();
                    map.insert(key.into(), value);
                }
                Value::Object(map).to_string()
            }
        };
        // Analyses would take their full time: only short ones.
        let parsed: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        if k == 2 && parsed.is_object() && parsed["movetime"].as_u64().is_none_or(|t| t > 20) {
            continue;
        }
        let (status, answer) = server.post_raw(&paths[k], &body);
        assert!(
            [200, 201, 400, 403, 404, 413].contains(&status),
            "{} {body} -> {status} {answer}",
            paths[k]
        );
        if status >= 400 {
            assert!(answer["error"].is_string(), "{answer}");
        }
    }
    assert_eq!(server.get("/").0, 200);
    assert_eq!(server.get_json(&format!("/api/games/{id}")).0, 200);
}

/// Issue #31: who moves first (the seats follow the choice), and a series
/// alternates the first player.
#[test]
fn who_moves_first_is_a_choice_and_a_series_alternates_it() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    // "opponent": the creator takes the seat that moves second.
    let created = server.create(json!({"south": "human", "north": "link", "first": "opponent"}));
    assert_eq!(created["seat"], "north");
    assert_eq!(created["state"]["to_move"], "S");
    assert_eq!(created["state"]["players"]["south"]["kind"], "link");
    // "me": the creator moves first, against the engine.
    let created = server.create(json!({"south": "engine", "north": "human", "first": "me"}));
    assert_eq!(created["seat"], "south");
    assert_eq!(created["state"]["players"]["north"]["kind"], "engine");
    // "random": either, but a seat each.
    let mut seen = std::collections::HashSet::new();
    for _ in 0..24 {
        let c = server.create(json!({"south": "human", "north": "link", "first": "random"}));
        seen.insert(str_of(&c["seat"]).to_string());
    }
    assert_eq!(seen.len(), 2, "both seats come up: {seen:?}");
    // Bad choices: 400 with one line.
    for body in [
        json!({"first": "nobody"}),
        json!({"south": "human", "north": "human", "first": "me"}),
        json!({"south": "engine", "north": "engine", "first": "opponent"}),
    ] {
        let (status, err) = server.post("/api/games", body.clone());
        assert_eq!(status, 400, "{body} -> {err}");
        assert!(!str_of(&err["error"]).contains('\n'));
    }
    // A series: the creator moves second in game 1, first in game 2.
    let created = server.create(
        json!({"south": "human", "north": "link", "first": "opponent",
        "series": "best-of:3"}),
    );
    let id = str_of(&created["id"]).to_string();
    let me = str_of(&created["token"]).to_string();
    let other = token_of_link(&created["links"]["opponent"]);
    assert_eq!(created["seat"], "north");
    let resign = server.post(&format!("/api/games/{id}/resign"), json!({"token": me}));
    assert_eq!(resign.0, 200);
    let (status, next) = server.post(&format!("/api/games/{id}/next"), json!({"token": other}));
    assert_eq!(status, 200, "{next}");
    let next_id = str_of(&next["id"]);
    let (_, mine) = server.get_json(&format!("/api/games/{next_id}?token={me}"));
    assert_eq!(mine["seat"], "south");
    assert_eq!(mine["to_move"], "S", "the creator moves first in game 2");
    // The record says what the series is, and which game.
    let (_, ogn) = server.get(&format!("/api/ogn/{next_id}"));
    assert!(
        ogn.contains(r#"[Event "oware serve, series: best of 3"]"#),
        "{ogn}"
    );
    assert!(ogn.contains(r#"[Round "2"]"#), "{ogn}");
    let lead = server.create(json!({"series": "first-to:6,lead:3", "north": "link"}));
    let (_, ogn) = server.get(&format!("/api/ogn/{}", str_of(&lead["id"])));
    assert!(
        ogn.contains("series: first to 6 wins, or 3 games ahead"),
        "{ogn}"
    );
}

/// Issue #31: names kept with the game, shown in the state and written to
/// the OGN tags (an engine with its level), the date in the record; bad
/// names refused.
#[test]
fn names_and_the_date_go_to_the_record_and_bad_names_are_refused() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let created = server.create(json!({"south": "human", "north": "engine", "level": "easy",
        "south_name": "  Ama \"Kofi\" <b>  ", "first": "opponent"}));
    let id = str_of(&created["id"]).to_string();
    // The creator moves second: the name went North with the seat.
    assert_eq!(
        created["state"]["players"]["north"]["name"],
        "Ama \"Kofi\" <b>"
    );
    assert_eq!(created["state"]["players"]["south"]["name"], Value::Null);
    let (status, ogn) = server.get(&format!("/api/ogn/{id}"));
    assert_eq!(status, 200);
    assert!(ogn.contains(r#"[North "Ama \"Kofi\" <b>"]"#), "{ogn}");
    assert!(ogn.contains(r#"[South "oware (easy)"]"#), "{ogn}");
    let date = ogn
        .lines()
        .find(|l| l.starts_with("[Date "))
        .unwrap_or_else(|| panic!("no Date tag: {ogn}"));
    let digits: String = date.chars().filter(char::is_ascii_digit).collect();
    assert_eq!(digits.len(), 8, "{date}");
    assert!(
        date.starts_with("[Date \"20") && date.matches('.').count() == 2,
        "{date}"
    );
    // Kept across a restart.
    drop(server);
    let server = Server::open(data.path());
    let (_, state) = server.get_json(&format!("/api/games/{id}"));
    assert_eq!(state["players"]["north"]["name"], "Ama \"Kofi\" <b>");
    for body in [
        json!({"south_name": "x".repeat(41)}),
        json!({"north_name": "a\nb"}),
        json!({"south_name": 5}),
    ] {
        let (status, err) = server.post("/api/games", body.clone());
        assert_eq!(status, 400, "{body} -> {err}");
        assert!(!str_of(&err["error"]).contains('\n'));
    }
}

/// Issue #31: a rematch: offered by one, accepted by the other; the same
/// players with the colours swapped (their tokens with them); at once
/// against the engine.
#[test]
fn a_rematch_swaps_the_colours_once_the_opponent_accepts() {
    let data = tempfile::tempdir().unwrap();
    let server = Server::open(data.path());
    let Linked { id, south, north } = server.linked(json!({"south": "human", "north": "link",
        "south_name": "Ann", "north_name": "Bo"}));
    let rematch = format!("/api/games/{id}/rematch");
    // Not before the end; watchers cannot.
    assert_eq!(server.post(&rematch, json!({"token": south})).0, 400);
    assert_eq!(
        server
            .post(&format!("/api/games/{id}/resign"), json!({"token": north}))
            .0,
        200
    );
    assert_eq!(server.post(&rematch, json!({})).0, 403);
    assert_eq!(
        server
            .post(&rematch, json!({"token": north, "action": "accept"}))
            .0,
        400
    );
    assert_eq!(
        server
            .post(&rematch, json!({"token": north, "action": "x"}))
            .0,
        400
    );
    let (status, offered) = server.post(&rematch, json!({"token": south}));
    assert_eq!(status, 200, "{offered}");
    assert_eq!(offered["rematch_offer"], "S");
    assert_eq!(offered["rematch"], Value::Null);
    let (status, new) = server.post(&rematch, json!({"token": north, "action": "accept"}));
    assert_eq!(status, 200, "{new}");
    let new_id = str_of(&new["id"]).to_string();
    assert_ne!(new_id, id);
    assert_eq!(new["seat"], "south", "North's player now sits South");
    assert_eq!(new["players"]["south"]["name"], "Bo");
    assert_eq!(new["players"]["north"]["name"], "Ann");
    assert_eq!(new["ply"], 0);
    assert_eq!(
        server.get_json(&format!("/api/games/{id}")).1["rematch"],
        new_id
    );
    // The tokens moved with the players.
    assert_eq!(server.play(&new_id, "F", &north).0, 200);
    assert_eq!(server.play(&new_id, "f", &south).0, 200);
    // Asked again: the same rematch.
    let (_, again) = server.post(&rematch, json!({"token": south}));
    assert_eq!(again["id"], new_id);
    // Against the engine: at once.
    let created = server.create(json!({"south": "human", "north": "engine", "level": "easy"}));
    let gid = str_of(&created["id"]).to_string();
    let tok = str_of(&created["token"]).to_string();
    assert_eq!(
        server
            .post(&format!("/api/games/{gid}/resign"), json!({"token": tok}))
            .0,
        200
    );
    let (status, new) = server.post(&format!("/api/games/{gid}/rematch"), json!({"token": tok}));
    assert_eq!(status, 200, "{new}");
    assert_eq!(new["seat"], "north");
    assert_eq!(new["players"]["south"]["kind"], "engine");
}

/// Issue #31: clocks run by the server: a time control, the mover's time
/// taken off and the increment added, a flag on time, kept across a
/// restart; bad controls refused.
#[test]
fn clocks_run_on_the_server_flag_on_time_and_survive_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let (id, south, north) = {
        let server = Server::open(data.path());
        let Linked { id, south, north } = server.linked(json!({"south": "human", "north": "link",
            "time_control": "0.1+1"}));
        let (_, st) = server.get_json(&format!("/api/games/{id}"));
        let clock = &st["clock"];
        assert_eq!(clock["base_ms"], 6000);
        assert_eq!(clock["increment_ms"], 1000);
        assert_eq!(clock["control"], "0.1+1");
        assert_eq!(
            clock["running"],
            Value::Null,
            "no clock before the first move"
        );
        assert_eq!(server.play(&id, "F", &south).0, 200);
        std::thread::sleep(Duration::from_millis(300));
        let (status, st) = server.play(&id, "f", &north);
        assert_eq!(status, 200, "{st}");
        let n = st["clock"]["north_ms"].as_i64().unwrap();
        assert!(
            (6000..=6800).contains(&n),
            "North used some time and got 1 s: {n}"
        );
        assert_eq!(st["clock"]["running"], "S");
        (id, south, north)
    };
    // Started again: the clocks as they were, South's still running.
    let server = Server::open(data.path());
    let (_, st) = server.get_json(&format!("/api/games/{id}"));
    assert_eq!(st["status"], "ongoing", "{st}");
    assert_eq!(st["clock"]["running"], "S");
    let s = st["clock"]["south_ms"].as_i64().unwrap();
    assert!((0..6000).contains(&s), "{s}");
    let n = st["clock"]["north_ms"].as_i64().unwrap();
    assert!((6000..=6800).contains(&n), "{n}");
    // South waits: the flag falls, and the socket hears of it.
    let mut ws = server.socket(&id);
    let over = ws.wait_for(15, |v| v["status"] == "over");
    assert_eq!(over["reason"], "time");
    assert_eq!(over["winner"], "N");
    assert_eq!(over["clock"]["south_ms"], 0);
    assert_eq!(over["clock"]["running"], Value::Null);
    assert_eq!(server.play(&id, "A", &south).0, 400);
    let _ = north;
    for tc in ["5", "0+3", "181+0", "5+61", "x+y", "-1+2", "NaN+1", "inf+0"] {
        let (status, err) = server.post("/api/games", json!({"time_control": tc}));
        assert_eq!(status, 400, "{tc} -> {err}");
        assert!(!str_of(&err["error"]).contains('\n'));
    }
}
