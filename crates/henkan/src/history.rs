//! User history (学習): the spellings the user chose, preferred in later conversions.
//!
//! Terms:
//! - *learned reading*: a reading the user chose a spelling for (`きしゃ` written `汽車`);
//!   the last spelling chosen for a reading wins, as in Mozc and MS-IME. A *word* is one
//!   lexicon word; a *phrase* is a segment of several words the engine had cut otherwise
//!   (`かえる` written `買え` `る` where the engine wrote `帰る`).
//! - *correction*: a unit of committed text the engine had not put first (the user picked
//!   another candidate, resized a segment, or typed it otherwise). The IME and
//!   `henkan eval conversion --learn` learn corrections only ([`crate::Session::learn_commit`]);
//!   a word accepted as first shown is not learned again, only kept fresh ([`History::accept`]).
//!   A corrected one-character suffix (`名詞,接尾`: `強` for `橋` in `2強`) is learned with the word
//!   it follows, as a phrase (`にきょう` written `2強`): alone its reading is mostly another word
//!   (`きょう`: 今日), and a one-character text acts only where it is the whole input.
//! - *spelling variant*: another spelling of the same word, where only kana differ (`ください`
//!   and `下さい`, `行う` and `行なう`, `様々` and `さまざま`) or a number is written in other
//!   digits (`１回`, `一回`) ([`is_variant`]). It is a matter of style, which text by many
//!   writers flips all the time: a correction to a variant is learned the second time the user
//!   makes it without having accepted the other spelling in between ([`History::choose`]), and
//!   it is written as learned only where its reading is the whole input; a correction to
//!   another word (`汽車` for `記者`) is learned at once.
//! - *active readings*: the [`ACTIVE_READINGS`] most recently learned or confirmed readings,
//!   learned or confirmed within the last [`ACTIVE_COMMITS`] commits ([`History::tick`]), whose
//!   text has [`MIN_ACTIVE_TEXT_CHARS`] characters or more, is not all kana and is not a spelling
//!   variant. Their spellings are preferred wherever their reading occurs, in every engine: in the
//!   classic engine the word cost of a *preferred entry* (an entry of the reading written as
//!   learned) drops below that of every homophone converted alone (sentence start and end on both
//!   sides, [`PREFERENCE_MARGIN`] to spare, [`History::adjustment`]); in the LM engines a preferred
//!   node is raised to [`PREFERENCE_MARGIN_NATS`] above the best other node over the same reading
//!   after the same path (by at most [`PREFERENCE_MAX_LIFT_NATS`]; a phrase as far as it takes),
//!   and the final rescoring cannot overturn it ([`crate::decoder::neural`]). A phrase becomes one
//!   lattice word over its reading ([`History::phrases`]): in the classic engine it costs
//!   [`PREFERENCE_MARGIN`] less than the best path over its reading converted alone and, when
//!   learned from a commit, than it takes to win in the sentence it was chosen in; the LM
//!   engines raise it above every path that cuts its reading otherwise. Kana entries of the
//!   reading with a part of speech of the learned text are written as learned (*respelled*,
//!   [`History::respelling`]): such an entry is the same word in kana. A kana entry of another
//!   part of speech is another word (`おり`, 動詞,非自立, of `としております`, beside `折り`).
//! - Every learned reading, active or not, is written as learned when it is converted on its
//!   own (the whole input is that reading), as Mozc's segment learning does.
//!
//! Why only the most recent readings act within sentences, and only for a few commits: on text
//! by many writers a choice carried far overrules the next writer's context more often than it
//! helps (measured with `henkan eval conversion --learn` on the dev sets, BENCHMARKS.md);
//! corrections are bursty, the same word comes back within a few sentences of the same text.
//!
//! The history keeps the `capacity` most recently learned or confirmed readings ([`CAPACITY`]
//! by default, at most [`MAX_CAPACITY`]). It is stored by (reading, text), never by entry
//! offsets (they change with the model): [`History::export`] writes a small versioned text,
//! [`History::import`] reads it back against the loaded model.

use crate::composer::is_kana;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::lattice::PhraseNode;
use std::collections::HashMap;

