//! `rpy3._native`: `interpret(f, args, backend="llinterp")` and
//! `interpret_raises(ExcClass, f, args, backend="llinterp")`, the way
//! PyPy's tests call `interpret`.  Translations are cached per function
//! and argument types, so repeated calls pay only for execution.
//!
//! Beneath `rpy3.Translation` (`python/rpy3/translation.py`): the
//! `Translation` class (the driver's, for one function and example
//! arguments: annotate, rtype, the graphs as text), `build_cases` (calls
//! of a function compiled into one executable by the C or native backend,
//! as `rpy3 check` builds case files) and `run_case` (runs one of them and
//! reads its outcome back).
//!
//! Built with maturin for a normal `python3` (see the README); the `rpy3`
//! binary registers the same module in its embedded interpreter.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use pyo3::exceptions::{PyAssertionError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple, PyType};
use rpy3_driver::c::{build_cases_with, Build, FunctionCases};
use rpy3_driver::case_exe::{read_outcome, run_case as run_case_exe};
use rpy3_driver::llinterp::Outcome;
use rpy3_driver::{Backend, DriverError, Translation};

/// Why rpy3 could not translate or run the function (not an exception of
/// the program).
fn translation_error(e: DriverError) -> PyErr {
    PyRuntimeError::new_err(format!("rpy3: {e}"))
}

thread_local! {
    /// Translations by function identity and argument types.
    static CACHE: RefCell<HashMap<(usize, Vec<String>), Translation>> = RefCell::new(HashMap::new());
}

fn type_key(args: &[Bound<'_, PyAny>]) -> Vec<String> {
    args.iter()
        .map(|a| {
            a.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// Runs `f(*args)` translated; the program's exceptions are raised as
/// instances of the same classes.
#[pyfunction]
#[pyo3(signature = (f, args, backend = "llinterp"))]
fn interpret(
    py: Python<'_>,
    f: &Bound<'_, PyAny>,
    args: &Bound<'_, PyAny>,
    backend: &str,
) -> PyResult<Py<PyAny>> {
    let args: Vec<Bound<'_, PyAny>> = args.try_iter()?.collect::<PyResult<_>>()?;
    match backend {
        "llinterp" => {}
        "flow" => {
            let mut interp = rpy3_flowspace::interp::Interp::new(py)?;
            return interp.call(py, f, &args);
        }
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown or unimplemented backend '{other}' (expected llinterp or flow)"
            )))
        }
    }
    let key = (f.as_ptr() as usize, type_key(&args));
    let outcome = CACHE.with(|cache| -> Result<Outcome, DriverError> {
        let mut cache = cache.borrow_mut();
        let translation = cache
            .entry(key)
            .or_insert_with(|| Translation::for_function(f, &args));
        translation.llinterp(py)?.call(py, f, &args)
    });
    match outcome.map_err(translation_error)? {
        Outcome::Value(v) => Ok(v),
        Outcome::Raised(class) => Err(PyErr::from_value(class.bind(py).call0()?)),
    }
}

/// Checks that translated `f(*args)` raises `exc` (or a subclass).
#[pyfunction]
#[pyo3(signature = (exc, f, args, backend = "llinterp"))]
fn interpret_raises(
    py: Python<'_>,
    exc: &Bound<'_, PyType>,
    f: &Bound<'_, PyAny>,
    args: &Bound<'_, PyAny>,
    backend: &str,
) -> PyResult<Py<PyAny>> {
    match interpret(py, f, args, backend) {
        Ok(v) => Err(PyAssertionError::new_err(format!(
            "{} did not raise {}: it returned {}",
            f.getattr("__name__")
                .map(|n| n.to_string())
                .unwrap_or_default(),
            exc.name().map(|n| n.to_string()).unwrap_or_default(),
            v.bind(py).repr().map(|r| r.to_string()).unwrap_or_default()
        ))),
        Err(e) if e.is_instance(py, exc) => Ok(e.value(py).clone().into_any().unbind()),
        Err(e) => Err(e),
    }
}

/// One function translated for arguments of the types of example values:
/// the driver's [`Translation`], phase by phase.
#[pyclass(unsendable, name = "Translation", module = "rpy3._native")]
struct PyTranslation {
    inner: Translation,
}

#[pymethods]
impl PyTranslation {
    #[new]
    fn new(f: &Bound<'_, PyAny>, examples: &Bound<'_, PyAny>) -> PyResult<PyTranslation> {
        let examples: Vec<Bound<'_, PyAny>> = examples.try_iter()?.collect::<PyResult<_>>()?;
        Ok(PyTranslation {
            inner: Translation::for_function(f, &examples),
        })
    }

    /// Flows and annotates everything the function reaches; the
    /// annotation of its result, as text.
    fn annotate(&mut self, py: Python<'_>) -> PyResult<String> {
        self.inner
            .annotated_completely(py)
            .map_err(translation_error)?;
        let entry = self.inner.entry_graph().expect("annotated");
        let ann = self.inner.annotator().expect("annotated");
        Ok(ann.canonical(&ann.return_annotation(entry)))
    }

