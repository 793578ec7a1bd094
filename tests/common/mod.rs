//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// Reads `tests/data/NAME` and yields its non-comment lines split on `|`,
/// trimmed, with the 1-based line number.
pub fn table(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('|').map(|f| f.trim().to_string()).collect()))
        .collect()
}

/// A small deterministic pseudo-random generator (xorshift64*), so tests
/// need no extra crate and replay identically.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
