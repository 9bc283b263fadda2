//! The romaji table: rules of (*input*, *output*, *pending*), read from `romaji.tsv`.
//!
//! Rules are kept sorted by input, so every rule that extends a key sits right after the
//! key in the list: one binary search answers both "is this key a rule?" and "can more
//! keys still extend it?". No hashing, no allocation per lookup.

use std::sync::{Arc, OnceLock};

/// The built-in table's text (see the file's header for the format).
pub(crate) const ROMAJI_TSV: &str = include_str!("romaji.tsv");

/// One rule: typing `input` emits `output`; `pending` (a proper suffix of `input`, often
/// empty) stays pending and begins the next rule (`tt` → `っ`, pending `t`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    /// The keys, in lower case.
    pub(crate) input: Box<str>,
    /// The kana (or symbol) emitted.
    pub(crate) output: Box<str>,
    /// The keys left pending after the rule applies.
    pub(crate) pending: Box<str>,
}

/// What the table says about a key sequence.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe<'a> {
    /// The rule whose input is exactly the key, if any.
    pub(crate) exact: Option<&'a Rule>,
    /// Whether some rule's input is longer than the key and starts with it.
    pub(crate) longer: bool,
}

/// A set of rules, sorted by input, inputs unique.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    rules: Vec<Rule>,
}

impl Table {
    /// The built-in table, parsed once.
    pub(crate) fn builtin() -> &'static Arc<Table> {
        static TABLE: OnceLock<Arc<Table>> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The built-in table is checked by the unit tests; a failure here is a bug.
            Arc::new(Table::parse(ROMAJI_TSV).expect("the built-in romaji table is valid"))
        })
    }

    /// How many rules.
    pub(crate) fn len(&self) -> usize {
        self.rules.len()
    }

    /// Parses `input<TAB>output[<TAB>pending]` lines. Empty lines and lines that start
    /// with `#` and hold no tab are comments; of two rules for one input the later counts.
    /// Errors name the 1-based line.
    pub(crate) fn parse(text: &str) -> Result<Table, String> {
        let mut rules = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line.is_empty() || (line.starts_with('#') && !line.contains('\t')) {
                continue;
            }
            let number = index + 1;
            let mut fields = line.split('\t');
            let input = fields.next().unwrap_or_default();
            let output = fields.next().unwrap_or_default();
            let pending = fields.next().unwrap_or_default();
            if fields.next().is_some() {
                return Err(format!("line {number}: more than three fields"));
            }
            if input.is_empty() || output.is_empty() {
                return Err(format!("line {number}: empty input or output"));
            }
            if input.chars().any(|c| c.is_ascii_uppercase()) {
                return Err(format!("line {number}: input must be lower case"));
            }
            if !pending.is_empty() && (pending.len() >= input.len() || !input.ends_with(pending)) {
                return Err(format!(
                    "line {number}: pending {pending:?} is not a proper suffix of {input:?}"
                ));
            }
            rules.push(Rule {
                input: input.into(),
                output: output.into(),
                pending: pending.into(),
            });
        }
        // A later rule for the same input replaces an earlier one, as in Mozc (whose own
        // table has `fu` twice): the sort is stable, so the last of a run is the later line.
        rules.sort_by(|a, b| a.input.cmp(&b.input));
        let mut unique: Vec<Rule> = Vec::with_capacity(rules.len());
        for rule in rules {
            match unique.last_mut() {
                Some(last) if last.input == rule.input => *last = rule,
                _ => unique.push(rule),
            }
        }
        Ok(Table { rules: unique })
    }

    /// All rules, sorted by input.
    #[cfg(test)]
    pub(crate) fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Looks `key` up: the rule it names exactly, and whether longer rules start with it.
    pub(crate) fn probe(&self, key: &str) -> Probe<'_> {
        // Inputs that start with `key` form one run that begins at the first input >= key
        // (byte order), with `key` itself first if it is a rule.
        let at = self.rules.partition_point(|r| &*r.input < key);
        let exact = self.rules.get(at).filter(|r| &*r.input == key);
        let next = at + usize::from(exact.is_some());
        let longer = self
            .rules
            .get(next)
            .is_some_and(|r| r.input.starts_with(key));
        Probe { exact, longer }
    }

    /// The rule with the longest input that is a prefix of `key` (or `key` itself).
    pub(crate) fn longest_prefix(&self, key: &str) -> Option<&Rule> {
        let mut ends = key.char_indices().rev().map(|(i, c)| i + c.len_utf8());
        ends.find_map(|end| {
            let prefix = &key[..end];
            self.rules
                .binary_search_by(|r| (*r.input).cmp(prefix))
                .ok()
                .map(|i| &self.rules[i])
        })
    }

    /// Keys that would type `kana` in one rule, as close as possible to `typed` (the keys
    /// that were actually typed for a longer kana): the rule whose input shares the
    /// longest prefix with `typed` wins (then the shortest input); the shared prefix keeps
    /// `typed`'s own letters (and case). `None` when no rule outputs exactly `kana`.
    ///
    /// Used when backspace removes the last kana of a unit: `kyo` → `きょ`, backspace →
    /// `き` spelt `ki`.
    pub(crate) fn spelling(&self, kana: &str, typed: &str) -> Option<String> {
        let shared = |input: &str| {
            typed
                .chars()
                .map(|c| c.to_ascii_lowercase())
                .zip(input.chars())
                .take_while(|(a, b)| a == b)
                .count()
        };
        let best = self
            .rules
            .iter()
            .filter(|r| &*r.output == kana && r.pending.is_empty())
            .min_by_key(|r| (std::cmp::Reverse(shared(&r.input)), r.input.len()))?;
        let n = shared(&best.input);
        let mut spelling: String = typed.chars().take(n).collect();
        spelling.extend(best.input.chars().skip(n));
        Some(spelling)
    }
}

