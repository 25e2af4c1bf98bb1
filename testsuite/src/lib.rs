//! The differential harness: runs every case of a case directory (format:
//! `../shared/corpus/README.md`) on each backend and compares the result
//! with CPython's.
//!
//! Each case file is imported once for the CPython reference run and once
//! more per backend, under distinct module names, so that module state
//! changed by one run cannot leak into another.

pub mod c_backend;
pub mod capture;
pub mod compare;
pub mod load;
pub mod program;
pub mod record;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};
use rpy3_driver::annotated::Annotated;
use rpy3_driver::{llinterp, DriverError, Translation};
use rpy3_flowspace::interp::{is_internal_error, Interp};

pub use compare::{compare_outcomes, values_equal, Outcome};
pub use record::{records_to_json, CaseRecord, Status};

pub use rpy3_driver::{Backend, PLANNED_BACKENDS};

/// Runs `f` on a thread with a large stack (the interpreters recurse once
/// per nested call of the program), initialising CPython first on the
/// calling thread.  A panic in `f` is returned as its message.
pub fn with_big_stack<R: Send>(f: impl FnOnce() -> R + Send) -> Result<R, String> {
    // A debug build uses some 30 KiB of stack per nested graph call; the
    // interpreter's depth limit is capped at 60000 calls (a program may
    // raise Python's limit that far).  Only the pages used are committed.
    const STACK: usize = 2 << 30;
    Python::initialize();
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("rpy3-runner".into())
            .stack_size(STACK)
            .spawn_scoped(s, f)
            .map_err(|e| format!("cannot start the runner thread: {e}"))?;
        handle.join().map_err(|p| panic_message(&*p))
    })
}

/// Runs one case's stage work: a panic of rpy3 itself becomes that case's
/// error text (`internal error: panic: ...`), so the other cases still run.
pub fn isolate<R>(f: impl FnOnce() -> Result<R, String>) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(f))
        .unwrap_or_else(|p| Err(format!("internal error: panic: {}", panic_message(&*p))))
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// How cases are checked.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Also compare what each case printed on stdout with what CPython
    /// printed (the fuzzer's programs print; corpus cases need not).
    pub compare_output: bool,
}

/// Checks every case file and program found at `paths` (files, or
/// directories whose `*.py` files defining `CASES`, or else an entry
/// point, are taken in name order) on every backend.  Never panics:
/// unreadable inputs give error records.
pub fn check_paths(paths: &[PathBuf], backends: &[Backend]) -> Vec<CaseRecord> {
    check_paths_with(paths, backends, CheckOptions::default())
}

/// [`check_paths`] with options.
pub fn check_paths_with(
    paths: &[PathBuf],
    backends: &[Backend],
    options: CheckOptions,
) -> Vec<CaseRecord> {
    let (found, mut records) = case_files(paths, backends);
    let (programs, files): (Vec<PathBuf>, Vec<PathBuf>) = found.into_iter().partition(|p| {
        std::fs::read_to_string(p)
            .is_ok_and(|src| !load::defines_cases(&src) && program::is_program(&src))
    });
    let result = with_big_stack(|| {
        Python::attach(|py| {
            files
                .iter()
                .flat_map(|f| check_file(py, f, backends, options))
                .collect::<Vec<_>>()
        })
    });
    match result {
        Ok(mut r) => records.append(&mut r),
        Err(msg) => records.extend(file_error(
            &paths_display(&files),
            backends,
            format!("internal error: panic: {msg}"),
        )),
    }
    records.extend(program::check_programs(&programs, backends));
    records
}

