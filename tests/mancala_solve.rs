//! The Mancala solver (src/mancala/solve) against a plain memoised minimax
//! written here, on the rules of `MancalaPosition`.

mod common;

use std::collections::HashMap;

use oware::Side;
use oware::mancala::solve::{Board, Control, Endgame, NoTables, Range, Solution, Solver, Table};
use oware::mancala::{MancalaPosition, MancalaRules, MancalaTables};

use common::Rng;

/// The final store difference for the side to move under perfect play, by
/// plain minimax over the game's own positions and moves. The stores only
/// add to the value, so the memo holds each board with its stores emptied.
/// The positions tested hold fewer than 25 seeds: the 25-seed stop never
/// comes into it.
fn minimax(pos: &MancalaPosition, memo: &mut HashMap<MancalaPosition, i32>) -> i32 {
    let me = pos.side_to_move();
    let lead = |p: &MancalaPosition| i32::from(p.store(me)) - i32::from(p.store(me.opponent()));
    if pos.end().is_some() {
        return lead(pos);
    }
    let bare = MancalaPosition::new(*pos.pits(), [0, 0], me)
        .unwrap()
        .with_empty_capture(pos.empty_capture());
    if let Some(&v) = memo.get(&bare) {
        return lead(pos) + v;
    }
    let best = bare
        .legal_moves()
        .iter()
        .map(|&mv| {
            let (next, _) = bare.play(mv).unwrap();
            if next.end().is_some() {
                lead(&next)
            } else if next.side_to_move() == me {
                // Another go: the same side's value, not negated.
                minimax(&next, memo)
            } else {
                -minimax(&next, memo)
            }
        })
        .max()
        .unwrap();
    memo.insert(bare, best);
    lead(pos) + best
}

/// A random position of `seeds` seeds on the board (both rows holding
/// some), small stores, either side to move, under either capture
/// convention.
fn random_position(rng: &mut Rng, seeds: usize) -> MancalaPosition {
    let empty_capture = rng.below(2) == 0;
    loop {
        let mut pits = [0u8; 12];
        for _ in 0..seeds {
            pits[rng.below(12)] += 1;
        }
        let stores = [rng.below(4) as u8, rng.below(4) as u8];
        let side = if rng.below(2) == 0 {
            Side::South
        } else {
            Side::North
        };
        let pos = MancalaPosition::new(pits, stores, side)
            .unwrap()
            .with_empty_capture(empty_capture);
        if pos.end().is_none() {
            return pos;
        }
    }
}

fn solve_with<E: Endgame>(pos: &MancalaPosition, endgame: &E, each_move: bool) -> Solution {
    let table = Table::new(1);
    let control = Control::new();
    let solver = Solver::new(&table, endgame, &control);
    solver.solve(pos, each_move, &|_| {})
}

fn solve(pos: &MancalaPosition, each_move: bool) -> Solution {
    solve_with(pos, &NoTables, each_move)
}

#[test]
fn the_solver_agrees_with_minimax_on_random_small_positions() {
    let mut rng = Rng(0x5eed_0001);
    let mut memo = HashMap::new();
    for i in 0..240 {
        let pos = random_position(&mut rng, 2 + i % 11);
        let expected = minimax(&pos, &mut memo);
        let each = solve(&pos, true);
        assert_eq!(each.value, Range::exact(expected), "{pos} (each move)");
        assert!(!each.stopped);
        let alone = solve(&pos, false);
        assert_eq!(alone.value, Range::exact(expected), "{pos} (value only)");
        // Each first move's value is the minimax value after it.
        for m in &each.moves {
            let (next, sowing) = pos.play(m.mv).unwrap();
            assert_eq!(m.again, sowing.another_go, "{pos} {}", m.mv);
            let after = if next.end().is_some() {
                let me = pos.side_to_move();
                i32::from(next.store(me)) - i32::from(next.store(me.opponent()))
            } else if sowing.another_go {
                minimax(&next, &mut memo)
            } else {
                -minimax(&next, &mut memo)
            };
            assert_eq!(m.value, Range::exact(after), "{pos} {}", m.mv);
        }
    }
}

