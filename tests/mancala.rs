//! Arabic Mancala (RULES.md §7): hand-worked rules, perft, notation, and
//! the fast sowing against a seed-by-seed one.

mod common;

use oware::mancala::{MancalaEnd, MancalaGame, MancalaPosition, perft};
use oware::{Move, Side};
use proptest::prelude::*;

#[test]
fn hand_worked_examples() {
    for (line, f) in common::table("mancala_rules.txt") {
        let start: MancalaPosition = f[0].parse().unwrap();
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
        let json: serde_json::Value = serde_json::from_str(&common::stdout(&[
            "show", "--rules", "mancala", &f[0], "--moves", &f[1], "--json",
        ]))
        .unwrap();
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
        &["match", "self", "self", "--rules", "mancala"],
        "does not play mancala yet",
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
    } else if me.owns(slot) && pits[slot] == 1 && pits[11 - slot] > 0 {
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
    MancalaPosition::new(pits, stores, side).unwrap()
}

proptest! {
    #[test]
    fn fast_sowing_matches_the_slow_one(seeds in prop::sample::select(vec![3u8, 4, 5, 7]), choices in prop::collection::vec(0usize..6, 0..120)) {
        let mut pos = MancalaPosition::start(seeds);
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
            prop_assert_eq!(next.to_string().parse::<MancalaPosition>().unwrap(), next);
            pos = next;
        }
        if let Some(end) = pos.end() {
            prop_assert!(matches!(end, MancalaEnd::AllStored | MancalaEnd::Stop));
        }
    }
}
