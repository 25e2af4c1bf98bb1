//! Shrinking shown end to end: a miscompilation planted in the llinterp
//! (`int_add` of an operand above 100 and a positive one is one too big; the
//! test-only feature `planted-bug`, switched on here and nowhere else) is
//! found by a fixed-seed run, and the reproducer it writes is a handful of
//! lines that still shows the bug.  Alone in its test binary: the switch
//! is process-wide, and the harness captures this process's stdout.

use std::time::Duration;

use rpy3_fuzz::FuzzOptions;
use rpy3_testsuite::Backend;

#[test]
fn a_planted_miscompilation_is_found_and_shrunk_to_a_few_lines() {
    rpy3_llinterp::planted::enable();
    // the bug is live: a sum of two large ints is off by one on the
    // llinterp
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("planted_add.py");
    std::fs::write(
        &case,
        "from rpy3.rlib.rarithmetic import intmask\n\ndef f(a, b):\n    return intmask(a + b)\n\nCASES = [(f, (200, 300))]\n",
    )
    .unwrap();
    let records = rpy3_testsuite::check_paths_with(
        &[case],
        &[Backend::Llinterp],
        rpy3_testsuite::CheckOptions {
            compare_output: true,
        },
    );
    assert!(
        records.iter().any(|r| r.failed()),
        "the planted bug does not show: {records:?}"
    );
    let out = tempfile::tempdir().unwrap();
    let options = FuzzOptions {
        time_limit: Duration::from_secs(300),
        max_programs: Some(48),
        seed: 12,
        backends: vec![Backend::Llinterp],
        out: Some(out.path().to_path_buf()),
        batch: 8,
        ..FuzzOptions::default()
    };
    let report = rpy3_fuzz::run(&options, |line| eprintln!("{line}"));
    let shrunk: Vec<_> = report.disagreements.iter().filter(|d| d.shrunk).collect();
    assert!(
        !shrunk.is_empty(),
        "the planted bug went unnoticed in {} programs",
        report.programs
    );
    for d in shrunk {
        let path = d.path.as_ref().expect("a reproducer is written");
        let text = std::fs::read_to_string(path).unwrap();
        eprintln!("{}:\n{text}", path.display());
        // the program itself, after the reproducer's docstring and the
        // fixed class scaffolding: its main function and the functions it
        // still calls
        let main = format!("def p{}_main", d.index);
        let body: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with(&main))
            .take_while(|l| !l.starts_with("CASES"))
            .filter(|l| !l.trim().is_empty())
            .collect();
        assert!(
            !body.is_empty() && body.len() <= 8,
            "main is {} lines:\n{text}",
            body.len()
        );
        assert!(
            text.lines().count() <= 45,
            "{} lines:\n{text}",
            text.lines().count()
        );
        // what is left still adds (the planted bug needs an int_add)
        assert!(text.contains('+'), "{text}");
    }
}
