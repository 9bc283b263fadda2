//! Script and width conversions: hiragana ⇄ katakana, half-width katakana, full-width ASCII.
//!
//! Every function maps what it knows and passes everything else through unchanged, so
//! none can fail or lose text.

/// Half-width forms of the katakana block U+30A1 (ァ) ..= U+30FC (ー), in code point order.
/// Voiced kana take a separate mark (ガ → ｶﾞ). Kana with no half-width form of their own
/// borrow the nearest one (ヮ → ﾜ, ヰ → ｲ, ヱ → ｴ, ヵ → ｶ, ヶ → ｹ); see [`LOSSY`].
#[rustfmt::skip]
const HALF_KATAKANA: [&str; 92] = [
    "ｧ", "ｱ", "ｨ", "ｲ", "ｩ", "ｳ", "ｪ", "ｴ", "ｫ", "ｵ", // ァアィイゥウェエォオ
    "ｶ", "ｶﾞ", "ｷ", "ｷﾞ", "ｸ", "ｸﾞ", "ｹ", "ｹﾞ", "ｺ", "ｺﾞ", // カガキギクグケゲコゴ
    "ｻ", "ｻﾞ", "ｼ", "ｼﾞ", "ｽ", "ｽﾞ", "ｾ", "ｾﾞ", "ｿ", "ｿﾞ", // サザシジスズセゼソゾ
    "ﾀ", "ﾀﾞ", "ﾁ", "ﾁﾞ", "ｯ", "ﾂ", "ﾂﾞ", "ﾃ", "ﾃﾞ", "ﾄ", "ﾄﾞ", // タダチヂッツヅテデトド
    "ﾅ", "ﾆ", "ﾇ", "ﾈ", "ﾉ", // ナニヌネノ
    "ﾊ", "ﾊﾞ", "ﾊﾟ", "ﾋ", "ﾋﾞ", "ﾋﾟ", "ﾌ", "ﾌﾞ", "ﾌﾟ", // ハバパヒビピフブプ
    "ﾍ", "ﾍﾞ", "ﾍﾟ", "ﾎ", "ﾎﾞ", "ﾎﾟ", // ヘベペホボポ
    "ﾏ", "ﾐ", "ﾑ", "ﾒ", "ﾓ", // マミムメモ
    "ｬ", "ﾔ", "ｭ", "ﾕ", "ｮ", "ﾖ", // ャヤュユョヨ
    "ﾗ", "ﾘ", "ﾙ", "ﾚ", "ﾛ", // ラリルレロ
    "ﾜ", "ﾜ", "ｲ", "ｴ", "ｦ", "ﾝ", // ヮワヰヱヲン
    "ｳﾞ", "ｶ", "ｹ", "ﾜﾞ", "ｲﾞ", "ｴﾞ", "ｦﾞ", // ヴヵヶヷヸヹヺ
    "･", "ｰ", // ・ー
];

/// The first code point of [`HALF_KATAKANA`].
const HALF_KATAKANA_FIRST: u32 = 0x30A1;

/// Katakana whose half-width form belongs to another kana; half-width text never maps
/// back to these.
const LOSSY: [char; 5] = ['ヮ', 'ヰ', 'ヱ', 'ヵ', 'ヶ'];

/// Punctuation and marks with half-width forms outside the katakana block. The first
/// entry for a half-width form is the one it maps back to.
const HALF_PUNCTUATION: [(char, char); 8] = [
    ('。', '｡'),
    ('「', '｢'),
    ('」', '｣'),
    ('、', '､'),
    ('゛', 'ﾞ'),
    ('゜', 'ﾟ'),
    ('\u{3099}', 'ﾞ'), // combining voiced mark
    ('\u{309A}', 'ﾟ'), // combining semi-voiced mark
];

/// The ideographic (full-width) space.
const FULL_SPACE: char = '\u{3000}';

/// Offset from printable ASCII (`!` ..= `~`) to its full-width form (U+FF01 ..= U+FF5E).
const FULL_ASCII_OFFSET: u32 = 0xFEE0;

/// Hiragana → katakana (`きょう` → `キョウ`); everything else unchanged.
///
/// ```
/// assert_eq!(henkan::composer::to_katakana("きょうは、ゔぁ!"), "キョウハ、ヴァ!");
/// ```
pub fn to_katakana(hiragana: &str) -> String {
    hiragana.chars().map(katakana_char).collect()
}

