//! A fuzzing harness for every parser that takes outside input: position
//! strings, move lists, OGN records (parsing and replaying) and the command
//! line. Inputs are random bytes, random text over each parser's alphabet,
//! random token soups and mutations (insert, delete, replace a character) of
//! valid inputs. Every input must give a typed error or a valid result,
//! never a panic.
//!
//! The default run is short (256 cases a property, a few seconds in debug).
//! The long run is `#[ignore]`d and takes its case count from
//! `OWARE_FUZZ_CASES`:
//!
//! ```sh
//! OWARE_FUZZ_CASES=1000000 cargo test --release --test fuzz -- --ignored
//! ```

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use oware::ogn::GameRecord;
use oware::{Position, Rules, Variant, format_moves, parse_moves};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Cases a property in the default run.
const SHORT_CASES: u32 = 256;

/// Valid position strings to mutate.
const POSITIONS: [&str; 6] = [
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N",
    "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S",
    "0-3-0-2-0-1-4-0-0-1-2-3-10-12-N",
    "1-1-1-1-1-2-4-2-3-0-0-0-0-0-S",
    "0-0-0-0-0-0-0-0-0-0-0-0-24-24-N",
];

/// Valid move lists to mutate.
const MOVE_LISTS: [&str; 4] = [
    "FfBe",
    "F f B e",
    "BeAcAeEdDbAeBdFeBdDbCcAaAfAdFbDaFbEdBcBbFcAeEaCfCaDeFbBd",
    "D, e, E, d",
];

/// Valid OGN records to mutate: the GUI-style records of the data folder.
const RECORDS: [&str; 5] = [
    include_str!("data/ogn/club-final.ogn"),
    include_str!("data/ogn/set-up-repetition.ogn"),
    include_str!("data/ogn/awari.ogn"),
    include_str!("data/ogn/unfinished.ogn"),
    "[Event \"x\"]\n\n1. F f { a; b } 2. B (2. A e) e ; end\n3. C a+2 *\n",
];

const POSITION_ALPHABET: &str = "0123456789--------SN sn+x";
const MOVE_ALPHABET: &str = "ABCDEFabcdefGgSN ,-09+";
const OGN_ALPHABET: &str = "ABCDEFabcdef0123456789-+.*/!? \n[]{}()\";\\SNVariantEvntFE_";

/// Position-string tokens for the token soup.
const POSITION_TOKENS: [&str; 10] = [
    "4",
    "0",
    "48",
    "49",
    "99999999999999999999",
    "-",
    "-",
    "S",
    "N",
    " ",
];

/// OGN tokens for the token soup.
const OGN_TOKENS: [&str; 28] = [
    "[Variant \"Abapa\"]\n",
    "[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-N\"]\n",
    "[FEN \"0-0-0-0-0-0-1-2-0-0-0-0-20-20-S\"]\n",
    "[South \"a \\\"b\\\"\"]\n",
    "[Bad tag]\n",
    "\n",
    " ",
    "1.",
    "2...",
    "F",
    "f",
    "A",
    "e",
    "a+2",
    "D+3",
    "b+48",
    "+",
    "{",
    "}",
    "(",
    ")",
    ";",
    "25-20",
    "24-24",
    "1/2-1/2",
    "*",
    "1-0",
    "!?",
];

fn chars_of(alphabet: &'static str) -> Vec<char> {
    alphabet.chars().collect()
}

/// Random bytes read as (lossy) UTF-8.
fn random_bytes() -> impl Strategy<Value = String> {
    proptest::collection::vec(any::<u8>(), 0..160)
        .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Random text over `alphabet`.
fn random_text(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(chars_of(alphabet)), 0..max)
        .prop_map(|c| c.into_iter().collect())
}

/// Random sequences of `tokens`.
fn token_soup(tokens: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(tokens), 0..max).prop_map(|t| t.concat())
}

/// One edit of a string: what to do, where (modulo the length) and with which
/// character.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
}

fn edit(alphabet: &'static str) -> impl Strategy<Value = Edit> {
    // Mostly the parser's alphabet, sometimes any character.
    let c = prop_oneof![
        4 => proptest::sample::select(chars_of(alphabet)),
        1 => any::<char>(),
    ];
    (0u8..3, any::<usize>(), c).prop_map(|(op, at, c)| match op {
        0 => Edit::Insert(at, c),
        1 => Edit::Delete(at),
        _ => Edit::Replace(at, c),
    })
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match *e {
            Edit::Insert(at, c) => chars.insert(at % (chars.len() + 1), c),
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at % chars.len());
            }
            Edit::Replace(at, c) if !chars.is_empty() => {
                let i = at % chars.len();
                chars[i] = c;
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Valid inputs with 1..4 random edits.
fn mutated(
    valid: &'static [&'static str],
    alphabet: &'static str,
) -> impl Strategy<Value = String> {
    (
        proptest::sample::select(valid),
        proptest::collection::vec(edit(alphabet), 1..4),
    )
        .prop_map(|(text, edits)| apply(text, &edits))
}

