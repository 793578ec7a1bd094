//! Mancala's endgame tables: every value of the small levels against a
//! plain memoised minimax over positions, the word sowing against the
//! position's, damage and foreign files, resuming, and the probe.

mod common;

use std::collections::HashMap;
use std::path::Path;

use indicatif::ProgressBar;
use oware::mancala::edges::{for_each_edge, sow};
use oware::mancala::{MancalaPosition, MancalaRules, MancalaTables};
use oware::tb::board::to_word;
use oware::tb::index::{full_level_size, unrank_full};
use oware::tb::{self, Levels, TableError, TableRules};
use oware::{Move, Side, Variant};
use proptest::prelude::*;

/// Builds levels 0..=`max` of `rules` into `dir` through the library.
fn build(dir: &Path, rules: MancalaRules, max: usize) -> Vec<tb::LevelSummary> {
    tb::build_levels(&rules, dir, max, false, |_| {}).expect("build")
}

/// The final store difference (side to move − opponent) of the whole game
/// from `pos` under best play, the 25-seed stop set aside (the stores stay
/// far below it here): minimax over [`MancalaPosition::play`], memoised.
fn minimax(pos: &MancalaPosition, memo: &mut HashMap<MancalaPosition, i8>) -> i8 {
    let me = pos.side_to_move();
    let now = pos.store(me) as i8 - pos.store(me.opponent()) as i8;
    if pos.end().is_some() {
        return now;
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let mut best = i8::MIN;
    for mv in pos.legal_moves().iter() {
        let (next, _) = pos.play(*mv).unwrap();
        let v = minimax(&next, memo);
        best = best.max(if next.side_to_move() == me { v } else { -v });
    }
    memo.insert(*pos, best);
    best
}

/// `board` (houses 0..5 the mover's) as a position: South to move, empty
/// stores.
fn position(board: [u8; 12], empty_capture: bool) -> MancalaPosition {
    MancalaPosition::new(board, [0, 0], Side::South)
        .unwrap()
        .with_empty_capture(empty_capture)
}

#[test]
fn every_board_of_levels_0_to_8_matches_minimax() {
    for empty_capture in [false, true] {
        let rules = MancalaRules::new(3, empty_capture);
        let tmp = tempfile::tempdir().unwrap();
        let summaries = build(tmp.path(), rules, 8);
        assert!(summaries.iter().all(|s| s.built));
        let tables = MancalaTables::open(tmp.path(), rules).unwrap();
        assert_eq!(tables.complete_up_to(), Some(8));
        let mut memo = HashMap::new();
        for n in 0..=8 {
            for r in 0..full_level_size(n) {
                let board = unrank_full(r, n);
                // A board one of whose rows is empty is swept as a
                // position: its value is then the stores'.
                let expected = minimax(&position(board, empty_capture), &mut memo);
                assert_eq!(
                    tables.value(&board),
                    Some(expected),
                    "empty capture {empty_capture}, {board:?}"
                );
            }
        }
    }
}

#[test]
fn the_two_conventions_differ() {
    let tmp = tempfile::tempdir().unwrap();
    let (standard, empty) = (MancalaRules::new(3, false), MancalaRules::new(3, true));
    build(tmp.path(), standard, 4);
    build(tmp.path(), empty, 4);
    let a = MancalaTables::open(tmp.path(), standard).unwrap();
    let b = MancalaTables::open(tmp.path(), empty).unwrap();
    // South's A (1) ends in the empty B facing the empty e. §7.4: North's
    // f (2) then sows its store and South's A, its row is empty, and
    // South sweeps A and B: South 2, North 1. The empty capture stores
    // B's seed, South's row is empty and North sweeps f: South 1, North 2.
    let board = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2];
    assert_eq!(a.value(&board), Some(1));
    assert_eq!(b.value(&board), Some(-1));
    // The probe answers only for positions of its convention.
    let pos = position(board, false);
    assert_eq!(a.probe(&pos), Some(1));
    assert_eq!(b.probe(&pos), None);
    assert_eq!(b.probe(&pos.with_empty_capture(true)), Some(-1));
}