#[test]
fn helpers_on_other_threads_leave_the_value_unchanged() {
    // A value-only solve runs MTD(f) on every thread of its pool, helpers
    // starting on other moves; a small shared table makes them evict each
    // other's entries. The value is still the minimax one.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let mut rng = Rng(0x5eed_0003);
    let mut memo = HashMap::new();
    for i in 0..48 {
        let pos = random_position(&mut rng, 5 + i % 8);
        let expected = minimax(&pos, &mut memo);
        let table = Table::new(1);
        let control = Control::new();
        let solver = Solver::new(&table, &NoTables, &control);
        let solved = pool.install(|| solver.solve(&pos, false, &|_| {}));
        assert_eq!(solved.value, Range::exact(expected), "{pos}");
        assert!(!solved.stopped);
        assert!(solved.nodes > 0);
    }
}

#[test]
fn the_start_is_the_best_of_its_first_moves() {
    // Each first move solved as a position of its own agrees with the
    // value the solver gives it, and the start's value is their maximum.
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..40 {
        let pos = random_position(&mut rng, 16);
        let whole = solve(&pos, true);
        let me = pos.side_to_move();
        let mut best = i32::MIN;
        for m in &whole.moves {
            let (next, _) = pos.play(m.mv).unwrap();
            let alone = solve(&next, false).value.value().unwrap();
            let v = if next.side_to_move() == me {
                alone
            } else {
                -alone
            };
            assert_eq!(m.value.value(), Some(v), "{pos} {}", m.mv);
            best = best.max(v);
        }
        assert_eq!(whole.value, Range::exact(best), "{pos}");
    }
}

/// Endgame "tables" made here: the minimax value of every board of at most
/// `level` seeds it is asked about.
struct Oracle {
    level: u8,
    empty_capture: bool,
    memo: std::sync::Mutex<HashMap<MancalaPosition, i32>>,
    probes: std::sync::atomic::AtomicU64,
}

impl Endgame for Oracle {
    fn level(&self) -> u8 {
        self.level
    }

    fn value(&self, board: Board) -> i8 {
        assert!(board.seeds() <= self.level && !board.is_over());
        self.probes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let pos = board
            .position(Side::South)
            .with_empty_capture(self.empty_capture);
        minimax(&pos, &mut self.memo.lock().unwrap()) as i8
    }
}

