//! What rank 0 reports of each level.

use crate::Variant;
use crate::tb::builder::LevelSummary;

/// One level's line on rank 0, with what each rank exchanged.
#[derive(Clone, Debug)]
pub struct DistributedSummary {
    /// What the single-process build reports.
    pub summary: LevelSummary,
    /// Bytes each rank sent to other ranks in this level (by rank).
    pub sent: Vec<u64>,
    /// Bytes each rank received from other ranks in this level.
    pub received: Vec<u64>,
    /// Rounds of exchanges of the settling (all thresholds).
    pub rounds: u64,
    /// CPU seconds (user + system) each rank spent on this level: on a
    /// shared machine the wall time also counts waiting for a core.
    pub cpu: Vec<f64>,
}

impl DistributedSummary {
    /// The single-process line plus the exchanged bytes.
    pub fn describe(&self, variant: Variant) -> String {
        let line = self.summary.describe(variant);
        if !self.summary.built {
            return line;
        }
        let sent: u64 = self.sent.iter().sum();
        let per_rank = self
            .sent
            .iter()
            .zip(&self.received)
            .map(|(s, r)| format!("{}/{}", mb(*s), mb(*r)))
            .collect::<Vec<_>>()
            .join(" ");
        let cpu = self
            .cpu
            .iter()
            .map(|c| format!("{c:.1}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "{line}  [{} rounds; sent {:.2} B/board; MB sent/received by rank: {per_rank}; cpu s by rank: {cpu}]",
            self.rounds,
            sent as f64 / self.summary.boards.max(1) as f64
        )
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}
