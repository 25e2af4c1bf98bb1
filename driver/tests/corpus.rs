//! Every function of the shared corpus, of the project's cases and every
//! whole program that rtypes gives low-level graphs the verifier accepts.
//! (Functions the annotator or the rtyper refuse are skipped: those are
//! the ratchet's business; an ill-typed graph never is acceptable.)

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rpy3_driver::{load, DriverError, EntryArgs, Options, Translation};

fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    // `../shared` beside the checkout (scripts/test.sh sets RPY3_SHARED
    // when it lies elsewhere)
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn python_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

fn verified() -> Options {
    Options { verify: true }
}

/// The verifier's complaint about `t`, if rtyping got that far.
fn ill_typed(py: Python<'_>, what: String, t: &mut Translation, out: &mut Vec<String>) -> bool {
    match t.rtyped(py) {
        Ok(_) => true,
        Err(e @ DriverError::IllTyped { .. }) => {
            out.push(format!("{what}: {e}"));
            true
        }
        Err(_) => false,
    }
}

/// Translates every distinct function of the `CASES` of `file`.
fn check_case_file(py: Python<'_>, file: &Path, out: &mut Vec<String>) -> usize {
    load::prepare_sys_path(py, file).unwrap();
    let name = load::fresh_module_name(file, "verify");
    let Ok(module) = load::import_instance(py, file, &name) else {
        return 0;
    };
    let Ok(cases) = module.getattr("CASES") else {
        return 0;
    };
    let mut seen = HashSet::new();
    let mut rtyped = 0;
    for entry in cases.try_iter().unwrap() {
        let entry = entry.unwrap();
        let Ok(t) = entry.cast::<PyTuple>() else {
            continue;
        };
        let (Ok(func), Ok(args)) = (t.get_item(0), t.get_item(1)) else {
            continue;
        };
        if !seen.insert(func.as_ptr() as usize) {
            continue;
        }
        let args: Vec<Py<PyAny>> = args
            .try_iter()
            .unwrap()
            .map(|a| a.unwrap().unbind())
            .collect();
        let mut translation =
            Translation::new(func.clone().unbind(), EntryArgs::TypesOf(args), verified());
        let what = format!("{}: {}", file.display(), func);
        rtyped += ill_typed(py, what, &mut translation, out) as usize;
    }
    load::forget_instance(py, &name);
    rtyped
}

fn on_big_stack(f: impl FnOnce() + Send) {
    Python::initialize();
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    });
}

#[test]
fn every_rtyped_corpus_function_and_program_verifies() {
    on_big_stack(|| {
        Python::attach(|py| {
            let mut bad = Vec::new();
            let mut rtyped = 0;
            let here = Path::new(env!("CARGO_MANIFEST_DIR"));
            for dir in [shared().join("corpus"), here.join("../testsuite/cases")] {
                for file in python_files(&dir) {
                    rtyped += check_case_file(py, &file, &mut bad);
                }
            }
            for file in python_files(&here.join("../testsuite/programs")) {
                let Ok(mut translation) = Translation::for_program(py, &file) else {
                    continue;
                };
                *translation.options_mut() = verified();
                rtyped +=
                    ill_typed(py, file.display().to_string(), &mut translation, &mut bad) as usize;
            }
            assert!(rtyped > 300, "only {rtyped} translations got past rtyping");
            assert!(bad.is_empty(), "ill-typed graphs:\n{}", bad.join("\n"));
        })
    });
}
