//! The distributed fixpoint re-check of a built level.

use super::comm::{Comm, Split, count, exchange_ranks, offsets};
use super::{CHECK_BATCH, CHECK_BLOCK};
use crate::Variant;
use crate::tb::board::{for_each_child_word, from_word, terminal_value};
use crate::tb::build::{FixpointError, LowerLevels};
use crate::tb::index::{Boards, rank_word};
use crate::tb::prefetch::prefetch;
use crate::tb::recheck::Recheck;
use crate::tb::value::Value;

/// The distributed fixpoint re-check of this rank's boards (`pairs`), the
/// rounds `recheck` covers (every rank skips the same ones).
pub(super) fn check<L: LowerLevels>(
    comm: &mut Comm,
    n: usize,
    variant: Variant,
    lower: &L,
    split: &Split,
    pairs: &[u8],
    recheck: Recheck,
) -> Result<(), FixpointError> {
    let (lo, hi) = split.range(comm.rank);
    let rounds = (0..comm.size)
        .map(|k| {
            let (a, b) = split.range(k);
            (b - a).div_ceil(CHECK_BLOCK)
        })
        .max()
        .unwrap_or(0);
    let mut first_error = None;
    let mut asks: Vec<Vec<u64>> = vec![Vec::new(); comm.size];
    let mut answers: Vec<Vec<u16>> = vec![Vec::new(); comm.size];
    let mut edges: Vec<(u8, u8, u64)> = Vec::with_capacity(CHECK_BATCH * 6);
    let mut moves: Vec<(usize, u8, u8)> = Vec::with_capacity(CHECK_BATCH);
    let mut block_boards: Vec<u128> = Vec::new();
    let mut block_moves: Vec<u8> = Vec::new();
    let mut block_edges: Vec<(u8, u64)> = Vec::new();
    let local = |r: u64| {
        let i = 2 * (r - lo) as usize;
        Value::new(pairs[i], pairs[i + 1])
    };
    for round in (0..rounds).filter(|&round| recheck.covers(round)) {
        let start = (lo + round * CHECK_BLOCK).min(hi);
        let end = (start + CHECK_BLOCK).min(hi);
        // The same-level children outside this range, by owner, in the
        // order the fold below meets them.
        // The children are enumerated once: kept (seeds captured, rank),
        // in board order, a board's as many as its moves.
        asks.iter_mut().for_each(Vec::clear);
        block_boards.clear();
        block_moves.clear();
        block_edges.clear();
        for board in Boards::new(n, start, end - start).by_ref_words() {
            let m = for_each_child_word(board, variant, |_, captured, child| {
                let r = rank_word(child, n - captured as usize);
                if captured == 0 && !(lo..hi).contains(&r) {
                    asks[split.owner(r)].push(r);
                }
                block_edges.push((captured, r));
            });
            block_boards.push(board);
            block_moves.push(m as u8);
        }
        let (asked, counts) = exchange_ranks(comm, &asks, split);
        let mut at = 0;
        for (k, answer) in answers.iter_mut().enumerate() {
            answer.clear();
            answer.extend(asked[at..at + counts[k]].iter().map(|&r| {
                let v = local(r);
                u16::from(v.mover) | u16::from(v.opponent) << 8
            }));
            at += counts[k];
        }
        let (values, counts) = comm.exchange(&answers);
        let mut cursor: Vec<usize> = offsets(&counts.iter().map(|&c| count(c)).collect::<Vec<_>>())
            .iter()
            .map(|&c| c as usize)
            .collect();
        // A batch of boards at a time: every child's entry is asked for
        // (prefetched) before the first is read, as in the single-process
        // check. An edge: board in the batch, seeds captured, and the
        // child's rank (or, when another rank sent it, its value).
        let mut r = start;
        let mut next_edge = 0;
        for (batch, batch_moves) in block_boards
            .chunks(CHECK_BATCH)
            .zip(block_moves.chunks(CHECK_BATCH))
        {
            edges.clear();
            moves.clear();
            for (b, &m) in batch_moves.iter().enumerate() {
                for &(captured, q) in &block_edges[next_edge..next_edge + m as usize] {
                    let c = captured as usize;
                    if c > 0 {
                        lower.prefetch(n - c, q);
                        edges.push((b as u8, captured, q));
                    } else if (lo..hi).contains(&q) {
                        prefetch(&pairs[2 * (q - lo) as usize]);
                        edges.push((b as u8, 0, q));
                    } else {
                        let k = split.owner(q);
                        let w = values[cursor[k]];
                        cursor[k] += 1;
                        edges.push((b as u8, u8::MAX, u64::from(w)));
                    }
                }
                next_edge += m as usize;
                moves.push((m as usize, 0u8, u8::MAX));
            }
            for &(b, c, q) in &edges {
                let (captured, value) = match c {
                    u8::MAX => (0, Value::new(q as u8, (q >> 8) as u8)),
                    0 => (0, local(q)),
                    c => (c, lower.value_at(n - c as usize, q)),
                };
                let (cx, cy) = Value::candidates(variant, captured, value);
                let f = &mut moves[b as usize];
                f.1 = f.1.max(cx);
                f.2 = f.2.min(cy);
            }
            for (&board, &(m, x, y)) in batch.iter().zip(&moves) {
                let expected = if m == 0 {
                    let (x, y) = terminal_value(&from_word(board), n as u8);
                    Value::new(x, y)
                } else {
                    Value::new(x, y)
                };
                let stored = local(r);
                if stored != expected && first_error.is_none() {
                    first_error = Some(FixpointError {
                        level: n,
                        board: from_word(board),
                        stored,
                        expected,
                    });
                }
                r += 1;
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

trait WordsExt {
    fn by_ref_words(self) -> impl Iterator<Item = u128>;
}

impl WordsExt for Boards {
    fn by_ref_words(mut self) -> impl Iterator<Item = u128> {
        std::iter::from_fn(move || self.next_word())
    }
}
