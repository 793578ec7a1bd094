//! What a first user meets in the first hour: closed pipes, threads the
//! system will not start, a hash too big for the machine, table folders
//! that are not there, and one JSON shape for every command.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::{build, fails, oware, stdout, wait_within};

/// Runs `oware args`, reads `lines` lines of its output, then closes the
/// pipe as `head` does; returns the exit code and what it wrote on stderr.
/// With `lines == 0` the pipe is closed before the command starts, so that
/// its first write fails whatever the timing.
fn closed_pipe(args: &[&str], lines: usize) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oware"));
    command.args(args).stderr(Stdio::piped());
    let mut child = if lines == 0 {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        command.stdout(writer).spawn().unwrap()
    } else {
        let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        for _ in 0..lines {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "{args:?} ended before {lines} lines");
        }
        child
    };
    // The command holds the only writer left; dropping `command` drops
    // the copy it kept.
    drop(command);
    child.stdout = None;
    let done = child.wait_with_output().unwrap();
    (
        done.status.code(),
        String::from_utf8_lossy(&done.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_each_command_quietly() {
    let tables = tempfile::tempdir().unwrap();
    build(tables.path(), "6");
    let dir = tables.path().to_str().unwrap();
    let long_game = "FfBeAaCbDcEd";
    for (args, lines) in [
        (vec!["bench", "--no-db", "--depth", "16"], 1),
        (vec!["bestmove", "--no-db", "--no-book", "--depth", "30"], 1),
        (vec!["analyze", "--no-db", "--depth", "9"], 0),
        (vec!["verify", "--dir", dir], 0),
        (vec!["show", "--trace", "--moves", long_game], 0),
        (vec!["perft", "--depth", "3"], 0),
        (vec!["stats", "--dir", dir], 0),
    ] {
        let (code, err) = closed_pipe(&args, lines);
        assert_eq!(code, Some(141), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
    }
}

#[test]
fn a_build_stopped_by_a_closed_pipe_leaves_only_valid_files() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    // The first line, then level 0's: the pipe closes while level 1 or a
    // later one is being built, and the build stops once it is written.
    let (code, err) = closed_pipe(&["build", "--max-seeds", "14", "--dir", dir, "--quiet"], 2);
    assert_eq!(code, Some(141), "{err}");
    assert!(err.is_empty(), "{err}");
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    let tables = names.iter().filter(|n| n.ends_with(".owt")).count();
    assert!((1..15).contains(&tables), "{names:?}");
    let verified = stdout(&["verify", "--dir", dir]);
    assert_eq!(verified.matches(": ok").count(), tables, "{verified}");
}

/// Runs `script` under `sh`, its standard error to a file; the exit status
/// and what it wrote there. A run that has not ended within a minute is
/// killed and fails the test (a hang, not a slow machine: one takes
/// milliseconds).
fn run_limited(script: &str) -> (std::process::ExitStatus, String) {
    use std::io::{Read, Seek};
    let mut log = tempfile::tempfile().unwrap();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        // The abort this checks for could hang printing its backtrace.
        .env("RUST_BACKTRACE", "1")
        .stdout(Stdio::null())
        .stderr(log.try_clone().unwrap())
        .spawn()
        .unwrap();
    let status = wait_within(&mut child, std::time::Duration::from_secs(60), script);
    let mut err = String::new();
    log.rewind().unwrap();
    log.read_to_string(&mut err).unwrap();
    (status, err)
}

#[test]
fn threads_the_system_will_not_start_are_an_error_not_a_panic() {
    // Root ignores the process limit, so the address space is limited:
    // thread stacks no longer fit. Some limit in the range lets the binary
    // start but not 30 threads. The steps are fine so that some limit falls
    // where a thread's stack fits and its signal stack would not (which
    // aborted the process before threads were started with room to spare,
    // and now and then while a started thread took its allocator's arena).
    // Below some limit the binary itself cannot start; above the first one
    // where it answers, no run may end by a signal (an abort).
    let bin = env!("CARGO_BIN_EXE_oware");
    let mut refused = 0;
    let mut answered = false;
    for kib in (20_000..=300_000).step_by(1_000) {
        let (status, err) = run_limited(&format!(
            "ulimit -v {kib}; ulimit -c 0; exec {bin} bestmove --threads 30 --depth 3 --no-db --no-book --hash 1"
        ));
        assert!(!err.contains("panicked"), "{kib} KiB: {err}");
        answered |= status.code().is_some_and(|code| code == 0 || code == 2);
        if answered {
            assert!(status.code().is_some(), "{kib} KiB: {status:?} {err}");
        }
        if err.contains("cannot start 30 search threads") {
            assert_eq!(status.code(), Some(2), "{err}");
            // One error line, after any warnings (a hash the system
            // would not give in full).
            let lines: Vec<&str> = err.trim().lines().collect();
            let (error, warnings) = lines.split_last().unwrap();
            assert!(error.starts_with("error: cannot start"), "{err}");
            assert!(warnings.iter().all(|l| l.starts_with("warning: ")), "{err}");
            refused += 1;
        }
    }
    assert!(refused > 0, "no limit refused the threads");
}

#[test]
fn a_hash_larger_than_the_memory_is_refused() {
    fails(
        &[
            "bestmove",
            "--hash",
            "65536",
            "--depth",
            "1",
            "--no-db",
            "--no-book",
        ],
        "more than the memory available",
    );
}

#[test]
fn the_hash_table_is_touched_when_it_is_made() {
    fn resident_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
    let before = resident_kib();
    let table = oware::search::tt::TranspositionTable::new(128);
    // Other tests of this process come and go meanwhile: a margin, and
    // no underflow if they freed more than the table took.
    let grown = resident_kib().saturating_sub(before);
    assert!(grown >= 100 << 10, "only {grown} KiB resident");
    assert_eq!(table.mib(), 128);
}

#[test]
fn table_folders_asked_for_must_exist() {
    fails(
        &["bestmove", "--db", "/no/such/folder", "--depth", "2"],
        "no such folder",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["bestmove", "--depth", "2"])
        .env("OWARE_DB", "/no/such/folder")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/folder"));
    // The default folder missing: said on stderr, and the search goes on.
    let cwd = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["bestmove", "--depth", "2"])
        .current_dir(cwd.path())
        .env_remove("OWARE_DB")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("tables: none"), "{err}");
}