#[test]
fn the_probe_adds_up_with_the_stores() {
    let rules = MancalaRules::new(3, false);
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), rules, 8);
    let tables = MancalaTables::open(tmp.path(), rules).unwrap();
    let mut rng = common::Rng(7);
    let mut memo = HashMap::new();
    // North to move with stores: the probe sees the board from North.
    for _ in 0..300 {
        let mut pits = [0u8; 12];
        for _ in 0..rng.below(9) {
            pits[rng.below(12)] += 1;
        }
        let stores = [rng.below(10) as u8, rng.below(10) as u8];
        let pos = MancalaPosition::new(pits, stores, Side::North).unwrap();
        let me = pos.side_to_move();
        let diff = pos.store(me) as i8 - pos.store(me.opponent()) as i8;
        let v = tables.probe(&pos).expect("level built");
        assert_eq!(diff + v, minimax(&pos, &mut memo), "{pos}");
    }
}

proptest! {
    #[test]
    fn the_word_sowing_is_the_positions(
        pits in prop::array::uniform12(0u8..5),
        big in 0u8..30,
        empty_capture: bool,
    ) {
        let mut board = pits;
        board[3] += big;
        prop_assume!(board[..6].iter().any(|&s| s > 0) && board[6..].iter().any(|&s| s > 0));
        let pos = position(board, empty_capture);
        let n: u8 = board.iter().sum();
        let mut edges = Vec::new();
        for_each_edge(&board, empty_capture, |e| edges.push(e));
        prop_assert_eq!(edges.len(), pos.legal_moves().len());
        for (e, mv) in edges.iter().zip(pos.legal_moves().iter()) {
            prop_assert_eq!(*e, sow(to_word(&board), n, mv.house(), empty_capture));
            let (next, _) = pos.play(*mv).unwrap();
            let mut pits = *next.pits();
            let mut stores = next.stores();
            // A store of 25 ends the game before the sweep (§7.5 c); the
            // tables set the stop aside and sweep.
            let (south, north): (u8, u8) = (pits[..6].iter().sum(), pits[6..].iter().sum());
            if south == 0 || north == 0 {
                stores[0] += south;
                stores[1] += north;
                pits = [0; 12];
            }
            let again = next.side_to_move() == Side::South;
            let child = if again { pits } else { tb::board::rotate(&pits) };
            prop_assert_eq!(e.again, again);
            prop_assert_eq!(e.gain, stores[0] as i8 - stores[1] as i8);
            prop_assert_eq!(e.child_board(), child);
            prop_assert_eq!(u32::from(e.seeds), child.iter().map(|&s| u32::from(s)).sum::<u32>());
            prop_assert_eq!(Move::of(Side::South, e.house as usize), *mv);
        }
    }
}

