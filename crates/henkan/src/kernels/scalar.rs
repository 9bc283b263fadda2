//! Scalar reference kernels: the definitions the SIMD versions are tested against.

/// `Σ a[i]·b[i]` over the shorter length, accumulated in 4 lanes (the same association
/// order as the 4-wide SIMD kernels, so results agree closely).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let mut acc = [0.0f32; 4];
    let chunks = n / 4;
    for i in 0..chunks {
        for l in 0..4 {
            acc[l] += a[i * 4 + l] * b[i * 4 + l];
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for i in chunks * 4..n {
        s += a[i] * b[i];
    }
    s
}

/// Reads the `bits`-bit code number `i` (LSB first) from packed `codes`; 0 past the end.
#[inline]
pub fn code_at(codes: &[u8], bits: u32, i: usize) -> usize {
    let bit = i * bits as usize;
    let byte = bit / 8;
    let shift = bit % 8;
    let mut v: u32 = 0;
    for k in 0..3 {
        v |= u32::from(codes.get(byte + k).copied().unwrap_or(0)) << (8 * k);
    }
    ((v >> shift) & ((1u32 << bits) - 1)) as usize
}

/// Decodes codebook row `row` into `out[..dim]` (codes past the end decode to centroid 0).
pub fn decode_codebook_row(
    codes: &[u8],
    bits: u32,
    centroids: &[f32],
    row: usize,
    dim: usize,
    out: &mut [f32],
) {
    let base = row * dim;
    match bits {
        8 => {
            let src = codes.get(base..base + dim).unwrap_or(&[]);
            for (j, o) in out[..dim].iter_mut().enumerate() {
                *o = centroids[src.get(j).copied().unwrap_or(0) as usize];
            }
        }
        4 if dim % 2 == 0 => {
            let src = codes.get(base / 2..base / 2 + dim / 2).unwrap_or(&[]);
            for j in 0..dim / 2 {
                let b = src.get(j).copied().unwrap_or(0);
                out[2 * j] = centroids[(b & 15) as usize];
                out[2 * j + 1] = centroids[(b >> 4) as usize];
            }
        }
        _ => {
            let mask = (1u16 << bits) - 1;
            let mut bit = base * bits as usize;
            let end = (bit + dim * bits as usize).div_ceil(8);
            if end < codes.len() && bits <= 8 && centroids.len() >= 1 << bits {
                // fast path: every code is inside the two bytes at `bit / 8`
                for o in out[..dim].iter_mut() {
                    let at = bit >> 3;
                    let v = u16::from(codes[at]) | (u16::from(codes[at + 1]) << 8);
                    *o = centroids[((v >> (bit & 7)) & mask) as usize];
                    bit += bits as usize;
                }
            } else {
                for (j, o) in out[..dim].iter_mut().enumerate() {
                    *o = centroids[code_at(codes, bits, base + j).min(centroids.len() - 1)];
                }
            }
        }
    }
}

/// Decodes int8 row `row` into `out[..dim]` as `code · scale`.
pub fn decode_i8_row(codes: &[u8], scale: f32, row: usize, dim: usize, out: &mut [f32]) {
    let src = codes.get(row * dim..(row + 1) * dim).unwrap_or(&[]);
    for (j, o) in out[..dim].iter_mut().enumerate() {
        *o = f32::from(src.get(j).copied().unwrap_or(0) as i8) * scale;
    }
}
