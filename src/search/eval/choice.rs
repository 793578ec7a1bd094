//! Which evaluation the engine uses: the network shipped in the binary
//! (the default), the weighted terms ([`EvalParams`]), or a network read
//! from an `--eval` file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};

use super::network::Network;
use super::network_file::{NETWORK_MAGIC, NetworkFileError};
use super::{EvalFileError, EvalParams};

/// The network the engine evaluates with unless told otherwise:
/// `databases/eval/abapa-32.nnue`, built into the binary.
const BUILTIN_NETWORK_FILE: &[u8] = include_bytes!("../../../databases/eval/abapa-32.nnue");

/// [`BUILTIN_NETWORK_FILE`] read once, on first use.
static BUILTIN: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(BUILTIN_NETWORK_FILE)
        // The file is part of the source; a test reads it.
        .expect("the built-in network file is valid")
        .0
});

/// The built-in network.
pub fn builtin_network() -> &'static Network {
    &BUILTIN
}

/// The engine's evaluation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// The built-in network ([`builtin_network`]).
    #[default]
    Builtin,
    /// The weighted terms.
    Weights(EvalParams),
    /// A network read from a file (it replaces every weight but the
    /// store's 100 a seed).
    Network(&'static Network),
}

impl EvalChoice {
    /// The default: the built-in network.
    pub const DEFAULT: EvalChoice = EvalChoice::Builtin;

    /// The weighted evaluation with `weights`.
    pub const fn weights(weights: EvalParams) -> EvalChoice {
        EvalChoice::Weights(weights)
    }

    /// The evaluation of `network` (kept for the life of the process:
    /// loading the same weights again reuses it).
    pub fn network(network: Network) -> EvalChoice {
        EvalChoice::Network(intern(network))
    }

    /// The network this evaluation uses, if it uses one.
    pub fn network_in_use(&self) -> Option<&'static Network> {
        match *self {
            EvalChoice::Builtin => Some(builtin_network()),
            EvalChoice::Weights(_) => None,
            EvalChoice::Network(net) => Some(net),
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
        let net = random_network(&mut Rng::new(5), 128);
        let net_path = dir.path().join("net.nnue");
        net.save(&net_path, &["test".into()]).unwrap();
        let choice = EvalChoice::load(&net_path).unwrap();
        assert_eq!(choice.network_in_use(), Some(&net));
        // Loaded twice: one copy.
        let again = EvalChoice::load(&net_path).unwrap();
        assert!(std::ptr::eq(
            choice.network_in_use().unwrap(),
            again.network_in_use().unwrap()
        ));

        let text_path = dir.path().join("w.txt");
        fs::write(&text_path, "threat = 7\n").unwrap();
        let choice = EvalChoice::load(&text_path).unwrap();
        assert_eq!(choice.network_in_use(), None);
        let EvalChoice::Weights(weights) = choice else {
            panic!("{choice:?}")
        };
        assert_eq!(weights.threat, 7);

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

    #[test]
    fn the_built_in_network_is_the_shipped_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shipped = EvalChoice::load(&root.join("databases/eval/abapa-32.nnue")).unwrap();
        assert_eq!(shipped.network_in_use(), Some(builtin_network()));
        assert_eq!(
            EvalChoice::DEFAULT.network_in_use(),
            Some(builtin_network())
        );
        assert_eq!(format!("{:08x}", builtin_network().checksum()), "7753dc8e");
        assert_eq!(builtin_network().hidden(), 64);
    }

    #[test]
    fn the_shipped_weights_file_holds_the_built_in_weights() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let shipped = EvalChoice::load(&root.join("databases/eval/weights.txt")).unwrap();
        assert_eq!(shipped, EvalChoice::weights(EvalParams::DEFAULT));
    }
}
