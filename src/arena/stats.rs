//! Match statistics: W/D/L, the score and the Elo difference with a 95 %
//! interval (trinomial, game by game), the pentanomial counts of game pairs
//! (an opening played twice, colours swapped) with their Elo, and the
//! sequential probability ratio test on the pairs (the GSPRT of fastchess
//! and OpenBench: logistic Elo, normal approximation of the log-likelihood
//! ratio with the variance of the pentanomial frequencies).

use std::fmt;
use std::str::FromStr;

use super::series::GameResult;

/// The 97.5 % quantile of the normal distribution (a two-sided 95 % interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The expected score of an Elo difference (logistic): 1 / (1 + 10^(−elo/400)).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (±∞ at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An Elo estimate with its 95 % interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub elo: f64,
    /// The lower end of the interval.
    pub lower: f64,
    /// The upper end of the interval.
    pub upper: f64,
}

impl Elo {
    /// From a mean score and its standard error.
    fn of(mean: f64, stderr: f64) -> Elo {
        Elo {
            elo: elo_of_score(mean),
            lower: elo_of_score(mean - Z95 * stderr),
            upper: elo_of_score(mean + Z95 * stderr),
        }
    }

    /// Half the width of the interval (the `±` figure).
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

fn signed(x: f64) -> String {
    // No "-0.0".
    let x = if x == 0.0 { 0.0 } else { x };
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.1}")
    }
}

/// `+35.1 ± 20.3 [15.0, 55.6]`.
impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let margin = self.margin();
        if margin.is_finite() {
            write!(f, "{} ± {margin:.1}", signed(self.elo))?;
        } else {
            write!(f, "{} ± inf", signed(self.elo))?;
        }
        write!(f, " [{}, {}]", signed(self.lower), signed(self.upper))
    }
}

/// Wins, draws and losses, from the first engine's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Counts one game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score (a win 1, a draw ½), 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n
    }

    /// The Elo difference with its 95 % interval, from the variance of the
    /// game scores (trinomial); `None` with no games.
    pub fn elo(&self) -> Option<Elo> {
        let n = f64::from(self.games());
        if n == 0.0 {
            return None;
        }
        let s = self.score();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some(Elo::of(s, (var / n).sqrt()))
    }
}

/// The pentanomial counts of game pairs, by the first engine's points in the
/// pair: `[LL, LD, DD+WL, WD, WW]` (0, ½, 1, 1½, 2 points).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by points ×2 (index 0: LL … index 4: WW).
    pub counts: [u32; 5],
}

/// The points of a game ×2 (loss 0, draw 1, win 2).
fn half_points(result: GameResult) -> usize {
    match result {
        GameResult::Win => 2,
        GameResult::Draw => 1,
        GameResult::Loss => 0,
    }
}

impl Pentanomial {
    /// Counts one pair (both results from the first engine's side).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[half_points(first) + half_points(second)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score of a pair (0..1) and the variance of a pair's score;
    /// `None` with no pairs.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let value = |i: usize| i as f64 / 4.0;
        let mean = (0..5)
            .map(|i| f64::from(self.counts[i]) * value(i))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|i| f64::from(self.counts[i]) * (value(i) - mean).powi(2))
            .sum::<f64>()
            / n;
        Some((mean, var))
    }

    /// The Elo difference with its 95 % interval, from the variance of the
    /// pair scores; `None` with no pairs.
    pub fn elo(&self) -> Option<Elo> {
        let (mean, var) = self.mean_and_variance()?;
        Some(Elo::of(mean, (var / f64::from(self.pairs())).sqrt()))
    }
}

/// `[LL, LD, DD+WL, WD, WW]` counts.
impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// A sequential probability ratio test of H0: Elo = elo0 against
/// H1: Elo = elo1 (logistic Elo), with error rates α and β.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of the null hypothesis.
    pub elo0: f64,
    /// The Elo of the alternative.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What the test concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR fell below the lower bound: H0 (elo0) accepted.
    H0,
    /// The LLR rose above the upper bound: H1 (elo1) accepted.
    H1,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::H1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// The test of `elo0` against `elo1` with α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The bounds of the LLR: ln(β/(1−α)) and ln((1−β)/α).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs: with s0, s1 the expected pair
    /// scores of elo0 and elo1 and x̄, σ² the mean and variance of the pair
    /// scores over N pairs, LLR = N (s1 − s0)(2x̄ − s0 − s1) / (2σ²).
    /// 0 while the variance is 0 (no pairs, or all alike).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let Some((mean, var)) = pairs.mean_and_variance() else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        f64::from(pairs.pairs()) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict for an LLR, if it crossed a bound.
    pub fn verdict(&self, llr: f64) -> Option<SprtVerdict> {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            Some(SprtVerdict::H0)
        } else if llr >= upper {
            Some(SprtVerdict::H1)
        } else {
            None
        }
    }

    /// `LLR 1.23 (-2.94, 2.94) [0, 10]`.
    pub fn describe(&self, llr: f64) -> String {
        let (lower, upper) = self.bounds();
        format!(
            "LLR {llr:.2} ({lower:.2}, {upper:.2}) [{}, {}]",
            self.elo0, self.elo1
        )
    }
}

/// Why an SPRT specification was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad SPRT `{0}` (expected elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta < 0.5)"
)]
pub struct SprtError(String);

/// `elo0,elo1[,alpha,beta]`.
impl FromStr for Sprt {
    type Err = SprtError;

    fn from_str(s: &str) -> Result<Sprt, SprtError> {
        let bad = || SprtError(s.to_string());
        let numbers = s
            .split(',')
            .map(|x| x.trim().parse::<f64>().map_err(|_| bad()))
            .collect::<Result<Vec<f64>, _>>()?;
        let sprt = match numbers[..] {
            [elo0, elo1] => Sprt::new(elo0, elo1),
            [elo0, elo1, alpha, beta] => Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            },
            _ => return Err(bad()),
        };
        let rate = |p: f64| p > 0.0 && p < 0.5;
        let valid = sprt.elo0.is_finite()
            && sprt.elo1.is_finite()
            && sprt.elo0 < sprt.elo1
            && rate(sprt.alpha)
            && rate(sprt.beta);
        if !valid {
            return Err(bad());
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        close(score_of_elo(0.0), 0.5, 1e-12);
        // 10^(-100/400) = 0.562341; 1/1.562341 = 0.640065.
        close(score_of_elo(100.0), 0.640_065, 1e-6);
        close(elo_of_score(0.640_065), 100.0, 1e-3);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn sprt_parses() {
        let s: Sprt = "0,10".parse().unwrap();
        assert_eq!(s, Sprt::new(0.0, 10.0));
        let s: Sprt = "-5, 5, 0.1, 0.2".parse().unwrap();
        assert_eq!((s.alpha, s.beta), (0.1, 0.2));
        for bad in [
            "",
            "0",
            "10,0",
            "0,10,0.05",
            "0,10,0,0.05",
            "a,b",
            "0,10,0.5,0.5",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
        let (lo, hi) = Sprt::new(0.0, 10.0).bounds();
        // ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
        close(lo, -2.944_439, 1e-6);
        close(hi, 2.944_439, 1e-6);
    }
}
