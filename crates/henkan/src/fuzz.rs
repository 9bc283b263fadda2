//! Fuzzing drivers (feature `fuzz`): damaged models, key storms and arbitrary chunkings of a
//! download, each run with a seed so that a failure can be replayed. They back `henkan fuzz`
//! (long runs, figures in `docs/model-format.md`); a fixed-seed slice of each runs in `make
//! test`, natively and in wasm32 (where sizes are 32 bits wide and a panic aborts).
//!
//! *Model mutations* are structured: a section of a checked model is changed *inside* (bytes
//! flipped, header words set to extreme values, cut, extended, ranges zeroed or copied) and
//! handed to the engine as if its CRC-32 were right ([`Engine::with_section`]), because random
//! damage to a file never gets past the checksums. An engine that loads is then exercised by
//! [`probe`]: conversions, candidates and predictions in every engine it offers.

use crate::decoder::neural::{NeuralOptions, Scoring};
use crate::ime::{Ime, KeyEvent, ALT, CTRL, META, SHIFT};
use crate::model::{Container, ContainerStream, SectionKind};
use crate::Engine;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What a fuzzing run saw.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Cases run (model mutations, key events or downloads).
    pub cases: u64,
    /// Cases that the code under test refused with an error (a mutated model that did not
    /// load; a chunking is never refused).
    pub refused: u64,
    /// Panics: the case (enough to replay it) and the panic's message; the first 20 only.
    pub panics: Vec<(String, String)>,
    /// How many panics in all.
    pub panic_count: u64,
}

impl Report {
    fn panicked(&mut self, case: String, payload: Box<dyn std::any::Any + Send>) {
        self.panic_count += 1;
        if self.panics.len() < 20 {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            self.panics.push((case, msg));
        }
    }
}

/// One change to a section's bytes.
#[derive(Debug, Clone)]
pub enum Mutation {
    /// `bytes[at] ^= xor` at several places.
    Flip(Vec<(usize, u8)>),
    /// A little-endian word of `width` bytes at `at` set to `value` (headers and sizes: 0,
    /// 1, the largest values, powers of two…).
    Word {
        /// Byte offset.
        at: usize,
        /// 2, 4 or 8.
        width: usize,
        /// The value written.
        value: u64,
    },
    /// Cut to this length.
    Truncate(usize),
    /// These bytes appended.
    Extend(Vec<u8>),
    /// A range set to zero.
    Zero(usize, usize),
    /// `len` bytes copied from `from` to `to`.
    Copy {
        /// Source offset.
        from: usize,
        /// Destination offset.
        to: usize,
        /// Bytes.
        len: usize,
    },
}

impl Mutation {
    /// Draws a mutation for a section of `len` bytes; changes near the start (where headers
    /// and counts live) are more likely.
    pub fn draw(rng: &mut fastrand::Rng, len: usize) -> Mutation {
        let near_start = |rng: &mut fastrand::Rng| {
            if len == 0 {
                0
            } else if rng.bool() {
                rng.usize(..len.min(64))
            } else {
                rng.usize(..len)
            }
        };
        match rng.u8(..12) {
            0..=2 => Mutation::Flip(
                (0..rng.usize(1..=4))
                    .map(|_| (near_start(rng), 1 << rng.u8(..8)))
                    .collect(),
            ),
            3..=5 => {
                let width = [2, 4, 8][rng.usize(..3)];
                let value = match rng.u8(..8) {
                    0 => 0,
                    1 => 1,
                    2 => u64::MAX >> (64 - 8 * width),
                    3 => (u64::MAX >> (64 - 8 * width)) >> 1,
                    4 => 1 << rng.u32(..(8 * width as u32)),
                    5 => rng.u64(..1 << 20),
                    6 => rng.u64(..),
                    _ => (len as u64).wrapping_add(rng.u64(..16)).wrapping_sub(8),
                };
                let at = near_start(rng) & !(width - 1);
                Mutation::Word { at, width, value }
            }
            6 | 7 => Mutation::Truncate(match rng.u8(..3) {
                0 => len / 2,
                1 => near_start(rng),
                _ => len.saturating_sub(rng.usize(1..=64)),
            }),
            8 => Mutation::Extend(if rng.bool() {
                vec![0; rng.usize(1..=64)]
            } else {
                (0..rng.usize(1..=64)).map(|_| rng.u8(..)).collect()
            }),
            9 | 10 => {
                let a = near_start(rng);
                Mutation::Zero(a, (a + rng.usize(1..=256)).min(len))
            }
            _ => Mutation::Copy {
                from: rng.usize(..len.max(1)),
                to: near_start(rng),
                len: rng.usize(1..=64),
            },
        }
    }

