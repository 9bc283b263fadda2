//! Acronyms typed as the names of their letters: `えすえぬえす` → `SNS`, `ぴーしー` → `PC`,
//! `えーあい` → `AI`, as the desktop IMEs write them. Mozc's open-source dictionary holds few
//! (`CD`, `BGM`, `USBメモリ`) and spells the rest in katakana (`ピーシー`), which no one writes.
//!
//! A letter's name is its usual kana reading with a long vowel (`えー`, `けー`, `じぇー`): the
//! forms with `い` (`えい`, `けい`, `じぇい`) are left out, since runs of them are common words
//! (`けいえい` 経営, `えいえん` 永遠).

/// The letters and the kana names they are typed as.
const LETTER_NAMES: &[(char, &str)] = &[
    ('A', "えー"),
    ('B', "びー"),
    ('C', "しー"),
    ('D', "でぃー"),
    ('E', "いー"),
    ('F', "えふ"),
    ('G', "じー"),
    ('H', "えいち"),
    ('H', "えっち"),
    ('I', "あい"),
    ('J', "じぇー"),
    ('K', "けー"),
    ('L', "える"),
    ('M', "えむ"),
    ('N', "えぬ"),
    ('O', "おー"),
    ('P', "ぴー"),
    ('Q', "きゅー"),
    ('R', "あーる"),
    ('S', "えす"),
    ('T', "てぃー"),
    ('U', "ゆー"),
    ('V', "ぶい"),
    ('W', "だぶりゅー"),
    ('X', "えっくす"),
    ('Y', "わい"),
    ('Z', "ぜっと"),
];

/// The fewest letters an acronym node spells: a single letter's name is a word more often
/// (`あい` 愛, `える` 得る, `えむ`), and the dictionary has the letters alone.
pub const MIN_LETTERS: usize = 2;

/// The most letters an acronym node spells (`HDMI` is 4).
pub const MAX_LETTERS: usize = 5;

/// The longest reading of an acronym node, in characters ([`MAX_LETTERS`] of the longest names).
pub const MAX_CHARS: usize = 25;

/// Each span ending where `before` ends that reads as [`MIN_LETTERS`] to [`MAX_LETTERS`] letter
/// names, as (its length in characters, the letters), in no particular order: `えすえぬえす`
/// gives `(6, "SNS")` and `(4, "NS")`. A span that reads as letters in two ways gives the first
/// found. One letter named over and over is sound or a filler (`ぴーぴー`, `えーえー`), not an
/// acronym.
///
/// ```
/// use henkan::lattice::acronym::acronyms_ending;
/// assert_eq!(acronyms_ending("ぴーしーが"), vec![]);
/// assert_eq!(acronyms_ending("の ぴーしー"), vec![(4, "PC".to_string())]);
/// let mut found = acronyms_ending("えすえぬえす");
/// found.sort();
/// assert_eq!(found, vec![(4, "NS".to_string()), (6, "SNS".to_string())]);
/// ```
pub fn acronyms_ending(before: &str) -> Vec<(usize, String)> {
    // (every key of a composition asks: most end in no letter's name)
    if !LETTER_NAMES.iter().any(|(_, name)| before.ends_with(name)) {
        return Vec::new();
    }
    let tail: Vec<char> = before.chars().rev().take(MAX_CHARS).collect();
    let mut out = Vec::new();
    // (characters taken from the end, the letters read so far, last first)
    let mut stack: Vec<(usize, String)> = vec![(0, String::new())];
    while let Some((taken, letters)) = stack.pop() {
        if letters.len() >= MAX_LETTERS {
            continue;
        }
        for &(letter, name) in LETTER_NAMES {
            let n = name.chars().count();
            if taken + n > tail.len()
                || !name
                    .chars()
                    .rev()
                    .eq(tail[taken..taken + n].iter().copied())
            {
                continue;
            }
            let mut read = letters.clone();
            read.push(letter);
            let one_letter_over = read.chars().all(|c| c == letter);
            if read.len() >= MIN_LETTERS
                && !one_letter_over
                && out.iter().all(|&(len, _)| len != taken + n)
            {
                out.push((taken + n, read.chars().rev().collect()));
            }
            stack.push((taken + n, read));
        }
    }
    out
}

/// The letters `reading` spells as letter names, if it reads as [`MIN_LETTERS`] or more of them
/// whole (`ぴーしー` → `PC`).
pub fn letters_of(reading: &str) -> Option<String> {
    let n = reading.chars().count();
    acronyms_ending(reading)
        .into_iter()
        .find(|&(len, _)| len == n)
        .map(|(_, letters)| letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acronyms_read_whole_and_only_as_letter_names() {
        for (reading, letters) in [
            ("えすえぬえす", "SNS"),
            ("ぴーしー", "PC"),
            ("えーあい", "AI"),
            ("でぃーぶいでぃー", "DVD"),
            ("えいちでぃーえむあい", "HDMI"),
            ("えぬえいちけー", "NHK"),
            ("あいてぃー", "IT"),
            ("おーけー", "OK"),
        ] {
            assert_eq!(letters_of(reading).as_deref(), Some(letters), "{reading}");
        }
        for reading in [
            "あい",
            "けいえい",
            "えいえん",
            "ぴーしーが",
            "あいす",
            "ぴーぴー",
            "えーえー",
            "",
        ] {
            assert_eq!(letters_of(reading), None, "{reading}");
        }
        // at most MAX_LETTERS letters
        assert_eq!(
            letters_of("えーびーしーでぃーいー").as_deref(),
            Some("ABCDE")
        );
        assert_eq!(letters_of("えーびーしーでぃーいーえふ"), None);
    }
}
