//! Numbers read in kana: `にせんさんびゃくご` → 2305.
//!
//! The dictionary has kanji numerals (二, 千, …) word by word; a number typed as its
//! reading should also be offered as Arabic digits in one piece. [`parse`] reads the
//! Japanese number grammar: digits いち…きゅう, multipliers じゅう/ひゃく/せん below 10⁴,
//! and the large units まん (10⁴), おく (10⁸), ちょう (10¹²), with the sound changes
//! (さんびゃく, ろっぴゃく, さんぜん, いっせん, …). The geminated forms いっ/ろっ/はっ/じゅっ
//! stand before a multiplier or at the very end (before a counter: いっかい → 1回), and so
//! do the short forms よ (4: にじゅうよねん) and く (9: じゅうくじ), and よっ ends a number before
//! the day counter か (じゅうよっか → 14日; a lone よっ is left to the dictionary's 四日, ４日).

const TOKENS: &[(&str, Tok)] = &[
    ("いち", Tok::Digit(1)),
    ("いっ", Tok::Gem(1)),
    ("に", Tok::Digit(2)),
    ("さん", Tok::Digit(3)),
    ("よん", Tok::Digit(4)),
    ("よっ", Tok::Gem(4)),
    ("よ", Tok::Gem(4)),
    ("ご", Tok::Digit(5)),
    ("ろく", Tok::Digit(6)),
    ("ろっ", Tok::Gem(6)),
    ("なな", Tok::Digit(7)),
    ("しち", Tok::Digit(7)),
    ("はち", Tok::Digit(8)),
    ("はっ", Tok::Gem(8)),
    ("きゅう", Tok::Digit(9)),
    ("く", Tok::Gem(9)),
    ("ぜろ", Tok::Digit(0)),
    ("れい", Tok::Digit(0)),
    ("じゅう", Tok::Mult(10)),
    ("じゅっ", Tok::GemMult(10)),
    ("じっ", Tok::GemMult(10)),
    ("ひゃく", Tok::Mult(100)),
    ("びゃく", Tok::Mult(100)),
    ("ぴゃく", Tok::Mult(100)),
    ("ひゃっ", Tok::GemMult(100)),
    ("びゃっ", Tok::GemMult(100)),
    ("ぴゃっ", Tok::GemMult(100)),
    ("せん", Tok::Mult(1000)),
    ("ぜん", Tok::Mult(1000)),
    ("まん", Tok::Big(10_000)),
    ("おく", Tok::Big(100_000_000)),
    ("ちょう", Tok::Big(1_000_000_000_000)),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Digit(u64),
    Gem(u64),
    Mult(u64),
    GemMult(u64),
    Big(u64),
}

/// The day of a reading that is a number ending in よっ followed by the day counter か
/// (じゅうよっか, にじゅうよっか: the 14th, the 24th), written as one word `N日`: the counter
/// alone (か) would also read as the question particle. A lone よっか is the dictionary's (四日,
/// ４日). So are the other days read in native numerals, except はつか, which the dictionary
/// writes only in kanji (二十日): here it is the 20th, so that a date is written alike on every
/// day (`4月20日` as `4月10日`). For なのか (七日) see [`day_after`].
///
/// ```
/// use henkan::lattice::number::day;
/// assert_eq!(day("にじゅうよっか"), Some(24));
/// assert_eq!(day("じゅうよっか"), Some(14));
/// assert_eq!(day("はつか"), Some(20));
/// assert_eq!(day("なのか"), None);
/// assert_eq!(day("よっか"), None);
/// assert_eq!(day("にじゅうよん"), None);
/// ```
pub fn day(reading: &str) -> Option<u64> {
    if reading == "はつか" {
        return Some(20);
    }
    let number = reading.strip_suffix('か')?;
    if !number.ends_with("よっ") {
        return None;
    }
    parse(number)
}

/// The day of `reading` read after `before` (the reading before it): [`day`], and なのか, which
/// the dictionary writes only in kanji (七日), as the 7th after a month (`じゅうにがつなのか` →
/// `12月7日`). Elsewhere なのか is far more often `な` `の` `か` (`ほんとうなのか`).
///
/// ```
/// use henkan::lattice::number::day_after;
/// assert_eq!(day_after("じゅうにがつ", "なのか"), Some(7));
/// assert_eq!(day_after("ほんとう", "なのか"), None);
/// assert_eq!(day_after("", "はつか"), Some(20));
/// ```
pub fn day_after(before: &str, reading: &str) -> Option<u64> {
    if reading == "なのか" && before.ends_with("がつ") {
        return Some(7);
    }
    day(reading)
}

/// The number of days of a reading that is a day read in native numerals followed by 間 (`かん`),
/// a span of days written `N日間`, where the dictionary has no such word with digits: the days of
/// [`day`] (じゅうよっかかん, にじゅうよっかかん, はつかかん: the 14, 24 and 20 days) and
/// とおかかん and ようかかん (10 and 8 days; the dictionary writes only 十日間 as とうかかん and
/// 八日間 in kanji). Without it the day and its 間 are two words, and a counter or a noun read
/// かん follows the day as often (`14日巻`, `8日官`). The other days' spans are the dictionary's
/// (`みっかかん` 3日間).
///
/// ```
/// use henkan::lattice::number::days;
/// assert_eq!(days("じゅうよっかかん"), Some(14));
/// assert_eq!(days("にじゅうよっかかん"), Some(24));
/// assert_eq!(days("はつかかん"), Some(20));
/// assert_eq!(days("とおかかん"), Some(10));
/// assert_eq!(days("ようかかん"), Some(8));
/// assert_eq!(days("みっかかん"), None);
/// assert_eq!(days("よっかかん"), None);
/// assert_eq!(days("じゅうよっか"), None);
/// ```
pub fn days(reading: &str) -> Option<u64> {
    match reading.strip_suffix("かん")? {
        "とおか" => Some(10),
        "ようか" => Some(8),
        day_reading => day(day_reading),
    }
}

/// A day of the month ([`day_after`]) or a span of days ([`days`]) read after `before`, with the
/// unit it is written with: `(24, "日")`, `(14, "日間")`. What the lattice's number nodes and the
/// segment's number styles write after the digits.
///
/// ```
/// use henkan::lattice::number::day_or_days;
/// assert_eq!(day_or_days("", "にじゅうよっか"), Some((24, "日")));
/// assert_eq!(day_or_days("", "じゅうよっかかん"), Some((14, "日間")));
/// assert_eq!(day_or_days("ほんとう", "なのか"), None);
/// ```
pub fn day_or_days(before: &str, reading: &str) -> Option<(u64, &'static str)> {
    day_after(before, reading)
        .map(|v| (v, "日"))
        .or_else(|| days(reading).map(|v| (v, "日間")))
}