/// The longest table text a user may give, in bytes (the built-in table is 4 KiB; Mozc's 6).
pub const MAX_TABLE_BYTES: usize = 256 * 1024;
/// The most rules a user's table may have.
pub const MAX_TABLE_RULES: usize = 8192;
/// The longest input and the longest output of a user's rule, in characters.
pub const MAX_RULE_CHARS: usize = 32;

/// A romaji table: how typed keys become kana ([`crate::composer::Composer::set_table`]). Its
/// text is Mozc's and Google Japanese Input's (their ローマ字テーブル, as they export it): one rule
/// a line, `input<TAB>output[<TAB>pending]`, the keys in lower case; the pending keys, a proper
/// suffix of the input, begin the next rule (`tt` `っ` `t`). Empty lines and `#` lines without
/// a tab are comments. A user's table replaces the built-in one whole (AZIK, a table without
/// `nn`, …).
///
/// ```
/// use henkan::composer::{Composer, RomajiTable};
///
/// let azik = RomajiTable::parse("ka\tか\nkz\tかん\nq\tん\n").unwrap();
/// let mut composer = Composer::new();
/// composer.set_table(azik);
/// composer.insert_str("kzkaq");
/// assert_eq!(composer.kana(), "かんかん");
/// assert!(RomajiTable::parse("ka\tか\tx\n").unwrap_err().starts_with("line 1:"));
/// ```
#[derive(Clone, Debug)]
pub struct RomajiTable(pub(crate) Arc<Table>);

impl RomajiTable {
    /// The built-in table's text, to start a table of one's own from.
    pub const BUILTIN_TEXT: &'static str = ROMAJI_TSV;

    /// The built-in table (`romaji.tsv`: Mozc's, with its additions).
    pub fn builtin() -> Self {
        RomajiTable(Arc::clone(Table::builtin()))
    }

