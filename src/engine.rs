//! The engine: an immutable loaded model.

use crate::error::Result;
use crate::lexicon::Lexicon;
use crate::lm::lstm::NeuralLm;
use crate::lm::ngram::NgramModel;
use crate::model::{Container, SectionKind};
use crate::pos::{Connection, Segmenter};

/// A loaded model: lexicon, connection costs and segment rules. Immutable and shareable;
/// every per-field state lives in a [`crate::Session`].
///
/// ```no_run
/// let bytes = std::fs::read("models/henkan.henkan").unwrap();
/// let engine = henkan::Engine::from_bytes(bytes).unwrap();
/// let mut session = henkan::Session::new();
/// let conversion = session.convert_reading(&engine, "きょうはいいてんきですね");
/// println!("{}", conversion.text());
/// ```
#[derive(Debug, Clone)]
pub struct Engine {
    container: Container,
    /// Reading → entries.
    pub lexicon: Lexicon,
    /// Connection costs between POS ids.
    pub connection: Connection,
    /// Segment boundary rules.
    pub segmenter: Segmenter,
    /// The LSTM LM, when the model has the `Lstm` and `LmVocab` sections.
    pub neural: Option<NeuralLm>,
    /// The word trigram LM for predictions, when the model has the `Ngram` section.
    pub ngram: Option<NgramModel>,
}

impl Engine {
    /// Loads a model container, checking every section.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self> {
        let container = Container::from_bytes(bytes)?;
        let lexicon = Lexicon::new(
            container.require(SectionKind::LexiconIndex)?,
            container.require(SectionKind::LexiconPostings)?,
        )?;
        let connection = Connection::new(container.require(SectionKind::Connection)?)?;
        let segmenter = Segmenter::new(container.require(SectionKind::Segmenter)?)?;
        let neural = match (
            container.section(SectionKind::Lstm),
            container.section(SectionKind::LmVocab),
        ) {
            (Some(l), Some(v)) => Some(NeuralLm::from_sections(l, v)?),
            _ => None,
        };
        let ngram = match container.section(SectionKind::Ngram) {
            Some(s) => Some(NgramModel::from_section(s)?),
            None => None,
        };
        Ok(Engine {
            container,
            lexicon,
            connection,
            segmenter,
            neural,
            ngram,
        })
    }

    /// The model's description (`key=value` lines), empty if it has none.
    pub fn meta(&self) -> String {
        self.container
            .section(SectionKind::Meta)
            .map(|s| String::from_utf8_lossy(s.as_ref()).into_owned())
            .unwrap_or_default()
    }

    /// Size of the model file in bytes.
    pub fn model_len(&self) -> usize {
        self.container.len()
    }

    /// The engines this model supports (by name).
    pub fn engines(&self) -> Vec<&'static str> {
        if self.neural.is_some() {
            vec!["classic", "neural", "hybrid"]
        } else {
            vec!["classic"]
        }
    }
}
