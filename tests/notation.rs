//! Parsing: malformed input gives a clear typed error; OGN records with
//! comments and variations are read.

mod common;

use oware::ogn::{GameRecord, OgnError};
use oware::{NotationError, Position, Rules, parse_moves};

#[test]
fn malformed_positions_are_named() {
    let rows = common::table("bad_input.txt");
    assert!(rows.len() >= 9);
    for (line, f) in rows {
        let err = f[0].parse::<Position>().unwrap_err();
        assert!(
            err.to_string().contains(&f[1]),
            "line {line}: '{err}' lacks '{}'",
            f[1]
        );
    }
}

#[test]
fn bad_move_letters_are_named() {
    assert_eq!(parse_moves("FfGe"), Err(NotationError::BadMoveLetter('G')));
    assert_eq!(parse_moves("F f, B e").unwrap().len(), 4);
    assert_eq!(parse_moves("").unwrap(), vec![]);
}

const RECORD: &str = r#"[Event "Club match"]
[South "Ama"]
[North "Kofi"]
[Result "*"]

1. F f {a quiet start} 2. B (2. A e 3. B) e
3. C ; the rest of this line is a comment
a 4... xyz *
"#;

#[test]
fn ogn_skips_comments_and_variations() {
    let bad = RECORD.replace("4... xyz", "");
    let record = GameRecord::parse(&bad).unwrap();
    assert_eq!(record.tag("South"), Some("Ama"));
    assert_eq!(oware::format_moves(&record.moves), "FfBeCa");
    let game = record.replay(Rules::ABAPA).unwrap();
    assert_eq!(game.moves().len(), 6);
    // A stray token is reported, not ignored.
    assert_eq!(
        GameRecord::parse(RECORD),
        Err(OgnError::BadToken("xyz".into()))
    );
}

#[test]
fn ogn_errors_are_typed() {
    assert!(matches!(
        GameRecord::parse("[Event Club]\n\n1. F"),
        Err(OgnError::BadTag { line: 1, .. })
    ));
    assert_eq!(
        GameRecord::parse("1. F {open"),
        Err(OgnError::UnclosedComment)
    );
    assert_eq!(
        GameRecord::parse("1. F (f"),
        Err(OgnError::UnbalancedVariation)
    );
    let record = GameRecord::parse("[FEN \"1-2-3\"]\n\n1. F").unwrap();
    assert!(matches!(record.start(), Err(OgnError::BadFen(_))));
    let record = GameRecord::parse("1. F F").unwrap();
    assert!(matches!(
        record.replay(Rules::ABAPA),
        Err(OgnError::IllegalMove { number: 2, .. })
    ));
}

#[test]
fn ogn_from_a_set_up_position_with_north_first() {
    let start: Position = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N".parse().unwrap();
    let mut game = oware::Game::new(start, Rules::ABAPA);
    game.play_all(&parse_moves("fFe").unwrap()).unwrap();
    let text = GameRecord::from_game(&game, &[]).to_string();
    assert!(
        text.contains("[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-N\"]"),
        "{text}"
    );
    assert!(text.contains("1... f 2. F e *"), "{text}");
    let back = GameRecord::parse(&text)
        .unwrap()
        .replay(Rules::ABAPA)
        .unwrap();
    assert_eq!(back.position(), game.position());
}
