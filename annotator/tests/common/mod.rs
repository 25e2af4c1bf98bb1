//! Loading the corpus for annotator tests (not every test file uses every
//! helper).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use rpy3_annotator::{Annotator, SomeValue};

/// The shared corpus and benchmarks: `$RPY3_SHARED` (which
/// `scripts/test.sh` sets), else beside the checkout.
pub fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

/// `(label, function, args of its first case)` for every case function of
/// the corpus.
pub fn corpus_functions() -> Vec<(String, Py<PyAny>, Py<PyAny>)> {
    let dir = shared().join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|e| e == "py").unwrap_or(false))
        .collect();
    files.sort();
    let mut out = Vec::new();
    Python::attach(|py| {
        let sys = py.import("sys").unwrap();
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path")
            .unwrap()
            .call_method1("insert", (0, pkg.to_str().unwrap()))
            .unwrap();
        for (i, f) in files.iter().enumerate() {
            let util = py.import("importlib.util").unwrap();
            let name = format!("anntest_{}_{i}", std::process::id());
            let spec = util
                .call_method1("spec_from_file_location", (name, f.to_str().unwrap()))
                .unwrap();
            let module = util.call_method1("module_from_spec", (&spec,)).unwrap();
            spec.getattr("loader")
                .unwrap()
                .call_method1("exec_module", (&module,))
                .unwrap();
            let mut seen = std::collections::HashSet::new();
            for case in module.getattr("CASES").unwrap().try_iter().unwrap() {
                let case = case.unwrap();
                let func = case.get_item(0).unwrap();
                let fname: String = func.getattr("__name__").unwrap().extract().unwrap();
                if seen.insert(fname.clone()) {
                    let label = format!("{}::{fname}", f.file_name().unwrap().to_string_lossy());
                    out.push((label, func.unbind(), case.get_item(1).unwrap().unbind()));
                }
            }
        }
    });
    out
}

/// The annotations of arguments like `args` (types only).
pub fn arg_annotations(
    ann: &mut Annotator,
    py: Python<'_>,
    args: &Bound<'_, PyAny>,
) -> Vec<SomeValue> {
    args.try_iter()
        .unwrap()
        .map(|a| {
            let s = ann.immutablevalue(py, &a.unwrap()).unwrap();
            match s {
                SomeValue::Integer { kind, .. } => SomeValue::Integer {
                    kind,
                    nonneg: false,
                    konst: None,
                    bool_too: false,
                },
                SomeValue::Str { kind, .. } => SomeValue::Str {
                    kind,
                    is_char: false,
                    can_be_none: false,
                    konst: None,
                },
                other => other.without_const(),
            }
        })
        .collect()
}