/// Counters read after the one-kana digits `よ` (4) and `く` (9) and after `しち` (7), with their
/// spelling, and whether `く` takes them too: the gold-annotated KWDLC and WAC training text reads
/// 4 as `よ` before 年, 人, 時, 時間, 年間, 年生 and 9 as `く` before 時 and 年 (`くがつ` is the
/// dictionary's 9月). Longest reading first: [`counted_twin`] takes the first that begins the
/// word (`四時間後` is 時間 and 後, not 時 and 間後).
const ONE_KANA_COUNTERS: &[(&str, &str, bool)] = &[
    ("ねんかん", "年間", true),
    ("ねんせい", "年生", false),
    ("じかん", "時間", true),
    ("にん", "人", false),
    ("ねん", "年", true),
    ("えん", "円", false),
    ("じ", "時", true),
];

/// What may follow the counter inside one dictionary word that [`counted_twin`] writes with a digit
/// (`九時過ぎ`, `四時半`, `四人目`, `四年生時`): the endings of a time or a count. Mozc's
/// dictionary also has proper nouns of the same shape (`九年庵`, `四人囃子`), which keep their
/// kanji.
const COUNTED_TAILS: &[&str] = &[
    "以上", "以内", "以降", "過ぎ", "すぎ", "ごろ", "ごと", "ぶり", "半", "頃", "前", "後", "目",
    "め", "台", "分", "毎", "弱", "強", "中", "用", "制", "組", "衆", "時", "限", "位", "戦", "側",
    "先", "程",
];

/// Counters with their readings after a number read as written (`じゅうじ` 十時, `いっぱく` 一泊,
/// `さんびゃくえん` 三百円): those text writes after digits, each reading it takes after some
/// number. Longest reading first. `ぶん` is not among `分`'s: `じゅうぶん` is 十分 (enough).
const COUNTER_READINGS: &[(&str, &str)] = &[
    ("しゅうねん", "周年"),
    ("ねんかん", "年間"),
    ("ねんせい", "年生"),
    ("ちょうめ", "丁目"),
    ("じかん", "時間"),
    ("かげつ", "ヶ月"),
    ("かげつ", "か月"),
    ("かげつ", "カ月"),
    ("せいき", "世紀"),
    ("びょう", "秒"),
    ("しゅう", "週"),
    ("きょく", "曲"),
    ("にち", "日"),
    ("がつ", "月"),
    ("ねん", "年"),
    ("にん", "人"),
    ("めい", "名"),
    ("えん", "円"),
    ("かい", "回"),
    ("かい", "階"),
    ("がい", "階"),
    ("さい", "歳"),
    ("さい", "才"),
    ("ふん", "分"),
    ("ぷん", "分"),
    ("ばん", "番"),
    ("まい", "枚"),
    ("だい", "台"),
    ("さつ", "冊"),
    ("けん", "件"),
    ("けん", "軒"),
    ("はく", "泊"),
    ("ぱく", "泊"),
    ("ほん", "本"),
    ("ぼん", "本"),
    ("ぽん", "本"),
    ("はい", "杯"),
    ("ばい", "杯"),
    ("ぱい", "杯"),
    ("ひき", "匹"),
    ("びき", "匹"),
    ("ぴき", "匹"),
    ("てん", "点"),
    ("ごう", "号"),
    ("かん", "巻"),
    ("しゃ", "社"),
    ("こう", "校"),
    ("だん", "段"),
    ("れつ", "列"),
    ("しつ", "室"),
    ("せき", "席"),
    ("ひょう", "票"),
    ("もん", "問"),
    ("ばい", "倍"),
    ("わり", "割"),
    ("じ", "時"),
    ("こ", "個"),
    ("ど", "度"),
    ("い", "位"),
    ("わ", "話"),
    ("く", "区"),
];

/// The readings of a counter as text reads it after a number, in the order of
/// `COUNTER_READINGS`: `日` にち, `分` ふん then ぷん.
///
/// ```
/// use henkan::lattice::number::counter_readings;
/// assert_eq!(counter_readings("日").collect::<Vec<_>>(), ["にち"]);
/// assert_eq!(counter_readings("分").collect::<Vec<_>>(), ["ふん", "ぷん"]);
/// assert_eq!(counter_readings("猫").count(), 0);
/// ```
pub fn counter_readings(spelling: &str) -> impl Iterator<Item = &'static str> + '_ {
    COUNTER_READINGS
        .iter()
        .filter(move |(_, s)| *s == spelling)
        .map(|(r, _)| *r)
}

/// The digit twin's spelling of a dictionary word that is a kanji numeral and its counter, with
/// ASCII digits: `よにん` `四人` → `4人`, `くじすぎ` `九時過ぎ` → `9時過ぎ`, `じゅうじ` `十時` →
/// `10時`. The lattice gives the word a twin written with digits ([`twin_parts`] says which
/// words).
///
/// ```
/// use henkan::lattice::number::counted_twin;
/// assert_eq!(counted_twin("よにん", "四人").as_deref(), Some("4人"));
/// assert_eq!(counted_twin("くじかん", "九時間").as_deref(), Some("9時間"));
/// assert_eq!(counted_twin("よじはん", "四時半").as_deref(), Some("4時半"));
/// assert_eq!(counted_twin("くじすぎ", "九時過ぎ").as_deref(), Some("9時過ぎ"));
/// assert_eq!(counted_twin("しちじはん", "七時半").as_deref(), Some("7時半"));
/// assert_eq!(counted_twin("しちにん", "七人").as_deref(), Some("7人"));
/// assert_eq!(counted_twin("じゅうじ", "十時").as_deref(), Some("10時"));
/// assert_eq!(counted_twin("にじゅうにん", "二十人").as_deref(), Some("20人"));
/// assert_eq!(counted_twin("いっぱく", "一泊").as_deref(), Some("1泊"));
/// assert_eq!(counted_twin("しちふくじん", "七福神"), None);
/// assert_eq!(counted_twin("くねんあん", "九年庵"), None); // a place
/// assert_eq!(counted_twin("くにん", "九人"), None); // 9人 is きゅうにん
/// assert_eq!(counted_twin("じゅうぶん", "十分"), None); // enough; 10分 is じゅっぷん
/// assert_eq!(counted_twin("ひとり", "一人"), None);
/// assert_eq!(counted_twin("いちじてき", "一時的"), None);
/// assert_eq!(counted_twin("よ", "四"), None);
/// assert_eq!(counted_twin("よねん", "余念"), None);
/// ```
pub fn counted_twin(reading: &str, surface: &str) -> Option<String> {
    let parts = twin_parts(reading, surface)?;
    Some(format!(
        "{}{}{}",
        written(parts.value),
        parts.counter.1,
        parts.tail.1
    ))
}

