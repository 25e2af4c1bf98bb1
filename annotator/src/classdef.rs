//! Class definitions (PyPy's `classdesc.py`): the single-inheritance tree
//! of the classes whose instances the program uses, and the attributes
//! discovered on them.  An attribute lives on the most general class that
//! uses it; a read through a base class lifts it there.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFunction, PyType};
use rpy3_model::PyObj;

use crate::error::AnnotatorError;
use crate::ids::ClassDefId;
use crate::itemdef::Position;
use crate::model::SomeValue;
use crate::Annotator;

/// An instance attribute.
#[derive(Clone, Debug)]
pub struct Attr {
    /// Everything stored into it (class-level defaults included).
    pub s_value: SomeValue,
    /// Blocks that read it.
    pub readers: BTreeSet<Position>,
}

/// What the annotator knows about one class.
pub struct ClassDef {
    /// The class.
    pub cls: PyObj,
    /// Its qualified name.
    pub name: String,
    /// The base class definition (`None` for a root).
    pub base: Option<ClassDefId>,
    /// Direct subclasses seen so far.
    pub subdefs: Vec<ClassDefId>,
    /// Attributes that live on this class.
    pub attrs: HashMap<String, Attr>,
    /// Blocks that looked up methods through this class (reflowed when a
    /// subclass appears, since it may override them).
    pub method_readers: BTreeSet<Position>,
}

/// Whether a class attribute is the descriptor of a slot (`__slots__`)
/// or of `__dict__`: no value of its own.
pub fn is_slot_descriptor(v: &Bound<'_, PyAny>) -> bool {
    v.get_type()
        .name()
        .is_ok_and(|n| n == "member_descriptor" || n == "getset_descriptor")
}

/// A copy of the own `__dict__` of `cls`, without the slot descriptors
/// of `__slots__` (an attribute named in `__slots__` is an instance
/// attribute like any other).
fn class_dict<'py>(cls: &Bound<'py, PyAny>) -> Option<Bound<'py, PyDict>> {
    let d = cls.getattr("__dict__").ok().and_then(|d| {
        let py = d.py();
        py.import("builtins")
            .ok()?
            .getattr("dict")
            .ok()?
            .call1((d,))
            .ok()?
            .cast_into::<PyDict>()
            .ok()
    })?;
    let slots: Vec<Bound<'py, PyAny>> = d
        .iter()
        .filter(|(_, v)| is_slot_descriptor(v))
        .map(|(k, _)| k)
        .collect();
    for k in slots {
        let _ = d.del_item(k);
    }
    let _ = d.del_item("__slots__");
    // methods the standard library added (`@functools.total_ordering`):
    // their RPython replacements
    let py = d.py();
    if let Ok(m) = py.import("rpy3.stdlib") {
        let _ = m.getattr("replace_in_class_dict").and_then(|f| f.call1((&d,)));
    }
    Some(d)
}

/// Whether a class is a mixin (`_mixin_ = True`): a source of methods,
/// not a base in the class tree.
fn is_mixin(cls: &Bound<'_, PyAny>) -> bool {
    class_dict(cls)
        .and_then(|d| d.get_item("_mixin_").ok().flatten())
        .map(|v| v.is_truthy().unwrap_or(false))
        .unwrap_or(false)
}

/// The name of `b` if it is a built-in type a program class may not
/// subclass (anything of `builtins` but `object` and the exceptions).
fn builtin_container_base(py: Python<'_>, b: &Bound<'_, PyAny>) -> Option<String> {
    let module = b.getattr("__module__").ok()?.to_string();
    if module != "builtins" {
        return None;
    }
    let base_exc = py.get_type::<pyo3::exceptions::PyBaseException>();
    let is_exc = b
        .cast::<pyo3::types::PyType>()
        .ok()
        .and_then(|t| t.is_subclass(&base_exc).ok())
        .unwrap_or(false);
    if is_exc {
        return None;
    }
    b.getattr("__name__").ok().map(|n| n.to_string())
}

