//! henkan-tokenize: analyze training / dev text into the LM's units, which are exactly the entries of the
//! Mozc system dictionary used by the IME's lattice (see docs/training.md).
//!
//! The Mozc dictionary (`build/mozc/lex.tsv`: reading, left id, right id, cost, surface) is re-keyed by
//! surface and handed to vibrato together with Mozc's own connection matrix, so the analysis is a 1-best
//! Viterbi over the same entries, POS ids and costs as the IME's "classic" lattice.
//!
//! Usage:
//!   henkan-tokenize --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin \
//!       [--stats build/corpus/stats.tsv] [--prefer-readings training/analyzer_readings.tsv] JOB...
//!   JOB = raw:INPUT:OUTPUT    one paragraph/utterance per line, split into sentences at 。！？!?
//!       | gold:INPUT:OUTPUT   hand-tokenized `surface/reading/POS` lines: the joined surfaces are analyzed,
//!                           and our reading of the sentence is compared with the gold reading
//! `--prefer-readings`: lines `surface<TAB>reading<TAB>left_id<TAB>right_id` (`#` starts a comment): that
//! spelling with those POS ids is read so, not with its cheapest reading (see [`prefer_readings`]).
//! INPUT may end in `.xz` (decompressed with `xz -dc`). OUTPUT: one sentence per line, tokens separated by
//! single spaces, each token `surface/reading/left_id/right_id` with `%`, `/`, and whitespace in surface or
//! reading percent-escaped (`%25`, `%2F`, `%20`, ...), or `<unk>` for an unknown word.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use henkan_builder::token::escape_into;
use vibrato::dictionary::LexType;
use vibrato::{SystemDictionaryBuilder, Tokenizer};

const CHAR_DEF: &str = include_str!("../char.def");
const UNK_DEF: &str = include_str!("../unk.def");

struct Entry {
    key: String,     // escaped `surface/reading/lid/rid`
    reading: String, // unescaped reading
}

fn die(msg: impl std::fmt::Display) -> ! {
    eprintln!("henkan-tokenize: {msg}");
    std::process::exit(1)
}

/// The spellings whose reading the analysis is told (`surface, left id, right id` → reading), from a
/// `--prefer-readings` file.
type Preferred = HashMap<(String, u16, u16), String>;

/// Reads a `--prefer-readings` file: `surface<TAB>reading<TAB>left_id<TAB>right_id` per line.
///
/// Connection costs depend on POS ids only, so among the entries of one spelling and POS ids the
/// analysis always takes the cheapest, whatever the text means: Mozc's costs, made for converting
/// readings, make the noun `上` `かみ` (440) rather than `うえ` (574), so left alone every `机の上`
/// of the corpus would be the LM word `上/かみ`, and typing `かみ` would suggest `上`. A preferred
/// reading takes the lowest cost of its spelling and POS ids and the others go one above it, so the
/// analysis cuts the text as it would without it and only the reading differs.
fn prefer_readings(path: &str) -> Preferred {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(format!("{path}: {e}")));
    let mut out = Preferred::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let id = |s: &str| -> u16 {
            s.parse()
                .unwrap_or_else(|_| die(format!("{path}:{}: bad POS id", n + 1)))
        };
        if f.len() != 4 {
            die(format!("{path}:{}: expected 4 fields", n + 1));
        }
        out.insert((f[0].to_string(), id(f[2]), id(f[3])), f[1].to_string());
    }
    out
}

