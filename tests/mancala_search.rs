//! The search of Arabic Mancala: its proven scores are the game's exact
//! values (against a plain memoised minimax of the final store difference),
//! another go keeps the side and the score, and the evaluation's view of
//! the moves matches the moves themselves.

mod common;

use std::collections::HashMap;

use oware::mancala::eval::offers;
use oware::mancala::search::decode;
use oware::mancala::{Mancala, MancalaGame, MancalaPosition};
use oware::search::{Engine, Limits};
use oware::{Move, Side};
use proptest::prelude::*;

use common::mancala::{child_value, minimax, solved_search};

/// A position with `board` seeds spread over the houses by `spread` (both
/// rows holding some) and the stores given, South or North to move.
fn position(board: u8, spread: &[u8], stores: [u8; 2], north: bool) -> Option<MancalaPosition> {
    let mut pits = [0u8; 12];
    for i in 0..usize::from(board) {
        pits[usize::from(spread[i % spread.len()] % 12)] += 1;
    }
    let side = if north { Side::North } else { Side::South };
    let pos = MancalaPosition::new(pits, stores, side).ok()?;
    pos.end().is_none().then_some(pos)
}

/// The solved search of `pos`: its score's margin and the move chosen.
fn solve(engine: &Engine<Mancala>, pos: MancalaPosition) -> (i32, Move) {
    let r = solved_search(engine, pos);
    let margin = decode(r.last.score).map_or(0, |(m, _)| m);
    assert!(margin != 0 || r.last.score == 0, "{pos}: {}", r.last.score);
    (margin, r.best.unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn solved_scores_are_the_exact_values(
        board in 2u8..=10,
        spread in prop::collection::vec(0u8..12, 1..12),
        stores in (0u8..25, 0u8..25),
        north in any::<bool>(),
    ) {
        let Some(pos) = position(board, &spread, [stores.0, stores.1], north) else {
            return Ok(());
        };
        let engine = Engine::<Mancala>::new(4, 1, None);
        let (margin, best) = solve(&engine, pos);
        let mut memo = HashMap::new();
        let exact = minimax(&pos, &mut memo);
        prop_assert_eq!(margin, exact, "{}", pos);
        prop_assert_eq!(child_value(&pos, best, &mut memo), exact, "{} plays {}", pos, best);
    }

    #[test]
    fn offers_match_the_moves(
        pits in prop::array::uniform12(0u8..13),
        north in any::<bool>(),
    ) {
        let side = if north { Side::North } else { Side::South };
        let Ok(pos) = MancalaPosition::new(pits, [0, 0], side) else {
            return Ok(());
        };
        if pos.end().is_some() {
            return Ok(());
        }
        let (goes, best) = offers(&pos, side);
        let mut expected = (0, 0);
        for &mv in pos.legal_moves().iter() {
            let (_, sowing) = pos.play(mv).unwrap();
            expected.0 += i32::from(sowing.another_go);
            expected.1 = expected.1.max(sowing.captured);
        }
        prop_assert_eq!((goes, best), expected, "{}", pos);
    }
}

#[test]
fn the_only_win_is_a_chain_of_other_goes() {
    // South needs three seeds with North one move from 25: F, then E, then
    // F again, each ending in South's store, reach 25 before North moves.
    // A first passes the move, and so does E first (after it F sows past
    // the store): North's f then reaches 25.
    let pos: MancalaPosition = "1-0-0-0-2-1-0-0-0-0-0-1-22-24-S".parse().unwrap();
    let mut memo = HashMap::new();
    assert_eq!(minimax(&pos, &mut memo), 1);
    for (letter, wins) in [('A', false), ('E', false), ('F', true)] {
        let mv = Move::from_letter(letter).unwrap();
        assert_eq!(child_value(&pos, mv, &mut memo) > 0, wins, "{letter}");
    }
    let engine = Engine::<Mancala>::new(4, 1, None);
    let r = engine
        .search(&MancalaGame::new(pos), &Limits::depth(20), |_| {})
        .unwrap();
    assert!(r.last.solved);
    assert_eq!(decode(r.last.score), Some((1, 3)));
    let pv: String = r.last.pv.iter().map(|m| m.letter()).collect();
    assert_eq!(pv, "FEF");
}

/// One engine may search positions of different totals or capture
/// conventions in turn (a UCI session, the web board): their keys differ.
#[test]
fn keys_tell_both_stores_and_the_capture_convention_apart() {
    use oware::search::SearchGame;
    let a: MancalaPosition = "3-3-3-3-3-3-3-3-3-3-3-3-0-0-S".parse().unwrap();
    let b = a.with_empty_capture(true);
    let c: MancalaPosition = "3-3-3-3-3-3-3-3-3-3-3-3-0-5-S".parse().unwrap();
    let keys = [a, b, c].map(|p| Mancala::full_key(&p, Mancala::board_key(&p)));
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2]);
    assert_ne!(keys[1], keys[2]);
}