fn paths_display(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn file_error(file: &str, backends: &[Backend], detail: String) -> Vec<CaseRecord> {
    backends
        .iter()
        .map(|b| CaseRecord {
            file: file.to_string(),
            function: String::new(),
            args: String::new(),
            backend: b.name().to_string(),
            status: Status::Error,
            detail: detail.clone(),
        })
        .collect()
}

/// The case files named by `paths`, and error records for paths that are
/// missing or hold no case file.
pub fn case_files(paths: &[PathBuf], backends: &[Backend]) -> (Vec<PathBuf>, Vec<CaseRecord>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let display = path.display().to_string();
        if path.is_dir() {
            let entries = match std::fs::read_dir(path) {
                Ok(e) => e,
                Err(e) => {
                    errors.extend(file_error(
                        &display,
                        backends,
                        format!("cannot read directory: {e}"),
                    ));
                    continue;
                }
            };
            let mut found: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "py"))
                .filter(|p| {
                    std::fs::read_to_string(p)
                        .is_ok_and(|src| load::defines_cases(&src) || program::is_program(&src))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                errors.extend(file_error(
                    &display,
                    backends,
                    "no case files (*.py defining CASES) or programs in this directory".into(),
                ));
            }
            files.extend(found);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            errors.extend(file_error(
                &display,
                backends,
                "no such file or directory".into(),
            ));
        }
    }
    (files, errors)
}

/// One entry of `CASES`.
struct Case {
    /// Its position in `CASES`.
    index: usize,
    func: Py<PyAny>,
    args: Py<PyTuple>,
    args_repr: String,
    function: String,
    expected: Option<Py<PyAny>>,
}

fn function_name(func: &Bound<'_, PyAny>) -> String {
    func.getattr("__qualname__")
        .or_else(|_| func.getattr("__name__"))
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| compare::safe_repr(func))
}

/// Reads `CASES`; an entry that is not `(function, args[, expected])`
/// gives its error text in place of a case.
fn read_cases(
    py: Python<'_>,
    module: &Bound<'_, PyModule>,
) -> Result<Vec<Result<Case, String>>, String> {
    let cases = module
        .getattr("CASES")
        .map_err(|_| "the file defines no CASES".to_string())?;
    let iter = cases
        .try_iter()
        .map_err(|_| "CASES is not a list".to_string())?;
    let mut out = Vec::new();
    for (i, entry) in iter.enumerate() {
        let entry =
            entry.map_err(|e| format!("reading CASES: {}", load::exception_line(py, &e)))?;
        out.push(read_case(py, i, &entry));
    }
    Ok(out)
}

fn read_case(py: Python<'_>, i: usize, entry: &Bound<'_, PyAny>) -> Result<Case, String> {
    let bad = || {
        format!(
            "CASES[{i}] is not (function, args) or (function, args, expected): {}",
            compare::safe_repr(entry)
        )
    };
    let t = entry.cast::<PyTuple>().map_err(|_| bad())?;
    if t.len() != 2 && t.len() != 3 {
        return Err(bad());
    }
    let func = t.get_item(0).map_err(|_| bad())?;
    let args = t.get_item(1).map_err(|_| bad())?;
    if !args.is_instance_of::<PyList>() && !args.is_instance_of::<PyTuple>() {
        return Err(bad());
    }
    let args_repr = compare::safe_repr(&args);
    let items = args
        .try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| bad())?;
    let args = PyTuple::new(py, items).map_err(|_| bad())?.unbind();
    let expected = if t.len() == 3 {
        Some(t.get_item(2).map_err(|_| bad())?.unbind())
    } else {
        None
    };
    Ok(Case {
        index: i,
        function: function_name(&func),
        func: func.unbind(),
        args,
        args_repr,
        expected,
    })
}

/// The reference outcome: `expected` when given, else CPython's.
fn reference(py: Python<'_>, case: &Case) -> Outcome {
    if let Some(expected) = &case.expected {
        let e = expected.bind(py);
        if let Ok(cls) = e.cast::<PyType>() {
            if cls
                .is_subclass_of::<pyo3::exceptions::PyBaseException>()
                .unwrap_or(false)
            {
                return Outcome::Raised {
                    class: cls.clone().unbind(),
                    message: String::new(),
                };
            }
        }
        return Outcome::Value(expected.clone_ref(py));
    }
    Outcome::from_result(py, case.func.bind(py).call1(case.args.bind(py)))
}

/// Runs cases on one backend, keeping per-module state (the flow cache,
/// the translation of each entry function).
enum Runner {
    Flow(Box<Interp>),
    Annotate(HashMap<String, Result<Annotated, DriverError>>),
    Llinterp(HashMap<String, Translation>),
    /// The executables of the file (built by `build_c` before the first
    /// case runs).
    C {
        backend: Backend,
        /// Whether what a case printed is echoed on stdout.
        echo: bool,
        file: Option<Result<c_backend::CFile, String>>,
    },
}

