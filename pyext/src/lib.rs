//! `rpy3._native`: `interpret(f, args, backend="llinterp")` and
//! `interpret_raises(ExcClass, f, args, backend="llinterp")`, the way
//! PyPy's tests call `interpret`.  Translations are cached per function
//! and argument types, so repeated calls pay only for execution.
//!
//! Built with maturin for a normal `python3` (see the README); the `rpy3`
//! binary registers the same module in its embedded interpreter.

use std::cell::RefCell;
use std::collections::HashMap;

use pyo3::exceptions::{PyAssertionError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};
use rpy3_driver::llinterp::Outcome;
use rpy3_driver::{DriverError, Translation};

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

/// The module.
#[pymodule]
pub fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(interpret, m)?)?;
    m.add_function(wrap_pyfunction!(interpret_raises, m)?)?;
    let _ = PyTuple::empty(m.py());
    Ok(())
}
