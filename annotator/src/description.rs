//! Descriptions of prebuilt constants (PyPy's `description.py`): functions
//! with their specialised graphs, classes, methods and frozen objects; how
//! a call binds its arguments; and the annotation of a constant.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyFunction, PyInt, PyList, PyModule, PySet, PyString,
    PyTuple, PyType,
};
use rpy3_model::PyObj;

use crate::error::AnnotatorError;
use crate::ids::{ClassDefId, DescId, GraphId};
use crate::itemdef::ItemKind;
use crate::model::{IntKind, SomeValue, StrKind};
use crate::{AnnGraph, Annotator};

/// How calls of a function are specialised (`rpy3.rlib.objectmodel.specialize`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specialize {
    /// One graph for every call.
    Default,
    /// One graph per annotation type of the given arguments.
    ArgType(Vec<usize>),
    /// One graph per constant value of the given arguments.
    Arg(Vec<usize>),
    /// Run in CPython at annotation time for every possible argument.
    Memo,
    /// One graph per call site.
    CallLocation,
    /// The low-level policy for the rtyper's helpers: one graph per
    /// combination of argument types (`specialize.ll()`).
    LowLevel,
}

/// A Python function and its graphs.
pub struct FunctionDesc {
    /// The function object.
    pub func: PyObj,
    /// Its qualified name.
    pub name: String,
    /// Specialisation policy.
    pub specialize: Specialize,
    /// Graphs by specialisation key.
    pub graphs: HashMap<String, GraphId>,
}

/// A description.
pub enum Desc {
    /// A function.
    Function(FunctionDesc),
    /// A class, as a callable and as a constant.
    Class { cls: PyObj, name: String },
    /// A function found on a class, bound to instances of `selfclassdef`.
    Method {
        func: DescId,
        selfclassdef: ClassDefId,
        name: String,
    },
    /// A frozen prebuilt object (a module, an object whose `_freeze_()` is
    /// true): its attributes are constants.
    Frozen { obj: PyObj, name: String },
    /// A function bound to a frozen object.
    MethodOfFrozen { func: DescId, frozen: DescId },
}

/// The arguments of a call, as annotations.
#[derive(Clone, Debug, Default)]
pub struct CallArgs {
    /// Positional arguments.
    pub positional: Vec<SomeValue>,
    /// Keyword arguments.
    pub keywords: Vec<(String, SomeValue)>,
    /// A `*args` tuple.
    pub star: Option<SomeValue>,
}

impl CallArgs {
    /// Positional arguments only.
    pub fn positional(args: Vec<SomeValue>) -> CallArgs {
        CallArgs {
            positional: args,
            ..CallArgs::default()
        }
    }

    /// The same arguments with `s` prepended (a bound `self`).
    pub fn prepend(&self, s: SomeValue) -> CallArgs {
        let mut c = self.clone();
        c.positional.insert(0, s);
        c
    }

    /// The positional arguments, `*args` expanded; `None` if the star
    /// argument is not a tuple.
    pub fn flat_positional(&self) -> Option<Vec<SomeValue>> {
        let mut out = self.positional.clone();
        match &self.star {
            None => {}
            Some(SomeValue::Tuple(items)) => out.extend(items.iter().cloned()),
            Some(_) => return None,
        }
        Some(out)
    }
}

fn parse_specialize(tag: &str) -> Option<Specialize> {
    let tag = tag.strip_prefix("specialize:")?;
    let indexes = |s: &str| -> Vec<usize> {
        s.trim_end_matches(')')
            .split(',')
            .filter_map(|p| p.trim().parse().ok())
            .collect()
    };
    Some(if let Some(rest) = tag.strip_prefix("argtype(") {
        Specialize::ArgType(indexes(rest))
    } else if let Some(rest) = tag.strip_prefix("arg(") {
        Specialize::Arg(indexes(rest))
    } else if tag.starts_with("memo") {
        Specialize::Memo
    } else if tag == "ll" || tag.starts_with("ll(") {
        Specialize::LowLevel
    } else if tag.starts_with("call_location") {
        Specialize::CallLocation
    } else {
        return None;
    })
}

/// `Exception.__init__`, `object.__init__`...: the `__init__` of a built-in
/// class read from the class (a constant once the flow space folds it).
pub fn is_builtin_base_init(obj: &Bound<'_, PyAny>) -> bool {
    obj.get_type()
        .name()
        .is_ok_and(|n| n == "wrapper_descriptor")
        && obj
            .getattr("__name__")
            .is_ok_and(|n| n.to_string() == "__init__")
}

/// A function or class of the `rpy3` package (rlib primitives are
/// built-ins), other than the standard library modules `rpy3.stdlib`
/// writes in RPython, which are translated like the program's own code.
pub fn is_rpy3_function(obj: &Bound<'_, PyAny>) -> bool {
    obj.getattr("__module__")
        .and_then(|m| m.extract::<String>())
        .map(|m| {
            (m == "rpy3" || m.starts_with("rpy3."))
                && !m.starts_with("rpy3.stdlib")
                // (the boxes of variables nested functions assign are the
                // program's values)
                && m != "rpy3._cells"
        })
        .unwrap_or(false)
}