/// A dictionary word that [`counted_twin`] writes with digits, cut as text writes it: the
/// number, its counter and what follows the counter, each with its reading. The language model
/// reads `4人` as a number word and `人`, `4時半` as a number word and `時半`
/// (`NeuralDecoder::node_words`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwinParts<'a> {
    /// The number.
    pub value: u64,
    /// The counter's reading and spelling (`にん`, `人`).
    pub counter: (&'a str, &'a str),
    /// What follows the counter, its reading and spelling (`はん`, `半`; empty when nothing
    /// does).
    pub tail: (&'a str, &'a str),
}

/// The parts of a word that [`counted_twin`] writes with digits, or `None` for any other word.
/// Two kinds of word have a twin:
/// - a kanji numeral read with a one-kana digit (`よ` 4, `く` 9) or `しち` (7) before a counter of
///   `ONE_KANA_COUNTERS`: [`parse`] leaves such readings to the dictionary, which has `四人`,
///   `九時` but no digit for `よ` and `く`; `よ`, `く` alone are far more often the particle or a
///   verb's ending (`書くよ`) than a number, so the digit comes only with its counter. `しち`
///   takes every counter: [`parse`] reads it, but the dictionary has its compounds as one word
///   (`七時半`, `七人`, no `7時半`);
/// - kanji numerals read as written ([`parse`], or one number word, [`single_word`]) before a
///   counter of `COUNTER_READINGS` read as that counter (`十時` じゅうじ, `一泊` いっぱく;
///   not `十分` じゅうぶん, `一人` ひとり). Such a word costs one word where the number and its
///   counter cost two (`さんがい` → `3外` otherwise).
///
/// Either may go on after the counter with the ending of a time or a count
/// (`COUNTED_TAILS`: `九時過ぎ`, `四時半`), but not with anything else (`九年庵`, `一時的`).
///
/// ```
/// use henkan::lattice::number::twin_parts;
/// let p = twin_parts("よじはん", "四時半").unwrap();
/// assert_eq!((p.value, p.counter, p.tail), (4, ("じ", "時"), ("はん", "半")));
/// let p = twin_parts("しちにん", "七人").unwrap();
/// assert_eq!((p.value, p.counter, p.tail), (7, ("にん", "人"), ("", "")));
/// let p = twin_parts("にじゅうよねんまえ", "二十四年前").unwrap();
/// assert_eq!((p.value, p.counter, p.tail), (24, ("ねん", "年"), ("まえ", "前")));
/// assert_eq!(twin_parts("よねん", "余念"), None);
/// ```
pub fn twin_parts<'a>(reading: &'a str, surface: &'a str) -> Option<TwinParts<'a>> {
    one_kana_parts(reading, surface).or_else(|| read_as_written(reading, surface))
}

fn one_kana_parts<'a>(reading: &'a str, surface: &'a str) -> Option<TwinParts<'a>> {
    let (value, numeral, rest) = if let Some(rest) = reading.strip_prefix("しち") {
        (7, '七', rest)
    } else if let Some(rest) = reading.strip_prefix('よ') {
        (4, '四', rest)
    } else {
        (9, '九', reading.strip_prefix('く')?)
    };
    let written = surface.strip_prefix(numeral)?;
    let &(counter_reading, counter, _) = ONE_KANA_COUNTERS.iter().find(|(r, spelled, nine)| {
        (value != 9 || *nine) && rest.starts_with(r) && written.starts_with(spelled)
    })?;
    counted(value, (rest, written), (counter_reading, counter))
}

/// The parts of a word of kanji numerals read as written before a counter ([`twin_parts`]).
fn read_as_written<'a>(reading: &'a str, surface: &'a str) -> Option<TwinParts<'a>> {
    let run: usize = surface
        .chars()
        .take_while(|&c| is_kanji_numeral(c))
        .map(char::len_utf8)
        .sum();
    if run == 0 {
        return None;
    }
    let (numerals, written) = surface.split_at(run);
    let value = kanji_value(numerals)?;
    reading.char_indices().skip(1).find_map(|(at, _)| {
        let (number, rest) = reading.split_at(at);
        if parse(number).or_else(|| single_word(number)) != Some(value) {
            return None;
        }
        let &counter = COUNTER_READINGS
            .iter()
            .find(|(r, spelled)| rest.starts_with(r) && written.starts_with(spelled))?;
        counted(value, (rest, written), counter)
    })
}

/// The parts of a count of `value` whose reading and spelling after the number are `rest`,
/// beginning with `counter`: `None` unless what follows the counter is [`COUNTED_TAILS`].
fn counted<'a>(
    value: u64,
    (rest, written): (&'a str, &'a str),
    (counter_reading, counter): (&'a str, &'a str),
) -> Option<TwinParts<'a>> {
    let tail = &written[counter.len()..];
    let mut left = tail;
    while !left.is_empty() {
        left = COUNTED_TAILS.iter().find_map(|t| left.strip_prefix(t))?;
    }
    Some(TwinParts {
        value,
        counter: (counter_reading, counter),
        tail: (&rest[counter_reading.len()..], tail),
    })
}

/// Whether `reading` begins with a number word ([`parse`]'s): where a dictionary word may be a
/// count with a digit twin ([`counted_twin`]).
pub fn may_begin_number(reading: &str) -> bool {
    TOKENS.iter().any(|(s, _)| reading.starts_with(s))
}

