//! Checking annotations against reality: whether a concrete Python value
//! lies inside an annotation.  The `annotate` backend runs the flow graphs
//! on real objects and checks every value every variable takes.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PySet, PyString, PyTuple, PyType,
};
use rpy3_model::{FunctionGraph, PyObj, VarId};

use crate::description::Desc;
use crate::ids::{ClassDefId, DescId, ItemDefId};
use crate::model::{IntKind, SomeValue, StrKind};
use crate::Annotator;

/// How many items of a container are checked per observation.
const MAX_ITEMS: usize = 64;

/// A frozen view of an annotator's results, shareable across threads.
pub struct Oracle {
    /// Annotations of each variable, per flow graph (one per specialised copy).
    bindings: HashMap<(usize, VarId), Vec<SomeValue>>,
    classes: HashMap<ClassDefId, PyObj>,
    descs: HashMap<DescId, DescView>,
    items: HashMap<ItemDefId, (SomeValue, SomeValue)>,
    /// The container definitions that may be None.
    nullable: HashSet<ItemDefId>,
    /// Lists that are tuples (of a length known at run time only).
    tuples: HashSet<ItemDefId>,
    /// Functions run by CPython at annotation time (`specialize:memo`):
    /// their graphs are not part of the translated program, only the
    /// results of their calls are.
    untranslated: HashSet<PyObj>,
    /// The directory of CPython's standard library: its Python code
    /// (`collections.Counter`'s methods) is never translated, rpy3's
    /// replacements of it are.
    stdlib_dir: Option<String>,
    /// The flow graphs the annotator annotated (by address).
    annotated_graphs: HashSet<usize>,
}

enum DescView {
    Object(PyObj),
    Method { func: PyObj, selfcls: PyObj },
    MethodOfFrozen { func: PyObj, frozen: PyObj },
}

impl Oracle {
    /// Captures the annotator's results.  Copies of one function share the
    /// variable ids of its flow graph, so they are keyed by that graph.
    pub fn new(ann: &Annotator) -> Oracle {
        let mut bindings: HashMap<(usize, VarId), Vec<SomeValue>> = HashMap::new();
        let mut base_graph: HashMap<DescId, usize> = HashMap::new();
        for (_, ag) in ann.graphs.iter() {
            let key = match ag.desc {
                Some(d) => *base_graph
                    .entry(d)
                    .or_insert(Arc::as_ptr(&ag.graph) as usize),
                None => Arc::as_ptr(&ag.graph) as usize,
            };
            for (v, s) in ag.bindings.iter() {
                if let Some(s) = s {
                    bindings.entry((key, v)).or_default().push(ann.normalize(s));
                }
            }
        }
        let classes = ann
            .classdefs
            .iter()
            .map(|(id, c)| (id, c.cls.clone()))
            .collect();
        let mut descs = HashMap::new();
        for (id, d) in ann.descs.iter() {
            let view = match d {
                Desc::Function(f) => DescView::Object(f.func.clone()),
                Desc::Class { cls, .. } => DescView::Object(cls.clone()),
                Desc::Frozen { obj, .. } => DescView::Object(obj.clone()),
                Desc::Method {
                    func, selfclassdef, ..
                } => match ann.desc_object(*func) {
                    Some(f) => DescView::Method {
                        func: f,
                        selfcls: ann.classdefs[*selfclassdef].cls.clone(),
                    },
                    None => continue,
                },
                Desc::MethodOfFrozen { func, frozen } => {
                    match (ann.desc_object(*func), ann.desc_object(*frozen)) {
                        (Some(f), Some(fr)) => DescView::MethodOfFrozen {
                            func: f,
                            frozen: fr,
                        },
                        _ => continue,
                    }
                }
            };
            descs.insert(id, view);
        }
        let mut items = HashMap::new();
        let mut nullable = HashSet::new();
        let mut tuples = HashSet::new();
        for i in 0..ann.itemdefs_len() {
            let id = ItemDefId::from_u32(i as u32);
            let d = ann.itemdefs.get(id);
            items.insert(id, (ann.normalize(&d.item), ann.normalize(&d.value)));
            if d.can_be_none {
                nullable.insert(id);
            }
            if d.tuple {
                tuples.insert(id);
            }
        }
        let untranslated = ann
            .descs
            .iter()
            .filter_map(|(_, d)| match d {
                Desc::Function(f) if f.specialize == crate::description::Specialize::Memo => {
                    Some(f.func.clone())
                }
                _ => None,
            })
            .collect();
        let stdlib_dir = py_stdlib_dir();
        let annotated_graphs = bindings.keys().map(|(g, _)| *g).collect();
        Oracle {
            bindings,
            classes,
            descs,
            items,
            nullable,
            tuples,
            untranslated,
            stdlib_dir,
            annotated_graphs,
        }
    }

