//! `oware tune --network`: train the learned evaluation on the positions
//! `oware tune` gathers, and write it as a network file for `--eval`.

use anyhow::{Context, Result};
use serde_json::json;

use oware::search::EvalParams;
use oware::tune::network::{Epoch, TrainOptions, TrainRow, train};
use oware::tune::{Rows, Sample, fit};

use super::output;
use super::tune::TuneArgs;

/// Trains the network on `samples` (their weighted rows are `rows`, the
/// same positions in the same order) from the weights `start`, whose
/// fitted K the network's loss uses.
pub(super) fn run(
    args: &TuneArgs,
    samples: &[Sample],
    rows: &Rows,
    start: &EvalParams,
    source: &str,
    show: bool,
) -> Result<()> {
    let start_w = start.to_array().map(f64::from);
    let k = fit::fit_k(rows, &start_w);
    let train_rows = TrainRow::of(samples, args.rules);
    anyhow::ensure!(
        train_rows.len() == rows.len(),
        "the network's rows and the weights' rows differ"
    );
    let options = TrainOptions {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        seed: args.seed,
        threat: start.threat as f32 / 100.0,
        hidden: args.hidden,
        ..TrainOptions::new(k)
    };
    if show {
        eprintln!(
            "training: {} positions ({} held out), {} epochs",
            train_rows.len(),
            train_rows.len() / 10,
            options.epochs
        );
    }
    let trained = train(&train_rows, &options, |i, e: &Epoch| {
        if show {
            eprintln!(
                "epoch {:>3}: error {:.6}, held out {:.6}",
                i + 1,
                e.train,
                e.held_out
            );
        }
    });
    let network = trained
        .float
        .quantize()
        .context("the trained network does not fit the integer one")?;
    // The weights' error on the same held-out positions, for comparison.
    let mut held = Rows::default();
    for &i in &trained.held_out {
        held.push(rows.terms[i], rows.results[i]);
    }
    let weights_held = fit::error(&held, &start_w, k);
    let weights_all = fit::error(rows, &start_w, k);
    let best = trained.epochs[trained.best];
    if let Some(path) = &args.out {
        let comments = vec![
            format!("oware tune --network: {source}"),
            format!(
                "{} hidden units, {} epochs (best {}), K {k:.6}: held-out error {:.6} (the start weights {weights_held:.6})",
                network.hidden(),
                options.epochs,
                trained.best + 1,
                best.held_out
            ),
        ];
        network
            .save(path, &comments)
            .with_context(|| format!("cannot write network file {}", path.display()))?;
    }
    if args.json {
        output::line(json!({
            "positions": train_rows.len(),
            "held_out": trained.counts.1,
            "k": k,
            "epochs": trained.epochs.iter().map(|e| json!({"train": e.train, "held_out": e.held_out})).collect::<Vec<_>>(),
            "best_epoch": trained.best + 1,
            "error": best.train,
            "held_out_error": best.held_out,
            "weights_error": weights_all,
            "weights_held_out_error": weights_held,
            "checksum": format!("{:08x}", network.checksum()),
            "threat": network.threat(),
            "hidden": network.hidden(),
            "out": args.out.as_ref().map(|p| p.display().to_string()),
        }));
    } else {
        output::line(format_args!("data: {source}"));
        output::line(format_args!(
            "K: {k:.6} (per centiseed, fitted to the start weights)"
        ));
        output::line(format_args!(
            "start weights: error {weights_all:.6}, held out {weights_held:.6}"
        ));
        output::line(format_args!(
            "network (best of {} epochs: {}): error {:.6}, held out {:.6}",
            options.epochs,
            trained.best + 1,
            best.train,
            best.held_out
        ));
        output::line(format_args!(
            "network {:08x}: {} hidden units, capture weight {}",
            network.checksum(),
            network.hidden(),
            network.threat()
        ));
        if let Some(path) = &args.out {
            output::line(format_args!("wrote {}", path.display()));
        }
    }
    Ok(())
}
