//! The rules, checked against the hand-worked examples in `tests/data/`.

mod common;

use oware::{EndReason, Game, MoveError, Position, Rules, Side, Variant, parse_moves};

fn reason(name: &str) -> EndReason {
    [
        EndReason::Majority,
        EndReason::NoSeeds,
        EndReason::CannotFeed,
        EndReason::Repetition,
        EndReason::MoveLimit,
    ]
    .into_iter()
    .find(|r| r.name() == name)
    .unwrap_or_else(|| panic!("unknown reason {name}"))
}

#[test]
fn worked_examples() {
    let rows = common::table("rules.txt");
    assert!(rows.len() >= 25);
    for (line, f) in rows {
        let variant: Variant = f[0].parse().unwrap();
        let limit = f.get(5).map(|k| k.parse().unwrap());
        let rules = Rules::of(variant).with_no_capture_limit(limit);
        let start: Position = f[1].parse().unwrap();
        let moves = if f[2] == "-" {
            vec![]
        } else {
            parse_moves(&f[2]).unwrap()
        };
        let mut game = Game::new(start, rules);
        game.play_all(&moves)
            .unwrap_or_else(|(i, e)| panic!("line {line}: move {i}: {e}"));
        assert_eq!(game.position().to_string(), f[3], "line {line}: position");
        let status: Vec<&str> = f[4].split_whitespace().collect();
        match status[..] {
            ["ongoing"] => {
                assert_eq!(game.outcome(), None, "line {line}");
                assert!(!game.legal_moves().is_empty(), "line {line}");
            }
            ["over", winner, why] => {
                let outcome = game
                    .outcome()
                    .unwrap_or_else(|| panic!("line {line}: not over"));
                let expected = match winner {
                    "S" => Some(Side::South),
                    "N" => Some(Side::North),
                    _ => None,
                };
                assert_eq!(outcome.winner, expected, "line {line}: winner");
                assert_eq!(outcome.reason, reason(why), "line {line}: reason");
                assert!(game.legal_moves().is_empty(), "line {line}");
            }
            _ => panic!("line {line}: bad status {}", f[4]),
        }
    }
}

fn error_kind(e: &MoveError) -> &'static str {
    match e {
        MoveError::WrongSide { .. } => "wrong-side",
        MoveError::EmptyPit(_) => "empty-pit",
        MoveError::MustFeed(_) => "must-feed",
        MoveError::GrandSlamForbidden(_) => "grand-slam",
        MoveError::LeavesOpponentEmpty(_) => "leaves-empty",
        MoveError::GameOver(_) => "game-over",
    }
}

#[test]
fn legal_moves_and_rejections() {
    let rows = common::table("legal.txt");
    assert!(rows.len() >= 10);
    for (line, f) in rows {
        let variant: Variant = f[0].parse().unwrap();
        let pos: Position = f[1].parse().unwrap();
        let legal: Vec<String> = pos
            .legal_moves(variant)
            .iter()
            .map(|m| m.to_string())
            .collect();
        let expected = if f[2] == "-" {
            String::new()
        } else {
            f[2].clone()
        };
        assert_eq!(legal.join(" "), expected, "line {line}: legal moves");
        for mv in pos.legal_moves(variant).iter() {
            assert_eq!(pos.check_move(*mv, variant), Ok(()), "line {line}");
        }
        if f[3] != "-" {
            let mv = parse_moves(&f[3]).unwrap()[0];
            let err = pos.check_move(mv, variant).unwrap_err();
            assert_eq!(error_kind(&err), f[4], "line {line}: {err}");
            let mut game = Game::new(pos, Rules::of(variant));
            let before = *game.position();
            let err = game.play(mv).unwrap_err();
            assert_eq!(error_kind(&err), f[4], "line {line}: {err}");
            assert_eq!(
                *game.position(),
                before,
                "line {line}: rejected move changed the game"
            );
        }
    }
}

#[test]
fn rejected_move_leaves_game_unchanged() {
    let mut game = Game::new(Position::START, Rules::ABAPA);
    game.play(parse_moves("F").unwrap()[0]).unwrap();
    let before = *game.position();
    assert!(game.play(parse_moves("A").unwrap()[0]).is_err());
    assert_eq!(*game.position(), before);
    assert_eq!(game.moves().len(), 1);
}

#[test]
fn repetition_rule_can_be_switched_off() {
    let start: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
    let mut rules = Rules::ABAPA;
    rules.repetition = false;
    let mut game = Game::new(start, rules);
    game.play_all(&parse_moves("FfAaBbCcDdEe").unwrap())
        .unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(*game.position(), start);
}
