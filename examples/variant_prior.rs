//! Experiment: a spelling-variant prior from the annotated training corpora, applied to the
//! hybrid's final beam. Counts (reading, spelling) along the gold paths of KWDLC/WAC train
//! (lattice units), then re-ranks each dev sentence's final beam by
//! `score + μ · Σ prior(node)`, prior ≤ 0 for a spelling that the corpus writes less often
//! than one of its variants (same reading and POS, same kanji skeleton; kanji numerals vs
//! digits).
//!
//! Usage: `cargo run --release --example variant_prior -- MODEL DEV.tsv full|half TRAIN.tok...`
//! (`RULES=kana|num|both`; `MIN_BEST=N MIN_RATIO=R`: only variants seen N times and R times as
//! often; `BIAS_OUT=FILE`: write every lexicon entry's prior as word biases instead)
mod common;

use henkan::build::gold::{fold, GoldAligner};
use henkan::Engine;
use std::collections::HashMap;

const MUS: [f32; 8] = [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0];

fn is_kana(c: char) -> bool {
    ('\u{3041}'..='\u{309F}').contains(&c)
}

fn is_numeral(c: char) -> bool {
    "〇一二三四五六七八九十百千".contains(c)
}

/// The kanji skeleton: hiragana dropped, digits and kanji numerals as '#'.
fn skeleton(s: &str) -> String {
    s.chars()
        .filter(|&c| !is_kana(c))
        .map(|c| {
            if c.is_ascii_digit() || is_numeral(c) {
                '#'
            } else {
                c
            }
        })
        .collect()
}

fn variants(a: &str, b: &str) -> bool {
    let (x, y) = (skeleton(a), skeleton(b));
    x.contains(&y) || y.contains(&x)
}

/// Kanji numeral words as digits: 一年 → 1年, 十円 → 10円, 二百件 → 200件 (None when the
/// word has no numeral or an unusual one).
fn digitize(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    let start = chars.iter().position(|&c| is_numeral(c))?;
    let mut end = start;
    while end < chars.len() && is_numeral(chars[end]) {
        end += 1;
    }
    let (mut total, mut cur) = (0u64, 0u64);
    for &c in &chars[start..end] {
        let d = "〇一二三四五六七八九".chars().position(|x| x == c);
        match (d, c) {
            (Some(d), _) => cur = cur * 10 + d as u64,
            (None, '十') => {
                total += cur.max(1) * 10;
                cur = 0
            }
            (None, '百') => {
                total += cur.max(1) * 100;
                cur = 0
            }
            (None, '千') => {
                total += cur.max(1) * 1000;
                cur = 0
            }
            _ => return None,
        }
    }
    total += cur;
    let mut out: String = chars[..start].iter().collect();
    out += &total.to_string();
    out.extend(&chars[end..]);
    Some(out)
}

struct Counts {
    /// Which rules: "kana", "num" or "both".
    rules: String,
    /// (reading, left, right) → spelling → count (single nodes)
    single: HashMap<(String, u16, u16), HashMap<String, u32>>,
    /// reading → spelling → count (spans of 1–3 nodes)
    spans: HashMap<String, HashMap<String, u32>>,
}

