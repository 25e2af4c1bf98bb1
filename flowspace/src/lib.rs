//! The flow object space: turns live CPython 3.11 function objects into
//! flow graphs by abstract interpretation of their bytecode, and runs flow
//! graphs on real Python objects (the `flow` backend).
//!
//! Entry points: [`build_flow`] (one function to one graph) and
//! [`FlowCache`] (graphs built once per function object).

mod bytecode;
mod calls;
mod context;
mod error;
mod fold;
mod framestate;
pub mod interp;
mod opcodes;
mod patterns;
mod simplify;

pub use error::FlowError;

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::{checkgraph, Constant, FunctionGraph, Hlvalue, PyObj, Signature, SourceInfo};

use bytecode::{
    CodeInfo, CO_ASYNC_GENERATOR, CO_COROUTINE, CO_GENERATOR, CO_ITERABLE_COROUTINE, CO_VARARGS,
    CO_VARKEYWORDS,
};
use context::FlowContext;
use framestate::{FrameState, FrameValue};

/// The marker object a link passes for a local that is not assigned on
/// the path it comes from, but is on another path into the same block
/// (see `framestate::undefined_local`).
pub fn undefined_local_object(py: Python<'_>) -> PyObj {
    // a PyOnceLock: initialising while holding the GIL cannot deadlock
    // with another thread waiting for it
    static MARKER: pyo3::sync::PyOnceLock<PyObj> = pyo3::sync::PyOnceLock::new();
    MARKER
        .get_or_init(py, || {
            let obj = py
                .eval(
                    c"type('UndefinedLocal', (), {'__repr__': lambda self: '<undefined local>'})()",
                    None,
                    None,
                )
                .expect("creating a marker object cannot fail");
            PyObj::new(&obj)
        })
        .clone()
}

/// Whether `obj` is the undefined-local marker.
pub fn is_undefined_local(obj: &Bound<'_, PyAny>) -> bool {
    obj.is(undefined_local_object(obj.py()).bind(obj.py()))
}