#[test]
fn oware_db_names_the_default_folder_and_the_levels_are_said() {
    let tables = tempfile::tempdir().unwrap();
    build(tables.path(), "8");
    let cwd = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args([
            "bestmove",
            "0-0-0-1-0-2-0-1-0-3-0-0-20-21-S",
            "--depth",
            "4",
            "--json",
        ])
        .current_dir(cwd.path())
        .env("OWARE_DB", tables.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tables: levels 0..8 of abapa"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["tb_hits"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v["result"], "win", "{v}");
}

#[test]
fn analyze_and_bestmove_count_depths_and_plies_alike() {
    let tables = tempfile::tempdir().unwrap();
    build(tables.path(), "8");
    let db = tables.path().to_str().unwrap();
    let pos = "0-0-0-1-0-2-0-1-0-3-0-0-20-21-S";
    for depth in ["1", "3", "6"] {
        let best: serde_json::Value = serde_json::from_str(&stdout(&[
            "bestmove", pos, "--depth", depth, "--db", db, "--json",
        ]))
        .unwrap();
        let all: serde_json::Value = serde_json::from_str(&stdout(&[
            "analyze", pos, "--depth", depth, "--db", db, "--json",
        ]))
        .unwrap();
        let top = &all["moves"][0];
        assert_eq!(top["move"], best["best"], "{all} {best}");
        assert_eq!(top["result"], best["result"], "{all} {best}");
        assert_eq!(top["plies"], best["plies"], "{all} {best}");
        for m in all["moves"].as_array().unwrap() {
            assert!(
                m["depth"].as_u64().unwrap() <= depth.parse().unwrap(),
                "{m}"
            );
            assert!(m["pv"].is_array(), "{m}");
        }
    }
    // Without tables, each move's depth is the depth asked for.
    let all: serde_json::Value =
        serde_json::from_str(&stdout(&["analyze", "--depth", "1", "--no-db", "--json"])).unwrap();
    for m in all["moves"].as_array().unwrap() {
        assert_eq!(m["depth"], 1, "{m}");
    }
}

#[test]
fn proven_results_are_not_printed_as_huge_scores() {
    // Four seeds on the board, a loss for South in nine plies that the
    // search proves without tables: the score is the margin its line ends
    // with, in seeds, and replaying the line gives that margin.
    let pos = "0-0-0-1-1-0-1-1-0-0-0-0-22-22-S";
    let v: serde_json::Value = serde_json::from_str(&stdout(&[
        "bestmove", pos, "--depth", "12", "--no-db", "--json",
    ]))
    .unwrap();
    assert_eq!(v["result"], "loss", "{v}");
    let plies = v["plies"].as_u64().unwrap() as usize;
    let pv: String = v["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(pv.len(), plies, "{v}");
    let end: serde_json::Value =
        serde_json::from_str(&stdout(&["show", pos, "--moves", &pv, "--json"])).unwrap();
    assert_eq!(end["status"], "over", "{end}");
    let margin = end["stores"][0].as_i64().unwrap() - end["stores"][1].as_i64().unwrap();
    assert_eq!(v["score"].as_f64().unwrap(), margin as f64, "{v} {end}");
    assert!(v["bound"].is_null(), "{v}");
}

#[test]
fn every_command_with_json_prints_one_object() {
    let tables = tempfile::tempdir().unwrap();
    let dir = tables.path().to_str().unwrap();
    let built: serde_json::Value = serde_json::from_str(&stdout(&[
        "build",
        "--max-seeds",
        "5",
        "--dir",
        dir,
        "--quiet",
        "--json",
    ]))
    .unwrap();
    assert_eq!(built["levels"].as_array().unwrap().len(), 6, "{built}");
    assert_eq!(built["levels"][4]["boards"], 1365, "{built}");
    // Each level built says the process's peak memory while it was built;
    // a level already built, none.
    for level in built["levels"].as_array().unwrap() {
        #[cfg(target_os = "linux")]
        assert!(level["peak_rss"].as_u64().unwrap() > 1 << 20, "{level}");
    }
    let again: serde_json::Value = serde_json::from_str(&stdout(&[
        "build",
        "--max-seeds",
        "5",
        "--dir",
        dir,
        "--quiet",
        "--json",
    ]))
    .unwrap();
    for level in again["levels"].as_array().unwrap() {
        assert_eq!(level["built"], false, "{level}");
        assert!(level["peak_rss"].is_null(), "{level}");
    }
    for args in [
        vec!["perft", "--depth", "3", "--divide", "--json"],
        vec!["verify", "--dir", dir, "--json"],
        vec!["stats", "--dir", dir, "--json"],
        vec!["bench", "--depth", "3", "--no-db", "--json"],
        vec![
            "match",
            "self",
            "self:reductions=off",
            "--games",
            "2",
            "--depth",
            "1",
            "--max-plies",
            "20",
            "--json",
        ],
        vec!["show", "--json"],
        vec!["analyze", "--depth", "2", "--no-db", "--json"],
        vec!["bestmove", "--depth", "2", "--no-db", "--json"],
    ] {
        let text = stdout(&args);
        assert_eq!(text.trim().lines().count(), 1, "{args:?}: {text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(v.is_object(), "{args:?}: {text}");
    }
    let perft: serde_json::Value =
        serde_json::from_str(&stdout(&["perft", "--depth", "3", "--json"])).unwrap();
    let expected = common::table("perft.txt")
        .into_iter()
        .find(|(_, f)| f[0] == "3")
        .map(|(_, f)| f[1].parse::<u64>().unwrap())
        .unwrap();
    assert_eq!(perft["leaves"], expected);
    let out = oware(&["verify", "--dir", dir, "--json", "--level", "3"]);
    assert!(out.status.success());
}

#[test]
fn a_damaged_table_is_left_closed_by_the_search_and_named() {
    let tables = tempfile::tempdir().unwrap();
    build(tables.path(), "6");
    let level = tables.path().join("abapa-06.owt");
    let mut bytes = std::fs::read(&level).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x0f;
    std::fs::write(&level, bytes).unwrap();
    let db = tables.path().to_str().unwrap();
    for command in ["bestmove", "analyze"] {
        let out = oware(&[command, "--depth", "3", "--db", db, "--json"]);
        assert!(out.status.success(), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("table left closed") && err.contains("abapa-06.owt"),
            "{command}: {err}"
        );
        assert!(err.contains("levels 0..5 of abapa"), "{command}: {err}");
    }
}

#[test]
fn out_of_range_options_are_refused_in_one_line() {
    let book = tempfile::tempdir().unwrap();
    let out = book.path().join("b.owb");
    let out = out.to_str().unwrap();
    let long = "4-".repeat(500);
    let huge = format!("4-4-4-4-4-4-4-4-4-4-4-{}-0-0-S", "9".repeat(1000));
    for (args, needle) in [
        (&["show", long.as_str()][..], "(1000 characters)"),
        (&["show", huge.as_str()], "(1000 characters)"),
        (&["show", "4-4\n-4"], "4-4\\n-4"),
        (&["show", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\nN"], "S\\nN"),
        (
            &["perft", "--depth", "2", "--threads", "100000"],
            "not in 1..=256",
        ),
        (
            &["perft", "--depth", "2", "--threads", "0"],
            "not in 1..=256",
        ),
        (&["verify", "--threads", "300"], "not in 1..=256"),
        (
            &["bestmove", "--no-db", "--book-margin=-1"],
            "not in 0..=48 seeds",
        ),
        (
            &["bestmove", "--no-db", "--book-margin", "NaN"],
            "not in 0..=48 seeds",
        ),
        (
            &["bestmove", "--no-db", "--book-margin", "inf"],
            "not in 0..=48 seeds",
        ),
        (
            &[
                "book",
                "build",
                "--out",
                out,
                "--positions",
                "3",
                "--save-every",
                "0",
            ],
            "--save-every",
        ),
    ] {
        fails(args, needle);
    }
}

#[cfg(unix)]
#[test]
fn a_level_that_is_not_a_regular_file_is_named_not_waited_on() {
    let tables = tempfile::tempdir().unwrap();
    build(tables.path(), "4");
    let level = tables.path().join("abapa-03.owt");
    let db = tables.path().to_str().unwrap();
    // A pipe, which opening would wait on for a writer, then a folder.
    std::fs::remove_file(&level).unwrap();
    let made = Command::new("mkfifo").arg(&level).status().unwrap();
    assert!(made.success());
    for kind in ["pipe", "folder"] {
        if kind == "folder" {
            std::fs::remove_file(&level).unwrap();
            std::fs::create_dir(&level).unwrap();
        }
        for args in [
            vec!["probe", "0-0-0-0-0-1-0-0-0-0-1-1-22-23-S", "--db", db],
            vec!["verify", "--db", db],
            vec!["stats", "--db", db],
        ] {
            let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
                .args(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let status = wait_within(&mut child, std::time::Duration::from_secs(20), "oware");
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
            assert_eq!(status.code(), Some(2), "{kind}, {args:?}: {err}");
            assert!(
                err.contains("abapa-03.owt: not a regular file"),
                "{kind}, {args:?}: {err}"
            );
        }
    }
}

#[test]
fn the_build_hint_names_the_rules_it_is_for() {
    let empty = tempfile::tempdir().unwrap();
    let db = empty.path().to_str().unwrap();
    for (rules, flags) in [("abapa", ""), ("awari", " --rules awari")] {
        let out = oware(&[
            "bestmove",
            "--rules",
            rules,
            "--depth",
            "1",
            "--db",
            db,
            "--no-book",
        ]);
        assert!(out.status.success(), "{rules}");
        let err = String::from_utf8_lossy(&out.stderr);
        let hint = format!("`oware build{flags} --max-seeds 16 --db {db}` builds them");
        assert!(err.contains(&hint), "{rules}: {err}");
    }
}