/// " (file:line)" where class `cls` is defined, when Python knows.
fn defined_at(py: Python<'_>, cls: &Bound<'_, PyAny>) -> String {
    let found = (|| -> PyResult<(String, i64)> {
        let inspect = py.import("inspect")?;
        let file: String = inspect.call_method1("getsourcefile", (cls,))?.extract()?;
        let line: i64 = inspect
            .call_method1("getsourcelines", (cls,))?
            .get_item(1)?
            .extract()?;
        Ok((file, line))
    })();
    match found {
        Ok((file, line)) => format!(" (defined at {file}:{line})"),
        Err(_) => String::new(),
    }
}

impl Annotator {
    /// The class definition of `cls`, creating it and its bases.
    pub fn getclassdef(
        &mut self,
        py: Python<'_>,
        cls: &Bound<'_, PyAny>,
    ) -> Result<ClassDefId, AnnotatorError> {
        let key = PyObj::new(cls);
        if let Some(&c) = self.classdef_of.get(&key) {
            return Ok(c);
        }
        // its properties' getters and setters become methods
        py.import("rpy3._properties")
            .and_then(|m| m.getattr("expose")?.call1((cls,)))
            .map_err(|e| self.error(format!("rpy3._properties: {e}")))?;
        // a dataclass's generated methods: their RPython equivalents
        py.import("rpy3.stdlib.dataclassmod")
            .and_then(|m| m.getattr("prepare")?.call1((cls,)))
            .map_err(|e| self.error(format!("rpy3.stdlib.dataclassmod: {e}")))?;
        let name: String = cls
            .getattr("__qualname__")
            .and_then(|n| n.extract())
            .unwrap_or_else(|_| "?".into());
        let bases = cls
            .getattr("__bases__")
            .map_err(|e| self.error(format!("{e}")))?;
        let mut real_bases = Vec::new();
        for b in bases.try_iter().map_err(|e| self.error(format!("{e}")))? {
            let b = b.map_err(|e| self.error(format!("{e}")))?;
            let is_object = b.is(py.get_type::<pyo3::types::PyAny>().as_any())
                || b.getattr("__name__")
                    .map(|n| n.to_string() == "object")
                    .unwrap_or(false)
                    && b.getattr("__module__")
                        .map(|m| m.to_string() == "builtins")
                        .unwrap_or(false);
            if is_object || is_mixin(&b) {
                continue;
            }
            if let Some(builtin) = builtin_container_base(py, &b) {
                return Err(self.error(format!(
                    "class {name}{} subclasses the built-in type {builtin}; RPython does not \
                     allow subclassing built-in types other than object and the exceptions \
                     (hold a {builtin} in an attribute instead)",
                    defined_at(py, cls)
                )));
            }
            real_bases.push(b);
        }
        if real_bases.len() > 1 {
            return Err(self.error(format!(
                "class {name} has several base classes; RPython allows single inheritance (mark the others with _mixin_ = True)"
            )));
        }
        let base = match real_bases.first() {
            Some(b) => Some(self.getclassdef(py, b)?),
            None => None,
        };
        let id = self.classdefs.push(ClassDef {
            cls: key.clone(),
            name,
            base,
            subdefs: Vec::new(),
            attrs: HashMap::new(),
            method_readers: BTreeSet::new(),
        });
        self.classdef_of.insert(key, id);
        if let Some(b) = base {
            self.classdefs[b].subdefs.push(id);
            // A new subclass can override methods and class attributes
            // read through its bases.
            let mut anc = Some(b);
            while let Some(a) = anc {
                let readers: Vec<Position> = self.classdefs[a]
                    .method_readers
                    .iter()
                    .copied()
                    .chain(
                        self.classdefs[a]
                            .attrs
                            .values()
                            .flat_map(|at| at.readers.iter().copied()),
                    )
                    .collect();
                for r in readers {
                    self.reflow(r);
                }
                anc = self.classdefs[a].base;
            }
        }
        Ok(id)
    }

    /// Every instance attribute an instance known as `c` can have: those
    /// of `c` and its bases, and those of its subclasses, with the class
    /// each lives on, in a stable order.
    pub fn instance_fields(&self, c: ClassDefId) -> Vec<(ClassDefId, String)> {
        let mut owners = Vec::new();
        let mut k = self.classdefs[c].base;
        while let Some(x) = k {
            owners.push(x);
            k = self.classdefs[x].base;
        }
        owners.reverse();
        owners.extend(self.subtree(c));
        let mut out = Vec::new();
        for o in owners {
            let mut names: Vec<&String> = self.classdefs[o].attrs.keys().collect();
            names.sort();
            out.extend(names.into_iter().map(|n| (o, n.clone())));
        }
        out
    }

