//! `oware match` and the arena module: statistics against worked examples,
//! series for scripted results, external engines that crash, hang, answer
//! an illegal move or garbage, adjudication, and a short real match of the
//! built-in engine against our own `oware uci` started as a child process.

mod common;

use std::path::{Path, PathBuf};

use oware::arena::series::{Format, GameResult, Player, Series, SeriesOutcome};
use oware::arena::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use oware::ogn::GameRecord;

use common::{fails, oware, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_oware");

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-3, "{a} vs {b}");
}

#[test]
fn trinomial_elo_of_fixed_counts() {
    // W 60, D 50, L 40 over n = 150: s = (60 + 25)/150 = 0.566667;
    // Elo = -400 log10(1/s - 1) = 46.602.
    // var = (60 (1-s)² + 50 (0.5-s)² + 40 s²)/150 = 0.162222, se = sqrt(var/150) = 0.032886;
    // s ± 1.96 se = 0.502211 .. 0.631122 → Elo 1.537 .. 93.292.
    let wdl = Wdl {
        wins: 60,
        draws: 50,
        losses: 40,
    };
    close(wdl.score(), 0.566_667);
    let elo = wdl.elo().unwrap();
    close(elo.elo, 46.602_228);
    close(elo.lower, 1.536_728);
    close(elo.upper, 93.292_090);
    assert!(Wdl::default().elo().is_none());
}

#[test]
fn pentanomial_elo_of_fixed_counts() {
    // [LL, LD, DD+WL, WD, WW] = [5, 15, 40, 25, 15], 100 pairs, pair scores 0, ¼, ½, ¾, 1:
    // mean = (15·0.25 + 40·0.5 + 25·0.75 + 15)/100 = 0.575 → Elo 52.512;
    // var = Σ n_i (x_i - 0.575)²/100 = 0.069375, se = sqrt(var/100) = 0.026339;
    // 0.575 ± 1.96 se = 0.523376 .. 0.626624 → Elo 16.255 .. 89.944.
    let p = Pentanomial {
        counts: [5, 15, 40, 25, 15],
    };
    let elo = p.elo().unwrap();
    close(elo.elo, 52.511_566);
    close(elo.lower, 16.255_329);
    close(elo.upper, 89.944_068);
    // Pairs are counted by A's points: a loss and a win make DD+WL.
    let mut q = Pentanomial::default();
    q.add_pair(GameResult::Loss, GameResult::Win);
    q.add_pair(GameResult::Draw, GameResult::Draw);
    q.add_pair(GameResult::Win, GameResult::Draw);
    assert_eq!(q.counts, [0, 0, 2, 1, 0]);
    assert_eq!(q.to_string(), "[0, 0, 2, 1, 0]");
}

#[test]
fn sprt_verdicts_for_counts_crossing_each_bound() {
    // [0, 10]: s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387;
    // LLR = N (s1 - s0)(2 mean - s0 - s1)/(2 var), bounds ±ln(19) = ±2.944.
    let sprt = Sprt::new(0.0, 10.0);
    let llr = |counts| sprt.llr(&Pentanomial { counts });
    // The counts above: mean 0.575, var 0.069375 → LLR 1.406, no verdict.
    let x = llr([5, 15, 40, 25, 15]);
    close(x, 1.406_189);
    assert_eq!(sprt.verdict(x), None);
    // 300 pairs, mean 0.591667, var 0.060347 → LLR 6.042: H1.
    let x = llr([10, 40, 120, 90, 40]);
    close(x, 6.041_685);
    assert_eq!(sprt.verdict(x), Some(SprtVerdict::H1));
    // 285 pairs, mean 0.464912, var 0.057979 → LLR -2.990: H0.
    let x = llr([25, 70, 120, 60, 10]);
    close(x, -2.990_168);
    assert_eq!(sprt.verdict(x), Some(SprtVerdict::H0));
    assert_eq!(sprt.describe(x), "LLR -2.99 (-2.94, 2.94) [0, 10]");
    // No pairs, or no variance: no evidence.
    assert_eq!(llr([0, 0, 0, 0, 0]), 0.0);
    assert_eq!(llr([0, 0, 7, 0, 0]), 0.0);
}

