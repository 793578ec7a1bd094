//! A learned evaluation: a small network over the board, in integers.
//!
//! The inputs are one-hot: for each of the twelve pits, seen from the side
//! to move (its six houses first, then the opponent's), one input per seed
//! count from 0 to [`BUCKETS`]` - 1` (larger counts share the last), and
//! one input for the seeds on the board (the phase of the game). A board
//! sets 13 of the [`INPUTS`] inputs. They feed a layer of hidden units (its
//! width one of [`WIDTHS`], [`HIDDEN`] for the networks trained by default),
//! each clipped to 0..1, and the output layer sums the units. The network says
//! what the seeds still on the board are worth to the side to move, in
//! centiseeds; the evaluation adds the captured seeds' difference (100 a
//! seed) and, as the weighted evaluation does, a weight per seed of the
//! best capture on offer ([`Network::threat`], never negative, so a leaf
//! may skip looking for captures when it already fails high).
//!
//! Inference runs in integers: the first layer's weights are `i16` in
//! units of 1/[`QA`], so a unit's sum is thirteen additions of rows of
//! as many lanes as units, eight lanes at a time (which the compiler turns into
//! SIMD adds; a plain loop over the lanes became scalar adds), clipped to
//! 0..=[`QA`]; the output weights are `i16` in units of 1/[`QB`] of a
//! centiseed, multiplied lane by lane and summed in `i32`. A sowing
//! changes up to twelve pits and the phase input does not change in a
//! quiet move but does in a capture, so a fresh sum of 13 rows costs about
//! what an incremental update would; the search computes it at the leaves
//! only.
//!
//! [`Network::evaluate_float`] computes the same function from the same
//! weights in floating point, the plain way; tests check the two agree.

use crate::Position;

/// Seed counts told apart in a pit: 0 to `BUCKETS - 1`, larger counts in
/// the last input.
pub const BUCKETS: usize = 20;
/// The inputs: twelve pits' buckets, then one per seed total 0..=48.
pub const INPUTS: usize = 12 * BUCKETS + 49;
/// The hidden units of the networks `oware tune --network` trains unless
/// told otherwise.
pub const HIDDEN: usize = 64;
/// The widths of the hidden layer a network may have: each is compiled
/// into its own inference, unrolled.
pub const WIDTHS: [usize; 3] = [32, 64, 128];
/// [`WIDTHS`] in words, for messages.
pub const WIDTHS_TEXT: &str = "32, 64 or 128";
/// The widest hidden layer.
pub const MAX_HIDDEN: usize = 128;
/// The inputs a board sets.
pub const ACTIVE: usize = 13;
/// A hidden unit's scale: 1.0 is `QA`.
pub const QA: i32 = 256;
/// An output weight's scale: one centiseed is `QB`.
pub const QB: i32 = 16;
/// The largest first-layer weight or bias (in units of 1/QA): 13 of them
/// sum within `i16`.
pub const MAX_W1: i16 = 2_300;
/// The largest output bias either way (units of 1/(QA·QB)): the sum stays
/// within `i32`.
pub const MAX_B2: i32 = 1 << 30;
/// The largest capture weight (centiseeds a seed).
pub const MAX_THREAT: i32 = 80;
/// The board value's clamp (centiseeds either way): with 48 seeds of
/// material and [`MAX_THREAT`] on a capture of 15, the evaluation stays
/// within [`MAX_EVALUATION`](super::MAX_EVALUATION).
pub const MAX_BOARD_VALUE: i32 = 9_000;
const _: () =
    assert!(48 * 100 + MAX_BOARD_VALUE as i64 + 15 * MAX_THREAT as i64 <= super::MAX_EVALUATION);
/// Seeds on the board above which the phase input is the same.
const MAX_SEEDS: usize = 48;

const _: () = assert!(ACTIVE as i32 * MAX_W1 as i32 + MAX_W1 as i32 <= i16::MAX as i32);
const _: () = {
    let (mut i, mut trained) = (0, false);
    while i < WIDTHS.len() {
        assert!(
            WIDTHS[i].is_multiple_of(8) && WIDTHS[i] <= MAX_HIDDEN,
            "add_row adds eight lanes at a time"
        );
        trained |= WIDTHS[i] == HIDDEN;
        i += 1;
    }
    assert!(trained, "HIDDEN is one of WIDTHS");
};
// The output sum within `i32` either way (an output weight may be -32768).
const _: () = assert!(
    MAX_HIDDEN as i64 * QA as i64 * -(i16::MIN as i64) + MAX_B2 as i64 <= -(i32::MIN as i64)
        && MAX_HIDDEN as i64 * QA as i64 * i16::MAX as i64 + MAX_B2 as i64 <= i32::MAX as i64
);

