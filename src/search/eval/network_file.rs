//! A network's file: an 8-byte magic, the weights and their architecture
//! (serde + bincode), and a CRC-32 of everything before it. A file of
//! another architecture, another format version, or damaged anywhere is
//! refused with what is wrong.

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::network::{BUCKETS, INPUTS, Network, NetworkError, QA, QB, WIDTHS, WIDTHS_TEXT};

/// The first bytes of a network file.
pub const NETWORK_MAGIC: [u8; 8] = *b"OWARENN\x1a";
/// The format version this build writes and reads.
pub const NETWORK_VERSION: u32 = 1;

/// Why bytes are not a network file of this build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkFileError {
    /// Too short, or not starting with the magic.
    #[error("not a network file (too short or no magic)")]
    NotNetwork,
    /// The checksum does not match: the file is damaged.
    #[error("damaged: checksum {actual:08x}, stored {stored:08x}")]
    Checksum {
        /// The checksum stored in the file.
        stored: u32,
        /// The checksum of the bytes read.
        actual: u32,
    },
    /// The body cannot be decoded.
    #[error("cannot decode: {0}")]
    Decode(String),
    /// Another format version.
    #[error("format version {0} (this build reads version {NETWORK_VERSION})")]
    Version(u32),
    /// Another architecture.
    #[error(
        "architecture {got} (this build's: {BUCKETS} buckets, {INPUTS} inputs, {WIDTHS_TEXT} hidden, scales {QA}/{QB})"
    )]
    Architecture {
        /// The file's, as text.
        got: String,
    },
    /// Weights the network refuses.
    #[error(transparent)]
    Weights(#[from] NetworkError),
}

/// The body of a network file.
#[derive(Serialize, Deserialize)]
struct Body {
    version: u32,
    buckets: u32,
    inputs: u32,
    hidden: u32,
    qa: i32,
    qb: i32,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
    threat: i32,
    /// What made the network (the training set, the loss), for people.
    comments: Vec<String>,
}

impl Network {
    /// The network as a file's bytes, with `comments` (how it was made).
    pub fn to_bytes(&self, comments: &[String]) -> Vec<u8> {
        let body = Body {
            version: NETWORK_VERSION,
            buckets: BUCKETS as u32,
            inputs: INPUTS as u32,
            hidden: self.hidden() as u32,
            qa: QA,
            qb: QB,
            w1: self.w1().collect(),
            b1: self.b1().to_vec(),
            w2: self.w2().to_vec(),
            b2: self.b2(),
            threat: self.threat(),
            comments: comments.to_vec(),
        };
        let mut out = NETWORK_MAGIC.to_vec();
        bincode::serde::encode_into_std_write(&body, &mut out, bincode::config::standard())
            .expect("writing to a vector");
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The network of a file's bytes, and its comments.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Network, Vec<String>), NetworkFileError> {
        if bytes.len() < NETWORK_MAGIC.len() + 4 || bytes[..8] != NETWORK_MAGIC {
            return Err(NetworkFileError::NotNetwork);
        }
        let (data, tail) = bytes.split_at(bytes.len() - 4);
        let stored = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        let actual = crc32fast::hash(data);
        if stored != actual {
            return Err(NetworkFileError::Checksum { stored, actual });
        }
        let (body, used): (Body, usize) =
            bincode::serde::decode_from_slice(&data[8..], bincode::config::standard())
                .map_err(|e| NetworkFileError::Decode(e.to_string()))?;
        if used != data.len() - 8 {
            return Err(NetworkFileError::Decode(format!(
                "{} bytes after the weights",
                data.len() - 8 - used
            )));
        }
        if body.version != NETWORK_VERSION {
            return Err(NetworkFileError::Version(body.version));
        }
        let ours = (BUCKETS as u32, INPUTS as u32, QA, QB);
        let theirs = (body.buckets, body.inputs, body.qa, body.qb);
        if ours != theirs || !WIDTHS.contains(&(body.hidden as usize)) {
            return Err(NetworkFileError::Architecture {
                got: format!(
                    "{} buckets, {} inputs, {} hidden, scales {}/{}",
                    body.buckets, body.inputs, body.hidden, body.qa, body.qb
                ),
            });
        }
        let net = Network::new(
            body.hidden as usize,
            &body.w1,
            &body.b1,
            &body.w2,
            body.b2,
            body.threat,
        )?;
        Ok((net, body.comments))
    }

    /// Writes the network to `path` (to a temporary file, then renamed).
    pub fn save(&self, path: &Path, comments: &[String]) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let result = fs::write(&tmp, self.to_bytes(comments)).and_then(|()| fs::rename(&tmp, path));
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::super::network::tests::random_network;
    use super::*;
    use crate::arena::openings::Rng;

    #[test]
    fn files_round_trip() {
        for hidden in WIDTHS {
            let net = random_network(&mut Rng::new(3), hidden);
            let comments = vec!["made by a test".to_string()];
            let bytes = net.to_bytes(&comments);
            let (back, said) = Network::from_bytes(&bytes).unwrap();
            assert_eq!(back, net);
            assert_eq!(back.hidden(), hidden);
            assert_eq!(said, comments);
            assert_eq!(back.checksum(), net.checksum());
        }
    }

    #[test]
    fn damaged_and_foreign_files_are_refused() {
        let net = random_network(&mut Rng::new(4), 64);
        let bytes = net.to_bytes(&[]);
        // Any flipped byte: the magic, the body or the checksum.
        for at in [0, 9, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let err = Network::from_bytes(&bad).unwrap_err();
            let expected = if at < 8 {
                matches!(err, NetworkFileError::NotNetwork)
            } else {
                matches!(err, NetworkFileError::Checksum { .. })
            };
            assert!(expected, "byte {at}: {err}");
        }
        // Truncated.
        for len in [0, 5, 12, bytes.len() - 1] {
            assert!(Network::from_bytes(&bytes[..len]).is_err(), "{len} bytes");
        }
        // A future version and another architecture, with valid checksums.
        let reframe = |edit: &dyn Fn(&mut Body)| {
            let (data, _) = bytes.split_at(bytes.len() - 4);
            let (mut body, _): (Body, usize) =
                bincode::serde::decode_from_slice(&data[8..], bincode::config::standard()).unwrap();
            edit(&mut body);
            let mut out = NETWORK_MAGIC.to_vec();
            bincode::serde::encode_into_std_write(&body, &mut out, bincode::config::standard())
                .unwrap();
            let crc = crc32fast::hash(&out);
            out.extend_from_slice(&crc.to_le_bytes());
            Network::from_bytes(&out).map(|_| ())
        };
        assert_eq!(reframe(&|_| {}), Ok(()));
        assert_eq!(
            reframe(&|b| b.version = 2),
            Err(NetworkFileError::Version(2))
        );
        assert!(matches!(
            reframe(&|b| b.hidden = 48),
            Err(NetworkFileError::Architecture { .. })
        ));
        assert!(matches!(
            reframe(&|b| b.buckets = 19),
            Err(NetworkFileError::Architecture { .. })
        ));
        // Another width that exists, with weights of this one's.
        assert!(matches!(
            reframe(&|b| b.hidden = 32),
            Err(NetworkFileError::Weights(NetworkError::Shape { .. }))
        ));
        assert!(matches!(
            reframe(&|b| b.threat = -3),
            Err(NetworkFileError::Weights(NetworkError::Threat(-3)))
        ));
    }
}
