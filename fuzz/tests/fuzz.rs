//! The generator's programs run under CPython without a sign of an
//! invalid program; the shrinker reduces a planted disagreement to a few
//! lines.  (The fixed-seed run is `fixed_seed.rs`: a test binary of its
//! own, since it captures this process's stdout while programs print.)

use pyo3::prelude::*;
use rpy3_fuzz::{ast::Program, gen, render, shrink};

fn python_path(py: Python<'_>) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../python");
    let sys = py.import("sys").unwrap();
    sys.getattr("path")
        .unwrap()
        .call_method1("insert", (0, dir))
        .unwrap();
}

/// Exceptions a generated program may raise: its own classes only.
#[test]
fn generated_programs_are_valid_python_and_terminate() {
    Python::initialize();
    Python::attach(|py| {
        python_path(py);
        let runner = pyo3::ffi::c_str!(
            r#"
def run_all(source):
    g = {'__name__': 'fuzz_generated'}
    exec(compile(source, 'generated', 'exec'), g)
    bad = []
    for func, args in g['CASES']:
        try:
            func(*args)
        except Exception as e:
            if not type(e).__name__.endswith(('_E', '_F')):
                bad.append('%s%r: %s: %s' % (func.__name__, tuple(args), type(e).__name__, e))
    return bad
"#
        );
        let m = PyModule::from_code(py, runner, c"runner.py", c"runner").unwrap();
        for index in 0..150 {
            let p = gen::program(7, index);
            let source = render::case_file("test", &[&p]);
            let bad: Vec<String> = m
                .getattr("run_all")
                .unwrap()
                .call1((source.as_str(),))
                .unwrap_or_else(|e| panic!("program {index} does not run: {e}\n{source}"))
                .extract()
                .unwrap();
            assert!(bad.is_empty(), "program {index}: {bad:?}\n{source}");
        }
    });
}

#[test]
fn generation_is_reproducible() {
    let a = render::case_file("x", &[&gen::program(3, 11)]);
    let b = render::case_file("x", &[&gen::program(3, 11)]);
    assert_eq!(a, b);
    assert_ne!(a, render::case_file("x", &[&gen::program(3, 12)]));
}

/// A planted "miscompilation": a backend that gets every left shift
/// wrong.  The shrinker keeps a shift and removes nearly all the rest.
#[test]
fn shrinking_a_planted_bug_gives_a_few_lines() {
    let planted = |p: &Program| render::program(p).contains("<<");
    let (index, p) = (0..500)
        .map(|i| (i, gen::program(5, i)))
        .find(|(_, p)| planted(p) && render::program(p).lines().count() > 60)
        .expect("some program shifts");
    let before = render::program(&p).lines().count();
    let small = shrink::shrink(p, planted, 5000, None);
    let text = render::program(&small);
    assert!(planted(&small));
    eprintln!("{before} lines shrunk to:\n{text}");
    let main: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("def p{index}_main")))
        .collect();
    // the fixed class scaffolding (about 20 lines) stays; everything the
    // generator added around the shift goes
    assert!(
        text.lines().count() <= 30 && main.len() <= 4,
        "from {before} lines to:\n{text}"
    );
}