#[test]
fn table_closed_lines_give_the_searched_value() {
    let mut rng = Rng(0x5eed_0003);
    for empty_capture in [false, true] {
        let oracle = Oracle {
            level: 8,
            empty_capture,
            memo: Default::default(),
            probes: Default::default(),
        };
        for i in 0..30 {
            let pos = random_position(&mut rng, 12 + i % 8).with_empty_capture(empty_capture);
            let searched = solve(&pos, true);
            let closed = solve_with(&pos, &oracle, true);
            assert_eq!(closed.value, searched.value, "{pos}");
            assert_eq!(closed.moves, searched.moves, "{pos}");
            assert!(
                closed.nodes < searched.nodes,
                "{pos}: the tables saved nothing"
            );
        }
        assert!(oracle.probes.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }
}

#[test]
fn a_board_is_the_same_seen_from_either_side() {
    let mut rng = Rng(0x5eed_0004);
    for _ in 0..200 {
        let seeds = 2 + rng.below(39);
        let pos = random_position(&mut rng, seeds);
        let board = Board::of(&pos);
        let back = board.position(pos.side_to_move());
        assert_eq!(back.pits(), pos.pits());
        assert_eq!(back.side_to_move(), pos.side_to_move());
        // Sowing agrees with the game's rules (stores aside).
        for mv in pos.legal_moves().iter() {
            let (next, sowing) = pos.play(*mv).unwrap();
            let sown = board.sow(mv.house(), board.seeds(), pos.empty_capture());
            assert_eq!(sown.again, sowing.another_go, "{pos} {mv}");
            let me = pos.side_to_move();
            let gain = (i32::from(next.store(me)) - i32::from(pos.store(me)))
                - (i32::from(next.store(me.opponent())) - i32::from(pos.store(me.opponent())));
            if next.end() == Some(oware::mancala::MancalaEnd::Stop) {
                continue;
            }
            assert_eq!(i32::from(sown.gain), gain, "{pos} {mv}");
            assert_eq!(sown.board, Board::of(&next), "{pos} {mv}");
        }
    }
}

#[test]
fn built_tables_give_the_searched_values() {
    // The tables of `oware build --rules mancala`, levels 0..=8, for both
    // conventions: lines closed there give what searching them out gives.
    let mut rng = Rng(0x5eed_0005);
    for empty_capture in [false, true] {
        let rules = MancalaRules::new(4, empty_capture);
        let tmp = tempfile::tempdir().unwrap();
        oware::tb::build_levels(&rules, tmp.path(), 8, false, |_| {}).expect("build");
        let tables = MancalaTables::open(tmp.path(), rules).unwrap();
        assert_eq!(tables.level(), 8);
        for i in 0..20 {
            let pos = random_position(&mut rng, 12 + i % 6).with_empty_capture(empty_capture);
            let searched = solve(&pos, true);
            let closed = solve_with(&pos, &tables, true);
            assert_eq!(closed.value, searched.value, "{pos}");
            assert_eq!(closed.moves, searched.moves, "{pos}");
        }
        // A board within the tables is their value at once.
        let pos = random_position(&mut rng, 8).with_empty_capture(empty_capture);
        let me = pos.side_to_move();
        let lead = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
        let v = lead + i32::from(tables.probe(&pos).unwrap());
        assert_eq!(solve_with(&pos, &tables, false).value, Range::exact(v));
        assert_eq!(solve(&pos, false).value, Range::exact(v), "{pos}");
    }
}

#[test]
fn the_command_line_solves_a_small_position() {
    let mut memo = HashMap::new();
    let mut rng = Rng(0x5eed_0006);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    common::stdout(&[
        "build",
        "--rules",
        "mancala",
        "--max-seeds",
        "6",
        "--dir",
        dir,
        "--quiet",
    ]);
    for _ in 0..4 {
        let pos = random_position(&mut rng, 12).with_empty_capture(false);
        let text = pos.to_string();
        let expected = minimax(&pos, &mut memo);
        for extra in [&[][..], &["--db", dir][..]] {
            let mut args = vec![
                "solve",
                "--rules",
                "mancala",
                "--position",
                &text,
                "--json",
                "--hash",
                "8",
            ];
            args.extend_from_slice(extra);
            let v: serde_json::Value = serde_json::from_str(&common::stdout(&args)).unwrap();
            assert_eq!(v["value"], expected, "{text} {extra:?}");
            assert_eq!(v["lower"], v["upper"]);
            assert_eq!(v["solved"], true);
            assert_eq!(v["to_move"], pos.side_to_move().letter().to_string());
            let moves = v["moves"].as_array().unwrap();
            assert_eq!(moves.len(), pos.legal_moves().len());
            let best = moves.iter().map(|m| m["value"].as_i64().unwrap()).max();
            assert_eq!(best, Some(i64::from(expected)));
            for m in moves {
                let mv =
                    oware::Move::from_letter(m["move"].as_str().unwrap().chars().next().unwrap());
                let (next, sowing) = pos.play(mv.unwrap()).unwrap();
                assert_eq!(m["another_go"], sowing.another_go);
                let after = minimax(&next, &mut memo);
                let after = if next.side_to_move() == pos.side_to_move() {
                    after
                } else {
                    -after
                };
                assert_eq!(m["value"], after, "{text} {m}");
            }
        }
    }
    // The 3-seed start's value alone, through the tables.
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&[
        "solve",
        "--rules",
        "mancala",
        "--db",
        dir,
        "--value-only",
        "--json",
        "--position",
        "1-0-2-0-1-3-0-1-1-2-0-1-9-15-S",
    ]))
    .unwrap();
    let pos: MancalaPosition = "1-0-2-0-1-3-0-1-1-2-0-1-9-15-S".parse().unwrap();
    assert_eq!(v["value"], minimax(&pos, &mut memo));
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
}