/// Flips one bit of the last byte of a table file's payload.
/// Flips a bit of the last data block (a compact file ends with eight
/// bytes of padding, which opening the file checks by itself).
fn damage(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 12;
    bytes[last] ^= 1;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn verify_finds_a_flipped_byte() {
    let rules = MancalaRules::new(3, false);
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), rules, 6);
    let levels = Levels::open(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: false,
        },
    )
    .unwrap();
    let bar = ProgressBar::hidden();
    for level in 0..=6 {
        let checked = tb::verify::verify_game_level(&rules, &levels, level, None, &bar).unwrap();
        assert_eq!(checked, full_level_size(level));
    }
    let mut raw = levels.loaded(6).raw().to_vec();
    let mut header = levels.loaded(6).header().clone();
    drop(levels);
    let path = tb::table_path(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: false,
        },
        6,
    );
    damage(&path);
    let levels = Levels::open(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: false,
        },
    )
    .unwrap();
    let err = tb::verify::verify_game_level(&rules, &levels, 6, None, &bar).unwrap_err();
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
    // A search leaves the damaged level closed and says why.
    let search = MancalaTables::open_for_search(tmp.path(), rules, 8).unwrap();
    assert_eq!(search.complete_up_to(), Some(5));
    assert_eq!(search.rejected().len(), 1);
    assert!(search.rejected()[0].to_string().contains("mancala-06.owt"));
    assert_eq!(
        search.describe(),
        format!("levels 0..5 of mancala from {}", tmp.path().display())
    );
    // A raw level whose last entry is flipped, with the checksum made to
    // agree: the re-check finds the board (the last rank holds every seed
    // in house 0).
    drop(levels);
    let last = raw.len() - 1;
    raw[last] ^= 1;
    header.version = tb::file::FORMAT_VERSION;
    header.checksum = tb::file::checksum(&raw);
    tb::file::write_table(&path, &header, |out| out.write_all(&raw)).unwrap();
    let levels = Levels::open(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: false,
        },
    )
    .unwrap();
    let err = tb::verify::verify_game_level(&rules, &levels, 6, None, &bar).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("[6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]"),
        "{text}"
    );
}

#[test]
fn foreign_files_are_refused_both_ways() {
    let tmp = tempfile::tempdir().unwrap();
    let (oware_dir, mancala_dir) = (tmp.path().join("oware"), tmp.path().join("mancala"));
    tb::build(
        &tb::BuildOptions {
            dir: &oware_dir,
            variant: Variant::Abapa,
            max_seeds: 3,
            progress: false,
            format: Default::default(),
            recheck: tb::Recheck::All,
        },
        |_| {},
    )
    .unwrap();
    let rules = MancalaRules::new(3, false);
    build(&mancala_dir, rules, 3);
    let mancala = TableRules::Mancala {
        empty_capture: false,
    };
    let empty = TableRules::Mancala {
        empty_capture: true,
    };
    // An Oware file under a Mancala name, and the other way round.
    std::fs::copy(
        tb::table_path(&oware_dir, Variant::Abapa, 3),
        tb::table_path(&mancala_dir, empty, 3),
    )
    .unwrap();
    std::fs::copy(
        tb::table_path(&mancala_dir, mancala, 2),
        tb::table_path(&oware_dir, Variant::Awari, 2),
    )
    .unwrap();
    let refused = |result: Result<_, TableError>, found: &str| match result {
        Err(TableError::Mismatch { reason, .. }) => {
            assert!(
                reason.contains(&format!("built for rules {found}")),
                "{reason}"
            )
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("opened a foreign table"),
    };
    refused(
        MancalaTables::open(&mancala_dir, MancalaRules::new(3, true)).map(|_| ()),
        "abapa",
    );
    refused(
        tb::Tablebase::open(&oware_dir, Variant::Awari).map(|_| ()),
        "mancala",
    );
    // The builder will not overwrite them either.
    let err =
        tb::build_levels(&MancalaRules::new(3, true), &mancala_dir, 3, false, |_| {}).unwrap_err();
    assert!(matches!(err, tb::BuildError::Foreign { .. }), "{err}");
    // The two conventions' files do not serve each other.
    std::fs::copy(
        tb::table_path(&mancala_dir, mancala, 1),
        tb::table_path(&mancala_dir, empty, 1),
    )
    .unwrap();
    std::fs::remove_file(tb::table_path(&mancala_dir, empty, 3)).unwrap();
    refused(
        MancalaTables::open(&mancala_dir, MancalaRules::new(3, true)).map(|_| ()),
        "mancala,",
    );
}

#[test]
fn a_build_resumes_from_the_levels_it_has() {
    let rules = MancalaRules::new(3, true);
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), rules, 5);
    let path = |level| {
        tb::table_path(
            tmp.path(),
            TableRules::Mancala {
                empty_capture: true,
            },
            level,
        )
    };
    let before = std::fs::read(path(5)).unwrap();
    // A damaged level is rebuilt, the valid ones kept.
    damage(&path(4));
    let summaries = build(tmp.path(), rules, 7);
    let built: Vec<usize> = summaries
        .iter()
        .filter(|s| s.built)
        .map(|s| s.level)
        .collect();
    assert_eq!(built, [4, 6, 7]);
    assert_eq!(std::fs::read(path(5)).unwrap(), before);
    let levels = Levels::open(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: true,
        },
    )
    .unwrap();
    let bar = ProgressBar::hidden();
    for level in 0..=7 {
        tb::verify::verify_game_level(&rules, &levels, level, None, &bar).unwrap();
    }
}