/// Readings kept by default (the oldest learned or confirmed is forgotten first).
pub const CAPACITY: usize = 1000;
/// The most readings a history keeps, whatever its capacity; also the most lines an import
/// reads.
pub const MAX_CAPACITY: usize = 10_000;
/// Shorter readings are not learned: one kana (particles, prefixes, single digits) has too
/// many unrelated spellings for one choice to say anything about the next.
pub const MIN_READING_CHARS: usize = 2;
/// Longest reading or text learned, in characters (a lattice word is at most this long).
pub const MAX_CHARS: usize = crate::lattice::MAX_WORD_CHARS;
/// How much cheaper than its cheapest homophone a preferred entry is made in the classic
/// engine (cost units; Mozc's costs are about 500 per nat).
pub const PREFERENCE_MARGIN: i32 = 500;
/// How far above the best other node over the same reading a preferred node scores in the LM
/// engines (nats).
pub const PREFERENCE_MARGIN_NATS: f32 = 1.0;
/// How many of the most recently learned or confirmed readings are preferred wherever their
/// reading occurs; the others only where their reading is a whole segment.
pub const ACTIVE_READINGS: usize = 3;
/// For how many commits after it was learned or confirmed a reading stays active.
pub const ACTIVE_COMMITS: u64 = 8;

/// The most the LM engines raise a preferred node (nats): a context the LM finds far likelier
/// otherwise still wins.
pub const PREFERENCE_MAX_LIFT_NATS: f32 = 1.0;
/// Shorter learned texts (one kanji: `端`, `台`) act only where their reading is the whole
/// input: inside sentences a one-character word is as often a piece of a compound. So do
/// texts all in kana (`こと` over `事`): a kana word fits almost any context, and carried into
/// other sentences it splits the words around it (`3にんしょう` for `三人称`).
pub const MIN_ACTIVE_TEXT_CHARS: usize = 2;

/// First line of [`History::export`]: the format and its version.
pub const EXPORT_HEADER: &str = "henkan-history\t1";

#[derive(Debug, Clone)]
struct Learned {
    /// The spelling chosen.
    text: String,
    /// The history's version when it was learned or confirmed last (the oldest is evicted
    /// first).
    version: u64,
    /// The entries it prefers, with their classic cost changes.
    prefer: Vec<(u32, i32)>,
    /// The kana entries it respells.
    respell: Vec<u32>,
    /// A phrase of several words (chosen as one segment), not one word.
    phrase: bool,
    /// The commit it was learned or confirmed at ([`History::tick`]).
    commit: u64,
    /// A spelling variant of what the engine wrote ([`is_variant`]): it acts only where its
    /// reading is the whole input, never inside sentences.
    variant: bool,
    /// The phrase taken as one word, when its words are known.
    node: Option<PhraseNode>,
}

/// The learned readings of one user (one IME page, one eval run).
#[derive(Debug, Clone)]
pub struct History {
    readings: HashMap<String, Learned>,
    /// Variant entry offset → the learned text it is written as.
    respell: HashMap<u32, String>,
    /// Preferred entry offset → its word cost change in the classic engine (≤ 0).
    prefer: HashMap<u32, i32>,
    /// Reading → a spelling variant chosen once (learned when chosen again), with the
    /// version it was chosen at.
    pending: HashMap<String, (String, u64)>,
    /// The active phrases as lattice nodes.
    phrases: Vec<PhraseNode>,
    capacity: usize,
    /// Bumped on every change (copies of one history compare by it).
    version: u64,
    /// Commits seen ([`History::tick`]).
    commits: u64,
}

impl Default for History {
    fn default() -> Self {
        History::new(CAPACITY)
    }
}

impl History {
    /// An empty history keeping at most `capacity` readings (1 to [`MAX_CAPACITY`]).
    pub fn new(capacity: usize) -> Self {
        History {
            readings: HashMap::new(),
            respell: HashMap::new(),
            prefer: HashMap::new(),
            pending: HashMap::new(),
            phrases: Vec::new(),
            capacity: capacity.clamp(1, MAX_CAPACITY),
            version: 0,
            commits: 0,
        }
    }

    /// Forgets everything learned.
    pub fn clear(&mut self) {
        self.readings.clear();
        self.respell.clear();
        self.prefer.clear();
        self.pending.clear();
        self.phrases.clear();
        self.version += 1;
    }

    /// The most recent learned phrases, each as one lattice word
    /// ([`crate::lattice::Lattice::set_phrases`]).
    pub fn phrases(&self) -> &[PhraseNode] {
        &self.phrases
    }

