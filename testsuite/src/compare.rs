//! What counts as the same result (`../shared/corpus/README.md`): values
//! of the same type compared as values (floats bit for bit, NaN equal to
//! NaN, tuples and lists element by element), exceptions by class.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyTuple, PyType};

/// The result of running one case: a value, or the class of the exception
/// it raised (with the exception's text, when there was an instance).
#[derive(Debug)]
pub enum Outcome {
    /// The call returned this value.
    Value(Py<PyAny>),
    /// The call raised an exception of this class.
    Raised {
        /// The exception class.
        class: Py<PyType>,
        /// `str()` of the exception instance, empty when unknown.
        message: String,
    },
}

impl Outcome {
    /// The outcome of a finished call under CPython (or a backend that
    /// reports Python exceptions).
    pub fn from_result(py: Python<'_>, result: PyResult<Bound<'_, PyAny>>) -> Outcome {
        match result {
            Ok(v) => Outcome::Value(v.unbind()),
            Err(e) => Outcome::Raised {
                class: e.get_type(py).unbind(),
                message: e.value(py).to_string(),
            },
        }
    }

    /// A readable description for failure details.
    pub fn describe(&self, py: Python<'_>) -> String {
        match self {
            Outcome::Value(v) => safe_repr(v.bind(py)),
            Outcome::Raised { class, message } => {
                let name = class_key(class.bind(py), &[]).1;
                if message.is_empty() {
                    format!("raise {name}")
                } else {
                    format!("raise {name}: {message}")
                }
            }
        }
    }
}

/// `repr(obj)`, or a placeholder when `repr` itself fails.
pub fn safe_repr(obj: &Bound<'_, PyAny>) -> String {
    match obj.repr() {
        Ok(r) => r.to_string(),
        Err(_) => format!(
            "<unrepresentable {} object>",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ),
    }
}

/// The identity of an exception class across module instances:
/// `(module, qualname)`, with every module named in `case_modules` (the
/// instances of the case file) written as `<case>`.
pub fn class_key(cls: &Bound<'_, PyType>, case_modules: &[&str]) -> (String, String) {
    let module = cls
        .getattr("__module__")
        .and_then(|m| m.extract::<String>())
        .unwrap_or_else(|_| "?".to_string());
    let qualname = cls
        .getattr("__qualname__")
        .and_then(|m| m.extract::<String>())
        .unwrap_or_else(|_| "?".to_string());
    let module = if case_modules.contains(&module.as_str()) {
        "<case>".to_string()
    } else {
        module
    };
    (module, qualname)
}

fn is_plain_int_like(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>()
}

/// True when `a` and `b` are the same value under the corpus rules.
/// Integers of `int` subclasses (`r_uint`...) compare as Python ints.
pub fn values_equal(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    let same_type = a.get_type().is(b.get_type());
    if !same_type {
        if is_plain_int_like(a) && is_plain_int_like(b) {
            let ia = a.py().get_type::<PyInt>().call1((a,))?;
            let ib = a.py().get_type::<PyInt>().call1((b,))?;
            return ia.eq(ib);
        }
        return Ok(false);
    }
    if let (Ok(fa), Ok(fb)) = (a.cast::<PyFloat>(), b.cast::<PyFloat>()) {
        let (x, y) = (fa.value(), fb.value());
        return Ok(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()));
    }
    if let (Ok(ta), Ok(tb)) = (a.cast::<PyTuple>(), b.cast::<PyTuple>()) {
        if ta.len() != tb.len() {
            return Ok(false);
        }
        for (x, y) in ta.iter().zip(tb.iter()) {
            if !values_equal(&x, &y)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    if let (Ok(la), Ok(lb)) = (a.cast::<PyList>(), b.cast::<PyList>()) {
        if la.len() != lb.len() {
            return Ok(false);
        }
        for (x, y) in la.iter().zip(lb.iter()) {
            if !values_equal(&x, &y)? {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    a.eq(b)
}

/// Compares a backend's outcome with the reference; `Err` gives the
/// detail of a mismatch.  `case_modules` names the module instances of the
/// case file, whose classes are compared by qualified name.
pub fn compare_outcomes(
    py: Python<'_>,
    expected: &Outcome,
    got: &Outcome,
    case_modules: &[&str],
) -> Result<(), String> {
    let mismatch = || {
        Err(format!(
            "expected {}, got {}",
            expected.describe(py),
            got.describe(py)
        ))
    };
    match (expected, got) {
        (Outcome::Value(e), Outcome::Value(g)) => match values_equal(e.bind(py), g.bind(py)) {
            Ok(true) => Ok(()),
            Ok(false) => mismatch(),
            Err(err) => Err(format!(
                "expected {}, got {} (comparing raised {err})",
                expected.describe(py),
                got.describe(py)
            )),
        },
        (Outcome::Raised { class: e, .. }, Outcome::Raised { class: g, .. }) => {
            if class_key(e.bind(py), case_modules) == class_key(g.bind(py), case_modules) {
                Ok(())
            } else {
                mismatch()
            }
        }
        _ => mismatch(),
    }
}