/// The value of a reading that is one number word on its own: a digit (いち … きゅう, ぜろ,
/// れい) or one of じゅう, ひゃく, せん, or `None`. Converted alone, such a word is offered in
/// kanji first ([`lone_number_order`]).
///
/// ```
/// use henkan::lattice::number::single_word;
/// assert_eq!(single_word("いち"), Some(1));
/// assert_eq!(single_word("ひゃく"), Some(100));
/// assert_eq!(single_word("にじゅう"), None);
/// assert_eq!(single_word("いっ"), None);
/// assert_eq!(single_word("びゃく"), None);
/// ```
pub fn single_word(reading: &str) -> Option<u64> {
    match TOKENS.iter().find(|(s, _)| *s == reading)?.1 {
        Tok::Digit(d) => Some(d),
        Tok::Mult(m) if matches!(reading, "じゅう" | "ひゃく" | "せん") => Some(m),
        _ => None,
    }
}

/// Reorders the candidates of a single number word converted alone (`reading` as
/// [`single_word`] takes it) when digits come first: the kanji numeral first and the digit
/// forms right after it, then the rest in their order (いち: 1, 一, 市, 位置 → 一, 1, 市, 位置),
/// as the desktop IMEs offer a lone number word: digits are what a number before a counter
/// or inside a longer number is written in (`さんにん` → 3人), not a word typed alone. Without
/// the kanji numeral among the candidates the digits go after the first other candidate.
/// Returns whether the order changed.
///
/// ```
/// use henkan::lattice::number::lone_number_order;
/// let mut c: Vec<String> = ["1", "１", "一", "市", "位置"].map(String::from).to_vec();
/// assert!(lone_number_order("いち", &mut c));
/// assert_eq!(c, ["一", "1", "１", "市", "位置"]);
/// let mut c: Vec<String> = ["位置", "1", "一"].map(String::from).to_vec();
/// assert!(!lone_number_order("いち", &mut c)); // a word first: left as it is
/// ```
pub fn lone_number_order(reading: &str, candidates: &mut Vec<String>) -> bool {
    let Some(v) = single_word(reading) else {
        return false;
    };
    let is_digits = |c: &str| {
        c.chars()
            .any(|ch| ch.is_ascii_digit() || ('０'..='９').contains(&ch))
    };
    if !candidates.first().is_some_and(|c| is_digits(c)) {
        return false;
    }
    let (digits, mut rest): (Vec<String>, Vec<String>) =
        candidates.drain(..).partition(|c| is_digits(c));
    let kanji = kanji_written(v);
    let at = match rest.iter().position(|c| *c == kanji) {
        Some(k) => {
            let c = rest.remove(k);
            rest.insert(0, c);
            1
        }
        None => 1.min(rest.len()),
    };
    rest.splice(at..at, digits);
    *candidates = rest;
    true
}

/// The value of a kana number reading made of at least two number words, or of one
/// geminated form (いっ, ろっ, はっ, じゅっ, じっ) or one of じゅう, ひゃく, せん (the dictionary
/// has digits for the single digits only), or `None`.
///
/// ```
/// use henkan::lattice::number::parse;
/// assert_eq!(parse("にせんさんびゃくご"), Some(2305));
/// assert_eq!(parse("じゅうはち"), Some(18));
/// assert_eq!(parse("ろっぴゃく"), Some(600));
/// assert_eq!(parse("に"), None); // one word: left to the dictionary
/// assert_eq!(parse("いっ"), Some(1)); // …but it has no digit for いっ (いっぽん → 1本)
/// assert_eq!(parse("ひゃく"), Some(100)); // nor for ひゃく (ひゃくけん → 100件)
/// assert_eq!(parse("にさん"), None); // two digits in a row is not a number
/// ```
pub fn parse(reading: &str) -> Option<u64> {
    let mut rest = reading;
    let mut toks = Vec::new();
    let mut spelled = Vec::new();
    while !rest.is_empty() {
        let (s, t) = TOKENS.iter().find(|(s, _)| rest.starts_with(s))?;
        toks.push(*t);
        spelled.push(*s);
        rest = &rest[s.len()..];
        if toks.len() > 24 {
            return None;
        }
    }
    if toks.len() < 2 {
        // a lone geminated form (いっ, ろっ, はっ, じゅっ, じっ, ひゃっ) is the number before a counter
        // (いっぽん → 1本, じゅっかい → 10回), and so is a lone じゅう, ひゃく, せん (じゅうえん →
        // 10円): the dictionary has digits for the single digits only
        return match (toks.first(), spelled.first()) {
            (Some(Tok::Gem(d)), Some(s)) if s.ends_with('っ') && *s != "よっ" => Some(*d),
            (Some(Tok::GemMult(m)), Some(&("じゅっ" | "じっ" | "ひゃっ"))) => Some(*m),
            (Some(Tok::Mult(m)), Some(&("じゅう" | "ひゃく" | "せん"))) => Some(*m),
            _ => None,
        };
    }
    // せん with its 1 left out and then a lone digit (せんご 1005, せんに 1002) is almost always a
    // word (戦後, 戦に); にせんご (2005) and せんきゅうひゃく (1900) stay numbers
    if toks.len() == 2 && spelled[0] == "せん" && matches!(toks[1], Tok::Digit(_)) {
        return None;
    }
    // に and then 億 or 兆 alone (におく, にちょう) is the particle before 置く, ちょうど far more
    // often (KWDLC/WAC: 20 and 21 times) than 2億 (once) or 2兆 (never); the dictionary's ２ and 億
    // still write them
    if toks.len() == 2 && spelled[0] == "に" && matches!(spelled[1], "おく" | "ちょう") {
        return None;
    }
    // a large unit and then a lone digit (きゅうせんまんに: 9000万2) is the unit and a particle
    // (9000万に) far more often than a number
    if toks.len() >= 3
        && matches!(toks[toks.len() - 2], Tok::Big(_))
        && matches!(toks[toks.len() - 1], Tok::Digit(_))
    {
        return None;
    }
    for (i, s) in spelled.iter().enumerate() {
        let prev = if i > 0 { Some(toks[i - 1]) } else { None };
        let last = i + 1 == toks.len();
        match *s {
            // Sound-changed multipliers follow only the digits that cause them:
            // さんびゃく, さんぜん; ろっぴゃく, はっぴゃく (and いっぴゃく).
            "びゃく" | "びゃっ" | "ぜん" if prev != Some(Tok::Digit(3)) => return None,
            "ぴゃく" | "ぴゃっ" if !matches!(prev, Some(Tok::Gem(1 | 6 | 8))) => return None,
            // よっ, よ and く only end a number (じゅうよっか → 14日, にじゅうよねん, じゅうくじ):
            // 4000 and 9000 are よんせん, きゅうせん, never よせん, くせん
            "よっ" | "よ" | "く" if !last => return None,
            _ => {}
        }
    }
    value(&toks)
}

