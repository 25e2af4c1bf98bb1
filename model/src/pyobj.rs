//! A shareable, identity-compared handle on a live Python object.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use pyo3::prelude::*;

/// A live Python object held by a graph (a `Constant`'s value, the function
/// a graph was built from).  Cloning does not touch the Python refcount, so
/// graphs can be copied without holding the GIL; equality and hashing are by
/// object identity, like Python's `is`.
#[derive(Clone)]
pub struct PyObj(Arc<Py<PyAny>>);

impl PyObj {
    /// Wraps a bound object.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyObj {
        PyObj(Arc::new(obj.clone().unbind()))
    }

    /// Wraps an owned reference.
    pub fn from_py(obj: Py<PyAny>) -> PyObj {
        PyObj(Arc::new(obj))
    }

    /// Binds the object to the current GIL token.
    pub fn bind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyAny> {
        self.0.bind(py)
    }

    /// The object's address, its identity while it is alive (we keep it alive).
    pub fn addr(&self) -> usize {
        self.0.as_ptr() as usize
    }
}

impl PartialEq for PyObj {
    fn eq(&self, other: &PyObj) -> bool {
        self.addr() == other.addr()
    }
}

impl Eq for PyObj {}

impl Hash for PyObj {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.addr().hash(state)
    }
}

impl fmt::Debug for PyObj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PyObj({:#x})", self.addr())
    }
}
