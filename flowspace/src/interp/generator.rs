//! Generator objects: a generator graph called by the interpreter gives
//! one of these, owning the suspended frame; each `__next__` runs the
//! frame to its next `yield_`.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyRuntimeError, PyStopIteration, PyValueError};
use pyo3::prelude::*;

use super::exec::{Frame, Outcome};
use super::{lock, Shared};

enum GenState {
    /// Not started, or suspended at a `yield_`.
    Ready(Box<Frame>),
    /// Inside `__next__`.
    Running,
    /// Returned, raised or closed.
    Done,
}

/// A generator running a flow graph (the graph interpreter's counterpart
/// of CPython's generator object).
#[pyclass(module = "rpy3", name = "generator", frozen)]
pub struct FlowGenerator {
    shared: Arc<Shared>,
    name: String,
    state: Mutex<GenState>,
}

impl FlowGenerator {
    pub(crate) fn new(shared: Arc<Shared>, frame: Frame) -> FlowGenerator {
        let name = frame.graph.name.clone();
        FlowGenerator {
            shared,
            name,
            state: Mutex::new(GenState::Ready(Box::new(frame))),
        }
    }

    fn resume(&self, py: Python<'_>, sent: Option<Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
        let mut frame = {
            let mut state = lock(&self.state);
            match std::mem::replace(&mut *state, GenState::Running) {
                GenState::Ready(frame) => frame,
                GenState::Running => {
                    *state = GenState::Running;
                    return Err(PyValueError::new_err("generator already executing"));
                }
                GenState::Done => {
                    *state = GenState::Done;
                    return Ok(None);
                }
            }
        };
        if let Some(value) = sent {
            frame.resume_with(value);
        }
        let result = match self.shared.enter(py) {
            Ok(_depth) => self.shared.run_frame(py, &mut frame),
            Err(e) => Err(e),
        };
        let mut state = lock(&self.state);
        match result {
            Ok(Outcome::Yield(v)) => {
                *state = GenState::Ready(frame);
                Ok(Some(v))
            }
            Ok(Outcome::Return(v)) => {
                *state = GenState::Done;
                if v.is_none(py) {
                    Ok(None)
                } else {
                    Err(PyStopIteration::new_err((v,)))
                }
            }
            Err(e) => {
                *state = GenState::Done;
                if e.is_instance_of::<PyStopIteration>(py) {
                    // PEP 479: a StopIteration escaping a generator body.
                    let err = PyRuntimeError::new_err("generator raised StopIteration");
                    err.set_cause(py, Some(e));
                    return Err(err);
                }
                Err(e)
            }
        }
    }
}

#[pymethods]
impl FlowGenerator {
    fn __iter__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.resume(py, None)
    }

    /// Resumes the generator, `value` becoming the result of the `yield_`
    /// it is suspended at.
    fn send(&self, py: Python<'_>, value: Py<PyAny>) -> PyResult<Py<PyAny>> {
        match self.resume(py, Some(value))? {
            Some(v) => Ok(v),
            None => Err(PyStopIteration::new_err(())),
        }
    }

    /// Finishes the generator without running it further.
    fn close(&self) {
        let mut state = lock(&self.state);
        if !matches!(*state, GenState::Running) {
            *state = GenState::Done;
        }
    }

    fn __repr__(&self) -> String {
        format!("<flow generator {}>", self.name)
    }
}