impl Annotator {
    /// The description of a function, class or frozen object.
    pub fn getdesc(
        &mut self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
    ) -> Result<DescId, AnnotatorError> {
        let key = PyObj::new(obj);
        if let Some(&d) = self.desc_of.get(&key) {
            return Ok(d);
        }
        let name = obj
            .getattr("__qualname__")
            .or_else(|_| obj.getattr("__name__"))
            .map(|n| n.to_string())
            .unwrap_or_else(|_| {
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            });
        let desc = if obj.is_instance_of::<PyFunction>() {
            let tag: Option<String> = obj
                .getattr("_annspecialcase_")
                .ok()
                .and_then(|t| t.extract().ok());
            // the low-level helpers of `rpy3.lltypesystem` get one graph
            // per low-level argument types, as in PyPy's annlowlevel policy
            let lowlevel_module = obj
                .getattr("__module__")
                .ok()
                .and_then(|m| m.extract::<String>().ok())
                .is_some_and(|m| m.starts_with("rpy3.lltypesystem."));
            let is_exit = obj
                .getattr("__name__")
                .ok()
                .and_then(|n| n.extract::<String>().ok())
                .is_some_and(|n| n == "__exit__");
            // a comprehension's function is called from its defining
            // function only: one graph per iterable type, so that each
            // specialised graph of that function has its own
            let comprehension = obj
                .getattr("__name__")
                .ok()
                .and_then(|n| n.extract::<String>().ok())
                .is_some_and(|n| {
                    matches!(n.as_str(), "<listcomp>" | "<setcomp>" | "<dictcomp>" | "<genexpr>")
                });
            let specialize = match tag {
                None if lowlevel_module => Specialize::LowLevel,
                None if comprehension => Specialize::ArgType(vec![0]),
                // a `with` block calls __exit__ with None when the body
                // ends normally and with the exception's class when it
                // raises: one graph for each, as a class cannot be None
                None if is_exit => Specialize::ArgType(vec![1]),
                None => Specialize::Default,
                Some(t) => match parse_specialize(&t) {
                    Some(s) => s,
                    None => {
                        return Err(self
                            .error(format!("unknown specialization '{t}' on function '{name}'")))
                    }
                },
            };
            Desc::Function(FunctionDesc {
                func: key.clone(),
                name,
                specialize,
                graphs: HashMap::new(),
            })
        } else if obj.is_instance_of::<PyType>() {
            Desc::Class {
                cls: key.clone(),
                name,
            }
        } else {
            Desc::Frozen {
                obj: key.clone(),
                name,
            }
        };
        let _ = py;
        let id = self.descs.push(desc);
        self.desc_of.insert(key, id);
        Ok(id)
    }

    /// The method description of `func` bound to instances of `selfclassdef`.
    pub fn method_desc(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        selfclassdef: ClassDefId,
        name: &str,
    ) -> Result<DescId, AnnotatorError> {
        let fdesc = self.getdesc(py, func)?;
        Ok(self.method_desc_for(fdesc, selfclassdef, name))
    }

    /// The description of `func` bound to the frozen object `frozen`.
    pub fn method_of_frozen_desc(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        frozen: DescId,
    ) -> Result<DescId, AnnotatorError> {
        let fdesc = self.getdesc(py, func)?;
        for (id, d) in self.descs.iter() {
            if let Desc::MethodOfFrozen {
                func: f,
                frozen: fr,
            } = d
            {
                if *f == fdesc && *fr == frozen {
                    return Ok(id);
                }
            }
        }
        Ok(self.descs.push(Desc::MethodOfFrozen {
            func: fdesc,
            frozen,
        }))
    }

    /// The Python object a description stands for (a bound method has none).
    pub fn desc_object(&self, d: DescId) -> Option<PyObj> {
        match &self.descs[d] {
            Desc::Function(f) => Some(f.func.clone()),
            Desc::Class { cls, .. } => Some(cls.clone()),
            Desc::Frozen { obj, .. } => Some(obj.clone()),
            _ => None,
        }
    }

    /// A one-description PBC annotation.
    pub fn pbc(&self, d: DescId) -> SomeValue {
        SomeValue::Pbc {
            descs: Arc::new(BTreeSet::from([d])),
            can_be_none: false,
        }
    }

    /// The graph already made for a call of function `desc` with `args`
    /// (under its specialisation), if any.
    pub fn existing_graph(
        &self,
        py: Python<'_>,
        desc: DescId,
        args: &[SomeValue],
    ) -> Option<GraphId> {
        let key = self.spec_key(py, desc, args).ok()?;
        match &self.descs[desc] {
            Desc::Function(f) => f.graphs.get(&key).copied(),
            _ => None,
        }
    }