    /// `None` if `value` fits an annotation of `v` in `graph`, else why not.
    pub fn check(
        &self,
        py: Python<'_>,
        graph: &Arc<FunctionGraph>,
        v: VarId,
        value: &Bound<'_, PyAny>,
    ) -> Option<String> {
        if graph
            .func
            .as_ref()
            .map(|f| self.untranslated.contains(f))
            .unwrap_or(false)
        {
            return None;
        }
        if let Some(dir) = &self.stdlib_dir {
            if graph.source.filename.starts_with(dir.as_str())
                && !graph.source.filename.contains("site-packages")
            {
                return None;
            }
        }
        if !self.annotated_graphs.contains(&(Arc::as_ptr(graph) as usize))
            && graph.source.filename.contains("/rpy3/")
        {
            // rpy3's replacement of a standard-library function that the
            // standard library's own code calls (`Counter.most_common`
            // calls `heapq.nlargest`): the translated program calls
            // rpy3's Counter functions instead
            return None;
        }
        if rpy3_flowspace::is_undefined_local(value) {
            // a local read on a path where Python would have raised
            // UnboundLocalError: the program does not read it there
            return None;
        }
        let key = (Arc::as_ptr(graph) as usize, v);
        let what = || {
            let hint = &graph.vars[v].name_hint;
            let r = value.repr().map(|r| r.to_string()).unwrap_or_default();
            let r: String = r.chars().take(60).collect();
            format!(
                "{}:{} variable {}{} took the value {r}",
                graph.source.filename,
                graph.source.qualname,
                v,
                if hint.is_empty() {
                    String::new()
                } else {
                    format!(" ({hint})")
                }
            )
        };
        match self.bindings.get(&key) {
            None => Some(format!("{} but has no annotation", what())),
            Some(anns) => {
                if anns.iter().any(|s| self.contains(py, s, value)) {
                    None
                } else {
                    let descr: Vec<String> = anns.iter().map(crate::describe).collect();
                    Some(format!(
                        "{} outside its annotation {}",
                        what(),
                        descr.join(" | ")
                    ))
                }
            }
        }
    }

    /// Whether `value` lies inside `s`.
    pub fn contains(&self, py: Python<'_>, s: &SomeValue, value: &Bound<'_, PyAny>) -> bool {
        self.contains_in(py, s, value, &mut Vec::new())
    }

    /// `contains`, coinductive on containers: a container already being
    /// checked against the same item definition (a list or dict that holds
    /// itself) is taken to fit, so self-referencing values terminate.
    fn contains_in(
        &self,
        py: Python<'_>,
        s: &SomeValue,
        value: &Bound<'_, PyAny>,
        open: &mut Vec<(ItemDefId, usize)>,
    ) -> bool {
        use SomeValue::*;
        if let List(id) | Set(id) | Dict(id) = s {
            if value.is_none() {
                return self.nullable.contains(id);
            }
            let key = (*id, value.as_ptr() as usize);
            if open.contains(&key) {
                return true;
            }
            open.push(key);
            let r = self.contains_container(py, s, value, open);
            open.pop();
            return r;
        }
        self.contains_container(py, s, value, open)
    }