/// The digit word (`いち`…`きゅう`, `ぜろ`, `れい`) `rest` starts with, and its value.
fn digit_word(rest: &str) -> Option<(&'static str, u64)> {
    TOKENS.iter().find_map(|&(s, t)| match t {
        Tok::Digit(d) if rest.starts_with(s) => Some((s, d)),
        _ => None,
    })
}

/// Most fraction digits a decimal may have.
const MAX_FRACTION_DIGITS: usize = 12;

/// A decimal number read in kana, written with ASCII digits and a point: a number (as
/// [`parse`] reads it, or one digit word) then `てん` then digit words read one by one
/// (`にてんごなな` → `2.57`, `れいてんご` → `0.5`, `じゅうにてんさん` → `12.3`); `None` for
/// anything else. A lone `に` after `てん` is the particle (`さんてんに` is `３点に`, not 3.2), and
/// a geminated number before `てん` is a count of points (`いってん` 一点, `じゅってん` 十点).
///
/// ```
/// use henkan::lattice::number::decimal;
/// assert_eq!(decimal("にてんごなな").as_deref(), Some("2.57"));
/// assert_eq!(decimal("さんてんいちよん").as_deref(), Some("3.14"));
/// assert_eq!(decimal("じゅうにてんさん").as_deref(), Some("12.3"));
/// assert_eq!(decimal("さんてんに"), None);
/// assert_eq!(decimal("にてん"), None); // 二点: no digits after the point
/// assert_eq!(decimal("いってんご"), None); // 一点後
/// ```
pub fn decimal(reading: &str) -> Option<String> {
    let (whole, fraction) = reading.split_once("てん")?;
    if whole.ends_with('っ') {
        return None; // いってん, じゅってん are 一点, 十点: a decimal point follows the full form
    }
    let whole = match parse(whole) {
        Some(v) => v,
        None => digit_word(whole).filter(|(s, _)| *s == whole)?.1,
    };
    if fraction == "に" {
        return None;
    }
    let mut out = format!("{whole}.");
    let mut rest = fraction;
    let mut n = 0;
    while !rest.is_empty() {
        let (s, d) = digit_word(rest)?;
        out.push_str(&d.to_string());
        rest = &rest[s.len()..];
        n += 1;
        if n > MAX_FRACTION_DIGITS {
            return None;
        }
    }
    (n > 0).then_some(out)
}

/// The value of a sequence of number words (digits, multipliers within a section of four
/// digits, large units between sections), or `None` where they do not make a number: two
/// digits in a row, multipliers out of order, a geminated digit before anything but a
/// multiplier, a geminated multiplier before anything.
fn value(toks: &[Tok]) -> Option<u64> {
    let mut total: u64 = 0;
    let mut section: u64 = 0;
    let mut digit: Option<u64> = None;
    let mut last_mult = u64::MAX; // multipliers fall within a section
    let mut last_big = u64::MAX;
    for (i, t) in toks.iter().enumerate() {
        let next = toks.get(i + 1);
        match *t {
            Tok::Digit(d) | Tok::Gem(d) => {
                if digit.is_some() {
                    return None;
                }
                if matches!(t, Tok::Gem(_))
                    && !matches!(next, None | Some(Tok::Mult(_) | Tok::GemMult(_)))
                {
                    return None;
                }
                digit = Some(d);
            }
            Tok::Mult(m) | Tok::GemMult(m) => {
                if m >= last_mult {
                    return None;
                }
                if matches!(t, Tok::GemMult(_)) && next.is_some() {
                    return None;
                }
                let d = digit.take().unwrap_or(1);
                if d == 0 {
                    return None;
                }
                section += d * m;
                last_mult = m;
            }
            Tok::Big(b) => {
                if b >= last_big {
                    return None;
                }
                let v = section + digit.take().unwrap_or(0);
                if v == 0 {
                    return None;
                }
                total = total.checked_add(v.checked_mul(b)?)?;
                section = 0;
                last_mult = u64::MAX;
                last_big = b;
            }
        }
    }
    Some(total + section + digit.unwrap_or(0))
}

/// How a number is written in converted text (ASCII digits; the lattice applies the digit
/// width): digits up to 9999, and above that groups of four digits with their unit 万, 億,
/// 兆, zero groups left out, as newspapers and most web text write them (`25000` → `2万5000`,
/// `3000000` → `300万`, `120000000` → `1億2000万`).
///
/// ```
/// use henkan::lattice::number::written;
/// assert_eq!(written(2305), "2305");
/// assert_eq!(written(10_000), "1万");
/// assert_eq!(written(25_000), "2万5000");
/// assert_eq!(written(120_000_000), "1億2000万");
/// assert_eq!(written(3_000_000_000_001), "3兆1");
/// ```
pub fn written(v: u64) -> String {
    if v < 10_000 {
        return v.to_string();
    }
    with_units(v, |group| group.to_string())
}

/// `v` in groups of four digits, each non-zero group written by `group` and followed by its
/// unit 京, 兆, 億, 万 (none for the last).
fn with_units(v: u64, group: impl Fn(u64) -> String) -> String {
    with_unit_names(v, ["京", "兆", "億", "万"], |g, _| group(g))
}

/// `v` in groups of four digits, each non-zero group written by `group` (given the group and
/// the name of its unit) and followed by that unit's name of `names` (10¹⁶, 10¹², 10⁸, 10⁴;
/// none for the last).
fn with_unit_names(v: u64, names: [&str; 4], group: impl Fn(u64, &str) -> String) -> String {
    let mut out = String::new();
    let mut rest = v;
    let sizes = [
        10_000_000_000_000_000u64,
        1_000_000_000_000,
        100_000_000,
        10_000,
        1,
    ];
    for (unit, size) in names.into_iter().chain([""]).zip(sizes) {
        let g = rest / size;
        if g > 0 {
            out.push_str(&group(g, unit));
            out.push_str(unit);
        }
        rest %= size;
    }
    out
}

/// Full-width Arabic digits of a value (`18` → `１８`).
pub fn full_width_digits(v: u64) -> String {
    v.to_string()
        .chars()
        .map(|c| char::from_u32(c as u32 - '0' as u32 + '０' as u32).unwrap_or(c))
        .collect()
}