#[test]
fn series_for_scripted_results() {
    use GameResult::{Draw as D, Loss as L, Win as W};
    let run = |format: &str, results: &[GameResult]| {
        let mut s = Series::new(format.parse::<Format>().unwrap());
        for &r in results {
            assert!(!s.is_decided());
            s.record(r);
        }
        assert!(s.is_decided(), "{format}: {s}");
        s
    };
    // Antiguan: to 6 wins or a lead of 3, decided by the lead at 5-2.
    let s = run("first-to:6,lead:3", &[W, L, W, D, W, L, W, W]);
    assert_eq!(s.winner(), Some(Player::A));
    assert_eq!(s.to_string(), "A wins 5-2 (1 draw)");
    // Kumasi: race to 5.
    let s = run("first-to:5", &[L, L, W, L, W, L, L]);
    assert_eq!(s.to_string(), "B wins 5-2");
    // International: best of 5, stops at 3-0; best of 3 level is drawn.
    assert_eq!(run("best-of:5", &[W, W, W]).to_string(), "A wins 3-0");
    assert_eq!(
        run("best-of:3", &[W, L, D]).outcome(),
        Some(SeriesOutcome::Drawn)
    );
    // Yoruba: three in a row; a draw breaks the streak.
    let s = run("straight:3", &[W, W, D, L, L, L]);
    assert_eq!(s.to_string(), "B wins 3-2 (1 draw)");
}

/// A fake engine: a shell script answering the handshake and `go` with
/// `on_go` (a shell command).
fn script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn json(args: &[&str]) -> serde_json::Value {
    let text = stdout(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: {e}: {text}"))
}

/// The built-in engine against a misbehaving one: each of the two games
/// is lost by it with `kind` in the record, and the match goes on.
fn misbehaving(name: &str, on_go: &str, kind: &str) {
    let dir = tempfile::tempdir().unwrap();
    let engine = script(dir.path(), name, on_go);
    // South to move with house F empty (stores 4-0).
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "4-4-4-4-4-0-4-4-4-4-4-4-4-0-S\n").unwrap();
    let ogn = dir.path().join("games.ogn");
    let spec = format!("uci:sh {}", engine.display());
    let v = json(&[
        "match",
        "self",
        &spec,
        "--movetime",
        "20",
        "--hang-margin",
        "800",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--ogn",
        ogn.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["b"], name, "{v}");
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["wins"], 2, "{v}");
    let forfeits = v["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 2, "{v}");
    for f in forfeits {
        assert_eq!(f["engine"], "B", "{v}");
        assert!(f["what"].as_str().unwrap().contains(kind), "{v}");
    }
    let text = std::fs::read_to_string(&ogn).unwrap();
    assert_eq!(
        text.matches("[Termination \"rules infraction").count(),
        2,
        "{text}"
    );
}

#[test]
fn an_engine_that_crashes_loses_and_is_restarted() {
    misbehaving("crasher", "exit 1", "crash");
}

#[test]
fn an_engine_that_hangs_loses_on_the_timeout() {
    misbehaving("hanger", ":", "hang");
}

#[test]
fn an_engine_that_plays_an_illegal_move_loses() {
    // F is empty for South, and not North's move at all.
    misbehaving("illegal", "echo 'bestmove F'", "illegal move `F`");
}

#[test]
fn an_engine_that_answers_garbage_loses() {
    misbehaving(
        "garbage",
        "echo 'bestmove xyz'",
        "malformed answer `bestmove xyz`",
    );
}

#[test]
fn a_hang_under_a_clock_is_a_loss_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let engine = script(dir.path(), "slow", ":");
    let spec = format!("uci:sh {}", engine.display());
    let v = json(&[
        "match",
        &spec,
        "self",
        "--tc",
        "0.2+0",
        "--hang-margin",
        "300",
        "--games",
        "2",
        "--max-plies",
        "10",
        "--json",
    ]);
    assert_eq!(v["losses"], 2, "{v}");
    for f in v["forfeits"].as_array().unwrap() {
        assert_eq!(f["engine"], "A", "{v}");
        assert!(
            f["what"].as_str().unwrap().starts_with("time forfeit"),
            "{v}"
        );
    }
}