    fn contains_container(
        &self,
        py: Python<'_>,
        s: &SomeValue,
        value: &Bound<'_, PyAny>,
        open: &mut Vec<(ItemDefId, usize)>,
    ) -> bool {
        use SomeValue::*;
        if value.is_none() && s.can_be_none() {
            return true;
        }
        let konst_ok = |k: &Option<PyObj>| match k {
            None => true,
            Some(k) => crate::model::same_const(k, &PyObj::new(value)),
        };
        match s {
            Impossible => false,
            Integer {
                kind,
                nonneg,
                konst,
                bool_too: _,
            } => {
                if !value.is_instance_of::<PyInt>() {
                    return false;
                }
                if !kind.unsigned() && konst.is_none() {
                    // CPython computes a signed operation that overflows the
                    // machine word exactly; the program either wraps the
                    // result (`intmask`) or has it raise (`ovfcheck`).  That
                    // out-of-range int stands for the overflowed machine
                    // value; a non-negative claim assumes no overflow (as in
                    // RPython) but the exact value must still be >= 0.
                    if value.extract::<i64>().is_err() {
                        return !*nonneg || value.ge(0).unwrap_or(false);
                    }
                }
                let Ok(n) = value.extract::<i128>() else {
                    return false;
                };
                let range_ok = match kind {
                    IntKind::Signed | IntKind::SignedLongLong => i64::try_from(n).is_ok(),
                    IntKind::Unsigned | IntKind::UnsignedLongLong => {
                        (0..=u64::MAX as i128).contains(&n)
                    }
                };
                range_ok && (!nonneg || n >= 0) && konst_ok(konst)
            }
            Bool { konst, .. } => {
                value.is_instance_of::<PyBool>()
                    && konst
                        .map(|k| value.is_truthy().map(|t| t == k).unwrap_or(false))
                        .unwrap_or(true)
            }
            // an int that met a float is a number of either kind
            Float {
                konst: None,
                int_too: true,
            } => {
                value.is_instance_of::<PyFloat>()
                    || (value.is_instance_of::<PyInt>() && value.extract::<i64>().is_ok())
            }
            Float { konst, .. } => value.is_instance_of::<PyFloat>() && konst_ok(konst),
            Str {
                kind,
                is_char,
                konst,
                ..
            } => {
                let len = match kind {
                    StrKind::Str => value.cast::<PyString>().ok().and_then(|s| s.len().ok()),
                    StrKind::Bytes => value.cast::<PyBytes>().ok().map(|b| b.as_bytes().len()),
                };
                match len {
                    Some(n) => (!is_char || n == 1) && konst_ok(konst),
                    None => false,
                }
            }
            None_ => value.is_none(),
            TupleOrNone(_) | Optional(_) if value.is_none() => true,
            Optional(inner) => self.contains_in(py, inner, value, open),
            Tuple(items) | TupleOrNone(items) => match value.cast::<PyTuple>() {
                Ok(t) => {
                    t.len() == items.len()
                        && t.iter()
                            .zip(items)
                            .all(|(x, s)| self.contains_in(py, s, &x, open))
                }
                Err(_) => false,
            },
            List(id) => {
                // In RPython `range()` and the dict views of `keys()`,
                // `values()` and `items()` are lists; CPython runs them as
                // their own iterables.
                let tyname = value
                    .get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                let listlike = if self.tuples.contains(id) {
                    value.is_instance_of::<PyTuple>()
                } else {
                    value.is_instance_of::<PyList>()
                } || matches!(
                    tyname.as_str(),
                    "range" | "dict_keys" | "dict_values" | "dict_items" | "odict_keys"
                        | "odict_values" | "odict_items" | "bytearray" | "deque"
                );
                if !listlike {
                    return false;
                }
                let item = &self.items[id].0;
                match value.try_iter() {
                    Ok(it) => it.take(MAX_ITEMS).all(|x| {
                        x.map(|x| self.contains_in(py, item, &x, open))
                            .unwrap_or(false)
                    }),
                    Err(_) => false,
                }
            }
            Set(id) => {
                let items = match value.cast::<PySet>() {
                    Ok(st) => Some(st.iter().take(MAX_ITEMS).collect::<Vec<_>>()),
                    // a frozenset is a set that is never mutated
                    Err(_) => value
                        .cast::<pyo3::types::PyFrozenSet>()
                        .ok()
                        .map(|st| st.iter().take(MAX_ITEMS).collect()),
                };
                match items {
                    Some(xs) => {
                        let item = &self.items[id].0;
                        xs.iter().all(|x| self.contains_in(py, item, x, open))
                    }
                    None => false,
                }
            }
            Dict(id) => {
                let (k, v) = &self.items[id];
                if let Ok(d) = value.cast::<PyDict>() {
                    d.iter().take(MAX_ITEMS).all(|(a, b)| {
                        self.contains_in(py, k, &a, open) && self.contains_in(py, v, &b, open)
                    })
                } else {
                    // an r_dict
                    value
                        .get_type()
                        .name()
                        .map(|n| n == "r_dict")
                        .unwrap_or(false)
                }
            }
            Instance { classdef, .. } => {
                let cls = self.classes[classdef].bind(py);
                // a number class of rpy3's (a complex) stands for the
                // plain numbers that meet it too
                let number = cls
                    .getattr("_rpy3_number_")
                    .and_then(|v| v.is_truthy())
                    .unwrap_or(false)
                    && (value.is_instance_of::<pyo3::types::PyInt>()
                        || value.is_instance_of::<pyo3::types::PyFloat>()
                        || value.is_instance_of::<pyo3::types::PyComplex>());
                number
                    || value.is_instance(cls).unwrap_or(false)
                    // (a namedtuple standing for its stand-in class)
                    || crate::description::stdlib_replacement(py, value)
                        .is_some_and(|r| r.is_instance(cls).unwrap_or(false))
                    // (a plain function standing for its prebuilt closure)
                    || (value.is_instance_of::<pyo3::types::PyFunction>()
                        && py
                            .import("rpy3._closures")
                            .and_then(|m| m.getattr("existing_wrapper")?.call1((value,)))
                            .is_ok_and(|w| w.is_instance(cls).unwrap_or(false)))
            }
            Pbc { descs, .. } => descs.iter().any(|d| match self.descs.get(d) {
                Some(DescView::Object(o)) => {
                    o.bind(py).is(value)
                        || crate::description::stdlib_replacement(py, value)
                            .is_some_and(|r| o.bind(py).is(&r))
                }
                Some(DescView::Method { func, selfcls }) => {
                    value
                        .getattr("__func__")
                        .map(|f| {
                            f.is(func.bind(py))
                                || crate::description::stdlib_replacement(py, &f)
                                    .is_some_and(|r| r.is(func.bind(py)))
                        })
                        .unwrap_or(false)
                        && value
                            .getattr("__self__")
                            .map(|s| {
                                s.is_instance(selfcls.bind(py)).unwrap_or(false)
                                    || crate::description::stdlib_replacement(py, &s).is_some_and(
                                        |r| r.is_instance(selfcls.bind(py)).unwrap_or(false),
                                    )
                            })
                            .unwrap_or(false)
                }
                Some(DescView::MethodOfFrozen { func, frozen }) => {
                    value
                        .getattr("__func__")
                        .map(|f| f.is(func.bind(py)))
                        .unwrap_or(false)
                        && value
                            .getattr("__self__")
                            .map(|s| s.is(frozen.bind(py)))
                            .unwrap_or(false)
                }
                None => false,
            }),
            Iterator { .. } | Generator(_) => value.hasattr("__next__").unwrap_or(false),
            Slice(parts) => match value.cast::<pyo3::types::PySlice>() {
                Ok(sl) => ["start", "stop", "step"].iter().zip(parts).all(|(a, s)| {
                    sl.getattr(*a)
                        .map(|x| self.contains_in(py, s, &x, open))
                        .unwrap_or(false)
                }),
                Err(_) => false,
            },
            // low-level helpers run on emulated lltype objects
            LowLevelType(_) => value
                .get_type()
                .module()
                .map(|m| m == "rpy3.lltype")
                .unwrap_or(false),
            Ptr(_) | InteriorPtr { .. } => value
                .get_type()
                .name()
                .map(|n| n == "_ptr")
                .unwrap_or(false),
            Builtin { name: "super", .. } => value
                .get_type()
                .name()
                .map(|n| n == "super")
                .unwrap_or(false),
            Builtin { .. } => value.is_callable() || value.hasattr("append").unwrap_or(false),
            Type { classdef, konst } => {
                if let Some(k) = konst {
                    return k.bind(py).is(value);
                }
                match (classdef, value.cast::<PyType>()) {
                    (Some(c), Ok(t)) => t.is_subclass(self.classes[c].bind(py)).unwrap_or(false),
                    (None, Ok(_)) => true,
                    _ => false,
                }
            }
        }
    }
}

/// The directory of CPython's standard library (`sysconfig`'s "stdlib").
fn py_stdlib_dir() -> Option<String> {
    Python::attach(|py| {
        py.import("sysconfig")
            .and_then(|m| m.call_method0("get_paths"))
            .and_then(|p| p.get_item("stdlib"))
            .and_then(|d| d.extract::<String>())
            .ok()
            .map(|d| format!("{}/", d.trim_end_matches('/')))
    })
}
