//! The graph interpreter on real Python objects (the `flow` backend).
//!
//! It executes flow graphs block by block: an environment indexed by
//! [`VarId`](rpy3_model::VarId) holds the live object of every variable,
//! operations with a `pyfunc` call that CPython callable, structural
//! operations (container construction, slicing, calls, `yield_`) are
//! implemented here, and links copy values into the input arguments of
//! their target.  Calls to Python functions of the program are not run by
//! CPython: their graphs are built (once, through a [`FlowCache`]) and
//! interpreted in turn, so a whole program runs through the flow space.
//!
//! Exceptions of the interpreter itself ([`InterpError`], and
//! [`FlowingError`] when a reached function cannot be flowed) derive from
//! `BaseException` and are never routed to the program's exception links.

mod call;
mod exec;
mod fastops;
mod generator;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rpy3_model::operation::{CallShape, ALL_OPS};
use rpy3_model::{FunctionGraph, PyObj};

use crate::{FlowCache, FlowError};

pub use generator::FlowGenerator;

pyo3::create_exception!(
    rpy3,
    InterpError,
    pyo3::exceptions::PyBaseException,
    "An internal error of rpy3's graph interpreter (a malformed graph, an unimplemented operation).  It derives from BaseException and is never caught by the interpreted program."
);

pyo3::create_exception!(
    rpy3,
    FlowingError,
    InterpError,
    "A function reached by the interpreted program could not be turned into a flow graph; the message is the flow space's error."
);

/// The Python exception carrying a [`FlowError`]'s text.
pub fn flow_error_to_py(err: &FlowError) -> PyErr {
    FlowingError::new_err(format!("flowing error: {err}"))
}

/// True when `err` is an error of rpy3 itself rather than of the program
/// (an [`InterpError`], a [`FlowingError`], or a Rust panic).
pub fn is_internal_error(py: Python<'_>, err: &PyErr) -> bool {
    err.is_instance_of::<InterpError>(py) || err.is_instance_of::<pyo3::panic::PanicException>(py)
}

/// How a callable is run, decided once per function object or class.
#[derive(Clone)]
enum CallKind {
    /// A function of the program: run its flow graph.
    Flow(Arc<FunctionGraph>),
    /// Has `_rpy3_translated_`: call that instead.
    Translated(PyObj),
    /// A class of the program: instantiate it, running `__init__`'s graph.
    UserClass,
    /// Anything else: let CPython call it.
    Direct,
}

/// Hashes object addresses (already well spread apart from their low
/// alignment bits) with one multiplication.
#[derive(Default)]
struct AddrHasher(u64);

impl std::hash::Hasher for AddrHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = ((n as u64) >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type AddrMap<V> = HashMap<usize, V, std::hash::BuildHasherDefault<AddrHasher>>;

/// Memoised decisions, keyed by object address; each entry holds a strong
/// reference to its object, so the address cannot be reused while cached.
#[derive(Default)]
struct Memo {
    kinds: AddrMap<(PyObj, CallKind)>,
    shapes: AddrMap<(PyObj, Arc<CallShape>)>,
}

/// The deepest nesting of graph calls ever allowed.
pub const MAX_DEPTH_CAP: usize = 60_000;

/// Python's recursion limit, capped so that a thread with a 2 GiB stack
/// (see rpy3_testsuite::with_big_stack) never overflows, even in a debug
/// build.
pub(crate) fn recursion_limit(py: Python<'_>) -> PyResult<usize> {
    Ok(py
        .import("sys")?
        .getattr("getrecursionlimit")?
        .call0()?
        .extract::<usize>()?
        .min(MAX_DEPTH_CAP))
}

/// Called with every value a variable takes (block input arguments on
/// entry, operation results), for checking annotations against reality.
pub type Observer = Arc<
    dyn Fn(Python<'_>, &Arc<FunctionGraph>, rpy3_model::VarId, &Bound<'_, PyAny>) + Send + Sync,
>;

/// The state shared by an [`Interp`] and the generator objects it creates.
pub(crate) struct Shared {
    pub(crate) observer: std::sync::OnceLock<Observer>,
    cache: Mutex<FlowCache>,
    memo: Mutex<Memo>,
    /// The resolved `pyfunc` of every operation, indexed by `OpName::hl_index`.
    pyfuncs: Vec<Option<Py<PyAny>>>,
    depth: AtomicUsize,
    /// Python's recursion limit, read again when reached (the program may
    /// have raised it with `sys.setrecursionlimit`).
    max_depth: AtomicUsize,
    slice_type: Py<PyAny>,
    object_new: Py<PyAny>,
    method_type: Py<PyAny>,
    function_type: Py<PyAny>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    fn new(py: Python<'_>, cache: FlowCache) -> PyResult<Shared> {
        let mut pyfuncs = Vec::with_capacity(ALL_OPS.len());
        for &op in ALL_OPS {
            debug_assert_eq!(op.hl_index(), Some(pyfuncs.len()));
            // operations implemented in rpy3.rlib resolve on first use when
            // the package is not importable yet
            let f = match op.desc().pyfunc {
                Some(path) => resolve(py, path).ok(),
                None => None,
            };
            pyfuncs.push(f);
        }
        let max_depth = AtomicUsize::new(recursion_limit(py)?);
        Ok(Shared {
            observer: std::sync::OnceLock::new(),
            cache: Mutex::new(cache),
            memo: Mutex::new(Memo::default()),
            pyfuncs,
            depth: AtomicUsize::new(0),
            max_depth,
            slice_type: resolve(py, "builtins.slice")?,
            object_new: py
                .import("builtins")?
                .getattr("object")?
                .getattr("__new__")?
                .unbind(),
            method_type: resolve(py, "types.MethodType")?,
            function_type: resolve(py, "types.FunctionType")?,
        })
    }

    /// The graph of `func`, built on first use.
    fn graph_of(&self, py: Python<'_>, func: &Bound<'_, PyAny>) -> PyResult<Arc<FunctionGraph>> {
        let mut cache = match self.cache.try_lock() {
            Ok(c) => c,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(InterpError::new_err(
                    "flow cache re-entered while a graph was being built",
                ))
            }
        };
        cache.get(py, func).map_err(|e| flow_error_to_py(&e))
    }

    /// The `CallShape` of a `call_args` operation, parsed once per constant.
    fn call_shape(&self, shape: &Bound<'_, PyAny>) -> PyResult<Arc<CallShape>> {
        let key = shape.as_ptr() as usize;
        if let Some((_, s)) = lock(&self.memo).shapes.get(&key) {
            return Ok(s.clone());
        }
        let parsed = Arc::new(parse_call_shape(shape)?);
        lock(&self.memo)
            .shapes
            .insert(key, (PyObj::new(shape), parsed.clone()));
        Ok(parsed)
    }
}

