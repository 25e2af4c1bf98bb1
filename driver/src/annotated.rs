//! The `annotate` backend: the flow graphs the annotator made, run by the
//! graph interpreter, checking every value each variable takes against
//! its annotation.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use rpy3_annotator::soundness::Oracle;
use rpy3_flowspace::interp::Interp;

use crate::{DriverError, Translation};

/// An annotated entry function, ready to run with checking.
pub struct Annotated {
    /// The graph interpreter (its cache holds the annotator's graphs).
    pub interp: Interp,
    violations: Arc<Mutex<Vec<String>>>,
}

impl Annotated {
    /// Annotates `translation` completely and takes its flow graphs into
    /// a checking interpreter.
    pub fn new(py: Python<'_>, translation: &mut Translation) -> Result<Annotated, DriverError> {
        let ann = translation.annotated_completely(py)?;
        let oracle = Arc::new(Oracle::new(ann));
        let violations = Arc::new(Mutex::new(Vec::new()));
        let interp = Interp::with_cache(py, std::mem::take(&mut ann.cache))
            .map_err(|e| DriverError::Run(e.to_string()))?;
        let (o, v) = (oracle.clone(), violations.clone());
        interp.set_observer(Arc::new(move |py, graph, var, value| {
            if let Some(msg) = o.check(py, graph, var, value) {
                if let Ok(mut list) = v.lock() {
                    if list.len() < 8 {
                        list.push(msg);
                    }
                }
            }
        }));
        Ok(Annotated { interp, violations })
    }

    /// The first violation seen since the last call, if any.
    pub fn take_violation(&mut self) -> Option<String> {
        let mut list = self.violations.lock().ok()?;
        let first = list.first().cloned();
        list.clear();
        first
    }
}
