//! Calls: how each kind of callable is run (a graph of the program, a
//! translated replacement, a class of the program, or CPython), and the
//! binding of arguments to a graph's signature.

use std::sync::Arc;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use rpy3_model::{FunctionGraph, PyObj};

use super::exec::{Frame, Outcome};
use super::generator::FlowGenerator;
use super::{lock, CallKind, InterpError, Shared};

extern "C" {
    // Exported by libpython (classobject.c); both return borrowed references.
    fn PyMethod_Function(method: *mut ffi::PyObject) -> *mut ffi::PyObject;
    fn PyMethod_Self(method: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

/// `(m.__func__, m.__self__)` of a bound method object.
fn method_parts<'py>(m: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let py = m.py();
    // SAFETY: `m` is an instance of `types.MethodType` (checked by the
    // caller); the functions return borrowed references that `m` keeps
    // alive, which `from_borrowed_ptr_or_err` turns into owned ones.
    unsafe {
        let func = Bound::from_borrowed_ptr_or_err(py, PyMethod_Function(m.as_ptr()))?;
        let this = Bound::from_borrowed_ptr_or_err(py, PyMethod_Self(m.as_ptr()))?;
        Ok((func, this))
    }
}

/// Keyword arguments: names (Python strings) and values, in call order.
pub(crate) type Kwargs<'py> = Vec<(Bound<'py, PyString>, Bound<'py, PyAny>)>;

/// Calls `f` by CPython's vectorcall protocol.
pub(crate) fn vectorcall<'py>(
    py: Python<'py>,
    f: &Bound<'py, PyAny>,
    args: &[Bound<'py, PyAny>],
    kwargs: &[(Bound<'py, PyString>, Bound<'py, PyAny>)],
) -> PyResult<Bound<'py, PyAny>> {
    let mut ptrs: Vec<*mut ffi::PyObject> = Vec::with_capacity(args.len() + kwargs.len());
    ptrs.extend(args.iter().map(|a| a.as_ptr()));
    ptrs.extend(kwargs.iter().map(|(_, v)| v.as_ptr()));
    let kwnames = if kwargs.is_empty() {
        None
    } else {
        Some(PyTuple::new(py, kwargs.iter().map(|(k, _)| k))?)
    };
    let kwptr = kwnames
        .as_ref()
        .map_or(std::ptr::null_mut(), |t| t.as_ptr());
    // SAFETY: every pointer is a live object borrowed from `args`/`kwargs`
    // (or `kwnames`), all of which outlive the call; the result is a new
    // reference or NULL with an exception set.
    unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyObject_Vectorcall(f.as_ptr(), ptrs.as_ptr(), args.len(), kwptr),
        )
    }
}

/// True for classes created by a `class` statement (or `type()`), as
/// opposed to the static built-in types.
pub(crate) fn is_heap_type(t: &Bound<'_, PyType>) -> bool {
    // SAFETY: `t` is a live type object.
    let flags = unsafe { ffi::PyType_GetFlags(t.as_ptr() as *mut ffi::PyTypeObject) };
    flags & ffi::Py_TPFLAGS_HEAPTYPE != 0
}

/// True when `obj.__module__` is `rpy3` or inside it (`rpy3.rlib...`).
fn in_rpy3_package(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let Some(module) = obj.getattr_opt(intern!(obj.py(), "__module__"))? else {
        return Ok(false);
    };
    let Ok(module) = module.cast::<PyString>() else {
        return Ok(false);
    };
    let m = module.to_str()?;
    // the standard library modules rpy3 writes in RPython are flowed like
    // the program's code
    Ok((m == "rpy3" || m.starts_with("rpy3.")) && !m.starts_with("rpy3.stdlib"))
}

fn prepend<'py>(
    first: Bound<'py, PyAny>,
    mut rest: Vec<Bound<'py, PyAny>>,
) -> Vec<Bound<'py, PyAny>> {
    rest.insert(0, first);
    rest
}

