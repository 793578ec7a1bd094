//! The searcher: it keeps table values, proves small endgames on its own,
//! respects time limits, and its transposition table never mixes positions.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use oware::search::tt::{Bound, Entry, LocalTable, TranspositionTable};
use oware::search::{Engine, EvalChoice, EvalParams, Limits, PROVEN};
use oware::tb::index::{level_size, unrank};
use oware::tb::probe::{Verdict, probe};
use oware::tb::{BuildOptions, Tablebase, build};
use oware::{Game, Position, Rules, Side, Variant};

fn tables(max: usize) -> (tempfile::TempDir, Arc<Tablebase>) {
    let dir = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        dir: dir.path(),
        variant: Variant::Abapa,
        max_seeds: max,
        progress: false,
        format: Default::default(),
        recheck: oware::tb::Recheck::All,
    };
    build(&opts, |_| {}).unwrap();
    let tb = Tablebase::open(dir.path(), Variant::Abapa).unwrap();
    (dir, Arc::new(tb))
}

/// A random table board as a position with South to move and the captured
/// seeds split at random.
fn random_position(rng: &mut common::Rng, n: usize) -> Position {
    let board = unrank(rng.next() % level_size(n), n);
    let captured = 48 - n as u8;
    let south = (rng.below(captured as usize + 1)) as u8;
    Position::new(board, [south, captured - south], Side::South).unwrap()
}

fn class(v: Verdict) -> u8 {
    match v {
        Verdict::ForcedWin => 2,
        Verdict::ForcedDraw | Verdict::DependsOnHistory => 1,
        Verdict::ForcedLoss => 0,
    }
}

#[test]
fn chosen_moves_keep_the_table_value() {
    let (_dir, tb) = tables(10);
    let engine: Engine = Engine::new(4, 1, Some(Arc::clone(&tb)));
    let mut rng = common::Rng(0xC0FF_EE12_3456_789B);
    let mut checked = 0;
    while checked < 150 {
        let n = 3 + rng.below(8);
        let pos = random_position(&mut rng, n);
        let game = Game::new(pos, Rules::ABAPA);
        if game.outcome().is_some() || game.legal_moves().len() < 2 {
            continue;
        }
        let report = probe(&tb, &pos).unwrap();
        let best_class = report.moves.iter().map(|m| class(m.verdict)).max().unwrap();
        engine.clear();
        let result = engine.search(&game, &Limits::depth(4), |_| {}).unwrap();
        let chosen = result.best.unwrap().to_string();
        let played = report
            .moves
            .iter()
            .find(|m| m.mv.as_deref() == Some(chosen.as_str()))
            .unwrap();
        assert!(
            class(played.verdict) >= best_class,
            "{pos}: chose {chosen} ({:?}) but a move is {best_class}",
            played.verdict
        );
        checked += 1;
    }
}

#[test]
fn deep_search_without_tables_finds_the_exact_table_result() {
    let (_dir, tb) = tables(6);
    // Two threads share the work out (`Features::defer`) and must prove
    // the same results.
    for threads in [1, 2] {
        deep_search_proves_table_results(&tb, threads);
    }
}

