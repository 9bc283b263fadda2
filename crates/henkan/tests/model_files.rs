//! Corrupt, truncated and foreign model files give typed errors, never a panic.
#[path = "../../../tests/common/mod.rs"]
mod common;

use common::*;
use henkan::model::{FORMAT_VERSION, MAGIC};
use henkan::{Engine, Error};

#[test]
fn the_tiny_model_loads() {
    let e = tiny_engine();
    assert!(e.meta().contains("entries=6"));
    assert_eq!(e.engines(), vec!["classic"]);
}

#[test]
fn wrong_magic() {
    let mut b = tiny_model_bytes();
    b[..8].copy_from_slice(b"PK\x03\x04xxxx");
    assert_eq!(Engine::from_bytes(b).unwrap_err(), Error::Magic);
    assert_eq!(
        Engine::from_bytes(b"<!DOCTYPE html>".to_vec()).unwrap_err(),
        Error::Magic
    );
}

#[test]
fn wrong_version() {
    let mut b = tiny_model_bytes();
    b[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert_eq!(
        Engine::from_bytes(b).unwrap_err(),
        Error::Version {
            expected: FORMAT_VERSION,
            got: FORMAT_VERSION + 1
        }
    );
}

#[test]
fn every_truncation_is_a_typed_error() {
    let b = tiny_model_bytes();
    assert_eq!(&b[..8], &MAGIC);
    for len in 0..b.len() {
        match Engine::from_bytes(b[..len].to_vec()) {
            Err(Error::Truncated { .. }) => {}
            // cutting only the trailing alignment padding of the last section is harmless
            Ok(_) if len >= b.len() - 16 => {}
            other => panic!("truncated to {len}: {other:?}"),
        }
    }
}

#[test]
fn every_flipped_byte_is_detected_or_harmless() {
    let b = tiny_model_bytes();
    for i in 0..b.len() {
        let mut c = b.clone();
        c[i] ^= 0x5a;
        // Header and table bytes give magic/version/truncation/checksum/malformed
        // errors; section bytes give checksum errors; padding is harmless. Never a panic.
        if let Ok(engine) = Engine::from_bytes(c) {
            let mut s = henkan::Session::new();
            let _ = s.convert_reading(&engine, "きょうは");
        }
    }
}

#[test]
fn a_flipped_section_byte_is_a_checksum_error() {
    let mut b = tiny_model_bytes();
    let last = b.len() - 20;
    b[last] ^= 1;
    assert!(matches!(
        Engine::from_bytes(b).unwrap_err(),
        Error::Checksum { .. }
    ));
}

#[test]
fn errors_read_well() {
    assert_eq!(
        Error::Truncated {
            needed: 100,
            len: 10
        }
        .to_string(),
        "model file is truncated: need 100 bytes, have 10"
    );
}

/// `Engine::with_section` re-reads one section with the checks of `Engine::from_container`:
/// the same bytes give the same engine, a cut section the same refusal.
#[test]
fn with_section_reads_like_from_container() {
    use henkan::model::Container;
    let engine = shipped_engine();
    let container = Container::from_bytes(shipped_bytes()).unwrap();
    let text = |e: &Engine| {
        let mut s = henkan::Session::new();
        s.set_scoring(e.default_scoring(), Default::default());
        s.convert_reading(e, "きしゃのきしゃがきしゃできしゃした")
            .text()
    };
    let want = text(&engine);
    for e in container.entries() {
        let kind = e.kind.unwrap();
        let bytes = container.section(kind).unwrap().as_ref().to_vec();
        let same = engine.with_section(kind, bytes.clone()).unwrap();
        assert_eq!(text(&same), want, "{}", kind.name());
        let cut = bytes[..bytes.len() / 2].to_vec();
        let whole = Engine::from_container(container.replacing(kind, cut.clone()).unwrap());
        let one = engine.with_section(kind, cut);
        assert_eq!(one.is_ok(), whole.is_ok(), "{}", kind.name());
        if let (Err(a), Err(b)) = (one, whole) {
            assert_eq!(a, b, "{}", kind.name());
        }
    }
}
