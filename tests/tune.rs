//! The tuner: it finds known weights again, and `oware tune`, `--eval` and
//! the option `EvalFile` read and write the weights' file.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{fails, oware, stdout};
use oware::arena::openings::Rng;
use oware::search::EvalParams;
use oware::tune::features::{WEIGHTS, evaluation, terms};
use oware::tune::fit::{fit, sigmoid};
use oware::tune::{FitOptions, Rows};
use oware::{Game, Position, Rules, Variant};

/// The terms of the positions of `games` random games.
fn random_positions(games: usize, seed: u64) -> Vec<[i16; WEIGHTS]> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(Position::START, Rules::ABAPA);
        while game.outcome().is_none() && game.moves().len() < 200 {
            out.extend(terms(game.position(), Variant::Abapa));
            let legal = game.legal_moves();
            game.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    out
}

/// A uniform number in [0, 1).
fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Wins and losses drawn at random from the sigmoid of a known evaluation: the
/// fit, started from the default weights, finds the known weights (and K)
/// within what the noise allows.
#[test]
fn the_tuner_finds_the_weights_a_synthetic_data_set_was_drawn_from() {
    let truth = EvalParams {
        store: 100,
        own_seed: 9,
        target: 25,
        empty: -30,
        mobility: 6,
        kroo: 60,
        threat: 70,
    };
    let k = 0.003;
    let mut rng = Rng::new(2);
    let mut rows = Rows::default();
    let w = truth.to_array().map(f64::from);
    for t in random_positions(1500, 1) {
        let p = sigmoid(k * evaluation(&t, &w));
        let result = f64::from(uniform(&mut rng) < p);
        rows.push(t, result as f32);
    }
    assert!(rows.len() > 100_000, "{}", rows.len());
    let mut free = [false; WEIGHTS];
    for name in ["own_seed", "target", "empty", "kroo", "threat"] {
        free[EvalParams::index_of(name).unwrap()] = true;
    }
    let start = EvalParams::DEFAULT.to_array();
    let f = fit(&rows, &start, &FitOptions::new(free));
    let got = EvalParams::from_array(f.weights);
    // The fixed weights stay; the free ones come within a few centiseeds
    // (a kroo, rare in random games, within 20 %).
    assert_eq!((got.store, got.mobility), (100, 6));
    for (name, want, have, tolerance) in [
        ("own_seed", truth.own_seed, got.own_seed, 2),
        ("target", truth.target, got.target, 4),
        ("empty", truth.empty, got.empty, 4),
        ("kroo", truth.kroo, got.kroo, 12),
        ("threat", truth.threat, got.threat, 4),
    ] {
        assert!(
            (want - have).abs() <= tolerance,
            "{name}: {have}, not {want} ± {tolerance} ({got:?})"
        );
    }
    assert!((f.k - k).abs() < 0.1 * k, "K {} against {k}", f.k);
    assert!(f.error < f.error_start, "{f:?}");
    // The known weights are no better than the fitted ones on this data.
    assert!(oware::tune::fit::error(&rows, &w, k) >= f.error - 1e-9);
}

