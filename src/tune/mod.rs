//! Tuning the evaluation's weights on positions whose result is known
//! (Texel's method): the weights that minimise the mean squared error
//! between the outcome of each position and a sigmoid of its evaluation.
//!
//! The positions come from the endgame tables ([`tables`]: boards of the
//! tables' levels with stores that make the entry's verdict certain) and
//! from self-play games beyond the tables' levels ([`selfplay`], labelled
//! with the game's result). [`features`] writes the evaluation as a sum of
//! weights times terms, and [`fit`] finds the weights; [`network`] trains
//! the learned evaluation on the same positions instead.

pub mod data;
pub mod features;
pub mod fit;
pub mod network;
pub mod selfplay;
pub mod tables;

pub use data::{DataError, Sample};
pub use features::Rows;
pub use fit::{Fit, FitOptions};
