//! Writes the hybrid's word biases ([`henkan::decoder::bias`]): the `WordBias` section, and the
//! `entry<TAB>bias<TAB>name` text files its builders (the digit prior) write.

use crate::container::replace_section;
use crate::error::{Error, Result};
use crate::lexicon::write_varint;
use henkan::decoder::bias::{WordBias, WORD_BIAS_MAGIC};
use henkan::model::SectionKind;
use std::collections::HashMap;

/// The `WordBias` section of `bias` ([`henkan::decoder::bias`]), weights rounded to multiples of `step` (clamped to ±127 steps;
/// entries that round to zero are left out).
pub fn word_bias_section(bias: &WordBias, step: f32) -> Vec<u8> {
    let kept: Vec<(u32, i8)> = bias
        .entries()
        .into_iter()
        .map(|(e, w)| (e, (w / step).round().clamp(-127.0, 127.0) as i8))
        .filter(|&(_, q)| q != 0)
        .collect();
    let mut out = WORD_BIAS_MAGIC.to_vec();
    out.extend_from_slice(&(kept.len() as u32).to_le_bytes());
    out.extend_from_slice(&step.to_le_bytes());
    let mut prev = 0u32;
    for &(e, _) in &kept {
        write_varint(&mut out, (e - prev) as u64);
        prev = e;
    }
    out.extend(kept.iter().map(|&(_, q)| q as u8));
    out
}

/// Writes biases as `entry<TAB>bias<TAB>surface/reading` lines (the names for people; only
/// the first two columns are read back).
pub fn write_tsv(bias: &WordBias, names: &HashMap<u32, String>) -> String {
    let mut out = String::new();
    for (e, w) in bias.entries() {
        let name = names.get(&e).map(String::as_str).unwrap_or("");
        out.push_str(&format!("{e}\t{w:.4}\t{name}\n"));
    }
    out
}

/// Adds (or replaces) the `WordBias` section of a model: the biases rounded to multiples of
/// `step` nats (default: [`WordBias::fitting_step`], at least 0.01). Returns the new model
/// and the section's size.
pub fn attach_bias(model: Vec<u8>, bias: &WordBias, step: Option<f32>) -> Result<(Vec<u8>, usize)> {
    let section = word_bias_section(bias, step.unwrap_or_else(|| bias.fitting_step(0.01)));
    let len = section.len();
    Ok((replace_section(model, SectionKind::WordBias, section)?, len))
}

/// Reads what [`write_tsv`] wrote.
pub fn read_tsv(text: &str) -> Result<WordBias> {
    let mut b = WordBias::new();
    for (k, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut f = line.split('\t');
        let e: u32 = f
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| Error::Build(format!("line {}: no entry", k + 1)))?;
        let w: f32 = f
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| Error::Build(format!("line {}: no bias", k + 1)))?;
        b.set(e, w);
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_round_trip_quantizes_to_the_step() {
        let mut b = WordBias::new();
        b.set(5, 0.5);
        b.set(300, -1.26);
        b.set(1 << 30, 3.0);
        b.set(7, 0.004); // rounds to zero: dropped
        let s = word_bias_section(&b, 0.02);
        let r = WordBias::from_section(&s).unwrap();
        assert_eq!(r.len(), 3);
        assert!((r.get(5) - 0.5).abs() < 1e-6);
        assert!((r.get(300) + 1.26).abs() < 1e-6);
        assert!((r.get(1 << 30) - 2.54).abs() < 1e-6, "clamped to 127 steps");
        assert_eq!(r.get(7), 0.0);
        assert_eq!(r.get(6), 0.0);
    }

    #[test]
    fn malformed_sections_are_errors() {
        let mut b = WordBias::new();
        b.set(1, 0.1);
        b.set(1000, -0.1);
        let s = word_bias_section(&b, 0.02);
        assert!(WordBias::from_section(&s[..s.len() - 1]).is_err());
        assert!(WordBias::from_section(&s[..10]).is_err());
        let mut wrong = s.clone();
        wrong[0] = b'X';
        assert!(WordBias::from_section(&wrong).is_err());
        let mut huge = s.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(WordBias::from_section(&huge).is_err());
        let mut step = s;
        step[12..16].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(WordBias::from_section(&step).is_err());
    }

    #[test]
    fn tsv_round_trip() {
        let mut b = WordBias::new();
        b.set(3, 0.5);
        b.set(70, -1.25);
        let names = HashMap::from([(3, "一年/いちねん".to_string())]);
        let text = write_tsv(&b, &names);
        assert_eq!(text, "3\t0.5000\t一年/いちねん\n70\t-1.2500\t\n");
        assert_eq!(read_tsv(&text).unwrap().entries(), b.entries());
        assert!(read_tsv("x\t1\n").is_err());
    }
}
