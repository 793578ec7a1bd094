//! Perft against the published figures, and the fast perft against a slow
//! one built on the referee.

mod common;

use oware::{Game, Position, Rules, Variant, perft};

fn published(max_depth: u32) {
    for (line, f) in common::table("perft.txt") {
        let depth: u32 = f[0].parse().unwrap();
        let leaves: u64 = f[1].parse().unwrap();
        if depth <= max_depth {
            assert_eq!(
                perft(&Position::START, depth, &Rules::ABAPA),
                leaves,
                "line {line}"
            );
        }
    }
}

#[test]
fn published_figures_to_depth_8() {
    published(8);
}

#[test]
#[ignore = "slow in a debug build; run with --ignored"]
fn published_figures_to_depth_9() {
    published(9);
}

/// Leaves counted by replaying games through the referee: slow and obvious.
fn slow_perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    game.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv).unwrap();
            slow_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn fast_perft_matches_the_referee() {
    let mut rng = common::Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for variant in Variant::ALL {
        for limit in [None, Some(3)] {
            let rules = Rules::of(variant).with_no_capture_limit(limit);
            for _ in 0..12 {
                // A random position reached by random play from the start.
                let mut game = Game::new(Position::START, rules);
                for _ in 0..rng.below(60) {
                    let moves = game.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    game.play(moves[rng.below(moves.len())]).unwrap();
                }
                let root = Game::new(*game.position(), rules);
                for depth in 0..=4 {
                    assert_eq!(
                        perft(root.position(), depth, &rules),
                        slow_perft(&root, depth),
                        "{variant} limit {limit:?} {} depth {depth}",
                        root.position()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, Variant::ALL.len() * 2 * 12 * 5);
}

/// A slow perft straight from the rules text, independent of the library:
/// seeds sown one at a time (a lap skips the origin), the run of 2s and 3s
/// captured back from the last pit, a grand slam captured when `slam`
/// says so of (the mover's store, the seeds it takes), compulsory
/// feeding, and the game over at 25 seeds captured (no repetition rule).
fn rules_text_perft(
    pits: [u8; 12],
    stores: [u8; 2],
    mover: usize,
    depth: u32,
    slam: fn(u8, u8) -> bool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if stores.iter().any(|&s| s >= 25) {
        return 0;
    }
    let own = 6 * mover..6 * mover + 6;
    let opp = 6 * (1 - mover)..6 * (1 - mover) + 6;
    let starved = pits[opp.clone()].iter().all(|&s| s == 0);
    let mut leaves = 0;
    for origin in own {
        if pits[origin] == 0 {
            continue;
        }
        let (mut p, mut st) = (pits, stores);
        let mut seeds = p[origin];
        p[origin] = 0;
        let mut at = origin;
        while seeds > 0 {
            at = (at + 1) % 12;
            if at != origin {
                p[at] += 1;
                seeds -= 1;
            }
        }
        if starved && p[opp.clone()].iter().all(|&s| s == 0) {
            continue; // does not feed the opponent: illegal
        }
        let mut run = Vec::new();
        let mut q = at;
        while opp.contains(&q) && matches!(p[q], 2 | 3) {
            run.push(q);
            if q == opp.start {
                break;
            }
            q -= 1;
        }
        let taken: u8 = run.iter().map(|&q| p[q]).sum();
        let row: u8 = p[opp.clone()].iter().sum();
        if taken > 0 && (taken < row || slam(st[mover], taken)) {
            for q in run {
                p[q] = 0;
            }
            st[mover] += taken;
        }
        leaves += rules_text_perft(p, st, 1 - mover, depth - 1, slam);
    }
    leaves
}

#[test]
fn capture_to_win_perft_differs_from_abapa_where_a_grand_slam_reaches_25() {
    let forfeit: fn(u8, u8) -> bool = |_, _| false;
    let to_win: fn(u8, u8) -> bool = |store, taken| store + taken >= 25;
    let no_repetition = |v| Rules {
        repetition: false,
        ..Rules::of(v)
    };
    // South's F is a grand slam of 5 seeds: from 20 it wins (capture-to-win),
    // from 18 it is forfeited under both rules.
    let win: Position = "3-0-0-0-0-2-1-2-0-0-0-0-20-20-S".parse().unwrap();
    // Worked by hand. Depth 2: after A North has a and b under both rules;
    // after F, Abapa leaves North a and b, capture-to-win ends the game.
    // Depth 3: after A then a or b South has B, C, D and F (8); Abapa adds
    // after F then a or b South's one move A (2).
    for (depth, abapa, to_win_leaves) in [(1, 2, 2), (2, 4, 2), (3, 10, 8)] {
        assert_eq!(
            perft(&win, depth, &Rules::of(Variant::Abapa)),
            abapa,
            "depth {depth}"
        );
        assert_eq!(
            perft(&win, depth, &Rules::of(Variant::CaptureToWin)),
            to_win_leaves,
            "depth {depth}"
        );
    }
    for (text, side) in [
        ("3-0-0-0-0-2-1-2-0-0-0-0-20-20-S", 0),
        ("3-0-0-0-0-2-1-2-0-0-0-0-18-22-S", 0),
        ("1-2-0-0-0-0-3-0-0-0-0-2-20-20-N", 1),
        ("22-0-0-0-0-0-0-0-0-0-0-1-12-13-S", 0),
        ("2-1-1-0-3-1-1-2-2-1-0-2-15-17-S", 0),
    ] {
        let pos: Position = text.parse().unwrap();
        let (pits, stores) = (*pos.pits(), pos.stores());
        for depth in 0..=6 {
            for (variant, slam) in [(Variant::Abapa, forfeit), (Variant::CaptureToWin, to_win)] {
                assert_eq!(
                    perft(&pos, depth, &no_repetition(variant)),
                    rules_text_perft(pits, stores, side, depth, slam),
                    "{text} {variant} depth {depth}"
                );
            }
        }
    }
}

#[test]
fn perft_from_the_command_line_takes_capture_to_win() {
    let pos = "3-0-0-0-0-2-1-2-0-0-0-0-20-20-S";
    for (rules, leaves) in [("abapa", 4), ("capture-to-win", 2)] {
        let out = common::stdout(&["perft", pos, "--rules", rules, "--depth", "2", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["leaves"], leaves, "{rules}: {out}");
    }
}

#[test]
fn repetition_cuts_the_tree() {
    // The twelve-ply cycle of two lone seeds: with the rule the tree ends at
    // the repetition, without it the cycle goes on.
    let start: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
    let mut no_rep = Rules::ABAPA;
    no_rep.repetition = false;
    let with = perft(&start, 13, &Rules::ABAPA);
    let without = perft(&start, 13, &no_rep);
    assert!(with < without, "{with} vs {without}");
    assert_eq!(slow_perft(&Game::new(start, Rules::ABAPA), 13), with);
    assert_eq!(slow_perft(&Game::new(start, no_rep), 13), without);
}
