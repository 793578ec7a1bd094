//! The searcher: it keeps table values, proves small endgames on its own,
//! respects time limits, and its transposition table never mixes positions.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use oware::search::tt::{Bound, Entry, LocalTable, TranspositionTable};
use oware::search::{Engine, Limits, PROVEN};
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