/// The inputs `pos` sets, seen from its side to move.
#[inline]
pub fn active_inputs(pos: &Position) -> [u16; ACTIVE] {
    let pits = pos.pits();
    let me = pos.side_to_move();
    let (own, theirs) = (me.first_pit(), me.opponent().first_pit());
    let mut out = [0u16; ACTIVE];
    for i in 0..6 {
        out[i] = bucket(i, pits[own + i]);
        out[6 + i] = bucket(6 + i, pits[theirs + i]);
    }
    let seeds = (pos.seeds_on_board() as usize).min(MAX_SEEDS);
    out[12] = (12 * BUCKETS + seeds) as u16;
    out
}

#[inline]
const fn bucket(pit: usize, seeds: u8) -> u16 {
    let s = if (seeds as usize) < BUCKETS {
        seeds as usize
    } else {
        BUCKETS - 1
    };
    (pit * BUCKETS + s) as u16
}

/// Adds a first-layer row to the units, eight lanes at a time (the
/// bounds of [`MAX_W1`] keep every sum within `i16`).
#[inline(always)]
fn add_row<const H: usize>(acc: &mut [i16; H], row: &[i16; H]) {
    for (a, w) in acc
        .as_chunks_mut::<8>()
        .0
        .iter_mut()
        .zip(row.as_chunks::<8>().0)
    {
        *a = std::array::from_fn(|l| a[l].wrapping_add(w[l]));
    }
}

/// A trained network in integers, as the search uses it.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Hidden units: one of [`WIDTHS`].
    pub(crate) hidden: usize,
    /// First layer: a row of `hidden` weights per input (units of 1/QA),
    /// the rows one after the other.
    pub(crate) w1: Box<[i16]>,
    /// First layer's biases (units of 1/QA).
    pub(crate) b1: Box<[i16]>,
    /// Output weights (units of 1/QB centiseed per unit at 1.0).
    pub(crate) w2: Box<[i16]>,
    /// Output bias (units of 1/(QA·QB) centiseed).
    pub(crate) b2: i32,
    /// Centiseeds per seed of the best capture on offer (not negative).
    pub(crate) threat: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &INPUTS)
            .field("hidden", &self.hidden)
            .field("threat", &self.threat)
            .field("checksum", &format_args!("{:08x}", self.checksum()))
            .finish()
    }
}

/// Why weights cannot make a [`Network`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// A hidden layer of a width no inference is compiled for.
    #[error("{0} hidden units ({WIDTHS_TEXT})")]
    Width(usize),
    /// A weight array of the wrong length.
    #[error("{name}: {got} weights, expected {expected}")]
    Shape {
        /// The array.
        name: &'static str,
        /// Its length.
        got: usize,
        /// The architecture's.
        expected: usize,
    },
    /// A first-layer weight outside ±[`MAX_W1`].
    #[error("a first-layer weight of {0} (at most {MAX_W1} either way)")]
    Range(i16),
    /// An output bias outside ±[`MAX_B2`].
    #[error("an output bias of {0} (at most {MAX_B2} either way)")]
    Bias(i32),
    /// A capture weight below 0 or above [`MAX_THREAT`].
    #[error("capture weight {0} (0 to {MAX_THREAT})")]
    Threat(i32),
}

impl Network {
    /// The network of these integer weights, `hidden` units wide (one of
    /// [`WIDTHS`]), checked.
    pub fn new(
        hidden: usize,
        w1: &[i16],
        b1: &[i16],
        w2: &[i16],
        b2: i32,
        threat: i32,
    ) -> Result<Network, NetworkError> {
        let shape = |name, got: usize, expected| {
            if got == expected {
                Ok(())
            } else {
                Err(NetworkError::Shape {
                    name,
                    got,
                    expected,
                })
            }
        };
        if !WIDTHS.contains(&hidden) {
            return Err(NetworkError::Width(hidden));
        }
        shape("w1", w1.len(), INPUTS * hidden)?;
        shape("b1", b1.len(), hidden)?;
        shape("w2", w2.len(), hidden)?;
        if let Some(&w) = w1
            .iter()
            .chain(b1)
            .find(|w| w.unsigned_abs() > MAX_W1 as u16)
        {
            return Err(NetworkError::Range(w));
        }
        if b2.unsigned_abs() > MAX_B2 as u32 {
            return Err(NetworkError::Bias(b2));
        }
        if !(0..=MAX_THREAT).contains(&threat) {
            return Err(NetworkError::Threat(threat));
        }
        Ok(Network {
            hidden,
            w1: w1.into(),
            b1: b1.into(),
            w2: w2.into(),
            b2,
            threat,
        })
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The first layer's weights, input by input.
    pub fn w1(&self) -> impl Iterator<Item = i16> + '_ {
        self.w1.iter().copied()
    }