fn deep_search_proves_table_results(tb: &Tablebase, threads: usize) {
    let engine: Engine = Engine::new(16, threads, None);
    let mut rng = common::Rng(0x1234_5678_9ABC_DEF1);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 40 && tries < 5000 {
        tries += 1;
        let n = 2 + rng.below(5);
        let pos = random_position(&mut rng, n);
        let game = Game::new(pos, Rules::ABAPA);
        if game.outcome().is_some() {
            continue;
        }
        let report = probe(tb, &pos).unwrap();
        let expected = match (report.exact, report.verdict) {
            (true, Verdict::ForcedWin) => 1,
            (true, Verdict::ForcedLoss) => -1,
            _ => continue,
        };
        if game.legal_moves().len() == 1 {
            continue; // answered without searching
        }
        // Threads race: which one finishes a depth first, and with which
        // score, varies from run to run, so several threads search each
        // position several times.
        for _ in 0..if threads > 1 { 4 } else { 1 } {
            engine.clear();
            let result = engine.search(&game, &Limits::depth(60), |_| {}).unwrap();
            let score = result.last.score;
            assert!(
                score.abs() >= PROVEN && score.signum() == expected,
                "{pos} ({threads} threads): score {score}, tables say {expected}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} positions checked");
}

#[test]
fn time_limits_are_respected() {
    let engine: Engine = Engine::new(16, 1, None);
    let game = Game::new(Position::START, Rules::ABAPA);
    for ms in [50u64, 300] {
        let started = Instant::now();
        let result = engine
            .search(&game, &Limits::movetime(Duration::from_millis(ms)), |_| {})
            .unwrap();
        let took = started.elapsed();
        assert!(result.best.is_some());
        // A generous margin for a slow or busy machine.
        assert!(
            took < Duration::from_millis(ms + 250),
            "{ms} ms search took {took:?}"
        );
        assert!(
            took >= Duration::from_millis(ms / 2),
            "{ms} ms search stopped after {took:?}"
        );
    }
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let engine: Arc<Engine> = Arc::new(Engine::new(16, 2, None));
    let flag = engine.stop_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let started = Instant::now();
    let game = Game::new(Position::START, Rules::ABAPA);
    // Wait until the stopper has had time to reset nothing: the engine clears
    // the flag at the start, so start first and stop after.
    let result = engine.search(&game, &Limits::default(), |_| {}).unwrap();
    stopper.join().unwrap();
    assert!(result.best.is_some());
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[test]
fn forced_moves_and_finished_games() {
    let engine: Engine = Engine::new(1, 1, None);
    // Only F feeds North.
    let pos: Position = "0-0-0-0-1-6-0-0-0-0-0-0-10-10-S".parse().unwrap();
    let game = Game::new(pos, Rules::ABAPA);
    let result = engine.search(&game, &Limits::depth(30), |_| {}).unwrap();
    assert_eq!(result.best.unwrap().to_string(), "F");
    assert_eq!(result.last.depth, 0);
    let over = Game::new(
        "0-0-0-0-0-0-1-2-0-0-0-0-20-20-S".parse().unwrap(),
        Rules::ABAPA,
    );
    assert!(engine.search(&over, &Limits::depth(3), |_| {}).is_err());
}

#[test]
fn the_search_never_plays_an_illegal_move() {
    let engine: Engine = Engine::new(4, 1, None);
    let mut rng = common::Rng(42);
    for variant in Variant::ALL {
        let mut game = Game::new(Position::START, Rules::of(variant));
        while game.outcome().is_none() && game.moves().len() < 120 {
            let result = engine
                .search(&game, &Limits::depth(1 + rng.below(4) as u32), |_| {})
                .unwrap();
            let mv = result.best.unwrap();
            assert!(
                game.legal_moves().contains(&mv),
                "{variant}: {mv} in {}",
                game.position()
            );
            game.play(mv).unwrap();
        }
    }
}

/// Stores 200,000 random entries through `store` and checks that `probe`
/// returns each one's own data or nothing, never another key's; returns
/// how many it kept.
fn check_verification(probe: impl Fn(u64) -> Option<Entry>, store: impl Fn(u64, Entry)) -> usize {
    let mut rng = common::Rng(7);
    let mut stored = std::collections::HashMap::new();
    for i in 0..200_000u32 {
        let key = rng.next() | 1;
        let entry = Entry::new(
            (i % 20_000) as i16,
            (i % 60) as u8,
            Bound::Exact,
            Some((i % 6) as u8),
        );
        store(key, entry);
        stored.insert(key, entry);
    }
    let mut hits = 0;
    for (&key, &entry) in &stored {
        if let Some(found) = probe(key) {
            assert_eq!(
                (found.score, found.depth, found.house),
                (entry.score, entry.depth, entry.house)
            );
            hits += 1;
        }
        assert!(
            probe(key ^ 0x8000_0000_0000_0000).is_none()
                || stored.contains_key(&(key ^ 0x8000_0000_0000_0000))
        );
    }
    hits
}

#[test]
fn transposition_table_never_returns_another_positions_entry() {
    let tt = TranspositionTable::new(1);
    let hits = check_verification(|k| tt.probe(k), |k, e| tt.store(k, e));
    assert!(hits > 10_000, "only {hits} entries kept");
}

#[test]
fn local_table_never_returns_another_positions_entry() {
    let local = LocalTable::new();
    let hits = check_verification(|k| local.probe(k), |k, e| local.store(k, e));
    // 16,384 slots.
    assert!(hits > 5_000, "only {hits} entries kept");
    local.clear();
    let mut rng = common::Rng(7);
    assert!((0..1000).all(|_| local.probe(rng.next() | 1).is_none()));
}

#[test]
fn fixed_depth_single_thread_search_is_deterministic() {
    let game = Game::new(
        "5-5-1-5-1-6-1-6-0-6-6-6-0-0-S".parse().unwrap(),
        Rules::ABAPA,
    );
    let run = || {
        let engine: Engine = Engine::new(8, 1, None);
        let r = engine.search(&game, &Limits::depth(10), |_| {}).unwrap();
        (r.best, r.last.nodes, r.last.score)
    };
    assert_eq!(run(), run());
}

/// Plays `game` out with `engine` on both sides at `depth`; the final
/// stores.
fn play_out(engine: &Engine, mut game: Game, depth: u32) -> [u8; 2] {
    while game.outcome().is_none() {
        let result = engine.search(&game, &Limits::depth(depth), |_| {}).unwrap();
        game.play(result.best.unwrap()).unwrap();
    }
    game.position().stores()
}

/// The tables' values hold from a fresh history only (RULES.md §4): a
/// search that took a won entry at face value some moves after the last
/// capture wandered among won positions until the game repeated. This
/// position (from a self-play game that went that way) is an exact win for
/// North, 26 to 22; the engine with the tables must get it (or more, when
/// South errs) at every depth that reaches the tables inside the search.
#[test]
fn an_exact_table_win_is_played_out_to_its_value() {
    let (_dir, tb) = tables(8);
    let engine: Engine = Engine::new(4, 1, Some(Arc::clone(&tb)));
    let pos: Position = "0-0-1-1-0-3-0-0-1-1-1-0-20-20-N".parse().unwrap();
    let report = probe(&tb, &pos).unwrap();
    assert_eq!(
        (report.gm, report.gn, report.exact),
        (Some(6), Some(2), true)
    );
    for depth in [4, 6, 8, 10] {
        engine.clear();
        let stores = play_out(&engine, Game::new(pos, Rules::ABAPA), depth);
        // The game ends once North has a majority.
        assert!(stores[1] >= 25, "depth {depth}: {stores:?}");
    }
}

/// Past the capture, a move whose child the tables cap at a score without
/// guaranteeing it once tied with a move that keeps a guarantee of that
/// score, and the engine, taking whichever came first, gave this forced win
/// for South away one tie at a time (at depth 4, with the network). The
/// table is kept from move to move, as in a game.
#[test]
fn a_guaranteed_score_ranks_above_a_capped_one() {
    let (_dir, tb) = tables(10);
    let pos: Position = "3-0-1-0-3-1-0-1-1-0-0-0-16-22-S".parse().unwrap();
    assert_eq!(probe(&tb, &pos).unwrap().verdict, Verdict::ForcedWin);
    for eval in [
        EvalChoice::DEFAULT,
        EvalChoice::weights(EvalParams::DEFAULT),
    ] {
        for depth in [4, 6, 8] {
            let mut engine: Engine = Engine::new(4, 1, Some(Arc::clone(&tb)));
            engine.params = eval;
            let stores = play_out(&engine, Game::new(pos, Rules::ABAPA), depth);
            assert!(stores[0] >= 25, "{eval:?}, depth {depth}: {stores:?}");
        }
    }
}

/// From random positions the tables call a forced win (fresh history), the
/// engine playing both sides wins: the winner never lets a repetition or a
/// wandering line take the win away, and the loser cannot save it.
#[test]
fn forced_table_wins_are_won_in_play() {
    let (_dir, tb) = tables(10);
    let engine: Engine = Engine::new(4, 1, Some(Arc::clone(&tb)));
    let mut rng = common::Rng(0x5EED_0F7A_B1E5);
    let mut played = 0;
    while played < 40 {
        let n = 5 + rng.below(6);
        let pos = random_position(&mut rng, n);
        let game = Game::new(pos, Rules::ABAPA);
        if game.outcome().is_some() {
            continue;
        }
        let report = probe(&tb, &pos).unwrap();
        if report.verdict != Verdict::ForcedWin {
            continue;
        }
        let mover = pos.side_to_move().index();
        engine.clear();
        let stores = play_out(&engine, game, 4 + 2 * (played % 3) as u32);
        assert!(
            stores[mover] >= 25,
            "{pos}: a forced win for the mover ended {stores:?}"
        );
        played += 1;
    }
}

/// The search sees a repetition of a position played before the root: the
/// last move of a cycle (`tests/data/repetition_cycles.txt`, from self-play
/// games that ended so) repeats the cycle's start and ends the game there,
/// each side taking its own row, as the referee has it; at the root, that
/// move scores the game's end.
#[test]
fn repetitions_of_the_games_history_are_seen() {
    let engine: Engine = Engine::new(4, 1, None);
    let data = include_str!("data/repetition_cycles.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (start, moves) = line.split_once(' ').unwrap();
        let pos: Position = start.parse().unwrap();
        let moves = oware::parse_moves(moves.trim()).unwrap();
        let (last, before) = moves.split_last().unwrap();
        let mut game = Game::new(pos, Rules::ABAPA);
        game.play_all(before).unwrap();
        assert!(game.outcome().is_none(), "{line}");
        let mut ended = game.clone();
        ended.play(*last).unwrap();
        let outcome = ended.outcome().expect("the cycle's last move repeats");
        assert_eq!(outcome.reason, oware::EndReason::Repetition, "{line}");
        let mover = game.position().side_to_move();
        let expected = match outcome.winner {
            Some(side) if side == mover => 1,
            Some(_) => -1,
            None => 0,
        };
        engine.clear();
        let limits = Limits {
            root_moves: Some(1 << last.house()),
            ..Limits::depth(3)
        };
        let score = engine.search(&game, &limits, |_| {}).unwrap().last.score;
        let got = match score {
            s if s >= PROVEN => 1,
            s if s <= -PROVEN => -1,
            0 => 0,
            s => panic!("{line}: {s} is not the game's end"),
        };
        assert_eq!(got, expected, "{line}: score {score}");
        checked += 1;
    }
    assert!(checked >= 10);
}

/// A level left out below loaded ones (a damaged file is left closed) is
/// never probed: the search goes on without it.
#[test]
fn a_level_missing_below_the_loaded_ones_is_not_probed() {
    let (dir, _) = tables(10);
    std::fs::remove_file(dir.path().join("abapa-08.owt")).unwrap();
    let tb = Tablebase::open_for_search(dir.path(), Variant::Abapa, 10).unwrap();
    assert!(tb.has_level(10) && !tb.has_level(8));
    let engine: Engine = Engine::new(4, 1, Some(Arc::new(tb)));
    let mut rng = common::Rng(0xDEAD_BEEF_0000_0001);
    let mut searched = 0;
    while searched < 40 {
        let game = Game::new(random_position(&mut rng, 10), Rules::ABAPA);
        if game.outcome().is_some() {
            continue;
        }
        engine.clear();
        let result = engine.search(&game, &Limits::depth(6), |_| {}).unwrap();
        assert!(result.best.is_some());
        searched += 1;
    }
}