    /// A number that changes whenever the history does (a copy keeps it until it changes).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Number of learned readings.
    pub fn len(&self) -> usize {
        self.readings.len()
    }

    /// Whether nothing is learned.
    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    /// The most readings kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The learned text `entry` is written as, when it is a variant of a learned spelling.
    pub fn respelling(&self, entry: u32) -> Option<&str> {
        if self.respell.is_empty() {
            return None;
        }
        self.respell.get(&entry).map(String::as_str)
    }

    /// Every respelled entry with its learned text.
    pub fn respellings(&self) -> &HashMap<u32, String> {
        &self.respell
    }

    /// What the word cost of `entry` changes by in the classic engine (≤ 0: a learned
    /// spelling below its homophones), else 0.
    pub fn adjustment(&self, entry: u32) -> i32 {
        if self.prefer.is_empty() {
            return 0;
        }
        self.prefer.get(&entry).copied().unwrap_or(0)
    }

    /// Whether `entry` writes a learned spelling (a preferred or respelled entry): the LM
    /// engines put it above the other nodes over the same reading.
    pub fn is_preferred(&self, entry: u32) -> bool {
        !self.readings.is_empty()
            && (self.prefer.contains_key(&entry) || self.respell.contains_key(&entry))
    }

    /// The spelling learned for `reading`, if any.
    pub fn learned(&self, reading: &str) -> Option<&str> {
        self.readings.get(reading).map(|l| l.text.as_str())
    }

    /// Every learned (reading, text), the least recently learned or confirmed first.
    pub fn entries(&self) -> Vec<(&str, &str)> {
        let mut all: Vec<(&String, &Learned)> = self.readings.iter().collect();
        all.sort_by_key(|(_, l)| l.version);
        all.into_iter()
            .map(|(r, l)| (r.as_str(), l.text.as_str()))
            .collect()
    }

    /// The user chose `text` for `reading` (one word): later conversions write that reading
    /// this way. Returns whether the reading was learned: `false` when no entry of `reading`
    /// is written `text` (but for the acronym the lattice writes from letter names, `おーけー`
    /// written `OK`, learned as a phrase of one word), for a reading shorter than
    /// [`MIN_READING_CHARS`] or longer than [`MAX_CHARS`], or when it is already learned so (then
    /// it is only kept fresh).
    pub fn learn(&mut self, engine: &Engine, reading: &str, text: &str) -> bool {
        self.learn_word(engine, reading, text, false)
    }

    /// [`History::learn`], for a spelling `variant` of what the engine wrote or not.
    fn learn_word(&mut self, engine: &Engine, reading: &str, text: &str, variant: bool) -> bool {
        if self.learned(reading) == Some(text) {
            self.touch(reading, text);
            return false;
        }
        let Some((prefer, respell)) = resolve(engine, reading, text) else {
            // no entry of the dictionary, but a word the lattice writes: an acronym (`おーけー`
            // written `OK`, where the dictionary has `オーケー`), learned as a phrase of one word
            if is_acronym(reading, text) {
                return self.learn_phrase_beating(
                    engine,
                    reading,
                    text,
                    &[(reading, text)],
                    None,
                    variant,
                );
            }
            return false;
        };
        self.insert(reading, text, (prefer, respell), None, false, variant);
        true
    }

    /// The user chose `text` for `reading` as one segment of several `words` (reading, text),
    /// e.g. `買え` `る` for `かえる`: converted on its own, the reading is written so next
    /// time; its words of [`MIN_ACTIVE_TEXT_CHARS`] or more characters, not all kana, are
    /// preferred as learned words are, and the phrase becomes one lattice word
    /// ([`History::phrases`]).
    /// Returns whether the phrase was learned (`false`: already learned so, or too long).
    pub fn learn_phrase(
        &mut self,
        engine: &Engine,
        reading: &str,
        text: &str,
        words: &[(&str, &str)],
    ) -> bool {
        self.learn_phrase_beating(engine, reading, text, words, None, false)
    }