impl Counts {
    fn prior(&self, reading: &str, surface: &str, left: u16, right: u16) -> f32 {
        let s: String = surface.chars().map(fold).collect();
        let mut p = 0.0f32;
        let kana = self.rules != "num";
        let num = self.rules != "kana";
        if let Some(m) = self
            .single
            .get(&(reading.to_string(), left, right))
            .filter(|_| kana)
        {
            let n = *m.get(&s).unwrap_or(&0);
            let best = m
                .iter()
                .filter(|(o, _)| **o != s && variants(o, &s))
                .map(|(_, &c)| c)
                .max()
                .unwrap_or(0);
            let min_best: u32 = std::env::var("MIN_BEST").map_or(0, |v| v.parse().unwrap());
            let min_ratio: f32 = std::env::var("MIN_RATIO").map_or(1.0, |v| v.parse().unwrap());
            if best > n && best >= min_best && (best + 1) as f32 >= min_ratio * (n + 1) as f32 {
                p = p.min(((n + 1) as f32 / (best + 1) as f32).ln());
            }
        }
        if let (true, Some(d), Some(m)) = (num, digitize(&s), self.spans.get(reading)) {
            let n = *m.get(&s).unwrap_or(&0);
            let nd = *m.get(&d).unwrap_or(&0);
            if nd > n {
                p = p.min(((n + 1) as f32 / (nd + 1) as f32).ln());
            }
        }
        p
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = Engine::from_bytes(std::fs::read(&args[1]).unwrap()).unwrap();
    let half = args[3] == "half";
    let mut counts = Counts {
        rules: std::env::var("RULES").unwrap_or_else(|_| "both".into()),
        single: HashMap::new(),
        spans: HashMap::new(),
    };
    let mut aligner = GoldAligner::new();
    let (mut total, mut aligned) = (0, 0);
    for path in &args[4..] {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let (mut reading, mut text) = (String::new(), String::new());
            for tok in line.split(' ') {
                let mut it = tok.split('/');
                let (Some(s), Some(r)) = (it.next(), it.next()) else {
                    continue;
                };
                text += s;
                reading += r;
            }
            total += 1;
            let Some(p) = aligner.align(&engine, &reading, &text, |_| 0) else {
                continue;
            };
            aligned += 1;
            let lat = aligner.lattice();
            let nodes = lat.nodes();
            let surf: Vec<String> = p
                .iter()
                .map(|&i| {
                    lat.surface(&engine.lexicon, &nodes[i as usize])
                        .chars()
                        .map(fold)
                        .collect()
                })
                .collect();
            for (k, &i) in p.iter().enumerate() {
                let n = nodes[i as usize];
                let r = lat.span(n.begin as usize, n.end as usize).to_string();
                *counts
                    .single
                    .entry((r, n.left_id, n.right_id))
                    .or_default()
                    .entry(surf[k].clone())
                    .or_default() += 1;
                for len in 1..=3 {
                    if k + len > p.len() {
                        break;
                    }
                    let last = nodes[p[k + len - 1] as usize];
                    let r = lat.span(n.begin as usize, last.end as usize).to_string();
                    let s: String = surf[k..k + len].concat();
                    *counts.spans.entry(r).or_default().entry(s).or_default() += 1;
                }
            }
        }
    }
    eprintln!("{aligned} of {total} training sentences aligned");
    if let Ok(r) = std::env::var("SHOW") {
        eprintln!("{r}: {:?}", counts.spans.get(&r));
        for (k, v) in counts.single.iter().filter(|(k, _)| k.0 == r) {
            eprintln!("  {k:?}: {v:?}");
        }
    }
    if let Ok(path) = std::env::var("BIAS_OUT") {
        // every lexicon entry's prior as a word bias (`eval conversion --bias-file`)
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let lex = &engine.lexicon;
        lex.for_each_entry(|reading, e| {
            let surface = lex.surface_text(&e.surface, reading);
            let p = counts.prior(reading, &surface, e.left_id, e.right_id);
            if p != 0.0 {
                writeln!(out, "{}\t{p}", e.offset).unwrap();
            }
        });
        return;
    }
    let lm = engine.neural.as_ref().unwrap();
    let mut s = common::session("hybrid", half, 10);
    let mut ok = [0usize; MUS.len()];
    let mut n = 0;
    for line in std::fs::read_to_string(&args[2]).unwrap().lines() {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        n += 1;
        s.clear();
        let _ = s.convert_reading(&engine, reading);
        let finals = s.neural_decoder().finals(&engine.connection, lm);
        let lat = s.lattice();
        let nodes = lat.nodes();
        let cands: Vec<(f32, f32, String)> = finals
            .iter()
            .map(|(score, path)| {
                let mut prior = 0.0;
                let mut text = String::new();
                for &i in path {
                    let nd = nodes[i as usize];
                    let surface = lat.surface(&engine.lexicon, &nd);
                    let r = lat.span(nd.begin as usize, nd.end as usize);
                    prior += counts.prior(r, &surface, nd.left_id, nd.right_id);
                    text += &surface;
                }
                (*score, prior, text)
            })
            .collect();
        for (m, &mu) in MUS.iter().enumerate() {
            let best = cands
                .iter()
                .enumerate()
                .max_by(|(i, x), (j, y)| {
                    (x.0 + mu * x.1).total_cmp(&(y.0 + mu * y.1)).then(j.cmp(i))
                })
                .map(|(i, _)| i);
            ok[m] += usize::from(best.is_some_and(|i| cands[i].2 == want));
        }
    }
    let row: Vec<String> = MUS
        .iter()
        .zip(ok)
        .map(|(m, k)| format!("{m}: {:.2} ({k})", 100.0 * k as f64 / n.max(1) as f64))
        .collect();
    println!("{n} sentences  {}", row.join("  "));
}
