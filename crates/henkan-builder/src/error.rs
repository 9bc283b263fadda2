//! The builder's error type.

/// What can go wrong when a model is written: a model read on the way that the runtime
/// rejects, or bad input to the builder (a dictionary line, a weight file, an option).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// A model (or section) read on the way is rejected by the runtime's reader.
    #[error(transparent)]
    Model(#[from] henkan::Error),
    /// Bad input to the model builder.
    #[error("build error: {0}")]
    Build(String),
}

/// Shorthand for results with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
