//! `oware build`, `probe`, `verify` and `stats` from the command line.

mod common;

use std::path::Path;
use std::process::Command;

use common::{build, fails, stdout as ok};

#[test]
fn build_probe_verify_stats() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = build(tmp.path(), "8");
    assert!(
        out.contains("level  4:          1365 boards  exact  72.8%"),
        "{out}"
    );
    assert!(
        out.contains("level  8:         75504 boards  exact  61.1%"),
        "{out}"
    );
    // Built levels say where their time went.
    assert_eq!(out.matches("(copy ").count(), 9, "{out}");
    assert!(out.contains(" + settle "), "{out}");
    // A second run keeps everything.
    let again = build(tmp.path(), "8");
    assert_eq!(again.matches("already built").count(), 9, "{again}");

    // North to move, 5 seeds: the side to move (North) has f = 1 and e = 1.
    let pos = "1-0-2-0-0-0-0-0-0-0-1-1-20-23-N";
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["probe", pos, "--dir", dir, "--json"])).unwrap();
    assert_eq!(v["seeds"], 5);
    let (gm, gn) = (v["gm"].as_u64().unwrap(), v["gn"].as_u64().unwrap());
    assert!(gm + gn <= 5);
    assert_eq!(v["exact"], gm + gn == 5);
    let moves = v["moves"].as_array().unwrap();
    let letters: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(letters, ["e", "f"]);
    // The position's gM is the best of its moves' gM.
    let best = moves
        .iter()
        .map(|m| m["gm"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(best, gm);
    let text = ok(&["probe", pos, "--dir", dir]);
    assert!(text.contains("seeds 5:"), "{text}");

    let out = ok(&["verify", "--dir", dir]);
    assert_eq!(out.matches(": ok").count(), 9, "{out}");
    let out = ok(&["verify", "--dir", dir, "--level", "8", "--sample", "100"]);
    assert!(out.contains("100 boards re-checked"), "{out}");
    // Each level says the format and version its file holds.
    assert!(out.contains("ok (compact v4: header"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["verify", "--dir", dir, "--level", "3", "--json"])).unwrap();
    assert_eq!(v["levels"][0]["format"], "compact", "{v}");
    assert_eq!(v["levels"][0]["version"], 4, "{v}");

    let v: serde_json::Value =
        serde_json::from_str(&ok(&["stats", "--dir", dir, "--json"])).unwrap();
    assert_eq!(v["rules"], "abapa");
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 9);
    assert_eq!(levels[4]["exact"], 994);
    let total: u64 = levels[8]["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 75504);
}

#[test]
fn missing_corrupt_and_mismatched_tables_fail_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), "6");
    fails(
        &["probe", "4-4-4-0-0-0-0-0-0-0-0-0-0-0-S", "--dir", dir],
        "the tables reach 6 seeds; this position has 12 (`oware build --rules abapa --max-seeds 12 --db",
    );
    // A table of other rules under the Awari name.
    std::fs::copy(
        tmp.path().join("abapa-03.owt"),
        tmp.path().join("awari-03.owt"),
    )
    .unwrap();
    fails(
        &[
            "probe",
            "1-1-1-0-0-0-0-0-0-0-0-0-0-0-S",
            "--dir",
            dir,
            "--rules",
            "awari",
        ],
        "built for rules abapa",
    );
    // One flipped byte in a payload.
    let path = tmp.path().join("abapa-06.owt");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 7;
    bytes[at] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    fails(&["verify", "--dir", dir], "checksum mismatch");
    fails(
        &["probe", "1-1-1-1-1-0-0-0-0-0-0-1-0-0-S", "--dir", dir],
        "checksum mismatch",
    );
    // Truncated: refused on opening, and rebuilt by the next build.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    fails(&["stats", "--dir", dir], "truncated");
    let out = build(tmp.path(), "6");
    assert!(
        out.contains("level  6:") && !out.contains("level  6: 12375 boards  exact  82.2%  already"),
        "{out}"
    );
    ok(&["verify", "--dir", dir]);
    fails(&["build", "--max-seeds", "49", "--dir", dir], "at most 48");
    fails(
        &["verify", "--dir", "/nonexistent/tables"],
        "/nonexistent/tables: no such folder",
    );
}

