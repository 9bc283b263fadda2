//! Writes the segmenter section (the layout is [`henkan::pos::Segmenter`]'s): segment boundary
//! rules compiled to classes, and Mozc's POS groups as a trailer.

use crate::error::{Error, Result};
use henkan::model::SectionBytes;
use henkan::pos::{Segmenter, GROUPS_MAGIC};

/// The segmenter section `section` with Mozc's POS groups ([`GROUPS_MAGIC`]) set to `groups`
/// (a mask of [`henkan::pos::PosGroup`] bits per POS id); a trailer it already has is replaced.
pub fn with_pos_groups(section: &[u8], groups: &[u32]) -> Result<Vec<u8>> {
    let seg = Segmenter::new(SectionBytes::from_vec(section.to_vec()))?;
    let n = seg.num_ids();
    if groups.len() != n {
        return Err(Error::Build(format!(
            "POS groups for {} ids, the segmenter has {n}",
            groups.len()
        )));
    }
    let end = seg.table_end();
    let mut out = section[..end].to_vec();
    out.extend_from_slice(GROUPS_MAGIC);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    for g in groups {
        out.extend_from_slice(&g.to_le_bytes());
    }
    Ok(out)
}

/// Writes a segmenter section from a boundary predicate over POS ids.
///
/// Ids are grouped into classes by their behaviour (`signature_left[id]`,
/// `signature_right[id]` are any keys that are equal exactly for ids that behave alike,
/// e.g. the set of rules they match), and the table holds one bit per class pair.
pub fn write_segmenter<K: std::hash::Hash + Eq + Clone>(
    signature_left: &[K],
    signature_right: &[K],
    is_boundary: impl Fn(usize, usize) -> bool,
) -> Vec<u8> {
    fn classes<K: std::hash::Hash + Eq + Clone>(sig: &[K]) -> (Vec<u16>, Vec<usize>) {
        let mut m = std::collections::HashMap::new();
        let mut reps = Vec::new();
        let cls = sig
            .iter()
            .enumerate()
            .map(|(i, k)| {
                *m.entry(k.clone()).or_insert_with(|| {
                    reps.push(i);
                    (reps.len() - 1) as u16
                })
            })
            .collect();
        (cls, reps)
    }
    let (lc, lreps) = classes(signature_left);
    let (rc, rreps) = classes(signature_right);
    let n = signature_left.len();
    let mut out = Vec::new();
    for v in [n as u32, lreps.len() as u32, rreps.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in lc.iter().chain(rc.iter()) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut bits = vec![0u8; (lreps.len() * rreps.len()).div_ceil(8)];
    for (li, &l) in lreps.iter().enumerate() {
        for (ri, &r) in rreps.iter().enumerate() {
            if is_boundary(l, r) {
                let bit = li * rreps.len() + ri;
                bits[bit / 8] |= 1 << (bit % 8);
            }
        }
    }
    out.extend_from_slice(&bits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::pos::PosGroup;

    #[test]
    fn pos_groups_ride_on_the_segmenter_section() {
        let sig: Vec<bool> = (0..4).map(|i| i % 2 == 0).collect();
        let plain = write_segmenter(&sig, &sig, |_, r| r % 2 == 0);
        let s = Segmenter::new(SectionBytes::from_vec(plain.clone())).unwrap();
        assert!(!s.has_groups());
        assert!(!s.in_group(1, PosGroup::TeSuffix));
        let masks = [0, 1 << (PosGroup::TeSuffix as u32), 0, u32::MAX];
        let with = with_pos_groups(&plain, &masks).unwrap();
        let s = Segmenter::new(SectionBytes::from_vec(with.clone())).unwrap();
        assert!(s.has_groups());
        assert!(s.in_group(1, PosGroup::TeSuffix));
        assert!(!s.in_group(1, PosGroup::VerbSuffix));
        assert!(PosGroup::ALL.iter().all(|&g| s.in_group(3, g)));
        assert!(!s.in_group(2, PosGroup::TeSuffix) && !s.in_group(9, PosGroup::TeSuffix));
        // the boundaries are the same with or without the groups
        assert!(s.is_boundary(1, 2) && !s.is_boundary(0, 3));
        assert_eq!(with_pos_groups(&with, &masks).unwrap(), with);
        assert!(with_pos_groups(&plain, &masks[..3]).is_err());
        for cut in [1, 4, 13] {
            let b = with[..with.len() - cut].to_vec();
            assert!(
                Segmenter::new(SectionBytes::from_vec(b)).is_err(),
                "cut {cut}"
            );
        }
    }

    #[test]
    fn segmenter_classes() {
        // ids 0..4: even ids are "content", odd "function"; boundary before content
        let sig: Vec<bool> = (0..4).map(|i| i % 2 == 0).collect();
        let b = write_segmenter(&sig, &sig, |_, r| r % 2 == 0);
        let s = Segmenter::new(SectionBytes::from_vec(b)).unwrap();
        assert!(s.is_boundary(1, 2));
        assert!(!s.is_boundary(0, 3));
        assert!(s.is_boundary(100, 3));
    }
}
