//! x86_64 AVX2 + FMA kernels (detected at run time).

use std::arch::x86_64::*;

/// Whether this CPU has AVX2 and FMA (cached by std).
#[inline]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// `Σ a[i]·b[i]`; `a` and `b` have equal lengths.
///
/// # Safety
/// The CPU must support AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let mut acc0 = _mm256_setzero_ps();
    let mut acc1 = _mm256_setzero_ps();
    let mut i = 0;
    let pa = a.as_ptr();
    let pb = b.as_ptr();
    while i + 16 <= n {
        // SAFETY: i + 16 <= n, so both 8-lane loads at i and i + 8 are in bounds.
        unsafe {
            acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(pa.add(i)), _mm256_loadu_ps(pb.add(i)), acc0);
            acc1 = _mm256_fmadd_ps(
                _mm256_loadu_ps(pa.add(i + 8)),
                _mm256_loadu_ps(pb.add(i + 8)),
                acc1,
            );
        }
        i += 16;
    }
    while i + 8 <= n {
        // SAFETY: i + 8 <= n.
        unsafe {
            acc0 = _mm256_fmadd_ps(_mm256_loadu_ps(pa.add(i)), _mm256_loadu_ps(pb.add(i)), acc0);
        }
        i += 8;
    }
    let acc = _mm256_add_ps(acc0, acc1);
    let hi = _mm256_extractf128_ps(acc, 1);
    let lo = _mm256_castps256_ps128(acc);
    let s4 = _mm_add_ps(hi, lo);
    let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    let s1 = _mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1));
    let mut s = _mm_cvtss_f32(s1);
    while i < n {
        s += a[i] * b[i];
        i += 1;
    }
    s
}

#[target_feature(enable = "avx2,fma")]
unsafe fn hsum(v: __m256) -> f32 {
    let hi = _mm256_extractf128_ps(v, 1);
    let lo = _mm256_castps256_ps128(v);
    let s4 = _mm_add_ps(hi, lo);
    let s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1)))
}

/// `out[s] = row · states[s·dim..]` for `out.len()` states, four states per pass over the
/// row (the row's loads are shared).
///
/// # Safety
/// The CPU must support AVX2 and FMA; `row.len() >= dim`, `states.len() >= out.len()·dim`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn row_times_states(row: &[f32], states: &[f32], dim: usize, out: &mut [f32]) {
    let n = out.len();
    assert!(row.len() >= dim && states.len() >= n * dim);
    let pr = row.as_ptr();
    let ps = states.as_ptr();
    let main = dim / 8 * 8;
    let mut s = 0;
    while s + 4 <= n {
        let (mut a0, mut a1, mut a2, mut a3) = (
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
            _mm256_setzero_ps(),
        );
        let mut j = 0;
        while j < main {
            // SAFETY: j + 8 <= dim <= row.len(); state s + 3 ends at (s + 4)·dim <= states.len().
            unsafe {
                let r = _mm256_loadu_ps(pr.add(j));
                a0 = _mm256_fmadd_ps(r, _mm256_loadu_ps(ps.add(s * dim + j)), a0);
                a1 = _mm256_fmadd_ps(r, _mm256_loadu_ps(ps.add((s + 1) * dim + j)), a1);
                a2 = _mm256_fmadd_ps(r, _mm256_loadu_ps(ps.add((s + 2) * dim + j)), a2);
                a3 = _mm256_fmadd_ps(r, _mm256_loadu_ps(ps.add((s + 3) * dim + j)), a3);
            }
            j += 8;
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
