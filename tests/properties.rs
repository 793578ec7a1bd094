//! Property tests: fast paths against slow obvious ones, round trips, and
//! invariants over random positions and games.

use oware::ogn::GameRecord;
use oware::rules::GrandSlam;
use oware::search::eval::{EvalParams, Evaluator, evaluate};
use oware::{Game, Move, Position, Rules, Side, Variant, format_moves, parse_moves};
use proptest::prelude::*;

fn position() -> impl Strategy<Value = Position> {
    (
        proptest::array::uniform12(0u8..=4),
        0usize..12,
        0u8..=30,
        any::<bool>(),
        0u8..=6,
    )
        .prop_map(|(mut pits, big, extra, north, store)| {
            let total: u8 = pits.iter().sum();
            pits[big] += extra.min(48 - total);
            let room = 48 - pits.iter().sum::<u8>();
            let side = if north { Side::North } else { Side::South };
            Position::new(pits, [store.min(room), 0], side).unwrap()
        })
}

/// Positions where grand slams are common and the mover's store is near
/// 25: the opponent's pits hold 0 to 2 seeds, the mover's store 10 to 24,
/// and one of the mover's pits may hold a lap's worth.
fn near_winning_slams() -> impl Strategy<Value = Position> {
    (
        proptest::array::uniform6(0u8..=3),
        proptest::array::uniform6(0u8..=2),
        0usize..6,
        0u8..=20,
        10u8..=24,
        any::<bool>(),
    )
        .prop_map(|(mut own, theirs, big, extra, store, north)| {
            own[big] += extra;
            let side = if north { Side::North } else { Side::South };
            let mut pits = [0u8; 12];
            let (mine, other) = (side.first_pit(), side.opponent().first_pit());
            pits[mine..mine + 6].copy_from_slice(&own);
            pits[other..other + 6].copy_from_slice(&theirs);
            let room = 48 - pits.iter().sum::<u8>();
            let mut stores = [0u8; 2];
            stores[side.index()] = store.min(room);
            Position::new(pits, stores, side).unwrap()
        })
}

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// Sowing and capturing one seed at a time, straight from the rules.
fn slow_play(pos: &Position, mv: Move, grand_slam: GrandSlam) -> ([u8; 12], u8) {
    let mut pits = *pos.pits();
    let origin = mv.pit();
    let mut seeds = pits[origin];
    pits[origin] = 0;
    let mut pit = origin;
    while seeds > 0 {
        pit = (pit + 1) % 12;
        if pit != origin {
            pits[pit] += 1;
            seeds -= 1;
        }
    }
    let opponent = mv.side().opponent();
    let mut run = vec![];
    let mut p = pit as isize;
    while p >= 0 && opponent.owns(p as usize) && matches!(pits[p as usize], 2 | 3) {
        run.push(p as usize);
        p -= 1;
    }
    let taken: u8 = run.iter().map(|&p| pits[p]).sum();
    let row: u8 = (0..12).filter(|&p| opponent.owns(p)).map(|p| pits[p]).sum();
    // A grand slam captures under `Capture`, and under `CaptureToWin` when
    // it brings the mover's store to 25 or more.
    let slam_captures = match grand_slam {
        GrandSlam::Capture => true,
        GrandSlam::CaptureToWin => u32::from(pos.store(mv.side())) + u32::from(taken) >= 25,
        GrandSlam::Forfeit | GrandSlam::Forbid => false,
    };
    if taken == 0 || (taken == row && !slam_captures) {
        return (pits, 0);
    }
    for p in run {
        pits[p] = 0;
    }
    (pits, taken)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn capture_to_win_moves_and_captures_match_the_slow_rules(pos in near_winning_slams()) {
        for variant in [Variant::CaptureToWin, Variant::Abapa] {
            let slam = variant.grand_slam();
            for &mv in pos.legal_moves(variant).iter() {
                let (after, captured) = pos.after(mv, variant);
                let (pits, taken) = slow_play(&pos, mv, slam);
                prop_assert_eq!(after.pits(), &pits, "{}", mv);
                prop_assert_eq!(captured, taken, "{}", mv);
            }
            let slow = pos
                .legal_moves(variant)
                .iter()
                .map(|&mv| slow_play(&pos, mv, slam).1)
                .max();
            prop_assert_eq!(pos.best_capture(variant), slow);
            if let Some(captures) = pos.captures(variant) {
                for house in 0..6 {
                    let mv = Move::of(pos.side_to_move(), house);
                    let expected = match pos.pits()[mv.pit()] {
                        0 => 0,
                        _ => slow_play(&pos, mv, slam).1,
                    };
                    prop_assert_eq!(captures.of(house), expected, "house {}", house);
                }
            }
        }
    }

    #[test]
    fn position_string_round_trips(pos in position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
    }

    #[test]
    fn moves_match_the_slow_rules(pos in position(), variant in variant()) {
        for &mv in pos.legal_moves(variant).iter() {
            let (after, captured) = pos.after(mv, variant);
            let (pits, taken) = slow_play(&pos, mv, variant.grand_slam());
            prop_assert_eq!(after.pits(), &pits);
            prop_assert_eq!(captured, taken);
            prop_assert_eq!(after.pits()[mv.pit()], 0, "origin not empty");
            let before_total = pos.seeds_on_board() + u32::from(pos.stores()[0] + pos.stores()[1]);
            let after_total = after.seeds_on_board() + u32::from(after.stores()[0] + after.stores()[1]);
            prop_assert_eq!(before_total, after_total, "seeds not conserved");
            prop_assert_eq!(after.store(pos.side_to_move()), pos.store(pos.side_to_move()) + captured);
            prop_assert_eq!(after.side_to_move(), pos.side_to_move().opponent());
        }
    }

    #[test]
    fn legal_list_is_what_the_referee_accepts(pos in position(), variant in variant()) {
        let legal = pos.legal_moves(variant);
        for pit in 0..12 {
            let mv = Move::new(pit);
            prop_assert_eq!(pos.check_move(mv, variant).is_ok(), legal.contains(&mv), "{}", mv);
        }
        // No legal move exactly when the board says the game is over (the
        // 25-seed end aside, which this generator cannot reach).
        prop_assert_eq!(legal.is_empty(), pos.board_end(variant).is_some());
    }

    #[test]
    fn legal_houses_are_the_legal_moves(pos in position(), variant in variant()) {
        let set = pos.legal_moves(variant).iter().fold(0u8, |s, m| s | (1 << m.house()));
        prop_assert_eq!(pos.legal_houses(variant), set);
    }

    #[test]
    fn best_capture_is_the_largest_capture_of_a_legal_move(pos in position(), variant in variant()) {
        let slow = pos
            .legal_moves(variant)
            .iter()
            .map(|&mv| slow_play(&pos, mv, variant.grand_slam()).1)
            .max();
        prop_assert_eq!(pos.best_capture(variant), slow);
    }

    #[test]
    fn captures_are_what_each_move_captures(pos in position(), variant in variant()) {
        if let Some(captures) = pos.captures(variant) {
            let side = pos.side_to_move();
            for house in 0..6 {
                let mv = Move::of(side, house);
                // Under `Forbid` an illegal grand slam captures nothing, as
                // the slow rules say of any grand slam under that variant.
                let expected = match pos.pits()[mv.pit()] {
                    0 => 0,
                    _ => slow_play(&pos, mv, variant.grand_slam()).1,
                };
                prop_assert_eq!(captures.of(house), expected, "house {}", house);
            }
            let most = (0..6).map(|h| captures.of(h)).max().unwrap_or(0);
            prop_assert_eq!(captures.best(), most);
        } else {
            // Only where the starving rules decide the legal moves.
            let opponent_empty = pos.row_seeds(pos.side_to_move().opponent()) == 0;
            prop_assert!(opponent_empty || variant == Variant::Awari);
        }
    }

    #[test]
    fn a_quiet_move_is_sown_as_any_move(pos in position(), variant in variant()) {
        for &mv in pos.legal_moves(variant).iter() {
            let (after, captured) = pos.after(mv, variant);
            if captured == 0 {
                prop_assert_eq!(pos.after_quiet(mv, variant), after);
            }
        }
    }

    #[test]
    fn table_evaluator_matches_the_term_by_term_evaluation(
        pos in position(),
        best_capture in 0u8..=12,
        weights in proptest::array::uniform7(-200i32..=200),
    ) {
        let [store, own_seed, target, empty, mobility, kroo, threat] = weights;
        let params = EvalParams { store, own_seed, target, empty, mobility, kroo, threat };
        let fast = Evaluator::new(&params);
        prop_assert_eq!(
            fast.evaluate(&pos, best_capture),
            evaluate(&pos, best_capture, &params)
        );
        // The search adds the capture term last, and only when it may matter.
        prop_assert_eq!(
            fast.evaluate(&pos, 0) + fast.capture_term(best_capture),
            evaluate(&pos, best_capture, &params)
        );
        prop_assert_eq!(fast.captures_only_raise(), threat >= 0);
    }

    #[test]
    fn both_rows_holding_seeds_means_a_legal_move(pos in position(), variant in variant()) {
        if pos.both_rows_hold_seeds() {
            prop_assert!(!pos.legal_moves(variant).is_empty());
            prop_assert!(pos.best_capture(variant).is_some());
        }
        let rows = [Side::South, Side::North].map(|s| pos.row_seeds(s) > 0);
        prop_assert_eq!(pos.both_rows_hold_seeds(), rows == [true, true]);
    }

    #[test]
    fn keys_identify_pits_and_side(a in position(), b in position()) {
        let same = a.pits() == b.pits() && a.side_to_move() == b.side_to_move();
        prop_assert_eq!(a.key() == b.key(), same);
    }

    #[test]
    fn move_lists_round_trip(letters in proptest::collection::vec(0usize..12, 0..40)) {
        let moves: Vec<Move> = letters.into_iter().map(Move::new).collect();
        let text = format_moves(&moves);
        prop_assert_eq!(parse_moves(&text).unwrap(), moves.clone());
        let spaced: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(parse_moves(&spaced.join(" ")).unwrap(), moves);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_keep_invariants_and_round_trip_as_ogn(
        choices in proptest::collection::vec(0usize..6, 0..300),
        variant in variant(),
        start_north in any::<bool>(),
    ) {
        let rules = Rules::of(variant);
        let start = Position::START.with_side_to_move(if start_north { Side::North } else { Side::South });
        let mut game = Game::new(start, rules);
        for c in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let before = *game.position();
            let mv = legal[c % legal.len()];
            game.play(mv).unwrap();
            let after = game.position();
            let total = |p: &Position| p.seeds_on_board() + u32::from(p.stores()[0] + p.stores()[1]);
            prop_assert_eq!(total(after), total(&before));
            prop_assert!(after.store(Side::South) >= before.store(Side::South));
            prop_assert!(after.store(Side::North) >= before.store(Side::North));
        }
        if let Some(outcome) = game.outcome() {
            let [s, n] = game.position().stores();
            prop_assert_eq!(outcome.winner, match s.cmp(&n) {
                std::cmp::Ordering::Greater => Some(Side::South),
                std::cmp::Ordering::Less => Some(Side::North),
                std::cmp::Ordering::Equal => None,
            });
        }
        let record = GameRecord::from_game(&game, &[("Event", "property test"), ("South", "a \"quoted\" name")]);
        let parsed = GameRecord::parse(&record.to_string()).unwrap();
        prop_assert_eq!(&parsed, &record);
        let replayed = parsed.replay(rules).unwrap();
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.outcome(), game.outcome());
    }
}