    /// The first layer's biases.
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// The output weights.
    pub fn w2(&self) -> &[i16] {
        &self.w2
    }

    /// The output bias.
    pub fn b2(&self) -> i32 {
        self.b2
    }

    /// Centiseeds per seed of the best capture on offer.
    pub fn threat(&self) -> i32 {
        self.threat
    }

    /// What the seeds on the board are worth to the side to move, in
    /// centiseeds (the stores and the capture term left out), within
    /// ±[`MAX_BOARD_VALUE`].
    #[inline]
    pub fn clamped_board_value(&self, pos: &Position) -> i32 {
        self.board_value(pos)
            .clamp(-MAX_BOARD_VALUE, MAX_BOARD_VALUE)
    }

    /// What the network says of the seeds on the board, in centiseeds for
    /// the side to move.
    #[inline]
    pub fn board_value(&self, pos: &Position) -> i32 {
        match self.hidden {
            32 => self.board_value_of::<32>(pos),
            64 => self.board_value_of::<64>(pos),
            128 => self.board_value_of::<128>(pos),
            _ => unreachable!("Network::new admits only WIDTHS"),
        }
    }

    /// [`Network::board_value`] for a network `H` units wide, unrolled.
    #[inline(always)]
    fn board_value_of<const H: usize>(&self, pos: &Position) -> i32 {
        debug_assert_eq!(self.hidden, H);
        let (rows, _) = self.w1.as_chunks::<H>();
        let mut acc: [i16; H] = self.b1[..].try_into().expect("H biases");
        for &i in &active_inputs(pos) {
            add_row(&mut acc, &rows[usize::from(i)]);
        }
        let w2: &[i16; H] = self.w2[..].try_into().expect("H output weights");
        let mut sum = 0i32;
        for (&a, &w) in acc.iter().zip(w2) {
            let h = a.clamp(0, QA as i16);
            sum += i32::from(h) * i32::from(w);
        }
        (sum + self.b2).div_euclid(QA * QB)
    }

    /// [`Network::board_value`] the plain way, in floating point from the
    /// same weights: each weight divided by its scale, a hidden unit
    /// clipped to 0..1.
    pub fn evaluate_float(&self, pos: &Position) -> f64 {
        let qa = f64::from(QA);
        let mut hidden = [0f64; MAX_HIDDEN];
        for (j, h) in hidden[..self.hidden].iter_mut().enumerate() {
            let mut sum = f64::from(self.b1[j]) / qa;
            for &i in &active_inputs(pos) {
                sum += f64::from(self.w1[usize::from(i) * self.hidden + j]) / qa;
            }
            *h = sum.clamp(0.0, 1.0);
        }
        let mut out = f64::from(self.b2) / (qa * f64::from(QB));
        for (&w, &h) in self.w2.iter().zip(&hidden) {
            out += f64::from(w) / f64::from(QB) * h;
        }
        out
    }

    /// The largest value [`Network::board_value`] can take either way (a
    /// bound: every unit at its most).
    pub fn max_board_value(&self) -> i64 {
        let units: i64 = self.w2.iter().map(|&w| i64::from(w).abs()).sum();
        (units * i64::from(QA) + i64::from(self.b2).abs()) / i64::from(QA * QB) + 1
    }