/// Every kind of input for a parser, half of them mutations.
fn inputs(
    valid: &'static [&'static str],
    alphabet: &'static str,
    tokens: &'static [&'static str],
) -> impl Strategy<Value = String> {
    prop_oneof![
        1 => random_bytes(),
        1 => random_text(alphabet, 80),
        1 => token_soup(tokens, 40),
        3 => mutated(valid, alphabet),
    ]
}

/// Position strings of the right shape with random counts (whose total is
/// sometimes above 48) and a random side letter.
fn shaped_position() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(0u32..7, 12),
        proptest::collection::vec(0u32..12, 2),
        proptest::sample::select(&["S", "N", "s", "X", ""][..]),
    )
        .prop_map(|(pits, stores, side)| {
            let counts: Vec<String> = pits.iter().chain(&stores).map(u32::to_string).collect();
            format!("{}-{side}", counts.join("-"))
        })
}

fn position_inputs() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => inputs(&POSITIONS, POSITION_ALPHABET, &POSITION_TOKENS),
        1 => shaped_position(),
    ]
}

fn move_inputs() -> impl Strategy<Value = String> {
    const MOVE_TOKENS: [&str; 8] = ["F", "f", "A", "e", " ", ",", "G", "1"];
    inputs(&MOVE_LISTS, MOVE_ALPHABET, &MOVE_TOKENS)
}

fn ogn_inputs() -> impl Strategy<Value = String> {
    inputs(&RECORDS, OGN_ALPHABET, &OGN_TOKENS)
}

/// A parsed position is valid: at most 48 seeds, and printing and parsing it
/// again gives it back.
fn check_position(text: &str) -> Result<bool, TestCaseError> {
    match text.parse::<Position>() {
        Ok(pos) => {
            let [south, north] = pos.stores();
            prop_assert!(pos.seeds_on_board() + u32::from(south) + u32::from(north) <= 48);
            let again: Position = pos
                .to_string()
                .parse()
                .map_err(|e| TestCaseError::fail(format!("{pos} does not re-parse: {e}")))?;
            prop_assert_eq!(again, pos);
            Ok(true)
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            Ok(false)
        }
    }
}

/// A parsed move list prints and parses back to itself.
fn check_moves(text: &str) -> Result<bool, TestCaseError> {
    match parse_moves(text) {
        Ok(moves) => {
            prop_assert!(moves.len() <= text.chars().count());
            prop_assert_eq!(parse_moves(&format_moves(&moves)), Ok(moves));
            Ok(true)
        }
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            Ok(false)
        }
    }
}

