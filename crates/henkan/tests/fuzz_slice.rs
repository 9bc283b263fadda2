//! A short fixed-seed slice of each fuzzing run (`henkan fuzz`, `henkan::fuzz`) on the
//! shipped model: sections changed inside with a valid CRC, key storms through the IME in every
//! engine, and the download cut into random chunks. The long runs and their figures are in
//! docs/model-format.md ("Validation"); any panic here is a bug to fix, with the case printed
//! so that `henkan fuzz … --seed S` replays it.
#[path = "../../../tests/common/mod.rs"]
mod common;

use henkan::fuzz::{key_storm, model_mutations, stream_chunkings, ProbeRate, Report};

fn assert_no_panic(what: &str, r: &Report) {
    assert!(r.cases > 0, "{what}: no cases ran");
    assert_eq!(
        r.panic_count, 0,
        "{what}: {} panics in {} cases: {:#?}",
        r.panic_count, r.cases, r.panics
    );
}

#[test]
fn damaged_sections_never_panic_the_engine() {
    let base = common::shipped_engine();
    let rate = ProbeRate {
        probe_every: 1,
        reverse_every: 40,
    };
    let r = model_mutations(&base, 26, 120, rate);
    assert_no_panic("model mutations", &r);
    // most mutations are caught by a reader; some are harmless (a changed cost)
    assert!(r.refused > 0 && r.refused < r.cases, "{r:?}");
}

#[test]
fn key_storms_never_panic_the_ime() {
    let engine = common::shipped_engine();
    assert_no_panic("key events", &key_storm(&engine, 26, 6_000));
}

#[test]
fn any_chunking_of_the_download_reads_the_same_model() {
    assert_no_panic(
        "chunked downloads",
        &stream_chunkings(&common::shipped_bytes(), 26, 6),
    );
}