/// A number in kanji numerals with their units, as formal text writes it (`1234` →
/// `千二百三十四`, `20005` → `二万五`, `0` → `〇`).
///
/// ```
/// use henkan::lattice::number::kanji_written;
/// assert_eq!(kanji_written(1234), "千二百三十四");
/// assert_eq!(kanji_written(10), "十");
/// assert_eq!(kanji_written(120_000_000), "一億二千万");
/// assert_eq!(kanji_written(0), "〇");
/// ```
pub fn kanji_written(v: u64) -> String {
    if v == 0 {
        return "〇".to_string();
    }
    // a group below 10⁴: 千, 百, 十 with their digit (a 1 left out: 千万, 百十), then the ones
    // (a group of 1 is 一: 一万, 一億)
    let section = |mut n: u64| {
        let mut out = String::new();
        for (unit, size) in [("千", 1000), ("百", 100), ("十", 10)] {
            let d = n / size;
            if d > 1 {
                out.push(KANJI_DIGITS[d as usize]);
            }
            if d > 0 {
                out.push_str(unit);
            }
            n %= size;
        }
        if n > 0 {
            out.push(KANJI_DIGITS[n as usize]);
        }
        out
    };
    with_units(v, section)
}

/// How a number is read aloud, below 10¹⁶: `28` にじゅうはち, `300` さんびゃく, `1000` せん,
/// `8000` はっせん, `10000` いちまん; `0` ぜろ. What [`parse`] reads of it is the same value.
/// Where text puts a counter after it, the counter decides the last sound (`十本` じゅっぽん,
/// not じゅうほん): that is the caller's.
///
/// ```
/// use henkan::lattice::number::reading;
/// assert_eq!(reading(28).as_deref(), Some("にじゅうはち"));
/// assert_eq!(reading(3600).as_deref(), Some("さんぜんろっぴゃく"));
/// assert_eq!(reading(120_000).as_deref(), Some("じゅうにまん"));
/// assert_eq!(reading(1_000_000_000_000).as_deref(), Some("いっちょう"));
/// assert_eq!(reading(10_000_000_000_000_000), None);
/// ```
pub fn reading(v: u64) -> Option<String> {
    const DIGITS: [&str; 10] = [
        "",
        "いち",
        "に",
        "さん",
        "よん",
        "ご",
        "ろく",
        "なな",
        "はち",
        "きゅう",
    ];
    if v == 0 {
        return Some("ぜろ".to_string());
    }
    if v >= 10_000_000_000_000_000 {
        return None;
    }
    // a group below 10⁴, each place with its sound changes (さんびゃく, はっせん)
    let group = |n: u64| {
        let (th, h, t, o) = (n / 1000, n / 100 % 10, n / 10 % 10, n % 10);
        let mut out = String::new();
        out.push_str(match th {
            0 => "",
            1 => "せん",
            3 => "さんぜん",
            8 => "はっせん",
            d => DIGITS[d as usize],
        });
        if th > 1 && th != 3 && th != 8 {
            out.push_str("せん");
        }
        out.push_str(match h {
            0 => "",
            1 => "ひゃく",
            3 => "さんびゃく",
            6 => "ろっぴゃく",
            8 => "はっぴゃく",
            d => DIGITS[d as usize],
        });
        if h > 1 && !matches!(h, 3 | 6 | 8) {
            out.push_str("ひゃく");
        }
        if t > 1 {
            out.push_str(DIGITS[t as usize]);
        }
        if t > 0 {
            out.push_str("じゅう");
        }
        out.push_str(DIGITS[o as usize]);
        out
    };
    // 一兆, 八兆, 十兆 are いっちょう, はっちょう, じゅっちょう
    let read = |g: u64, unit: &str| {
        let r = group(g);
        if unit != "ちょう" {
            return r;
        }
        match g % 10 {
            1 => r
                .strip_suffix("いち")
                .map_or(r.clone(), |s| format!("{s}いっ")),
            8 => r
                .strip_suffix("はち")
                .map_or(r.clone(), |s| format!("{s}はっ")),
            0 => r
                .strip_suffix("じゅう")
                .map_or(r.clone(), |s| format!("{s}じゅっ")),
            _ => r,
        }
    };
    let out = with_unit_names(v, ["けい", "ちょう", "おく", "まん"], read);
    Some(out)
}

/// A number's other written forms, offered among its candidates as Mozc's number rewriter
/// does: ASCII digits with thousands separators (`1,234`), kanji with units (`千二百三十四`) and
/// kanji digit by digit (`一二三四`). Forms equal to another are left out; the caller applies the
/// digit width and adds the other width.
///
/// ```
/// use henkan::lattice::number::styles;
/// assert_eq!(styles(1234), ["1,234", "千二百三十四", "一二三四"]);
/// assert_eq!(styles(20), ["二十", "二〇"]);
/// assert_eq!(styles(5), ["五"]);
/// ```
pub fn styles(v: u64) -> Vec<String> {
    let digits = v.to_string();
    let mut out = Vec::new();
    if v >= 1000 {
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        out.push(grouped);
    }
    out.push(kanji_written(v));
    let one_by_one: String = digits
        .chars()
        .map(|c| KANJI_DIGITS[c as usize - '0' as usize])
        .collect();
    if !out.contains(&one_by_one) {
        out.push(one_by_one);
    }
    out
}

/// Counters written after a number (Mozc's 助数詞 that text commonly writes with digits).
const COUNTERS: &[&str] = &[
    "人",
    "日",
    "月",
    "年",
    "回",
    "個",
    "本",
    "枚",
    "匹",
    "台",
    "冊",
    "杯",
    "階",
    "件",
    "歳",
    "才",
    "度",
    "番",
    "名",
    "つ",
    "泊",
    "部",
    "軒",
    "点",
    "分",
    "時",
    "秒",
    "週",
    "円",
    "倍",
    "位",
    "割",
    "社",
    "校",
    "曲",
    "話",
    "巻",
    "号",
    "区",
    "丁目",
    "ヶ月",
    "か月",
    "カ月",
    "ヵ月",
    "箇所",
    "か所",
    "ヶ所",
    "カ所",
    "頭",
    "羽",
    "着",
    "足",
    "戸",
    "期",
    "代",
    "局",
    "勝",
    "敗",
    "種",
    "段",
    "列",
    "棟",
    "室",
    "席",
    "店",
    "隻",
    "機",
    "両",
    "票",
    "粒",
    "輪",
    "錠",
    "行",
    "頁",
    "世紀",
    "周年",
    "カ国",
    "か国",
    "ヶ国",
    "通",
    "問",
    "箱",
    "袋",
    "品",
    "缶",
    "皿",
    "合",
    "升",
    "体",
    "kg",
    "km",
    "cm",
    "mm",
    "%",
    "％",
    "メートル",
    "キロ",
    "グラム",
    "センチ",
    "ページ",
    "ドル",
];