#[test]
fn build_probe_verify_stats_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mancala = ["--rules", "mancala", "--dir", dir];
    let out = common::stdout(&[&["build", "--max-seeds", "6", "--quiet"][..], &mancala].concat());
    assert!(
        out.starts_with("building mancala tables, levels 0..=6"),
        "{out}"
    );
    assert!(
        out.contains("level  6:         12376 boards  scores -6..+6"),
        "{out}"
    );
    let again: serde_json::Value = serde_json::from_str(&common::stdout(
        &[&["build", "--max-seeds", "6", "--json"][..], &mancala].concat(),
    ))
    .unwrap();
    assert_eq!(again["rules"], "mancala");
    assert_eq!(again["empty_capture"], false);
    assert_eq!(again["boards"], 18564);
    let levels = again["levels"].as_array().unwrap();
    assert!(levels.iter().all(|l| l["built"] == false));

    // North to move, 5 seeds on the board: the probe against the library.
    let pos = "0-0-1-2-0-1-1-0-0-1-0-0-10-12-N";
    let v: serde_json::Value = serde_json::from_str(&common::stdout(
        &[&["probe", pos, "--json"][..], &mancala].concat(),
    ))
    .unwrap();
    let tables = MancalaTables::open(tmp.path(), MancalaRules::DEFAULT).unwrap();
    let position: MancalaPosition = pos.parse().unwrap();
    let score = tables.probe(&position).unwrap();
    assert_eq!(v["seeds"], 6);
    assert_eq!(v["score"], score);
    assert_eq!(v["stop_matters"], false);
    // North's final store less South's is 12 − 10 plus the score.
    let fin = &v["final"];
    assert_eq!(
        fin[1].as_i64().unwrap() - fin[0].as_i64().unwrap(),
        2 + i64::from(score)
    );
    let moves = v["moves"].as_array().unwrap();
    let letters: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(letters, ["a", "d"]);
    let best = moves
        .iter()
        .map(|m| m["score"].as_i64().unwrap())
        .max()
        .unwrap();
    assert_eq!(best, i64::from(score));
    let text = common::stdout(&[&["probe", pos][..], &mancala].concat());
    assert!(text.starts_with("seeds 6: score "), "{text}");

    let out = common::stdout(&[&["verify"][..], &mancala].concat());
    assert_eq!(out.matches(": ok").count(), 7, "{out}");
    let out =
        common::stdout(&[&["verify", "--level", "6", "--sample", "50"][..], &mancala].concat());
    assert!(out.contains("50 boards re-checked"), "{out}");
    let v: serde_json::Value = serde_json::from_str(&common::stdout(
        &[&["stats", "--json"][..], &mancala].concat(),
    ))
    .unwrap();
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 7);
    assert_eq!(levels[6]["exact"], 12376);
    // Mancala's levels are compact in format version 4 (never 5).
    assert_eq!(levels[6]["format"], "compact");
    assert_eq!(levels[6]["version"], 4);
    let total: u64 = levels[6]["histogram"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(total, 12376);
    // The empty capture's tables are other files in the same folder.
    let empty = [&mancala[..], &["--empty-capture"]].concat();
    // The error says how to build them: these rules, up to this level.
    common::fails(
        &[&["probe", pos][..], &empty].concat(),
        "table not built (`oware build --rules mancala --empty-capture --max-seeds 6 --db ",
    );
    common::stdout(&[&["build", "--max-seeds", "6", "--quiet"][..], &empty].concat());
    let v: serde_json::Value = serde_json::from_str(&common::stdout(
        &[&["verify", "--json"][..], &empty].concat(),
    ))
    .unwrap();
    assert_eq!(v["empty_capture"], true);
    assert_eq!(v["levels"].as_array().unwrap().len(), 7);
}

