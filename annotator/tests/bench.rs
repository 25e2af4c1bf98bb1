//! Every function reachable from every `entry_point` of the benchmark
//! programs annotates, completely.

mod common;

use std::path::PathBuf;

use pyo3::prelude::*;
use rpy3_annotator::Annotator;

#[test]
fn every_benchmark_entry_point_annotates() {
    let dir = common::shared().join("bench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|e| e == "py").unwrap_or(false))
        .collect();
    files.sort();
    let mut annotated = 0;
    let mut failures = Vec::new();
    Python::attach(|py| {
        let sys = py.import("sys").unwrap();
        let pkg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path")
            .unwrap()
            .call_method1("insert", (0, pkg.to_str().unwrap()))
            .unwrap();
        for (i, f) in files.iter().enumerate() {
            let util = py.import("importlib.util").unwrap();
            let spec = util
                .call_method1(
                    "spec_from_file_location",
                    (format!("benchtest{i}"), f.to_str().unwrap()),
                )
                .unwrap();
            let module = util.call_method1("module_from_spec", (&spec,)).unwrap();
            spec.getattr("loader")
                .unwrap()
                .call_method1("exec_module", (&module,))
                .unwrap();
            let Ok(entry) = module.getattr("entry_point") else {
                continue;
            };
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            let mut ann = Annotator::new();
            let argv = pyo3::types::PyList::new(py, ["prog", "10"]).unwrap();
            let s_argv = ann.immutablevalue(py, &argv).unwrap().without_const();
            match ann.annotate(py, &entry, vec![s_argv]) {
                Ok(g) => {
                    let missing = ann.unannotated();
                    if !missing.is_empty() {
                        failures.push(format!("{name}: {} variables unannotated", missing.len()));
                    } else if ann.canonical(&ann.return_annotation(g)) != "int+"
                        && ann.canonical(&ann.return_annotation(g)) != "int+=0"
                    {
                        failures.push(format!(
                            "{name}: entry_point returns {}",
                            ann.canonical(&ann.return_annotation(g))
                        ));
                    } else {
                        annotated += 1;
                    }
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(annotated, 10, "all ten benchmark programs");
}
