//! Writes the connection section (the layout is [`henkan::pos::Connection`]'s): Mozc's matrix
//! with equal rows and columns shared, costs quantized, optionally clustered by k-means, and
//! Mozc's boundary penalties as a trailer.

use crate::error::{Error, Result};
use henkan::model::SectionBytes;
use henkan::pos::{Connection, SpecialIds, EDGE_MAGIC};

/// The connection section `section` with its boundary penalties ([`EDGE_MAGIC`]) set to
/// `prefix` (by left id) and `suffix` (by right id), one per POS id; a trailer it already has
/// is replaced. The matrix itself is unchanged.
pub fn with_boundary_penalties(section: &[u8], prefix: &[u16], suffix: &[u16]) -> Result<Vec<u8>> {
    let conn = Connection::new(SectionBytes::from_vec(section.to_vec()))?;
    let n = conn.num_ids();
    if prefix.len() != n || suffix.len() != n {
        return Err(Error::Build(format!(
            "boundary penalties for {}/{} ids, the matrix has {n}",
            prefix.len(),
            suffix.len()
        )));
    }
    let mut out = section[..conn.matrix_end()].to_vec();
    out.extend_from_slice(EDGE_MAGIC);
    out.extend_from_slice(&(n as u32).to_le_bytes());
    for v in prefix.iter().chain(suffix) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(out)
}