/// A parsed record prints and parses back to itself, and replays under every
/// rule set to a game of all its moves or a typed error.
fn check_ogn(text: &str) -> Result<bool, TestCaseError> {
    let record = match GameRecord::parse(text) {
        Ok(record) => record,
        Err(e) => {
            prop_assert!(!e.to_string().is_empty());
            return Ok(false);
        }
    };
    let printed = record.to_string();
    let again = GameRecord::parse(&printed)
        .map_err(|e| TestCaseError::fail(format!("re-parse of\n{printed}\nfailed: {e}")))?;
    prop_assert_eq!(&again, &record);
    let mut replays = false;
    for variant in Variant::ALL {
        match record.replay(Rules::of(variant)) {
            Ok(game) => {
                prop_assert_eq!(game.moves(), record.moves.as_slice());
                replays = true;
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
    Ok(replays)
}

/// Runs `check` on `cases` inputs from `strategy`, failing with the
/// (shrunk) input that broke it. Each share of inputs, accepted (parsed, or
/// for OGN replayed) and rejected, must be a real one: a harness whose inputs
/// all fail (or all pass) tests little.
fn fuzz<S: Strategy<Value = String>>(
    cases: u32,
    strategy: S,
    check: fn(&str) -> Result<bool, TestCaseError>,
) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let accepted = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |text| {
        accepted.set(accepted.get() + u32::from(check(&text)?));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let accepted = accepted.get();
    eprintln!("{accepted} of {cases} inputs accepted");
    assert!(
        accepted >= cases / 50,
        "only {accepted} of {cases} inputs accepted"
    );
    assert!(
        accepted <= cases - cases / 50,
        "{accepted} of {cases} inputs accepted"
    );
}

#[test]
fn position_strings_never_panic() {
    fuzz(SHORT_CASES, position_inputs(), check_position);
}

#[test]
fn move_lists_never_panic() {
    fuzz(SHORT_CASES, move_inputs(), check_moves);
}

#[test]
fn ogn_records_never_panic() {
    fuzz(SHORT_CASES, ogn_inputs(), check_ogn);
}

/// The checks pass on valid inputs, and edits do change an input.
#[test]
fn the_checks_accept_valid_inputs_and_edits_apply() {
    assert!(check_position("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S").is_ok());
    assert!(check_moves("FfBe").is_ok());
    assert!(check_ogn(RECORDS[0]).is_ok());
    // Mutations change the input (else the mutation share tests nothing).
    let edited = apply(POSITIONS[0], &[Edit::Replace(0, '9'), Edit::Delete(3)]);
    assert_eq!(edited, "9-44-4-4-4-4-4-4-4-4-4-0-0-S");
    assert!(edited.parse::<Position>().is_err());
}

/// The long run: `OWARE_FUZZ_CASES` cases a property (default 100,000).
#[test]
#[ignore]
fn long_fuzz_run() {
    let cases = std::env::var("OWARE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    fuzz(cases, position_inputs(), check_position);
    fuzz(cases, move_inputs(), check_moves);
    fuzz(cases, ogn_inputs(), check_ogn);
}

// ---- the command line ----

/// Longest a single run of the binary may take.
const RUN_LIMIT: Duration = Duration::from_secs(10);

/// Runs the binary with `args`, killing it (and failing) after `RUN_LIMIT`.
/// Returns the exit code (`None` when killed by a signal) and stderr.
fn run_limited(args: &[String]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oware");
    // Drain both pipes so a chatty run cannot block on a full pipe.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = stdout.read_to_end(&mut sink);
    });
    let err = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let status = common::wait_within(&mut child, RUN_LIMIT, &format!("oware {args:?}"));
    let _ = out.join();
    (status.code(), err.join().unwrap_or_default())
}

/// A position argument: valid, mutated, junk, `startpos` or none.
fn position_arg() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        4 => proptest::sample::select(&POSITIONS[..]).prop_map(|p| vec![p.to_string()]),
        2 => mutated(&POSITIONS, POSITION_ALPHABET).prop_map(|p| vec![p]),
        1 => random_text(POSITION_ALPHABET, 30).prop_map(|p| vec![p]),
        1 => Just(vec!["startpos".to_string()]),
        2 => Just(vec![]),
    ]
}

