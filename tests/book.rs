//! The opening book: grown by the command, legal, scored by the engine at
//! the book's depth, resumable, refused when damaged, played by bestmove.

mod common;

use std::process::Command;

use oware::book::{self, build::evaluate};
use oware::search::Engine;
use oware::{Game, Position, Rules, Variant};

fn grow(path: &std::path::Path, positions: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_oware"))
        .args([
            "book",
            "build",
            "--out",
            path.to_str().unwrap(),
            "--positions",
            positions,
            "--depth",
            "4",
            "--hash",
            "4",
            "--save-every",
            "3",
        ])
        .output()
        .unwrap()
}

#[test]
fn a_small_book_is_legal_scored_by_the_engine_and_resumable() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("small.owb");
    assert!(grow(&path, "25").status.success());
    let first = book::file::load(&path, Variant::Abapa).unwrap();
    assert!(first.nodes.len() >= 25, "{}", first.nodes.len());
    // Growing again resumes the file.
    let again = grow(&path, "60");
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("resuming"));
    let book = book::file::load(&path, Variant::Abapa).unwrap();
    assert!(book.nodes.len() >= 60);
    assert!(first.nodes.keys().all(|k| book.nodes.contains_key(k)));

    let engine: Engine = Engine::new(4, 1, None);
    let rules = Rules::ABAPA;
    let mut checked_leaves = 0;
    for (k, node) in &book.nodes {
        let pos = book::position(k).unwrap();
        // Every move of the book is legal and leads where it says.
        for &(house, child) in &node.moves {
            let mut game = Game::new(pos, rules);
            let mv = oware::Move::of(pos.side_to_move(), usize::from(house));
            game.play(mv).unwrap();
            assert_eq!(book::key(game.position()), child);
        }
        if node.moves.is_empty() {
            // A leaf's value is the engine's search at the book's depth.
            if checked_leaves < 12 {
                assert_eq!(
                    node.value,
                    evaluate(&engine, &pos, rules, book.depth),
                    "{pos}"
                );
                checked_leaves += 1;
            }
        } else {
            // Inside the book, the best of the moves' values.
            let best = book.moves(&pos)[0].value;
            assert_eq!(node.value, best, "{pos}");
            let recomputed = node
                .moves
                .iter()
                .map(|(_, c)| -book.nodes[c].value)
                .max()
                .unwrap();
            assert_eq!(best, recomputed);
        }
    }
    assert!(checked_leaves > 0);
    // The start's book move is the engine's choice among its children.
    let start = book.moves(&Position::START);
    assert_eq!(start.len(), 6);
}

#[test]
fn a_damaged_book_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("b.owb");
    assert!(grow(&path, "10").status.success());
    let good = std::fs::read(&path).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("flipped", {
            let mut b = good.clone();
            let last = b.len() - 1;
            b[last] ^= 1;
            b
        }),
        ("truncated", good[..good.len() - 5].to_vec()),
        ("magic", {
            let mut b = good.clone();
            b[0] = b'X';
            b
        }),
        ("empty", Vec::new()),
    ];
    for (what, bytes) in cases {
        std::fs::write(&path, &bytes).unwrap();
        assert!(book::file::load(&path, Variant::Abapa).is_err(), "{what}");
        common::fails(
            &[
                "bestmove",
                "--book",
                path.to_str().unwrap(),
                "--depth",
                "2",
                "--no-db",
            ],
            "cannot read the book",
        );
    }
    std::fs::write(&path, &good).unwrap();
    assert!(matches!(
        book::file::load(&path, Variant::Awari),
        Err(book::file::BookError::Rules { .. })
    ));
}

#[test]
fn bestmove_plays_a_book_move_within_the_margin() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("b.owb");
    assert!(grow(&path, "15").status.success());
    let book = book::file::load(&path, Variant::Abapa).unwrap();
    let moves = book.moves(&Position::START);
    let best = moves[0];
    // A margin of nothing: the best move, every time.
    for _ in 0..3 {
        let out = common::stdout(&[
            "bestmove",
            "--book",
            path.to_str().unwrap(),
            "--book-margin",
            "0",
        ]);
        assert_eq!(
            out.lines().last().unwrap(),
            format!("bestmove {}", best.mv),
            "{out}"
        );
    }
    // A wide margin: any of the book's moves, never one it does not have.
    let letters: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    for _ in 0..5 {
        let out = common::stdout(&[
            "bestmove",
            "--book",
            path.to_str().unwrap(),
            "--book-margin",
            "48",
        ]);
        let mv = out
            .lines()
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap()
            .to_string();
        assert!(letters.contains(&mv), "{mv} not in {letters:?}");
    }
    // Out of the book, the engine searches.
    let out = common::stdout(&[
        "bestmove",
        "0-0-0-1-1-0-1-1-0-0-0-0-22-22-S",
        "--book",
        path.to_str().unwrap(),
        "--depth",
        "3",
        "--no-db",
    ]);
    assert!(out.contains("depth  3"), "{out}");
}