    fn spec_key(
        &self,
        py: Python<'_>,
        desc: DescId,
        args: &[SomeValue],
    ) -> Result<String, AnnotatorError> {
        let Desc::Function(f) = &self.descs[desc] else {
            return Ok(String::new());
        };
        Ok(match &f.specialize {
            // a function called with an int at one place and a float (or a
            // bool) at another gets a graph for each, as the results differ
            // in CPython (`def sq(x): return x * x` gives 9 and 2.25):
            // numbers of different kinds are never united at a call
            Specialize::Default => value_kinds_key(args),
            Specialize::Memo => String::new(),
            Specialize::LowLevel => args
                .iter()
                .map(|a| format!("{:?}", self.normalize(&ll_type_key(a))))
                .collect::<Vec<_>>()
                .join("|"),
            Specialize::ArgType(idx) => idx
                .iter()
                .map(|&i| {
                    args.get(i)
                        .map(|a| format!("{:?}", self.normalize(&type_key(a))))
                        .unwrap_or_default()
                })
                .collect::<Vec<_>>()
                .join("|"),
            Specialize::Arg(idx) => {
                let mut parts = Vec::new();
                for &i in idx {
                    let a = args.get(i).cloned().unwrap_or(SomeValue::Impossible);
                    let part = match self.const_key(py, &a) {
                        Some(k) => k,
                        None => {
                            return Err(self.error(format!(
                                "specialize:arg({i}) of '{}' needs a constant argument, got {}",
                                f.name,
                                crate::describe(&a)
                            )))
                        }
                    };
                    parts.push(part);
                }
                parts.join("|")
            }
            Specialize::CallLocation => {
                format!("{:?}@{}", self.current.map(|(p, _)| p), self.current_op)
            }
        })
    }

    /// A key identifying a constant annotation's value.
    fn const_key(&self, py: Python<'_>, s: &SomeValue) -> Option<String> {
        match s {
            SomeValue::Pbc {
                descs,
                can_be_none: false,
            } if descs.len() == 1 => Some(format!("desc{:?}", descs.iter().next())),
            SomeValue::Bool { konst: Some(b), .. } => Some(format!("bool:{b}")),
            SomeValue::None_ => Some("None".into()),
            // a built-in function (map(str, xs) specialises on str)
            SomeValue::Builtin { name, s_self: None } => Some(format!("builtin:{name}")),
            _ => s.konst().map(|k| {
                let o = k.bind(py);
                format!(
                    "{}:{}",
                    o.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default(),
                    o.repr().map(|r| r.to_string()).unwrap_or_default()
                )
            }),
        }
    }

    /// The graph a call with these (positional) arguments uses.
    pub fn graph_for_call(
        &mut self,
        py: Python<'_>,
        desc: DescId,
        args: &[SomeValue],
    ) -> Result<GraphId, AnnotatorError> {
        let key = self.spec_key(py, desc, args)?;
        self.graph_for_key(py, desc, key)
    }

    /// The graph of function `desc` under specialisation key `key`, made
    /// on first use.
    fn graph_for_key(
        &mut self,
        py: Python<'_>,
        desc: DescId,
        key: String,
    ) -> Result<GraphId, AnnotatorError> {
        let Desc::Function(f) = &self.descs[desc] else {
            return Err(self.error("internal error: graph of a non-function"));
        };
        if let Some(&g) = f.graphs.get(&key) {
            return Ok(g);
        }
        let func = f.func.clone();
        let flowgraph = self
            .cache
            .get(py, func.bind(py))
            .map_err(AnnotatorError::from)?;
        // A specialised copy is a clone: same variable ids, its own bindings.
        let graph = if let Desc::Function(f) = &self.descs[desc] {
            if f.graphs.is_empty() {
                flowgraph
            } else {
                Arc::new((*flowgraph).clone())
            }
        } else {
            flowgraph
        };
        let generator = if graph.is_generator {
            Some(self.new_container(
                ItemKind::Generator,
                SomeValue::Impossible,
                SomeValue::Impossible,
            ))
        } else {
            None
        };
        let gid = self.graphs.push(AnnGraph {
            graph,
            bindings: cranelift_entity::SecondaryMap::new(),
            desc: Some(desc),
            generator,
        });
        if let Desc::Function(f) = &mut self.descs[desc] {
            f.graphs.insert(key, gid);
        }
        Ok(gid)
    }

    /// Whether some argument is of a kind that never unites with what the
    /// graph's parameter already holds (a str, bytes, list, dict or set
    /// against another of them).
    fn conflicts_with_graph(&self, graph: GraphId, args: &[SomeValue]) -> bool {
        let Some(d) = self.graphs[graph].desc else {
            return false;
        };
        let Desc::Function(f) = &self.descs[d] else {
            return false;
        };
        if f.specialize != Specialize::Default {
            return false;
        }
        let g = &self.graphs[graph].graph;
        let inputs = &g.blocks[g.startblock].inputargs;
        inputs.iter().zip(args).any(|(v, a)| {
            let have = self.graphs[graph].bindings.get(*v).cloned().flatten();
            match (have.as_ref().and_then(container_kind), container_kind(a)) {
                (Some(x), Some(y)) => x != y,
                _ => false,
            }
        })
    }

    /// The graph of `desc` for the container kinds of `args` (see
    /// [`Annotator::conflicts_with_graph`]).
    fn graph_for_kinds(
        &mut self,
        py: Python<'_>,
        desc: DescId,
        args: &[SomeValue],
    ) -> Result<GraphId, AnnotatorError> {
        let kinds: Vec<&str> = args.iter().map(|a| container_kind(a).unwrap_or("")).collect();
        let key = format!("{}#{}", value_kinds_key(args), kinds.join("|"));
        self.graph_for_key(py, desc, key)
    }

