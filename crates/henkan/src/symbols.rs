//! Symbols by reading: `やじるし` offers `→`, `ほし` `★`, `から` `〜`, as Mozc's symbol rewriter
//! adds them to a segment's candidates. The table (`symbols.tsv`) is built into the binary.

use std::collections::HashMap;
use std::sync::OnceLock;

const TABLE: &str = include_str!("symbols.tsv");

fn table() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static MAP: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    MAP.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .map(|(reading, symbols)| (reading, symbols.split(' ').collect()))
            .collect()
    })
}

/// The symbols read as `reading` (the whole reading of a segment), most common first; empty
/// for any other reading.
///
/// ```
/// assert_eq!(henkan::symbols::for_reading("やじるし")[0], "→");
/// assert!(henkan::symbols::for_reading("から").contains(&"〜"));
/// assert!(henkan::symbols::for_reading("きょう").is_empty());
/// ```
pub fn for_reading(reading: &str) -> &'static [&'static str] {
    table().get(reading).map_or(&[], Vec::as_slice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_hiragana_reading_and_distinct_symbols() {
        let mut readings = std::collections::HashSet::new();
        for line in TABLE
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (reading, symbols) = line.split_once('\t').expect("reading<TAB>symbols");
            assert!(
                reading
                    .chars()
                    .all(|c| ('ぁ'..='ゖ').contains(&c) || c == 'ー'),
                "{line}"
            );
            assert!(readings.insert(reading), "{reading} twice");
            let list: Vec<&str> = symbols.split(' ').collect();
            assert!(list.iter().all(|s| !s.is_empty()), "{line}");
            let distinct: std::collections::HashSet<_> = list.iter().collect();
            assert_eq!(distinct.len(), list.len(), "{line}");
            assert_eq!(for_reading(reading), list.as_slice());
        }
        assert!(readings.len() > 50);
    }
}
