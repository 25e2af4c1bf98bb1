//! Every function defined in the corpus and the benchmark programs flows
//! and verifies.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFunction, PyType};

/// The shared corpus and benchmarks: `$RPY3_SHARED` (which
/// `scripts/test.sh` sets), else beside the checkout.
fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn load_module<'py>(py: Python<'py>, path: &Path, name: &str) -> PyResult<Bound<'py, PyAny>> {
    let sys = py.import("sys")?;
    let syspath = sys.getattr("path")?;
    let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
    syspath.call_method1("insert", (0, pkg.to_str().unwrap()))?;
    syspath.call_method1("insert", (0, path.parent().unwrap().to_str().unwrap()))?;
    let util = py.import("importlib.util")?;
    let spec = util.call_method1("spec_from_file_location", (name, path.to_str().unwrap()))?;
    let module = util.call_method1("module_from_spec", (&spec,))?;
    spec.getattr("loader")?
        .call_method1("exec_module", (&module,))?;
    Ok(module)
}

/// Functions defined in `module` itself, and the methods of its classes.
fn functions<'py>(module: &Bound<'py, PyAny>) -> Vec<Bound<'py, PyAny>> {
    let name: String = module.getattr("__name__").unwrap().extract().unwrap();
    let dict = module
        .getattr("__dict__")
        .unwrap()
        .cast_into::<PyDict>()
        .unwrap();
    let mut out = Vec::new();
    for (_, v) in dict.iter() {
        let from_here = v
            .getattr("__module__")
            .ok()
            .and_then(|m| m.extract::<String>().ok())
            == Some(name.clone());
        if !from_here {
            continue;
        }
        if v.is_instance_of::<PyFunction>() {
            out.push(v);
        } else if v.is_instance_of::<PyType>() {
            let cdict = v.getattr("__dict__").unwrap();
            for item in cdict.call_method0("values").unwrap().try_iter().unwrap() {
                let item = item.unwrap();
                if item.is_instance_of::<PyFunction>() {
                    out.push(item);
                }
            }
        }
    }
    out
}

fn flow_dir(dir: &str) -> (usize, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|e| e == "py").unwrap_or(false))
        .collect();
    files.sort();
    let mut count = 0;
    let mut failures = Vec::new();
    Python::attach(|py| {
        for (i, f) in files.iter().enumerate() {
            let module = load_module(py, f, &format!("flow_all_{dir}_{i}")).unwrap();
            for func in functions(&module) {
                count += 1;
                if let Err(e) = rpy3_flowspace::build_flow(py, &func) {
                    failures.push(e.to_string());
                }
            }
        }
    });
    (count, failures)
}

#[test]
fn every_bench_function_flows() {
    let (count, failures) = flow_dir("bench");
    assert!(count > 100, "only {count} functions found");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_corpus_function_flows() {
    let (count, failures) = flow_dir("corpus");
    assert!(count > 300, "only {count} functions found");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
