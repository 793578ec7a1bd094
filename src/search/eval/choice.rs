//! Which evaluation the engine uses: the weighted terms ([`EvalParams`]) or
//! a learned network ([`Network`]), read from the same `--eval` file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::network::Network;
use super::network_file::{NETWORK_MAGIC, NetworkFileError};
use super::{EvalFileError, EvalParams};

/// The engine's evaluation: the weighted terms, or a network (which then
/// replaces every weight but the store's 100 a seed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EvalChoice {
    /// The weights (used when there is no network).
    pub weights: EvalParams,
    /// The network, if one was loaded.
    pub network: Option<&'static Network>,
}

impl EvalChoice {
    /// The built-in weights.
    pub const DEFAULT: EvalChoice = EvalChoice::weights(EvalParams::DEFAULT);

    /// The weighted evaluation with `weights`.
    pub const fn weights(weights: EvalParams) -> EvalChoice {
        EvalChoice {
            weights,
            network: None,
        }
    }

    /// The evaluation of `network` (kept for the life of the process:
    /// loading the same weights again reuses it).
    pub fn network(network: Network) -> EvalChoice {
        EvalChoice {
            weights: EvalParams::DEFAULT,
            network: Some(intern(network)),
        }
    }

    /// Reads an eval file: a network file (it starts with the network
    /// magic) or a weights file (text or JSON).
    pub fn load(path: &Path) -> Result<EvalChoice, EvalFileError> {
        let bytes = fs::read(path).map_err(|error| EvalFileError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        if bytes.starts_with(&NETWORK_MAGIC) {
            let (net, _) = Network::from_bytes(&bytes).map_err(|source| bad(path, source))?;
            return Ok(EvalChoice::network(net));
        }
        let text = String::from_utf8(bytes).map_err(|_| EvalFileError::Binary {
            path: path.to_path_buf(),
        })?;
        EvalParams::parse(&text)
            .map(EvalChoice::weights)
            .map_err(|error| EvalFileError::Bad {
                path: path.to_path_buf(),
                error,
            })
    }
}

impl Default for EvalChoice {
    fn default() -> EvalChoice {
        EvalChoice::DEFAULT
    }
}

impl From<EvalParams> for EvalChoice {
    fn from(weights: EvalParams) -> EvalChoice {
        EvalChoice::weights(weights)
    }
}

fn bad(path: &Path, error: NetworkFileError) -> EvalFileError {
    EvalFileError::Network {
        path: PathBuf::from(path),
        error,
    }
}

/// The networks loaded so far: a UCI engine told to load the same file
/// again and again keeps one copy.
static LOADED: Mutex<Vec<&'static Network>> = Mutex::new(Vec::new());

fn intern(network: Network) -> &'static Network {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = loaded.iter().find(|&&n| *n == network) {
        return known;
    }
    let leaked: &'static Network = Box::leak(Box::new(network));
    loaded.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::super::network::tests::random_network;
    use super::*;
    use crate::arena::openings::Rng;

    #[test]
    fn eval_files_of_both_kinds_load() {
        let dir = tempfile::tempdir().unwrap();
        let net = random_network(&mut Rng::new(5));
        let net_path = dir.path().join("net.nnue");
        net.save(&net_path, &["test".into()]).unwrap();
        let choice = EvalChoice::load(&net_path).unwrap();
        assert_eq!(choice.network, Some(&net));
        // Loaded twice: one copy.
        let again = EvalChoice::load(&net_path).unwrap();
        assert!(std::ptr::eq(
            choice.network.unwrap(),
            again.network.unwrap()
        ));

        let text_path = dir.path().join("w.txt");
        fs::write(&text_path, "threat = 7\n").unwrap();
        let choice = EvalChoice::load(&text_path).unwrap();
        assert_eq!(choice.network, None);
        assert_eq!(choice.weights.threat, 7);

        // A damaged network names the file and what is wrong.
        let mut bytes = fs::read(&net_path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 1;
        fs::write(&net_path, &bytes).unwrap();
        let err = EvalChoice::load(&net_path).unwrap_err().to_string();
        assert!(err.contains("net.nnue") && err.contains("damaged"), "{err}");
        // Binary bytes that are no network.
        fs::write(&text_path, [0xFFu8, 0xFE, 0]).unwrap();
        let err = EvalChoice::load(&text_path).unwrap_err().to_string();
        assert!(err.contains("neither"), "{err}");
    }
}
