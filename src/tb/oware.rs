//! Oware's levels for the shared table code: each variant is a
//! [`TableGame`] whose solver is the retrograde analysis of [`build`](super::build).

use std::time::Instant;

use indicatif::ProgressBar;
use rayon::prelude::*;

use super::build::{
    FixpointError, Settling, WithLevel, check_level, expected_value, solve_level_as, working_memory,
};
use super::builder::{BuildError, Phases};
use super::file::Encoding;
use super::game::TableGame;
use super::index::{rank, unrank};
use super::levels::Levels;
use super::recheck::Recheck;
use super::resident::{Resident, capture_reach, copy_budget_keeping, memory_limit};
use super::rules::TableRules;
use super::scratch::Scratch;
use super::value::Value;
use crate::Variant;

impl TableGame for Variant {
    type Entry = Value;

    fn rules(&self) -> TableRules {
        TableRules::Oware(*self)
    }

    fn solve(
        &self,
        level: usize,
        lower: &Levels,
        bar: &ProgressBar,
        phases: &mut Phases,
        recheck: Recheck,
    ) -> Result<Scratch, BuildError> {
        let variant = *self;
        // Seconds since the last call.
        let mut lap = Instant::now();
        let mut split = || {
            let seconds = lap.elapsed().as_secs_f64();
            lap = Instant::now();
            seconds
        };
        let kept = lower.kept_copies().bytes();
        // The settling's buckets come first from the memory to spare, then
        // the copies. Under a limit the compact files within reach count
        // too, as they do for the copies.
        let files: u64 = if memory_limit().is_some() {
            capture_reach(level)
                .filter_map(|l| lower.table(l))
                .filter(|table| table.is_compact())
                .map(|table| table.file_bytes())
                .sum()
        } else {
            0
        };
        let spare = copy_budget_keeping(working_memory(level), kept).saturating_sub(files);
        let settling = Settling::within(level, spare);
        let budget = copy_budget_keeping(working_memory(level) + settling.bytes(level), kept);
        let resident = Resident::new(lower, level, budget)?;
        phases.copy = split();
        let solved = solve_level_as(level, variant, &resident, bar, settling)
            .map_err(|error| BuildError::Memory { level, error })?;
        // The solver times its two passes itself.
        split();
        (phases.moves, phases.settle) = (solved.moves_seconds, solved.settle_seconds);
        let values = solved.values;
        let with_level = WithLevel {
            lower: &resident,
            level,
            pairs: &values,
        };
        check_level(level, variant, &with_level, bar, recheck)?;
        phases.check = split();
        drop(resident);
        if Encoding::for_variant(variant) == Encoding::ForcedPair {
            return Ok(values);
        }
        // One score byte a board.
        let mut scores = Scratch::zeroed(values.len() / 2)
            .map_err(|error| BuildError::Memory { level, error })?;
        scores
            .par_chunks_mut(1 << 16)
            .zip(values.par_chunks(2 << 16))
            .for_each(|(out, pairs)| {
                for (o, p) in out.iter_mut().zip(pairs.chunks_exact(2)) {
                    *o = Value::new(p[0], p[1]).score() as u8;
                }
            });
        phases.write = split();
        Ok(scores)
    }

    fn check(&self, n: usize, levels: &Levels, bar: &ProgressBar) -> Result<(), FixpointError> {
        check_level(n, *self, levels, bar, Recheck::All)
    }

    fn check_board(&self, n: usize, levels: &Levels, r: u64) -> Result<(), FixpointError> {
        use super::build::LowerLevels;
        let board = unrank(r, n);
        let stored = levels.value_at(n, r);
        let same = |b: &[u8; 12]| levels.value_at(n, rank(b, n));
        let expected = expected_value(&board, n, *self, &same, levels);
        if stored == expected {
            Ok(())
        } else {
            Err(FixpointError {
                level: n,
                board,
                stored,
                expected,
            })
        }
    }
}
