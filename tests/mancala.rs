//! Arabic Mancala (RULES.md §7): hand-worked rules, perft, notation, and
//! the fast sowing against a seed-by-seed one.

mod common;

use oware::mancala::{MancalaEnd, MancalaGame, MancalaPosition, MancalaRules, perft};
use oware::{Move, Side};
use proptest::prelude::*;

#[test]
fn hand_worked_examples() {
    let standard = common::table("mancala_rules.txt")
        .into_iter()
        .map(|(line, f)| (line, "standard".to_string(), f));
    let conventions = common::table("mancala_empty_capture.txt")
        .into_iter()
        .map(|(line, mut f)| (line, f.remove(0), f));
    for (line, rules, f) in standard.chain(conventions) {
        let empty_capture = match rules.as_str() {
            "standard" => false,
            "empty-capture" => true,
            other => panic!("line {line}: unknown rules {other}"),
        };
        let start = f[0]
            .parse::<MancalaPosition>()
            .unwrap()
            .with_empty_capture(empty_capture);
        let mut game = MancalaGame::new(start);
        for c in f[1].chars() {
            let mv = Move::from_letter(c).unwrap();
            game.play(mv)
                .unwrap_or_else(|e| panic!("line {line}: {mv}: {e}"));
        }
        assert_eq!(game.position().to_string(), f[2], "line {line}");
        let status = match game.end() {
            None => "ongoing".to_string(),
            Some(end) => {
                let winner = game
                    .winner()
                    .map_or("draw".to_string(), |s| s.letter().to_string());
                format!("over:{winner}:{}", end.name())
            }
        };
        assert_eq!(status, f[3], "line {line}");
        // The command line agrees.
        let mut args = vec![
            "show", "--rules", "mancala", &f[0], "--moves", &f[1], "--json",
        ];
        if empty_capture {
            args.push("--empty-capture");
        }
        let json: serde_json::Value = serde_json::from_str(&common::stdout(&args)).unwrap();
        assert_eq!(json["position"], f[2], "line {line}");
    }
}