/// Builds the flow graph of a Python function object.
///
/// The graph's start block takes the parameters in [`Signature`] order;
/// globals, closure cells and defaults become constants.  A function
/// created by the flow space for a nested code object that captures
/// variables (marked with `_rpy3_closure_`) takes its free variables as
/// extra keyword-only parameters.
pub fn build_flow(py: Python<'_>, func: &Bound<'_, PyAny>) -> Result<FunctionGraph, FlowError> {
    let describe = |what: &str| -> FlowError {
        let name = func
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "?".into());
        FlowError::new(format!("{name} {what}"), "<unknown>", 0)
    };
    if !func.is_instance_of::<pyo3::types::PyFunction>() {
        return Err(describe("is not a Python function and cannot be flowed"));
    }
    let code_obj = func
        .getattr("__code__")
        .map_err(|_| describe("has no code object"))?;
    let code = CodeInfo::decode(py, &code_obj)?;
    let (def_file, def_line, def_name) = (
        code.filename.clone(),
        code.firstlineno,
        code.qualname.clone(),
    );
    let at_def = |message: String| -> FlowError {
        let mut e = FlowError::new(message, def_file.clone(), def_line);
        e.function = Some(def_name.clone());
        e
    };
    let flag = |name: &str| -> bool {
        func.getattr(name)
            .and_then(|v| v.is_truthy())
            .unwrap_or(false)
    };
    if flag("_not_rpython_") {
        // a reason given instead of True is the message
        let reason = func
            .getattr("_not_rpython_")
            .ok()
            .and_then(|r| r.extract::<String>().ok());
        return Err(at_def(match reason {
            Some(r) => r,
            None => format!(
                "function '{}' is marked @not_rpython and cannot be translated",
                code.qualname
            ),
        }));
    }
    if code.flags & (CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE) != 0 {
        return Err(at_def("async functions are not RPython".into()));
    }
    let lifted_closure = flag(calls::CLOSURE_MARK);

    // Parameters: the slots of co_varnames hold positional parameters,
    // then keyword-only ones, then *args, then **kwargs.
    let names = &code.localsplus;
    let argc = code.argcount;
    let kwc = code.kwonlyargcount;
    let mut signature = Signature {
        argnames: names[..argc].to_vec(),
        kwonlyargnames: names[argc..argc + kwc].to_vec(),
        ..Signature::default()
    };
    let mut slots: Vec<usize> = (0..argc).collect();
    let mut next = argc + kwc;
    if code.flags & CO_VARARGS != 0 {
        signature.varargname = Some(names[next].clone());
        slots.push(next);
        next += 1;
    }
    slots.extend(argc..argc + kwc);
    if lifted_closure {
        for (k, name) in code.freevars.iter().enumerate() {
            signature.kwonlyargnames.push(name.clone());
            slots.push(code.first_freevar + k);
        }
    }
    if code.flags & CO_VARKEYWORDS != 0 {
        signature.kwargname = Some(names[next].clone());
        slots.push(next);
    }
    let startnames: Vec<String> = slots.iter().map(|&s| names[s].clone()).collect();
    let mut graph = FunctionGraph::new(&code.qualname, startnames);
    graph.signature = signature;
    graph.source = SourceInfo {
        qualname: code.qualname.clone(),
        filename: code.filename.clone(),
        firstlineno: code.firstlineno,
    };
    graph.func = Some(PyObj::new(func));
    graph.is_generator = code.flags & CO_GENERATOR != 0;
    if let Ok(defaults) = func.getattr("__defaults__") {
        if let Ok(t) = defaults.cast::<pyo3::types::PyTuple>() {
            graph.defaults = t.iter().map(|d| Constant::new(PyObj::new(&d))).collect();
        }
    }
    if let Ok(kwdefaults) = func.getattr("__kwdefaults__") {
        if let Ok(d) = kwdefaults.cast::<pyo3::types::PyDict>() {
            for (k, v) in d.iter() {
                graph
                    .kwdefaults
                    .push((k.to_string(), Constant::new(PyObj::new(&v))));
            }
        }
    }

    // The initial frame: parameters are the start block's variables;
    // free variables of a real closure are the constants in its cells.
    let mut locals = vec![FrameValue::Undefined; names.len()];
    let startargs = graph.blocks[graph.startblock].inputargs.clone();
    for (&slot, &v) in slots.iter().zip(&startargs) {
        locals[slot] = FrameValue::Val(Hlvalue::Variable(v));
    }
    if lifted_closure {
        // a nested function calling itself (`def visit(n): ... visit(m)`):
        // its own name among its free variables is itself, a closure over
        // its own free variables (the call sites check that the outer
        // variable does hold it, see `calls::FlowContext::call`)
        let own: Vec<usize> =
            (code.first_freevar..code.first_freevar + code.freevars.len()).collect();
        let own_name = code.qualname.rsplit('.').next().unwrap_or_default();
        for (k, name) in code.freevars.iter().enumerate() {
            if name == own_name {
                locals[code.first_freevar + k] = FrameValue::Closure {
                    func: PyObj::new(func),
                    slots: own.clone(),
                    defaults: Vec::new(),
                };
            }
        }
    }
    if !lifted_closure {
        if let Ok(closure) = func.getattr("__closure__") {
            if let Ok(cells) = closure.cast::<pyo3::types::PyTuple>() {
                let boxed: Option<Bound<'_, PyAny>> = crate::opcodes::optional_module(py, "rpy3._cells")
                    .ok()
                    .flatten()
                    .and_then(|m| m.getattr("boxed_names").ok()?.call1((code.object.bind(py),)).ok());
                for (k, cell) in cells.iter().enumerate() {
                    let name = code.freevars.get(k).cloned().unwrap_or_default();
                    if boxed
                        .as_ref()
                        .is_some_and(|b| b.contains(name.as_str()).unwrap_or(false))
                    {
                        // a cell a nested function assigns: its prebuilt box
                        if let Ok(b) = crate::opcodes::optional_module(py, "rpy3._cells")
                            .ok()
                            .flatten()
                            .ok_or(())
                            .and_then(|m| m.getattr("prebuilt_box").and_then(|f| f.call1((&cell,))).map_err(|_| ()))
                        {
                            locals[code.first_freevar + k] =
                                FrameValue::Val(Hlvalue::Constant(Constant::new(PyObj::new(&b))));
                            continue;
                        }
                    }
                    if let Ok(value) = cell.getattr("cell_contents") {
                        locals[code.first_freevar + k] =
                            FrameValue::Val(Hlvalue::Constant(Constant::new(PyObj::new(&value))));
                    }
                }
            }
        }
    }
    let globals = func
        .getattr("__globals__")
        .and_then(|g| g.cast_into::<pyo3::types::PyDict>().map_err(Into::into))
        .map_err(|_| at_def("function without a globals dict".into()))?;
    let mut ctx = FlowContext::new(py, code, graph, globals).map_err(|e| at_def(format!("{e}")))?;
    let none = ctx.const_none();
    let state = FrameState {
        locals,
        stack: Vec::new(),
        exc_info: FrameValue::Val(none),
        kwnames: None,
        next_offset: 0,
    };
    ctx.build(state)?;
    let eggs = std::mem::take(&mut ctx.eggs);
    let mut graph = ctx.graph;
    simplify::fixeggblocks(&mut graph, &eggs);
    simplify::simplify_graph(&mut graph);
    if cfg!(debug_assertions) {
        if let Err(e) = checkgraph(&graph) {
            return Err(FlowError::new(
                format!("internal error: the flow graph does not verify: {e}"),
                graph.source.filename.clone(),
                graph.source.firstlineno,
            ));
        }
    }
    Ok(graph)
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
    pub fn get(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
    ) -> Result<Arc<FunctionGraph>, FlowError> {
        let key = PyObj::new(func);
        if let Some(g) = self.graphs.get(&key) {
            return Ok(g.clone());
        }
        let g = Arc::new(build_flow(py, func)?);
        self.graphs.insert(key, g.clone());
        Ok(g)
    }
}
