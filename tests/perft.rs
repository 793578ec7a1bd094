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
    assert_eq!(checked, 4 * 2 * 12 * 5);
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
