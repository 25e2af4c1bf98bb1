//! Annotates every case function of the corpus (development survey; prints
//! a summary, asserts nothing beyond "no panic").

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use rpy3_annotator::{Annotator, SomeValue};

fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    if beside.join("corpus").is_dir() {
        return beside;
    }
    PathBuf::from("/work/shared")
}

#[test]
#[ignore = "development survey of the corpus; run with --ignored --nocapture"]
fn survey() {
    let dir = shared().join("corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().map(|e| e == "py").unwrap_or(false)).collect();
    files.sort();
    let (mut ok, mut bad) = (0, 0);
    Python::attach(|py| {
        let sys = py.import("sys").unwrap();
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path").unwrap().call_method1("insert", (0, pkg.to_str().unwrap())).unwrap();
        for (i, f) in files.iter().enumerate() {
            let util = py.import("importlib.util").unwrap();
            let spec = util.call_method1("spec_from_file_location", (format!("survey{i}"), f.to_str().unwrap())).unwrap();
            let module = util.call_method1("module_from_spec", (&spec,)).unwrap();
            spec.getattr("loader").unwrap().call_method1("exec_module", (&module,)).unwrap();
            let cases = module.getattr("CASES").unwrap();
            let mut seen = std::collections::HashSet::new();
            for case in cases.try_iter().unwrap() {
                let case = case.unwrap();
                let func = case.get_item(0).unwrap();
                let name: String = func.getattr("__name__").unwrap().extract().unwrap();
                if !seen.insert(name.clone()) {
                    continue;
                }
                let args = case.get_item(1).unwrap();
                let mut ann = Annotator::new();
                let mut sargs = Vec::new();
                for a in args.try_iter().unwrap() {
                    let a = a.unwrap();
                    let s = ann.immutablevalue(py, &a).unwrap();
                    sargs.push(match s { SomeValue::Integer { kind, .. } => SomeValue::Integer { kind, nonneg: false, konst: None }, other => other.without_const() });
                }
                match ann.annotate(py, &func, sargs) {
                    Ok(g) => {
                        let missing = ann.unannotated();
                        if missing.is_empty() {
                            ok += 1;
                        } else {
                            bad += 1;
                            println!("{}::{name}: {} unannotated variables; returns {}", f.file_name().unwrap().to_string_lossy(), missing.len(), ann.return_annotation(g));
                        }
                    }
                    Err(e) => {
                        bad += 1;
                        println!("{}::{name}: {}", f.file_name().unwrap().to_string_lossy(), e.to_string().lines().next().unwrap());
                    }
                }
            }
        }
    });
    println!("annotated {ok}, failed {bad}");
}

#[test]
#[ignore = "development survey of the benchmarks; run with --ignored --nocapture"]
fn bench_survey() {
    let dir = shared().join("bench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().map(|e| e == "py").unwrap_or(false)).collect();
    files.sort();
    Python::attach(|py| {
        let sys = py.import("sys").unwrap();
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path").unwrap().call_method1("insert", (0, pkg.to_str().unwrap())).unwrap();
        for (i, f) in files.iter().enumerate() {
            let util = py.import("importlib.util").unwrap();
            let spec = util.call_method1("spec_from_file_location", (format!("bsurvey{i}"), f.to_str().unwrap())).unwrap();
            let module = util.call_method1("module_from_spec", (&spec,)).unwrap();
            spec.getattr("loader").unwrap().call_method1("exec_module", (&module,)).unwrap();
            let Ok(entry) = module.getattr("entry_point") else { continue };
            let mut ann = Annotator::new();
            let argv = pyo3::types::PyList::new(py, ["prog", "10"]).unwrap();
            let s_argv = ann.immutablevalue(py, &argv).unwrap();
            let t = std::time::Instant::now();
            match ann.annotate(py, &entry, vec![s_argv]) {
                Ok(g) => println!("{}: ok in {:?}, {} graphs, returns {}, unannotated {}", f.file_name().unwrap().to_string_lossy(), t.elapsed(), ann.graphs.len(), ann.return_annotation(g), ann.unannotated().len()),
                Err(e) => println!("{}: {}", f.file_name().unwrap().to_string_lossy(), e),
            }
        }
    });
}