    /// Parses a table's text; an error names its line and what is wrong (or a limit passed:
    /// [`MAX_TABLE_BYTES`], [`MAX_TABLE_RULES`], [`MAX_RULE_CHARS`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text.len() > MAX_TABLE_BYTES {
            return Err(format!(
                "the table is {} bytes, more than {MAX_TABLE_BYTES}",
                text.len()
            ));
        }
        let table = Table::parse(text)?;
        if table.len() > MAX_TABLE_RULES {
            return Err(format!(
                "{} rules, more than {MAX_TABLE_RULES}",
                table.len()
            ));
        }
        if let Some(r) = table.rules.iter().find(|r| {
            r.input.chars().count() > MAX_RULE_CHARS || r.output.chars().count() > MAX_RULE_CHARS
        }) {
            return Err(format!(
                "rule {:?}: input and output have at most {MAX_RULE_CHARS} characters",
                r.input
            ));
        }
        if table.len() == 0 {
            return Err("no rules".to_string());
        }
        Ok(RomajiTable(Arc::new(table)))
    }

    /// How many rules it has.
    pub fn rules(&self) -> usize {
        self.0.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses() {
        let table = Table::parse(ROMAJI_TSV).unwrap();
        assert!(table.rules().len() > 300);
        // every rule of the file counts: no input twice
        let lines = ROMAJI_TSV
            .lines()
            .filter(|l| !l.is_empty() && (!l.starts_with('#') || l.contains('\t')))
            .count();
        assert_eq!(table.len(), lines);
    }

    #[test]
    fn parse_rejects_malformed_lines() {
        // of two rules for one input the later counts
        let table = Table::parse("ka\tか\nki\tき\nka\tカ\n").unwrap();
        assert_eq!(table.len(), 2);
        assert_eq!(&*table.probe("ka").exact.unwrap().output, "カ");
        assert!(Table::parse("kk\tっ\tx\n").unwrap_err().contains("line 1"));
        assert!(Table::parse("kk\tっ\tkk\n").is_err());
        assert!(Table::parse("Ka\tか\n").is_err());
        assert!(Table::parse("ka\n").is_err());
        assert!(Table::parse("a\tb\tc\td\n").is_err());
    }

    #[test]
    fn a_users_table_within_limits() {
        assert_eq!(RomajiTable::parse("").unwrap_err(), "no rules");
        assert_eq!(
            RomajiTable::parse("# only a comment\n").unwrap_err(),
            "no rules"
        );
        let big = "a\tあ\n".repeat(MAX_TABLE_BYTES / 4);
        assert!(RomajiTable::parse(&big).unwrap_err().contains("bytes"));
        let many: String = (0..=MAX_TABLE_RULES)
            .map(|i| format!("k{i}\tか\n"))
            .collect();
        assert!(RomajiTable::parse(&many).unwrap_err().contains("rules"));
        let long = format!("{}\tか\n", "k".repeat(MAX_RULE_CHARS + 1));
        assert!(RomajiTable::parse(&long).unwrap_err().contains("at most"));
        assert_eq!(
            RomajiTable::parse(ROMAJI_TSV).unwrap().rules(),
            RomajiTable::builtin().rules()
        );
    }

    #[test]
    fn parse_skips_comments_but_not_the_hash_rule() {
        let table = Table::parse("# a comment\n\n#\t＃\r\n").unwrap();
        assert_eq!(table.rules().len(), 1);
        assert_eq!(&*table.probe("#").exact.unwrap().output, "＃");
    }

    #[test]
    fn probe_sees_exact_rules_and_longer_ones() {
        let table = Table::builtin();
        let n = table.probe("n");
        assert_eq!(n.exact.map(|r| &*r.output), Some("ん"));
        assert!(n.longer);
        let ky = table.probe("ky");
        assert!(ky.exact.is_none() && ky.longer);
        let kya = table.probe("kya");
        assert!(kya.exact.is_some() && !kya.longer);
        let nk = table.probe("nk");
        assert!(nk.exact.is_none() && !nk.longer);
    }

    #[test]
    fn longest_prefix_finds_the_longest_rule() {
        let table = Table::builtin();
        assert_eq!(&*table.longest_prefix("nk").unwrap().input, "n");
        assert_eq!(&*table.longest_prefix("wwa").unwrap().input, "ww");
        assert!(table.longest_prefix("ky").is_none());
    }

    #[test]
    fn spelling_follows_what_was_typed() {
        let table = Table::builtin();
        assert_eq!(table.spelling("き", "kyo").as_deref(), Some("ki"));
        assert_eq!(table.spelling("し", "sha").as_deref(), Some("shi"));
        assert_eq!(table.spelling("し", "sya").as_deref(), Some("si"));
        assert_eq!(table.spelling("ち", "Cha").as_deref(), Some("Chi"));
        assert_eq!(table.spelling("つ", "tsa").as_deref(), Some("tsu"));
        assert_eq!(table.spelling("ゐ", "x"), Some("wyi".to_string()));
        assert_eq!(table.spelling("漢", "kan"), None);
    }
}
