//! The flow object space: turns live CPython 3.11 function objects into
//! flow graphs by abstract interpretation of their bytecode, and runs flow
//! graphs on real Python objects (the `flow` backend).
//!
//! Entry points: [`build_flow`] (one function to one graph) and
//! [`FlowCache`] (graphs built once per function object).

mod error;
pub mod interp;

pub use error::FlowError;

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::{FunctionGraph, PyObj};

/// Builds the flow graph of a Python function object.
pub fn build_flow(py: Python<'_>, func: &Bound<'_, PyAny>) -> Result<FunctionGraph, FlowError> {
    let _ = (py, func);
    Err(FlowError::new("build_flow is not implemented yet", "<unknown>", 0))
}

/// Graphs built so far, one per function object (kept alive by the cache).
#[derive(Default)]
pub struct FlowCache {
    graphs: HashMap<PyObj, Arc<FunctionGraph>>,
}

impl FlowCache {
    /// An empty cache.
    pub fn new() -> FlowCache {
        FlowCache::default()
    }

    /// The graph of `func`, building it on first use.
    pub fn get(&mut self, py: Python<'_>, func: &Bound<'_, PyAny>) -> Result<Arc<FunctionGraph>, FlowError> {
        let key = PyObj::new(func);
        if let Some(g) = self.graphs.get(&key) {
            return Ok(g.clone());
        }
        let g = Arc::new(build_flow(py, func)?);
        self.graphs.insert(key, g.clone());
        Ok(g)
    }
}
