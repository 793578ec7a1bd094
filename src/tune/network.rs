//! Training the learned evaluation ([`Network`]) on labelled positions.
//!
//! The same positions and the same loss as the weights' fit ([`super::fit`]):
//! the mean squared error between each position's result and σ(K · the
//! evaluation), with K the scale fitted to the starting weights. The
//! network is trained in floating point (mini-batches, Adam), its weights
//! kept within what the integer network can hold, then rounded to it
//! ([`FloatNetwork::quantize`]). A tenth of the positions (drawn at random)
//! is held out: the epoch with the least error on them is the one kept.

use crate::Position;
use crate::arena::openings::Rng;
use crate::search::eval::network::{
    ACTIVE, HIDDEN, INPUTS, MAX_B2, MAX_HIDDEN, MAX_THREAT, MAX_W1, QA, QB, WIDTHS, active_inputs,
};
use crate::search::{Network, eval::network::NetworkError};

use super::Sample;
use super::fit::sigmoid;

/// A position as the trainer sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TrainRow {
    /// The inputs it sets.
    pub inputs: [u16; ACTIVE],
    /// The captured seeds' difference, for the side to move.
    pub material: f32,
    /// The largest capture on offer.
    pub best_capture: u8,
    /// The result for the side to move (1, 0.5, 0; or between).
    pub result: f32,
}

impl TrainRow {
    /// The row of a position with its best capture and result.
    pub fn new(pos: &Position, best_capture: u8, result: f32) -> TrainRow {
        let me = pos.side_to_move();
        TrainRow {
            inputs: active_inputs(pos),
            material: f32::from(pos.store(me)) - f32::from(pos.store(me.opponent())),
            best_capture,
            result,
        }
    }

    /// The rows of `samples` (those whose game is over left out).
    pub fn of(samples: &[Sample], variant: crate::Variant) -> Vec<TrainRow> {
        samples
            .iter()
            .filter_map(|s| {
                let best = s.position.best_capture(variant)?;
                Some(TrainRow::new(&s.position, best, s.result))
            })
            .collect()
    }
}

/// The network in floating point, in seeds: the evaluation is the
/// material plus `b2 + Σ w2·h + threat · best capture`.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Hidden units (one of the integer network's widths).
    pub hidden: usize,
    /// First layer: a row of `hidden` weights an input, one after the other.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights (seeds per unit).
    pub w2: Vec<f32>,
    /// Output bias (seeds).
    pub b2: f32,
    /// Seeds per seed of the best capture.
    pub threat: f32,
}

/// Limits that keep the rounded weights within the integer network's.
const LIMIT_W1: f32 = MAX_W1 as f32 / QA as f32;
const LIMIT_W2: f32 = (i16::MAX as f32 - 1.0) / (QB as f32 * 100.0);
const LIMIT_B2: f32 = MAX_B2 as f32 / (QA as f32 * QB as f32 * 100.0);
const LIMIT_THREAT: f32 = MAX_THREAT as f32 / 100.0;

impl FloatNetwork {
    /// `hidden` units wide (one of [`WIDTHS`]): random first-layer
    /// weights, units half on, the output at zero and the capture weight
    /// `threat` (seeds a seed).
    ///
    /// # Panics
    ///
    /// If `hidden` is not one of [`WIDTHS`].
    pub fn random(seed: u64, threat: f32, hidden: usize) -> FloatNetwork {
        assert!(WIDTHS.contains(&hidden), "{hidden} hidden units");
        let mut rng = Rng::new(seed);
        let mut uniform =
            |a: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * a - a;
        let spread = 0.5 / (ACTIVE as f32).sqrt();
        FloatNetwork {
            hidden,
            w1: (0..INPUTS * hidden).map(|_| uniform(spread)).collect(),
            b1: vec![0.5; hidden],
            w2: (0..hidden).map(|_| uniform(0.5)).collect(),
            b2: 0.0,
            threat: threat.clamp(0.0, LIMIT_THREAT),
        }
    }

    /// Input `i`'s row of first-layer weights.
    #[inline]
    fn row(&self, i: u16) -> &[f32] {
        let at = usize::from(i) * self.hidden;
        &self.w1[at..at + self.hidden]
    }