    /// A CRC-32 of the weights (names a network in messages).
    pub fn checksum(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        // The width is implied by the number of weights hashed.
        for w in self
            .w1()
            .chain(self.b1.iter().copied())
            .chain(self.w2.iter().copied())
        {
            h.update(&w.to_le_bytes());
        }
        h.update(&self.b2.to_le_bytes());
        h.update(&self.threat.to_le_bytes());
        h.finalize()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::openings::Rng;
    use crate::{Game, Rules, Side};

    /// A network `hidden` units wide of random weights over their whole
    /// ranges.
    pub(crate) fn random_network(rng: &mut Rng, hidden: usize) -> Network {
        let mut w = |range: u64| (rng.below(2 * range as usize + 1) as i64 - range as i64) as i16;
        let w1: Vec<i16> = (0..INPUTS * hidden).map(|_| w(MAX_W1 as u64 / 6)).collect();
        let b1: Vec<i16> = (0..hidden).map(|_| w(MAX_W1 as u64 / 2)).collect();
        let w2: Vec<i16> = (0..hidden).map(|_| w(i16::MAX as u64)).collect();
        Network::new(hidden, &w1, &b1, &w2, 123_457, 40).unwrap()
    }

    /// Positions of random games.
    fn positions(rng: &mut Rng, games: usize) -> Vec<Position> {
        let mut out = Vec::new();
        for _ in 0..games {
            let mut game = Game::new(Position::START, Rules::ABAPA);
            while game.outcome().is_none() {
                out.push(*game.position());
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
        out
    }

    #[test]
    fn integer_inference_equals_the_floating_point_twin() {
        let mut rng = Rng::new(11);
        for hidden in WIDTHS {
            let net = random_network(&mut rng, hidden);
            let bound = net.max_board_value();
            let mut clipped = [0usize; 2];
            for pos in positions(&mut rng, 30) {
                let int = net.board_value(&pos);
                let float = net.evaluate_float(&pos);
                // Every weight is a multiple of its scale's inverse, so the
                // float sum is exact and its floor is the integer result.
                assert_eq!(int, float.floor() as i32, "{pos}");
                assert!(i64::from(int).abs() <= bound, "{int} beyond {bound}");
                clipped[usize::from(int > 0)] += 1;
            }
            // Random weights give values of both signs.
            assert!(clipped[0] > 0 && clipped[1] > 0, "{clipped:?}");
        }
    }

    #[test]
    fn inputs_are_seen_from_the_side_to_move() {
        let board = [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 22];
        let south = Position::new(board, [0, 5], Side::South).unwrap();
        let mut swapped = board;
        swapped.rotate_left(6);
        let north = Position::new(swapped, [5, 0], Side::North).unwrap();
        assert_eq!(active_inputs(&south), active_inputs(&north));
        let inputs = active_inputs(&south);
        assert_eq!(inputs[0], 1);
        assert_eq!(inputs[5], (5 * BUCKETS + 6) as u16);
        // 22 seeds share the last bucket.
        assert_eq!(inputs[11], (11 * BUCKETS + BUCKETS - 1) as u16);
        assert_eq!(inputs[12], (12 * BUCKETS + 43) as u16);
        assert!(inputs.iter().all(|&i| usize::from(i) < INPUTS));
    }

    #[test]
    fn bad_weights_are_refused() {
        let w1 = vec![0i16; INPUTS * HIDDEN];
        let (b1, w2) = (vec![0i16; HIDDEN], vec![0i16; HIDDEN]);
        assert!(Network::new(HIDDEN, &w1, &b1, &w2, 0, 0).is_ok());
        assert!(matches!(
            Network::new(HIDDEN, &w1[1..], &b1, &w2, 0, 0),
            Err(NetworkError::Shape { name: "w1", .. })
        ));
        // The weights of one width do not make another.
        for other in WIDTHS.into_iter().filter(|&w| w != HIDDEN) {
            assert!(matches!(
                Network::new(other, &w1, &b1, &w2, 0, 0),
                Err(NetworkError::Shape { name: "w1", .. })
            ));
        }
        let mut big = w1.clone();
        big[7] = MAX_W1 + 1;
        assert_eq!(
            Network::new(HIDDEN, &big, &b1, &w2, 0, 0),
            Err(NetworkError::Range(MAX_W1 + 1))
        );
        assert_eq!(
            Network::new(HIDDEN, &w1, &b1, &w2, 0, -1),
            Err(NetworkError::Threat(-1))
        );
        for hidden in [0, 16, 48, 256] {
            assert_eq!(
                Network::new(hidden, &[], &[], &[], 0, 0),
                Err(NetworkError::Width(hidden))
            );
        }
        // The words say the widths there are.
        let said: Vec<usize> = WIDTHS_TEXT
            .split([',', ' '])
            .filter_map(|w| w.parse().ok())
            .collect();
        assert_eq!(said, WIDTHS);
    }
}