    /// Matches call arguments to a graph's parameters.
    pub fn bind_args(
        &mut self,
        py: Python<'_>,
        graph: GraphId,
        args: CallArgs,
    ) -> Result<Vec<SomeValue>, AnnotatorError> {
        let g = self.graphs[graph].graph.clone();
        let sig = &g.signature;
        let name = &g.source.qualname;
        let Some(positional) = args.flat_positional() else {
            return Err(self.error(format!("call of '{name}' with *args that is not a tuple")));
        };
        let nparams = sig.argnames.len();
        let mut slots: Vec<Option<SomeValue>> = vec![None; nparams];
        let mut extra = Vec::new();
        for (i, a) in positional.into_iter().enumerate() {
            if i < nparams {
                slots[i] = Some(a);
            } else {
                extra.push(a);
            }
        }
        if !extra.is_empty() && sig.varargname.is_none() {
            let given = nparams + extra.len();
            let plural = if nparams == 1 { "" } else { "s" };
            return Err(self.error(format!(
                "'{name}' takes {nparams} positional argument{plural} but {given} were given"
            )));
        }
        let mut kwonly: Vec<Option<SomeValue>> = vec![None; sig.kwonlyargnames.len()];
        for (k, v) in args.keywords {
            if let Some(i) = sig.argnames.iter().position(|n| *n == k) {
                if slots[i].is_some() {
                    return Err(
                        self.error(format!("'{name}' got multiple values for argument '{k}'"))
                    );
                }
                slots[i] = Some(v);
            } else if let Some(i) = sig.kwonlyargnames.iter().position(|n| *n == k) {
                kwonly[i] = Some(v);
            } else {
                return Err(
                    self.error(format!("'{name}' got an unexpected keyword argument '{k}'"))
                );
            }
        }
        let ndefaults = g.defaults.len();
        let mut cells = Vec::new();
        for (i, slot) in slots.into_iter().enumerate() {
            match slot {
                Some(s) => cells.push(s),
                None if i + ndefaults >= nparams => {
                    let d = g.defaults[i + ndefaults - nparams].clone();
                    cells.push(self.immutablevalue(py, d.value.bind(py))?);
                }
                None => {
                    return Err(self.error(format!(
                        "'{name}' missing required argument '{}'",
                        sig.argnames[i]
                    )));
                }
            }
        }
        if sig.varargname.is_some() {
            cells.push(SomeValue::Tuple(extra));
        }
        for (i, slot) in kwonly.into_iter().enumerate() {
            let pname = &sig.kwonlyargnames[i];
            match slot {
                Some(s) => cells.push(s),
                None => match g.kwdefaults.iter().find(|(n, _)| n == pname) {
                    Some((_, c)) => {
                        let c = c.clone();
                        cells.push(self.immutablevalue(py, c.value.bind(py))?);
                    }
                    None => {
                        return Err(
                            self.error(format!("'{name}' missing keyword-only argument '{pname}'"))
                        )
                    }
                },
            }
        }
        if sig.kwargname.is_some() {
            return Err(self.error(format!("'{name}' takes **kwargs, which is not RPython")));
        }
        Ok(cells)
    }

    /// Calls a function description.
    pub fn call_function(
        &mut self,
        py: Python<'_>,
        desc: DescId,
        args: CallArgs,
    ) -> Result<SomeValue, AnnotatorError> {
        if let Desc::Function(f) = &self.descs[desc] {
            if f.specialize == Specialize::Memo {
                let func = f.func.clone();
                return self.call_memo(py, &func, &args);
            }
        }
        let positional = args.flat_positional().unwrap_or_default();
        let mut graph = self.graph_for_call(py, desc, &positional)?;
        if self.conflicts_with_graph(graph, &positional) {
            // a function given values of kinds that never unite (bytes
            // here and a list there, as a hash function's update is): a
            // graph for each kind (None still unites with either)
            graph = self.graph_for_kinds(py, desc, &positional)?;
        }
        if let Some((g, b)) = self.position() {
            self.call_sites
                .entry((g, b, self.current_op))
                .or_default()
                .insert(desc, graph);
        }
        let cells = self.bind_args(py, graph, args)?;
        let start = self.graphs[graph].graph.startblock;
        self.addpendingblock(graph, start, cells)?;
        self.note_caller(graph);
        if let Some(gen) = self.graphs[graph].generator {
            return Ok(SomeValue::Generator(gen));
        }
        Ok(self.return_annotation(graph))
    }

