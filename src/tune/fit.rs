//! The fit: the weights (and the sigmoid's scale K) minimising the mean
//! squared error between each row's result and σ(K · evaluation).
//!
//! The evaluation is linear in the weights, so the error is a smooth
//! function of a handful of numbers: Levenberg–Marquardt finds its minimum
//! over real weights in a few dozen passes over the rows, and a search by
//! steps of one on each weight in turn then settles the integer weights the
//! engine uses. K says how sure a score of one seed makes a win.
//!
//! The weights and K are tied: doubling every weight and halving K changes
//! nothing. A weight left fixed (`store`, 100 a seed, by default) sets the
//! scale, and K is then fitted with the free weights; with every weight
//! free, K stays at its fit to the starting weights (Texel's usual way).

use super::features::{Rows, WEIGHTS, evaluation};

/// σ(x) = 1 / (1 + e^−x).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of σ(k · evaluation) against the results.
pub fn error(rows: &Rows, w: &[f64; WEIGHTS], k: f64) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let sum: f64 = rows
        .terms
        .iter()
        .zip(&rows.results)
        .map(|(t, &y)| (sigmoid(k * evaluation(t, w)) - f64::from(y)).powi(2))
        .sum();
    sum / rows.len() as f64
}

/// The K > 0 minimising [`error`] for the weights `w`: the best of a grid
/// from 10⁻⁶ to 1 (per centiseed), refined by golden-section search.
pub fn fit_k(rows: &Rows, w: &[f64; WEIGHTS]) -> f64 {
    let (lo, hi, steps) = (1e-6f64.ln(), 0.0f64, 36);
    let at = |i: usize| lo + (hi - lo) * i as f64 / steps as f64;
    let e = |t: f64| error(rows, w, t.exp());
    let best = (0..=steps)
        .map(|i| (i, e(at(i))))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(i, _)| i);
    let (mut a, mut b) = (at(best.saturating_sub(1)), at((best + 1).min(steps)));
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - ratio * (b - a), a + ratio * (b - a));
    let (mut ec, mut ed) = (e(c), e(d));
    for _ in 0..60 {
        if ec < ed {
            (b, d, ed) = (d, c, ec);
            c = b - ratio * (b - a);
            ec = e(c);
        } else {
            (a, c, ec) = (c, d, ed);
            d = a + ratio * (b - a);
            ed = e(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// What to fit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FitOptions {
    /// The weights the fit may change (in the order of
    /// [`crate::search::EvalParams::NAMES`]).
    pub free: [bool; WEIGHTS],
    /// Passes of Levenberg–Marquardt at most.
    pub max_iterations: usize,
}

impl FitOptions {
    /// Fits the weights marked in `free`.
    pub const fn new(free: [bool; WEIGHTS]) -> FitOptions {
        FitOptions {
            free,
            max_iterations: 200,
        }
    }

    /// Whether K is fitted with the weights: some weight is fixed.
    pub fn fits_k(&self) -> bool {
        self.free.iter().any(|&f| !f)
    }
}

/// The result of a fit.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fit {
    /// K fitted to the starting weights.
    pub k_start: f64,
    /// The error of the starting weights with `k_start`.
    pub error_start: f64,
    /// The fitted weights.
    pub weights: [i32; WEIGHTS],
    /// K with the fitted weights.
    pub k: f64,
    /// The error of the fitted weights with `k`.
    pub error: f64,
    /// The fitted weights before rounding.
    pub real_weights: [f64; WEIGHTS],
}

/// Fits the free weights of `start` (and K, when some weight is fixed) to
/// the rows.
pub fn fit(rows: &Rows, start: &[i32; WEIGHTS], options: &FitOptions) -> Fit {
    let w0 = start.map(f64::from);
    let k_start = fit_k(rows, &w0);
    let error_start = error(rows, &w0, k_start);
    let fits_k = options.fits_k();
    let (real, k) = marquardt(rows, w0, k_start, options);
    // Integer weights: rounded, then each moved by one while that helps.
    let mut w = real.map(f64::round);
    let mut k = if fits_k { fit_k(rows, &w) } else { k };
    let mut e = error(rows, &w, k);
    for _ in 0..100 {
        let mut moved = false;
        for i in (0..WEIGHTS).filter(|&i| options.free[i]) {
            for step in [1.0, -1.0] {
                loop {
                    let mut trial = w;
                    trial[i] += step;
                    let te = error(rows, &trial, k);
                    if te >= e {
                        break;
                    }
                    (w, e, moved) = (trial, te, true);
                }
            }
        }
        if fits_k {
            k = fit_k(rows, &w);
            e = error(rows, &w, k);
        }
        if !moved {
            break;
        }
    }
    Fit {
        k_start,
        error_start,
        weights: w.map(|x| x as i32),
        k,
        error: e,
        real_weights: real,
    }
}

/// Levenberg–Marquardt on the free weights (and K when some weight is
/// fixed), from `w` and `k`: the real weights and K it ends with.
fn marquardt(
    rows: &Rows,
    mut w: [f64; WEIGHTS],
    mut k: f64,
    options: &FitOptions,
) -> ([f64; WEIGHTS], f64) {
    let free: Vec<usize> = (0..WEIGHTS).filter(|&i| options.free[i]).collect();
    let fits_k = options.fits_k();
    let n = free.len() + usize::from(fits_k);
    if n == 0 || rows.is_empty() {
        return (w, k);
    }
    let mut lambda = 1e-3;
    let (mut normal, mut gradient, mut e) = normal_equations(rows, &w, k, &free, fits_k);
    for _ in 0..options.max_iterations {
        // Damping scaled by the diagonal (Marquardt), kept above zero for a
        // term no row has.
        let top = (0..n).map(|i| normal[i][i]).fold(0.0, f64::max);
        let mut m = normal.clone();
        for (i, row) in m.iter_mut().enumerate() {
            row[i] += lambda * normal[i][i].max(top * 1e-12).max(1e-300);
        }
        let step = solve(m, gradient.iter().map(|g| -g).collect());
        let (mut tw, mut tk) = (w, k);
        for (j, &i) in free.iter().enumerate() {
            tw[i] += step[j];
        }
        if fits_k {
            tk += step[n - 1];
        }
        let te = if tk > 0.0 && step.iter().all(|s| s.is_finite()) {
            error(rows, &tw, tk) * rows.len() as f64
        } else {
            f64::INFINITY
        };
        if te < e {
            let gain = (e - te) / e.max(f64::MIN_POSITIVE);
            (w, k) = (tw, tk);
            (normal, gradient, e) = normal_equations(rows, &w, k, &free, fits_k);
            lambda = (lambda / 3.0).max(1e-12);
            if gain < 1e-13 {
                break;
            }
        } else {
            lambda *= 4.0;
            if lambda > 1e12 {
                break;
            }
        }
    }
    (w, k)
}

/// JᵀJ, Jᵀr and Σr² at `w`, `k`, with J the derivatives of the residuals
/// σ(k · evaluation) − result by the free weights (then K).
fn normal_equations(
    rows: &Rows,
    w: &[f64; WEIGHTS],
    k: f64,
    free: &[usize],
    fits_k: bool,
) -> (Vec<Vec<f64>>, Vec<f64>, f64) {
    let n = free.len() + usize::from(fits_k);
    let mut normal = vec![vec![0.0; n]; n];
    let mut gradient = vec![0.0; n];
    let mut sum = 0.0;
    let mut j = vec![0.0; n];
    for (t, &y) in rows.terms.iter().zip(&rows.results) {
        let s = evaluation(t, w);
        let p = sigmoid(k * s);
        let (r, d) = (p - f64::from(y), p * (1.0 - p));
        for (ji, &i) in j.iter_mut().zip(free) {
            *ji = d * k * f64::from(t[i]);
        }
        if fits_k {
            j[n - 1] = d * s;
        }
        for a in 0..n {
            gradient[a] += j[a] * r;
            for b in 0..=a {
                normal[a][b] += j[a] * j[b];
            }
        }
        sum += r * r;
    }
    // Only the lower triangle was summed: copy it up.
    for a in 1..n {
        let (upper, lower) = normal.split_at_mut(a);
        for (b, row) in upper.iter_mut().enumerate() {
            row[a] = lower[0][b];
        }
    }
    (normal, gradient, sum)
}

/// The solution of `m x = v` by Gaussian elimination with partial pivoting
/// (`m` small and, damped, never singular; a zero pivot gives a zero).
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Vec<f64> {
    let n = v.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        v.swap(col, pivot);
        if m[col][col] == 0.0 {
            continue;
        }
        for row in col + 1..n {
            let (top, bottom) = m.split_at_mut(row);
            let (pivot, target) = (&top[col], &mut bottom[0]);
            let f = target[col] / pivot[col];
            for (t, p) in target[col..].iter_mut().zip(&pivot[col..]) {
                *t -= f * p;
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|c| m[row][c] * x[c]).sum();
        x[row] = if m[row][row] == 0.0 {
            0.0
        } else {
            (v[row] - rest) / m[row][row]
        };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_systems_are_solved() {
        let m = vec![
            vec![0.0, 2.0, 1.0],
            vec![1.0, 1.0, 0.0],
            vec![3.0, 0.0, 1.0],
        ];
        let x = solve(m.clone(), vec![5.0, 3.0, 6.0]);
        for (row, want) in m.iter().zip([5.0, 3.0, 6.0]) {
            let got: f64 = row.iter().zip(&x).map(|(a, b)| a * b).sum();
            assert!((got - want).abs() < 1e-12, "{x:?}");
        }
    }

    /// Rows whose results are exactly the sigmoid of a known evaluation:
    /// the fit finds K and the weights exactly (before rounding).
    #[test]
    fn noiseless_rows_give_back_their_weights() {
        let mut truth = [0.0; WEIGHTS];
        (truth[0], truth[1], truth[2], truth[5]) = (100.0, 7.0, -20.0, 35.0);
        let k = 0.004;
        let mut rows = Rows::default();
        let mut x = 12345u64;
        for _ in 0..3000 {
            let terms = std::array::from_fn(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % 25) as i16 - 12
            });
            rows.push(terms, sigmoid(k * evaluation(&terms, &truth)) as f32);
        }
        let mut free = [false; WEIGHTS];
        (free[1], free[2], free[5]) = (true, true, true);
        let mut start = [0; WEIGHTS];
        start[0] = 100;
        let f = fit(&rows, &start, &FitOptions::new(free));
        assert_eq!(f.weights, truth.map(|w| w as i32));
        assert!((f.k - k).abs() < 1e-5, "{}", f.k);
        for i in [1, 2, 5] {
            assert!(
                (f.real_weights[i] - truth[i]).abs() < 0.05,
                "{:?}",
                f.real_weights
            );
        }
        assert!(f.error < 1e-8 && f.error_start > 1e-3, "{f:?}");
    }
}