    /// The hidden units' sums for a row (the first `hidden` lanes).
    #[inline]
    fn sums(&self, inputs: &[u16; ACTIVE]) -> [f32; MAX_HIDDEN] {
        let mut acc = [0f32; MAX_HIDDEN];
        acc[..self.hidden].copy_from_slice(&self.b1);
        for &i in inputs {
            for (a, w) in acc.iter_mut().zip(self.row(i)) {
                *a += w;
            }
        }
        acc
    }

    /// The evaluation of a row, in seeds for the side to move.
    pub fn evaluate(&self, row: &TrainRow) -> f32 {
        let acc = self.sums(&row.inputs);
        let units: f32 = acc
            .iter()
            .zip(&self.w2)
            .map(|(&a, &w)| a.clamp(0.0, 1.0) * w)
            .sum();
        row.material + self.b2 + units + self.threat * f32::from(row.best_capture)
    }

    /// The integer network nearest to this one.
    pub fn quantize(&self) -> Result<Network, NetworkError> {
        let q1 = |w: f32| (w * QA as f32).round() as i16;
        let w1: Vec<i16> = self.w1.iter().map(|&w| q1(w)).collect();
        let b1: Vec<i16> = self.b1.iter().map(|&w| q1(w)).collect();
        let w2: Vec<i16> = self
            .w2
            .iter()
            .map(|&w| (w * 100.0 * QB as f32).round() as i16)
            .collect();
        let b2 = (f64::from(self.b2) * 100.0 * f64::from(QA * QB)).round() as i32;
        let threat = (self.threat * 100.0).round() as i32;
        Network::new(self.hidden, &w1, &b1, &w2, b2, threat)
    }

    /// The mean squared error of σ(k · 100 · evaluation) against the rows'
    /// results (`k` per centiseed, as the weights' fit has it).
    pub fn error(&self, rows: &[TrainRow], k: f64) -> f64 {
        if rows.is_empty() {
            return 0.0;
        }
        let scale = k * 100.0;
        let sum: f64 = rows
            .iter()
            .map(|r| (sigmoid(scale * f64::from(self.evaluate(r))) - f64::from(r.result)).powi(2))
            .sum();
        sum / rows.len() as f64
    }

    /// Keeps every weight within the integer network's limits.
    fn clip(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-LIMIT_W1, LIMIT_W1);
        }
        for w in &mut self.w2 {
            *w = w.clamp(-LIMIT_W2, LIMIT_W2);
        }
        self.b2 = self.b2.clamp(-LIMIT_B2, LIMIT_B2);
        self.threat = self.threat.clamp(0.0, LIMIT_THREAT);
    }
}

/// How to train.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the training rows.
    pub epochs: usize,
    /// Rows a step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// The sigmoid's scale, per centiseed.
    pub k: f64,
    /// The random draws' seed (the start, the held-out rows, the order).
    pub seed: u64,
    /// The capture weight to start from (seeds a seed).
    pub threat: f32,
    /// Hidden units: one of [`WIDTHS`].
    pub hidden: usize,
}

impl TrainOptions {
    /// Defaults for a sigmoid scale `k`.
    pub fn new(k: f64) -> TrainOptions {
        TrainOptions {
            epochs: 30,
            batch: 256,
            learning_rate: 1e-3,
            k,
            seed: 1,
            threat: 0.5,
            hidden: HIDDEN,
        }
    }
}

/// One epoch's errors.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Epoch {
    /// On the training rows.
    pub train: f64,
    /// On the held-out rows.
    pub held_out: f64,
}

/// What training gave.
#[derive(Clone, Debug)]
pub struct Trained {
    /// The network of the best epoch (least held-out error).
    pub float: FloatNetwork,
    /// Each epoch's errors.
    pub epochs: Vec<Epoch>,
    /// The best epoch (0-based).
    pub best: usize,
    /// Rows trained on and held out.
    pub counts: (usize, usize),
    /// The held-out rows (indices into the rows given).
    pub held_out: Vec<usize>,
}