    /// A memo function: run in CPython now for every combination of the
    /// constant values its arguments can take.
    fn call_memo(
        &mut self,
        py: Python<'_>,
        func: &PyObj,
        args: &CallArgs,
    ) -> Result<SomeValue, AnnotatorError> {
        let positional = args.flat_positional().unwrap_or_default();
        let mut choices: Vec<Vec<PyObj>> = Vec::new();
        for a in &positional {
            let values = match a {
                SomeValue::Pbc { descs, .. } => descs.iter().filter_map(|d| self.desc_object(*d)).collect(),
                SomeValue::Bool { konst: None, .. } => vec![
                    PyObj::new(&PyBool::new(py, false).to_owned().into_any()),
                    PyObj::new(&PyBool::new(py, true).to_owned().into_any()),
                ],
                SomeValue::Bool { konst: Some(b), .. } => vec![PyObj::new(&PyBool::new(py, *b).to_owned().into_any())],
                SomeValue::None_ => vec![PyObj::new(&py.None().into_bound(py))],
                // the class of an instance (`x.__class__`): any class below
                SomeValue::Type {
                    classdef: Some(c),
                    konst: None,
                } => self
                    .subtree(*c)
                    .into_iter()
                    .map(|k| self.classdefs[k].cls.clone())
                    .collect(),
                other => match other.konst() {
                    Some(k) => vec![k.clone()],
                    None => {
                        return Err(self.error(format!(
                            "specialize:memo function called with an argument that is not a constant or a prebuilt constant ({})",
                            crate::describe(other)
                        )))
                    }
                },
            };
            choices.push(values);
        }
        let mut result = SomeValue::Impossible;
        for combo in combinations(&choices) {
            let argv: Vec<Bound<'_, PyAny>> = combo.iter().map(|o| o.bind(py).clone()).collect();
            let tuple = PyTuple::new(py, argv).map_err(|e| self.error(format!("{e}")))?;
            let r = func
                .bind(py)
                .call1(tuple)
                .map_err(|e| self.error(format!("specialize:memo function raised {e}")))?;
            let s = self.immutablevalue(py, &r)?;
            result = self.union(&result, &s).map_err(|e| self.error(e.message))?;
        }
        Ok(result)
    }

    /// The annotation given to a prebuilt list, dict or set, if it was
    /// seen.
    pub fn prebuilt_container(&self, obj: &PyObj) -> Option<SomeValue> {
        self.prebuilt_containers.get(obj).cloned()
    }

