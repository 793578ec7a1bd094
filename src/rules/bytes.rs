//! Arithmetic on a row of pits held as the bytes of a word, all pits at
//! once (SIMD within a register). Pit counts are at most 48, so adding a
//! constant below 80 to every byte never carries into the next one, and a
//! byte's high bit is free to hold the result of a comparison.

/// The six bytes of a row.
pub(crate) const ROW: u64 = 0xFFFF_FFFF_FFFF;
/// A one in each byte of a row.
pub(crate) const LOW_BYTES: u64 = 0x0101_0101_0101;
/// A one in each of the eight bytes: the multiplier that sums bytes.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each of the eight bytes.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of a row.
pub(crate) const HIGH_BYTES: u64 = 0x8080_8080_8080;

/// The high bit of each byte of the row `x` that is at least `k` (1..=79).
/// A byte of at most 48 plus `128 − k` reaches 128 exactly when it is at
/// least `k`, and never carries into the next byte.
#[inline]
pub(crate) const fn at_least(x: u64, k: u8) -> u64 {
    x.wrapping_add(LOW_BYTES * (128 - k as u64)) & HIGH_BYTES
}

/// 0xFF in each byte whose high bit is set in `x`, 0 in the others.
#[inline]
pub(crate) const fn bytes_set(x: u64) -> u64 {
    ((x >> 7) & ONES) * 0xFF
}

/// The bytewise maximum of `a` and `b`, whose bytes are below 128.
#[inline]
pub(crate) const fn bytes_max(a: u64, b: u64) -> u64 {
    // A byte of `a` with its high bit set, less the byte of `b`, keeps the
    // high bit exactly when it is at least as large.
    let a_wins = bytes_set(((a | HIGHS) - b) & HIGHS);
    (a & a_wins) | (b & !a_wins)
}

/// The sums of the bytes up to each byte: byte `j` of the result is the
/// sum of bytes `0..=j` of `x`, when none of these sums exceeds 255.
#[inline]
pub(crate) const fn prefix_sums(x: u64) -> u64 {
    x.wrapping_mul(ONES)
}

/// The sum of the bytes of `x`, when no partial sum exceeds 255.
#[inline]
pub(crate) const fn byte_sum(x: u64) -> u8 {
    (prefix_sums(x) >> 56) as u8
}

/// The running maximum over the bytes: byte `j` of the result is the
/// largest of bytes `0..=j` of `x`, whose bytes are below 128.
#[inline]
pub(crate) const fn running_max(x: u64) -> u64 {
    let mut m = bytes_max(x, x << 8);
    m = bytes_max(m, m << 16);
    bytes_max(m, m << 32)
}

/// The largest byte of `x`, whose bytes are below 128.
#[inline]
pub(crate) const fn max_byte(x: u64) -> u8 {
    let mut m = bytes_max(x, x >> 8);
    m = bytes_max(m, m >> 16);
    m = bytes_max(m, m >> 32);
    m as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random words whose bytes are below 64 (as pit counts and sums are).
    fn words() -> impl Iterator<Item = u64> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        std::iter::repeat_with(move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 3) & 0x3F3F_3F3F_3F3F_3F3F
        })
        .take(10_000)
    }

    fn bytes(x: u64) -> [u8; 8] {
        x.to_le_bytes()
    }

    #[test]
    fn byte_operations_match_a_byte_at_a_time() {
        for (a, b) in words().zip(words().skip(1)) {
            let max: Vec<u8> = bytes(a)
                .iter()
                .zip(bytes(b))
                .map(|(&x, y)| x.max(y))
                .collect();
            assert_eq!(bytes(bytes_max(a, b)).to_vec(), max);
            assert_eq!(max_byte(a), *bytes(a).iter().max().unwrap());
            let set: Vec<u8> = bytes(a | 0x8000_0080_0000_8000)
                .iter()
                .map(|&x| if x >= 128 { 0xFF } else { 0 })
                .collect();
            assert_eq!(bytes(bytes_set(a | 0x8000_0080_0000_8000)).to_vec(), set);
            // Sums of six bytes below 64 never exceed 255 up to the sixth.
            let row = a & ROW & 0x1F1F_1F1F_1F1F;
            let mut sum = 0u8;
            for (j, &x) in bytes(row).iter().enumerate() {
                sum += x;
                assert_eq!(bytes(prefix_sums(row))[j], sum);
            }
            assert_eq!(byte_sum(row), sum);
            let mut most = 0;
            for (j, &x) in bytes(a).iter().enumerate() {
                most = most.max(x);
                assert_eq!(bytes(running_max(a))[j], most);
            }
            // Pit counts: at most 48, in the six bytes of a row.
            let pits = bytes(a & ROW)
                .iter()
                .enumerate()
                .fold(0u64, |w, (j, &x)| w | (u64::from(x.min(48)) << (8 * j)));
            for k in 1..=60 {
                let expected: Vec<u8> = bytes(pits)
                    .iter()
                    .enumerate()
                    .map(|(j, &x)| if j < 6 && x >= k { 0x80 } else { 0 })
                    .collect();
                assert_eq!(bytes(at_least(pits, k)).to_vec(), expected, "k {k}");
            }
        }
    }
}
