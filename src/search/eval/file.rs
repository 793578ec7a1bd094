//! Evaluation weights in a text file: one `name = value` line a weight
//! (`#` starts a comment), or a JSON object of the same names. Weights not
//! named keep their default, so a file may change only some of them.
//!
//! ```text
//! # oware evaluation weights, in centiseeds (100 = one seed)
//! store = 100
//! own_seed = 5
//! threat = 28
//! ```

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::EvalParams;

/// The largest evaluation (in centiseeds, either sign) a set of weights may
/// give: proven results are scored from 29,000 up, and the search's
/// windows need room between the two.
pub const MAX_EVALUATION: i64 = 15_000;

/// Why a text is not a set of weights.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamsError {
    /// A line that is neither a comment nor `name = value`.
    #[error("line {0}: expected `name = value`")]
    Syntax(usize),
    /// The text starts like JSON but is not valid JSON.
    #[error("bad JSON: {0}")]
    Json(String),
    /// Valid JSON, but not an object.
    #[error("expected a JSON object of weights")]
    NotObject,
    /// A name that is no weight.
    #[error("unknown weight `{0}` (the weights: {names})", names = EvalParams::NAMES.join(", "))]
    Unknown(String),
    /// The same weight twice.
    #[error("weight `{0}` given twice")]
    Twice(String),
    /// A value that is not an integer of at most six digits.
    #[error("bad value `{value}` for {name} (an integer, at most 999999 either way)")]
    Value {
        /// The weight.
        name: String,
        /// What was given.
        value: String,
    },
    /// Weights with which the evaluation could reach the proven scores.
    #[error(
        "these weights can make the evaluation reach {0} centiseeds (at most {MAX_EVALUATION}, below the proven results' scores)"
    )]
    TooLarge(i64),
}

/// Why a weights file cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum EvalFileError {
    /// The file cannot be read.
    #[error("cannot read eval file {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file's text is not a set of weights.
    #[error("eval file {}: {error}", path.display())]
    Bad {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: ParamsError,
    },
    /// A network file that cannot be used.
    #[error("eval file {}: network {error}", path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: super::network_file::NetworkFileError,
    },
    /// Bytes that are neither text nor a network.
    #[error("eval file {}: neither a network nor a weights text", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
    },
    /// The file cannot be written.
    #[error("cannot write eval file {}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
}

impl EvalParams {
    /// The number of weights.
    pub const COUNT: usize = 7;

    /// The weights' names, in the order of [`EvalParams::to_array`].
    pub const NAMES: [&'static str; EvalParams::COUNT] = [
        "store", "own_seed", "target", "empty", "mobility", "kroo", "threat",
    ];

    /// The weights in the order of [`EvalParams::NAMES`].
    pub const fn to_array(&self) -> [i32; EvalParams::COUNT] {
        [
            self.store,
            self.own_seed,
            self.target,
            self.empty,
            self.mobility,
            self.kroo,
            self.threat,
        ]
    }

    /// The weights from an array in the order of [`EvalParams::NAMES`].
    pub const fn from_array(w: [i32; EvalParams::COUNT]) -> EvalParams {
        EvalParams {
            store: w[0],
            own_seed: w[1],
            target: w[2],
            empty: w[3],
            mobility: w[4],
            kroo: w[5],
            threat: w[6],
        }
    }

    /// The index in [`EvalParams::NAMES`] of a weight (`own_seed` may also
    /// be written `own-seed`).
    pub fn index_of(name: &str) -> Option<usize> {
        let name = name.trim().replace('-', "_");
        EvalParams::NAMES.iter().position(|&n| n == name)
    }

    /// The most the evaluation can give with these weights, either sign
    /// (a bound: no position need reach it). An empty pit counts the
    /// difference of `empty` and `mobility` only, since both rows have six
    /// pits; at most four pits hold 12 seeds or more; a capture takes at
    /// most five pits of 3.
    pub fn max_evaluation(&self) -> i64 {
        let a = |w: i32| i64::from(w).abs();
        48 * a(self.store)
            + 48 * a(self.own_seed)
            + 6 * a(self.target)
            + 6 * (i64::from(self.empty) - i64::from(self.mobility)).abs()
            + 4 * a(self.kroo)
            + 15 * a(self.threat)
    }