#[test]
fn perft_from_the_three_seed_start() {
    // RULES.md §7.7.
    let start = MancalaPosition::start(3);
    let expected = [6, 35, 182, 904, 4243];
    for (depth, &n) in (1..).zip(&expected) {
        assert_eq!(perft(&start, depth), n, "depth {depth}");
    }
    let out = common::stdout(&["perft", "--rules", "mancala", "--depth", "5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["leaves"], 4243);
}

#[test]
fn start_seeds_are_checked() {
    common::fails(
        &["show", "--rules", "mancala", "--start-seeds", "6"],
        "3, 4, 5 or 7",
    );
    common::fails(&["show", "--start-seeds", "3"], "Oware starts with 4");
    common::fails(
        &[
            "match",
            "self",
            "self",
            "--rules",
            "mancala",
            "--start-seeds",
            "6",
        ],
        "3, 4, 5 or 7",
    );
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&[
        "show",
        "--rules",
        "mancala",
        "--start-seeds",
        "7",
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["position"], "7-7-7-7-7-7-7-7-7-7-7-7-0-0-S");
    // 84 seeds are a valid Mancala position, not an Oware one.
    common::fails(&["show", "7-7-7-7-7-7-7-7-7-7-7-7-0-0-S"], "only 48");
}

#[test]
fn an_emitted_record_reads_back() {
    let ogn = common::stdout(&[
        "show",
        "--rules",
        "mancala",
        "--start-seeds",
        "4",
        "--moves",
        "CFa",
        "--emit-ogn",
    ]);
    assert!(ogn.contains("[Variant \"Mancala\"]"), "{ogn}");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("game.ogn");
    std::fs::write(&path, &ogn).unwrap();
    let replayed = common::stdout(&[
        "show",
        "--rules",
        "mancala",
        "--ogn",
        path.to_str().unwrap(),
        "--json",
    ]);
    let direct = common::stdout(&[
        "show",
        "--rules",
        "mancala",
        "--start-seeds",
        "4",
        "--moves",
        "CFa",
        "--json",
    ]);
    assert_eq!(replayed, direct);
}

#[test]
fn perft_from_the_four_seed_start_under_both_conventions() {
    // The standard figures are the README's; the two part from depth 5,
    // where a last seed first lands in an empty house facing an empty one.
    let standard = [6, 35, 185, 942, 4690, 23233];
    let empty = [6, 35, 185, 942, 4685, 23169];
    for (on, expected) in [(false, standard), (true, empty)] {
        let start = MancalaRules::new(4, on).start();
        for (depth, &n) in (1..).zip(&expected) {
            assert_eq!(perft(&start, depth), n, "empty capture {on}, depth {depth}");
            assert_eq!(
                perft_slowly(&start, depth),
                n,
                "empty capture {on}, depth {depth}"
            );
        }
    }
    let out = common::stdout(&[
        "perft",
        "--rules",
        "mancala",
        "--start-seeds",
        "4",
        "--empty-capture",
        "--depth",
        "6",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["leaves"], empty[5]);
}

#[test]
fn the_empty_capture_is_a_mancala_setting_and_a_record_tag() {
    common::fails(&["show", "--empty-capture"], "only to --rules mancala");
    common::fails(
        &["perft", "--depth", "2", "--empty-capture"],
        "only to --rules mancala",
    );
    let text = common::stdout(&["show", "--rules", "mancala", "--empty-capture"]);
    assert!(
        text.contains("mancala (3 seeds a house, empty capture)"),
        "{text}"
    );
    // A, its last seed in the empty B facing the empty e, then North's f.
    let moves = ["1-0-4-4-4-4-4-4-4-4-0-4-0-0-S", "--moves", "Af"];
    let ogn = common::stdout(
        &[
            &[
                "show",
                "--rules",
                "mancala",
                "--empty-capture",
                "--emit-ogn",
            ][..],
            &moves,
        ]
        .concat(),
    );
    assert!(ogn.contains("[EmptyCapture \"Yes\"]"), "{ogn}");
    let standard =
        common::stdout(&[&["show", "--rules", "mancala", "--emit-ogn"][..], &moves].concat());
    assert!(!standard.contains("EmptyCapture"), "{standard}");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("game.ogn");
    std::fs::write(&path, &ogn).unwrap();
    let file = path.to_str().unwrap();
    common::fails(
        &["show", "--rules", "mancala", "--ogn", file],
        "play it with --empty-capture",
    );
    let replayed = common::stdout(&[
        "show",
        "--rules",
        "mancala",
        "--empty-capture",
        "--ogn",
        file,
        "--json",
    ]);
    let direct = common::stdout(
        &[
            &["show", "--rules", "mancala", "--empty-capture", "--json"][..],
            &moves,
        ]
        .concat(),
    );
    assert_eq!(replayed, direct);
    let v: serde_json::Value = serde_json::from_str(&replayed).unwrap();
    assert_eq!(v["stores"], serde_json::json!([1, 1]), "{replayed}");
}

/// Perft by [`sow_slowly`].
fn perft_slowly(pos: &MancalaPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|mv| perft_slowly(&sow_slowly(pos, mv.house()), depth - 1))
        .sum()
}

/// The rules seed by seed, as a person sows: the slow, obvious version.
fn sow_slowly(pos: &MancalaPosition, house: usize) -> MancalaPosition {
    let me = pos.side_to_move();
    let mut pits = *pos.pits();
    let mut stores = pos.stores();
    let origin = me.first_pit() + house;
    let mut hand = pits[origin];
    pits[origin] = 0;
    // Slots: 0..11 the pits, 12 South's store, 13 North's.
    let next = |slot: usize| -> usize {
        match (me, slot) {
            (Side::South, 5) => 12,
            (Side::South, 12) => 6,
            (Side::North, 11) => 13,
            (Side::North, 13) => 0,
            (_, s) => (s + 1) % 12,
        }
    };
    let mut slot = origin;
    while hand > 0 {
        slot = next(slot);
        if slot < 12 {
            pits[slot] += 1;
        } else {
            stores[slot - 12] += 1;
        }
        hand -= 1;
    }
    let mut side = me.opponent();
    if slot >= 12 {
        side = me;
    } else if me.owns(slot) && pits[slot] == 1 && (pits[11 - slot] > 0 || pos.empty_capture()) {
        stores[me.index()] += pits[11 - slot] + 1;
        pits[11 - slot] = 0;
        pits[slot] = 0;
    }
    if stores.iter().all(|&s| s < 25) {
        let south: u8 = pits[..6].iter().sum();
        let north: u8 = pits[6..].iter().sum();
        if south == 0 || north == 0 {
            stores[if south > 0 { 0 } else { 1 }] += south + north;
            pits = [0; 12];
        }
    }
    MancalaPosition::new(pits, stores, side)
        .unwrap()
        .with_empty_capture(pos.empty_capture())
}

proptest! {
    #[test]
    fn fast_sowing_matches_the_slow_one(seeds in prop::sample::select(vec![3u8, 4, 5, 7]), empty_capture: bool, choices in prop::collection::vec(0usize..6, 0..120)) {
        let mut pos = MancalaRules::new(seeds, empty_capture).start();
        let total = u32::from(seeds) * 12;
        for c in choices {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                prop_assert!(pos.end().is_some());
                break;
            }
            let mv = legal[c % legal.len()];
            let (next, sowing) = pos.play(mv).unwrap();
            prop_assert_eq!(next, sow_slowly(&pos, mv.house()), "{} {}", pos, mv);
            let seeds_now: u32 = next.pits().iter().chain(&next.stores()).map(|&s| u32::from(s)).sum();
            prop_assert_eq!(seeds_now, total);
            let same_side = next.side_to_move() == pos.side_to_move();
            prop_assert_eq!(same_side, sowing.another_go, "{} {}", pos, mv);
            if sowing.ended.is_some() {
                prop_assert!(next.end().is_some());
            }
            // Print and parse back.
            let parsed = next.to_string().parse::<MancalaPosition>().unwrap();
            prop_assert_eq!(parsed.with_empty_capture(empty_capture), next);
            pos = next;
        }
        if let Some(end) = pos.end() {
            prop_assert!(matches!(end, MancalaEnd::AllStored | MancalaEnd::Stop));
        }
    }
}
