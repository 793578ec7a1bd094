//! `tools/strength-parts --sum`: the parts of a series, real `oware match
//! --json` summaries, add up to the counts and the pentanomial Elo the
//! library gives for their sum; a series it does not know is an error.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use oware::arena::stats::Pentanomial;

use common::stdout;

fn strength_parts(args: &[&str]) -> Output {
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/strength-parts"))
        .args(args)
        .output()
        .expect("run tools/strength-parts")
}

#[test]
fn sums_of_real_parts_match_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let mut wdl = [0u32; 3];
    let mut pairs = Pentanomial::default();
    for (part, seed) in [("vs10s-1", "3"), ("vs10s-3", "8")] {
        let json = stdout(&[
            "match",
            "self:depth=5",
            "self:depth=4",
            "--games",
            "12",
            "--random-plies",
            "6",
            "--seed",
            seed,
            "--json",
        ]);
        std::fs::write(dir.path().join(format!("{part}.json")), &json).unwrap();
        let summary: serde_json::Value = serde_json::from_str(&json).unwrap();
        for (total, key) in wdl.iter_mut().zip(["wins", "draws", "losses"]) {
            *total += summary[key].as_u64().unwrap() as u32;
        }
        for (count, n) in pairs
            .counts
            .iter_mut()
            .zip(summary["pentanomial"].as_array().unwrap())
        {
            *count += n.as_u64().unwrap() as u32;
        }
    }
    let dir_arg = dir.path().to_str().unwrap();
    let out = strength_parts(&[dir_arg, "--sum", "vs10s"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let elo = pairs.elo().expect("pairs were played");
    assert!(elo.lower.is_finite() && elo.upper.is_finite(), "{elo:?}");
    let games = wdl.iter().sum::<u32>();
    let expected = format!(
        "vs10s: 2/4 parts, {games} games, +{} ={} -{} ({:.1} %), pentanomial {:?}, Elo {:+.1} ({:+.1}..{:+.1}), 0 forfeits",
        wdl[0],
        wdl[1],
        wdl[2],
        100.0 * (f64::from(wdl[0]) + f64::from(wdl[1]) / 2.0) / f64::from(games),
        pairs.counts,
        elo.elo,
        elo.lower,
        elo.upper,
    );
    assert_eq!(line, expected);

    let none = strength_parts(&[dir_arg, "--sum", "vs1s"]);
    assert_eq!(
        String::from_utf8_lossy(&none.stdout).trim(),
        "vs1s: no part finished (0/20)"
    );
}

#[test]
fn an_unknown_series_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = strength_parts(&[dir.path().to_str().unwrap(), "--sum", "vs2s"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim(), "strength-parts: unknown series 'vs2s'");
}

#[test]
fn print_lists_the_missing_parts_with_quoted_paths() {
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("with space");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("vs1s-01.json"), "{}").unwrap();
    let out = strength_parts(&[dir.to_str().unwrap(), "--print", "vs1s"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 19, "{text}");
    let d = dir.to_str().unwrap();
    for (line, k) in lines.iter().zip(2..) {
        assert!(
            line.starts_with(&format!("vs1s-{k:02}: oware match ")),
            "{line}"
        );
        // The parts rotate through five files of ten openings.
        let openings = format!("--openings {d}/openings-{}.txt", (k - 1) % 5 + 1);
        assert!(line.contains(&openings), "{line}");
        assert!(line.contains(&format!("--db {d}/tables")), "{line}");
        assert!(
            line.contains(&format!("uci:'{d}/before/target/release/oware' uci")),
            "{line}"
        );
        assert!(line.contains("--movetime 1000 --games 20"), "{line}");
    }
}
