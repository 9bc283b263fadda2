//! The romaji table: rules of (*input*, *output*, *pending*), read from `romaji.tsv`.
//!
//! Rules are kept sorted by input, so every rule that extends a key sits right after the
//! key in the list: one binary search answers both "is this key a rule?" and "can more
//! keys still extend it?". No hashing, no allocation per lookup.

use std::sync::OnceLock;

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
    pub(crate) fn builtin() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The built-in table is checked by the unit tests; a failure here is a bug.
            Table::parse(ROMAJI_TSV).expect("the built-in romaji table is valid")
        })
    }

    /// Parses `input<TAB>output[<TAB>pending]` lines. Empty lines and lines that start
    /// with `#` and hold no tab are comments. Errors name the 1-based line.
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
        rules.sort_by(|a, b| a.input.cmp(&b.input));
        if let Some(pair) = rules.windows(2).find(|w| w[0].input == w[1].input) {
            return Err(format!("duplicate input {:?}", pair[0].input));
        }
        Ok(Table { rules })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_table_parses() {
        let table = Table::parse(ROMAJI_TSV).unwrap();
        assert!(table.rules().len() > 300);
    }

    #[test]
    fn parse_rejects_malformed_lines() {
        assert!(Table::parse("ka\tか\nka\tカ\n")
            .unwrap_err()
            .contains("duplicate"));
        assert!(Table::parse("kk\tっ\tx\n").unwrap_err().contains("line 1"));
        assert!(Table::parse("kk\tっ\tkk\n").is_err());
        assert!(Table::parse("Ka\tか\n").is_err());
        assert!(Table::parse("ka\n").is_err());
        assert!(Table::parse("a\tb\tc\td\n").is_err());
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
