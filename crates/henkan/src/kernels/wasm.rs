//! wasm32 `simd128` kernels (compiled in when the target feature is on).

use core::arch::wasm32::*;

/// `Σ a[i]·b[i]`; `a` and `b` have equal lengths.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let mut acc0 = f32x4_splat(0.0);
    let mut acc1 = f32x4_splat(0.0);
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: i + 8 <= n, so the two 4-lane unaligned loads at i and i + 4 are in
        // bounds of both slices; v128_load has no alignment requirement.
        unsafe {
            let pa = a.as_ptr().add(i) as *const v128;
            let pb = b.as_ptr().add(i) as *const v128;
            acc0 = f32x4_add(acc0, f32x4_mul(v128_load(pa), v128_load(pb)));
            acc1 = f32x4_add(acc1, f32x4_mul(v128_load(pa.add(1)), v128_load(pb.add(1))));
        }
        i += 8;
    }
    let acc = f32x4_add(acc0, acc1);
    let mut s = (f32x4_extract_lane::<0>(acc) + f32x4_extract_lane::<1>(acc))
        + (f32x4_extract_lane::<2>(acc) + f32x4_extract_lane::<3>(acc));
    while i < n {
        s += a[i] * b[i];
        i += 1;
    }
    s
}

#[inline]
fn hsum(v: v128) -> f32 {
    (f32x4_extract_lane::<0>(v) + f32x4_extract_lane::<1>(v))
        + (f32x4_extract_lane::<2>(v) + f32x4_extract_lane::<3>(v))
}

/// `out[s] = row · states[s·dim..]` for `out.len()` states, four states per pass over the
/// row. Callers check `row.len() >= dim` and `states.len() >= out.len()·dim`.
pub fn row_times_states(row: &[f32], states: &[f32], dim: usize, out: &mut [f32]) {
    let n = out.len();
    assert!(row.len() >= dim && states.len() >= n * dim);
    let main = dim / 4 * 4;
    let pr = row.as_ptr();
    let ps = states.as_ptr();
    let mut s = 0;
    while s + 4 <= n {
        let (mut a0, mut a1, mut a2, mut a3) = (
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
        );
        let mut j = 0;
        while j < main {
            // SAFETY: j + 4 <= dim <= row.len(), and state s + 3 ends at (s + 4)·dim <=
            // states.len(); v128_load has no alignment requirement.
            unsafe {
                let r = v128_load(pr.add(j) as *const v128);
                a0 = f32x4_add(
                    a0,
                    f32x4_mul(r, v128_load(ps.add(s * dim + j) as *const v128)),
                );
                a1 = f32x4_add(
                    a1,
                    f32x4_mul(r, v128_load(ps.add((s + 1) * dim + j) as *const v128)),
                );
                a2 = f32x4_add(
                    a2,
                    f32x4_mul(r, v128_load(ps.add((s + 2) * dim + j) as *const v128)),
                );
                a3 = f32x4_add(
                    a3,
                    f32x4_mul(r, v128_load(ps.add((s + 3) * dim + j) as *const v128)),
                );
            }
            j += 4;
        }
        let mut t = [hsum(a0), hsum(a1), hsum(a2), hsum(a3)];
        for (k, v) in t.iter_mut().enumerate() {
            for jj in main..dim {
                *v += row[jj] * states[(s + k) * dim + jj];
            }
        }
        out[s..s + 4].copy_from_slice(&t);
        s += 4;
    }
    while s < n {
        out[s] = dot(&row[..dim], &states[s * dim..(s + 1) * dim]);
        s += 1;
    }
}
