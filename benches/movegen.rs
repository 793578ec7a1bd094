//! Move generation and perft speed.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use oware::{Position, Rules, perft};

fn positions() -> Vec<Position> {
    [
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "5-5-5-0-6-6-1-6-5-5-0-1-2-1-N",
        "0-3-0-1-2-12-3-1-0-2-0-1-10-13-S",
        "1-0-2-0-0-1-0-3-1-0-1-0-20-19-N",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect()
}

fn movegen(c: &mut Criterion) {
    let rules = Rules::ABAPA;
    let positions = positions();
    c.bench_function("legal_moves+play (4 positions)", |b| {
        b.iter(|| {
            let mut captured = 0u32;
            for pos in &positions {
                for &mv in pos.legal_moves(rules.variant).iter() {
                    captured += u32::from(black_box(pos).after(mv, rules.variant).1);
                }
            }
            captured
        })
    });
    c.bench_function("perft 7 from the start (1 thread)", |b| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        b.iter(|| pool.install(|| perft(black_box(&Position::START), 7, &rules)))
    });
}

criterion_group!(benches, movegen);
criterion_main!(benches);