/// Characters before a numeral that keep it a number (`第一回`, `約十人`, `毎月一回`); after any
/// other kanji the numeral is part of a word (`統一`, `唯一`).
const NUMBER_PREFIXES: &[char] = &['第', '約', '毎', '各', '全', '計', '同', '満'];

const KANJI_DIGITS: &[char] = &['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn kanji_digit(c: char) -> Option<u64> {
    KANJI_DIGITS.iter().position(|&k| k == c).map(|d| d as u64)
}

/// Whether `c` is a kanji numeral: a digit `〇`–`九` or a multiplier `十` `百` `千` `万` `億`.
pub(crate) fn is_kanji_numeral(c: char) -> bool {
    kanji_digit(c).is_some() || matches!(c, '十' | '百' | '千' | '万' | '億')
}

/// The value of a number written in kanji numerals: with multipliers (`二十` 20, `三百五` 305,
/// `十二万` 120000), digit by digit (`二〇〇七` 2007) or in groups of digits with their units
/// (`四万五七八〇` 45780); `None` for anything else.
///
/// ```
/// use henkan::lattice::number::kanji_value;
/// assert_eq!(kanji_value("二十"), Some(20));
/// assert_eq!(kanji_value("三百五"), Some(305));
/// assert_eq!(kanji_value("二〇〇七"), Some(2007));
/// assert_eq!(kanji_value("一二"), Some(12));
/// assert_eq!(kanji_value("四万五七八〇"), Some(45_780));
/// assert_eq!(kanji_value("一億二〇〇〇万"), Some(120_000_000));
/// assert_eq!(kanji_value("十十"), None);
/// ```
pub fn kanji_value(s: &str) -> Option<u64> {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() || chars.len() > 20 {
        return None;
    }
    let by_digit = |cs: &[char]| {
        cs.iter().try_fold(0u64, |v, &c| {
            v.checked_mul(10)?.checked_add(kanji_digit(c)?)
        })
    };
    if chars.len() >= 2 && chars.iter().all(|&c| kanji_digit(c).is_some()) {
        return by_digit(&chars);
    }
    // groups of up to four digits, digit by digit, between 億 and 万 (`四万五七八〇`, as
    // newspapers write amounts); where no group has two digits (`一万二`) the multipliers' rules
    // below read it
    let groups: Vec<&[char]> = chars.split(|&c| matches!(c, '億' | '万')).collect();
    let units: Vec<char> = chars
        .iter()
        .copied()
        .filter(|&c| matches!(c, '億' | '万'))
        .collect();
    let digit_groups = groups
        .iter()
        .all(|g| g.len() <= 4 && g.iter().all(|&c| kanji_digit(c).is_some()))
        && groups.iter().any(|g| g.len() >= 2)
        && !groups[0].is_empty()
        && matches!(units.as_slice(), ['万'] | ['億'] | ['億', '万']);
    if digit_groups {
        let mut sizes: Vec<u64> = units
            .iter()
            .map(|&u| if u == '億' { 100_000_000 } else { 10_000 })
            .collect();
        sizes.push(1);
        return groups.iter().zip(sizes).try_fold(0u64, |v, (g, size)| {
            v.checked_add(by_digit(g)?.checked_mul(size)?)
        });
    }
    let toks = chars
        .iter()
        .map(|&c| match c {
            '十' => Some(Tok::Mult(10)),
            '百' => Some(Tok::Mult(100)),
            '千' => Some(Tok::Mult(1000)),
            '万' => Some(Tok::Big(10_000)),
            '億' => Some(Tok::Big(100_000_000)),
            _ => kanji_digit(c).map(Tok::Digit),
        })
        .collect::<Option<Vec<Tok>>>()?;
    value(&toks)
}