impl Shared {
    fn memo_kind(&self, obj: &Bound<'_, PyAny>) -> Option<CallKind> {
        lock(&self.memo)
            .kinds
            .get(&(obj.as_ptr() as usize))
            .map(|(_, k)| k.clone())
    }

    fn remember_kind(&self, obj: &Bound<'_, PyAny>, kind: CallKind) {
        lock(&self.memo)
            .kinds
            .insert(obj.as_ptr() as usize, (PyObj::new(obj), kind));
    }

    /// How a Python function (`types.FunctionType`) is run; for a
    /// function of the program, this builds its graph.
    fn kind_of_function(&self, f: &Bound<'_, PyAny>) -> PyResult<CallKind> {
        if let Some(k) = self.memo_kind(f) {
            return Ok(k);
        }
        let kind = if let Some(t) = f.getattr_opt(intern!(f.py(), "_rpy3_translated_"))? {
            CallKind::Translated(PyObj::new(&t))
        } else if in_rpy3_package(f)? {
            CallKind::Direct
        } else {
            CallKind::Flow(self.graph_of(f.py(), f)?)
        };
        self.remember_kind(f, kind.clone());
        Ok(kind)
    }

    /// How calling a class is run.
    fn kind_of_class(&self, cls: &Bound<'_, PyType>) -> PyResult<CallKind> {
        let obj = cls.as_any();
        if let Some(k) = self.memo_kind(obj) {
            return Ok(k);
        }
        let kind = if !is_heap_type(cls) {
            CallKind::Direct
        } else if let Some(t) = obj.getattr_opt(intern!(obj.py(), "_rpy3_translated_"))? {
            CallKind::Translated(PyObj::new(&t))
        } else if in_rpy3_package(obj)? {
            CallKind::Direct
        } else {
            CallKind::UserClass
        };
        self.remember_kind(obj, kind.clone());
        Ok(kind)
    }

