//! The phases of a translation: in order, timed, each run once, errors
//! that name the phase, and the hook for the backends' preparation passes
//! (each followed by the verifier).

use std::path::Path;

use pyo3::prelude::*;
use pyo3::types::PyList;
use rpy3_driver::llinterp::Outcome;
use rpy3_driver::{load, DriverError, Options, Phase, Transform, Translation};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, FLOAT};
use rpy3_model::program::LlProgram;
use rpy3_model::OpName;

const SOURCE: &str = "\
def double(x):
    return x * 2

def bad(x):
    return x + 'a'

def entry_point(argv):
    return len(argv) + 1
";

/// Imports `SOURCE` as a fresh module and calls `f` with it.
fn with_module(f: impl for<'py> FnOnce(Python<'py>, &Bound<'py, PyModule>, &Path)) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("target_prog.py");
    std::fs::write(&file, SOURCE).unwrap();
    Python::attach(|py| {
        load::prepare_sys_path(py, &file).unwrap();
        let name = load::fresh_module_name(&file, "driver_test");
        let module = load::import_instance(py, &file, &name).unwrap();
        f(py, &module, &file);
        load::forget_instance(py, &name);
    });
}

fn phases(t: &Translation) -> Vec<Phase> {
    t.timings().iter().map(|(p, _)| *p).collect()
}

#[test]
fn phases_run_in_order_once_and_are_timed() {
    with_module(|py, m, _| {
        let f = m.getattr("double").unwrap();
        let args = [5i64.into_pyobject(py).unwrap().into_any()];
        let mut t = Translation::for_function(&f, &args);
        *t.options_mut() = Options { verify: true };
        assert!(
            t.timings().is_empty(),
            "nothing runs before it is asked for"
        );
        let n = t.rtyped(py).unwrap().functions.len();
        assert!(n >= 1);
        match t.llinterp(py).unwrap().call(py, &f, &args).unwrap() {
            Outcome::Value(v) => assert_eq!(v.extract::<i64>(py).unwrap(), 10),
            Outcome::Raised(c) => panic!("raised {c}"),
        }
        let once = phases(&t);
        assert_eq!(
            once,
            vec![
                Phase::Annotate,
                Phase::Rtype,
                Phase::Verify("rtype"),
                Phase::LoadLlinterp
            ]
        );
        // cached: asking again runs nothing
        t.rtyped(py).unwrap();
        t.llinterp(py).unwrap();
        t.prepared(py).unwrap();
        assert_eq!(phases(&t), once);
        let names: Vec<String> = t.timings().iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(
            names,
            [
                "annotate",
                "rtype",
                "verify after rtype",
                "load into the llinterp"
            ]
        );
    });
}

#[test]
fn errors_name_their_phase_and_place() {
    with_module(|py, m, _| {
        let f = m.getattr("bad").unwrap();
        let args = [5i64.into_pyobject(py).unwrap().into_any()];
        let mut t = Translation::for_function(&f, &args);
        let e = t.rtyped(py).err().expect("not RPython");
        assert!(matches!(e, DriverError::Annotate(_)), "{e:?}");
        assert_eq!(e.phase(), Phase::Annotate);
        let loc = e.location().expect("annotation errors have a location");
        assert!(loc.filename.ends_with("target_prog.py"), "{loc}");
        assert_eq!(loc.lineno, 5);
        assert!(e.to_string().starts_with("annotation error: "), "{e}");
        // the same error again, without annotating again
        let again = t.llinterp(py).err().expect("still an error");
        assert_eq!(again.to_string(), e.to_string());
        assert_eq!(phases(&t), vec![Phase::Annotate]);
    });
}

/// A pass that makes every `int_mul` claim a Float result.
struct Breaker;

impl Transform for Breaker {
    fn name(&self) -> &'static str {
        "breaker"
    }

    fn run(&mut self, _py: Python<'_>, program: &mut LlProgram) -> Result<(), String> {
        for f in &mut program.functions {
            let mut g = (*f.graph).clone();
            for b in g.blocks.keys().collect::<Vec<_>>() {
                for i in 0..g.blocks[b].operations.len() {
                    // (a program's `*` is the checked int_mul_ovf)
                    if matches!(
                        g.blocks[b].operations[i].opname,
                        OpName::Ll(LlOp::IntMul | LlOp::IntMulOvf)
                    ) {
                        let r = g.blocks[b].operations[i].result;
                        g.vars[r].concretetype = Some(FLOAT);
                    }
                }
            }
            f.graph = std::sync::Arc::new(g);
        }
        Ok(())
    }
}

#[test]
fn transforms_are_verified_after_each_pass() {
    with_module(|py, m, _| {
        let f = m.getattr("double").unwrap();
        let args = [5i64.into_pyobject(py).unwrap().into_any()];
        let mut t = Translation::for_function(&f, &args);
        *t.options_mut() = Options { verify: true };
        t.add_transform(Box::new(Breaker));
        let e = t.prepared(py).err().expect("ill-typed");
        assert_eq!(e.phase(), Phase::Verify("breaker"));
        let msg = e.to_string();
        assert!(
            msg.starts_with("ill-typed low-level graph after breaker: function `double`")
                && msg.contains("(int_mul_ovf): result is Float, expected Signed"),
            "{msg}"
        );
        // the rtyped program itself is fine, still there, and the llinterp
        // (which runs it, not the prepared one) loads it
        assert!(t.rtyped(py).is_ok());
        assert!(t.llinterp(py).is_ok());
        assert_eq!(
            t.prepared(py).err().map(|e| e.to_string()),
            Some(msg),
            "the same error again"
        );
    });
}

#[test]
fn program_mode() {
    with_module(|py, _, file| {
        let mut t = Translation::for_program(py, file).unwrap();
        assert_eq!(phases(&t), vec![Phase::Load]);
        let argv = PyList::new(py, ["prog", "x"]).unwrap().into_any();
        let outcome = t.llinterp(py).unwrap().run(py, &[argv]).unwrap();
        assert_eq!(outcome, Ok(LlValue::Int(3)));

        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("no_entry.py");
        std::fs::write(&empty, "x = 1\n").unwrap();
        let e = Translation::for_program(py, &empty)
            .err()
            .expect("no entry point");
        assert!(e.is_usage(), "{e:?}");
        assert_eq!(e.phase(), Phase::Load);
    });
}
