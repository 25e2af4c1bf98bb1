//! The external-function table end to end: a program touching every
//! function runs in the llinterp against a captured world, and the
//! llinterp implements every function of the table.

use std::path::Path;

use pyo3::prelude::*;
use pyo3::types::PyList;
use rpy3_driver::Translation;
use rpy3_llinterp::world::CapturedWorld;
use rpy3_llinterp::LlOutcome;
use rpy3_model::extfunc::ALL_EXT_FUNCS;
use rpy3_testsuite::{load, with_big_stack};

#[test]
fn every_external_function_runs_against_a_captured_world() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/world_program.py");
    let tmp = tempfile::tempdir().expect("temporary directory");
    let scratch = tmp.path().join("scratch.txt");
    let (stdout, stderr, outcome) = with_big_stack(|| {
        Python::attach(|py| {
            let mut translation =
                Translation::for_program(py, &file).expect("the test program has an entry point");
            let t = translation.llinterp(py).expect("translates");
            let world = CapturedWorld::new();
            {
                let mut c = world.captured.lock().unwrap();
                c.stdin = b"first line\nmore".to_vec();
                c.env.insert("RPY3_TEST_VAR".into(), "value".into());
            }
            t.interp_mut().set_world(Box::new(world.clone()));
            let argv =
                PyList::new(py, ["world_program.py", "one", scratch.to_str().unwrap()]).unwrap();
            let outcome = t.run(py, &[argv.into_any()]).expect("runs");
            (world.stdout(), world.stderr(), outcome)
        })
    })
    .expect("no panic");
    assert!(matches!(outcome, Err(LlOutcome::Exit(3))), "{outcome:?}");
    let stdout = String::from_utf8(stdout).unwrap();
    // os.write bypasses stdout's buffer, which sys.stdout.flush() emptied
    // just before it
    assert_eq!(
        stdout,
        "args: 3 one\n1, 2.5, True, x;\n\nwritten\nraw bytes\n8 10\nset to value\ndefault\nvalue\n\
         True True True True\nread first line 11\n0\nfile contents\nOSError\n"
    );
    assert_eq!(String::from_utf8(stderr).unwrap(), "to stderr\nerr line\n");
    let _ = load::python_package_dir();
}

#[test]
fn the_llinterp_implements_every_external_function() {
    // every function of the table is named by the test program above, and
    // the loader refuses an unknown name; here, every name resolves
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/world_program.py"),
    )
    .unwrap();
    for f in ALL_EXT_FUNCS {
        let python = f.desc().python;
        let short = python.rsplit('.').next().unwrap();
        assert!(
            source.contains(short),
            "{python} is not exercised by world_program.py"
        );
    }
}