    /// Calls `f(*args, **kwargs)` with translated semantics.
    pub(crate) fn call_object<'py>(
        self: &Arc<Self>,
        py: Python<'py>,
        f: &Bound<'py, PyAny>,
        args: Vec<Bound<'py, PyAny>>,
        kwargs: Kwargs<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let ftype = f.get_type();
        if ftype.is(self.function_type.bind(py)) {
            return match self.kind_of_function(f)? {
                CallKind::Flow(graph) => self.call_graph(py, graph, args, kwargs),
                CallKind::Translated(t) => vectorcall(py, t.bind(py), &args, &kwargs),
                CallKind::UserClass | CallKind::Direct => vectorcall(py, f, &args, &kwargs),
            };
        }
        if ftype.is(self.method_type.bind(py)) {
            let (func, this) = method_parts(f)?;
            if func.get_type().is(self.function_type.bind(py)) {
                match self.kind_of_function(&func)? {
                    CallKind::Flow(graph) => {
                        return self.call_graph(py, graph, prepend(this, args), kwargs)
                    }
                    CallKind::Translated(t) => {
                        return vectorcall(py, t.bind(py), &prepend(this, args), &kwargs)
                    }
                    CallKind::UserClass | CallKind::Direct => {}
                }
            }
            return vectorcall(py, f, &args, &kwargs);
        }
        if let Ok(cls) = f.cast::<PyType>() {
            return match self.kind_of_class(cls)? {
                CallKind::UserClass => self.instantiate(py, cls, args, kwargs),
                CallKind::Translated(t) => vectorcall(py, t.bind(py), &args, &kwargs),
                CallKind::Flow(_) | CallKind::Direct => vectorcall(py, f, &args, &kwargs),
            };
        }
        if is_heap_type(&ftype) {
            // An instance: it may carry a translated replacement, or be an
            // instance of a class of the program defining `__call__`.
            if let Some(t) = f.getattr_opt(intern!(py, "_rpy3_translated_"))? {
                return vectorcall(py, &t, &args, &kwargs);
            }
            if let CallKind::UserClass = self.kind_of_class(&ftype)? {
                let call = ftype.getattr(intern!(py, "__call__"))?;
                if call.get_type().is(self.function_type.bind(py)) {
                    return self.call_object(py, &call, prepend(f.clone(), args), kwargs);
                }
            }
        }
        vectorcall(py, f, &args, &kwargs)
    }

    /// `cls(*args, **kwargs)` for a class of the program: `__new__`, then
    /// `__init__` (as a graph when it is a function of the program).
    fn instantiate<'py>(
        self: &Arc<Self>,
        py: Python<'py>,
        cls: &Bound<'py, PyType>,
        args: Vec<Bound<'py, PyAny>>,
        kwargs: Kwargs<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let new = cls.getattr(intern!(py, "__new__"))?;
        let object_new = self.object_new.bind(py);
        let obj = if new.is(object_new) {
            object_new.call1((cls,))?
        } else {
            self.call_object(
                py,
                &new,
                prepend(cls.clone().into_any(), args.clone()),
                kwargs.clone(),
            )?
        };
        if !obj.is_instance(cls)? {
            return Ok(obj);
        }
        let init = obj.get_type().getattr(intern!(py, "__init__"))?;
        if init.get_type().is(self.function_type.bind(py)) {
            let r = self.call_object(py, &init, prepend(obj.clone(), args), kwargs)?;
            if !r.is_none() {
                let tname = r.get_type().name()?;
                return Err(PyTypeError::new_err(format!(
                    "__init__() should return None, not '{tname}'"
                )));
            }
        } else {
            vectorcall(py, &init, &prepend(obj.clone(), args), &kwargs)?;
        }
        Ok(obj)
    }

    /// Runs `graph` on arguments bound to its signature; a generator graph
    /// gives a generator object instead.
    pub(crate) fn call_graph<'py>(
        self: &Arc<Self>,
        py: Python<'py>,
        graph: Arc<FunctionGraph>,
        args: Vec<Bound<'py, PyAny>>,
        kwargs: Kwargs<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let sig = &graph.signature;
        let simple = kwargs.is_empty()
            && args.len() == sig.argnames.len()
            && sig.num_inputargs() == sig.argnames.len()
            && !args.is_empty();
        let mut frame = if simple {
            Frame::new(graph, args.into_iter().map(Bound::unbind))?
        } else {
            let inputs = bind_args(py, &graph, args, kwargs)?;
            Frame::new(graph, inputs)?
        };
        if frame.graph.is_generator {
            let gen = FlowGenerator::new(self.clone(), frame);
            return Ok(Bound::new(py, gen)?.into_any());
        }
        let _depth = self.enter(py)?;
        match self.run_frame(py, &mut frame)? {
            Outcome::Return(v) => Ok(v.into_bound(py)),
            Outcome::Yield(_) => Err(InterpError::new_err(format!(
                "yield_ in graph {}, which is not a generator",
                frame.graph.name
            ))),
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn quoted_list(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        n => format!("{} and {}", q[..n - 1].join(", "), q[n - 1]),
    }
}