    /// The annotation of a prebuilt constant.
    pub fn immutablevalue(
        &mut self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
    ) -> Result<SomeValue, AnnotatorError> {
        if let Some(r) = stdlib_replacement(py, obj) {
            // a built-in function of the standard library held in a
            // prebuilt value (`OPS = {"+": operator.add}`): its RPython
            // replacement, as a call would be
            return self.immutablevalue(py, &r);
        }
        let k = || Some(PyObj::new(obj));
        if obj.is_none() {
            return Ok(SomeValue::None_);
        }
        if rpy3_flowspace::is_undefined_local(obj) {
            // a local not assigned on this path: no value
            return Ok(SomeValue::Impossible);
        }
        if obj.is_instance_of::<PyBool>() {
            return Ok(SomeValue::Bool {
                konst: Some(obj.is_truthy().unwrap_or(false)),
                knowntypedata: None,
            });
        }
        if obj.is_instance_of::<PyInt>() {
            let tyname = obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            let kind = match tyname.as_str() {
                "r_uint" | "r_ulonglong" => IntKind::Unsigned,
                "r_longlong" => IntKind::SignedLongLong,
                _ => IntKind::Signed,
            };
            let nonneg = obj.ge(0).unwrap_or(false);
            if kind == IntKind::Signed && obj.extract::<i64>().is_err() {
                return Err(self.error(format!(
                    "the constant {} does not fit in a machine word",
                    obj
                )));
            }
            return Ok(SomeValue::Integer {
                kind,
                nonneg,
                konst: k(),
                bool_too: false,
            });
        }
        if obj.is_instance_of::<PyFloat>() {
            return Ok(SomeValue::Float {
                konst: k(),
                int_too: false,
            });
        }
        if let Ok(s) = obj.cast::<PyString>() {
            let is_char = s.len().map(|n| n == 1).unwrap_or(false);
            return Ok(SomeValue::Str {
                kind: StrKind::Str,
                is_char,
                can_be_none: false,
                konst: k(),
            });
        }
        if let Ok(b) = obj.cast::<PyBytes>() {
            let is_char = b.as_bytes().len() == 1;
            return Ok(SomeValue::Str {
                kind: StrKind::Bytes,
                is_char,
                can_be_none: false,
                konst: k(),
            });
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            let mut items = Vec::new();
            for i in t.iter() {
                items.push(self.immutablevalue(py, &i)?);
            }
            return Ok(SomeValue::Tuple(items));
        }
        let key = PyObj::new(obj);
        if let Some(s) = self.prebuilt_containers.get(&key) {
            return Ok(s.clone());
        }
        if crate::rules::builtin_name(py, obj.get_type().as_any()) == Some("r_dict") {
            // a prebuilt r_dict: its key functions and entries
            let msg = |e: PyErr| format!("a prebuilt r_dict: {e}");
            let (eq, hash, items) = match (
                obj.getattr("key_eq"),
                obj.getattr("key_hash"),
                obj.call_method0("items"),
            ) {
                (Ok(a), Ok(b), Ok(c)) => (a, b, c),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return Err(self.error(msg(e))),
            };
            let s_eq = self.immutablevalue(py, &eq)?;
            let s_hash = self.immutablevalue(py, &hash)?;
            let id =
                self.new_container(ItemKind::Dict, SomeValue::Impossible, SomeValue::Impossible);
            self.itemdefs.get_mut(id).custom = Some((s_eq, s_hash));
            let s = SomeValue::Dict(id);
            self.prebuilt_containers.insert(key, s.clone());
            let pairs: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = items
                .try_iter()
                .and_then(|it| {
                    it.map(|kv| {
                        let kv = kv?;
                        Ok((kv.get_item(0)?, kv.get_item(1)?))
                    })
                    .collect()
                })
                .map_err(|e| self.error(msg(e)))?;
            for (k, v) in pairs {
                let sk = self.immutablevalue(py, &k)?.without_const();
                let sv = self.immutablevalue(py, &v)?.without_const();
                self.generalize_item(id, &sk, &sv)?;
            }
            return Ok(s);
        }
        if obj.is_instance_of::<pyo3::types::PyRange>() {
            // a prebuilt range: the list range() makes (never mutated)
            let bound = |name: &str| -> Result<i64, AnnotatorError> {
                obj.getattr(name)
                    .and_then(|v| v.extract::<i64>())
                    .map_err(|_| self.error(format!("a range whose {name} does not fit in a word")))
            };
            let (start, step) = (bound("start")?, bound("step")?);
            let _ = bound("stop")?;
            let item = SomeValue::Integer {
                kind: IntKind::Signed,
                nonneg: start >= 0 && step > 0,
                konst: None,
                bool_too: false,
            };
            let id = self.new_container(ItemKind::List, item, SomeValue::Impossible);
            self.itemdefs.get_mut(id).range_step = Some(Some(step));
            let s = SomeValue::List(id);
            self.prebuilt_containers.insert(key, s.clone());
            return Ok(s);
        }
        if let Ok(l) = obj.cast::<PyList>() {
            let id =
                self.new_container(ItemKind::List, SomeValue::Impossible, SomeValue::Impossible);
            let s = SomeValue::List(id);
            self.prebuilt_containers.insert(key, s.clone());
            for i in l.iter() {
                let si = self.immutablevalue(py, &i)?.without_const();
                self.generalize_item(id, &si, &SomeValue::Impossible)?;
            }
            return Ok(s);
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            let id =
                self.new_container(ItemKind::Dict, SomeValue::Impossible, SomeValue::Impossible);
            let s = SomeValue::Dict(id);
            self.prebuilt_containers.insert(key, s.clone());
            for (kk, vv) in d.iter() {
                let sk = self.immutablevalue(py, &kk)?.without_const();
                let sv = self.immutablevalue(py, &vv)?.without_const();
                self.generalize_item(id, &sk, &sv)?;
            }
            return Ok(s);
        }
        let frozenset = obj.is_instance_of::<pyo3::types::PyFrozenSet>();
        if obj.is_instance_of::<PySet>() || frozenset {
            let id =
                self.new_container(ItemKind::Set, SomeValue::Impossible, SomeValue::Impossible);
            self.itemdefs.get_mut(id).frozen = frozenset;
            let s = SomeValue::Set(id);
            self.prebuilt_containers.insert(key, s.clone());
            for i in obj.try_iter().map_err(|e| self.error(format!("{e}")))? {
                let i = i.map_err(|e| self.error(format!("{e}")))?;
                let si = self.immutablevalue(py, &i)?.without_const();
                self.generalize_item(id, &si, &SomeValue::Impossible)?;
            }
            return Ok(s);
        }
        if is_base_exception_str(py, obj) {
            return Ok(SomeValue::Builtin {
                name: "exception_message",
                s_self: None,
            });
        }
        if let Some(name) = crate::rules::builtin_name(py, obj) {
            return Ok(SomeValue::Builtin { name, s_self: None });
        }
        if crate::lldialect::is_lltype_object(obj) {
            let kind = obj
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            if kind == "_ptr" {
                if obj.is_truthy().unwrap_or(true) {
                    return Err(self.error(
                        "prebuilt low-level structures are not supported yet (only null pointers)",
                    ));
                }
                let t = obj.getattr("_T").map_err(|e| self.error(format!("{e}")))?;
                let target = self.lltype_from_py(py, &t)?;
                let pt = rpy3_model::lltype::LlType::ptr(target)
                    .map_err(|e| self.error(e.to_string()))?;
                return Ok(SomeValue::Ptr(pt));
            }
            let t = self.lltype_from_py(py, obj)?;
            return Ok(SomeValue::LowLevelType(t));
        }
        if obj.is_instance_of::<PyType>() {
            // a subclass of list, dict or set adding nothing: that type
            let base = py
                .import("rpy3._renamed")
                .and_then(|m| m.getattr("renamed_builtin")?.call1((obj,)))
                .map_err(|e| self.error(format!("rpy3._renamed: {e}")))?;
            if !base.is_none() {
                return self.immutablevalue(py, &base);
            }
        }
        if obj.is_instance_of::<PyFunction>() || obj.is_instance_of::<PyType>() {
            let d = self.getdesc(py, obj)?;
            return Ok(self.pbc(d));
        }
        if obj.is_instance_of::<PyModule>() || frozen(obj) {
            let d = self.getdesc(py, obj)?;
            return Ok(self.pbc(d));
        }
        let tyname = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        if tyname == "method" {
            let func = obj
                .getattr("__func__")
                .map_err(|e| self.error(format!("{e}")))?;
            let selfobj = obj
                .getattr("__self__")
                .map_err(|e| self.error(format!("{e}")))?;
            if selfobj.is_instance_of::<PyType>() {
                // a classmethod bound to a class known statically: the
                // function with the class as its first argument
                let cd = self.getdesc(py, &selfobj)?;
                let d = self.method_of_frozen_desc(py, &func, cd)?;
                return Ok(self.pbc(d));
            }
            if frozen(&selfobj) || selfobj.is_instance_of::<PyModule>() {
                let fr = self.getdesc(py, &selfobj)?;
                let d = self.method_of_frozen_desc(py, &func, fr)?;
                return Ok(self.pbc(d));
            }
            let s_self = self.immutablevalue(py, &selfobj)?;
            if let SomeValue::Instance { classdef, .. } = s_self {
                let name: String = func
                    .getattr("__name__")
                    .and_then(|n| n.extract())
                    .unwrap_or_default();
                let d = self.method_desc(py, &func, classdef, &name)?;
                return Ok(self.pbc(d));
            }
        }
        if is_builtin_base_init(obj) {
            // `Exception.__init__` / `object.__init__`, read from the
            // built-in class (the flow space folds the attribute)
            return Ok(SomeValue::Builtin {
                name: "base_init",
                s_self: None,
            });
        }
        if tyname == "builtin_function_or_method" {
            // a method of a constant of a built-in type (`"".join`)
            if let (Ok(selfobj), Ok(mname)) = (
                obj.getattr("__self__"),
                obj.getattr("__name__").and_then(|n| n.extract::<String>()),
            ) {
                if !selfobj.is_instance_of::<PyModule>() && !selfobj.is_none() {
                    let s_self = self.immutablevalue(py, &selfobj)?;
                    return crate::rules::method_of(self, py, &s_self, &mname);
                }
            }
        }
        // A prebuilt instance of a program class.
        if let Some(s) = prebuilt_builder(py, obj) {
            return Ok(s);
        }
        if let Some(world) = crate::rules::world_object(py, obj) {
            // the standard streams and os.environ
            return Ok(SomeValue::Builtin {
                name: world,
                s_self: None,
            });
        }
        let cls = obj.get_type();
        if cls
            .getattr("__module__")
            .map(|m| m.to_string() != "builtins")
            .unwrap_or(false)
            && !is_rpy3_function(cls.as_any())
        {
            let cdef = self.getclassdef(py, cls.as_any())?;
            if self.seen_prebuilt.insert(key) {
                self.prebuilt_todo.push((PyObj::new(obj), cdef));
                if !self.draining_prebuilt {
                    self.draining_prebuilt = true;
                    let r = self.annotate_prebuilt_attrs(py);
                    self.draining_prebuilt = false;
                    if r.is_err() {
                        // seen again, failing again (errors are reported
                        // once the fixpoint is reached)
                        for (o, _) in std::mem::take(&mut self.prebuilt_todo) {
                            self.seen_prebuilt.remove(&o);
                        }
                    }
                    r?;
                }
            }
            return Ok(SomeValue::Instance {
                classdef: cdef,
                can_be_none: false,
            });
        }
        if let Some(s) = crate::rules::immutable_builtin_value(self, py, obj)? {
            return Ok(s);
        }
        if obj.is_instance_of::<pyo3::types::PyCFunction>() {
            let module: String = obj
                .getattr("__module__")
                .and_then(|m| m.extract())
                .unwrap_or_default();
            let fname: String = obj
                .getattr("__name__")
                .and_then(|m| m.extract())
                .unwrap_or_default();
            let qual = if module.is_empty() || module == "builtins" {
                fname
            } else {
                format!("{module}.{fname}")
            };
            return Err(self.error(format!(
                "the built-in function {qual}() is not supported in RPython"
            )));
        }
        Err(self.error(format!(
            "the prebuilt constant {} is not RPython",
            describe_obj(obj)
        )))
    }
}

