//! The `annotate` backend: annotate the case's function from the types of
//! its arguments, then run the flow graphs and check every value against
//! the annotations.

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use rpy3_annotator::soundness::Oracle;
use rpy3_annotator::{Annotator, SomeValue};
use rpy3_flowspace::interp::Interp;

/// An annotated entry function, ready to run with checking.
pub struct Annotated {
    pub interp: Interp,
    violations: Arc<Mutex<Vec<String>>>,
}

/// The annotation of an argument of the given value: its type only, as
/// `interpret(f, args)` does.
fn arg_annotation(
    ann: &mut Annotator,
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
) -> Result<SomeValue, String> {
    let s = ann.immutablevalue(py, value).map_err(|e| e.to_string())?;
    Ok(match s {
        SomeValue::Integer { kind, .. } => SomeValue::Integer {
            kind,
            nonneg: false,
            konst: None,
        },
        SomeValue::Str { kind, .. } => SomeValue::Str {
            kind,
            is_char: false,
            can_be_none: false,
            konst: None,
        },
        other => other.without_const(),
    })
}

impl Annotated {
    /// Annotates `func` for arguments like `args`; the text of the error
    /// if the program is not RPython or not completely annotated.
    pub fn new(
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: &[Bound<'_, PyAny>],
    ) -> Result<Annotated, String> {
        let mut ann = Annotator::new();
        let mut sargs = Vec::new();
        for a in args {
            sargs.push(arg_annotation(&mut ann, py, a)?);
        }
        Annotated::from_annotations(py, ann, func, sargs)
    }

    /// Annotates `func` for arguments of annotations `sargs` (made by
    /// `ann`).
    pub fn from_annotations(
        py: Python<'_>,
        mut ann: Annotator,
        func: &Bound<'_, PyAny>,
        sargs: Vec<SomeValue>,
    ) -> Result<Annotated, String> {
        ann.annotate(py, func, sargs)
            .map_err(|e| format!("annotation error: {e}"))?;
        let missing = ann.unannotated();
        if let Some(&(g, v)) = missing.first() {
            let graph = &ann.graphs[g].graph;
            return Err(format!(
                "{} variable(s) left unannotated, first {} in {} ({})",
                missing.len(),
                v,
                graph.source.qualname,
                graph.source.filename
            ));
        }
        let oracle = Arc::new(Oracle::new(&ann));
        let violations = Arc::new(Mutex::new(Vec::new()));
        let interp =
            Interp::with_cache(py, std::mem::take(&mut ann.cache)).map_err(|e| e.to_string())?;
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
