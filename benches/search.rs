//! Evaluation and fixed-depth search speed.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oware::search::eval::{EvalParams, evaluate};
use oware::search::{Engine, Limits};
use oware::{Game, Rules};

fn search(c: &mut Criterion) {
    let suite = oware::search::bench::suite();
    c.bench_function("evaluate (36 positions)", |b| {
        b.iter(|| {
            suite
                .iter()
                .map(|(_, p)| evaluate(black_box(p), 0, &EvalParams::DEFAULT))
                .sum::<i32>()
        })
    });
    c.bench_function("best capture (36 positions)", |b| {
        b.iter(|| {
            suite
                .iter()
                .map(|(_, p)| black_box(p).best_capture(oware::Variant::Abapa))
                .max()
        })
    });
    let evaluator = oware::search::Evaluator::new(&EvalParams::DEFAULT);
    c.bench_function("table evaluator (36 positions)", |b| {
        b.iter(|| {
            suite
                .iter()
                .map(|(_, p)| evaluator.evaluate(black_box(p), 0))
                .sum::<i32>()
        })
    });
    let game = Game::new(suite[0].1, Rules::ABAPA);
    c.bench_function("search depth 12 (opening, 1 thread)", |b| {
        b.iter(|| {
            let engine: Engine = Engine::new(16, 1, None);
            engine
                .search(black_box(&game), &Limits::depth(12), |_| {})
                .unwrap()
                .last
                .nodes
        })
    });
}

criterion_group!(benches, search);
criterion_main!(benches);