fn pair(flag: &'static str, values: &'static [&'static str]) -> impl Strategy<Value = Vec<String>> {
    proptest::sample::select(values).prop_map(move |v| vec![flag.to_string(), v.to_string()])
}

fn flag(name: &'static str) -> impl Strategy<Value = Vec<String>> {
    Just(vec![name.to_string()])
}

const RULES: [&str; 5] = [
    "abapa",
    "awari",
    "grand-slam-forbidden",
    "capture-and-end",
    "bogus",
];

/// Junk arguments: random text, unknown flags, lone flag names.
fn junk() -> impl Strategy<Value = Vec<String>> {
    prop_oneof![
        random_text(OGN_ALPHABET, 12).prop_map(|j| vec![j]),
        proptest::sample::select(&["--bogus", "--", "-x", "--json=3", "", "--rules"][..])
            .prop_map(|j| vec![j.to_string()]),
    ]
}

/// Some of the option units of one command (each a flag with its value;
/// each unit at most once, about one in three), then junk one time in four.
fn options(units: Vec<BoxedStrategy<Vec<String>>>) -> impl Strategy<Value = Vec<String>> {
    let n = units.len();
    (
        proptest::collection::vec(proptest::bool::weighted(0.35), n),
        units,
        proptest::collection::vec(junk(), 1..3),
        proptest::bool::weighted(0.25),
    )
        .prop_map(|(picks, units, junk, with_junk)| {
            let mut args: Vec<String> = picks
                .iter()
                .zip(units)
                .filter(|(pick, _)| **pick)
                .flat_map(|(_, unit)| unit)
                .collect();
            if with_junk {
                args.extend(junk.into_iter().flatten());
            }
            args
        })
}

/// An argument vector for `show`, `perft` or `probe`. `ogn` is a file of a
/// mutated record and `tables` a folder of small tables (levels 0..4).
fn cli_args(ogn: String, tables: String, empty: String) -> impl Strategy<Value = Vec<String>> {
    let move_list = prop_oneof![
        2 => proptest::sample::select(&MOVE_LISTS[..]).prop_map(|m| vec!["--moves".to_string(), m.to_string()]),
        1 => mutated(&MOVE_LISTS, MOVE_ALPHABET).prop_map(|m| vec!["--moves".to_string(), m]),
        2 => Just(vec![]),
    ];
    // The start of `show`: a position or an OGN file, rarely both (a usage
    // error).
    let ogn_arg = vec!["--ogn".to_string(), ogn];
    let show_start = prop_oneof![
        3 => position_arg(),
        2 => Just(ogn_arg.clone()),
        1 => position_arg().prop_map(move |p| [p, ogn_arg.clone()].concat()),
    ];
    // The output: one of the exclusive modes, rarely two (a usage error).
    let mode = prop_oneof![
        3 => proptest::sample::select(&["--json", "--trace", "--emit-ogn"][..])
            .prop_map(|m| vec![m.to_string()]),
        1 => proptest::sample::subsequence(vec!["--json", "--trace", "--emit-ogn"], 2)
            .prop_map(|m| m.into_iter().map(str::to_string).collect()),
    ];
    let show = options(vec![
        mode.boxed(),
        pair("--rules", &RULES).boxed(),
        pair("--no-capture-limit", &["0", "1", "5", "x", "-1"]).boxed(),
        flag("--no-repetition").boxed(),
    ]);
    let depth = prop_oneof![
        4 => proptest::sample::select(&["1", "2", "3"][..]),
        1 => proptest::sample::select(&["0", "x", "-1", ""][..]),
    ]
    .prop_map(|d| vec!["--depth".to_string(), d.to_string()]);
    let perft = options(vec![
        flag("--divide").boxed(),
        pair("--threads", &["1", "2", "0", "x"]).boxed(),
        pair("--rules", &RULES).boxed(),
        flag("--no-repetition").boxed(),
    ]);
    let dir = prop_oneof![
        3 => Just(vec!["--dir".to_string(), tables]),
        1 => Just(vec!["--dir".to_string(), empty]),
    ];
    let probe = options(vec![
        pair("--rules", &RULES).boxed(),
        flag("--json").boxed(),
    ]);
    let small = prop_oneof![
        2 => proptest::sample::select(
            &["0-0-0-0-0-0-1-2-0-0-0-0-20-20-S", "1-0-0-0-0-0-0-1-1-1-0-0-22-22-N"][..]
        )
        .prop_map(|p| vec![p.to_string()]),
        1 => position_arg(),
    ];
    let word = |w: &str| vec![w.to_string()];
    prop_oneof![
        (show_start, move_list, show).prop_map(move |(p, m, o)| [word("show"), p, m, o].concat()),
        (position_arg(), depth, perft).prop_map(move |(p, d, o)| [word("perft"), p, d, o].concat()),
        (small, dir, probe).prop_map(move |(p, d, o)| [word("probe"), p, d, o].concat()),
    ]
}

#[test]
fn the_command_line_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let tables_arg = tables.to_str().unwrap().to_string();
    let built = run_limited(&[
        "build".into(),
        "--max-seeds".into(),
        "4".into(),
        "--dir".into(),
        tables_arg.clone(),
        "--quiet".into(),
    ]);
    assert_eq!(built.0, Some(0), "build: {}", built.1);
    // A mutated record for `show --ogn` (rewritten for each case below).
    let ogn = dir.path().join("game.ogn");
    let record = (
        proptest::sample::select(&RECORDS[..]),
        proptest::collection::vec(edit(OGN_ALPHABET), 0..4),
    );
    let strategy = (
        record,
        cli_args(
            ogn.to_str().unwrap().to_string(),
            tables_arg,
            empty.to_str().unwrap().to_string(),
        ),
    );
    let mut runner = TestRunner::new(Config {
        cases: 100,
        failure_persistence: None,
        ..Config::default()
    });
    let started = Instant::now();
    let successes = std::cell::Cell::new(0u32);
    let result = runner.run(&strategy, |((text, edits), args)| {
        std::fs::write(&ogn, apply(text, &edits)).unwrap();
        // An argument cannot hold a NUL byte (the OS refuses it).
        let args: Vec<String> = args.iter().map(|a| a.replace('\0', "")).collect();
        let (code, stderr) = run_limited(&args);
        prop_assert!(
            matches!(code, Some(0) | Some(2)),
            "oware {:?}: exit {:?}, stderr {}",
            args,
            code,
            stderr
        );
        prop_assert!(!stderr.contains("panicked"), "oware {:?}: {}", args, stderr);
        if code == Some(2) {
            prop_assert!(
                !stderr.trim().is_empty(),
                "oware {:?}: exit 2, no message",
                args
            );
        }
        successes.set(successes.get() + u32::from(code == Some(0)));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let successes = successes.get();
    eprintln!(
        "100 command lines in {:?}, {successes} succeeded",
        started.elapsed()
    );
    // Both outcomes occur: the vectors reach real work, not only usage errors.
    assert!(
        (5..=95).contains(&successes),
        "{successes} of 100 succeeded"
    );
}