#[test]
fn the_built_in_engine_against_our_uci_process() {
    let dir = tempfile::tempdir().unwrap();
    let ogn = dir.path().join("games.ogn");
    let spec = format!("uci:{BIN} uci");
    let out = oware(&[
        "match",
        "self",
        &spec,
        "--depth",
        "3",
        "--games",
        "4",
        "--max-plies",
        "60",
        "--concurrency",
        "2",
        "--ogn",
        ogn.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("4 games"), "{text}");
    assert!(
        text.contains("Pentanomial [LL, LD, DD+WL, WD, WW]"),
        "{text}"
    );
    assert!(!text.contains("Forfeit"), "{text}");
    let games = std::fs::read_to_string(&ogn).unwrap();
    let records: Vec<&str> = games
        .split("\n\n\n")
        .filter(|r| !r.trim().is_empty())
        .collect();
    assert_eq!(records.len(), 4, "{games}");
    for r in records {
        let rec = GameRecord::parse(r).unwrap();
        assert_eq!(rec.tag("TimeControl"), Some("depth 3"));
        // Every move (the openings are positions) carries its time.
        let times: Vec<f64> = r
            .split('{')
            .skip(1)
            .map(|c| c.split_once("s}").unwrap().0.parse().unwrap())
            .collect();
        assert_eq!(times.len(), rec.moves.len(), "{r}");
        assert!(times.iter().all(|t| (0.0..60.0).contains(t)), "{r}");
        assert!(rec.tag("Termination").is_some());
        let names = [rec.tag("South").unwrap(), rec.tag("North").unwrap()];
        assert!(names.contains(&"self"), "{names:?}");
        rec.replay(oware::Rules::ABAPA).unwrap();
    }
}

#[test]
fn series_and_sprt_from_the_command_line() {
    // One series: the result names the winner with its game score.
    let v = json(&[
        "match",
        "self",
        "self:reductions=off",
        "--depth",
        "2",
        "--max-plies",
        "40",
        "--series",
        "best-of:3",
        "--json",
    ]);
    let series = &v["series"];
    assert_eq!(series["format"], "best-of:3", "{v}");
    let played = series["a_won"].as_u64().unwrap()
        + series["b_won"].as_u64().unwrap()
        + series["drawn"].as_u64().unwrap();
    assert_eq!(played, 1, "{v}");
    assert!(v["games"].as_u64().unwrap() <= 3, "{v}");
    let text = stdout(&[
        "match",
        "self",
        "self:capture-search=on",
        "--depth",
        "1",
        "--max-plies",
        "30",
        "--series",
        "first-to:6,lead:3",
    ]);
    assert!(text.contains("Series result: "), "{text}");
    // Many series: the share of series won.
    let v = json(&[
        "match",
        "self",
        "self:reductions=off",
        "--depth",
        "1",
        "--max-plies",
        "20",
        "--series",
        "first-to:1",
        "--games",
        "6",
        "--json",
    ]);
    assert!(v["games"].as_u64().unwrap() >= 6, "{v}");
    // Random openings, kept near level.
    let v = json(&[
        "match",
        "self",
        "self",
        "--depth",
        "1",
        "--max-plies",
        "20",
        "--games",
        "2",
        "--random-plies",
        "4",
        "--json",
    ]);
    assert_eq!(v["games"], 2, "{v}");
    // The SPRT line.
    let text = stdout(&[
        "match",
        "self",
        "self",
        "--depth",
        "1",
        "--max-plies",
        "20",
        "--games",
        "4",
        "--sprt",
        "0,10",
    ]);
    assert!(text.contains("SPRT: LLR "), "{text}");
    assert!(text.contains("(-2.94, 2.94) [0, 10]"), "{text}");
}

#[test]
fn exact_table_entries_adjudicate() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    stdout(&[
        "build",
        "--max-seeds",
        "4",
        "--dir",
        tables.to_str().unwrap(),
        "--quiet",
    ]);
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "0-0-0-0-1-1-0-0-0-1-1-0-22-22-S\n").unwrap();
    let v = json(&[
        "match",
        "self",
        "self",
        "--depth",
        "2",
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
        "--db",
        tables.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["endings"]["tables"], 2, "{v}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    fails(&["match", "self", "nonsense"], "bad engine");
    fails(&["match", "self:speed=3", "self"], "unknown engine option");
    fails(&["match", "self", "self:hash=0"], "bad value");
    fails(
        &["match", "self", "uci:/nonexistent/engine"],
        "cannot start",
    );
    fails(
        &["match", "self", "self", "--series", "best-of:0"],
        "bad number",
    );
    fails(&["match", "self", "self", "--sprt", "10,0"], "bad SPRT");
    fails(
        &["match", "self", "self", "--tc", "fast"],
        "bad time control",
    );
    fails(
        &["match", "self", "self", "--openings", "/nonexistent"],
        "cannot read",
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "FfQ\n").unwrap();
    fails(
        &["match", "self", "self", "--openings", bad.to_str().unwrap()],
        "line 1",
    );
    fails(
        &["match", "self", "self", "--db", "/nonexistent"],
        "not found",
    );
    fails(
        &["match", "self", "self:eval=/nonexistent"],
        "cannot read eval file",
    );
    // A full disk stops the match at the first game it cannot keep.
    fails(
        &["match", "self", "self", "--depth", "1", "--games", "100000"]
            .into_iter()
            .chain(["--ogn", "/dev/full", "--openings", "start"])
            .collect::<Vec<_>>(),
        "cannot write /dev/full: No space left on device",
    );
    for odds in ["0", "-1", "NaN", "inf"] {
        let arg = format!("--time-odds={odds}");
        fails(&["match", "self", "self", &arg], "--time-odds");
    }
}

#[test]
fn the_shipped_openings_are_legal() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/openings.txt"))
            .unwrap();
    let list = oware::arena::openings::parse_openings(&text, oware::Rules::ABAPA).unwrap();
    assert_eq!(list.len(), 50);
}