impl Runner {
    fn new(py: Python<'_>, backend: Backend, echo: bool) -> PyResult<Runner> {
        match backend {
            Backend::Flow => Ok(Runner::Flow(Box::new(Interp::new(py)?))),
            Backend::Annotate => Ok(Runner::Annotate(HashMap::new())),
            Backend::Llinterp => Ok(Runner::Llinterp(HashMap::new())),
            Backend::C | Backend::CGcStress | Backend::Native | Backend::NativeGcStress => {
                Ok(Runner::C {
                    backend,
                    echo,
                    file: None,
                })
            }
        }
    }

    /// For the C backend: compiles the cases of the file (all at once).
    fn build_c(&mut self, py: Python<'_>, cases: &[Result<Case, String>]) {
        let Runner::C { backend, file, .. } = self else {
            return;
        };
        let mut funcs: Vec<c_backend::FuncCases<'_>> = Vec::new();
        for case in cases.iter().flatten() {
            let func = case.func.bind(py);
            let args: Vec<Bound<'_, PyAny>> = case.args.bind(py).iter().collect();
            match funcs.iter_mut().find(|f| f.func.is(func)) {
                Some(f) => f.cases.push((case.index, args)),
                None => funcs.push(c_backend::FuncCases {
                    func: func.clone(),
                    cases: vec![(case.index, args)],
                }),
            }
        }
        let backend = *backend;
        *file = Some(isolate(|| c_backend::CFile::build(py, &funcs, backend)));
    }

    /// The backend's outcome, or the text of an error of rpy3 itself.
    fn run(&mut self, py: Python<'_>, case: &Case) -> Result<Outcome, String> {
        let func = case.func.bind(py);
        let args: Vec<Bound<'_, PyAny>> = case.args.bind(py).iter().collect();
        // one translation per function object (two modules may both
        // define a `run`)
        let key = format!("{}@{:x}", case.function, func.as_ptr() as usize);
        match self {
            Runner::Flow(interp) => match interp.call(py, func, &args) {
                Ok(v) => Ok(Outcome::Value(v)),
                Err(e) if is_internal_error(py, &e) => Err(internal_error_text(py, &e)),
                Err(e) => Ok(Outcome::from_result(py, Err(e))),
            },
            Runner::Llinterp(done) => {
                let translation = done
                    .entry(key)
                    .or_insert_with(|| Translation::for_function(func, &args));
                let outcome = translation
                    .llinterp(py)
                    .and_then(|backend| backend.call(py, func, &args))
                    .map_err(|e| e.to_string())?;
                Ok(match outcome {
                    llinterp::Outcome::Value(v) => Outcome::Value(v),
                    llinterp::Outcome::Raised(class) => Outcome::Raised {
                        class,
                        message: String::new(),
                    },
                })
            }
            Runner::C { file, echo, .. } => match file {
                Some(Ok(f)) => f.run_echoing(py, case.index, func, *echo),
                Some(Err(e)) => Err(e.clone()),
                None => Err("internal error: the cases were not compiled".into()),
            },
            Runner::Annotate(done) => {
                let annotated = done.entry(key).or_insert_with(|| {
                    Annotated::new(py, &mut Translation::for_function(func, &args))
                });
                let annotated = annotated.as_mut().map_err(|e| e.to_string())?;
                let result = annotated.interp.call(py, func, &args);
                if let Some(v) = annotated.take_violation() {
                    return Err(DriverError::Unsound(v).to_string());
                }
                match result {
                    Ok(v) => Ok(Outcome::Value(v)),
                    Err(e) if is_internal_error(py, &e) => Err(internal_error_text(py, &e)),
                    Err(e) => Ok(Outcome::from_result(py, Err(e))),
                }
            }
        }
    }
}

fn internal_error_text(py: Python<'_>, err: &PyErr) -> String {
    let msg = err.value(py).to_string();
    if err.is_instance_of::<rpy3_flowspace::interp::FlowingError>(py) {
        msg
    } else if err.is_instance_of::<pyo3::panic::PanicException>(py) {
        format!("internal error: panic: {msg}")
    } else {
        format!("internal error: {msg}")
    }
}

