//! The corpus MANIFEST: magic label, format version, then postcard-encoded metadata.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The first bytes of every manifest.
pub const MAGIC: &[u8; 16] = b"TAPEFUZZMANIFEST";
/// The manifest format version written after the magic label (little-endian `u32`).
pub const FORMAT_VERSION: u32 = 1;

/// What tapefuzz knows about a corpus folder beyond its raw tape files.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The tape byte-encoding version the entries were written with.
    pub tape_encoding: u32,
    /// A fingerprint of the generator's choice-point schema (0 when unknown).
    pub schema: u64,
    /// Metadata per entry file name (`corpus/<sha1>` or `regressions/<sha1>`).
    pub entries: BTreeMap<String, EntryMeta>,
}

/// Metadata about one entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// The strategy that found it (`random`, `libfuzzer`, `sa`, …).
    pub strategy: String,
    /// The status it had when saved (`valid`, `interesting`, …).
    pub status: String,
    /// Its utility value, for targeted search.
    pub utility: Option<f64>,
    /// Number of coverage or tape features it was kept for.
    pub features: u32,
}

/// Why a manifest could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestError {
    /// It does not start with [`MAGIC`]: not a tapefuzz manifest.
    Foreign,
    /// A format version this build does not read.
    Version(u32),
    /// The payload does not decode.
    Corrupt(String),
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Foreign => write!(f, "not a tapefuzz manifest (bad magic label)"),
            ManifestError::Version(v) => write!(
                f,
                "manifest format version {v}, this build reads {FORMAT_VERSION}"
            ),
            ManifestError::Corrupt(e) => write!(f, "corrupt manifest: {e}"),
        }
    }
}

impl std::error::Error for ManifestError {}

impl Manifest {
    /// Encodes the manifest: magic, version, postcard payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend(postcard::to_allocvec(self).expect("manifest serializes"));
        out
    }

    /// Decodes a manifest, checking magic and version. Never panics.
    pub fn decode(bytes: &[u8]) -> Result<Manifest, ManifestError> {
        let rest = bytes.strip_prefix(MAGIC).ok_or(ManifestError::Foreign)?;
        if rest.len() < 4 {
            return Err(ManifestError::Corrupt("truncated version".into()));
        }
        let version = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        if version != FORMAT_VERSION {
            return Err(ManifestError::Version(version));
        }
        let (m, tail) = postcard::take_from_bytes::<Manifest>(&rest[4..])
            .map_err(|e| ManifestError::Corrupt(e.to_string()))?;
        if !tail.is_empty() {
            return Err(ManifestError::Corrupt(format!(
                "{} trailing bytes",
                tail.len()
            )));
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let mut m = Manifest {
            tape_encoding: 1,
            ..Manifest::default()
        };
        m.entries.insert(
            "corpus/ab".into(),
            EntryMeta {
                strategy: "random".into(),
                ..EntryMeta::default()
            },
        );
        assert_eq!(Manifest::decode(&m.encode()), Ok(m.clone()));
        assert_eq!(Manifest::decode(b"garbage"), Err(ManifestError::Foreign));
        let mut v2 = m.encode();
        v2[16] = 2;
        assert_eq!(Manifest::decode(&v2), Err(ManifestError::Version(2)));
        let bytes = m.encode();
        assert!(Manifest::decode(&bytes[..bytes.len() - 3]).is_err());
    }
}
