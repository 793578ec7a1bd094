//! How much of a level the builder re-checks before it writes the level.
//!
//! The re-check tests every board it covers against the fixpoint equations:
//! a board's entry must be what its children's entries give. It catches a
//! bug in the solver, which would show across the level, not a damaged
//! file (the checksums do that), and it took 23–29 % of each large Oware
//! level's build. A sample of evenly spread chunks costs a sixteenth of
//! that; `oware verify` re-checks every board of a built folder whenever
//! that is wanted.

/// The share of the boards of a level the builder re-checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// Every board.
    All,
    /// One chunk of boards in [`Recheck::SAMPLE_EVERY`], evenly spread over
    /// the level's ranks, the first chunk always among them (a chunk: 32,768
    /// boards in one process, a round of 262,144 boards of each rank in
    /// the MPI build).
    Sample,
}

impl Recheck {
    /// Under [`Recheck::Sample`], one chunk in this many is re-checked.
    pub const SAMPLE_EVERY: u64 = 16;

    /// Whether the chunk numbered `chunk` (from 0, in rank order) is
    /// re-checked.
    #[inline]
    pub const fn covers(self, chunk: u64) -> bool {
        match self {
            Recheck::All => true,
            Recheck::Sample => chunk.is_multiple_of(Self::SAMPLE_EVERY),
        }
    }

    /// The boards re-checked of a level of `size` boards cut into chunks of
    /// `chunk` boards.
    pub(crate) const fn boards(self, size: u64, chunk: u64) -> u64 {
        match self {
            Recheck::All => size,
            Recheck::Sample => {
                let chunks = size.div_ceil(chunk);
                // The chunks covered but the last, and the last if it is covered.
                let covered = chunks.div_ceil(Self::SAMPLE_EVERY);
                let last = chunks.saturating_sub(1);
                let tail = size - last * chunk;
                if chunks == 0 {
                    0
                } else if last.is_multiple_of(Self::SAMPLE_EVERY) {
                    (covered - 1) * chunk + tail
                } else {
                    covered * chunk
                }
            }
        }
    }

    /// The share of a level's boards re-checked, for estimates: 1 or
    /// 1 / [`Recheck::SAMPLE_EVERY`].
    pub const fn share(self) -> f64 {
        match self {
            Recheck::All => 1.0,
            Recheck::Sample => 1.0 / Self::SAMPLE_EVERY as f64,
        }
    }

    /// The name `oware build --recheck` takes: `all` or `sample`.
    pub const fn name(self) -> &'static str {
        match self {
            Recheck::All => "all",
            Recheck::Sample => "sample",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_boards_counted_are_the_boards_of_the_chunks_covered() {
        for recheck in [Recheck::All, Recheck::Sample] {
            for (size, chunk) in [
                (0, 8),
                (1, 8),
                (8, 8),
                (9, 8),
                (127, 8),
                (128, 8),
                (129, 8),
                (1000, 7),
            ] {
                let counted: u64 = (0..u64::div_ceil(size, chunk))
                    .filter(|&c| recheck.covers(c))
                    .map(|c| chunk.min(size - c * chunk))
                    .sum();
                assert_eq!(
                    recheck.boards(size, chunk),
                    counted,
                    "{recheck:?} {size} {chunk}"
                );
            }
        }
        assert_eq!(Recheck::Sample.boards(160, 1), 10);
        assert_eq!(Recheck::All.boards(160, 1), 160);
    }

    /// Abapa's levels, noting the re-check each solve is asked for.
    struct Noting(std::sync::Mutex<Vec<Recheck>>);

    impl crate::tb::TableGame for Noting {
        type Entry = crate::tb::Value;

        fn rules(&self) -> crate::tb::TableRules {
            crate::Variant::Abapa.rules()
        }

        fn solve(
            &self,
            n: usize,
            lower: &crate::tb::Levels,
            bar: &indicatif::ProgressBar,
            phases: &mut crate::tb::Phases,
            recheck: Recheck,
        ) -> Result<crate::tb::scratch::Scratch, crate::tb::BuildError> {
            self.0.lock().unwrap().push(recheck);
            crate::Variant::Abapa.solve(n, lower, bar, phases, recheck)
        }

        fn check(
            &self,
            n: usize,
            levels: &crate::tb::Levels,
            bar: &indicatif::ProgressBar,
        ) -> Result<(), crate::tb::build::FixpointError> {
            crate::Variant::Abapa.check(n, levels, bar)
        }

        fn check_board(
            &self,
            n: usize,
            levels: &crate::tb::Levels,
            r: u64,
        ) -> Result<(), crate::tb::build::FixpointError> {
            crate::Variant::Abapa.check_board(n, levels, r)
        }
    }

    #[test]
    fn the_builder_asks_each_solve_for_the_recheck_it_was_given() {
        use crate::tb::{TableFormat, TableGame, build_levels, build_levels_as};
        for recheck in [Recheck::All, Recheck::Sample] {
            let dir = tempfile::tempdir().unwrap();
            let game = Noting(Default::default());
            build_levels_as(
                &game,
                dir.path(),
                5,
                false,
                TableFormat::Raw,
                recheck,
                |_| {},
            )
            .unwrap();
            assert_eq!(*game.0.lock().unwrap(), [recheck; 6]);
            assert_eq!(game.rules(), crate::Variant::Abapa.rules());
        }
        // The library's plain entry point re-checks every board.
        let dir = tempfile::tempdir().unwrap();
        let game = Noting(Default::default());
        build_levels(&game, dir.path(), 2, false, |_| {}).unwrap();
        assert_eq!(*game.0.lock().unwrap(), [Recheck::All; 3]);
    }

    #[test]
    fn a_sample_covers_the_first_chunk_and_one_in_sixteen() {
        let covered: Vec<u64> = (0..40).filter(|&c| Recheck::Sample.covers(c)).collect();
        assert_eq!(covered, [0, 16, 32]);
        assert!((0..40).all(|c| Recheck::All.covers(c)));
    }
}