    /// Applies the mutation (out-of-range parts are clipped).
    pub fn apply(&self, b: &mut Vec<u8>) {
        let n = b.len();
        match self {
            Mutation::Flip(at) => {
                for &(i, x) in at {
                    if i < n {
                        b[i] ^= x;
                    }
                }
            }
            Mutation::Word { at, width, value } => {
                let bytes = value.to_le_bytes();
                for k in 0..*width {
                    if at + k < n {
                        b[at + k] = bytes[k];
                    }
                }
            }
            Mutation::Truncate(len) => b.truncate(*len),
            Mutation::Extend(more) => b.extend_from_slice(more),
            Mutation::Zero(from, to) => {
                let to = (*to).min(n);
                if *from < to {
                    b[*from..to].fill(0);
                }
            }
            Mutation::Copy { from, to, len } => {
                let len = (*len)
                    .min(n.saturating_sub(*from))
                    .min(n.saturating_sub(*to));
                if len > 0 {
                    b.copy_within(*from..from + len, *to);
                }
            }
        }
    }
}

/// Readings the classic engine converts in every probe: a sentence, numbers, a homophone,
/// symbols and a lone kana.
const CLASSIC_READINGS: [&str; 5] = [
    "きょうはいいてんきですね",
    "にじゅうよっかに１０じ",
    "きしゃ",
    "ー！？ａｂｃ",
    "ゔ",
];

/// Readings the LM engines convert (a whole conversion costs them 1–20 ms, so fewer).
const LM_READINGS: [&str; 2] = ["きしゃがきた", "ねこ"];

/// Exercises an engine as a user would: every engine it offers converts a few readings, and
/// an [`Ime`] types, converts, walks the candidates, commits and looks at the predictions;
/// with `reverse`, also the reverse conversion (it reads the whole lexicon).
pub fn probe(engine: &Engine, reverse: bool) {
    let mut scorings = vec![Scoring::Classic];
    if engine.neural.is_some() {
        scorings.extend([Scoring::Neural, Scoring::Hybrid]);
    }
    for scoring in scorings {
        let mut session = crate::Session::new();
        session.set_scoring(scoring, NeuralOptions::default());
        let readings: &[&str] = match scoring {
            Scoring::Classic => &CLASSIC_READINGS,
            _ => &LM_READINGS,
        };
        for r in readings {
            let _ = session.convert_reading(engine, r).text();
        }
        let mut ime = Ime::new();
        ime.session_mut()
            .set_scoring(scoring, NeuralOptions::default());
        for key in [
            "k",
            "i",
            "s",
            "h",
            "a",
            " ",
            " ",
            "ArrowDown",
            "Enter",
            "n",
            "o",
        ] {
            ime.key(engine, KeyEvent::from_dom(key, 0));
        }
        ime.key(engine, KeyEvent::from_dom("Tab", 0));
        ime.key(engine, KeyEvent::from_dom("Enter", 0));
        ime.select_candidate(engine, 0);
    }
    if reverse {
        let _ = engine.reading_of("漢字変換");
    }
}

/// How often [`model_mutations`] exercises what it loads.
#[derive(Debug, Clone, Copy)]
pub struct ProbeRate {
    /// [`probe`] one engine that loads in this many (1: every one).
    pub probe_every: u32,
    /// With the reverse conversion (it reads the whole lexicon) one time in this many probes
    /// after a change to the lexicon.
    pub reverse_every: u32,
}

