//! The token format of the analyzed corpus, shared by the analyzer (`training/tokenize`, which
//! writes it), the builder and the evaluations (which read it).
//!
//! One sentence per line, tokens separated by spaces; a token is `surface/reading/left/right`
//! (a lexicon entry: its surface, its kana reading, its left and right POS ids) or `<unk>`.
//! Surface and reading are percent-escaped ([`escape`]) so that neither the field separator
//! `/` nor the token separator (an ASCII or ideographic space) nor a line break can occur in
//! them.

/// Appends `s` percent-escaped to `out`: `%`, `/`, space, tab, CR, LF and the ideographic
/// space (U+3000) become `%XX` sequences of their UTF-8 bytes; every other character stays.
pub fn escape_into(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '/' => out.push_str("%2F"),
            ' ' => out.push_str("%20"),
            '\t' => out.push_str("%09"),
            '\n' => out.push_str("%0A"),
            '\r' => out.push_str("%0D"),
            '\u{3000}' => out.push_str("%E3%80%80"),
            c => out.push(c),
        }
    }
}

/// `s` percent-escaped ([`escape_into`]).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(s, &mut out);
    out
}

/// Undoes [`escape`]: every `%XX` (two hex digits) becomes its byte; a `%` not followed by
/// two hex digits stays as it is; bytes that do not form UTF-8 become U+FFFD.
pub fn unescape(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() && s.is_char_boundary(i + 3) {
            if let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses one token into (surface, reading, left id, right id); `None` for `<unk>` or a
/// malformed token.
pub fn parse_token(tok: &str) -> Option<(String, String, u16, u16)> {
    let mut it = tok.split('/');
    let (s, r, l, rt) = (it.next()?, it.next()?, it.next()?, it.next()?);
    if it.next().is_some() {
        return None;
    }
    Some((unescape(s), unescape(r), l.parse().ok()?, rt.parse().ok()?))
}

/// The words of one analyzed line, as the prediction evaluation takes them; `None` entries
/// are `<unk>` (or malformed tokens).
pub fn parse_line(line: &str) -> Vec<Option<henkan::predict::eval::Word>> {
    line.split(' ')
        .filter(|t| !t.is_empty())
        .map(|t| {
            parse_token(t).map(|(surface, reading, left_id, right_id)| {
                henkan::predict::eval::Word {
                    surface,
                    reading,
                    left_id,
                    right_id,
                }
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_percent() {
        assert_eq!(unescape("a%2Fb%25"), "a/b%");
        assert_eq!(unescape("100%"), "100%");
    }

    #[test]
    fn parse_escaped_token() {
        assert_eq!(
            parse_token("%2F/%2F/1/2"),
            Some(("/".into(), "/".into(), 1, 2))
        );
        assert_eq!(parse_token("<unk>"), None);
        assert_eq!(parse_token("a/b/1"), None);
        assert_eq!(parse_token("a/b/1/2/3"), None);
    }

    #[test]
    fn escape_round_trips_every_special_character() {
        for s in [
            "a/b",
            "100% 本気",
            "改\r\n行",
            "全角\u{3000}空白",
            "tab\there",
            "",
        ] {
            let e = escape(s);
            assert!(
                !e.contains(['/', ' ', '\t', '\r', '\n', '\u{3000}']),
                "{e:?}"
            );
            assert_eq!(unescape(&e), s);
            let tok = format!("{e}/{e}/3/4");
            assert_eq!(
                parse_token(&tok),
                Some((s.to_string(), s.to_string(), 3, 4))
            );
        }
    }

    #[test]
    fn lines_keep_unknown_words_in_place() {
        let w = parse_line("<s> 今日/きょう/1851/1851 <unk>  は/は/261/261");
        assert_eq!(w.len(), 4);
        assert!(w[0].is_none() && w[2].is_none());
        assert_eq!(w[1].as_ref().unwrap().reading, "きょう");
        assert_eq!(w[3].as_ref().unwrap().left_id, 261);
    }
}