/// Re-keys lex.tsv by surface: returns the entries (deduplicated by the LM word key, keeping the lowest
/// cost) and the lex.csv text vibrato reads, whose feature field is the index into the returned vector.
/// A spelling in `preferred` is read as it says ([`prefer_readings`]); one whose preferred reading the
/// dictionary lacks is an error.
fn load_lex(path: &str, preferred: &Preferred) -> (Vec<Entry>, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(format!("{path}: {e}")));
    let mut index: HashMap<String, usize> = HashMap::with_capacity(1 << 21);
    let mut entries: Vec<Entry> = Vec::with_capacity(1 << 21);
    let mut params: Vec<(String, u16, u16, i16)> = Vec::with_capacity(1 << 21);
    for (n, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 5 {
            die(format!("{path}:{}: expected 5 fields", n + 1));
        }
        let (reading, surface) = (f[0], f[4]);
        let lid: u16 = f[1]
            .parse()
            .unwrap_or_else(|_| die(format!("{path}:{}: bad left id", n + 1)));
        let rid: u16 = f[2]
            .parse()
            .unwrap_or_else(|_| die(format!("{path}:{}: bad right id", n + 1)));
        let cost: i16 = f[3]
            .parse()
            .unwrap_or_else(|_| die(format!("{path}:{}: bad cost", n + 1)));
        if surface.is_empty() {
            continue;
        }
        let mut key = String::with_capacity(surface.len() + reading.len() + 12);
        escape_into(surface, &mut key);
        key.push('/');
        escape_into(reading, &mut key);
        key.push_str(&format!("/{lid}/{rid}"));
        match index.get(&key) {
            Some(&i) => {
                if cost < params[i].3 {
                    params[i].3 = cost;
                }
            }
            None => {
                index.insert(key.clone(), entries.len());
                entries.push(Entry {
                    key,
                    reading: reading.to_string(),
                });
                params.push((surface.to_string(), lid, rid, cost));
            }
        }
    }
    // the preferred reading gets the lowest cost of its spelling and POS ids, the others one more
    let mut lowest: HashMap<(&str, u16, u16), (i16, Option<usize>)> = HashMap::new();
    let spellings: HashSet<&str> = preferred.keys().map(|k| k.0.as_str()).collect();
    for (i, (surface, lid, rid, cost)) in params.iter().enumerate() {
        if !spellings.contains(surface.as_str()) {
            continue;
        }
        if let Some(want) = preferred.get(&(surface.clone(), *lid, *rid)) {
            let e = lowest
                .entry((surface.as_str(), *lid, *rid))
                .or_insert((i16::MAX, None));
            e.0 = e.0.min(*cost);
            if entries[i].reading == *want {
                e.1 = Some(i);
            }
        }
    }
    for (k, want) in preferred {
        if lowest
            .get(&(k.0.as_str(), k.1, k.2))
            .is_none_or(|e| e.1.is_none())
        {
            die(format!(
                "--prefer-readings: no entry {}/{want}/{}/{}",
                k.0, k.1, k.2
            ));
        }
    }
    let costs: Vec<i16> = params
        .iter()
        .enumerate()
        .map(
            |(i, (surface, lid, rid, cost))| match lowest.get(&(surface.as_str(), *lid, *rid)) {
                Some(&(low, chosen)) if chosen == Some(i) => low,
                Some(&(low, _)) => (*cost).max(low.saturating_add(1)),
                None => *cost,
            },
        )
        .collect();
    let mut csv = String::with_capacity(text.len() + text.len() / 2);
    for (i, ((surface, lid, rid, _), cost)) in params.iter().zip(&costs).enumerate() {
        if surface.contains([',', '"']) || surface.starts_with(' ') {
            csv.push('"');
            csv.push_str(&surface.replace('"', "\"\""));
            csv.push('"');
        } else {
            csv.push_str(surface);
        }
        csv.push_str(&format!(",{lid},{rid},{cost},{i}\n"));
    }
    (entries, csv)
}

/// matrix.bin (u16 lsize, u16 rsize, i16 m[left_of_next * rsize + right_of_prev]) -> MeCab matrix.def text
/// (`num_right num_left` header; lines `right_id_of_prev left_id_of_next cost`).
fn matrix_def(path: &str) -> String {
    let b = std::fs::read(path).unwrap_or_else(|e| die(format!("{path}: {e}")));
    let lsize = u16::from_le_bytes([b[0], b[1]]) as usize;
    let rsize = u16::from_le_bytes([b[2], b[3]]) as usize;
    if b.len() != 4 + 2 * lsize * rsize {
        die(format!("{path}: size mismatch"));
    }
    let mut s = String::with_capacity(lsize * rsize * 14);
    s.push_str(&format!("{rsize} {lsize}\n"));
    for l in 0..lsize {
        for r in 0..rsize {
            let o = 4 + 2 * (l * rsize + r);
            let c = i16::from_le_bytes([b[o], b[o + 1]]);
            s.push_str(&format!("{r} {l} {c}\n"));
        }
    }
    s
}

