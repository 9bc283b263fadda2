//! The engine: an immutable loaded model.

use crate::decoder::bias::WordBias;
use crate::decoder::neural::Scoring;
use crate::emoji::EmojiTable;
use crate::error::{Error, Result};
use crate::lexicon::Lexicon;
use crate::lm::lstm::NeuralLm;
use crate::lm::ngram::NgramModel;
#[cfg(doc)]
use crate::model::ContainerStream;
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
    /// Emoji by reading, when the model has the `Emoji` section.
    pub emoji: Option<EmojiTable>,
    /// What reverse conversion looks words up in, collected on first use.
    reverse: std::sync::OnceLock<crate::reverse::ReverseIndex>,
}

impl Engine {
    /// Loads a model container, checking every section.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Self> {
        let len = bytes.len();
        let mut engine = Engine::from_prefix(bytes, len)?;
        engine.attach_lm(len)?;
        Ok(engine)
    }

    /// The classic engine from a model of which only the first `received` bytes have arrived:
    /// the core sections (dictionary, connection, segmenter; see [`crate::model::layout`]) must
    /// be inside them; the LM sections stay pending until [`Engine::attach_lm`].
    ///
    /// `bytes` should have the whole file's length already: a streaming loader keeps writing
    /// the rest in place (the buffer is never reallocated, and nothing reads the pending part
    /// before `attach_lm`).
    ///
    /// ```no_run
    /// let bytes = std::fs::read("models/henkan.henkan").unwrap();
    /// let core_end = henkan::model::layout(&bytes).unwrap().core_end as usize;
    /// let mut engine = henkan::Engine::from_prefix(bytes, core_end).unwrap();
    /// assert_eq!(engine.engines(), ["classic"]);
    /// let len = engine.model_len();
    /// engine.attach_lm(len).unwrap();
    /// assert_eq!(engine.engines(), ["classic", "neural", "hybrid"]);
    /// ```
    pub fn from_prefix(bytes: Vec<u8>, received: usize) -> Result<Self> {
        Engine::from_container(Container::partial(bytes, received)?)
    }

    /// The engine of a checked container: the classic engine from its core sections, with
    /// the LMs when nothing is pending. The browser builds it from the core of a
    /// [`ContainerStream`] and attaches the LMs with [`Engine::attach_lm_container`] when the
    /// stream is finished.
    ///
    /// ```no_run
    /// use henkan::model::ContainerStream;
    /// let file = std::fs::read("models/henkan.henkan").unwrap();
    /// let mut stream = ContainerStream::new(Some(file.len() as u64));
    /// let mut at = 0;
    /// while !stream.core_ready() {
    ///     let window = stream.window();
    ///     let n = window.len();
    ///     window.copy_from_slice(&file[at..at + n]);
    ///     stream.wrote(n).unwrap();
    ///     at += n;
    /// }
    /// let engine = henkan::Engine::from_container(stream.core().unwrap()).unwrap();
    /// assert_eq!(engine.engines(), ["classic"]);
    /// ```
    pub fn from_container(container: Container) -> Result<Self> {
        let lexicon = Lexicon::new(
            container.require(SectionKind::LexiconIndex)?,
            container.require(SectionKind::LexiconPostings)?,
        )?;
        let connection = Connection::new(container.require(SectionKind::Connection)?)?;
        let segmenter = Segmenter::new(container.require(SectionKind::Segmenter)?)?;
        let emoji = match container.section(SectionKind::Emoji) {
            Some(s) => Some(EmojiTable::from_section(s.as_ref())?),
            None => None,
        };
        let mut engine = Engine {
            container,
            lexicon,
            connection,
            segmenter,
            neural: None,
            ngram: None,
            emoji,
            reverse: std::sync::OnceLock::new(),
        };
        if !engine.container.is_partial() {
            engine.attach_lm_container(engine.container.clone())?;
        }
        Ok(engine)
    }

    /// Checks the pending LM sections now that `received` bytes of the model have arrived and
    /// attaches the LMs they hold. On error (truncated, checksum, malformed) the engine stays
    /// as it was: classic, fully working. Calling it again after success changes nothing.
    pub fn attach_lm(&mut self, received: usize) -> Result<()> {
        if self.neural.is_some() || self.ngram.is_some() {
            return Ok(());
        }
        let mut container = self.container.clone();
        container.complete(received)?;
        self.attach_lm_container(container)
    }

    /// Attaches the LMs of `container`, the whole model of which this engine was built from
    /// the core (e.g. [`ContainerStream::finish`]). On error (malformed LM sections, or a
    /// container with sections still pending) the engine stays as it was. Calling it again
    /// after success changes nothing.
    pub fn attach_lm_container(&mut self, container: Container) -> Result<()> {
        if self.neural.is_some() || self.ngram.is_some() {
            return Ok(());
        }
        if container.is_partial() {
            return Err(Error::Truncated {
                needed: container.len() as u64,
                len: 0,
            });
        }
        let neural = read_neural(&container)?;
        let ngram = match container.section(SectionKind::Ngram) {
            Some(s) => Some(NgramModel::from_section(s)?),
            None => None,
        };
        self.container = container;
        self.neural = neural;
        self.ngram = ngram;
        Ok(())
    }

    /// This engine with the first section of `kind` holding `bytes` (decoded), re-reading only
    /// what reads that section, with the checks and the wiring of [`Engine::from_container`]
    /// (an LM section is re-read only when the engine has its LMs). It costs one section's
    /// reader instead of every one: the model-mutation fuzzing (`henkan fuzz model`) builds an
    /// engine per mutation with it. [`Error::MissingSection`] when the model has no such
    /// section.
    pub fn with_section(&self, kind: SectionKind, bytes: Vec<u8>) -> Result<Engine> {
        let container = self
            .container
            .replacing(kind, bytes)
            .ok_or(Error::MissingSection(kind.name()))?;
        let section = |k: SectionKind| container.require(k);
        let mut e = Engine {
            reverse: std::sync::OnceLock::new(),
            ..self.clone()
        };
        match kind {
            SectionKind::Meta => {}
            SectionKind::LexiconIndex | SectionKind::LexiconPostings => {
                e.lexicon = Lexicon::new(
                    section(SectionKind::LexiconIndex)?,
                    section(SectionKind::LexiconPostings)?,
                )?;
            }
            SectionKind::Connection => e.connection = Connection::new(section(kind)?)?,
            SectionKind::Segmenter => e.segmenter = Segmenter::new(section(kind)?)?,
            SectionKind::Emoji => {
                e.emoji = Some(EmojiTable::from_section(section(kind)?.as_ref())?)
            }
            SectionKind::Ngram if e.ngram.is_some() => {
                e.ngram = Some(NgramModel::from_section(section(kind)?)?);
            }
            SectionKind::Lstm | SectionKind::LmVocab if e.neural.is_some() => {
                e.neural = read_neural(&container)?;
            }
            _ => {
                if let Some(lm) = &mut e.neural {
                    read_lm_extra(lm, kind, section(kind)?)?;
                }
            }
        }
        e.container = container;
        Ok(e)
    }

    /// What reverse conversion looks words up in ([`crate::reverse::ReverseIndex`]), collected
    /// from the lexicon on first use.
    pub fn reverse_index(&self) -> &crate::reverse::ReverseIndex {
        self.reverse
            .get_or_init(|| crate::reverse::ReverseIndex::new(&self.lexicon))
    }

    /// The reading of written text (reverse conversion, [`crate::reverse::reading_of_ranked`]):
    /// a word written so under several readings is read by the one the LM knows as the more
    /// common word, where the model has an LM.
    pub fn reading_of(&self, text: &str) -> String {
        self.reading_pieces(text)
            .into_iter()
            .map(|(_, reading)| reading)
            .collect()
    }

    /// [`Engine::reading_of`] word by word: the (written text, reading) of each word
    /// ([`crate::reverse::pieces_of_ranked`]).
    pub fn reading_pieces(&self, text: &str) -> Vec<(String, String)> {
        let rank = |entry: u32| {
            let lm = self.neural.as_ref()?;
            match lm.vocab.lm_word(entry) {
                (id, crate::lm::lstm::format::WordMatch::Own) if id != lm.vocab.unk_id => Some(id),
                _ => None,
            }
        };
        crate::reverse::pieces_of_ranked(
            &self.lexicon,
            &self.connection,
            self.reverse_index(),
            text,
            &rank,
        )
    }

    /// The container the engine reads its sections from (partial while the LM sections are
    /// pending): e.g. for [`Container::stored_copy`].
    pub fn container(&self) -> &Container {
        &self.container
    }

    /// Whether LM sections are still waiting for [`Engine::attach_lm`].
    pub fn lm_pending(&self) -> bool {
        self.container.is_partial()
    }

    /// The scorer a new session should use: the hybrid when the model has an LSTM, otherwise
    /// the classic one. The one place that defines the default engine.
    pub fn default_scoring(&self) -> Scoring {
        if self.neural.is_some() {
            Scoring::Hybrid
        } else {
            Scoring::Classic
        }
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
        Scoring::ALL
            .into_iter()
            .filter(|s| !s.needs_lm() || self.neural.is_some())
            .map(Scoring::name)
            .collect()
    }
}

