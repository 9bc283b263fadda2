//! The crate's one error type.

/// Everything that can go wrong when loading a model or user data (history, user dictionary).
///
/// The per-key path never fails: unknown input falls back to kana/katakana.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The bytes do not start with the model magic.
    #[error("not a henkan model (bad magic)")]
    Magic,
    /// The container format version is not the one this build reads.
    #[error("model format version {got} is not supported (expected {expected})")]
    Version {
        /// The version this build reads.
        expected: u32,
        /// The version found in the file.
        got: u32,
    },
    /// The file ends before a header, table or section does.
    #[error("model file is truncated: need {needed} bytes, have {len}")]
    Truncated {
        /// Bytes needed to read what the header promises.
        needed: u64,
        /// Bytes available.
        len: u64,
    },
    /// A section's CRC-32 does not match its bytes.
    #[error("checksum mismatch in section {kind}")]
    Checksum {
        /// Name of the section kind.
        kind: &'static str,
    },
    /// A required section is not in the file.
    #[error("model has no {0} section")]
    MissingSection(&'static str),
    /// A section's content is malformed.
    #[error("malformed {section} section: {detail}")]
    Malformed {
        /// Name of the section kind.
        section: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// Imported user data (a history export, a user dictionary) is not what it should be.
    #[error("user data line {line}: {detail}")]
    UserData {
        /// The line (1 = the first).
        line: usize,
        /// What is wrong.
        detail: String,
    },
}

/// Shorthand for results with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