/// Katakana (full- or half-width) → hiragana (`キョウ`, `ｷｮｳ` → `きょう`); everything else
/// unchanged. Katakana with no hiragana (`ヷ`) stay as they are; half-width punctuation
/// becomes full-width (`｡` → `。`).
///
/// ```
/// assert_eq!(henkan::composer::to_hiragana("キョウハ ｶﾞｯｺｳ"), "きょうは がっこう");
/// ```
pub fn to_hiragana(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'ァ'..='ヶ' | 'ヽ' | 'ヾ' => out.push(shift(c, -0x60)),
            '\u{FF61}'..='\u{FF9F}' => {
                let mark = chars.peek().copied().filter(|m| matches!(m, 'ﾞ' | 'ﾟ'));
                let voiced = mark.and_then(|m| full_katakana(&[c, m]));
                if voiced.is_some() {
                    chars.next();
                }
                match voiced.or_else(|| full_katakana(&[c])) {
                    Some(k @ 'ァ'..='ヶ') => out.push(shift(k, -0x60)),
                    Some(k) => out.push(k),
                    None => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Kana → half-width katakana, voiced marks as separate `ﾞ` `ﾟ` (`がっこう` → `ｶﾞｯｺｳ`).
/// Full-width ASCII and the ideographic space become plain ASCII, and `。「」、・ー` their
/// half-width forms; everything else is unchanged.
///
/// ```
/// assert_eq!(henkan::composer::to_half_katakana("きょうは、ガッコウ１"), "ｷｮｳﾊ､ｶﾞｯｺｳ1");
/// ```
pub fn to_half_katakana(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let k = katakana_char(c);
        let index = (k as u32).wrapping_sub(HALF_KATAKANA_FIRST) as usize;
        if let Some(half) = HALF_KATAKANA.get(index) {
            out.push_str(half);
        } else if let Some(&(_, half)) = HALF_PUNCTUATION.iter().find(|(full, _)| *full == c) {
            out.push(half);
        } else {
            out.push(half_ascii_char(k));
        }
    }
    out
}

/// Printable ASCII → its full-width form (`kyou!` → `ｋｙｏｕ！`, space → U+3000);
/// everything else unchanged.
///
/// ```
/// assert_eq!(henkan::composer::to_full_ascii("Tokyo 2024!"), "Ｔｏｋｙｏ　２０２４！");
/// ```
pub fn to_full_ascii(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' ' => FULL_SPACE,
            '!'..='~' => shift(c, FULL_ASCII_OFFSET as i32),
            _ => c,
        })
        .collect()
}

/// Full-width ASCII → ASCII (`ｋｙｏｕ！` → `kyou!`, U+3000 → space); everything else
/// unchanged. The inverse of [`to_full_ascii`].
pub(crate) fn to_half_ascii(s: &str) -> String {
    s.chars().map(half_ascii_char).collect()
}

fn half_ascii_char(c: char) -> char {
    match c {
        FULL_SPACE => ' ',
        '！'..='～' => shift(c, -(FULL_ASCII_OFFSET as i32)),
        _ => c,
    }
}

fn katakana_char(c: char) -> char {
    match c {
        'ぁ'..='ゖ' | 'ゝ' | 'ゞ' => shift(c, 0x60),
        _ => c,
    }
}

/// `c` moved by `delta` code points; only called on ranges where the result is a char.
fn shift(c: char, delta: i32) -> char {
    char::from_u32((c as u32).wrapping_add_signed(delta)).unwrap_or(c)
}

/// The full-width character whose half-width form is exactly `half`.
fn full_katakana(half: &[char]) -> Option<char> {
    let is_half = |s: &str| s.chars().eq(half.iter().copied());
    let katakana = HALF_KATAKANA.iter().enumerate().find_map(|(i, s)| {
        let full = char::from_u32(HALF_KATAKANA_FIRST + i as u32)?;
        (is_half(s) && !LOSSY.contains(&full)).then_some(full)
    });
    katakana.or_else(|| match half {
        [h] => HALF_PUNCTUATION
            .iter()
            .find(|(_, s)| s == h)
            .map(|&(full, _)| full),
        _ => None,
    })
}

