//! The accuracy benchmark on real tables of levels 0..12, built here:
//! hand-worked verdicts, a run of the built-in engine and of an external
//! UCI engine, a generated file, and the errors of a bad positions file.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use oware::accuracy::{file, judge};
use oware::tb::{BuildOptions, Tablebase, build};
use oware::{Move, Position, Variant};

/// Tables of levels 0..12 in a folder kept for the whole test run.
fn tables() -> &'static (tempfile::TempDir, Arc<Tablebase>) {
    static TABLES: OnceLock<(tempfile::TempDir, Arc<Tablebase>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let opts = BuildOptions {
            dir: dir.path(),
            variant: Variant::Abapa,
            max_seeds: 12,
            progress: false,
            format: Default::default(),
            recheck: oware::tb::Recheck::All,
        };
        build(&opts, |_| {}).unwrap();
        let tb = Tablebase::open(dir.path(), Variant::Abapa).unwrap();
        (dir, Arc::new(tb))
    })
}

fn db() -> &'static str {
    tables().0.path().to_str().unwrap()
}

fn mv(letter: char) -> Move {
    Move::from_letter(letter).unwrap()
}

/// South: E = F = 1; North: a = b = 1; stores 23 and 21, South to move.
///
/// - F sows into a (1 → 2) and captures 2, North keeping b: 25, a win.
///   Then North's b and South's E are lone seeds chasing each other:
///   b–c, E–F, c–d, F–a; South's row is empty, North cannot feed and takes
///   the last 2 seeds. So F = 2/2 (the mover forces 2, the opponent 2).
/// - E sows into F (F = 2). If North plays b (to c), South must play F
///   (into a and b, last seed alone: no capture), South's row is empty and
///   North, unable to feed, takes all 4: 21 + 4 = 25. So E = 0/4: it drops
///   the win and walks into a forced loss.
const BOTH: &str = "0-0-0-0-1-1-1-1-0-0-0-0-23-21-S 2/2 E=0/4 F=2/2";

/// The same board with stores 24 and 20: E still drops the win (24 + 0),
/// but North's 4 make only 24: no loss.
const DROP: &str = "0-0-0-0-1-1-1-1-0-0-0-0-24-20-S 2/2 E=0/4 F=2/2";

/// South: A = B = 1; North: f = 1; stores 21 and 24, South to move.
///
/// - A sows into B (B = 2); North's only move f puts a lone seed in A; South
///   cannot feed North and takes the 3 seeds left: 24–24. A = 3/0.
/// - B sows into C; North's f makes A = 2 and captures it (C keeps one):
///   24 + 2, a loss. South then takes its last seed. B = 1/2.
///
/// 21 + 3 = 24 is no win: only the loss is at stake.
const WALK: &str = "1-1-0-0-0-0-0-0-0-0-0-1-21-24-S 3/0 A=3/0 B=1/2";

/// The board of [`WALK`] with stores 22 and 23: A wins (25), B drops it
/// and walks into North's 25.
const BOTH_AGAIN: &str = "1-1-0-0-0-0-0-0-0-0-0-1-22-23-S 3/0 A=3/0 B=1/2";

#[test]
fn the_tables_judge_the_hand_worked_positions() {
    let tb = &tables().1;
    for line in [BOTH, DROP, WALK, BOTH_AGAIN] {
        let pos: Position = line.split(' ').next().unwrap().parse().unwrap();
        let judged = judge(tb, &pos).unwrap();
        assert_eq!(file::format_line(&judged), line);
        assert_eq!(file::parse_line(line).unwrap(), judged);
    }
    let verdicts = |line: &str, letter: char| {
        let j = file::parse_line(line).unwrap();
        let v = j.verdict(mv(letter)).unwrap();
        (
            j.win_at_stake(),
            j.loss_avoidable(),
            v.drops_win,
            v.walks_into_loss,
        )
    };
    assert_eq!(verdicts(BOTH, 'E'), (true, true, true, true));
    assert_eq!(verdicts(BOTH, 'F'), (true, true, false, false));
    assert_eq!(verdicts(DROP, 'E'), (true, false, true, false));
    assert_eq!(verdicts(WALK, 'B'), (false, true, false, true));
    assert_eq!(verdicts(WALK, 'A'), (false, true, false, false));
    assert_eq!(verdicts(BOTH_AGAIN, 'B'), (true, true, true, true));
}

