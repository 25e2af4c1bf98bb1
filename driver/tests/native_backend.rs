//! The native backend through the driver: the IR of small functions as
//! text (golden, as Cranelift's filetests), and the programs of
//! `../shared/bench` translated natively printing what CPython prints.

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{expect, Expect};
use pyo3::prelude::*;
use rpy3_driver::{Phase, Translation};
use rpy3_native::NativeOptions;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const GOLDEN: &str = r#"
def add_mul(a, b):
    return (a + b) * 3

def item(l, i):
    return l[i]

def entry_point(argv):
    print(add_mul(len(argv), 2))
    print(item([5, 6, 7], len(argv)))
    return 0
"#;

/// Translates `GOLDEN` natively, checks what the executable prints, and
/// compares the IR of the function named `name` with `expect`.
fn clif_of(name: &str, expect: Expect) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("golden.py");
    std::fs::write(&file, GOLDEN).unwrap();
    let exe = dir.path().join("program");
    let clif = dir.path().join("clif");
    let opts = NativeOptions {
        emit_clif: Some(clif.clone()),
        ..Default::default()
    };
    Python::attach(|py| {
        let mut t = Translation::for_program(py, &file).unwrap();
        t.compile_native(py, &exe, &opts).unwrap();
    });
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "9\n6\n");
    let mut found = None;
    for e in std::fs::read_dir(&clif).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        if text.lines().next() == Some(&format!("; {name}")) {
            found = Some(text);
        }
    }
    let text = found.unwrap_or_else(|| panic!("no function {name}"));
    expect.assert_eq(&without_function_numbers(&text));
}

/// `text` with the numbers of functions (`u0:7`) replaced by `N`: they
/// depend on how many functions the program has, not on the lowering.
fn without_function_numbers(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("u0:") {
        out.push_str(&rest[..at + 3]);
        rest = &rest[at + 3..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            out.push('N');
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn golden_ir_of_integer_arithmetic() {
    clif_of(
        "add_mul",
        expect![[r#"
            ; add_mul
            function u0:N(i64, i64) -> i64 system_v {
                gv0 = symbol userextname1
                sig0 = (i64, i64) -> i64 system_v
                sig1 = (i64, i64) -> i64 system_v
                fn0 = u0:N sig0
                fn1 = u0:N sig1

            block5(v5: i64, v6: i64):
                jump block0(v5, v6)

            block0(v0: i64, v1: i64):
                v7 = call fn0(v0, v1)
                v8 = symbol_value.i64 gv0
                v9 = load.i64 notrap aligned v8
                v10 = iconst.i64 0
                v11 = icmp ne v9, v10  ; v10 = 0
                brif v11, block4, block1(v7)

            block1(v2: i64):
                v12 = iconst.i64 3
                v13 = call fn1(v2, v12)  ; v12 = 3
                v14 = symbol_value.i64 gv0
                v15 = load.i64 notrap aligned v14
                v16 = iconst.i64 0
                v17 = icmp ne v15, v16  ; v16 = 0
                brif v17, block4, block2(v13)

            block2(v3: i64):
                jump block3(v3)

            block4:
                v18 = iconst.i64 0
                jump block3(v18)  ; v18 = 0

            block3(v4: i64):
                return v4
            }
        "#]],
    );
}

#[test]
fn golden_ir_of_a_checked_list_index() {
    clif_of(
        "item",
        expect![[r#"
            ; item
            function u0:N(i64, i64) -> i64 system_v {
                gv0 = symbol userextname1
                sig0 = (i64, i64) -> i64 system_v
                fn0 = colocated u0:N sig0

            block4(v4: i64, v5: i64):
                jump block0(v4, v5)

            block0(v0: i64, v1: i64):
                v6 = call fn0(v0, v1)
                v7 = symbol_value.i64 gv0
                v8 = load.i64 notrap aligned v7
                v9 = iconst.i64 0
                v10 = icmp ne v8, v9  ; v9 = 0
                brif v10, block3, block1(v6)

            block1(v2: i64):
                jump block2(v2)

            block3:
                v11 = iconst.i64 0
                jump block2(v11)  ; v11 = 0

            block2(v3: i64):
                return v3
            }
        "#]],
    );
}

fn bench(name: &str) -> Option<PathBuf> {
    let p = root().join("..").join("shared").join("bench").join(name);
    p.exists().then_some(p)
}

/// Translates `file` natively, runs it with `args` and compares stdout
/// and status with CPython's.
fn translate_and_compare(file: &Path, args: &[&str], gc_stress: bool) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("program");
    let opts = NativeOptions {
        optimize: true,
        gc_stress,
        ..Default::default()
    };
    let phases = Python::attach(|py| {
        let mut t = Translation::for_program(py, file).unwrap();
        t.compile_native(py, &exe, &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        t.timings().iter().map(|(p, _)| *p).collect::<Vec<_>>()
    });
    let order: Vec<Phase> = phases
        .into_iter()
        .filter(|p| {
            matches!(
                p,
                Phase::Rtype | Phase::Prepare | Phase::Native | Phase::Link
            )
        })
        .collect();
    assert_eq!(
        order,
        [Phase::Rtype, Phase::Prepare, Phase::Native, Phase::Link]
    );
    let got = Command::new(&exe).args(args).output().unwrap();
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
fn bench_programs_run_natively_as_under_cpython() {
    // small sizes: the defaults are for timing
    for (name, n) in [
        ("binary_trees.py", "8"),
        ("bytecode_vm.py", "500"),
        ("fannkuch.py", "7"),
        ("nbody.py", "1000"),
        ("nqueens.py", "2"),
        ("pystone.py", "1000"),
        ("raytrace.py", "8"),
        ("richards.py", "3"),
        ("spectral_norm.py", "50"),
        ("wordfreq.py", "500"),
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
    if let Some(f) = bench("binary_trees.py") {
        translate_and_compare(&f, &["6"], true);
    }
}