impl Annotator {
    /// Annotates the attributes of the prebuilt instances found so far
    /// (and of those they lead to).
    fn annotate_prebuilt_attrs(&mut self, py: Python<'_>) -> Result<(), AnnotatorError> {
        while let Some((obj, cdef)) = self.prebuilt_todo.last().cloned() {
            let o = obj.bind(py).clone();
            if let Ok(d) = o
                .getattr("__dict__")
                .and_then(|d| d.cast_into::<PyDict>().map_err(Into::into))
            {
                for (name, value) in d.iter() {
                    let name: String = name.extract().unwrap_or_default();
                    let s = self.immutablevalue(py, &value)?.without_const();
                    self.set_attr(py, cdef, &name, &s)?;
                }
            }
            // done: remove it (items pushed meanwhile sit above it)
            if let Some(i) = self.prebuilt_todo.iter().rposition(|(p, _)| *p == obj) {
                self.prebuilt_todo.remove(i);
            }
        }
        Ok(())
    }
}

/// The annotation of a prebuilt `StringBuilder` or `BytesBuilder`: as
/// one the constructor makes.
pub fn prebuilt_builder(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<SomeValue> {
    let name @ ("StringBuilder" | "BytesBuilder") =
        crate::rules::builtin_name(py, obj.get_type().as_any())?
    else {
        return None;
    };
    let kind = if name == "StringBuilder" {
        StrKind::Str
    } else {
        StrKind::Bytes
    };
    Some(SomeValue::Builtin {
        name,
        s_self: Some(Box::new(crate::rules::string_annotation(kind))),
    })
}

/// Whether an object declares itself frozen (`_freeze_()` true).
pub fn frozen(obj: &Bound<'_, PyAny>) -> bool {
    obj.getattr("_freeze_")
        .and_then(|f| f.call0())
        .and_then(|r| r.is_truthy())
        .unwrap_or(false)
}

fn describe_obj(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    let r: String = r.chars().take(60).collect();
    format!(
        "{r} (of type {})",
        obj.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )
}

/// The part of an annotation that selects an `argtype` specialisation.
/// The kinds of the numbers among `args` ("i" int, "b" bool, "f" float,
/// "" anything else), or "" when there is none: the key of a function's
/// default specialisation.
fn value_kinds_key(args: &[SomeValue]) -> String {
    let kinds: Vec<&str> = args
        .iter()
        .map(|a| match a {
            SomeValue::Integer {
                kind: IntKind::Signed,
                ..
            } => "i",
            SomeValue::Bool { .. } => "b",
            SomeValue::Float { .. } => "f",
            _ => "",
        })
        .collect();
    if kinds.iter().all(|k| k.is_empty()) {
        return String::new();
    }
    kinds.join("|")
}

fn type_key(s: &SomeValue) -> SomeValue {
    match s {
        SomeValue::Integer { kind, .. } => SomeValue::Integer {
            kind: *kind,
            nonneg: false,
            konst: None,
            bool_too: false,
        },
        SomeValue::Str { kind, .. } => SomeValue::Str {
            kind: *kind,
            is_char: false,
            can_be_none: false,
            konst: None,
        },
        SomeValue::Instance { classdef, .. } => SomeValue::Instance {
            classdef: *classdef,
            can_be_none: false,
        },
        other => other.without_const(),
    }
}

/// The key of the low-level policy: like [`type_key`], but a character
/// (never None) and a string are different, as their low-level
/// representations are.
fn ll_type_key(s: &SomeValue) -> SomeValue {
    match s {
        SomeValue::Str {
            kind,
            is_char,
            can_be_none,
            ..
        } => SomeValue::Str {
            kind: *kind,
            is_char: *is_char && !*can_be_none,
            can_be_none: false,
            konst: None,
        },
        other => type_key(other),
    }
}

/// Unused-set helper kept with the annotator's state.
pub type SeenSet = HashSet<PyObj>;

/// The RPython replacement of a built-in function of the standard library
/// (`rpy3.stdlib.replacement`), if `obj` is one that has one.
pub fn stdlib_replacement<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    // (built-in functions, functions that `functools.lru_cache` wraps,
    // namedtuple classes and their instances)
    let tuple_type = || {
        obj.cast::<PyType>().is_ok_and(|t| {
            !t.is(&py.get_type::<pyo3::types::PyTuple>())
                && t.is_subclass_of::<pyo3::types::PyTuple>().unwrap_or(false)
        })
    };
    if !obj.is_instance_of::<pyo3::types::PyCFunction>()
        && !obj
            .get_type()
            .name()
            .is_ok_and(|n| n == "_lru_cache_wrapper")
        && !(obj.is_instance_of::<pyo3::types::PyTuple>()
            && !obj.is_exact_instance_of::<pyo3::types::PyTuple>())
        && !tuple_type()
        // Enum classes and members
        && !obj.get_type().name().is_ok_and(|n| n == "EnumType")
        && !obj.get_type().get_type().name().is_ok_and(|n| n == "EnumType")
    {
        return None;
    }
    let found = py
        .import("rpy3.stdlib")
        .and_then(|m| m.getattr("replacement")?.call1((obj,)))
        .ok()?;
    (!found.is_none()).then_some(found)
}

