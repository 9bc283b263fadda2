//! Writes the `PredictBias` section (the layout is [`henkan::predict::adapt`]'s): a logit
//! offset per LM word for next-word prediction, fitted by `training/fit_predict_bias.py`.

use henkan::predict::adapt::PREDICT_BIAS_MAGIC;

/// The `PredictBias` section ([`henkan::predict::adapt`]) of `offsets` rounded to multiples of `step` (clamped to ±127 steps).
pub fn predict_bias_section(offsets: &[f32], step: f32) -> Vec<u8> {
    let mut out = PREDICT_BIAS_MAGIC.to_vec();
    out.extend_from_slice(&(offsets.len() as u32).to_le_bytes());
    out.extend_from_slice(&step.to_le_bytes());
    out.extend(
        offsets
            .iter()
            .map(|&d| (d / step).round().clamp(-127.0, 127.0) as i8 as u8),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::predict::adapt::from_section;

    #[test]
    fn round_trip_in_steps() {
        let d = [0.0, 0.51, -1.0, 9.0, -0.024];
        let s = predict_bias_section(&d, 0.05);
        let r = from_section(&s, 5).unwrap();
        let want = [0.0, 0.5, -1.0, 6.35, 0.0];
        for (a, b) in r.iter().zip(want) {
            assert!((a - b).abs() < 1e-5, "{r:?}");
        }
    }

    #[test]
    fn malformed_sections_are_errors() {
        let s = predict_bias_section(&[0.1, 0.2], 0.05);
        assert!(from_section(&s, 3).is_err(), "another vocabulary");
        assert!(from_section(&s[..17], 2).is_err(), "truncated");
        assert!(from_section(&s[..4], 2).is_err());
        let mut m = s.clone();
        m[1] = b'x';
        assert!(from_section(&m, 2).is_err());
        let mut st = s;
        st[12..16].copy_from_slice(&0f32.to_le_bytes());
        assert!(from_section(&st, 2).is_err());
    }
}
