//! The planted miscompilation of `planted.rs` (the test-only feature
//! `planted-bug` of the llinterp) seen by the low-level fuzzer, in a test
//! binary of its own: the program fuzzer's test captures stdout, which
//! this test's harness would write to.

use std::time::Duration;

use rpy3_fuzz::lowlevel::{self, LlBackend, LlFuzzOptions};

/// The same planted bug seen by the low-level fuzzer: the llinterp (the
/// oracle, wrong here) disagrees with C, and the test is shrunk to a
/// few statements that still add.
#[test]
fn the_lowlevel_fuzzer_finds_and_shrinks_the_planted_bug() {
    rpy3_llinterp::planted::enable();
    let out = tempfile::tempdir().unwrap();
    let options = LlFuzzOptions {
        time_limit: Duration::from_secs(300),
        max_tests: Some(20),
        seed: 12,
        backends: vec![LlBackend::C],
        out: Some(out.path().to_path_buf()),
        batch: 20,
        ..LlFuzzOptions::default()
    };
    let report = lowlevel::run(&options, |line| eprintln!("{line}"));
    let d = report
        .disagreements
        .iter()
        .find(|d| d.path.is_some() && d.size.1 < d.size.0)
        .unwrap_or_else(|| panic!("nothing found and shrunk: {:?}", report.disagreements));
    let text = std::fs::read_to_string(d.path.as_ref().unwrap()).unwrap();
    eprintln!("{text}");
    assert!(d.size.1 <= 4, "{} statements left:\n{text}", d.size.1);
    assert!(text.contains("int_add"), "{text}");
}