/// Binds positional and keyword arguments to the parameters of `graph`
/// as CPython binds them to the function's, giving the start block's
/// input arguments (positional, `*args` tuple, keyword-only, `**kwargs`
/// dict).  A graph with an empty signature takes its start block's input
/// arguments positionally.
pub(crate) fn bind_args<'py>(
    py: Python<'py>,
    graph: &FunctionGraph,
    args: Vec<Bound<'py, PyAny>>,
    kwargs: Kwargs<'py>,
) -> PyResult<Vec<Py<PyAny>>> {
    let sig = &graph.signature;
    let fname = graph
        .source
        .qualname
        .rsplit('.')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(&graph.name);
    let nstart = graph.blocks[graph.startblock].inputargs.len();
    if sig.num_inputargs() == 0 {
        if !kwargs.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "{fname}() takes no keyword arguments"
            )));
        }
        if args.len() != nstart {
            return Err(PyTypeError::new_err(format!(
                "{fname}() takes {} but {} were given",
                plural(nstart, "positional argument"),
                args.len()
            )));
        }
        return Ok(args.into_iter().map(Bound::unbind).collect());
    }

    let npos = sig.argnames.len();
    let ngiven = args.len();
    let mut pos: Vec<Option<Bound<'py, PyAny>>> = vec![None; npos];
    let mut rest = args.into_iter();
    for slot in pos.iter_mut() {
        match rest.next() {
            Some(a) => *slot = Some(a),
            None => break,
        }
    }
    let extra: Vec<Bound<'py, PyAny>> = rest.collect();
    if !extra.is_empty() && sig.varargname.is_none() {
        return Err(PyTypeError::new_err(format!(
            "{fname}() takes {} but {ngiven} were given",
            plural(npos, "positional argument")
        )));
    }
    let mut kwonly: Vec<Option<Bound<'py, PyAny>>> = vec![None; sig.kwonlyargnames.len()];
    let kwdict = sig.kwargname.as_ref().map(|_| PyDict::new(py));
    for (name, value) in kwargs {
        let n = name.to_str()?;
        let multiple =
            || PyTypeError::new_err(format!("{fname}() got multiple values for argument '{n}'"));
        if let Some(i) = sig.argnames.iter().position(|a| a == n) {
            if pos[i].is_some() {
                return Err(multiple());
            }
            pos[i] = Some(value);
        } else if let Some(i) = sig.kwonlyargnames.iter().position(|a| a == n) {
            if kwonly[i].is_some() {
                return Err(multiple());
            }
            kwonly[i] = Some(value);
        } else if let Some(d) = &kwdict {
            if d.contains(&name)? {
                return Err(multiple());
            }
            d.set_item(&name, value)?;
        } else {
            return Err(PyTypeError::new_err(format!(
                "{fname}() got an unexpected keyword argument '{n}'"
            )));
        }
    }
    let first_default = npos.saturating_sub(graph.defaults.len());
    let mut missing = Vec::new();
    for (i, slot) in pos.iter_mut().enumerate() {
        if slot.is_none() {
            if i >= first_default {
                *slot = Some(graph.defaults[i - first_default].value.bind(py).clone());
            } else {
                missing.push(sig.argnames[i].as_str());
            }
        }
    }
    if !missing.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "{fname}() missing {}: {}",
            plural(missing.len(), "required positional argument"),
            quoted_list(&missing)
        )));
    }
    for (i, slot) in kwonly.iter_mut().enumerate() {
        if slot.is_none() {
            let name = &sig.kwonlyargnames[i];
            match graph.kwdefaults.iter().find(|(k, _)| k == name) {
                Some((_, c)) => *slot = Some(c.value.bind(py).clone()),
                None => missing.push(name.as_str()),
            }
        }
    }
    if !missing.is_empty() {
        return Err(PyTypeError::new_err(format!(
            "{fname}() missing {}: {}",
            plural(missing.len(), "required keyword-only argument"),
            quoted_list(&missing)
        )));
    }

    let mut inputs = Vec::with_capacity(sig.num_inputargs());
    inputs.extend(pos.into_iter().flatten().map(Bound::unbind));
    if sig.varargname.is_some() {
        inputs.push(PyTuple::new(py, extra)?.into_any().unbind());
    }
    inputs.extend(kwonly.into_iter().flatten().map(Bound::unbind));
    if let Some(d) = kwdict {
        inputs.push(d.into_any().unbind());
    }
    if inputs.len() != nstart {
        return Err(InterpError::new_err(format!(
            "graph {}: the start block takes {nstart} arguments but the signature gives {}",
            graph.name,
            inputs.len()
        )));
    }
    Ok(inputs)
}