    /// [`History::learn_phrase`]; with `beat`, the phrase as one lattice word costs at least
    /// [`PREFERENCE_MARGIN`] less than `beat` (the words the engine wrote over its reading, in
    /// the context it was chosen in: their costs and connections there, less the phrase's own
    /// connections to that context); for a spelling `variant` of what the engine wrote or not.
    fn learn_phrase_beating(
        &mut self,
        engine: &Engine,
        reading: &str,
        text: &str,
        words: &[(&str, &str)],
        beat: Option<i32>,
        variant: bool,
    ) -> bool {
        if self.learned(reading) == Some(text) {
            self.touch(reading, text);
            return false;
        }
        if reading.chars().count() > MAX_CHARS || text.chars().count() > MAX_CHARS {
            return false;
        }
        let (mut prefer, mut respell) = (Vec::new(), Vec::new());
        for (r, t) in words {
            // a word in kana (`ども` of `子ども`) would act wherever its reading occurs
            // (`年ども` for `年度も`), as a kana text does
            if t.chars().count() < MIN_ACTIVE_TEXT_CHARS || t.chars().all(is_kana) {
                continue;
            }
            if let Some((p, s)) = resolve(engine, r, t) {
                prefer.extend(p);
                respell.extend(s);
            }
        }
        let node = phrase_node(engine, reading, text, words).map(|mut node| {
            if let Some(beat) = beat {
                node.cost = node.cost.min(beat - PREFERENCE_MARGIN);
            }
            node
        });
        self.insert(reading, text, (prefer, respell), node, true, variant);
        true
    }

    fn insert(
        &mut self,
        reading: &str,
        text: &str,
        (prefer, respell): (Vec<(u32, i32)>, Vec<u32>),
        node: Option<PhraseNode>,
        phrase: bool,
        variant: bool,
    ) {
        self.readings.remove(reading);
        self.version += 1;
        self.readings.insert(
            reading.to_string(),
            Learned {
                text: text.to_string(),
                version: self.version,
                prefer,
                respell,
                phrase,
                node,
                commit: self.commits,
                variant,
            },
        );
        while self.readings.len() > self.capacity {
            let Some(oldest) = self
                .readings
                .iter()
                .min_by_key(|(_, l)| l.version)
                .map(|(r, _)| r.clone())
            else {
                break;
            };
            self.readings.remove(&oldest);
        }
        self.activate();
    }

    /// Rebuilds the lattice-wide preferences from the [`ACTIVE_READINGS`] most recent readings
    /// (words and phrases that have lattice entries).
    fn activate(&mut self) {
        self.respell.clear();
        self.prefer.clear();
        self.phrases.clear();
        let mut recent: Vec<&Learned> = self
            .readings
            .values()
            .filter(|l| !l.prefer.is_empty() || !l.respell.is_empty() || l.node.is_some())
            .filter(|l| l.text.chars().count() >= MIN_ACTIVE_TEXT_CHARS)
            .filter(|l| !l.text.chars().all(is_kana))
            .filter(|l| !l.variant && self.commits - l.commit < ACTIVE_COMMITS)
            .collect();
        let n = ACTIVE_READINGS;
        if recent.len() > n {
            recent.select_nth_unstable_by_key(n, |l| std::cmp::Reverse(l.version));
            recent.truncate(n);
        }
        for l in recent {
            for &offset in &l.respell {
                self.respell.insert(offset, l.text.clone());
            }
            for &(offset, change) in &l.prefer {
                self.prefer.insert(offset, change);
            }
            if let Some(node) = &l.node {
                self.phrases.push(node.clone());
            }
        }
    }

    /// The user corrected the engine's `shown` text for `reading` to `text` (one word over
    /// the same reading): a different word is learned at once ([`History::learn`]), a spelling
    /// variant of `shown` ([`is_variant`]) the second time in a row. Returns whether the
    /// reading was learned.
    /// `words` are the (reading, text) of its words: one word is learned as a word
    /// ([`History::learn`]), several as a phrase ([`History::learn_phrase`]), costing less
    /// than `beat` as one lattice word when given.
    pub fn choose(
        &mut self,
        engine: &Engine,
        reading: &str,
        text: &str,
        shown: &str,
        words: &[(&str, &str)],
        beat: Option<i32>,
    ) -> bool {
        let variant = is_variant(shown, text);
        let learn = |h: &mut History| {
            if words.len() == 1 {
                h.learn_word(engine, reading, text, variant)
            } else {
                h.learn_phrase_beating(engine, reading, text, words, beat, false)
            }
        };
        if !variant || self.pending.get(reading).is_some_and(|(t, _)| t == text) {
            self.pending.remove(reading);
            return learn(self);
        }
        if words.len() == 1
            && (reading.chars().count() < MIN_READING_CHARS
                || resolve(engine, reading, text).is_none() && !is_acronym(reading, text))
        {
            return false;
        }
        self.version += 1;
        self.pending
            .insert(reading.to_string(), (text.to_string(), self.version));
        while self.pending.len() > self.capacity {
            let Some(oldest) = self
                .pending
                .iter()
                .min_by_key(|(_, p)| p.1)
                .map(|(r, _)| r.clone())
            else {
                break;
            };
            self.pending.remove(&oldest);
        }
        false
    }