/// The kind of a str, bytes, list, dict or set (values of different kinds
/// never unite), None for anything else.
fn container_kind(s: &SomeValue) -> Option<&'static str> {
    Some(match s {
        SomeValue::Str {
            kind: StrKind::Str, ..
        } => "s",
        SomeValue::Str {
            kind: StrKind::Bytes,
            ..
        } => "y",
        SomeValue::List(_) => "l",
        SomeValue::Dict(_) => "d",
        SomeValue::Set(_) => "e",
        _ => return None,
    })
}

/// Every combination of one value from each list of `choices`, the first
/// list varying slowest (the order in which the memo functions' results
/// are computed, by the annotator and by the rtyper's tables).
pub fn combinations<T: Clone>(choices: &[Vec<T>]) -> Vec<Vec<T>> {
    let mut combos: Vec<Vec<T>> = vec![Vec::new()];
    for c in choices {
        combos = combos
            .into_iter()
            .flat_map(|prefix| {
                c.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push(v.clone());
                    p
                })
            })
            .collect();
    }
    combos
}

/// Whether `obj` is BaseException's `__str__` (`Exception.__str__(self)`
/// in an override): the exception's own text.
pub fn is_base_exception_str(py: Python<'_>, obj: &Bound<'_, PyAny>) -> bool {
    py.import("builtins")
        .and_then(|b| b.getattr("BaseException")?.getattr("__str__"))
        .is_ok_and(|bs| bs.is(obj))
}
