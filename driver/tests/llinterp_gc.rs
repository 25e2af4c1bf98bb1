//! The llinterp's collector on whole programs: allocation-heavy programs
//! of the shared benchmarks give CPython's result when the heap collects
//! at every allocation (a root the collector missed would be a freed
//! object read later: an error, as stress mode never reuses a number),
//! and in the normal mode the heap stays bounded by the live data.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use rpy3_driver::llinterp::Outcome;
use rpy3_driver::{load, Translation};

fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// Translates `FILE.run` of the shared benchmarks, runs it on `n` in the
/// llinterp (stress mode if asked) and checks CPython's result; returns
/// the number of collections and the objects left in the heap.
fn run_bench(file: &str, func: &str, n: i64, stress: bool) -> (usize, usize) {
    let path = shared().join("bench").join(format!("{file}.py"));
    Python::attach(|py| {
        load::prepare_sys_path(py, &path).unwrap();
        let name = load::fresh_module_name(&path, "llinterp_gc");
        let module = load::import_instance(py, &path, &name).unwrap();
        let f = module.getattr(func).unwrap();
        let expected: i64 = f.call1((n,)).unwrap().extract().unwrap();
        let args = [n.into_pyobject(py).unwrap().into_any()];
        let mut t = Translation::for_function(&f, &args);
        let ll = t.llinterp(py).unwrap_or_else(|e| panic!("{file}: {e}"));
        ll.interp_mut().set_gc_stress(stress);
        match ll.call(py, &f, &args) {
            Ok(Outcome::Value(v)) => {
                assert_eq!(
                    v.extract::<i64>(py).unwrap(),
                    expected,
                    "{file}.{func}({n})"
                )
            }
            other => panic!("{file}.{func}({n}): {other:?}"),
        }
        let it = ll.interp_mut();
        let counts = (it.collections(), it.heap_len());
        load::forget_instance(py, &name);
        counts
    })
}

#[test]
fn allocation_heavy_programs_under_gc_stress() {
    for (file, func, n) in [
        ("binary_trees", "run", 6),
        ("richards", "run", 1),
        ("raytrace", "run", 3),
        ("wordfreq", "run", 100),
        ("bytecode_vm", "run", 100),
        ("llinterp_speed", "list_dict", 200),
    ] {
        let (collections, _) = run_bench(file, func, n, true);
        assert!(collections > 20, "{file}: {collections} collections");
    }
}

#[test]
fn the_heap_stays_bounded_by_the_live_data() {
    // binary_trees(12) allocates about 1.2 million nodes; at most
    // 2 ** 14 of them are alive at once
    let (collections, objects) = run_bench("binary_trees", "run", 12, false);
    assert!(collections > 0);
    assert!(objects < 200_000, "{objects} objects in the heap");
}
