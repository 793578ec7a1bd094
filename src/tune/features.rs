//! The evaluation as weights times terms.
//!
//! [`evaluate`] is linear in the weights, so a position's terms are its
//! evaluations with one weight set to 1 and the others to 0, and its
//! evaluation with any weights is their sum weighted (a test checks it).
//! Fitting then never evaluates a position again.

use crate::search::EvalParams;
use crate::search::eval::evaluate;
use crate::{Position, Variant};

use super::Sample;

/// The number of weights.
pub const WEIGHTS: usize = EvalParams::COUNT;

/// The terms of `pos` (not over under `variant`) for each weight, in the
/// order of [`EvalParams::NAMES`]; `None` when the game is over.
pub fn terms(pos: &Position, variant: Variant) -> Option<[i16; WEIGHTS]> {
    let best_capture = pos.best_capture(variant)?;
    Some(std::array::from_fn(|i| {
        let mut unit = [0; WEIGHTS];
        unit[i] = 1;
        // Each term is at most 48 in size (seeds or pits counted).
        evaluate(pos, best_capture, &EvalParams::from_array(unit)) as i16
    }))
}

/// The samples as the fit needs them: each one's terms and result.
#[derive(Clone, Debug, Default)]
pub struct Rows {
    /// The terms of each sample.
    pub terms: Vec<[i16; WEIGHTS]>,
    /// The result of each sample (1, 0.5 or 0).
    pub results: Vec<f32>,
}

impl Rows {
    /// The rows of `samples` (those whose game is over left out).
    pub fn of(samples: &[Sample], variant: Variant) -> Rows {
        let mut rows = Rows::default();
        for s in samples {
            if let Some(t) = terms(&s.position, variant) {
                rows.terms.push(t);
                rows.results.push(s.result);
            }
        }
        rows
    }

    /// A row of given terms and result (for synthetic data sets).
    pub fn push(&mut self, terms: [i16; WEIGHTS], result: f32) {
        self.terms.push(terms);
        self.results.push(result);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }
}

/// The evaluation of a row with weights `w`.
#[inline]
pub fn evaluation(terms: &[i16; WEIGHTS], w: &[f64; WEIGHTS]) -> f64 {
    terms.iter().zip(w).map(|(&t, &w)| f64::from(t) * w).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::openings::Rng;
    use crate::{Game, Rules};

    /// Terms weighted by random weights give the evaluation with those
    /// weights, on positions of random games.
    #[test]
    fn the_evaluation_is_the_weighted_sum_of_the_terms() {
        let mut rng = Rng::new(7);
        let mut checked = 0;
        for _ in 0..40 {
            let mut game = Game::new(Position::START, Rules::ABAPA);
            while game.outcome().is_none() {
                let pos = *game.position();
                let t = terms(&pos, Variant::Abapa).expect("not over");
                let w: [i32; WEIGHTS] = std::array::from_fn(|_| rng.below(201) as i32 - 100);
                let p = EvalParams::from_array(w);
                let bc = pos.best_capture(Variant::Abapa).unwrap();
                let sum = evaluation(&t, &w.map(f64::from));
                assert_eq!(sum, f64::from(evaluate(&pos, bc, &p)), "{pos}");
                checked += 1;
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
