//! OGN records as the Aualé GUI writes them: capture marks, seed-count
//! results, comments holding `;`, variations and set-up positions are read;
//! what we write follows the GUI's tag order and reads back.

mod common;

use std::path::PathBuf;

use oware::ogn::{GameRecord, OgnError};
use oware::{Game, Position, Rules, Side, parse_moves};

fn record_text(file: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ogn")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn winner_name(game: &Game) -> &'static str {
    match game.outcome() {
        None => "ongoing",
        Some(o) => match o.winner {
            Some(Side::South) => "S",
            Some(Side::North) => "N",
            None => "draw",
        },
    }
}

#[test]
fn gui_records_replay_to_the_expected_final_position() {
    let rows = common::table("ogn_games.txt");
    assert!(rows.len() >= 4);
    for (line, f) in rows {
        let record = GameRecord::parse(&record_text(&f[0]))
            .unwrap_or_else(|e| panic!("line {line}: {}: {e}", f[0]));
        let variant = record
            .variant()
            .unwrap_or_else(|| panic!("line {line}: {}: no known Variant tag", f[0]));
        let game = record
            .replay(Rules::of(variant))
            .unwrap_or_else(|e| panic!("line {line}: {}: {e}", f[0]));
        assert_eq!(
            game.moves().len().to_string(),
            f[1],
            "line {line}: {}",
            f[0]
        );
        assert_eq!(game.position().to_string(), f[2], "line {line}: {}", f[0]);
        assert_eq!(winner_name(&game), f[3], "line {line}: {}", f[0]);
        // The Result tag the GUI wrote is the one we would write.
        let ours = GameRecord::from_game(&game, &[]);
        assert_eq!(
            record.tag("Result"),
            ours.tag("Result"),
            "line {line}: {}",
            f[0]
        );
        // Every capturing move of these records carries its mark.
        assert_eq!(record.captures, ours.captures, "line {line}: {}", f[0]);
        // And the CLI reads the file to the same position.
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/ogn")
            .join(&f[0]);
        let rules = oware::rules::Variant::name(variant);
        let out = common::stdout(&[
            "show",
            "--ogn",
            path.to_str().unwrap(),
            "--rules",
            rules,
            "--json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["position"], f[2].as_str(), "line {line}: {}", f[0]);
    }
}

#[test]
fn a_wrong_capture_mark_is_a_typed_error() {
    let text = record_text("club-final.ogn");
    assert!(text.contains("28. B d+9"));
    let wrong = GameRecord::parse(&text.replace("28. B d+9", "28. B d+8")).unwrap();
    assert_eq!(
        wrong.replay(Rules::ABAPA).unwrap_err(),
        OgnError::CaptureMismatch {
            number: 56,
            mv: oware::Move::from_letter('d').unwrap(),
            marked: 8,
            captured: 9,
        }
    );
    // A mark on a move that captures nothing.
    let wrong = GameRecord::parse(&text.replace("1. B e", "1. B+1 e")).unwrap();
    assert!(matches!(
        wrong.replay(Rules::ABAPA),
        Err(OgnError::CaptureMismatch {
            number: 1,
            marked: 1,
            captured: 0,
            ..
        })
    ));
    // No mark at all is not checked.
    let unmarked = GameRecord::parse(&text.replace("d+9", "d")).unwrap();
    assert!(unmarked.replay(Rules::ABAPA).is_ok());
    // The CLI reports it on one line with exit code 2.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wrong.ogn");
    std::fs::write(&path, text.replace("d+9", "d+8")).unwrap();
    common::fails(
        &["show", "--ogn", path.to_str().unwrap()],
        "marked +8 but captures 9",
    );
}

#[test]
fn malformed_capture_marks_and_results_are_bad_tokens() {
    for token in [
        "a+", "a+x", "+2", "a+49", "a+123", "a++2", "25-49", "25-", "-20", "1-2-3",
    ] {
        assert_eq!(
            GameRecord::parse(&format!("1. F {token}")),
            Err(OgnError::BadToken(token.to_string())),
            "{token}"
        );
    }
    for result in ["1-0", "0-1", "1/2-1/2", "*", "25-20", "24-24", "0-0"] {
        let record = GameRecord::parse(&format!("1. F f {result}")).unwrap();
        assert_eq!(oware::format_moves(&record.moves), "Ff", "{result}");
    }
    let record = GameRecord::parse("1. F f 2. A+2! e").unwrap();
    assert_eq!(record.captures, vec![None, None, Some(2), None]);
}

#[test]
fn comments_after_moves_are_written_and_read_past() {
    let mut record = GameRecord::parse("1. F f 2. B e").unwrap();
    record.comments = vec![
        Some("0.250s".into()),
        Some("two\n\nlines".into()),
        Some("a {b} }".into()),
    ];
    let text = record.to_string();
    assert!(
        text.contains("1. F {0.250s} f {two  lines} 2. B {a (b) )} e"),
        "{text}"
    );
    let back = GameRecord::parse(&text).unwrap();
    assert_eq!((back.moves, back.captures), (record.moves, record.captures));
    assert!(back.comments.is_empty());
}

#[test]
fn semicolons_inside_braces_do_not_start_a_comment() {
    let record = GameRecord::parse("1. F f { good; move } 2. B e").unwrap();
    assert_eq!(oware::format_moves(&record.moves), "FfBe");
    let record = GameRecord::parse("1. F f { a {nested; one} still comment } 2. B e").unwrap();
    assert_eq!(oware::format_moves(&record.moves), "FfBe");
    // Outside braces `;` still runs to the end of the line, braces included.
    let record = GameRecord::parse("1. F f ; 2. B { e\n2. C d").unwrap();
    assert_eq!(oware::format_moves(&record.moves), "FfCd");
    assert_eq!(
        GameRecord::parse("1. F f { open {nested} 2. B e"),
        Err(OgnError::UnclosedComment)
    );
    assert_eq!(
        GameRecord::parse("1. F f } 2. B e"),
        Err(OgnError::BadToken("}".into()))
    );
}

#[test]
fn written_records_follow_the_gui_and_read_back() {
    let start: Position = "0-3-0-2-0-1-4-0-0-1-2-3-10-12-N".parse().unwrap();
    let mut game = Game::new(start, Rules::ABAPA);
    game.play_all(&parse_moves("eBdAaFaDeAf").unwrap()).unwrap();
    let record = GameRecord::from_game(
        &game,
        &[("South", "Ama"), ("Annotator", "me"), ("Result", "1-0")],
    );
    let text = record.to_string();
    let expected_head = "[Variant \"Abapa\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"?\"]\n\
        [Round \"?\"]\n[South \"Ama\"]\n[North \"?\"]\n[Result \"*\"]\n\
        [FEN \"0-3-0-2-0-1-4-0-0-1-2-3-10-12-N\"]\n[Annotator \"me\"]\n\n";
    assert!(text.starts_with(expected_head), "{text}");
    assert!(
        text.contains("1... e 2. B d 3. A a 4. F a 5. D e 6. A f+3 *"),
        "{text}"
    );
    let back = GameRecord::parse(&text).unwrap();
    assert_eq!(back, record);
    assert_eq!(
        back.replay(Rules::ABAPA).unwrap().position(),
        game.position()
    );

    // A finished game: the Result is the final stores.
    let record = GameRecord::parse(&record_text("club-final.ogn")).unwrap();
    let game = record.replay(Rules::ABAPA).unwrap();
    let ours = GameRecord::from_game(&game, &[]);
    assert_eq!(ours.tag("Result"), Some("6-28"));
    assert!(ours.to_string().contains("28. B d+9 6-28"), "{ours}");
    let awari = GameRecord::from_game(&Game::new(Position::START, Rules::AWARI), &[]);
    assert_eq!(awari.tag("Variant"), Some("Awari"));
    assert_eq!(awari.variant(), Some(oware::Variant::Awari));
}

#[test]
fn the_cli_writes_gui_style_records() {
    let text = common::stdout(&["show", "--moves", "BeAcAeEdD", "--emit-ogn"]);
    let tags: Vec<&str> = text
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        tags,
        [
            "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result"
        ]
    );
    assert!(text.contains("5. D+3 *"), "{text}");
}

fn variant() -> impl proptest::strategy::Strategy<Value = oware::Variant> {
    proptest::sample::select(oware::Variant::ALL.to_vec())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

    /// Random legal games, with random tag values, written and read back:
    /// the same tags (in the GUI's order), moves and capture marks, and the
    /// same final position and outcome on replay.
    #[test]
    fn written_records_round_trip(
        choices in proptest::collection::vec(0usize..6, 0..250),
        variant in variant(),
        north_first in proptest::prelude::any::<bool>(),
        south in "[^\n\r]{0,12}",
        event in "[ -~]{0,12}",
    ) {
        let rules = Rules::of(variant);
        let side = if north_first { Side::North } else { Side::South };
        let mut game = Game::new(Position::START.with_side_to_move(side), rules);
        let mut captures = Vec::new();
        for c in choices {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            let taken = game.play(legal[c % legal.len()]).unwrap();
            captures.push((taken > 0).then_some(taken));
        }
        let record = GameRecord::from_game(&game, &[("South", &south), ("Event", &event)]);
        let names: Vec<&str> = record.tags.iter().take(8).map(|(k, _)| k.as_str()).collect();
        proptest::prop_assert_eq!(names, oware::ogn::ROSTER.to_vec());
        proptest::prop_assert_eq!(record.tag("South"), Some(south.as_str()));
        proptest::prop_assert_eq!(&record.captures, &captures);
        let parsed = GameRecord::parse(&record.to_string()).unwrap();
        proptest::prop_assert_eq!(&parsed, &record);
        proptest::prop_assert_eq!(parsed.variant(), Some(variant));
        let replayed = parsed.replay(rules).unwrap();
        proptest::prop_assert_eq!(replayed.position(), game.position());
        proptest::prop_assert_eq!(replayed.outcome(), game.outcome());
    }
}