#[test]
fn a_killed_build_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["build", "--max-seeds", "12", "--dir", dir, "--quiet"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(400));
    let _ = child.kill();
    let _ = child.wait();
    // Whatever was written under a level's name is complete (verified
    // below); the kill may leave a temporary or a compact staging file.
    let names = || file_names(tmp.path());
    for name in names() {
        assert!(
            name.ends_with(".owt")
                || name.ends_with(".owt.tmp")
                || name.ends_with(".owt.compact")
                || name == ".oware-build.lock",
            "{name}"
        );
    }
    build(tmp.path(), "12");
    let out = ok(&["verify", "--dir", dir]);
    assert_eq!(out.matches(": ok").count(), 13, "{out}");
    // The resumed build leaves only the levels (and the lock file).
    for name in names() {
        assert!(
            name.ends_with(".owt") || name == ".oware-build.lock",
            "{name}"
        );
    }
}

/// The names of the files in `dir`.
fn file_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// Flips bytes in the payload of `path`, keeping its size and header.
fn damage_payload(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let n = bytes.len();
    for at in [n - 3, n - 700] {
        bytes[at] ^= 0x21;
    }
    std::fs::write(path, &bytes).unwrap();
}

#[test]
fn stats_refuses_a_damaged_level() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    build(tmp.path(), "8");
    ok(&["stats", "--dir", dir]);
    let path = tmp.path().join("abapa-06.owt");
    damage_payload(&path);
    // Headers and sizes still pass: only the checksum tells.
    fails(&["stats", "--dir", dir], "abapa-06.owt: checksum mismatch");
    fails(
        &["stats", "--dir", dir, "--json"],
        "delete it and run `oware build --rules abapa --max-seeds 6",
    );
    // The build the message suggests repairs it.
    build(tmp.path(), "6");
    ok(&["stats", "--dir", dir]);
}

#[test]
fn a_missing_folder_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let gone = tmp.path().join("no-such-dir");
    let gone = gone.to_str().unwrap();
    let needle = format!(
        "{gone}: no such folder (build tables with `oware build --max-seeds 16 --db {gone}`)"
    );
    fails(&["stats", "--dir", gone], &needle);
    fails(&["verify", "--dir", gone], &needle);
    fails(
        &["probe", "1-1-1-0-0-0-0-0-0-0-0-0-0-0-S", "--dir", gone],
        &needle,
    );
}

/// The lock file of a build folder, opened the way a build opens it.
fn lock_file(dir: &Path) -> std::fs::File {
    std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".oware-build.lock"))
        .unwrap()
}

fn tables_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".owt"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_locked_folder_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let held = lock_file(tmp.path());
    held.lock().unwrap();
    let lock = tmp.path().join(".oware-build.lock");
    fails(
        &["build", "--max-seeds", "6", "--dir", dir, "--quiet"],
        &format!(
            "{dir}: another build holds this folder (lock file {}); wait for it to finish or use another --db",
            lock.display()
        ),
    );
    assert!(
        tables_in(tmp.path()).is_empty(),
        "{:?}",
        tables_in(tmp.path())
    );
    held.unlock().unwrap();
    drop(held);
    build(tmp.path(), "6");
    assert_eq!(tables_in(tmp.path()).len(), 7);
    // The lock file stays, unlocked: the next build takes it again.
    assert!(lock.exists());
    let again = build(tmp.path(), "6");
    assert_eq!(again.matches("already built").count(), 7, "{again}");
}

