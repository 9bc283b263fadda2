//! What the beam-rescoring examples share: a session set up like `eval conversion`, and the final
//! beam of a conversion with each candidate's text and LM words.
#![allow(dead_code)]

use henkan::decoder::neural::{NeuralDecoder, NeuralOptions, Scoring};
use henkan::{Engine, Session};

/// One candidate of a final beam.
pub struct Final {
    /// The decoder's score.
    pub score: f32,
    /// The converted text.
    pub text: String,
    /// Its LM words.
    pub ids: Vec<u32>,
}

/// A session of the `neural` or `hybrid` engine with digits `half` or full width and this beam.
pub fn session(engine_name: &str, half: bool, beam: usize) -> Session {
    let mut s = Session::new();
    let scoring = if engine_name == "neural" {
        Scoring::Neural
    } else {
        Scoring::Hybrid
    };
    s.set_scoring(
        scoring,
        NeuralOptions {
            beam,
            ..NeuralOptions::default()
        },
    );
    if half {
        s.set_digit_width(henkan::lattice::DigitWidth::Half);
    }
    s
}

/// Converts `reading` afresh and returns the final beam, best first.
pub fn final_beam(engine: &Engine, s: &mut Session, reading: &str) -> Vec<Final> {
    let lm = engine.neural.as_ref().expect("the model has an LSTM LM");
    s.clear();
    let _ = s.convert_reading(engine, reading);
    let lat = s.lattice();
    s.neural_decoder()
        .finals(&engine.connection, lm)
        .into_iter()
        .map(|(score, path)| Final {
            score,
            text: path
                .iter()
                .map(|&i| lat.surface(&engine.lexicon, &lat.nodes()[i as usize]))
                .collect(),
            ids: NeuralDecoder::words(lat, lm, &path),
        })
        .collect()
}