/// The time manager on tiny clocks: whole games of the engine against
/// itself at half a second a game plus 20 ms a move, and no move loses on
/// time. The margin tolerates a slow machine: an engine may overrun its
/// share, never the clock.
#[test]
fn tiny_clocks_are_never_exceeded() {
    let out = common::stdout(&[
        "match",
        "self",
        "self",
        "--tc",
        "0.5+0.02",
        "--games",
        "4",
        "--openings",
        "start",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(v["forfeits"], serde_json::json!([]), "{v}");
    assert!(v["endings"].get("time").is_none(), "{v}");
}

/// Time odds: engine B (our UCI process, its input logged) plays on half
/// A's clock. The referee gives each side its own base and increment, in
/// the `go` commands and in the records, whichever side B plays.
#[test]
fn time_odds_give_engine_b_half_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("b.log");
    let ogn = dir.path().join("games.ogn");
    let b = format!("uci:sh -c 'tee -a {} | {BIN} uci'", log.display());
    let out = stdout(&[
        "match",
        "self",
        &b,
        "--tc",
        "0.8+0.02",
        "--time-odds",
        "0.5",
        "--games",
        "2",
        "--openings",
        "start",
        "--max-plies",
        "16",
        "--ogn",
        ogn.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["time_control"], "0.8+0.02 against 0.4+0.01", "{v}");
    assert_eq!(v["forfeits"], serde_json::json!([]), "{v}");
    let games = std::fs::read_to_string(&ogn).unwrap();
    let mut b_sides = Vec::new();
    for r in games.split("\n\n\n").filter(|r| !r.trim().is_empty()) {
        let rec = GameRecord::parse(r).unwrap();
        assert_eq!(rec.tag("TimeControl"), None, "{r}");
        let b_south = rec.tag("North") == Some("self");
        let (b_tag, a_tag) = if b_south {
            ("SouthTimeControl", "NorthTimeControl")
        } else {
            ("NorthTimeControl", "SouthTimeControl")
        };
        assert_eq!(rec.tag(b_tag), Some("0.4+0.01"), "{r}");
        assert_eq!(rec.tag(a_tag), Some("0.8+0.02"), "{r}");
        b_sides.push(b_south);
    }
    b_sides.sort();
    assert_eq!(b_sides, [false, true], "{games}");
    // Every `go` B was sent: its own increment is 10 ms, A's 20 ms, and its
    // clock never holds more than its base and the increments of the game.
    let sent = std::fs::read_to_string(&log).unwrap();
    let gos: Vec<&str> = sent.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(gos.len() >= 8, "{sent}");
    let mut seen = [false; 2];
    for go in gos {
        let w: Vec<&str> = go.split_whitespace().collect();
        let field = |key: &str| -> u64 {
            let i = w
                .iter()
                .position(|x| *x == key)
                .unwrap_or_else(|| panic!("{go}"));
            w[i + 1].parse().unwrap()
        };
        // B's own clock: South's (wtime) when its increment, 10 ms, is winc.
        let (own, b_south) = match (field("winc"), field("binc")) {
            (10, 20) => (field("wtime"), true),
            (20, 10) => (field("btime"), false),
            _ => panic!("increments of {go}"),
        };
        seen[usize::from(b_south)] = true;
        assert!(own <= 400 + 8 * 10, "{go}");
    }
    assert_eq!(seen, [true, true], "B played both sides: {sent}");
}

/// A long match killed midway: its record file holds whole games only,
/// each written when it ended (not when a buffer filled).
#[test]
fn a_match_cut_short_keeps_every_game_it_finished() {
    let dir = tempfile::tempdir().unwrap();
    let ogn = dir.path().join("games.ogn");
    let mut child = std::process::Command::new(BIN)
        .args(["match", "self", "self", "--depth", "2", "--games", "100000"])
        .args(["--openings", "start", "--ogn", ogn.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut text = String::new();
    while text.matches("[Event ").count() < 3 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        text = std::fs::read_to_string(&ogn).unwrap_or_default();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let games = text.matches("[Event ").count();
    assert!(games >= 3, "{games} games in 60 s: {text}");
    assert!(text.ends_with("\n\n\n"), "a game cut in the middle: {text}");
    for r in text.split("\n\n\n").filter(|r| !r.trim().is_empty()) {
        GameRecord::parse(r)
            .unwrap()
            .replay(oware::Rules::ABAPA)
            .unwrap();
    }
}

/// Ctrl-C (SIGINT) or `kill` (SIGTERM) midway through a long match: it
/// stops at once with status 128 + the signal, prints the summary of the
/// games it finished (the same games its record file holds, each whole),
/// and `--report-every` printed the score along the way.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_prints_the_summary_of_the_games_finished() {
    for (signal, json) in [(libc::SIGINT, true), (libc::SIGTERM, false)] {
        let dir = tempfile::tempdir().unwrap();
        let ogn = dir.path().join("games.ogn");
        let mut command = std::process::Command::new(BIN);
        command
            .args(["match", "self", "self", "--depth", "2", "--games", "100000"])
            .args(["--openings", "start", "--report-every", "2"])
            .args(["--ogn", ogn.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if json {
            command.arg("--json");
        }
        let mut child = command.spawn().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while std::fs::read_to_string(&ogn)
            .unwrap_or_default()
            .matches("[Event ")
            .count()
            < 4
        {
            assert!(std::time::Instant::now() < deadline, "no 4 games in 60 s");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: sending a signal to our own child, whose id is valid
        // until it is waited for.
        let rc = unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        assert_eq!(rc, 0);
        let status = common::wait_within(&mut child, std::time::Duration::from_secs(10), "match");
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(status.code(), Some(128 + signal), "{err}");
        let games = if json {
            let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(summary["interrupted"], true, "{summary}");
            summary["games"].as_u64().unwrap()
        } else {
            let line = text
                .lines()
                .find(|l| l.starts_with("Interrupted: "))
                .unwrap_or_else(|| panic!("{text}"));
            assert!(line.ends_with(" games finished; the games in play were dropped"));
            line["Interrupted: ".len()..]
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert!(games >= 4, "{text}");
        let records = std::fs::read_to_string(&ogn).unwrap();
        let whole: Vec<&str> = records
            .split("\n\n\n")
            .filter(|r| !r.trim().is_empty())
            .collect();
        assert_eq!(whole.len() as u64, games, "{records}");
        for r in whole {
            GameRecord::parse(r)
                .unwrap()
                .replay(oware::Rules::ABAPA)
                .unwrap();
        }
        assert!(
            err.lines().last().unwrap_or_default().starts_with(&format!(
                "interrupted: the summary is of the {games} games finished"
            )),
            "{err}"
        );
        let reports: Vec<&str> = err.lines().filter(|l| l.contains(" games: +")).collect();
        assert_eq!(reports.len() as u64, games / 2, "{err}");
        assert!(reports[0].starts_with("2 games: +"), "{err}");
    }
}

/// A signal before the first game ends: the JSON summary still comes, of
/// no game, marked interrupted.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_before_any_game_gives_an_empty_summary() {
    let mut child = std::process::Command::new(BIN)
        .args([
            "match",
            "self",
            "self",
            "--movetime",
            "1000",
            "--games",
            "2",
        ])
        .args(["--openings", "start", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    // SAFETY: as above.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(rc, 0);
    let status = common::wait_within(&mut child, std::time::Duration::from_secs(10), "match");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(130), "{err}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["interrupted"], true, "{summary}");
    assert_eq!(summary["games"], 0, "{summary}");
    assert_eq!(summary["a"], "self", "{summary}");
    assert!(
        err.contains("interrupted: the summary is of the 0 games finished"),
        "{err}"
    );
}

/// Openings given as move lists: their moves carry no time, every move the
/// engines played does, in order.
#[test]
fn the_records_time_the_engines_moves_not_the_openings() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "FfA\n").unwrap();
    let ogn = dir.path().join("games.ogn");
    let out = stdout(&[
        "match",
        "self",
        "self:depth=1",
        "--depth",
        "2",
        "--games",
        "2",
        "--max-plies",
        "12",
        "--openings",
        openings.to_str().unwrap(),
        "--ogn",
        ogn.to_str().unwrap(),
    ]);
    assert!(out.contains("2 games"), "{out}");
    let text = std::fs::read_to_string(&ogn).unwrap();
    for r in text.split("\n\n\n").filter(|r| !r.trim().is_empty()) {
        let body = r.split("\n\n").nth(1).unwrap().replace('\n', " ");
        let tokens: Vec<&str> = body
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect();
        // F f A, then nine moves each followed by its time, then the result.
        assert!(!tokens[..3].iter().any(|t| t.starts_with('{')), "{body}");
        let rest = &tokens[3..tokens.len() - 1];
        assert_eq!(rest.len(), 18, "{body}");
        for pair in rest.chunks(2) {
            assert!(
                pair[0].starts_with(|c: char| c.is_ascii_alphabetic()),
                "{body}"
            );
            assert!(
                pair[1].starts_with('{') && pair[1].ends_with("s}"),
                "{body}"
            );
        }
    }
}