#[test]
fn two_builds_on_one_folder_one_refuses() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(["build", "--max-seeds", "12", "--dir", dir, "--quiet"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (run(), run());
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let won: Vec<_> = outs.iter().filter(|o| o.status.success()).collect();
    let lost: Vec<_> = outs.iter().filter(|o| !o.status.success()).collect();
    assert_eq!((won.len(), lost.len()), (1, 1), "{outs:?}");
    assert_eq!(lost[0].status.code(), Some(2));
    let err = String::from_utf8_lossy(&lost[0].stderr);
    assert!(err.contains("another build holds this folder"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(String::from_utf8_lossy(&won[0].stdout).contains("level 12:"));
    assert_eq!(
        tables_in(tmp.path()).len(),
        13,
        "{:?}",
        tables_in(tmp.path())
    );
    let out = ok(&["verify", "--dir", dir]);
    assert_eq!(out.matches(": ok").count(), 13, "{out}");
}

/// Whether a build's output has a level's line.
fn computed_a_level(stdout: &[u8]) -> bool {
    String::from_utf8_lossy(stdout)
        .lines()
        .any(|l| l.starts_with("level"))
}

#[test]
fn an_unwritable_folder_is_refused_before_any_level() {
    let tmp = tempfile::tempdir().unwrap();
    // A folder under a regular file cannot be created, even by root.
    let file = tmp.path().join("file");
    std::fs::write(&file, b"not a folder").unwrap();
    let under = file.join("sub");
    let under = under.to_str().unwrap();
    let out = common::oware(&["build", "--max-seeds", "10", "--dir", under, "--quiet"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("cannot create {under}")), "{err}");
    assert!(!computed_a_level(&out.stdout));
    // A folder that exists but takes no new file, even from root.
    if Path::new("/proc/self").is_dir() {
        let out = common::oware(&[
            "build",
            "--max-seeds",
            "14",
            "--dir",
            "/proc/self",
            "--quiet",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("error: cannot write in /proc/self: "),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(!computed_a_level(&out.stdout));
    }
}

#[test]
fn a_table_of_other_rules_under_the_name_says_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let (abapa, awari) = (tmp.path().join("abapa"), tmp.path().join("awari"));
    let (abapa_dir, awari_dir) = (abapa.to_str().unwrap(), awari.to_str().unwrap());
    build(&abapa, "3");
    ok(&[
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "5",
        "--dir",
        awari_dir,
        "--quiet",
    ]);
    let path = abapa.join("abapa-05.owt");
    std::fs::rename(awari.join("awari-05.owt"), &path).unwrap();
    fails(
        &["build", "--max-seeds", "6", "--dir", abapa_dir, "--quiet"],
        &format!(
            "{}: built for rules awari, not abapa; move or delete it, or build into another --db",
            path.display()
        ),
    );
    // Nothing above it was built, and the file was left as it was.
    assert!(!abapa.join("abapa-06.owt").exists());
    assert!(path.exists());
}

#[test]
fn a_build_says_what_it_will_take() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = build(tmp.path(), "8");
    let line = out.lines().nth(1).unwrap();
    assert!(
        line.starts_with("estimate for levels 0..8: 125,879 boards, ")
            && line.contains("(compact)")
            && line.contains("of memory at the peak")
            && line.ends_with("(rates measured on 2 cores, 24 GB)"),
        "{out}"
    );
    assert!(out.contains("done: 125,879 boards in "), "{out}");
    assert!(
        out.trim_end().ends_with(&format!("; tables in {dir}")),
        "{out}"
    );
    // Levels already built are not counted.
    let out = build(tmp.path(), "10");
    let line = out.lines().nth(1).unwrap();
    assert!(
        line.starts_with("estimate for levels 9..10: 518,947 boards"),
        "{out}"
    );
    let out = build(tmp.path(), "10");
    assert!(
        out.contains("estimate: every level is built already"),
        "{out}"
    );
    // Levels 0..48 hold more than any disk: refused, unless --force.
    fails(
        &["build", "--max-seeds", "48", "--dir", dir, "--raw"],
        "(estimate)",
    );
    fails(&["build", "--max-seeds", "48", "--dir", dir], "or --force");
    // A memory limit below the largest level's own state is refused
    // before anything starts; a size that is no size, by the parser.
    fails(
        &[
            "build",
            "--max-seeds",
            "30",
            "--dir",
            dir,
            "--memory",
            "4GB",
        ],
        "--memory 4.0 GB: the largest level needs about 8.6 GB for its own state",
    );
    fails(
        &[
            "build",
            "--max-seeds",
            "8",
            "--dir",
            dir,
            "--memory",
            "lots",
        ],
        "\"lots\" is not a size",
    );
    // Within the limit the build runs.
    let out = ok(&[
        "build",
        "--max-seeds",
        "11",
        "--dir",
        dir,
        "--memory",
        "200MB",
    ]);
    assert!(out.contains("done: 1,345,890 boards in "), "{out}");
    let help = ok(&["build", "--help"]);
    assert!(help.contains("measured on 2 cores, 24 GB"), "{help}");
    assert!(help.contains("--force"), "{help}");
}

/// Ctrl-C: the build stops at once, with status 130, the levels built so
/// far in place, no temporary file, and the same command resumes it.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_a_build_and_the_same_command_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let start = || {
        Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(["build", "--max-seeds", "22", "--db", dir])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let interrupt = |child: &mut std::process::Child| {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        // SAFETY: sending a signal to our own child, whose id is valid
        // until it is waited for.
        let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        assert_eq!(rc, 0);
        let sent = std::time::Instant::now();
        let status = common::wait_within(child, std::time::Duration::from_secs(20), "build");
        (status, sent.elapsed())
    };
    let mut child = start();
    let (status, took) = interrupt(&mut child);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    let line = err.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("interrupted: levels 0..")
            && line.ends_with(" are built; run the same command to resume"),
        "{err}"
    );
    let last: usize = line["interrupted: levels 0..".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(last < 22, "{err}");
    for name in file_names(tmp.path()) {
        assert!(
            name.ends_with(".owt") || name == ".oware-build.lock",
            "{name} left behind"
        );
    }
    // Levels 0..last are in place, whole; the same command resumes.
    assert!(tmp.path().join(format!("abapa-{last:02}.owt")).exists());
    assert!(
        !tmp.path()
            .join(format!("abapa-{:02}.owt", last + 1))
            .exists()
    );
    let mut child = start();
    let (status, _) = interrupt(&mut child);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(130), "{stdout}");
    let kept = format!("level {last:>2}: ");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&kept) && l.ends_with("already built")),
        "{stdout}"
    );
    assert!(!stdout.contains("estimate for levels 0.."), "{stdout}");
    for name in file_names(tmp.path()) {
        assert!(
            name.ends_with(".owt") || name == ".oware-build.lock",
            "{name}"
        );
    }
    let out = ok(&["verify", "--dir", dir]);
    assert!(out.matches(": ok").count() > last, "{out}");
}