/// Model mutations: `cases` changed copies of the model of `base`, each [`Mutation`] drawn by
/// a generator seeded with `seed` in one section and read by the readers of that section
/// ([`Engine::with_section`]: the checks of [`Engine::from_container`] at the cost of one
/// reader); the engines that load are [`probe`]d as often as `rate` says. Panics are caught and
/// counted.
pub fn model_mutations(base: &Engine, seed: u64, cases: u64, rate: ProbeRate) -> Report {
    let kinds: Vec<SectionKind> = base
        .container()
        .entries()
        .iter()
        .filter_map(|e| e.kind)
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut report = Report::default();
    for case in 0..cases {
        let kind = kinds[rng.usize(..kinds.len())];
        let Some(section) = base.container().section(kind) else {
            continue;
        };
        let mut bytes = section.as_ref().to_vec();
        let mutation = Mutation::draw(&mut rng, bytes.len());
        mutation.apply(&mut bytes);
        let reverse = matches!(
            kind,
            SectionKind::LexiconIndex | SectionKind::LexiconPostings
        ) && rng.u32(..rate.reverse_every.max(1)) == 0;
        let probing = rng.u32(..rate.probe_every.max(1)) == 0;
        report.cases += 1;
        let run = catch_unwind(AssertUnwindSafe(|| match base.with_section(kind, bytes) {
            Ok(engine) => {
                if probing {
                    probe(&engine, reverse);
                }
                true
            }
            Err(_) => false,
        }));
        match run {
            Ok(true) => {}
            Ok(false) => report.refused += 1,
            Err(p) => report.panicked(
                format!("seed {seed} case {case}: {} {mutation:?}", kind.name()),
                p,
            ),
        }
    }
    report
}

/// DOM key names a storm draws from, besides letters and random characters.
const STORM_KEYS: [&str; 30] = [
    " ",
    "Enter",
    "Escape",
    "Backspace",
    "Delete",
    "Tab",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "Convert",
    "NonConvert",
    "Zenkaku",
    "Hankaku",
    "KanaMode",
    "Eisu",
    "-",
    ",",
    ".",
    "1",
    "/",
];

/// A key storm: `keys` key events drawn with `seed` (romaji letters most often, editing and
/// conversion keys, modifiers, any character), with now and then a candidate picked by index,
/// a flush, a cancel, a reconversion, the IME toggled, kana input switched (each key then
/// at a place of the kana layout or the number pad) or the LM's deferred work run
/// ([`Ime::catch_up`]), through [`Ime`] on `engine` in each of its engines in turn: the hybrid
/// with the LM deferred, as in the browser, the others without. Panics are caught and counted;
/// a panic ends that engine's storm.
pub fn key_storm(engine: &Engine, seed: u64, keys: u64) -> Report {
    let mut scorings = vec![Scoring::Classic];
    if engine.neural.is_some() {
        scorings.extend([Scoring::Neural, Scoring::Hybrid]);
    }
    let mut report = Report::default();
    let per = keys / scorings.len() as u64;
    for scoring in scorings {
        let mut rng = fastrand::Rng::with_seed(seed ^ scoring as u64);
        let mut ime = Ime::new();
        ime.session_mut()
            .set_scoring(scoring, NeuralOptions::default());
        ime.set_lm_deferred(scoring == Scoring::Hybrid);
        let mut done = 0u64;
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut committed = String::new();
            let mut kana_input = false;
            while done < per {
                done += 1;
                let mods = match rng.u8(..20) {
                    0 => SHIFT,
                    1 => CTRL,
                    2 => ALT,
                    3 => META,
                    4 => rng.u32(..16),
                    _ => 0,
                };
                let name: String = match rng.u8(..20) {
                    0..=10 => "kstnhmyrwgzdbpaiueoaiueoaiueon"
                        .chars()
                        .nth(rng.usize(..30))
                        .unwrap_or('a')
                        .to_string(),
                    11..=15 => STORM_KEYS[rng.usize(..STORM_KEYS.len())].to_string(),
                    16 => char::from_u32(rng.u32(..0x11_0000))
                        .unwrap_or('\u{fffd}')
                        .to_string(),
                    17 => rng
                        .choice(["ー", "、", "。", "ａ", "ア", "😀", "\u{301}"])
                        .unwrap_or("ー")
                        .to_string(),
                    _ => match rng.u8(..8) {
                        0 => {
                            ime.select_candidate(engine, rng.usize(..12));
                            continue;
                        }
                        1 => {
                            let out = ime.flush(engine);
                            committed.push_str(&out.committed);
                            continue;
                        }
                        2 => {
                            ime.cancel();
                            continue;
                        }
                        3 => {
                            let start = committed.len().saturating_sub(rng.usize(..40));
                            let start = (start..=committed.len())
                                .find(|&i| committed.is_char_boundary(i))
                                .unwrap_or(committed.len());
                            ime.reconvert(engine, &committed[start..]);
                            continue;
                        }
                        4 => {
                            ime.set_enabled(engine, rng.bool());
                            continue;
                        }
                        5 => {
                            ime.catch_up(engine);
                            continue;
                        }
                        6 => {
                            kana_input = !kana_input;
                            ime.set_kana_input(kana_input);
                            continue;
                        }
                        _ => "Enter".to_string(),
                    },
                };
                // where the key is on the keyboard, for kana input: a kana key, a mark, one of
                // the number pad
                let code = rng
                    .choice([
                        "KeyT",
                        "KeyF",
                        "BracketLeft",
                        "BracketRight",
                        "Digit0",
                        "Numpad1",
                    ])
                    .unwrap_or("KeyT");
                let out = ime.key(engine, ime.kana_key(KeyEvent::from_dom(&name, mods), code));
                committed.push_str(&out.committed);
                if committed.len() > 4096 {
                    let cut = (committed.len() - 1024..committed.len())
                        .find(|&i| committed.is_char_boundary(i))
                        .unwrap_or(committed.len());
                    committed.drain(..cut);
                }
            }
        }));
        report.cases += done;
        if let Err(p) = run {
            report.panicked(format!("seed {seed} {} key {done}", scoring.name()), p);
        }
    }
    report
}