/// Runs `oware` with `args` and `script` on its input; what it printed.
fn uci(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The score of the last `info` line with a score.
fn last_score(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .and_then(|l| l.split(" score ").nth(1))
        .map(|s| s.split(" nodes").next().unwrap().to_string())
        .unwrap_or_else(|| panic!("no score in {text}"))
}

#[test]
fn eval_files_are_read_by_every_command_and_bad_ones_refused() {
    let dir = tempfile::tempdir().unwrap();
    let material = dir.path().join("material.txt");
    // Only the captured seeds count: the start scores 0 at depth 1.
    std::fs::write(
        &material,
        "store = 100\nown_seed = 0\ntarget = 0\nempty = 0\nmobility = 0\nkroo = 0\nthreat = 0\n",
    )
    .unwrap();
    let m = material.to_str().unwrap();
    let bestmove = |extra: &[&str]| {
        let mut args = vec!["bestmove", "--depth", "1", "--no-db", "--no-book", "--json"];
        args.extend(extra);
        let v: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
        v["score"].as_f64().unwrap()
    };
    assert_eq!(bestmove(&["--eval", m]), 0.0);
    assert_ne!(
        bestmove(&[]),
        0.0,
        "the default evaluation sees more than material"
    );
    let script = format!(
        "setoption name EvalFile value {m}\nposition startpos\ngo depth 1\nsetoption name EvalFile value <built-in>\ngo depth 1\n"
    );
    let out = uci(&["uci", "--db", dir.path().to_str().unwrap()], &script);
    let (first, second) = out.split_once("bestmove").unwrap();
    assert!(first.contains("info string eval: weights from"), "{out}");
    assert_eq!(last_score(first), "cp 0");
    assert_ne!(last_score(second), "cp 0", "{out}");
    let no_tables = dir.path().to_str().unwrap();
    let out = uci(&["uci", "--db", no_tables, "--eval", m], "go depth 1\n");
    assert_eq!(last_score(&out), "cp 0");
    // The weights outlive a change of rules.
    let script =
        "setoption name Rules value mancala\nsetoption name Rules value abapa\ngo depth 1\n";
    let out = uci(&["uci", "--db", no_tables, "--eval", m], script);
    assert_eq!(last_score(&out), "cp 0", "{out}");
    // A bad file: a one-line error (exit 2), or in UCI a said one.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "store = 100\nkroo = many\n").unwrap();
    let b = bad.to_str().unwrap();
    fails(
        &["bestmove", "--depth", "1", "--eval", b],
        "bad value `many` for kroo",
    );
    fails(
        &["analyze", "--depth", "1", "--eval", "/nonexistent"],
        "cannot read eval file",
    );
    // The system's reason once, not repeated as the error's cause.
    let out = common::oware(&["bestmove", "--depth", "1", "--eval", "/nonexistent"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("os error").count(), 1, "{err}");
    fails(&["uci", "--eval", b], "eval file");
    fails(
        &["bestmove", "--rules", "mancala", "--eval", m],
        "eval files are Oware's",
    );
    fails(
        &["match", "self:eval=/nonexistent", "self"],
        "cannot read eval file",
    );
    let out = uci(
        &["uci", "--db", no_tables],
        &format!("setoption name EvalFile value {b}\nisready\n"),
    );
    let said = out
        .lines()
        .find(|l| l.contains("bad.txt"))
        .unwrap_or_default();
    assert!(
        said.contains("bad value `many` for kroo") && said.ends_with("the evaluation stays"),
        "{out}"
    );
}

#[test]
fn tune_plays_fits_and_writes_a_file_the_engine_reads() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    common::build(&db, "8");
    let (data, out) = (dir.path().join("data.txt"), dir.path().join("w.txt"));
    let text = stdout(&[
        "tune",
        "--db",
        db.to_str().unwrap(),
        "--positions",
        "800",
        "--games",
        "6",
        "--depth",
        "2",
        "--save-data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["drawn"], 800, "{v}");
    assert!(v["endgames"].as_u64().unwrap() > 0 && v["beyond"].as_u64().unwrap() > 0);
    assert_eq!(v["levels"], 8);
    assert!(v["error"].as_f64().unwrap() <= v["error_start"].as_f64().unwrap());
    let tuned = EvalParams::load(&out).unwrap();
    for (i, name) in EvalParams::NAMES.iter().enumerate() {
        assert_eq!(v["weights"][name], tuned.to_array()[i], "{name}");
    }
    // The fixed weights keep their defaults.
    assert_eq!((tuned.store, tuned.mobility), (100, 6));
    // The saved data set gives the same fit, the same run the same data.
    let again: serde_json::Value = serde_json::from_str(&stdout(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(again["weights"], v["weights"]);
    assert_eq!(again["positions"], v["positions"]);
    // Twice the same rows: the same minimum.
    let d = data.to_str().unwrap();
    let twice: serde_json::Value =
        serde_json::from_str(&stdout(&["tune", "--data", d, "--data", d, "--json"])).unwrap();
    assert_eq!(twice["weights"], v["weights"]);
    assert_eq!(twice["positions"], 2 * v["positions"].as_u64().unwrap());
    let lines = std::fs::read_to_string(&data).unwrap().lines().count();
    assert_eq!(
        lines as u64,
        v["positions"].as_u64().unwrap() + 1,
        "one comment line"
    );
    stdout(&[
        "bestmove",
        "--depth",
        "3",
        "--no-db",
        "--eval",
        out.to_str().unwrap(),
    ]);
    // The games played by another evaluation: the start weights as a
    // file play the same games, the shipped network others.
    let weights = dir.path().join("default.txt");
    std::fs::write(&weights, EvalParams::DEFAULT.to_text(&[])).unwrap();
    let network = concat!(env!("CARGO_MANIFEST_DIR"), "/databases/eval/abapa-24.nnue");
    let games = |play: Option<&str>| {
        let saved = dir.path().join("games.txt");
        let mut args = vec![
            "tune",
            "--db",
            db.to_str().unwrap(),
            "--positions",
            "0",
            "--games",
            "6",
            "--depth",
            "2",
            "--save-data",
            saved.to_str().unwrap(),
            "--json",
        ];
        if let Some(file) = play {
            args.extend(["--play-eval", file]);
        }
        stdout(&args);
        std::fs::read_to_string(&saved).unwrap()
    };
    let by_default = games(None);
    assert_eq!(games(Some(weights.to_str().unwrap())), by_default);
    assert_ne!(games(Some(network)), by_default);
    fails(
        &[
            "tune",
            "--no-db",
            "--games",
            "1",
            "--play-eval",
            "/nonexistent",
        ],
        "cannot read eval file",
    );
    // Bad arguments.
    fails(
        &["tune", "--no-db", "--games", "1", "--tune", "power"],
        "unknown weight `power`",
    );
    fails(
        &["tune", "--no-db", "--positions", "0", "--games", "0"],
        "no positions",
    );
    fails(&["tune", "--data", "/nonexistent"], "cannot read data set");
    std::fs::write(&data, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S win\n").unwrap();
    fails(
        &["tune", "--data", data.to_str().unwrap()],
        "line 1: bad result `win`",
    );
    let missing = dir.path().join("none");
    fails(
        &["tune", "--db", missing.to_str().unwrap()],
        "cannot open the tables",
    );
    let out = oware(&["tune", "--no-db", "--games", "2", "--depth", "1"]);
    assert!(out.status.success());
}

/// The score `go depth 1` gives the start with evaluation `eval`: the best
/// of the children's evaluations, negated, each with its best capture.
fn depth_one_score(eval: &oware::search::EvalChoice) -> i32 {
    let e = oware::search::Evaluator::of(eval);
    let start = Position::START;
    Game::new(start, Rules::ABAPA)
        .legal_moves()
        .iter()
        .map(|&mv| {
            let (child, _) = start.after(mv, Variant::Abapa);
            let best = child.best_capture(Variant::Abapa).unwrap();
            -e.evaluate(&child, best)
        })
        .max()
        .unwrap()
}

#[test]
fn tune_trains_a_network_the_engine_uses() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    common::build(&db, "8");
    let net = dir.path().join("net.nnue");
    let text = stdout(&[
        "tune",
        "--db",
        db.to_str().unwrap(),
        "--positions",
        "3000",
        "--games",
        "4",
        "--depth",
        "2",
        "--network",
        "--epochs",
        "4",
        "--out",
        net.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["epochs"].as_array().unwrap().len(), 4, "{v}");
    let first = v["epochs"][0]["train"].as_f64().unwrap();
    assert!(v["error"].as_f64().unwrap() <= first, "{v}");
    assert!(v["held_out"].as_u64().unwrap() >= 300, "{v}");
    let choice = oware::search::EvalChoice::load(&net).unwrap();
    let network = choice.network_in_use().expect("a network file");
    assert_eq!(v["checksum"], format!("{:08x}", network.checksum()));

    // The engine evaluates with it: the score at depth 1 is the best child's.
    let n = net.to_str().unwrap();
    let no_tables = dir.path().to_str().unwrap();
    let out = uci(&["uci", "--db", no_tables, "--eval", n], "go depth 1\n");
    assert_eq!(
        last_score(&out),
        format!("cp {}", depth_one_score(&choice)),
        "{out}"
    );
    let script = format!("setoption name EvalFile value {n}\nisready\n");
    let out = uci(&["uci", "--db", no_tables], &script);
    assert!(out.contains("info string eval: a network from"), "{out}");
    stdout(&["bestmove", "--depth", "4", "--no-db", "--eval", n]);

    // A damaged network is refused with what is wrong.
    let mut bytes = std::fs::read(&net).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 4;
    std::fs::write(&net, &bytes).unwrap();
    fails(
        &["bestmove", "--depth", "1", "--no-db", "--eval", n],
        "network damaged",
    );
    fails(&["tune", "--no-db", "--epochs", "3"], "--network");
    fails(
        &["tune", "--no-db", "--network", "--learning-rate", "2"],
        "learning rate",
    );
}

/// `--hidden` sets the width; 32 units train the network the build before
/// the widths trained (its checksum on this data, taken from that build),
/// and a width no inference has is refused.
#[test]
fn tune_trains_each_width_and_32_as_before() {
    let data =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/network_positions.txt");
    let data = data.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let train = |hidden: Option<&str>| {
        let out = dir.path().join("w.nnue");
        let mut args = vec![
            "tune",
            "--data",
            data,
            "--network",
            "--epochs",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ];
        if let Some(h) = hidden {
            args.extend(["--hidden", h]);
        }
        let v: serde_json::Value = serde_json::from_str(&stdout(&args)).unwrap();
        let choice = oware::search::EvalChoice::load(&out).unwrap();
        let net = choice.network_in_use().expect("a network").clone();
        assert_eq!(v["checksum"], format!("{:08x}", net.checksum()), "{v}");
        assert_eq!(v["hidden"], net.hidden(), "{v}");
        net
    };
    let narrow = train(Some("32"));
    // Training runs in f32 through the platform's exp(): the checksum is
    // the one the build before gave on Linux x86-64, where CI runs.
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        assert_eq!(format!("{:08x}", narrow.checksum()), "a4a51294");
    }
    assert_eq!(train(None).hidden(), oware::search::eval::network::HIDDEN);
    assert_eq!(train(Some("128")).hidden(), 128);
    fails(
        &["tune", "--data", data, "--network", "--hidden", "48"],
        "32, 64 or 128",
    );
    fails(&["tune", "--data", data, "--hidden", "32"], "--network");
}

/// The shipped networks load, are the ones their README names, and play.
#[test]
fn the_shipped_networks_load_and_play() {
    for name in [
        "abapa-24.nnue",
        "abapa-24-selfplay.nnue",
        "abapa-31.nnue",
        "abapa-32.nnue",
    ] {
        shipped_network_loads_and_plays(name);
    }
}

fn shipped_network_loads_and_plays(name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("databases/eval")
        .join(name);
    let choice = oware::search::EvalChoice::load(&path).unwrap();
    let net = choice.network_in_use().expect("a network");
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("databases/README.md"),
    )
    .unwrap();
    let named = format!("network {:08x}", net.checksum());
    assert!(readme.contains(&named), "the README names {named}");
    let text = stdout(&[
        "bestmove",
        "--depth",
        "6",
        "--no-db",
        "--no-book",
        "--eval",
        path.to_str().unwrap(),
    ]);
    assert!(!text.trim().is_empty());
}