    /// The user accepted `text` for `reading` as shown: a variant chosen once for the reading
    /// is forgotten, and when `text` is what is learned for the reading, it becomes the most
    /// recent (the last to be forgotten). Returns whether it was learned.
    pub fn accept(&mut self, reading: &str, text: &str) -> bool {
        if self.pending.get(reading).is_some_and(|(t, _)| t != text) {
            self.pending.remove(reading);
        }
        self.touch(reading, text)
    }

    /// When `text` is what is learned for `reading`, it becomes the most recent (the last to
    /// be forgotten). Returns whether it was.
    pub fn touch(&mut self, reading: &str, text: &str) -> bool {
        let next = self.version + 1;
        match self.readings.get_mut(reading) {
            Some(l) if l.text == text => {
                l.version = next;
                l.commit = self.commits;
                self.version = next;
                self.activate();
                true
            }
            _ => false,
        }
    }

    /// The user committed text (called once per commit, before its corrections are learned):
    /// readings learned or confirmed [`ACTIVE_COMMITS`] commits ago stop acting inside
    /// sentences. Returns whether a reading left the window (the preferences may have changed).
    pub fn tick(&mut self) -> bool {
        self.commits += 1;
        let expired = self
            .readings
            .values()
            .any(|l| self.commits - l.commit == ACTIVE_COMMITS);
        if expired {
            self.activate();
        }
        expired
    }

    /// Forgets what was learned for `reading`. Returns whether anything was.
    pub fn forget(&mut self, reading: &str) -> bool {
        if self.readings.remove(reading).is_none() {
            return false;
        }
        self.version += 1;
        self.activate();
        true
    }

    /// The history as text: [`EXPORT_HEADER`], then one `reading<TAB>text` line per learned
    /// word and one `reading<TAB>text<TAB>phrase` line per phrase, the least recent first.
    /// [`History::import`] reads it back, against any model.
    pub fn export(&self) -> String {
        let mut all: Vec<(&String, &Learned)> = self.readings.iter().collect();
        all.sort_by_key(|(_, l)| l.version);
        let mut out = String::from(EXPORT_HEADER);
        out.push('\n');
        for (r, l) in all {
            out.push_str(r);
            out.push('\t');
            out.push_str(&l.text);
            if l.phrase {
                out.push_str("\tphrase");
            }
            out.push('\n');
        }
        out
    }

    /// Replaces the history by an [`History::export`]ed one, learned again against `engine`
    /// in the order written (so the last line is the most recent). Lines whose reading has
    /// no entry written so in this model are skipped. Returns how many readings were learned.
    ///
    /// Anything else than an export (another header, a line without one tab, a field longer
    /// than [`MAX_CHARS`], more than [`MAX_CAPACITY`] lines) is an error, and the history is
    /// left as it was.
    pub fn import(&mut self, engine: &Engine, text: &str) -> Result<usize> {
        let pairs = parse_export(text)?;
        let mut next = History::new(self.capacity);
        next.version = self.version + 1;
        for (r, t, phrase) in pairs {
            if phrase {
                let words = split_phrase(engine, r, t);
                let words: Vec<(&str, &str)> = words
                    .iter()
                    .map(|(a, b)| (a.as_str(), b.as_str()))
                    .collect();
                next.learn_phrase(engine, r, t, &words);
            } else {
                next.learn(engine, r, t);
            }
        }
        next.version += 1;
        let n = next.len();
        *self = next;
        Ok(n)
    }
}