#[test]
fn bad_input_to_the_table_commands_fails_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let mancala = ["--rules", "mancala", "--dir", dir];
    common::fails(
        &["build", "--max-seeds", "3", "--empty-capture", "--dir", dir],
        "--empty-capture applies only to --rules mancala",
    );
    common::fails(
        &["stats", "--rules", "awari", "--empty-capture", "--dir", dir],
        "only to --rules mancala",
    );
    common::fails(
        &[&["build", "--max-seeds", "49"][..], &mancala].concat(),
        "at most 48",
    );
    common::stdout(&[&["build", "--max-seeds", "3", "--quiet"][..], &mancala].concat());
    common::fails(
        &[&["probe", "1-2-3"][..], &mancala].concat(),
        "bad position",
    );
    common::fails(
        &[&["probe", "1-1-1-1-1-1-1-1-1-1-1-1-0-0-S"][..], &mancala].concat(),
        "the tables reach 3 seeds; this position has 12",
    );
    common::fails(
        &[&["probe", "1-0-0-0-0-0-1-0-0-0-0-0-25-0-S"][..], &mancala].concat(),
        "the game is over",
    );
    common::fails(
        &[&["probe", "7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"][..], &mancala].concat(),
        "at most 48",
    );
    common::fails(
        &[
            "verify",
            "--rules",
            "mancala",
            "--dir",
            &format!("{dir}/gone"),
        ],
        "no such folder",
    );
    // An Oware folder read as Mancala's, and the other way round.
    let oware_dir = tmp.path().join("oware");
    common::build(&oware_dir, "3");
    let abapa = tb::table_path(&oware_dir, Variant::Abapa, 2);
    let foreign = tb::table_path(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: false,
        },
        2,
    );
    std::fs::copy(&foreign, tb::table_path(&oware_dir, Variant::Abapa, 3)).unwrap();
    std::fs::copy(&abapa, &foreign).unwrap();
    common::fails(
        &[&["stats"][..], &mancala].concat(),
        "built for rules abapa, not mancala",
    );
    common::fails(
        &[&["build", "--max-seeds", "3"][..], &mancala].concat(),
        "built for rules abapa, not mancala; move or delete it",
    );
    common::fails(
        &["stats", "--dir", oware_dir.to_str().unwrap()],
        "built for rules mancala, not abapa",
    );
    // A damaged Mancala level says how to rebuild it.
    common::stdout(
        &[
            &["build", "--max-seeds", "3", "--quiet", "--empty-capture"][..],
            &mancala,
        ]
        .concat(),
    );
    damage(&tb::table_path(
        tmp.path(),
        TableRules::Mancala {
            empty_capture: true,
        },
        3,
    ));
    common::fails(
        &[&["verify", "--empty-capture"][..], &mancala].concat(),
        "--rules mancala --empty-capture --max-seeds 3",
    );
}

#[test]
fn a_locked_folder_is_refused_for_mancala_too() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let held = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(tmp.path().join(".oware-build.lock"))
        .unwrap();
    held.lock().unwrap();
    common::fails(
        &[
            "build",
            "--rules",
            "mancala",
            "--max-seeds",
            "4",
            "--dir",
            dir,
        ],
        "another build holds this folder",
    );
    held.unlock().unwrap();
    let out = common::stdout(&[
        "build",
        "--rules",
        "mancala",
        "--max-seeds",
        "4",
        "--dir",
        dir,
        "--quiet",
    ]);
    assert!(out.contains("done: 1,820 boards"), "{out}");
}