/// Writes a connection section from a full matrix `m[left][right]` (row-major `n × n`).
///
/// Ids whose rows (columns) are equal after quantization share one row (column). `step`
/// is the quantization step; `width` 1 stores `min(cost / step, 255)` in a byte, 2 an i16.
pub fn write_connection(
    n: usize,
    matrix: &[i16],
    step: i32,
    width: usize,
    special: SpecialIds,
) -> Vec<u8> {
    assert_eq!(matrix.len(), n * n);
    let q = |v: i16| -> i32 {
        let x = (v as f64 / step as f64).round() as i32;
        if width == 1 {
            x.clamp(0, 255)
        } else {
            x.clamp(i16::MIN as i32, i16::MAX as i32)
        }
    };
    // rows: left ids
    let mut row_of = std::collections::HashMap::<Vec<i32>, u16>::new();
    let mut rows: Vec<Vec<i32>> = Vec::new();
    let mut left_map = Vec::with_capacity(n);
    for l in 0..n {
        let row: Vec<i32> = matrix[l * n..(l + 1) * n].iter().map(|&v| q(v)).collect();
        let id = *row_of.entry(row.clone()).or_insert_with(|| {
            rows.push(row);
            (rows.len() - 1) as u16
        });
        left_map.push(id);
    }
    let mut col_of = std::collections::HashMap::<Vec<i32>, u16>::new();
    let mut cols: Vec<Vec<i32>> = Vec::new();
    let mut right_map = Vec::with_capacity(n);
    for r in 0..n {
        let col: Vec<i32> = rows.iter().map(|row| row[r]).collect();
        let id = *col_of.entry(col.clone()).or_insert_with(|| {
            cols.push(col);
            (cols.len() - 1) as u16
        });
        right_map.push(id);
    }
    let (n_left, n_right) = (rows.len(), cols.len());
    let mut out = Vec::new();
    for v in [
        n as u32,
        n_left as u32,
        n_right as u32,
        step as u32,
        width as u32,
        special.noun as u32 | (special.proper_noun as u32) << 16,
        special.number as u32 | (special.alphabet as u32) << 16,
        special.symbol as u32,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in left_map.iter().chain(right_map.iter()) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for row in 0..n_left {
        for col in cols.iter() {
            let v = col[row];
            if width == 1 {
                out.push(v as u8);
            } else {
                out.extend_from_slice(&(v as i16).to_le_bytes());
            }
        }
    }
    out
}

/// Clusters the POS ids of a connection matrix `m[left][right]` (row-major `n × n`) into
/// `k_left` row classes and `k_right` column classes with k-means (Lloyd's algorithm,
/// deterministic start), and returns the matrix with every cell replaced by the mean of
/// its class pair — ready for [`write_connection`], whose row/column merging then stores
/// only `k_left × k_right` cells. Id 0 (BOS/EOS) keeps a class of its own on both sides.
pub fn cluster_connection(
    n: usize,
    m: &[i16],
    k_left: usize,
    k_right: usize,
    iters: usize,
) -> Vec<i16> {
    assert_eq!(m.len(), n * n);
    let rows: Vec<Vec<f32>> = (0..n)
        .map(|l| m[l * n..(l + 1) * n].iter().map(|&v| v as f32).collect())
        .collect();
    let left = kmeans(&rows, k_left, iters);
    // columns, described by their values over the left classes' centroids is lossy;
    // use the full columns instead.
    let cols: Vec<Vec<f32>> = (0..n)
        .map(|r| (0..n).map(|l| m[l * n + r] as f32).collect())
        .collect();
    let right = kmeans(&cols, k_right, iters);
    let kl = left.iter().copied().max().unwrap_or(0) + 1;
    let kr = right.iter().copied().max().unwrap_or(0) + 1;
    let mut sum = vec![0f64; kl * kr];
    let mut cnt = vec![0u32; kl * kr];
    for l in 0..n {
        for r in 0..n {
            let c = left[l] * kr + right[r];
            sum[c] += m[l * n + r] as f64;
            cnt[c] += 1;
        }
    }
    let mut out = vec![0i16; n * n];
    for l in 0..n {
        for r in 0..n {
            let c = left[l] * kr + right[r];
            out[l * n + r] = (sum[c] / cnt[c].max(1) as f64).round() as i16;
        }
    }
    out
}

/// k-means over vectors; item 0 is pinned to a class of its own. Returns class per item.
fn kmeans(items: &[Vec<f32>], k: usize, iters: usize) -> Vec<usize> {
    let n = items.len();
    if k >= n || n == 0 {
        return (0..n).collect();
    }
    let dim = items[0].len();
    let dist =
        |a: &[f32], b: &[f32]| -> f32 { a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum() };
    // deterministic farthest-point start (k-means++ without randomness), item 0 first
    let mut centers: Vec<Vec<f32>> = vec![items[0].clone()];
    let mut nearest: Vec<f32> = items.iter().map(|x| dist(x, &items[0])).collect();
    while centers.len() < k {
        let (far, _) =
            nearest.iter().enumerate().fold(
                (0, -1.0f32),
                |acc, (i, &d)| if d > acc.1 { (i, d) } else { acc },
            );
        if nearest[far] <= 0.0 {
            break;
        }
        centers.push(items[far].clone());
        for (i, x) in items.iter().enumerate() {
            nearest[i] = nearest[i].min(dist(x, &items[far]));
        }
    }
    let k = centers.len();
    let mut assign = vec![0usize; n];
    for _ in 0..iters.max(1) {
        let mut changed = false;
        for (i, x) in items.iter().enumerate() {
            let best = if i == 0 {
                0
            } else {
                (1..k)
                    .map(|c| (c, dist(x, &centers[c])))
                    .fold(
                        (1, f32::MAX),
                        |acc, (c, d)| if d < acc.1 { (c, d) } else { acc },
                    )
                    .0
            };
            if assign[i] != best {
                assign[i] = best;
                changed = true;
            }
        }
        let mut sums = vec![vec![0f32; dim]; k];
        let mut counts = vec![0usize; k];
        for (i, x) in items.iter().enumerate() {
            counts[assign[i]] += 1;
            for (s, v) in sums[assign[i]].iter_mut().zip(x) {
                *s += v;
            }
        }
        for c in 0..k {
            if counts[c] > 0 {
                for s in sums[c].iter_mut() {
                    *s /= counts[c] as f32;
                }
                centers[c] = std::mem::take(&mut sums[c]);
            }
        }
        if !changed {
            break;
        }
    }
    // renumber densely
    let mut map = vec![usize::MAX; k];
    let mut next = 0;
    for a in assign.iter_mut() {
        if map[*a] == usize::MAX {
            map[*a] = next;
            next += 1;
        }
        *a = map[*a];
    }
    assign
}

#[cfg(test)]
mod tests {
    use super::*;
    use henkan::pos::INFINITE_COST;

    #[test]
    fn connection_round_trip_and_dedup() {
        // 3 ids; rows 1 and 2 equal
        let m: Vec<i16> = vec![0, 10, 20, 30, 40, 50, 30, 40, 50];
        let b = write_connection(3, &m, 1, 2, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(b)).unwrap();
        for l in 0..3u16 {
            for r in 0..3u16 {
                assert_eq!(c.cost(r, l), m[l as usize * 3 + r as usize] as i32);
            }
        }
        assert_eq!(c.cost(5, 0), INFINITE_COST);
        let q = write_connection(3, &m, 10, 1, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(q)).unwrap();
        assert_eq!(c.cost(2, 1), 50);
    }

    #[test]
    fn boundary_penalties_charge_only_the_edges() {
        let m: Vec<i16> = vec![0, 10, 20, 30, 40, 50, 60, 70, 80];
        let plain = write_connection(3, &m, 1, 2, SpecialIds::default());
        let c = Connection::new(SectionBytes::from_vec(plain.clone())).unwrap();
        assert!(!c.has_boundary_penalties());
        let with = with_boundary_penalties(&plain, &[0, 1000, 2000], &[0, 300, 7000]).unwrap();
        let c = Connection::new(SectionBytes::from_vec(with.clone())).unwrap();
        assert!(c.has_boundary_penalties());
        // BOS -> id (m[id][0]) pays the prefix penalty, id -> EOS (m[0][id]) the suffix one
        assert_eq!(c.cost(0, 1), 30 + 1000);
        assert_eq!(c.cost(0, 2), 60 + 2000);
        assert_eq!(c.cost(1, 0), 10 + 300);
        assert_eq!(c.cost(2, 0), 20 + 7000);
        assert_eq!(c.cost(0, 0), 0);
        for l in 1..3u16 {
            for r in 1..3u16 {
                assert_eq!(c.cost(r, l), m[l as usize * 3 + r as usize] as i32);
            }
        }
        // replacing the trailer, not stacking it
        let again = with_boundary_penalties(&with, &[0, 5, 5], &[0, 5, 5]).unwrap();
        assert_eq!(again.len(), with.len());
        let c = Connection::new(SectionBytes::from_vec(again)).unwrap();
        assert_eq!(c.cost(0, 1), 35);
        // one penalty per id
        assert!(with_boundary_penalties(&plain, &[0, 1], &[0, 1, 2]).is_err());
        // a damaged trailer is an error, not a silent zero
        for cut in [1, 4, 9, 13] {
            let b = with[..with.len() - cut].to_vec();
            assert!(
                Connection::new(SectionBytes::from_vec(b)).is_err(),
                "cut {cut}"
            );
        }
        let mut b = with.clone();
        b[plain.len()] ^= 1;
        assert!(Connection::new(SectionBytes::from_vec(b)).is_err());
    }

    #[test]
    fn truncated_sections_are_errors() {
        let m: Vec<i16> = vec![0, 1, 2, 3];
        let b = write_connection(2, &m, 1, 2, SpecialIds::default());
        for len in 0..b.len() {
            assert!(Connection::new(SectionBytes::from_vec(b[..len].to_vec())).is_err());
        }
    }
}