/// Width normalization matching Mozc's dictionary: full-width ASCII -> ASCII when the dictionary has the
/// ASCII form but not the full-width one (it stores `3`, `!`, `(`, not `３`, `！`, `（`; but `～`, not `~`),
/// and the other way round; letters and digits always become ASCII; 〜 (U+301C) -> ～; ideographic space ->
/// space; half-width katakana -> full-width. `single` = the one-character surfaces of the dictionary.
fn normalize(s: &str, single: &HashSet<char>) -> String {
    const HW: &str = "｡｢｣､･ｦｧｨｩｪｫｬｭｮｯｰｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜﾝ";
    const FW: &str = "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン";
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let u = c as u32;
        if (0xFF01..=0xFF5E).contains(&u) {
            let h = char::from_u32(u - 0xFEE0).unwrap();
            if h.is_ascii_alphanumeric() || (single.contains(&h) && !single.contains(&c)) {
                out.push(h);
            } else {
                out.push(c);
            }
        } else if (0x21..=0x7E).contains(&u) && !c.is_ascii_alphanumeric() && !single.contains(&c) {
            let f = char::from_u32(u + 0xFEE0).unwrap();
            out.push(if single.contains(&f) { f } else { c });
        } else if c == '〜' && !single.contains(&c) {
            out.push('～');
        } else if u == 0x3000 {
            out.push(' ');
        } else if (0xFF61..=0xFF9D).contains(&u) {
            let i = HW.chars().position(|h| h == c).unwrap();
            out.push(FW.chars().nth(i).unwrap());
        } else if c == 'ﾞ' || c == 'ﾟ' {
            let prev = out.pop();
            match prev {
                Some(p) => {
                    let pu = p as u32;
                    let composed = if c == 'ﾞ' {
                        if p == 'ウ' {
                            Some('ヴ')
                        } else if "カキクケコサシスセソタチツテトハヒフヘホ".contains(p)
                        {
                            char::from_u32(pu + 1)
                        } else {
                            None
                        }
                    } else if "ハヒフヘホ".contains(p) {
                        char::from_u32(pu + 2)
                    } else {
                        None
                    };
                    match composed {
                        Some(x) => out.push(x),
                        None => {
                            out.push(p);
                            out.push(if c == 'ﾞ' { '゛' } else { '゜' });
                        }
                    }
                }
                None => out.push(if c == 'ﾞ' { '゛' } else { '゜' }),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits a paragraph into sentences after 。！？!? (and any closing brackets right after them).
fn split_sentences(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if matches!(c, '。' | '!' | '?' | '！' | '？') {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = it.peek() {
                if matches!(d, '」' | '』' | ')' | '）' | '!' | '?' | '。' | '"' | '”') {
                    end = j + d.len_utf8();
                    it.next();
                } else {
                    break;
                }
            }
            out.push(&s[start..end]);
            start = end;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

fn kata_to_hira(s: &str) -> Option<String> {
    let mut o = String::new();
    for c in s.chars() {
        let u = c as u32;
        if (0x30A1..=0x30F6).contains(&u) {
            o.push(char::from_u32(u - 0x60).unwrap());
        } else if (0x3041..=0x309F).contains(&u) || c == 'ー' {
            o.push(c);
        } else {
            return None;
        }
    }
    Some(o)
}

/// The output of `xz -dc`; at its end the process is waited for, and a failed decompression (a
/// truncated or damaged file) ends the run instead of passing for a short input.
struct Xz {
    child: std::process::Child,
    path: String,
}

impl Read for Xz {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.child.stdout.as_mut().map_or(Ok(0), |o| o.read(buf))?;
        if n == 0 && !buf.is_empty() {
            self.child.stdout = None;
            let status = self.child.wait()?;
            if !status.success() {
                die(format!("xz -dc {}: {status}", self.path));
            }
        }
        Ok(n)
    }
}

fn open_input(path: &str) -> Box<dyn Read> {
    if path.ends_with(".xz") {
        let child = Command::new("xz")
            .args(["-dc", path])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| die(format!("xz: {e}")));
        Box::new(Xz {
            child,
            path: path.to_string(),
        })
    } else {
        Box::new(File::open(path).unwrap_or_else(|e| die(format!("{path}: {e}"))))
    }
}

fn category(s: &str) -> &'static str {
    let c = s.chars().next().unwrap_or(' ');
    match c as u32 {
        0x30..=0x39 => "NUMERIC",
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x370..=0x4FF => "ALPHA",
        0x3041..=0x309F => "HIRAGANA",
        0x30A1..=0x30FA | 0x30FC..=0x30FF => "KATAKANA",
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF => "KANJI",
        _ => "SYMBOL/OTHER",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut lex = "build/mozc/lex.tsv".to_string();
    let mut matrix = "build/mozc/matrix.bin".to_string();
    let mut stats_path: Option<String> = None;
    let mut preferred = Preferred::new();
    let mut jobs: Vec<(String, String, String)> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--lex" => {
                lex = args[i + 1].clone();
                i += 1
            }
            "--matrix" => {
                matrix = args[i + 1].clone();
                i += 1
            }
            "--stats" => {
                stats_path = Some(args[i + 1].clone());
                i += 1
            }
            "--prefer-readings" => {
                preferred = prefer_readings(&args[i + 1]);
                i += 1
            }
            j => {
                let p: Vec<&str> = j.splitn(3, ':').collect();
                if p.len() != 3 || !(p[0] == "raw" || p[0] == "gold") {
                    die(format!("bad job {j:?} (want raw:IN:OUT or gold:IN:OUT)"));
                }
                jobs.push((p[0].to_string(), p[1].to_string(), p[2].to_string()));
            }
        }
        i += 1;
    }

    let t0 = Instant::now();
    let (entries, csv) = load_lex(&lex, &preferred);
    let mut single: HashSet<char> = HashSet::new();
    for e in &entries {
        let surf = e.key.split('/').next().unwrap();
        let mut cs = surf.chars();
        if let (Some(c), None) = (cs.next(), cs.next()) {
            single.insert(c);
        }
    }
    single.insert('/'); // escaped as %2F in keys
    single.insert('%');
    let mdef = matrix_def(&matrix);
    let dict = SystemDictionaryBuilder::from_readers(
        csv.as_bytes(),
        mdef.as_bytes(),
        CHAR_DEF.as_bytes(),
        UNK_DEF.as_bytes(),
    )
    .unwrap_or_else(|e| die(format!("building the dictionary: {e}")));
    drop((csv, mdef));
    eprintln!(
        "dictionary: {} words (LM keys) built in {:.1}s",
        entries.len(),
        t0.elapsed().as_secs_f64()
    );
    let tokenizer = Tokenizer::new(dict).ignore_space(true).unwrap();
    let mut worker = tokenizer.new_worker();

    for (mode, input, output) in &jobs {
        let t = Instant::now();
        let gold = mode == "gold";
        let tmp = format!("{output}.part");
        let mut w =
            BufWriter::new(File::create(&tmp).unwrap_or_else(|e| die(format!("{tmp}: {e}"))));
        let rdr = BufReader::with_capacity(1 << 20, open_input(input));
        let (mut lines, mut sents, mut chars, mut toks, mut unks, mut exact, mut gold_n) =
            (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
        let mut unk_counts: HashMap<String, u64> = HashMap::new();
        let mut unk_cat: HashMap<&'static str, u64> = HashMap::new();
        let mut line_out = String::new();
        for line in rdr.lines() {
            let line = line.unwrap_or_else(|e| die(format!("{input}: {e}")));
            lines += 1;
            let (text, gold_reading) = if gold {
                let mut surf = String::new();
                let mut read = String::new();
                for tok in line.split(' ').filter(|t| !t.is_empty()) {
                    let p: Vec<&str> = tok.rsplitn(3, '/').collect();
                    if p.len() == 3 {
                        surf.push_str(p[2]);
                        read.push_str(p[1]);
                    } else {
                        surf.push_str(tok);
                    }
                }
                (normalize(&surf, &single), Some(normalize(&read, &single)))
            } else {
                (normalize(&line, &single), None)
            };
            let pieces: Vec<&str> = if gold {
                vec![text.as_str()]
            } else {
                split_sentences(&text)
            };
            for piece in pieces {
                if piece.trim().is_empty() {
                    continue;
                }
                worker.reset_sentence(piece);
                worker.tokenize();
                let n = worker.num_tokens();
                if n == 0 {
                    continue;
                }
                line_out.clear();
                let mut our_reading = String::new();
                let mut reading_ok = true;
                for k in 0..n {
                    let tk = worker.token(k);
                    if k > 0 {
                        line_out.push(' ');
                    }
                    if tk.lex_type() == LexType::System {
                        let idx: usize = tk.feature().parse().unwrap();
                        line_out.push_str(&entries[idx].key);
                        our_reading.push_str(&entries[idx].reading);
                    } else {
                        line_out.push_str("<unk>");
                        unks += 1;
                        let s = tk.surface();
                        *unk_counts.entry(s.to_string()).or_insert(0) += 1;
                        *unk_cat.entry(category(s)).or_insert(0) += 1;
                        match kata_to_hira(s) {
                            Some(h) => our_reading.push_str(&h),
                            None => reading_ok = false,
                        }
                    }
                }
                toks += n as u64;
                chars += piece.chars().count() as u64;
                sents += 1;
                line_out.push('\n');
                w.write_all(line_out.as_bytes()).unwrap();
                if let Some(g) = &gold_reading {
                    gold_n += 1;
                    if reading_ok && our_reading == *g {
                        exact += 1;
                    }
                }
            }
        }
        w.flush().unwrap();
        drop(w);
        std::fs::rename(&tmp, output).unwrap_or_else(|e| die(format!("{output}: {e}")));
        let secs = t.elapsed().as_secs_f64();
        let acc = if gold {
            format!("{:.4}", exact as f64 / gold_n.max(1) as f64)
        } else {
            "-".into()
        };
        let row = format!(
            "{input}\t{mode}\t{lines}\t{sents}\t{chars}\t{toks}\t{unks}\t{:.5}\t{acc}\t{secs:.1}",
            unks as f64 / toks.max(1) as f64
        );
        eprintln!("{row}");
        if let Some(sp) = &stats_path {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(sp)
                .unwrap();
            writeln!(f, "{row}").unwrap();
        }
        // the most frequent unknown surfaces and the unknown categories, for tuning char.def / unk.def
        let mut v: Vec<(&String, &u64)> = unk_counts.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut uf = BufWriter::new(File::create(format!("{output}.unk")).unwrap());
        let mut cats: Vec<_> = unk_cat.iter().collect();
        cats.sort();
        for (c, n) in cats {
            writeln!(uf, "#{c}\t{n}").unwrap();
        }
        for (s, n) in v.iter().take(300) {
            writeln!(uf, "{s}\t{n}").unwrap();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cost vibrato gets for each `surface/reading/lid/rid` key.
    fn costs(lex: &str, preferred: &Preferred) -> Vec<(String, i16)> {
        let path = std::env::temp_dir().join(format!("henkan-tokenize-{}.tsv", std::process::id()));
        std::fs::write(&path, lex).unwrap();
        let (entries, csv) = load_lex(path.to_str().unwrap(), preferred);
        std::fs::remove_file(&path).unwrap();
        csv.lines()
            .zip(&entries)
            .map(|(line, e)| {
                (
                    e.key.clone(),
                    line.split(',').nth(3).unwrap().parse().unwrap(),
                )
            })
            .collect()
    }

    /// A preferred reading takes the lowest cost of its spelling and POS ids, the others go one
    /// above it; entries of other POS ids keep theirs.
    #[test]
    fn a_preferred_reading_takes_the_lowest_cost() {
        let lex =
            "かみ\t1856\t1856\t440\t上\nうえ\t1856\t1856\t574\t上\nじょう\t1856\t1856\t696\t上\n\
                   うえ\t2001\t2001\t306\t上\nかみ\t1851\t1851\t3000\t紙\n";
        let plain = costs(lex, &Preferred::new());
        assert_eq!(plain[0], ("上/かみ/1856/1856".into(), 440));
        assert_eq!(plain[1], ("上/うえ/1856/1856".into(), 574));
        let mut preferred = Preferred::new();
        preferred.insert(("上".into(), 1856, 1856), "うえ".into());
        let told = costs(lex, &preferred);
        assert_eq!(
            told,
            [
                ("上/かみ/1856/1856".to_string(), 441),
                ("上/うえ/1856/1856".to_string(), 440),
                ("上/じょう/1856/1856".to_string(), 696),
                ("上/うえ/2001/2001".to_string(), 306),
                ("紙/かみ/1851/1851".to_string(), 3000),
            ]
        );
    }
}