/// Parses `(num_positional, (kwnames...), has_star, has_starstar)`.
fn parse_call_shape(shape: &Bound<'_, PyAny>) -> PyResult<CallShape> {
    let bad = || InterpError::new_err(format!("malformed call_args shape {shape}"));
    let t = shape.cast::<PyTuple>().map_err(|_| bad())?;
    if t.len() != 4 {
        return Err(bad());
    }
    let num_positional = t.get_item(0)?.extract::<usize>().map_err(|_| bad())?;
    let kws = t.get_item(1)?;
    let mut keywords = Vec::new();
    for k in kws.try_iter().map_err(|_| bad())? {
        let k = k?;
        let s = k.cast::<PyString>().map_err(|_| bad())?;
        keywords.push(s.to_str()?.to_string());
    }
    Ok(CallShape {
        num_positional,
        keywords,
        has_star: t.get_item(2)?.is_truthy()?,
        has_starstar: t.get_item(3)?.is_truthy()?,
    })
}

/// Resolves `"module.attr"` (the attribute part may be dotted).
pub(crate) fn resolve(py: Python<'_>, path: &str) -> PyResult<Py<PyAny>> {
    let (module, attr) = path
        .rsplit_once('.')
        .ok_or_else(|| InterpError::new_err(format!("bad pyfunc path {path:?}")))?;
    let mut obj = py.import(module)?.into_any();
    for part in attr.split('.') {
        obj = obj.getattr(part)?;
    }
    Ok(obj.unbind())
}

/// The graph interpreter: runs Python functions of a program by building
/// and executing their flow graphs on real Python objects.
pub struct Interp {
    shared: Arc<Shared>,
}

impl Interp {
    /// An interpreter with an empty flow cache.
    pub fn new(py: Python<'_>) -> PyResult<Interp> {
        Interp::with_cache(py, FlowCache::new())
    }

    /// An interpreter using (and filling) `cache`.
    pub fn with_cache(py: Python<'_>, cache: FlowCache) -> PyResult<Interp> {
        Ok(Interp {
            shared: Arc::new(Shared::new(py, cache)?),
        })
    }

    /// Installs the observer of every value variables take (once).
    pub fn set_observer(&self, observer: Observer) {
        let _ = self.shared.observer.set(observer);
    }

    /// Calls `func(*args)` with translated semantics: a function of the
    /// program runs as its flow graph, and so does everything it calls.
    pub fn call<'py>(
        &mut self,
        py: Python<'py>,
        func: &Bound<'py, PyAny>,
        args: &[Bound<'py, PyAny>],
    ) -> PyResult<Py<PyAny>> {
        self.call_kw(py, func, args, &[])
    }

    /// Like [`Interp::call`], with keyword arguments.
    pub fn call_kw<'py>(
        &mut self,
        py: Python<'py>,
        func: &Bound<'py, PyAny>,
        args: &[Bound<'py, PyAny>],
        kwargs: &[(&str, Bound<'py, PyAny>)],
    ) -> PyResult<Py<PyAny>> {
        let args = args.to_vec();
        let kwargs = kwargs
            .iter()
            .map(|(k, v)| (PyString::new(py, k), v.clone()))
            .collect();
        Ok(self.shared.call_object(py, func, args, kwargs)?.unbind())
    }

    /// Runs `graph` on positional `args` (bound to its signature; when the
    /// signature is empty, to the start block's input arguments in order).
    /// A generator graph gives a generator object.
    pub fn run_graph<'py>(
        &mut self,
        py: Python<'py>,
        graph: Arc<FunctionGraph>,
        args: &[Bound<'py, PyAny>],
    ) -> PyResult<Py<PyAny>> {
        let args = args.to_vec();
        Ok(self
            .shared
            .call_graph(py, graph, args, Vec::new())?
            .unbind())
    }

    /// The flow graph of `func`, from the cache or built now; a flowing
    /// error becomes a [`FlowingError`].
    pub fn graph_of(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
    ) -> PyResult<Arc<FunctionGraph>> {
        self.shared.graph_of(py, func)
    }

    /// The maximum depth of nested graph calls before `RecursionError`.
    pub fn max_depth(&self) -> usize {
        self.shared.max_depth.load(Ordering::Relaxed)
    }
}