    /// Whether `sub` is `sup` or one of its subclasses.
    pub fn is_subclass(&self, sub: ClassDefId, sup: ClassDefId) -> bool {
        let mut c = Some(sub);
        while let Some(x) = c {
            if x == sup {
                return true;
            }
            c = self.classdefs[x].base;
        }
        false
    }

    /// The most specific common base of two class definitions.
    pub fn common_base(&self, a: ClassDefId, b: ClassDefId) -> Option<ClassDefId> {
        let mut c = Some(a);
        while let Some(x) = c {
            if self.is_subclass(b, x) {
                return Some(x);
            }
            c = self.classdefs[x].base;
        }
        None
    }

    /// Every class definition at or below `c`.
    pub fn subtree(&self, c: ClassDefId) -> Vec<ClassDefId> {
        let mut out = vec![c];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.classdefs[out[i]].subdefs.iter().copied());
            i += 1;
        }
        out
    }

    /// The class-level value of `name` as seen from `cls` (through its MRO).
    fn class_level<'py>(
        &self,
        py: Python<'py>,
        cls: &PyObj,
        name: &str,
    ) -> Option<Bound<'py, PyAny>> {
        let cls = cls.bind(py);
        let mro = cls.getattr("__mro__").ok()?;
        for k in mro.try_iter().ok()? {
            let k = k.ok()?;
            if let Some(d) = class_dict(&k) {
                if let Ok(Some(v)) = d.get_item(name) {
                    return Some(v);
                }
            }
        }
        None
    }

    /// The value `name` has in the own `__dict__` of `cls`.
    fn own_class_value<'py>(
        &self,
        py: Python<'py>,
        cls: &PyObj,
        name: &str,
    ) -> Option<Bound<'py, PyAny>> {
        class_dict(cls.bind(py)).and_then(|d| d.get_item(name).ok().flatten())
    }

    /// Where attribute `name` of instances of `c` lives, creating (or
    /// lifting) it on `c` when no base has it.
    fn locate_attr(
        &mut self,
        py: Python<'_>,
        c: ClassDefId,
        name: &str,
    ) -> Result<ClassDefId, AnnotatorError> {
        let mut x = Some(c);
        while let Some(k) = x {
            if self.classdefs[k].attrs.contains_key(name) {
                return Ok(k);
            }
            x = self.classdefs[k].base;
        }
        // New on `c`: absorb the attribute from subclasses that had it,
        // and class-level defaults of `c` and its subclasses.
        let mut s_value = SomeValue::Impossible;
        let mut readers = BTreeSet::new();
        for sub in self.subtree(c) {
            if sub != c {
                if let Some(a) = self.classdefs[sub].attrs.remove(name) {
                    s_value = self
                        .union(&s_value, &a.s_value)
                        .map_err(|e| self.error(e.message))?;
                    readers.extend(a.readers);
                }
            }
            let cls = self.classdefs[sub].cls.clone();
            let own = if sub == c {
                self.class_level(py, &cls, name)
            } else {
                self.own_class_value(py, &cls, name)
            };
            // a static method stands for its function (a class's default of
            // an attribute that subclasses override, see `get_attr`)
            let own = own.map(|v| {
                if v.get_type().name().is_ok_and(|n| n == "staticmethod") {
                    v.getattr("__func__").unwrap_or(v)
                } else {
                    v
                }
            });
            if let Some(v) = own {
                if !is_descriptor(&v)
                    && (!v.is_instance_of::<PyFunction>() || own_is_static(py, &self.classdefs[sub].cls, name))
                {
                    let s = self.immutablevalue(py, &v)?.without_const();
                    s_value = self.union(&s_value, &s).map_err(|e| {
                        let mut err = self.error(e.message);
                        err.chain.push(format!(
                            "uniting the class attribute '{name}' of its subclasses"
                        ));
                        err
                    })?;
                }
            }
        }
        for r in &readers {
            self.reflow(*r);
        }
        let walkers: Vec<Position> = self.field_walkers.iter().copied().collect();
        for r in walkers {
            self.reflow(r);
        }
        self.classdefs[c]
            .attrs
            .insert(name.to_string(), Attr { s_value, readers });
        Ok(c)
    }

    /// Stores `s` into attribute `name` of instances of `c`.
    pub fn set_attr(
        &mut self,
        py: Python<'_>,
        c: ClassDefId,
        name: &str,
        s: &SomeValue,
    ) -> Result<(), AnnotatorError> {
        let owner = self.locate_attr(py, c, name)?;
        let attr = self.classdefs[owner].attrs[name].clone();
        let new = self.union(&attr.s_value, s).map_err(|e| {
            let mut err = self.error(e.message);
            err.chain.push(format!(
                "storing into the attribute '{name}' of {}",
                self.classdefs[c].name
            ));
            err
        })?;
        let new = self.normalize(&new);
        if new != self.normalize(&attr.s_value) {
            self.classdefs[owner]
                .attrs
                .get_mut(name)
                .expect("located")
                .s_value = new;
            for r in attr.readers {
                self.reflow(r);
            }
        }
        Ok(())
    }

    /// Reads attribute `name` of an instance of `c` (or a subclass): a
    /// method gives the set of methods it can be, a data attribute its
    /// annotation.
    pub fn get_attr(
        &mut self,
        py: Python<'_>,
        c: ClassDefId,
        name: &str,
    ) -> Result<SomeValue, AnnotatorError> {
        let cls = self.classdefs[c].cls.clone();
        let level = self.class_level(py, &cls, name);
        // a method of the class, or one only its subclasses define (an
        // abstract method of the base): the methods it can be
        let is_method = match &level {
            Some(v) => v.is_instance_of::<PyFunction>(),
            None => self.subtree(c).into_iter().any(|sub| {
                self.own_class_value(py, &self.classdefs[sub].cls, name)
                    .is_some_and(|f| f.is_instance_of::<PyFunction>())
            }),
        };
        if is_method {
            if let Some(pos) = self.position() {
                self.classdefs[c].method_readers.insert(pos);
            }
            let mut descs = BTreeSet::new();
            for sub in self.subtree(c) {
                let subcls = self.classdefs[sub].cls.clone();
                let f = if sub == c {
                    level.clone()
                } else {
                    self.own_class_value(py, &subcls, name)
                };
                if let Some(f) = f {
                    if f.is_instance_of::<PyFunction>() {
                        descs.insert(self.method_desc(py, &f, sub, name)?);
                    }
                }
            }
            let descs = self.simplify_methods(descs);
            return Ok(SomeValue::Pbc {
                descs: Arc::new(descs),
                can_be_none: false,
            });
        }
        let is_classmethod = level
            .as_ref()
            .map(|v| {
                v.get_type()
                    .name()
                    .map(|n| n == "classmethod")
                    .unwrap_or(false)
            })
            .unwrap_or(false);
        if is_classmethod {
            // bound to the class of the instance: one binding per class
            // the instance can have
            if let Some(pos) = self.position() {
                self.classdefs[c].method_readers.insert(pos);
            }
            let mut descs = BTreeSet::new();
            for sub in self.subtree(c) {
                let subcls = self.classdefs[sub].cls.clone();
                let Some(cm) = self.class_level(py, &subcls, name) else {
                    continue;
                };
                let Ok(f) = cm.getattr("__func__") else {
                    continue;
                };
                if !f.is_instance_of::<PyFunction>() {
                    continue;
                }
                let cd = self.getdesc(py, subcls.bind(py))?;
                descs.insert(self.method_of_frozen_desc(py, &f, cd)?);
            }
            return Ok(SomeValue::Pbc {
                descs: Arc::new(descs),
                can_be_none: false,
            });
        }
        let is_static = |v: &Bound<'_, PyAny>| {
            v.get_type()
                .name()
                .is_ok_and(|n| n == "staticmethod")
        };
        let overridden_static = level.as_ref().is_some_and(|v| is_static(v))
            && self.subtree(c).into_iter().skip(1).any(|sub| {
                self.own_class_value(py, &self.classdefs[sub].cls, name)
                    .is_some_and(|v| is_static(&v))
            });
        if let Some(v) = &level {
            // (a static method that subclasses override is read from the
            // instance, below, where each class sets its function)
            if !overridden_static {
                if let Some(s) = self.descriptor_value(py, v)? {
                    return Ok(s);
                }
            }
        }
        if level.is_some() && class_attr_assigned(py, &cls, name) {
            // the class-level value is the instances' default, and the
            // program changes it through the class
            return Err(self.error(format!(
                "reading '{name}' through an instance of {} while the program assigns the \
                 class attribute (read it through the class, as {}.{name})",
                self.classdefs[c].name, self.classdefs[c].name
            )));
        }
        let owner = self.locate_attr(py, c, name)?;
        if let Some(pos) = self.position() {
            self.classdefs[owner]
                .attrs
                .get_mut(name)
                .expect("located")
                .readers
                .insert(pos);
        }
        let s = self.classdefs[owner].attrs[name].s_value.clone();
        if s.is_impossible() && level.is_none() && !self.has_subclass_value(py, c, name) {
            // Never stored anywhere: reading it is an error in the program
            // unless some store is still to be discovered; stay blocked.
        }
        Ok(s)
    }

    /// `super(cls, obj).name`: the attribute found in the MRO of `cls`
    /// after `cls` itself; a function is bound to `obj` (an instance
    /// annotation).
    pub fn super_attr(
        &mut self,
        py: Python<'_>,
        cls: &PyObj,
        s_obj: &SomeValue,
        name: &str,
    ) -> Result<SomeValue, AnnotatorError> {
        let SomeValue::Instance {
            classdef: objdef, ..
        } = s_obj
        else {
            return Err(self.error("internal error: super() bound to a non-instance"));
        };
        let objdef = *objdef;
        let mro = cls
            .bind(py)
            .getattr("__mro__")
            .map_err(|e| self.error(format!("{e}")))?;
        let mro: Vec<Bound<'_, PyAny>> = mro
            .try_iter()
            .map_err(|e| self.error(format!("{e}")))?
            .filter_map(|k| k.ok())
            .collect();
        for k in mro.iter().skip(1) {
            let Some(d) = class_dict(k) else { continue };
            let Ok(Some(v)) = d.get_item(name) else {
                continue;
            };
            if v.is_instance_of::<PyFunction>() {
                let md = self.method_desc(py, &v, objdef, name)?;
                return Ok(self.pbc(md));
            }
            if let Some(s) = self.descriptor_value(py, &v)? {
                return Ok(s);
            }
            let module = k
                .getattr("__module__")
                .map(|m| m.to_string())
                .unwrap_or_default();
            if module == "builtins" {
                if name == "__init__" {
                    return Ok(SomeValue::Builtin {
                        name: "base_init",
                        s_self: Some(Box::new(s_obj.clone())),
                    });
                }
                if name == "__str__" && self.is_exception_classdef(py, objdef) {
                    // an exception's own text, as BaseException shows it
                    return Ok(SomeValue::Builtin {
                        name: "exception_message",
                        s_self: Some(Box::new(s_obj.clone())),
                    });
                }
                return Err(self.error(format!(
                    "super().{name}: the method of a built-in class is not RPython"
                )));
            }
            return self.immutablevalue(py, &v);
        }
        Err(self.error(format!("super() object has no attribute '{name}'")))
    }

    /// An attribute of instances that blocks read but no code ever sets
    /// (and no class defines) is an error in the program: reading it
    /// raises `AttributeError` in CPython, and its annotation stays empty.
    /// The error names the first line reading it.
    pub fn check_unset_attrs(&mut self, py: Python<'_>) -> Result<(), AnnotatorError> {
        let mut found = None;
        'classes: for (c, cd) in self.classdefs.iter() {
            let mut names: Vec<&String> = cd.attrs.keys().collect();
            names.sort();
            for name in names {
                let attr = &cd.attrs[name];
                if !attr.s_value.is_impossible() || attr.readers.is_empty() {
                    continue;
                }
                if self.class_level(py, &cd.cls, name).is_some()
                    || self.has_subclass_value(py, c, name)
                {
                    continue;
                }
                let reader = *attr.readers.iter().next().expect("not empty");
                found = Some((cd.name.clone(), name.clone(), reader));
                break 'classes;
            }
        }
        let Some((class, name, (g, b))) = found else {
            return Ok(());
        };
        let graph = &self.graphs[g].graph;
        let lineno = graph.blocks[b]
            .operations
            .iter()
            .find(|op| {
                op.opname == rpy3_model::OpName::Getattr
                    && matches!(op.args.get(1), Some(rpy3_model::Hlvalue::Constant(k))
                        if k.value.bind(py).extract::<String>().ok().as_deref() == Some(name.as_str()))
            })
            .map(|op| op.lineno)
            .unwrap_or(0);
        let saved = self.current;
        self.current = Some(((g, b), lineno));
        let err = self.error(format!(
            "the attribute '{name}' of {class} instances is read but never set"
        ));
        self.current = saved;
        Err(err)
    }

    /// An error when the class of `s` (an instance), or a subclass seen so
    /// far, defines one of the special methods `names`: RPython does not
    /// call them, so the operation would silently act on identities.
    pub fn refuse_special_methods(
        &self,
        py: Python<'_>,
        s: &SomeValue,
        names: &[&str],
        what: &str,
    ) -> Result<(), AnnotatorError> {
        let SomeValue::Instance { classdef, .. } = s else {
            return Ok(());
        };
        // the class and its bases, and the subclasses known so far
        let mut classes = self.subtree(*classdef);
        let mut base = self.classdefs[*classdef].base;
        while let Some(b) = base {
            classes.push(b);
            base = self.classdefs[b].base;
        }
        for c in classes {
            let cd = &self.classdefs[c];
            if let Some(d) = class_dict(cd.cls.bind(py)) {
                for name in names {
                    // the program's own methods (not those of built-in
                    // bases, nor `__hash__ = None`)
                    let defined = d
                        .get_item(*name)
                        .ok()
                        .flatten()
                        .is_some_and(|v| v.is_instance_of::<PyFunction>());
                    if defined {
                        return Err(self.error(format!(
                            "{} defines {name}, which RPython does not call: {what} of its instances would silently ignore it",
                            cd.name
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    fn has_subclass_value(&self, py: Python<'_>, c: ClassDefId, name: &str) -> bool {
        self.subtree(c).iter().any(|&s| {
            self.own_class_value(py, &self.classdefs[s].cls, name)
                .is_some()
        })
    }

    /// `staticmethod` objects found on a class.
    fn descriptor_value(
        &mut self,
        py: Python<'_>,
        v: &Bound<'_, PyAny>,
    ) -> Result<Option<SomeValue>, AnnotatorError> {
        let tyname = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        if tyname == "staticmethod" {
            let f = v
                .getattr("__func__")
                .map_err(|e| self.error(format!("{e}")))?;
            let d = self.getdesc(py, &f)?;
            return Ok(Some(self.pbc(d)));
        }
        if tyname == "property" {
            return Err(self.error(format!("{tyname} is not RPython")));
        }
        Ok(None)
    }

    /// The class definition of a class given as a Python object, if it is one.
    pub fn classdef_of_type(
        &mut self,
        py: Python<'_>,
        cls: &Bound<'_, PyAny>,
    ) -> Result<Option<ClassDefId>, AnnotatorError> {
        if cls.is_instance_of::<PyType>() {
            Ok(Some(self.getclassdef(py, cls)?))
        } else {
            Ok(None)
        }
    }
}

fn is_descriptor(v: &Bound<'_, PyAny>) -> bool {
    let tyname = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    matches!(tyname.as_str(), "staticmethod" | "classmethod" | "property")
}

/// Whether the program assigns `name` through `cls`, a class of its MRO or
/// a subclass (see `rpy3._classattrs`).
fn class_attr_assigned(py: Python<'_>, cls: &PyObj, name: &str) -> bool {
    py.import("rpy3._classattrs")
        .and_then(|m| {
            m.getattr("assigned_in_hierarchy")?
                .call1((cls.bind(py), name))
        })
        .and_then(|r| r.is_truthy())
        .unwrap_or(false)
}

/// Whether `name` is a static method in the class dictionaries along the
/// MRO of `cls` (the first one found).
fn own_is_static(py: Python<'_>, cls: &PyObj, name: &str) -> bool {
    let cls = cls.bind(py);
    let Ok(mro) = cls.getattr("__mro__") else {
        return false;
    };
    let Ok(it) = mro.try_iter() else {
        return false;
    };
    for k in it.flatten() {
        if let Some(d) = class_dict(&k) {
            if let Ok(Some(v)) = d.get_item(name) {
                return v.get_type().name().is_ok_and(|n| n == "staticmethod");
            }
        }
    }
    false
}