/// The (reading, text) lines of an export, checked.
fn parse_export(text: &str) -> Result<Vec<(&str, &str, bool)>> {
    let bad = |line: usize, detail: &str| Error::UserData {
        line,
        detail: detail.to_string(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(|l| l.trim_end_matches('\r')) != Some(EXPORT_HEADER) {
        return Err(bad(1, "not a henkan history (header)"));
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        if out.len() >= MAX_CAPACITY {
            return Err(bad(i + 2, "too many lines"));
        }
        let Some((r, t)) = line.split_once('\t') else {
            return Err(bad(i + 2, "expected reading<TAB>text"));
        };
        let (t, phrase) = match t.split_once('\t') {
            Some((t, "phrase")) => (t, true),
            Some(_) => return Err(bad(i + 2, "unknown field")),
            None => (t, false),
        };
        if r.is_empty()
            || t.is_empty()
            || r.chars().count() > MAX_CHARS
            || t.chars().count() > MAX_CHARS
        {
            return Err(bad(i + 2, "bad reading or text"));
        }
        out.push((r, t, phrase));
    }
    Ok(out)
}

/// A phrase as one lattice word: the left id of its first word, the right id of its last, and
/// a cost that makes it, converted alone, [`PREFERENCE_MARGIN`] cheaper than any one word
/// and than the best path over its reading, and never dearer than its own words in a row.
/// `None` when a word is neither in the lexicon nor a number read in kana nor an acronym read as
/// its letters' names.
fn phrase_node(
    engine: &Engine,
    reading: &str,
    text: &str,
    words: &[(&str, &str)],
) -> Option<PhraseNode> {
    let lexicon = &engine.lexicon;
    let conn = &engine.connection;
    let mut path = Vec::new();
    for (r, t) in words {
        // a digit twin (`よにん` written `4人`) is its kanji word's node (`四人`)
        let digits = crate::lattice::DigitWidth::Half.apply(t);
        let word = lexicon
            .get(r)
            .filter(|e| {
                let s = lexicon.surface_text(&e.surface, r);
                s == *t || crate::lattice::number::counted_twin(r, &s).is_some_and(|d| d == digits)
            })
            .min_by_key(|e| e.cost)
            .map(|e| (e.left_id, e.right_id, e.cost));
        let word = match word {
            Some(w) => w,
            // a number the lattice reads from kana (`に` written `2`)
            None if crate::lattice::number::parse(r).is_some() => {
                let id = conn.special.number;
                (id, id, crate::lattice::NUMBER_COST)
            }
            // an acronym the lattice writes from letter names (`おーけー` written `OK`)
            None if is_acronym(r, t) => {
                let id = conn.special.noun;
                (id, id, crate::lattice::ACRONYM_COST)
            }
            None => return None,
        };
        path.push(word);
    }
    let (first, last) = (path.first()?, path.last()?);
    let (left_id, right_id) = (first.0, last.1);
    let mut own = conn.cost(0, left_id) + conn.cost(right_id, 0);
    for (k, w) in path.iter().enumerate() {
        own += w.2;
        if k > 0 {
            own += conn.cost(path[k - 1].1, w.0);
        }
    }
    let rival = lexicon
        .get(reading)
        .map(|e| e.cost + conn.cost(0, e.left_id) + conn.cost(e.right_id, 0))
        .chain(best_alone(engine, reading, text))
        .min()
        .map_or(own, |r| r - PREFERENCE_MARGIN);
    let alone = own.min(rival);
    Some(PhraseNode {
        reading: reading.to_string(),
        text: text.to_string(),
        left_id,
        right_id,
        cost: alone - conn.cost(0, left_id) - conn.cost(right_id, 0),
    })
}

/// The classic cost of the best path over `reading` converted alone, when it is not written
/// `text`: the words a phrase must beat also where the engine cuts its reading otherwise.
fn best_alone(engine: &Engine, reading: &str, text: &str) -> Option<i32> {
    let mut lattice = crate::lattice::Lattice::new();
    lattice.sync(&engine.lexicon, &engine.connection.special, reading);
    let span = crate::decoder::Span::whole(&lattice);
    let mut decoder = crate::decoder::Decoder::new();
    decoder.forward(&lattice, &engine.connection, span, &[], 0);
    let path = decoder.best_path(&lattice, &engine.connection, span)?;
    let written: String = path
        .nodes
        .iter()
        .map(|&i| lattice.surface(&engine.lexicon, &lattice.nodes()[i as usize]))
        .collect();
    (written != text).then_some(path.cost)
}

/// The words of a phrase as the lattice spells it (reading, text); empty when it cannot.
fn split_phrase(engine: &Engine, reading: &str, text: &str) -> Vec<(String, String)> {
    let mut lattice = crate::lattice::Lattice::new();
    lattice.sync(&engine.lexicon, &engine.connection.special, reading);
    let n = lattice.len();
    crate::predict::suggest::split_words(engine, &lattice, 0, n, text, false)
        .unwrap_or_default()
        .into_iter()
        .map(|i| {
            let node = lattice.nodes()[i as usize];
            (
                lattice
                    .span(node.begin as usize, node.end as usize)
                    .to_string(),
                lattice.surface(&engine.lexicon, &node),
            )
        })
        .collect()
}

/// The entries a learned (reading, text) prefers, with their classic cost changes, and the
/// kana entries it respells; `None` when nothing of `reading` is written `text`.
#[allow(clippy::type_complexity)]
fn resolve(engine: &Engine, reading: &str, text: &str) -> Option<(Vec<(u32, i32)>, Vec<u32>)> {
    let chars = reading.chars().count();
    if !(MIN_READING_CHARS..=MAX_CHARS).contains(&chars) || text.chars().count() > MAX_CHARS {
        return None;
    }
    let lexicon = &engine.lexicon;
    let conn = &engine.connection;
    // (offset, cost converted alone: word cost and the connections from the sentence start
    // and to its end, written as learned, kanji)
    let mut all = Vec::new();
    // a kanji numeral read with a one-kana digit has a digit twin (`四人`, `4人`), its own
    // lattice entry
    let digits = crate::lattice::DigitWidth::Half.apply(text);
    for e in lexicon.get(reading) {
        let t = lexicon.surface_text(&e.surface, reading);
        let alone = e.cost + conn.cost(0, e.left_id) + conn.cost(e.right_id, 0);
        all.push((e.offset, alone, t == text, has_kanji(&t), e.left_id));
        if let Some(written) = crate::lattice::number::counted_twin(reading, &t) {
            if let Some(entry) = crate::lattice::twin_entry(e.offset) {
                all.push((
                    entry,
                    alone,
                    written == digits,
                    has_kanji(&written),
                    e.left_id,
                ));
            }
        }
    }
    if !all.iter().any(|a| a.2) {
        return None;
    }
    // the parts of speech written as learned: a kana entry of another (`おり`, 動詞,非自立, of
    // `としております`, beside `折り`) is another word, not the learned one in kana
    let learned_pos: Vec<u16> = all.iter().filter(|a| a.2).map(|a| a.4).collect();
    // the cheapest homophone written otherwise that is not respelled
    let rival = all.iter().filter(|a| !a.2 && a.3).map(|a| a.1).min();
    let mut prefer = Vec::new();
    let mut respell = Vec::new();
    for &(offset, alone, same, kanji, pos) in &all {
        if same {
            let change = rival.map_or(0, |r| (r - PREFERENCE_MARGIN - alone).min(0));
            prefer.push((offset, change));
        } else if !kanji && learned_pos.contains(&pos) {
            respell.push(offset);
        }
    }
    Some((prefer, respell))
}

/// Whether `a` and `b` spell one word two ways: their characters other than kana are the
/// same (`下さい` and `下さい`, `行う` and `行なう`), or one has none (`ください` and `下さい`,
/// `様々` and `さまざま`), digits and kanji numerals counting as one (`１回` and `一回`).
pub fn is_variant(a: &str, b: &str) -> bool {
    let skeleton = |s: &str| -> String {
        s.chars()
            .filter(|&c| !is_kana(c))
            .map(|c| match c {
                '0'..='9'
                | '０'..='９'
                | '〇'
                | '一'
                | '二'
                | '三'
                | '四'
                | '五'
                | '六'
                | '七'
                | '八'
                | '九'
                | '十' => '#',
                c => c,
            })
            .collect()
    };
    let (x, y) = (skeleton(a), skeleton(b));
    x.is_empty() || y.is_empty() || x == y
}

/// Whether `text` is the acronym that the lattice writes from the letter names of `reading`
/// (`おーけー` written `OK`, [`crate::lattice::acronym`]): a word no dictionary entry is.
fn is_acronym(reading: &str, text: &str) -> bool {
    crate::lattice::acronym::letters_of(reading).as_deref() == Some(text)
}

/// Whether `s` has a CJK ideograph (or the iteration mark 々).
pub(crate) fn has_kanji(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '々')
    })
}