/// Whether `c` is in the hiragana block (U+3041–U+309F: the hiragana, their voicing marks and
/// iteration marks, `ゟ`).
///
/// ```
/// assert!(henkan::composer::is_hiragana('ぁ') && henkan::composer::is_hiragana('ゝ'));
/// assert!(!henkan::composer::is_hiragana('ー') && !henkan::composer::is_hiragana('ア'));
/// ```
pub fn is_hiragana(c: char) -> bool {
    ('\u{3041}'..='\u{309f}').contains(&c)
}

/// Whether `c` is a hiragana, a katakana, the prolonged sound mark or a kana iteration mark.
///
/// ```
/// assert!(henkan::composer::is_kana('ー') && henkan::composer::is_kana('ヴ'));
/// assert!(!henkan::composer::is_kana('漢') && !henkan::composer::is_kana('ｶ'));
/// ```
pub fn is_kana(c: char) -> bool {
    matches!(c, 'ぁ'..='ゖ' | 'ァ'..='ヺ' | 'ー' | 'ゝ' | 'ゞ' | 'ヽ' | 'ヾ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_katakana_table_lines_up_with_the_katakana_block() {
        let spot = [
            ('ァ', "ｧ"),
            ('ガ', "ｶﾞ"),
            ('ッ', "ｯ"),
            ('ド', "ﾄﾞ"),
            ('ノ', "ﾉ"),
            ('ポ', "ﾎﾟ"),
            ('モ', "ﾓ"),
            ('ョ', "ｮ"),
            ('ロ', "ﾛ"),
            ('ヲ', "ｦ"),
            ('ン', "ﾝ"),
            ('ヴ', "ｳﾞ"),
            ('ヺ', "ｦﾞ"),
            ('・', "･"),
            ('ー', "ｰ"),
        ];
        for (full, half) in spot {
            assert_eq!(to_half_katakana(&full.to_string()), half, "{full}");
        }
    }

    #[test]
    fn katakana_round_trips_through_half_width() {
        for code in 0x30A1..=0x30FC {
            let full = char::from_u32(code).unwrap();
            if LOSSY.contains(&full) {
                continue;
            }
            let half = to_half_katakana(&full.to_string());
            assert!(half.chars().all(|c| ('\u{FF61}'..='\u{FF9F}').contains(&c)));
            let back = to_hiragana(&half);
            assert_eq!(to_katakana(&back), full.to_string(), "{full} {half}");
        }
    }

    #[test]
    fn hiragana_and_katakana_convert_both_ways() {
        let hiragana = "ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのはばぱひびぴふぶぷへべぺほぼぽまみむめもゃやゅゆょよらりるれろゎわゐゑをんゔゕゖゝゞ";
        let katakana = "ァアィイゥウェエォオカガキギクグケゲコゴサザシジスズセゼソゾタダチヂッツヅテデトドナニヌネノハバパヒビピフブプヘベペホボポマミムメモャヤュユョヨラリルレロヮワヰヱヲンヴヵヶヽヾ";
        assert_eq!(to_katakana(hiragana), katakana);
        assert_eq!(to_hiragana(katakana), hiragana);
        assert_eq!(to_katakana("ー。a漢"), "ー。a漢");
        assert_eq!(to_hiragana("ヷー漢"), "ヷー漢");
    }

    #[test]
    fn half_width_marks_and_punctuation() {
        assert_eq!(to_half_katakana("「ぱ」。、゛゜"), "｢ﾊﾟ｣｡､ﾞﾟ");
        assert_eq!(to_half_katakana("か\u{3099}"), "ｶﾞ");
        assert_eq!(to_half_katakana("ゎゐゑヵヶ"), "ﾜｲｴｶｹ");
        assert_eq!(to_hiragana("｢ﾊﾟ｣｡､ﾞﾟ"), "「ぱ」。、゛゜");
        assert_eq!(to_hiragana("ｱﾞ"), "あ゛");
        assert_eq!(to_hiragana("ｳﾞﾜﾞ"), "ゔヷ");
    }

    #[test]
    fn ascii_width() {
        assert_eq!(to_full_ascii(" !~aZ09"), "\u{3000}！～ａＺ０９");
        assert_eq!(to_half_ascii("\u{3000}！～ａＺ０９"), " !~aZ09");
        assert_eq!(to_full_ascii("きゃ\t"), "きゃ\t");
        assert_eq!(to_half_katakana("ＡＢ　"), "AB ");
    }
}