#[test]
fn the_rules_line_names_the_start_a_position_comes_from() {
    // (position, extra flags, the Rules line, the JSON's start_seeds)
    let cases: [(&str, &[&str], &str, serde_json::Value); 4] = [
        // 36 seeds: the 3-seed start.
        (
            "1-0-2-0-1-3-0-1-1-2-0-1-9-15-S",
            &[],
            "mancala (3 seeds a house)",
            3.into(),
        ),
        // 60 seeds, the stop in play: the 5-seed start.
        (
            "2-2-2-0-0-0-2-2-2-0-0-0-24-24-S",
            &["--empty-capture"],
            "mancala (5 seeds a house, empty capture)",
            5.into(),
        ),
        // 24 seeds: no start has them.
        (
            "0-0-0-0-1-1-0-0-0-0-1-1-10-10-S",
            &[],
            "mancala (24 seeds in play)",
            serde_json::Value::Null,
        ),
        // 48 seeds named by --start-seeds 4.
        (
            "0-0-0-0-1-1-0-0-0-0-1-1-20-24-S",
            &["--start-seeds", "4"],
            "mancala (4 seeds a house)",
            4.into(),
        ),
    ];
    for (pos, extra, line, seeds) in cases {
        let mut args = vec!["solve", "--rules", "mancala", "--position", pos];
        args.extend_from_slice(extra);
        let text = common::stdout(&args);
        let rules = text.lines().find(|l| l.starts_with("Rules:")).unwrap();
        assert_eq!(rules.trim_start_matches("Rules:").trim(), line, "{pos}");
        args.push("--json");
        let v: serde_json::Value = serde_json::from_str(&common::stdout(&args)).unwrap();
        assert_eq!(v["start_seeds"], seeds, "{pos}");
    }
}

#[test]
fn missing_race_tables_name_the_build_that_serves_the_position() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().to_str().unwrap();
    let solve = |extra: &[&str], needle: &str| {
        let mut args = vec!["solve", "--rules", "mancala", "--db", db];
        args.extend_from_slice(extra);
        common::fails(&args, needle);
    };
    // 60 seeds: boards of 12 seeds and more while both stores are under 25.
    solve(
        &["--start-seeds", "5"],
        &format!("--race --start-seeds 5 --max-seeds 22 --db {db}"),
    );
    solve(
        &["--start-seeds", "5", "--empty-capture"],
        "--rules mancala --empty-capture --race --start-seeds 5",
    );
    // 84 seeds: 36 and more, beyond this machine.
    solve(&["--start-seeds", "7"], "matter from level 36 up");
    // 24 seeds are no start's total: no build makes their race tables.
    solve(
        &["--stop", "--position", "0-0-0-0-1-1-0-0-0-0-1-1-10-10-S"],
        "no race tables for 24 seeds (race tables serve a start's total only",
    );
}