    /// Reads weights from the text of a weights file (see the module's
    /// documentation); weights not named keep their default.
    pub fn parse(text: &str) -> Result<EvalParams, ParamsError> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        if text.trim_start().starts_with('{') {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| ParamsError::Json(e.to_string()))?;
            let object = value.as_object().ok_or(ParamsError::NotObject)?;
            pairs.extend(object.iter().map(|(k, v)| (k.clone(), v.to_string())));
        } else {
            for (i, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let (k, v) = line
                    .split_once('=')
                    .or_else(|| line.split_once(':'))
                    .ok_or(ParamsError::Syntax(i + 1))?;
                pairs.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        let mut w = EvalParams::DEFAULT.to_array();
        let mut seen = [false; EvalParams::COUNT];
        for (name, value) in pairs {
            let i =
                EvalParams::index_of(&name).ok_or_else(|| ParamsError::Unknown(name.clone()))?;
            if std::mem::replace(&mut seen[i], true) {
                return Err(ParamsError::Twice(EvalParams::NAMES[i].to_string()));
            }
            w[i] = value
                .parse::<i32>()
                .ok()
                .filter(|v| v.abs() <= 999_999)
                .ok_or(ParamsError::Value { name, value })?;
        }
        let p = EvalParams::from_array(w);
        match p.max_evaluation() {
            m if m > MAX_EVALUATION => Err(ParamsError::TooLarge(m)),
            _ => Ok(p),
        }
    }

    /// The weights as the text of a weights file: the `comments` (one `#`
    /// line each), then every weight on a line of its own.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut out = String::new();
        for c in comments {
            for line in c.lines() {
                out.push_str(&format!("# {line}\n"));
            }
        }
        for (name, w) in EvalParams::NAMES.iter().zip(self.to_array()) {
            out.push_str(&format!("{name} = {w}\n"));
        }
        out
    }

    /// Reads a weights file.
    pub fn load(path: &Path) -> Result<EvalParams, EvalFileError> {
        let text = fs::read_to_string(path).map_err(|error| EvalFileError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        EvalParams::parse(&text).map_err(|error| EvalFileError::Bad {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Writes the weights to `path` as [`EvalParams::to_text`] does (to a
    /// temporary file, then renamed).
    pub fn save(&self, path: &Path, comments: &[String]) -> Result<(), EvalFileError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let result = fs::write(&tmp, self.to_text(comments)).and_then(|()| fs::rename(&tmp, path));
        result.map_err(|error| {
            let _ = fs::remove_file(&tmp);
            EvalFileError::Write {
                path: path.to_path_buf(),
                error,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_files_keep_the_defaults() {
        let p = EvalParams::parse("# weights\nstore = 90\nown-seed=5  # more\n\n").unwrap();
        let d = EvalParams::DEFAULT;
        assert_eq!((p.store, p.own_seed, p.kroo), (90, 5, d.kroo));
        let p = EvalParams::parse(r#"{"threat": 7, "own_seed": -1}"#).unwrap();
        assert_eq!((p.threat, p.own_seed, p.store), (7, -1, d.store));
        assert_eq!(EvalParams::parse("").unwrap(), d);
    }

    #[test]
    fn text_round_trips() {
        let p = EvalParams {
            store: 97,
            own_seed: -3,
            target: 15,
            empty: -11,
            mobility: 2,
            kroo: 55,
            threat: 41,
        };
        let text = p.to_text(&["tuned\non two lines".to_string()]);
        assert!(text.starts_with("# tuned\n# on two lines\nstore = 97\n"));
        assert_eq!(EvalParams::parse(&text).unwrap(), p);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.txt");
        p.save(&path, &[]).unwrap();
        assert_eq!(EvalParams::load(&path).unwrap(), p);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        for (i, name) in EvalParams::NAMES.iter().enumerate() {
            assert_eq!(EvalParams::index_of(name), Some(i));
        }
    }

    #[test]
    fn bad_texts_are_refused() {
        let cases: [(&str, ParamsError); 8] = [
            ("nonsense", ParamsError::Syntax(1)),
            ("store=100\n\nkroo", ParamsError::Syntax(3)),
            (
                "store=abc",
                ParamsError::Value {
                    name: "store".into(),
                    value: "abc".into(),
                },
            ),
            (
                "store=1.5",
                ParamsError::Value {
                    name: "store".into(),
                    value: "1.5".into(),
                },
            ),
            (
                "kroo=1000000",
                ParamsError::Value {
                    name: "kroo".into(),
                    value: "1000000".into(),
                },
            ),
            ("power=3", ParamsError::Unknown("power".into())),
            ("kroo=1\nkroo=2", ParamsError::Twice("kroo".into())),
            ("[1]", ParamsError::Syntax(1)),
        ];
        for (text, error) in cases {
            assert_eq!(EvalParams::parse(text), Err(error), "{text:?}");
        }
        assert_eq!(
            EvalParams::parse("{\"store\": [1]}").unwrap_err(),
            ParamsError::Value {
                name: "store".into(),
                value: "[1]".into()
            }
        );
        assert_eq!(
            EvalParams::parse("{1")
                .unwrap_err()
                .to_string()
                .split(':')
                .next(),
            Some("bad JSON")
        );
        assert!(EvalParams::parse("{\"store\": 1}x").is_err());
        // 48 × 400 > 15000: the evaluation could pass for a proven result.
        let zero = "own_seed=0\ntarget=0\nempty=0\nmobility=0\nkroo=0\nthreat=0\n";
        assert_eq!(
            EvalParams::parse(&format!("store=400\n{zero}")),
            Err(ParamsError::TooLarge(48 * 400))
        );
        assert!(EvalParams::parse(&format!("store=312\n{zero}")).is_ok());
        let dir = tempfile::tempdir().unwrap();
        let missing = EvalParams::load(&dir.path().join("none")).unwrap_err();
        assert!(matches!(missing, EvalFileError::Read { .. }));
        let bad = dir.path().join("bad");
        fs::write(&bad, "store=x").unwrap();
        let e = EvalParams::load(&bad).unwrap_err().to_string();
        assert!(
            e.starts_with("eval file ") && e.contains("bad value `x` for store"),
            "{e}"
        );
    }

    #[test]
    fn the_bound_adds_each_terms_largest_size() {
        let p = EvalParams {
            store: 100,
            own_seed: 4,
            target: 12,
            empty: -6,
            mobility: 6,
            kroo: 40,
            threat: -30,
        };
        let want = 48 * 100 + 48 * 4 + 6 * 12 + 6 * 12 + 4 * 40 + 15 * 30;
        assert_eq!(p.max_evaluation(), want);
        assert!(EvalParams::DEFAULT.max_evaluation() <= MAX_EVALUATION);
    }
}
