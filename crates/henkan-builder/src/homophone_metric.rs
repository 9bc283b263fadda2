//! Builds the `HomophoneMetric` section ([`henkan::lm::homophone_metric`]) from the matrix
//! `training/homophone_metric.py` fits.

use crate::container::with_section;
use crate::error::{Error, Result};
use henkan::lm::coherence::Coherence;
use henkan::lm::homophone_metric::HomophoneMetric;
use henkan::model::{Container, SectionKind};

/// Adds (or replaces) the `HomophoneMetric` section of `model`: `matrix` is the symmetric
/// matrix as little-endian f32, row-major, of the coherence's dimensions squared. Returns the
/// new model and the section's size.
pub fn attach_homophone_metric(model: Vec<u8>, matrix: &[u8]) -> Result<(Vec<u8>, usize)> {
    let container = Container::from_bytes(model)?;
    let coherence = Coherence::from_section(container.require(SectionKind::Coherence)?.as_ref())?;
    let dims = coherence.dims();
    if matrix.len() != dims * dims * 4 {
        return Err(Error::Build(format!(
            "homophone metric: {} bytes, want {dims} × {dims} f32",
            matrix.len()
        )));
    }
    let a: Vec<f32> = matrix
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if a.iter().any(|x| !x.is_finite()) {
        return Err(Error::Build(
            "homophone metric: a cell is not finite".into(),
        ));
    }
    for i in 0..dims {
        for j in 0..i {
            if (a[i * dims + j] - a[j * dims + i]).abs() > 1e-4 {
                return Err(Error::Build(format!(
                    "homophone metric: not symmetric at ({i}, {j})"
                )));
            }
        }
    }
    let bytes = HomophoneMetric::to_section(&a, dims);
    let n = bytes.len();
    Ok((
        with_section(&container, SectionKind::HomophoneMetric, bytes),
        n,
    ))
}