#[test]
fn bad_solve_input_is_one_line() {
    common::fails(&["solve"], "mancala only");
    // With the stop in play, a store of 25 has ended the game.
    common::fails(
        &[
            "solve",
            "--rules",
            "mancala",
            "--position",
            "0-0-0-0-1-1-0-0-0-0-1-1-24-32-S",
        ],
        "North's store holds 32 seeds, so with the 25-seed stop the game is already over",
    );
    common::fails(&["solve", "--rules", "awari"], "mancala only");
    common::fails(
        &["solve", "--rules", "mancala", "--position", "1-2-3"],
        "bad position",
    );
    common::fails(
        &["solve", "--rules", "mancala", "--db", "/nonexistent/tables"],
        "no such folder",
    );
    common::fails(
        &["solve", "--rules", "mancala", "--max-time=-1"],
        "--max-time",
    );
    common::fails(
        &["solve", "--rules", "mancala", "--max-time", "nan"],
        "--max-time",
    );
    common::fails(
        &["solve", "--rules", "mancala", "--start-seeds", "6"],
        "3, 4, 5 or 7",
    );
    common::fails(&["solve", "--rules", "mancala", "--hash", "0"], "--hash");
    // Tables of the other convention are refused, not misread.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    common::stdout(&[
        "build",
        "--rules",
        "mancala",
        "--max-seeds",
        "3",
        "--dir",
        dir,
        "--quiet",
    ]);
    common::fails(
        &[
            "solve",
            "--rules",
            "mancala",
            "--empty-capture",
            "--db",
            dir,
            "--position",
            "0-0-0-0-2-1-0-0-0-1-1-0-10-9-N",
        ],
        "no Mancala tables of the empty-capture",
    );
}

/// The value of a start by search alone (no tables), with a larger table.
fn solve_start(seeds: u8, empty_capture: bool, each_move: bool) -> Solution {
    let pos = MancalaRules::new(seeds, empty_capture).start();
    let table = Table::new(1024);
    let control = Control::new();
    Solver::new(&table, &NoTables, &control).solve(&pos, each_move, &|_| {})
}

#[test]
#[ignore = "about a minute in release: cargo test --release --test mancala_solve -- --ignored"]
fn kalah_with_four_seeds_is_a_win_by_ten_under_the_empty_capture() {
    // Irving, Donkers and Uiterwijk (2000) under the empty capture.
    assert_eq!(solve_start(4, true, false).value, Range::exact(10));
}

#[test]
#[ignore = "needs the empty capture's tables 0..28 in $OWARE_KALAH_DB; about 6 minutes in release"]
fn kalah_with_five_seeds_is_a_win_by_twelve_under_the_empty_capture() {
    // Irving, Donkers and Uiterwijk (2000). The tables take about 20
    // minutes on two cores: `oware build --rules mancala --empty-capture
    // --max-seeds 28 --db DIR`, then OWARE_KALAH_DB=DIR.
    let dir = std::env::var_os("OWARE_KALAH_DB")
        .expect("OWARE_KALAH_DB names a folder of the empty capture's tables 0..28");
    let rules = MancalaRules::new(5, true);
    let tables = MancalaTables::open_for_search(std::path::Path::new(&dir), rules, 28).unwrap();
    assert!(tables.complete_up_to().is_some_and(|n| n >= 28));
    let table = Table::new(8192);
    let control = Control::new();
    let solved = Solver::new(&table, &tables, &control).solve(&rules.start(), false, &|_| {});
    assert_eq!(solved.value, Range::exact(12));
}

#[test]
#[ignore = "a few minutes in release: cargo test --release --test mancala_solve -- --ignored"]
fn kalah_with_four_seeds_is_a_win_by_eight_under_our_capture() {
    // Rawlings (2015) for Kalah's standard rules, which are §7's.
    assert_eq!(solve_start(4, false, false).value, Range::exact(8));
}

#[test]
#[ignore = "seconds in release: cargo test --release --test mancala_solve -- --ignored"]
fn the_three_seed_start_is_the_best_of_its_first_moves() {
    let alone = solve_start(3, false, false);
    let each = solve_start(3, false, true);
    assert_eq!(alone.value, each.value);
    assert!(alone.value.value().is_some());
    let best = each.moves.iter().map(|m| m.value.lower).max();
    assert_eq!(best, alone.value.value());
    // Each first move's value is the value of the position after it.
    let start = MancalaPosition::start(3);
    for m in &each.moves {
        let (next, sowing) = start.play(m.mv).unwrap();
        let table = Table::new(256);
        let control = Control::new();
        let after = Solver::new(&table, &NoTables, &control).solve(&next, false, &|_| {});
        let v = after.value.value().unwrap();
        let v = if sowing.another_go { v } else { -v };
        assert_eq!(m.value, Range::exact(v), "{}", m.mv);
    }
}