/// Downloads of `file` cut into arbitrary chunks (sizes drawn with `seed`: single bytes, a
/// few, thousands, the rest at once), with and without the length announced, written through
/// a [`ContainerStream`] as the browser loader does; each must end with the same container as
/// reading the file whole (or the same error). A case that does not is reported as a panic
/// with its own message.
pub fn stream_chunkings(file: &[u8], seed: u64, cases: u64) -> Report {
    let whole = Container::from_bytes(file.to_vec()).map(|c| sections_of(&c));
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut report = Report::default();
    for case in 0..cases {
        report.cases += 1;
        let announced = rng.bool().then_some(file.len() as u64);
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut stream = ContainerStream::new(announced);
            let mut at = 0;
            while at < file.len() && !stream.is_complete() {
                let chunk = match rng.u8(..4) {
                    0 => 1,
                    1 => rng.usize(1..=64),
                    2 => rng.usize(1..=1 << 16),
                    _ => file.len() - at,
                };
                let mut rest = &file[at..(at + chunk).min(file.len())];
                at += rest.len();
                while !rest.is_empty() {
                    let window = stream.window();
                    if window.is_empty() {
                        break;
                    }
                    let n = window.len().min(rest.len());
                    window[..n].copy_from_slice(&rest[..n]);
                    stream.wrote(n)?;
                    rest = &rest[n..];
                }
            }
            stream.finish().map(|c| sections_of(&c))
        }));
        match run {
            Ok(got) if got == whole => {}
            Ok(got) => report.panicked(
                format!("seed {seed} case {case}"),
                Box::new(format!(
                    "streamed {:?}, whole {:?}",
                    got.map(|s| s.len()),
                    whole.as_ref().map(|s| s.len())
                )),
            ),
            Err(p) => report.panicked(format!("seed {seed} case {case}"), p),
        }
    }
    report
}

/// Every section's bytes, to compare two containers.
fn sections_of(c: &Container) -> Vec<Vec<u8>> {
    (0..c.entries().len())
        .filter_map(|i| c.section_at(i).map(|s| s.as_ref().to_vec()))
        .collect()
}
