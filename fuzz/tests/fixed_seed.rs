//! CI's short fuzz, alone in its test binary: the harness compares what
//! each case prints by redirecting this process's stdout, so no other
//! test may print meanwhile.

use std::time::Duration;

use rpy3_fuzz::FuzzOptions;
use rpy3_testsuite::Backend;

/// CI's short fuzz: a fixed seed on the interpreting stages agrees with
/// CPython (a disagreement prints its shrunk reproducer).
#[test]
fn fixed_seed_run_agrees_on_the_stages() {
    let options = FuzzOptions {
        time_limit: Duration::from_secs(600),
        max_programs: Some(12),
        seed: 2026,
        backends: vec![Backend::Flow, Backend::Annotate, Backend::Llinterp],
        batch: 6,
        ..FuzzOptions::default()
    };
    let report = rpy3_fuzz::run(&options, |line| eprintln!("{line}"));
    assert_eq!(report.programs, 12);
    let shown: Vec<String> = report
        .disagreements
        .iter()
        .map(|d| format!("{} {}: {}\n{}", d.backend, d.index, d.detail, d.source))
        .collect();
    assert!(shown.is_empty(), "{}", shown.join("\n"));
}