    /// Annotates if needed and rtypes (the verifier runs after rtyping in
    /// debug builds); the entry's low-level function type, as text.
    fn rtype(&mut self, py: Python<'_>) -> PyResult<String> {
        let program = self.inner.rtyped(py).map_err(translation_error)?;
        Ok(program.functions[program.entry].ty.to_string())
    }

    /// The graphs of `stage` (`annotate`: the flow graphs, each variable
    /// with its annotation; `rtype`: the low-level graphs with their
    /// types), the entry's first, then by name.
    fn graphs_text(&mut self, py: Python<'_>, stage: &str) -> PyResult<String> {
        let mut out = String::new();
        match stage {
            "annotate" => {
                self.annotate(py)?;
                let entry = self.inner.entry_graph().expect("annotated");
                let ann = self.inner.annotator().expect("annotated");
                let mut order: Vec<_> = ann.graphs.keys().collect();
                order.sort_by_key(|&g| (g != entry, ann.graphs[g].graph.name.clone()));
                for g in order {
                    let ag = &ann.graphs[g];
                    let note =
                        |v: rpy3_model::VarId| ag.bindings[v].as_ref().map(|s| ann.canonical(s));
                    out.push_str(&rpy3_model::print::graph_to_text_with(py, &ag.graph, &note));
                    out.push('\n');
                }
            }
            "rtype" => {
                let program = self.inner.rtyped(py).map_err(translation_error)?;
                let mut order: Vec<usize> = (0..program.functions.len()).collect();
                order.sort_by_key(|&i| (i != program.entry, program.functions[i].name.clone()));
                for i in order {
                    let g = &program.functions[i].graph;
                    let note = |v: rpy3_model::VarId| g.vars[v].concretetype.map(|t| t.to_string());
                    out.push_str(&rpy3_model::print::graph_to_text_with(py, g, &note));
                    out.push('\n');
                }
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown stage '{other}' (expected annotate or rtype)"
                )))
            }
        }
        Ok(out)
    }
}

/// Compiles the calls `cases` (argument lists) of `f` into the executable
/// `out` with the compiled backend `backend` (`c`, `native` or their
/// gc-stress builds), as `rpy3 check` builds a case file; the number of
/// each call in the executable.  The arguments are laid out as data of
/// the program, annotated by the types of the first call's.
#[pyfunction]
fn build_cases(
    py: Python<'_>,
    f: &Bound<'_, PyAny>,
    cases: &Bound<'_, PyAny>,
    backend: &str,
    out: PathBuf,
) -> PyResult<Vec<usize>> {
    let b = Backend::from_name(backend)
        .filter(|b| b.is_compiled())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown compiled backend '{backend}' (expected c, native, c-gcstress or native-gcstress)"
            ))
        })?;
    let mut calls = Vec::new();
    for (i, args) in cases.try_iter()?.enumerate() {
        let args: Vec<Bound<'_, PyAny>> = args?.try_iter()?.collect::<PyResult<_>>()?;
        calls.push((i, args));
    }
    let n = calls.len();
    let funcs = [FunctionCases {
        func: f.clone(),
        cases: calls,
    }];
    let mut build = Build::for_backend(b);
    if let Build::C(opts) = &mut build {
        // `$RPY3_CFLAGS` as for `rpy3 check`
        if let Ok(flags) = std::env::var("RPY3_CFLAGS") {
            opts.cflags
                .extend(flags.split_whitespace().map(String::from));
        }
    }
    let numbers = build_cases_with(py, &funcs, &out, &build).map_err(translation_error)?;
    (0..n)
        .map(|i| {
            numbers
                .get(&i)
                .copied()
                .ok_or_else(|| PyRuntimeError::new_err("rpy3: a call was not built"))
        })
        .collect()
}

/// Runs call `number` of the executable `exe` built by [`build_cases`]
/// for `f`: `(printed, raised, value)`, what the program printed (bytes),
/// and its result (`raised` false) or the class of the exception that
/// escaped (`raised` true).
#[pyfunction]
fn run_case(
    py: Python<'_>,
    f: &Bound<'_, PyAny>,
    exe: PathBuf,
    number: usize,
) -> PyResult<(Py<PyBytes>, bool, Py<PyAny>)> {
    let fail = |e: String| PyRuntimeError::new_err(format!("rpy3: {e}"));
    let run = run_case_exe(&exe, number, Duration::from_secs(600)).map_err(fail)?;
    let read = read_outcome(py, f, &run).map_err(fail)?;
    let printed = PyBytes::new(py, &read.printed).unbind();
    Ok(match read.outcome {
        Outcome::Value(v) => (printed, false, v),
        Outcome::Raised(class) => (printed, true, class.into_any()),
    })
}

/// The module.
#[pymodule]
pub fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(interpret, m)?)?;
    m.add_function(wrap_pyfunction!(interpret_raises, m)?)?;
    m.add_function(wrap_pyfunction!(build_cases, m)?)?;
    m.add_function(wrap_pyfunction!(run_case, m)?)?;
    m.add_class::<PyTranslation>()?;
    let _ = PyTuple::empty(m.py());
    Ok(())
}