/// Adam's moments for one array of weights.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(n: usize) -> Moments {
        Moments {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One Adam step on `weights` with gradients `grads` (cleared after).
    fn step(&mut self, weights: &mut [f32], grads: &mut [f32], lr: f32, t: i32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        let c1 = 1.0 - B1.powi(t);
        let c2 = 1.0 - B2.powi(t);
        for i in 0..weights.len() {
            let g = grads[i];
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            weights[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            grads[i] = 0.0;
        }
    }
}

/// Shuffles `items` in place (Fisher–Yates).
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// Trains a network on `rows` (a tenth held out), calling `progress` with
/// each epoch's errors.
pub fn train(
    rows: &[TrainRow],
    options: &TrainOptions,
    mut progress: impl FnMut(usize, &Epoch),
) -> Trained {
    let mut rng = Rng::new(options.seed ^ 0x5EED);
    let mut order: Vec<usize> = (0..rows.len()).collect();
    shuffle(&mut order, &mut rng);
    let held = rows.len() / 10;
    let held_out: Vec<TrainRow> = order[..held].iter().map(|&i| rows[i]).collect();
    let mut train_rows: Vec<TrainRow> = order[held..].iter().map(|&i| rows[i]).collect();

    let mut net = FloatNetwork::random(options.seed, options.threat, options.hidden);
    let scale = (options.k * 100.0) as f32;
    let width = options.hidden;
    let mut g_w1 = vec![0f32; INPUTS * width];
    // The small weights: b1, w2, then b2 and threat.
    let small_len = 2 * width + 2;
    let mut g_small = vec![0f32; small_len];
    let mut m_w1 = Moments::new(INPUTS * width);
    let mut m_small = Moments::new(small_len);
    let mut t = 0;
    let mut best = (f64::INFINITY, net.clone(), 0);
    let mut epochs = Vec::new();
    for epoch in 0..options.epochs {
        shuffle(&mut train_rows, &mut rng);
        for batch in train_rows.chunks(options.batch.max(1)) {
            for row in batch {
                let acc = net.sums(&row.inputs);
                let mut h = [0f32; MAX_HIDDEN];
                for (h, a) in h[..width].iter_mut().zip(&acc) {
                    *h = a.clamp(0.0, 1.0);
                }
                let y = row.material
                    + net.b2
                    + h.iter().zip(&net.w2).map(|(a, w)| a * w).sum::<f32>()
                    + net.threat * f32::from(row.best_capture);
                let p = 1.0 / (1.0 + (-scale * y).exp());
                let dy = 2.0 * (p - row.result) * p * (1.0 - p) * scale / batch.len() as f32;
                // Small weights: b1, w2, then b2 and threat.
                for j in 0..width {
                    g_small[width + j] += dy * h[j];
                    if acc[j] > 0.0 && acc[j] < 1.0 {
                        let dh = dy * net.w2[j];
                        g_small[j] += dh;
                        for &i in &row.inputs {
                            g_w1[usize::from(i) * width + j] += dh;
                        }
                    }
                }
                g_small[2 * width] += dy;
                g_small[2 * width + 1] += dy * f32::from(row.best_capture);
            }
            t += 1;
            m_w1.step(&mut net.w1, &mut g_w1, options.learning_rate, t);
            let mut small: Vec<f32> = net
                .b1
                .iter()
                .chain(&net.w2)
                .copied()
                .chain([net.b2, net.threat])
                .collect();
            m_small.step(&mut small, &mut g_small, options.learning_rate, t);
            net.b1.copy_from_slice(&small[..width]);
            net.w2.copy_from_slice(&small[width..2 * width]);
            (net.b2, net.threat) = (small[2 * width], small[2 * width + 1]);
            net.clip();
        }
        let e = Epoch {
            train: net.error(&train_rows, options.k),
            held_out: net.error(&held_out, options.k),
        };
        progress(epoch, &e);
        epochs.push(e);
        // With nothing held out, the last epoch is kept.
        let measure = if held_out.is_empty() {
            e.train
        } else {
            e.held_out
        };
        if measure <= best.0 {
            best = (measure, net.clone(), epoch);
        }
    }
    Trained {
        float: best.1,
        epochs,
        best: best.2,
        counts: (train_rows.len(), held_out.len()),
        held_out: order[..held].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Rules, Variant};

    /// Positions of random games with their best capture.
    fn positions(seed: u64, games: usize) -> Vec<(Position, u8)> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut game = Game::new(Position::START, Rules::ABAPA);
            while game.outcome().is_none() {
                let pos = *game.position();
                out.push((pos, pos.best_capture(Variant::Abapa).unwrap()));
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
        out
    }

    /// A teacher network of random weights labels random positions with
    /// the probability its evaluation gives; a student trained on them
    /// finds a function close to the teacher's, and its rounding to
    /// integers evaluates as the floating-point student does.
    #[test]
    fn training_recovers_a_known_network() {
        let k = 0.004;
        let mut teacher = FloatNetwork::random(99, 0.3, 32);
        teacher.w2 = (0..32)
            .map(|j| if j % 2 == 0 { 3.0 } else { -2.5 })
            .collect();
        teacher.b2 = 0.7;
        let label = |pos: &Position, bc: u8| {
            let row = TrainRow::new(pos, bc, 0.0);
            TrainRow {
                result: sigmoid(k * 100.0 * f64::from(teacher.evaluate(&row))) as f32,
                ..row
            }
        };
        let rows: Vec<TrainRow> = positions(1, 400)
            .iter()
            .map(|(p, bc)| label(p, *bc))
            .collect();
        assert!(rows.len() > 20_000, "{}", rows.len());
        let options = TrainOptions {
            epochs: 12,
            learning_rate: 3e-3,
            hidden: 32,
            ..TrainOptions::new(k)
        };
        let trained = train(&rows, &options, |_, _| {});
        let first = trained.epochs[0];
        let best = trained.epochs[trained.best];
        assert!(best.held_out < first.held_out, "{:?}", trained.epochs);
        // Fresh positions: the student's probabilities are close to the
        // teacher's.
        let fresh: Vec<TrainRow> = positions(2, 60)
            .iter()
            .map(|(p, bc)| label(p, *bc))
            .collect();
        let student = &trained.float;
        let gap: f64 = fresh
            .iter()
            .map(|r| {
                (sigmoid(k * 100.0 * f64::from(student.evaluate(r))) - f64::from(r.result)).abs()
            })
            .sum::<f64>()
            / fresh.len() as f64;
        let constant: f64 = fresh
            .iter()
            .map(|r| (f64::from(r.result) - 0.5).abs())
            .sum::<f64>()
            / fresh.len() as f64;
        assert!(
            gap < constant / 10.0,
            "student {gap:.4}, a constant 0.5 {constant:.4}"
        );

        // The integer network against the floating-point one.
        let int = student.quantize().unwrap();
        let mut worst = 0f32;
        for (pos, bc) in positions(3, 20) {
            let row = TrainRow::new(&pos, bc, 0.0);
            let float = 100.0 * (student.evaluate(&row) - row.material)
                - 100.0 * student.threat * f32::from(bc);
            let diff = (int.board_value(&pos) as f32 - float).abs();
            worst = worst.max(diff);
        }
        assert!(worst < 10.0, "rounding moved a value by {worst} centiseeds");
    }

    /// Every width rounds to an integer network that evaluates as the
    /// floating-point one, within the rounding.
    #[test]
    fn every_width_rounds_to_its_integer_twin() {
        for hidden in WIDTHS {
            let mut net = FloatNetwork::random(7, 0.4, hidden);
            net.w2 = (0..hidden)
                .map(|j| if j % 3 == 0 { 0.3 } else { -0.2 })
                .collect();
            net.b2 = 0.3;
            let int = net.quantize().unwrap();
            assert_eq!(int.hidden(), hidden);
            let mut worst = 0f32;
            for (pos, bc) in positions(4, 10) {
                let row = TrainRow::new(&pos, bc, 0.0);
                let float = 100.0 * (net.evaluate(&row) - row.material)
                    - 100.0 * net.threat * f32::from(bc);
                worst = worst.max((int.board_value(&pos) as f32 - float).abs());
            }
            assert!(
                worst < 10.0,
                "{hidden} units: rounding moved a value by {worst}"
            );
        }
    }

    #[test]
    fn rounding_respects_the_integer_limits() {
        let mut net = FloatNetwork::random(5, 2.0, 128);
        net.w1[3 * 128 + 4] = 1e6;
        net.w2[0] = -1e6;
        net.b2 = 1e9;
        net.clip();
        let int = net.quantize().unwrap();
        assert_eq!(int.threat(), MAX_THREAT);
        assert!(int.w1().all(|w| w.abs() <= MAX_W1));
    }
}
