//! The rules a table file is built for: one of Oware's variants, or Arabic
//! Mancala under one of its capture conventions.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::file::Encoding;
use super::index;
use crate::Variant;

/// The rules a table holds values for, as its header records them.
///
/// A Mancala table does not depend on the start (every level is reached
/// from every start that has that many seeds or more), so the header
/// records the capture convention only; see the README.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Wire", into = "Wire")]
pub enum TableRules {
    /// Oware under a variant.
    Oware(Variant),
    /// Arabic Mancala (RULES.md §7): `empty_capture` as in
    /// [`MancalaRules`](crate::mancala::MancalaRules).
    Mancala {
        /// A last seed in an empty house facing an empty one is stored.
        empty_capture: bool,
    },
    /// Arabic Mancala with the 25-seed stop (race tables, see
    /// [`RaceRules`](crate::mancala::race::RaceRules)): a board's entry is
    /// its outcome's thresholds for the start of `total` seeds.
    MancalaRace {
        /// A last seed in an empty house facing an empty one is stored.
        empty_capture: bool,
        /// Seeds in play (60 for the 5-seed start).
        total: u8,
    },
}

/// The header's encoding of [`TableRules`]: Oware's variants keep the
/// indices `Variant` had when it was the header's field, so that the files
/// written before Mancala came stay byte for byte what they were.
#[derive(Copy, Clone, Serialize, Deserialize)]
enum Wire {
    Abapa,
    GrandSlamForbidden,
    CaptureAndEnd,
    Awari,
    Mancala { empty_capture: bool },
    // Appended: no table is built for it (see `Variant::has_tables`), but
    // the encoding stays total.
    CaptureToWin,
    // Appended: race tables (a race table never reads as a difference
    // table, nor the other way round).
    MancalaRace { empty_capture: bool, total: u8 },
}

impl From<Wire> for TableRules {
    fn from(w: Wire) -> TableRules {
        match w {
            Wire::Abapa => TableRules::Oware(Variant::Abapa),
            Wire::GrandSlamForbidden => TableRules::Oware(Variant::GrandSlamForbidden),
            Wire::CaptureAndEnd => TableRules::Oware(Variant::CaptureAndEnd),
            Wire::Awari => TableRules::Oware(Variant::Awari),
            Wire::Mancala { empty_capture } => TableRules::Mancala { empty_capture },
            Wire::CaptureToWin => TableRules::Oware(Variant::CaptureToWin),
            Wire::MancalaRace {
                empty_capture,
                total,
            } => TableRules::MancalaRace {
                empty_capture,
                total,
            },
        }
    }
}

impl From<TableRules> for Wire {
    fn from(r: TableRules) -> Wire {
        match r {
            TableRules::Oware(Variant::Abapa) => Wire::Abapa,
            TableRules::Oware(Variant::GrandSlamForbidden) => Wire::GrandSlamForbidden,
            TableRules::Oware(Variant::CaptureAndEnd) => Wire::CaptureAndEnd,
            TableRules::Oware(Variant::Awari) => Wire::Awari,
            TableRules::Mancala { empty_capture } => Wire::Mancala { empty_capture },
            TableRules::Oware(Variant::CaptureToWin) => Wire::CaptureToWin,
            TableRules::MancalaRace {
                empty_capture,
                total,
            } => Wire::MancalaRace {
                empty_capture,
                total,
            },
        }
    }
}

impl From<Variant> for TableRules {
    fn from(v: Variant) -> TableRules {
        TableRules::Oware(v)
    }
}

impl TableRules {
    /// The name in file names and messages: the Oware variant's, or
    /// `mancala` and `mancala-empty-capture`.
    pub const fn name(self) -> &'static str {
        match self {
            TableRules::Oware(v) => v.name(),
            TableRules::Mancala {
                empty_capture: false,
            } => "mancala",
            TableRules::Mancala {
                empty_capture: true,
            } => "mancala-empty-capture",
            TableRules::MancalaRace {
                empty_capture,
                total,
            } => match (empty_capture, total) {
                (false, 36) => "mancala-race36",
                (false, 48) => "mancala-race48",
                (false, 60) => "mancala-race60",
                (false, 84) => "mancala-race84",
                (true, 36) => "mancala-empty-capture-race36",
                (true, 48) => "mancala-empty-capture-race48",
                (true, 60) => "mancala-empty-capture-race60",
                (true, 84) => "mancala-empty-capture-race84",
                (false, _) => "mancala-race",
                (true, _) => "mancala-empty-capture-race",
            },
        }
    }

    /// The options of `oware build` for these rules.
    pub fn build_flags(self) -> String {
        match self {
            TableRules::Oware(v) => format!("--rules {}", v.name()),
            TableRules::Mancala {
                empty_capture: false,
            } => "--rules mancala".to_string(),
            TableRules::Mancala {
                empty_capture: true,
            } => "--rules mancala --empty-capture".to_string(),
            TableRules::MancalaRace {
                empty_capture,
                total,
            } => format!(
                "--rules mancala{} --race --start-seeds {}",
                if empty_capture {
                    " --empty-capture"
                } else {
                    ""
                },
                total / 12
            ),
        }
    }

    /// How a board's value is stored.
    pub const fn encoding(self) -> Encoding {
        match self {
            TableRules::Oware(v) => Encoding::for_variant(v),
            TableRules::Mancala { .. } | TableRules::MancalaRace { .. } => Encoding::Score,
        }
    }

    /// Boards in level `n`: Oware's boards after a move (see
    /// [`index`]), or every board of Mancala.
    pub const fn level_size(self, n: usize) -> u64 {
        match self {
            TableRules::Oware(_) => index::level_size(n),
            TableRules::Mancala { .. } | TableRules::MancalaRace { .. } => {
                index::full_level_size(n)
            }
        }
    }
}

impl fmt::Display for TableRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oware_rules_encode_as_the_variant_did() {
        let config = bincode::config::standard();
        // The variants that have tables (those written before Mancala came).
        for v in Variant::ALL.into_iter().filter(|v| v.has_tables()) {
            let old = bincode::serde::encode_to_vec(v, config).unwrap();
            let new = bincode::serde::encode_to_vec(TableRules::Oware(v), config).unwrap();
            assert_eq!(old, new, "{v}");
        }
        for empty_capture in [false, true] {
            let rules = TableRules::Mancala { empty_capture };
            let bytes = bincode::serde::encode_to_vec(rules, config).unwrap();
            let (back, _): (TableRules, usize) =
                bincode::serde::decode_from_slice(&bytes, config).unwrap();
            assert_eq!(back, rules);
            // No Oware variant with tables reads it.
            let read = bincode::serde::decode_from_slice::<Variant, _>(&bytes, config);
            assert!(!read.is_ok_and(|(v, _)| v.has_tables()));
        }
        // A variant added after Mancala is appended to the wire encoding.
        let rules = TableRules::Oware(Variant::CaptureToWin);
        let bytes = bincode::serde::encode_to_vec(rules, config).unwrap();
        let (back, _): (TableRules, usize) =
            bincode::serde::decode_from_slice(&bytes, config).unwrap();
        assert_eq!(back, rules);
    }
}