/// `text` with each kanji numeral that stands before a counter written in Arabic digits, as
/// Mozc offers it (`二人で` → `2人で`, `十二月` → `12月`, `第一回` → `第1回`), or `None` when
/// there is none. A numeral after another kanji is part of a word (`統一日`), one after a digit
/// part of that number (`3千円`), and `一緒` has no counter: all are left alone. Digits are
/// ASCII; the caller applies the digit width.
///
/// ```
/// use henkan::lattice::number::digit_twin;
/// assert_eq!(digit_twin("二人で").as_deref(), Some("2人で"));
/// assert_eq!(digit_twin("二十日と十二月").as_deref(), Some("20日と12月"));
/// assert_eq!(digit_twin("一緒に"), None);
/// assert_eq!(digit_twin("3千円"), None); // 3000円, not 31000円
/// assert_eq!(digit_twin("１．５万人と二人").as_deref(), Some("１．５万人と2人"));
/// ```
pub fn digit_twin(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut prev: Option<char> = None;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        // a run of numerals; 万 and 億 only inside one (万一 is a word)
        let len: usize = if matches!(c, '万' | '億') {
            0
        } else {
            rest.chars()
                .take_while(|&k| is_kanji_numeral(k))
                .map(char::len_utf8)
                .sum()
        };
        if len == 0 {
            out.push(c);
            prev = Some(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let (run, after) = rest.split_at(len);
        // (after a digit the numeral is part of that number: `3千円` is 3000, not 3 and 1000)
        let number_before = prev.is_none_or(|p| {
            (!is_kanji(p) || NUMBER_PREFIXES.contains(&p)) && !is_digit_or_point(p)
        });
        let counter = COUNTERS.iter().any(|k| after.starts_with(k));
        match kanji_value(run) {
            Some(v) if number_before && counter => {
                out.push_str(&written(v));
                changed = true;
            }
            _ => out.push_str(run),
        }
        prev = run.chars().next_back();
        rest = after;
    }
    changed.then_some(out)
}

/// A digit, ASCII or full-width, or a decimal point or a thousands comma, which stand inside a
/// number written with digits.
fn is_digit_or_point(c: char) -> bool {
    c.is_ascii_digit() || ('０'..='９').contains(&c) || matches!(c, '.' | '．' | ',' | '，')
}

fn is_kanji(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c) || ('\u{3400}'..='\u{4DBF}').contains(&c) || c == '々'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_s_reading_parses_back_to_it() {
        let large = [
            1_000_000_000_000,
            8_000_000_000_000,
            10_000_000_000_000,
            123_456_789_012_345,
            100_000_000,
            300_000_000,
        ];
        // parse leaves some readings to the dictionary (one word: `に`; `せんご`, a large unit and
        // a lone digit), but reads none as another number
        let mut parsed = 0;
        let all: Vec<u64> = (1..120_000)
            .chain((1..200).map(|k| k * 7_919_993))
            .chain(large)
            .collect();
        for &v in &all {
            let r = reading(v).unwrap();
            let p = parse(&r);
            assert!(p.is_none() || p == Some(v), "{v} {r} {p:?}");
            parsed += usize::from(p.is_some());
        }
        assert!(parsed * 100 > all.len() * 95, "{parsed} of {}", all.len());
        for (v, r) in [
            (10, "じゅう"),
            (100, "ひゃく"),
            (600, "ろっぴゃく"),
            (3000, "さんぜん"),
            (4_000, "よんせん"),
            (10_000, "いちまん"),
            (11_000_000, "せんひゃくまん"),
        ] {
            assert_eq!(reading(v).as_deref(), Some(r), "{v}");
        }
    }

    #[test]
    fn kanji_forms() {
        for (v, k) in [
            (1, "一"),
            (11, "十一"),
            (110, "百十"),
            (1001, "千一"),
            (2305, "二千三百五"),
            (10_000, "一万"),
            (20_005, "二万五"),
            (1_000_000, "百万"),
            (12_345_678, "千二百三十四万五千六百七十八"),
            (300_000_000, "三億"),
        ] {
            assert_eq!(kanji_written(v), k, "{v}");
            // kanji_value reads the same value back
            assert_eq!(kanji_value(k), Some(v), "{k}");
        }
        assert_eq!(kanji_written(300_000_000_000_000), "三百兆");
        assert_eq!(styles(1_000_000)[0], "1,000,000");
        assert_eq!(styles(100), ["百", "一〇〇"]);
    }

    #[test]
    fn decimals() {
        assert_eq!(decimal("ななてんご").as_deref(), Some("7.5"));
        assert_eq!(decimal("れいてんぜろご").as_deref(), Some("0.05"));
        assert_eq!(decimal("ひゃくにじゅってんご"), None);
        assert_eq!(decimal("じゅってんご"), None);
        assert_eq!(decimal("てんご"), None);
        assert_eq!(decimal("にさんてんご"), None);
        assert_eq!(decimal("さんてんにご").as_deref(), Some("3.25"));
        assert_eq!(decimal("いちてんかい"), None);
        assert_eq!(
            decimal(&format!("いちてん{}", "ご".repeat(12))).as_deref(),
            Some("1.555555555555")
        );
        assert_eq!(decimal(&format!("いちてん{}", "ご".repeat(13))), None);
    }

    #[test]
    fn readings() {
        for (r, v) in [
            ("にせんさんびゃくご", 2305),
            ("せんきゅうひゃくごじゅうはち", 1958),
            ("にじゅういち", 21),
            ("じゅうはち", 18),
            ("はっぴゃく", 800),
            ("さんぜん", 3000),
            ("いっせん", 1000),
            ("じゅうまん", 100_000),
            ("にまんごせん", 25_000),
            ("いちおくにせんまん", 120_000_000),
            ("にじゅっ", 20),
            ("ひゃくいっ", 101),
            ("にせんにじゅうよ", 2024),
            ("じゅうく", 19),
            ("いっ", 1),
            ("ろっ", 6),
            ("はっ", 8),
            ("じゅっ", 10),
            ("じっ", 10),
            ("じゅう", 10),
            ("ひゃく", 100),
            ("せん", 1000),
            ("ろっぴゃっ", 600),
            ("さんびゃっ", 300),
            ("ひゃっ", 100),
            ("にせんはっぴゃっ", 2800),
            ("じゅうよっ", 14),
            ("にじゅうよっ", 24),
            ("にせんご", 2005),
            ("せんにじゅう", 1020),
            ("せんきゅうひゃく", 1900),
            ("さんおく", 300_000_000),
            ("におくごせんまん", 250_000_000),
            ("にまん", 20_000),
        ] {
            assert_eq!(parse(r), Some(v), "{r}");
        }
        for r in [
            "",
            "に",
            "まん",
            "びゃく",
            "びゃっ",
            "ぴゃっ",
            "にびゃっ",
            "ろっぴゃっに",
            "ぜん",
            "にさん",
            "いっに",
            "じゅうひゃく",
            "まんまん",
            "じゅっに",
            "ぜろまん",
            "こんにちは",
            "よ",
            "く",
            "いち",
            "ろく",
            "よっ",
            "せんご",
            "せんに",
            "きゅうせんまんに",
            "くせん",
            "よひゃく",
            "にせんくひゃく",
            "にまんご",
            "よっせん",
            "じゅうよっせん",
            "におく",
            "にちょう",
        ] {
            assert_eq!(parse(r), None, "{r}");
        }
        assert_eq!(full_width_digits(2305), "２３０５");
        for (k, v) in [
            ("一", 1),
            ("十", 10),
            ("十二", 12),
            ("二十", 20),
            ("百", 100),
            ("三千五百", 3500),
            ("十二万", 120_000),
            ("二〇一〇", 2010),
        ] {
            assert_eq!(kanji_value(k), Some(v), "{k}");
        }
        for k in [
            "",
            "十十",
            "百十百",
            "万",
            "〇十",
            "一二三四五六七八九〇一二三四五六七八九〇一",
        ] {
            assert_eq!(kanji_value(k), None, "{k}");
        }
        for (text, twin) in [
            ("二人", Some("2人")),
            ("第一回の", Some("第1回の")),
            ("十日と二十日", Some("10日と20日")),
            ("約十人", Some("約10人")),
            ("一つずつ", Some("1つずつ")),
            ("一緒に", None),
            ("統一日", None),
            ("唯一人", None),
            ("万一", None),
            ("一方", None),
            ("２人", None),
        ] {
            assert_eq!(digit_twin(text).as_deref(), twin, "{text}");
        }
        for (v, w) in [
            (0, "0"),
            (9_999, "9999"),
            (10_000, "1万"),
            (10_001, "1万1"),
            (176_329, "17万6329"),
            (2_000_000, "200万"),
            (100_000_000, "1億"),
            (250_000_000, "2億5000万"),
            (1_000_000_000_000, "1兆"),
        ] {
            assert_eq!(written(v), w, "{v}");
        }
    }
}
