//! The llinterp on `../shared/bench/llinterp_speed.py`, through the
//! driver: each function is annotated, rtyped and loaded once (timed as
//! "translation"), then called repeatedly in the llinterp at n = 20000
//! (best time reported), next to PyPy's LLInterpreter figures from that
//! file.
//!
//! `cargo bench -p rpy3-testsuite --bench llinterp_speed`

use std::path::{Path, PathBuf};
use std::time::Instant;

use pyo3::prelude::*;
use rpy3_annotator::SomeValue;
use rpy3_driver::{EntryArgs, Options, Translation};
use rpy3_model::lltype::LlValue;

fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    // beside the checkout
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn main() {
    const N: i64 = 20000;
    const RUNS: usize = 20;
    let pypy = [
        ("int_loop", 4.3),
        ("linked_list", 10.9),
        ("list_dict", 163.5),
    ];
    Python::attach(|py| {
        let sys = py.import("sys").expect("sys");
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path")
            .and_then(|p| p.call_method1("insert", (0, pkg.to_str().unwrap_or("."))))
            .expect("path");
        let file = shared().join("bench/llinterp_speed.py");
        let util = py.import("importlib.util").expect("importlib");
        let spec = util
            .call_method1(
                "spec_from_file_location",
                ("llinterp_speed", file.to_str().unwrap_or("")),
            )
            .expect("spec");
        let module = util
            .call_method1("module_from_spec", (&spec,))
            .expect("module");
        spec.getattr("loader")
            .and_then(|l| l.call_method1("exec_module", (&module,)))
            .expect("import");
        println!(
            "{:<12} {:>16} {:>14} {:>16} {:>10}",
            "function", "translation ms", "llinterp ms", "PyPy llinterp s", "speed-up"
        );
        for (name, pypy_s) in pypy {
            let func = module.getattr(name).expect("function");
            let entry_args = EntryArgs::Custom(Box::new(|_, _| Ok(vec![SomeValue::int()])));
            let mut t = Translation::new(func.clone().unbind(), entry_args, Options::default());
            let backend = match t.llinterp(py) {
                Ok(b) => b,
                Err(e) => {
                    println!("{name:<12} not translatable yet: {e}");
                    continue;
                }
            };
            let entry = backend.entry();
            let interp = backend.interp_mut();
            let expected: i64 = func
                .call1((N,))
                .and_then(|r| r.extract())
                .expect("CPython result");
            let mut best = f64::MAX;
            for _ in 0..RUNS {
                interp.reset_heap();
                let t = Instant::now();
                let r = interp.call(entry, vec![LlValue::Int(N)]).expect("runs");
                best = best.min(t.elapsed().as_secs_f64() * 1000.0);
                assert_eq!(r, LlValue::Int(expected), "{name}: wrong result");
            }
            // annotation, rtyping (and the verifier, in a debug build) and
            // loading, as the driver timed them
            let translation: f64 = t
                .timings()
                .iter()
                .map(|(_, d)| d.as_secs_f64() * 1000.0)
                .sum();
            println!(
                "{name:<12} {translation:>16.2} {best:>14.3} {pypy_s:>16.1} {:>9.0}x",
                pypy_s * 1000.0 / best
            );
        }
    });
}