/// Checks one case file on every backend.
fn check_file(
    py: Python<'_>,
    path: &Path,
    backends: &[Backend],
    options: CheckOptions,
) -> Vec<CaseRecord> {
    let display = path.display().to_string();
    if let Err(e) = load::prepare_sys_path(py, path) {
        return file_error(
            &display,
            backends,
            format!("cannot set up sys.path: {}", load::exception_line(py, &e)),
        );
    }
    let ref_name = load::fresh_module_name(path, "ref");
    let ref_module = match load::import_instance(py, path, &ref_name) {
        Ok(m) => m,
        Err(e) => {
            return file_error(
                &display,
                backends,
                format!("cannot import: {}", load::exception_line(py, &e)),
            )
        }
    };
    let cases = match read_cases(py, &ref_module) {
        Ok(c) => c,
        Err(msg) => {
            load::forget_instance(py, &ref_name);
            return file_error(&display, backends, msg);
        }
    };
    let capture = |f: &mut dyn FnMut() -> Option<Outcome>| {
        if options.compare_output {
            capture::capture_stdout(py, f)
        } else {
            (f(), None)
        }
    };
    let (refs, ref_outputs): (Vec<Option<Outcome>>, Vec<Option<Vec<u8>>>) = cases
        .iter()
        .map(|c| capture(&mut || c.as_ref().ok().map(|c| reference(py, c))))
        .unzip();

    let mut records = Vec::new();
    for &backend in backends {
        let record = |function: &str, args: &str, status: Status, detail: String| CaseRecord {
            file: display.clone(),
            function: function.to_string(),
            args: args.to_string(),
            backend: backend.name().to_string(),
            status,
            detail,
        };
        let name = load::fresh_module_name(path, backend.name());
        let setup = load::import_instance(py, path, &name)
            .map_err(|e| {
                format!(
                    "cannot import a second instance: {}",
                    load::exception_line(py, &e)
                )
            })
            .and_then(|m| read_cases(py, &m))
            .and_then(|c| {
                if c.len() == cases.len() {
                    Ok(c)
                } else {
                    Err("CASES differs between two imports of the file".to_string())
                }
            })
            .and_then(|c| {
                Ok((
                    c,
                    Runner::new(py, backend, options.compare_output)
                        .map_err(|e| internal_error_text(py, &e))?,
                ))
            });
        let (bcases, mut runner) = match setup {
            Ok(s) => s,
            Err(msg) => {
                records.push(record("", "", Status::Error, msg));
                load::forget_instance(py, &name);
                continue;
            }
        };
        runner.build_c(py, &bcases);
        for (((case, bcase), expected), ref_output) in
            cases.iter().zip(&bcases).zip(&refs).zip(&ref_outputs)
        {
            let (case, bcase, expected) = match (case, bcase, expected) {
                (Ok(c), Ok(b), Some(e)) => (c, b, e),
                (Err(msg), _, _) | (_, Err(msg), _) => {
                    records.push(record("", "", Status::Error, msg.clone()));
                    continue;
                }
                _ => unreachable!("a reference exists for every well-formed case"),
            };
            let (got, output) = if options.compare_output {
                capture::capture_stdout(py, || isolate(|| runner.run(py, bcase)))
            } else {
                (isolate(|| runner.run(py, bcase)), None)
            };
            let (status, detail) = match got {
                Err(msg) => (Status::Error, msg),
                Ok(got) => match compare_outcomes(py, expected, &got, &[&ref_name, &name]) {
                    Ok(()) => match (ref_output, &output) {
                        (Some(want), Some(got)) if want != got => (
                            Status::Fail,
                            format!(
                                "stdout differs: got {:?}, expected {:?}",
                                String::from_utf8_lossy(got),
                                String::from_utf8_lossy(want)
                            ),
                        ),
                        _ => (Status::Pass, String::new()),
                    },
                    Err(detail) => (Status::Fail, detail),
                },
            };
            records.push(record(&case.function, &case.args_repr, status, detail));
        }
        load::forget_instance(py, &name);
    }
    load::forget_instance(py, &ref_name);
    records
}