/// A positions file `name` in `dir`: the header, then `lines`.
fn positions_file(dir: &Path, name: &str, lines: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("{}\n{lines}", file::HEADER)).unwrap();
    path
}

/// A file of the four hand-worked positions.
fn hand_worked(dir: &Path) -> PathBuf {
    positions_file(
        dir,
        "hand.txt",
        &format!("{BOTH}\n{DROP}\n\n# a comment\n{WALK}\n{BOTH_AGAIN}\n"),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&common::stdout(args)).unwrap()
}

#[test]
fn the_built_in_engine_finds_every_safe_move() {
    let tmp = tempfile::tempdir().unwrap();
    let path = hand_worked(tmp.path());
    let out = json(&[
        "accuracy",
        "--positions",
        path.to_str().unwrap(),
        "--db",
        db(),
        "--tb-limit",
        "2",
        "--depth",
        "8",
        "--json",
    ]);
    let total = &out["total"];
    assert_eq!(total["positions"], 4);
    assert_eq!(
        (total["wins"].as_u64(), total["losses_avoidable"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(out["errors"], 0, "{out}");
    assert_eq!(out["by_seeds"]["4"]["wins"], 2);
    assert_eq!(out["answers"][0]["move"], "F");
    assert_eq!(out["answers"][2]["move"], "A");
    // Tables capped at 3 seeds: the positions of 3 seeds are skipped.
    let out = json(&[
        "accuracy",
        "--positions",
        path.to_str().unwrap(),
        "--db",
        db(),
        "--tb-limit",
        "3",
        "--depth",
        "8",
        "--json",
    ]);
    assert_eq!(
        (out["skipped"].as_u64(), out["total"]["positions"].as_u64()),
        (Some(2), Some(2))
    );
}

/// An external engine that answers E whatever the position.
fn always_e(dir: &Path) -> String {
    let script = dir.join("always-e.sh");
    std::fs::write(
        &script,
        "while read -r line; do case \"$line\" in \
         uci) echo 'id name always-e'; echo uciok;; \
         isready) echo readyok;; \
         go*) echo 'bestmove E';; \
         quit) exit 0;; esac; done\n",
    )
    .unwrap();
    format!("uci:sh {}", script.display())
}

#[test]
fn a_uci_engine_is_judged_on_the_same_positions() {
    let tmp = tempfile::tempdir().unwrap();
    let path = hand_worked(tmp.path());
    let engine = always_e(tmp.path());
    let out = json(&[
        "accuracy",
        "--positions",
        path.to_str().unwrap(),
        "--tb-limit",
        "2",
        "--engine",
        &engine,
        "--movetime",
        "10",
        "--json",
    ]);
    assert_eq!(out["engine"], "always-e");
    let total = &out["total"];
    // E drops both wins of the 4-seed board and walks into the loss of
    // BOTH; on the 3-seed board E is illegal: two faults.
    assert_eq!(total["wins"], 2, "{out}");
    assert_eq!(total["wins_dropped"], 2);
    assert_eq!(total["losses_avoidable"], 1);
    assert_eq!(total["losses_walked_into"], 1);
    assert_eq!(total["faults"], 2);
    assert_eq!(out["answers"][2]["fault"], "illegal move `E`");
    let text = common::stdout(&[
        "accuracy",
        "--positions",
        path.to_str().unwrap(),
        "--tb-limit",
        "2",
        "--engine",
        &engine,
        "--movetime",
        "10",
    ]);
    assert!(
        text.contains("dropped 2 of 2 forced wins, walked into 1 of 1 avoidable forced losses: 3 of 3 decisions (100.0 %)"),
        "{text}"
    );
}

#[test]
fn a_generated_file_is_reproducible_and_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let make = |name: &str, jobs: &str| {
        let out = tmp.path().join(name);
        common::stdout(&[
            "accuracy",
            "generate",
            "--db",
            db(),
            "--out",
            out.to_str().unwrap(),
            "--count",
            "12",
            "--min-seeds",
            "10",
            "--max-seeds",
            "12",
            "--depth",
            "3",
            "--play-tb-limit",
            "8",
            "--jobs",
            jobs,
        ]);
        std::fs::read_to_string(out).unwrap()
    };
    let one = make("one.txt", "1");
    assert_eq!(one, make("two.txt", "2"));
    let positions = file::parse(&one, Path::new("one.txt")).unwrap();
    assert_eq!(positions.len(), 12);
    for j in &positions {
        assert!(j.at_stake() && (10..=12).contains(&j.seeds()));
        assert_eq!(&judge(&tables().1, &j.position).unwrap(), j);
    }
    let out = json(&[
        "accuracy",
        "--positions",
        tmp.path().join("one.txt").to_str().unwrap(),
        "--db",
        db(),
        "--tb-limit",
        "6",
        "--nodes",
        "2000",
        "--json",
    ]);
    assert_eq!(out["total"]["positions"], 12);
    assert_eq!(out["total"]["faults"], 0);
}

#[test]
fn errors_are_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.txt");
    std::fs::write(
        &bad,
        format!("{BOTH}\n{}\n", BOTH.replace("E=0/4", "E=0/5")),
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    common::fails(
        &["accuracy", "--positions", bad, "--db", db()],
        "bad.txt:2: move E: 0 + 5 exceed 4 seeds",
    );
    let missing = tmp.path().join("none.txt");
    common::fails(
        &[
            "accuracy",
            "--positions",
            missing.to_str().unwrap(),
            "--db",
            db(),
        ],
        "cannot read the positions",
    );
    let path = hand_worked(tmp.path());
    let empty = tempfile::tempdir().unwrap();
    common::fails(
        &[
            "accuracy",
            "--positions",
            path.to_str().unwrap(),
            "--db",
            empty.path().to_str().unwrap(),
            "--tb-limit",
            "2",
        ],
        "level 0 of abapa is missing",
    );
    common::fails(
        &["accuracy", "--db", missing.to_str().unwrap()],
        "`oware build --max-seeds 12 --db",
    );
    common::fails(
        &[
            "accuracy",
            "--positions",
            path.to_str().unwrap(),
            "--tb-limit",
            "4",
            "--db",
            db(),
        ],
        "no position of",
    );
    common::fails(
        &[
            "accuracy",
            "--positions",
            path.to_str().unwrap(),
            "--tb-limit",
            "2",
            "--engine",
            "self:tb-limit=3",
        ],
        "set by --db and --tb-limit",
    );
    common::fails(
        &[
            "accuracy",
            "generate",
            "--db",
            db(),
            "--min-seeds",
            "13",
            "--max-seeds",
            "14",
            "--out",
            "/dev/null",
        ],
        "level 13 of abapa is missing",
    );
}

#[test]
fn tables_capped_below_each_position() {
    let tmp = tempfile::tempdir().unwrap();
    // The seeds interleaved (3, 4, 3, 4), so that the groups' answers must
    // be put back in the file's order.
    let path = positions_file(
        tmp.path(),
        "mixed.txt",
        &format!("{WALK}\n{BOTH}\n{BOTH_AGAIN}\n{DROP}\n"),
    );
    let positions = path.to_str().unwrap();
    let args = |db: &str, below: &'static str| -> Vec<String> {
        [
            "accuracy",
            "--positions",
            positions,
            "--db",
            db,
            "--tb-below",
            below,
            "--depth",
            "8",
            "--json",
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |args: &[String]| common::oware(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // One level below: the positions of 4 seeds are searched with levels
    // 0..3, those of 3 seeds with levels 0..2, and the answers come back in
    // the file's order.
    let out = run(&args(db(), "1"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("levels 0..2 of abapa") && err.contains("levels 0..3 of abapa"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["tb_below"], 1);
    assert!(report["tb_limit"].is_null(), "{report}");
    assert_eq!(report["total"]["positions"], 4);
    assert_eq!(report["errors"], 0, "{report}");
    let seeds: Vec<u64> = (0..4)
        .map(|i| report["answers"][i]["seeds"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [3, 4, 3, 4]);
    for (i, line) in [WALK, BOTH, BOTH_AGAIN, DROP].iter().enumerate() {
        let position = line.split(' ').next().unwrap();
        assert_eq!(report["answers"][i]["position"], position, "{report}");
    }
    assert_eq!(report["answers"][0]["move"], "A");
    assert_eq!(report["answers"][1]["move"], "F");
    // A folder of levels 0..2 serves two levels below each position, and
    // not one.
    let low = tempfile::tempdir().unwrap();
    let rules = oware::tb::TableRules::Oware(Variant::Abapa);
    for level in 0..=2 {
        std::fs::copy(
            oware::tb::table_path(tables().0.path(), rules, level),
            oware::tb::table_path(low.path(), rules, level),
        )
        .unwrap();
    }
    let low = low.path().to_str().unwrap();
    let out = run(&args(low, "2"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The error comes before anything runs: one line, no note of the
    // lower group's tables before it.
    let one_below = args(low, "1");
    common::fails(
        &one_below.iter().map(String::as_str).collect::<Vec<_>>(),
        "level 3 of abapa is missing",
    );
    // --seeds keeps the positions of those seeds only.
    let mut three = args(db(), "1");
    three.extend(["--seeds", "3"].map(String::from));
    let report: serde_json::Value = serde_json::from_slice(&run(&three).stdout).unwrap();
    assert_eq!(report["total"]["positions"], 2, "{report}");
    assert_eq!(report["seeds"], serde_json::json!([3, 3]));
    assert!(report["by_seeds"]["4"].is_null(), "{report}");
    // Three below: the positions of 3 seeds are searched with level 0 only,
    // none skipped; four below skips them with a note.
    let report: serde_json::Value = serde_json::from_slice(&run(&args(db(), "3")).stdout).unwrap();
    assert_eq!(report["skipped"], 0, "{report}");
    let out = run(&args(db(), "4"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2 positions of fewer than 4 seeds skipped (--tb-below 4)"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["total"]["positions"], 2, "{report}");
    assert!(report["by_seeds"]["3"].is_null(), "{report}");
}

#[test]
fn bad_caps_and_seeds_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let path = hand_worked(tmp.path());
    let positions = path.to_str().unwrap();
    let base = ["accuracy", "--positions", positions, "--db", db()];
    let with = |more: &[&'static str]| -> Vec<&str> { base.iter().chain(more).copied().collect() };
    common::fails(
        &with(&["--tb-limit", "2", "--seeds", "9..12"]),
        "has 9..12 seeds (--seeds)",
    );
    common::fails(
        &with(&["--tb-limit", "3", "--seeds", "3"]),
        "with 3 seeds has more than 3 seeds (--tb-limit 3)",
    );
    common::fails(&with(&["--seeds", "5..4"]), "the range is empty");
    common::fails(&with(&["--seeds", "x"]), "expected seeds as 25 or 25..28");
    common::fails(
        &with(&["--tb-below", "5"]),
        "has 5 seeds or more (--tb-below 5)",
    );
    let e = always_e(tmp.path());
    common::fails(
        &[
            "accuracy",
            "--positions",
            positions,
            "--tb-below",
            "1",
            "--engine",
            &e,
        ],
        "--tb-below caps the built-in engine's tables",
    );
}