/// The LSTM LM of a container with its `Lstm` and `LmVocab` sections (none without them), and
/// the [`LM_EXTRAS`] it has.
fn read_neural(container: &Container) -> Result<Option<NeuralLm>> {
    let (Some(l), Some(v)) = (
        container.section(SectionKind::Lstm),
        container.section(SectionKind::LmVocab),
    ) else {
        return Ok(None);
    };
    let mut lm = NeuralLm::from_sections(l, v)?;
    for kind in LM_EXTRAS {
        if let Some(b) = container.section(kind) {
            read_lm_extra(&mut lm, kind, b)?;
        }
    }
    Ok(Some(lm))
}

/// The LM sections that [`read_lm_extra`] attaches to the LSTM LM.
const LM_EXTRAS: [SectionKind; 6] = [
    SectionKind::WordBias,
    SectionKind::PredictBias,
    SectionKind::LstmBackward,
    SectionKind::Coherence,
    SectionKind::Selection,
    SectionKind::HomophoneMetric,
];

/// Reads one of [`LM_EXTRAS`] into `lm` (another kind changes nothing).
fn read_lm_extra(
    lm: &mut NeuralLm,
    kind: SectionKind,
    b: crate::model::SectionBytes,
) -> Result<()> {
    match kind {
        SectionKind::WordBias => lm.bias = WordBias::from_section(b.as_ref())?,
        SectionKind::PredictBias => {
            lm.predict_bias = crate::predict::adapt::from_section(b.as_ref(), lm.model.vocab)?;
        }
        SectionKind::LstmBackward => {
            lm.backward = Some(crate::lm::lstm::format::read_backward(b, &lm.model)?);
        }
        SectionKind::Coherence => {
            lm.coherence = Some(crate::lm::coherence::Coherence::from_section(b.as_ref())?);
        }
        // after the coherence (LM_EXTRAS' order): both compare the coherence's word vectors
        SectionKind::Selection => {
            let dims = coherence_dims(lm, kind)?;
            lm.selection = Some(crate::lm::selection::Selection::from_section(
                b.as_ref(),
                dims,
            )?);
        }
        SectionKind::HomophoneMetric => {
            let dims = coherence_dims(lm, kind)?;
            lm.homophone_metric = Some(crate::lm::homophone_metric::HomophoneMetric::from_section(
                b.as_ref(),
                dims,
            )?);
        }
        _ => {}
    }
    Ok(())
}