#[test]
fn a_build_says_what_it_rechecks_and_writes_the_same_files_either_way() {
    let tmp = tempfile::tempdir().unwrap();
    // (rules, recheck asked, what the first line and the JSON say); level
    // 10 alone holds 11 chunks of boards, so a sample skips ten of them.
    let cases: [(&str, &[&str], &str, &str); 4] = [
        (
            "abapa",
            &[],
            "re-checking a sixteenth of each level",
            "sample",
        ),
        (
            "abapa",
            &["--recheck", "all"],
            "re-checking every board",
            "all",
        ),
        (
            "mancala",
            &[],
            "re-checking a sixteenth of each level",
            "sample",
        ),
        (
            "mancala",
            &["--recheck", "all"],
            "re-checking every board",
            "all",
        ),
    ];
    for (rules, extra, line, field) in cases {
        let dir = tmp.path().join(format!("{rules}-{field}"));
        let dir = dir.to_str().unwrap();
        let mut args = vec!["build", "--rules", rules, "--max-seeds", "10", "--db", dir];
        args.extend_from_slice(extra);
        let run = |json: bool| {
            let mut args = args.clone();
            if json {
                args.push("--json");
            }
            // The header's time stamp fixed: the files compare byte for byte.
            let out = Command::new(env!("CARGO_BIN_EXE_oware"))
                .args(&args)
                .env("SOURCE_DATE_EPOCH", "1700000000")
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}: {out:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        let text = run(false);
        assert!(text.lines().next().unwrap().ends_with(line), "{text}");
        let v: serde_json::Value = serde_json::from_str(&run(true)).unwrap();
        assert_eq!(v["recheck"], field, "{v}");
        // The folder built re-checks whole.
        let verified = ok(&["verify", "--rules", rules, "--db", dir]);
        assert_eq!(verified.matches(": ok").count(), 11, "{verified}");
    }
    for rules in ["abapa", "mancala"] {
        let (a, b) = (
            tmp.path().join(format!("{rules}-sample")),
            tmp.path().join(format!("{rules}-all")),
        );
        let mut files = 0;
        for entry in std::fs::read_dir(&a).unwrap() {
            let name = entry.unwrap().file_name();
            if name.to_string_lossy().ends_with(".owt") {
                let (x, y) = (
                    std::fs::read(a.join(&name)).unwrap(),
                    std::fs::read(b.join(&name)).unwrap(),
                );
                assert!(x == y, "{rules}: {name:?} differs");
                files += 1;
            }
        }
        assert_eq!(files, 11, "{rules}");
    }
}
