//! The level index: a bijection onto exactly the boards it claims, with the
//! published counts.

use oware::Variant;
use oware::tb::board::{for_each_child, for_each_parent};
use oware::tb::index::{Boards, binom, is_indexed, level_size, rank, unrank};

/// C(a, b) in u128 by the multiplicative formula, independent of the table.
fn c(a: u128, b: u128) -> u128 {
    if b > a {
        return 0;
    }
    (0..b).fold(1u128, |acc, i| acc * (a - i) / (i + 1))
}

#[test]
fn binomial_table_matches_the_formula() {
    for a in 0..60 {
        for b in 0..12 {
            assert_eq!(
                u128::from(binom(a, b)),
                c(a as u128, b as u128),
                "C({a},{b})"
            );
        }
    }
}

#[test]
fn level_sizes_match_the_formula_and_the_published_total() {
    let mut total = 1u128; // the start position, whose opponent has no empty pit
    for n in 0..=48u128 {
        let expected = c(n + 11, 11) - c(n + 5, 11);
        assert_eq!(u128::from(level_size(n as usize)), expected, "level {n}");
        if n != 47 {
            total += expected;
        }
    }
    assert_eq!(total, 889_063_398_406);
}

/// Every board of `n` seeds, by brute force over all 12-part compositions.
fn all_boards(n: usize) -> Vec<[u8; 12]> {
    let mut out = Vec::new();
    let mut board = [0u8; 12];
    fn rec(pit: usize, left: usize, board: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if pit == 11 {
            board[11] = left as u8;
            out.push(*board);
            return;
        }
        for s in 0..=left {
            board[pit] = s as u8;
            rec(pit + 1, left - s, board, out);
        }
    }
    rec(0, n, &mut board, &mut out);
    out
}

#[test]
fn rank_is_a_bijection_on_every_level_up_to_12() {
    for n in 0..=12 {
        let size = level_size(n) as usize;
        let mut seen = vec![false; size];
        let mut count = 0;
        for board in all_boards(n).into_iter().filter(is_indexed) {
            let r = rank(&board, n) as usize;
            assert!(r < size, "level {n}: rank {r} out of range for {board:?}");
            assert!(!seen[r], "level {n}: rank {r} given twice");
            seen[r] = true;
            assert_eq!(unrank(r as u64, n), board, "level {n}: unrank({r})");
            count += 1;
        }
        assert_eq!(count, size, "level {n}");
    }
}

#[test]
fn sequential_iteration_matches_unrank() {
    for n in [0, 1, 5, 9, 13, 30, 48] {
        let size = level_size(n);
        for start in [0, 1, size / 3, size.saturating_sub(700)] {
            let boards: Vec<_> = Boards::new(n, start, 700).collect();
            assert_eq!(boards.len() as u64, 700.min(size - start.min(size)));
            for (i, b) in boards.iter().enumerate() {
                assert_eq!(
                    *b,
                    unrank(start + i as u64, n),
                    "level {n} rank {}",
                    start + i as u64
                );
            }
        }
    }
}

#[test]
fn children_are_indexed_and_parents_invert_children() {
    for variant in Variant::ALL {
        for n in 0..=9 {
            for r in 0..level_size(n) {
                let board = unrank(r, n);
                for_each_child(&board, variant, |edge| {
                    let seeds = n - edge.captured as usize;
                    assert!(is_indexed(&edge.child), "{board:?} -> {:?}", edge.child);
                    if edge.captured == 0 {
                        let mut found = false;
                        for_each_parent(&edge.child, variant, |p| found |= p == board);
                        assert!(
                            found,
                            "{variant}: {board:?} is not a parent of {:?}",
                            edge.child
                        );
                    }
                    assert_eq!(edge.child.iter().map(|&s| s as usize).sum::<usize>(), seeds);
                });
                for_each_parent(&board, variant, |parent| {
                    let mut found = false;
                    for_each_child(&parent, variant, |e| {
                        found |= e.captured == 0 && e.child == board
                    });
                    assert!(found, "{variant}: {parent:?} does not lead to {board:?}");
                });
            }
        }
    }
}

#[test]
fn rotation_swaps_the_rows_and_words_round_trip() {
    use oware::tb::board::{from_word, rotate, to_word};
    for n in [0, 1, 5, 13, 48] {
        for board in Boards::new(n, 0, level_size(n).min(20_000)) {
            let turned = rotate(&board);
            assert_eq!(turned[..6], board[6..]);
            assert_eq!(turned[6..], board[..6]);
            assert_eq!(from_word(to_word(&board)), board);
            assert_eq!(rotate(&turned), board);
        }
    }
}

#[test]
fn the_full_index_ranks_every_board_once_in_iteration_order() {
    use oware::tb::index::{FullBoards, full_level_size, rank_full, unrank_full};
    for n in 0..=48u128 {
        assert_eq!(
            u128::from(full_level_size(n as usize)),
            c(n + 11, 11),
            "level {n}"
        );
    }
    for n in 0..=7 {
        let boards = all_boards(n);
        let size = full_level_size(n);
        assert_eq!(boards.len() as u64, size, "level {n}");
        let mut seen = vec![false; size as usize];
        for b in &boards {
            let r = rank_full(b, n);
            assert!(r < size, "level {n} {b:?}");
            assert!(!seen[r as usize], "level {n}: rank {r} twice");
            seen[r as usize] = true;
            assert_eq!(unrank_full(r, n), *b, "level {n} rank {r}");
        }
        // The iterator walks the ranks in order, from any start.
        for start in [0, 1, size / 3, size.saturating_sub(1)] {
            for (i, b) in FullBoards::new(n, start, size).enumerate() {
                assert_eq!(rank_full(&b, n), start + i as u64, "level {n} from {start}");
            }
            assert_eq!(FullBoards::new(n, start, size).count() as u64, size - start);
        }
    }
    // A large level: spot checks at both ends and in between.
    let n = 30;
    let size = full_level_size(n);
    for r in [0, 1, 12345, size / 2, size - 2, size - 1] {
        let b = unrank_full(r, n);
        assert_eq!(b.iter().map(|&s| s as usize).sum::<usize>(), n);
        assert_eq!(rank_full(&b, n), r);
        let next: Vec<[u8; 12]> = FullBoards::new(n, r, 2).collect();
        assert_eq!(next[0], b);
        if r + 1 < size {
            assert_eq!(next[1], unrank_full(r + 1, n));
        }
    }
}