/// The dimensions of the coherence's word vectors, which the section `kind` compares with;
/// without a `Coherence` section it is malformed.
fn coherence_dims(lm: &NeuralLm, kind: SectionKind) -> Result<usize> {
    lm.coherence
        .as_ref()
        .map(|c| c.dims())
        .ok_or_else(|| Error::Malformed {
            section: kind.name(),
            detail: "no coherence section for its word vectors".into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decoder::neural::NeuralOptions;
    use crate::error::Error;
    use crate::model::layout;
    use crate::Session;

    fn shipped() -> Vec<u8> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/henkan.henkan");
        std::fs::read(path).expect("models/henkan.henkan is shipped")
    }

    fn convert(engine: &Engine, scoring: Scoring, reading: &str) -> String {
        let mut session = Session::new();
        session.set_scoring(scoring, NeuralOptions::default());
        session.convert_reading(engine, reading).text()
    }

    const READING: &str = "きょうはいいてんきですね";

    /// The browser builds the classic engine as soon as the core has arrived; the LM bytes
    /// arrive later, in place, and `attach_lm` makes the hybrid the default.
    #[test]
    fn prefix_is_classic_then_attach_adds_the_lm() {
        let bytes = shipped();
        let full = Engine::from_bytes(bytes.clone()).unwrap();
        let layout = layout(&bytes).unwrap();
        assert!(
            layout.core_end < layout.file_end,
            "the shipped model has LM sections last"
        );
        let core_end = layout.core_end as usize;
        // What has not arrived is zeros (the loader's buffer is zero-filled).
        let mut streamed = bytes.clone();
        streamed[core_end..].fill(0);
        let mut engine = Engine::from_prefix(streamed, core_end).unwrap();
        assert_eq!(engine.engines(), ["classic"]);
        assert!(engine.lm_pending());
        assert_eq!(engine.default_scoring(), Scoring::Classic);
        assert_eq!(
            convert(&engine, Scoring::Classic, READING),
            convert(&full, Scoring::Classic, READING)
        );
        // A hybrid session on an engine without the LM converts classically.
        assert_eq!(
            convert(&engine, Scoring::Hybrid, READING),
            convert(&full, Scoring::Classic, READING)
        );
        // Not arrived yet: the zeros fail the checksums, the engine stays classic.
        assert!(engine.attach_lm(bytes.len()).is_err());
        assert_eq!(engine.engines(), ["classic"]);

        let mut engine = Engine::from_prefix(bytes.clone(), core_end).unwrap();
        engine.attach_lm(bytes.len()).unwrap();
        assert!(!engine.lm_pending());
        assert_eq!(engine.engines(), ["classic", "neural", "hybrid"]);
        assert_eq!(engine.default_scoring(), Scoring::Hybrid);
        assert!(engine.ngram.is_some());
        let hybrid = convert(&engine, Scoring::Hybrid, READING);
        assert_eq!(hybrid, "今日はいい天気ですね");
        assert_eq!(hybrid, convert(&full, Scoring::Hybrid, READING));
        engine.attach_lm(bytes.len()).unwrap();
        assert_eq!(engine.engines(), ["classic", "neural", "hybrid"]);
    }

    #[test]
    fn a_corrupt_or_truncated_lm_keeps_the_classic_engine() {
        let bytes = shipped();
        let layout = layout(&bytes).unwrap();
        let lstm = layout
            .entries
            .iter()
            .find(|e| e.kind == Some(SectionKind::Lstm))
            .unwrap();
        let mut corrupt = bytes.clone();
        corrupt[(lstm.offset + lstm.length / 2) as usize] ^= 0x55;
        let len = corrupt.len();
        let mut engine = Engine::from_prefix(corrupt.clone(), len).unwrap();
        assert_eq!(
            engine.attach_lm(len).unwrap_err(),
            Error::Checksum { kind: "lstm" }
        );
        assert_eq!(engine.engines(), ["classic"]);
        assert!(engine.lm_pending());
        assert_eq!(
            convert(&engine, Scoring::Classic, READING),
            "今日はいい天気ですね"
        );
        // The whole-file load refuses it (the CLI's behaviour is unchanged).
        assert_eq!(
            Engine::from_bytes(corrupt).unwrap_err(),
            Error::Checksum { kind: "lstm" }
        );

        // A download that broke off inside the LSTM section.
        let cut = (lstm.offset + lstm.length / 3) as usize;
        let mut engine = Engine::from_prefix(bytes.clone(), cut).unwrap();
        assert!(matches!(
            engine.attach_lm(cut).unwrap_err(),
            Error::Truncated { .. }
        ));
        assert_eq!(engine.engines(), ["classic"]);
        // The dictionary itself must be complete.
        let core_end = layout.core_end as usize;
        assert!(matches!(
            Engine::from_prefix(bytes, core_end - 1).unwrap_err(),
            Error::Truncated { .. }
        ));
    }

    /// The browser's path: sections decoded as they arrive (`ContainerStream`), the classic
    /// engine from the core, the LMs from the finished stream; the same conversions as from the
    /// whole file.
    #[test]
    fn a_streamed_model_converts_as_the_whole_file() {
        let bytes = shipped();
        let full = Engine::from_bytes(bytes.clone()).unwrap();
        let mut stream = crate::model::ContainerStream::new(Some(bytes.len() as u64));
        let mut engine = None;
        for chunk in bytes.chunks(1 << 16) {
            let mut rest = chunk;
            while !rest.is_empty() && !stream.window().is_empty() {
                let window = stream.window();
                let n = window.len().min(rest.len());
                window[..n].copy_from_slice(&rest[..n]);
                stream.wrote(n).unwrap();
                rest = &rest[n..];
                if engine.is_none() && stream.core_ready() {
                    assert!(!stream.is_complete(), "the LM part comes after the core");
                    engine = Some(Engine::from_container(stream.core().unwrap()).unwrap());
                }
            }
        }
        let mut engine = engine.unwrap();
        assert_eq!(engine.engines(), ["classic"]);
        assert_eq!(
            convert(&engine, Scoring::Classic, READING),
            convert(&full, Scoring::Classic, READING)
        );
        engine
            .attach_lm_container(stream.finish().unwrap())
            .unwrap();
        assert_eq!(engine.engines(), ["classic", "neural", "hybrid"]);
        assert_eq!(
            convert(&engine, Scoring::Hybrid, READING),
            convert(&full, Scoring::Hybrid, READING)
        );
    }
}
