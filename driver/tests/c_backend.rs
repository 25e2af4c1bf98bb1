//! The C backend through the driver: programs of `../shared/bench` and the
//! example translate into C that compiles warning-free under `-Wall
//! -Wextra -Werror`, run, and print what CPython prints; the phases of the
//! backend are timed in order.

use std::path::{Path, PathBuf};
use std::process::Command;

use pyo3::prelude::*;
use rpy3_driver::{Phase, Translation};
use rpy3_genc::BuildOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bench(name: &str) -> Option<PathBuf> {
    let p = root().join("..").join("shared").join("bench").join(name);
    p.exists().then_some(p)
}

/// Translates `file` with strict warnings, runs it with `args` and
/// compares stdout and status with CPython's.
fn translate_and_compare(file: &Path, args: &[&str], gc_stress: bool) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("program");
    let opts = BuildOptions {
        optimize: false,
        gc_stress,
        strict_warnings: true,
        ..Default::default()
    };
    let phases = Python::attach(|py| {
        let mut t = Translation::for_program(py, file).unwrap();
        t.compile_c(py, &exe, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        t.timings().iter().map(|(p, _)| *p).collect::<Vec<_>>()
    });
    let order: Vec<Phase> = phases
        .into_iter()
        .filter(|p| matches!(p, Phase::Rtype | Phase::Prepare | Phase::Genc | Phase::Cc))
        .collect();
    assert_eq!(
        order,
        [Phase::Rtype, Phase::Prepare, Phase::Genc, Phase::Cc]
    );
    let got = Command::new(&exe).args(args).output().unwrap();
    // the reference: CPython running the entry point as `rpy3 check` does
    let want = Command::new("python3")
        .env("PYTHONPATH", root().join("python"))
        .args(["-m", "rpy3._program"])
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&got.stdout),
        String::from_utf8_lossy(&want.stdout),
        "{}",
        file.display()
    );
    assert_eq!(got.status.code(), want.status.code(), "{}", file.display());
}

#[test]
fn the_example_translates_warning_free_and_runs() {
    translate_and_compare(&root().join("examples").join("fib.py"), &["20"], false);
}

#[test]
fn bench_programs_translate_warning_free_and_run() {
    for (name, n) in [
        ("richards.py", "3"),
        ("wordfreq.py", "500"),
        ("raytrace.py", "8"),
        ("bytecode_vm.py", "500"),
    ] {
        let Some(file) = bench(name) else {
            eprintln!("../shared/bench/{name} not found: skipped");
            continue;
        };
        translate_and_compare(&file, &[n], false);
    }
}

#[test]
fn the_gc_stress_build_keeps_every_live_object() {
    if let Some(file) = bench("binary_trees.py") {
        translate_and_compare(&file, &["6"], true);
    }
}
