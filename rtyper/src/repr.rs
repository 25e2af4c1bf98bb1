//! Representations (PyPy's `Repr`s): how each annotation is laid out as a
//! low-level type, and how constants are converted.

use pyo3::prelude::*;
use rpy3_annotator::model::{IntKind, StrKind};
use rpy3_annotator::{ClassDefId, SomeValue};
use rpy3_model::lltype::{self, LlType, LlValue};

use crate::{RTypeError, RTyper};

/// A representation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// No run-time value: `None`, a constant function or class, a frozen
    /// object, a value that is always the same constant.
    Void,
    /// A machine integer.
    Int(IntKind),
    /// A bool.
    Bool,
    /// A float.
    Float,
    /// An int or a float, its kind known at run time only (an int that
    /// met a float): a pointer to a `number` struct `{isint, i, f}`, `f`
    /// always the value as a float (so reading it is the conversion to a
    /// float) and `i` the int when `isint`.
    Number,
    /// An int some of whose values are bools (a bool that met an int):
    /// the same `number` box as [`Repr::Number`], `isint` always set and
    /// `isbool` telling a bool, so that it shows as CPython's bool where
    /// it is one; every int operation reads its `i`.
    IntBool,
    /// A byte (`bytes` of length 1 indexes give ints in Python 3; a
    /// one-byte `bytes` value).
    Char,
    /// A one-character `str`.
    UniChar,
    /// A pointer to an instance of a class (or a subclass).
    Instance(ClassDefId),
    /// A pointer to a class's vtable.
    Class,
    /// A pointer to a GC struct of the items.
    Tuple(Vec<Repr>),
    /// A list made by `range()` and never changed: its bounds.
    Range,
    /// An iterator over a range list.
    RangeIter,
    /// One of several functions with the same low-level signature: a
    /// function pointer.
    FuncPtr(LlType),
    /// One of several functions whose signatures differ: its index in
    /// this list (-1 for None); calls go through a dispatcher.
    FuncSet(Vec<rpy3_model::PyObj>),
    /// One of several methods of different names, bound to instances of
    /// classes at or below the class (`h = g.go if c else g.look`, a table
    /// of methods): a pointer to a pair `(im_self, which)` of the instance
    /// (as an `object`) and the method name's number
    /// (`RTyper::method_name_id`); null for None.
    MethodSet(ClassDefId),
    /// One of several frozen prebuilt objects (or their bound methods): a
    /// pointer to a prebuilt struct of their attributes.
    Frozen,
    /// A low-level pointer of a low-level helper (its `Ptr` type).
    LlPtr(LlType),
    /// A `str`: a pointer to an `rpy_string` (null for None).
    Str,
    /// A `bytes`: a pointer to an `rpy_bytes` (null for None).
    Bytes,
    /// An iterator over a `str`.
    StrIter,
    /// An `rpy3.rlib.rstring.StringBuilder` (or one of its bound methods).
    StrBuilder,
    /// An `rpy3.rlib.rstring.BytesBuilder` (or one of its bound methods).
    BytesBuilder,
    /// A slice object: a pointer to a tuple struct of four Signed, start,
    /// stop, step and a mask of the bounds that are None (1, 2, 4).
    Slice,
    /// An int, float or bool that may be None: a pointer to an
    /// `optional` struct `{value}` holding it (null for None).
    Optional(Box<Repr>),
    /// A list: a pointer to a `{length, items}` struct of items of the
    /// given repr (null for None).  A tuple whose length is known at run
    /// time only is one too, of a struct of its own (`vartuple`).
    List(Box<Repr>, SeqKind),
    /// An iterator over a list (or variable-length tuple) of items of the
    /// given repr: a pointer to `{list, index}`; backwards (`reversed()`)
    /// when the flag is set.
    ListIter(Box<Repr>, bool, SeqKind),
    /// A dict (key repr, value repr): a pointer to an insertion-ordered
    /// hash table (`rpy3.lltypesystem.rdict`).
    Dict(Box<Repr>, Box<Repr>),
    /// A set: a dict of the items to Void.
    Set(Box<Repr>),
    /// An iterator over a dict or set (key repr, value repr): its keys
    /// (0), values (1) or `(key, value)` pairs (2).
    DictIter(Box<Repr>, Box<Repr>, u8),
    /// `enumerate()` over an iterator of the given repr: a pointer to
    /// `{it, cur, index}`.
    EnumIter(Box<Repr>),
    /// `zip()` of iterators of the given reprs: a pointer to
    /// `{it0, cur0, it1, cur1, ...}`.
    ZipIter(Vec<Repr>),
    /// A generator object of the generator function graph: a pointer to
    /// its frame.
    Generator(rpy3_annotator::GraphId),
    /// A generator of one of several generator functions whose generators
    /// meet in one variable (methods overriding a generator method): a
    /// pointer to the `genbase` header every such frame starts with, whose
    /// `gnext` is the function running that frame's `next()`.  The item
    /// definition is the root shared by the functions.
    GeneratorSet(rpy3_annotator::ItemDefId),
    /// The array inlined in a varsize struct: the pointer to the struct
    /// (of `Ptr` type `parent`) and the array field's name.
    Interior(LlType, String),
    /// A list, dict or set of a recursive type (its items contain,
    /// through containers and tuples, a container of the same cycle of
    /// types), seen inside the items of a container or tuple: named by its
    /// item definition, of the low-level type of the container's own
    /// representation (a forward reference while being defined).  Inner
    /// reprs are then the same in every context.
    Rec(rpy3_annotator::ItemDefId),
}

/// The built-in sequence a list representation stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeqKind {
    /// A `list` (also a deque or a bytearray).
    List,
    /// A `tuple` whose length is known at run time only: never changed,
    /// hashed and shown as a tuple.
    Tuple,
}

impl Repr {
    /// A list of items of repr `item`.
    pub fn list_of(item: Repr) -> Repr {
        Repr::List(Box::new(item), SeqKind::List)
    }

    /// The low-level type of values of this representation.
    pub fn lowleveltype(&self, rt: &RTyper<'_>) -> LlType {
        match self {
            Repr::Void => lltype::VOID,
            // long longs are machine words on the 64-bit targets
            Repr::Int(k) => {
                if k.unsigned() {
                    lltype::UNSIGNED
                } else {
                    lltype::SIGNED
                }
            }
            Repr::Bool => lltype::BOOL,
            Repr::Float => lltype::FLOAT,
            Repr::Number | Repr::IntBool => rt.number_ptr(),
            Repr::Char => lltype::CHAR,
            Repr::UniChar => lltype::UNICHAR,
            Repr::Instance(c) => rt.classes.instance_ptr(*c),
            Repr::Class => rt.objmodel.vtable_ptr,
            Repr::Tuple(items) => rt.tuple_ptr(items),
            Repr::Optional(inner) => LlType::ptr(rt.optional_struct(inner)).expect("a struct"),
            Repr::Range => rt.range_types().1,
            Repr::RangeIter => rt.range_types().3,
            Repr::FuncPtr(t) => *t,
            Repr::FuncSet(_) => lltype::SIGNED,
            Repr::MethodSet(_) => rt.method_pair_ptr(),
            Repr::Frozen => rt.frozen_ptr(),
            Repr::LlPtr(t) | Repr::Interior(t, _) => *t,
            Repr::Str => rt
                .str_ptr
                .expect("strings are rtyped only with the string helpers"),
            Repr::BytesBuilder => rt
                .bytesbuilder_ptr
                .expect("bytes are rtyped only with the string helpers"),
            Repr::Bytes => rt
                .bytes_ptr
                .expect("bytes are rtyped only with the string helpers"),
            Repr::StrBuilder => rt
                .strbuilder_ptr
                .expect("strings are rtyped only with the string helpers"),
            Repr::Slice => rt.tuple_ptr(&slice_fields()),
            Repr::List(item, kind) => LlType::ptr(rt.seq_struct(item, *kind)).expect("a struct"),
            Repr::ListIter(item, _, kind) => {
                LlType::ptr(rt.listiter_struct(item, *kind)).expect("a struct")
            }
            Repr::Dict(k, v) => LlType::ptr(rt.dict_struct(k, v)).expect("a struct"),
            Repr::Generator(g) => LlType::ptr(rt.generator_frame(*g)).expect("a struct"),
            Repr::GeneratorSet(root) => LlType::ptr(rt.genbase_struct(*root)).expect("a struct"),
            Repr::EnumIter(_) | Repr::ZipIter(_) => {
                LlType::ptr(rt.iterator_struct(self)).expect("a struct")
            }
            Repr::Set(k) => LlType::ptr(rt.dict_struct(k, &Repr::Void)).expect("a struct"),
            Repr::DictIter(k, v, _) => LlType::ptr(rt.dictiter_struct(k, v)).expect("a struct"),
            Repr::StrIter => rt
                .striter_ptr
                .expect("strings are rtyped only with the string helpers"),
            // the container's own repr computes (an error there was an
            // error of that container's repr already)
            Repr::Rec(id) => rt
                .rec_repr(*id)
                .map(|r| r.lowleveltype(rt))
                .unwrap_or(lltype::VOID),
        }
    }
}

impl RTyper<'_> {
    /// The union of two item annotations when one representation holds
    /// both (the items of a tuple iterated over or indexed): equal reprs,
    /// a char and a str, instances under their common base, tuples item by item.
    pub fn unite_items(
        &self,
        a: &SomeValue,
        b: &SomeValue,
    ) -> Result<Option<SomeValue>, RTypeError> {
        use SomeValue as S;
        let b = b.without_const();
        // (a repr with Void parts stands for constants the annotations
        // tell apart: `(s, f1)` and `(s, f2)` unite as `(str, {f1, f2})`)
        fn has_void(r: &Repr) -> bool {
            match r {
                Repr::Void => true,
                Repr::Tuple(items) => items.iter().any(has_void),
                _ => false,
            }
        }
        let ra = self.getrepr(a)?;
        if ra == self.getrepr(&b)? && (!has_void(&ra) || *a == b) {
            return Ok(Some(a.clone()));
        }
        Ok(match (a, &b) {
            (
                S::Pbc {
                    descs: d1,
                    can_be_none: n1,
                },
                S::Pbc {
                    descs: d2,
                    can_be_none: n2,
                },
            ) => Some(S::Pbc {
                descs: std::sync::Arc::new(d1.iter().chain(d2.iter()).copied().collect()),
                can_be_none: *n1 || *n2,
            }),
            // an int and a float: a number of either kind
            (
                S::Integer {
                    kind: rpy3_annotator::model::IntKind::Signed,
                    ..
                }
                | S::Float { .. },
                S::Integer {
                    kind: rpy3_annotator::model::IntKind::Signed,
                    ..
                }
                | S::Float { .. },
            ) => match rpy3_annotator::model::union_simple(a, &b) {
                Some(Ok(u)) => Some(u),
                _ => None,
            },
            (S::Tuple(x), S::Tuple(y)) if x.len() == y.len() => {
                let mut out = Vec::with_capacity(x.len());
                for (p, q) in x.iter().zip(y) {
                    match self.unite_items(p, q)? {
                        Some(u) => out.push(u),
                        None => return Ok(None),
                    }
                }
                Some(S::Tuple(out))
            }
            (
                S::Instance {
                    classdef: c1,
                    can_be_none: n1,
                },
                S::Instance {
                    classdef: c2,
                    can_be_none: n2,
                },
            ) => self.ann.common_base(*c1, *c2).map(|c| S::Instance {
                classdef: c,
                can_be_none: *n1 || *n2,
            }),
            // a char and a str (numbers keep their kind, as in CPython)
            (S::Str { .. }, S::Str { .. }) => match rpy3_annotator::model::union_simple(a, &b) {
                Some(Ok(u)) => Some(u),
                _ => None,
            },
            _ => None,
        })
    }

    /// The only graph of a function that is not specialised.
    pub fn single_graph(
        &self,
        d: rpy3_annotator::DescId,
    ) -> Result<rpy3_annotator::GraphId, RTypeError> {
        match &self.ann.descs[d] {
            rpy3_annotator::description::Desc::Function(f) if f.graphs.len() == 1 => {
                Ok(*f.graphs.values().next().expect("one graph"))
            }
            rpy3_annotator::description::Desc::Function(f) => Err(RTypeError::unsupported(
                &format!("a variable holding the specialised function '{}'", f.name),
            )),
            _ => Err(RTypeError::new("internal error: not a function")),
        }
    }

    /// The function pointer type of a function's graph.
    pub fn function_ptr_type(&self, d: rpy3_annotator::DescId) -> Result<LlType, RTypeError> {
        let g = self.single_graph(d)?;
        let graph = &self.ann.graphs[g].graph;
        let mut args = Vec::new();
        for &v in &graph.blocks[graph.startblock].inputargs {
            args.push(self.getrepr(&self.ann.binding(g, v))?.lowleveltype(self));
        }
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        let result = self.getrepr(&self.ann.binding(g, rv))?.lowleveltype(self);
        LlType::ptr(LlType::func(args, result)).map_err(|e| RTypeError::new(e.to_string()))
    }

    /// The heap object of a prebuilt instance (one per Python object, so
    /// every use shares it), with its fields converted.
    pub fn prebuilt_instance(
        &mut self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
    ) -> Result<rpy3_model::lltype::Ptr, RTypeError> {
        let key = rpy3_model::PyObj::new(obj);
        if let Some(p) = self.prebuilt.get(&key) {
            return Ok(*p);
        }
        let cls = obj.get_type();
        let c = self.classdef_of_class(py, cls.as_any())?;
        let st = self.classes.structs[&c];
        let p = self
            .heap
            .malloc(st, 0)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        self.prebuilt.insert(key.clone(), p);
        self.heap
            .set_slot(&p, 0, LlValue::Ptr(Some(self.classes.vtable(c))));
        // the fields are filled by a worklist, so a long chain of prebuilt
        // objects does not nest calls
        self.prebuilt_todo.push((key, p, c));
        if !self.draining_prebuilt {
            self.draining_prebuilt = true;
            let r = self.fill_prebuilt_instances(py);
            self.draining_prebuilt = false;
            self.prebuilt_todo.clear();
            r?;
        }
        Ok(p)
    }

    fn fill_prebuilt_instances(&mut self, py: Python<'_>) -> Result<(), RTypeError> {
        while let Some((key, p, c)) = self.prebuilt_todo.pop() {
            let obj = key.bind(py).clone();
            let mut k = Some(c);
            while let Some(x) = k {
                let fields = self.classes.fields.get(&x).cloned().unwrap_or_default();
                let owner = self.classes.structs[&x];
                for (attr, r) in fields {
                    if r == Repr::Void {
                        continue;
                    }
                    let Ok(v) = obj.getattr(attr.as_str()) else {
                        continue;
                    };
                    let llv = self.convert_const(py, &r, &v)?;
                    let off = owner
                        .field_offset(&crate::classes::field_name(&attr))
                        .expect("field of the class");
                    self.heap.set_slot(&p, off, llv);
                }
                k = self.ann.classdefs[x].base;
            }
        }
        Ok(())
    }

    /// The representation of an annotation.
    pub fn getrepr(&self, s: &SomeValue) -> Result<Repr, RTypeError> {
        use SomeValue as S;
        // Reprs of containers are structural (one helper copy per item
        // repr), so a container type that holds itself has no finite repr:
        // refuse it instead of recursing forever.
        if let S::List(id) | S::Dict(id) | S::Set(id) = s {
            let root = self.ann.itemdefs.find(*id);
            if self.repr_nesting.get() > 0 && self.is_cyclic(root) {
                return Ok(Repr::Rec(root));
            }
            if self.repr_open.borrow().contains(&root) {
                return Err(RTypeError::unsupported(
                    "a recursive container type reached other than through items \
                     (a list, dict or set whose items contain an iterator over a \
                     container of the same type)",
                ));
            }
            self.repr_open.borrow_mut().push(root);
            let r = self.getrepr_of(s);
            self.repr_open.borrow_mut().pop();
            // (the annotation a container of this repr has, for the item
            // functions that compare, hash and show it as an item)
            if let Ok(r) = &r {
                self.list_items
                    .borrow_mut()
                    .entry(r.clone())
                    .or_insert_with(|| s.clone());
            }
            return r;
        }
        self.getrepr_of(s)
    }

    /// The repr of an item of a container or tuple (where containers of
    /// recursive types are `Repr::Rec`).
    fn item_repr(&self, s: &SomeValue) -> Result<Repr, RTypeError> {
        self.repr_nesting.set(self.repr_nesting.get() + 1);
        let r = self.getrepr(s);
        self.repr_nesting.set(self.repr_nesting.get() - 1);
        r
    }

    /// Whether container definition `root` is part of a cycle of container
    /// types (its items reach a container of its own definition).
    pub fn is_cyclic(&self, root: rpy3_annotator::ItemDefId) -> bool {
        if let Some(&c) = self.cyclic.borrow().get(&root) {
            return c;
        }
        fn refs(s: &SomeValue, out: &mut Vec<rpy3_annotator::ItemDefId>) {
            match s {
                SomeValue::List(i) | SomeValue::Dict(i) | SomeValue::Set(i) => out.push(*i),
                SomeValue::Tuple(items) => items.iter().for_each(|x| refs(x, out)),
                _ => {}
            }
        }
        let defs = &self.ann.itemdefs;
        let mut seen = std::collections::HashSet::new();
        let mut stack = Vec::new();
        let d = defs.get(root);
        refs(&d.item, &mut stack);
        refs(&d.value, &mut stack);
        let mut found = false;
        while let Some(i) = stack.pop() {
            let i = defs.find(i);
            if i == root {
                found = true;
                break;
            }
            if seen.insert(i) {
                let d = defs.get(i);
                refs(&d.item, &mut stack);
                refs(&d.value, &mut stack);
            }
        }
        self.cyclic.borrow_mut().insert(root, found);
        found
    }

    /// The own representation of the container definition `id` (what a
    /// `Repr::Rec` stands for), computed outside any other container.
    pub fn rec_repr(&self, id: rpy3_annotator::ItemDefId) -> Result<Repr, RTypeError> {
        if let Some(r) = self.rec_reprs.borrow().get(&id) {
            return Ok(r.clone());
        }
        let s = match self.ann.itemdefs.get(id).kind {
            rpy3_annotator::itemdef::ItemKind::List => SomeValue::List(id),
            rpy3_annotator::itemdef::ItemKind::Dict => SomeValue::Dict(id),
            rpy3_annotator::itemdef::ItemKind::Set => SomeValue::Set(id),
            rpy3_annotator::itemdef::ItemKind::Generator => {
                return Err(RTypeError::new(
                    "internal error: a generator as a container",
                ))
            }
        };
        let open = std::mem::take(&mut *self.repr_open.borrow_mut());
        let nesting = self.repr_nesting.replace(0);
        let r = self.getrepr(&s);
        self.repr_nesting.set(nesting);
        *self.repr_open.borrow_mut() = open;
        let r = r?;
        self.rec_reprs.borrow_mut().insert(id, r.clone());
        Ok(r)
    }

    fn getrepr_of(&self, s: &SomeValue) -> Result<Repr, RTypeError> {
        use SomeValue as S;
        Ok(match s {
            S::Impossible | S::None_ => Repr::Void,
            S::Integer { konst: Some(_), .. } | S::Float { konst: Some(_), .. } => {
                self.getrepr(&s.without_const())?
            }
            S::Integer {
                kind: IntKind::Signed,
                bool_too: true,
                ..
            } => Repr::IntBool,
            S::Integer { kind, .. } => Repr::Int(*kind),
            S::Bool { .. } => Repr::Bool,
            S::Float { int_too: true, .. } => Repr::Number,
            S::Float { .. } => Repr::Float,
            S::Str {
                kind: StrKind::Str,
                is_char: true,
                can_be_none: false,
                ..
            } => Repr::UniChar,
            S::Str {
                kind: StrKind::Bytes,
                ..
            } if self.bytes_ptr.is_some() => Repr::Bytes,
            S::Str {
                kind: StrKind::Str, ..
            } if self.str_ptr.is_some() => Repr::Str,
            S::Str { .. } => return Err(RTypeError::unsupported("strings (the containers issue)")),
            // a tuple that may be None: the same pointer, maybe null
            S::Optional(inner) if matches!(**inner, S::Float { int_too: true, .. }) => {
                return Err(RTypeError::unsupported(
                    "a value that may be None, an int or a float",
                ))
            }
            S::Optional(inner) => Repr::Optional(Box::new(self.getrepr(inner)?)),
            S::Tuple(items) | S::TupleOrNone(items) => Repr::Tuple(
                items
                    .iter()
                    .map(|i| self.item_repr(i))
                    .collect::<Result<_, _>>()?,
            ),
            S::Instance { classdef, .. } => Repr::Instance(*classdef),
            S::Type { konst: Some(_), .. } => Repr::Void,
            S::Type { .. } => Repr::Class,
            S::Pbc { descs, .. } if descs.len() == 1 && !s.can_be_none() => {
                // a method bound to an instance carries the instance
                match &self.ann.descs[*descs.iter().next().expect("one")] {
                    rpy3_annotator::description::Desc::Method { selfclassdef, .. } => {
                        Repr::Instance(*selfclassdef)
                    }
                    _ => Repr::Void,
                }
            }
            S::Pbc { descs, .. } => {
                // several methods of one hierarchy: the instance
                let selfs: Vec<ClassDefId> = descs
                    .iter()
                    .filter_map(|d| match &self.ann.descs[*d] {
                        rpy3_annotator::description::Desc::Method { selfclassdef, .. } => {
                            Some(*selfclassdef)
                        }
                        _ => None,
                    })
                    .collect();
                let all = |f: &dyn Fn(&rpy3_annotator::description::Desc) -> bool| {
                    descs.iter().all(|d| f(&self.ann.descs[*d]))
                };
                // a classmethod bound to one of several classes: the class
                if all(&|d| match d {
                    rpy3_annotator::description::Desc::MethodOfFrozen { frozen, .. } => matches!(
                        self.ann.descs[*frozen],
                        rpy3_annotator::description::Desc::Class { .. }
                    ),
                    _ => false,
                }) {
                    return Ok(Repr::Class);
                }
                if all(&|d| {
                    matches!(
                        d,
                        rpy3_annotator::description::Desc::Frozen { .. }
                            | rpy3_annotator::description::Desc::MethodOfFrozen { .. }
                    )
                }) {
                    return Ok(Repr::Frozen);
                }
                if all(&|d| matches!(d, rpy3_annotator::description::Desc::Class { .. })) {
                    return Ok(Repr::Class);
                }
                if all(&|d| matches!(d, rpy3_annotator::description::Desc::Function(_))) {
                    let mut ty = None;
                    let mut same = true;
                    for d in descs.iter() {
                        // a function with several specialised graphs has
                        // no single pointer type: dispatch by index too
                        let t = self.function_ptr_type(*d).ok();
                        if t.is_none() || (ty.is_some() && ty != t) {
                            same = false;
                        }
                        ty = ty.or(t);
                    }
                    // functions with different defaults: each call binds
                    // them per function, through the dispatcher
                    let objs: Vec<_> = descs.iter().filter_map(|d| self.ann.desc_object(*d)).collect();
                    let defaults_of = |o: &rpy3_model::PyObj| {
                        Python::attach(|py| {
                            let f = o.bind(py);
                            ["__defaults__", "__kwdefaults__"].map(|a| {
                                f.getattr(a)
                                    .ok()
                                    .filter(|v| !v.is_none())
                                    .map(|v| rpy3_model::PyObj::new(&v))
                            })
                        })
                    };
                    let agree = objs.windows(2).all(|w| {
                        let (a, b) = (defaults_of(&w[0]), defaults_of(&w[1]));
                        a.iter().zip(b.iter()).all(|(x, y)| match (x, y) {
                            (None, None) => true,
                            (Some(x), Some(y)) => same_defaults(x, y),
                            _ => false,
                        })
                    });
                    if same && agree {
                        return Ok(Repr::FuncPtr(ty.expect("at least one function")));
                    }
                    let funcs = descs
                        .iter()
                        .filter_map(|d| self.ann.desc_object(*d))
                        .collect();
                    return Ok(Repr::FuncSet(funcs));
                }
                if selfs.len() == descs.len() && !selfs.is_empty() {
                    // the instance stands for the method only when every
                    // method is one name's (overrides in a class family):
                    // `h = g.go if c else g.look` would call one of them
                    let mut names: Vec<&str> = descs
                        .iter()
                        .filter_map(|d| match &self.ann.descs[*d] {
                            rpy3_annotator::description::Desc::Method { name, .. } => {
                                Some(name.as_str())
                            }
                            _ => None,
                        })
                        .collect();
                    names.sort();
                    names.dedup();
                    let mut base = selfs[0];
                    for c in &selfs[1..] {
                        base = self.ann.common_base(base, *c).ok_or_else(|| {
                            RTypeError::unsupported("methods of unrelated classes")
                        })?;
                    }
                    if names.len() > 1 {
                        Repr::MethodSet(base)
                    } else {
                        Repr::Instance(base)
                    }
                } else {
                    return Err(RTypeError::unsupported(
                        "a variable holding one of several functions or prebuilt objects",
                    ));
                }
            }
            S::List(id) => {
                let d = self.ann.itemdefs.get(*id);
                if d.range_step.is_some() && !d.mutated && !d.resized {
                    Repr::Range
                } else {
                    let item = self.item_repr(&d.item)?;
                    let s_item = match &d.item {
                        S::Impossible => S::None_,
                        other => other.without_const(),
                    };
                    self.list_items
                        .borrow_mut()
                        .entry(item.clone())
                        .or_insert(s_item);
                    let kind = if d.tuple {
                        SeqKind::Tuple
                    } else {
                        SeqKind::List
                    };
                    Repr::List(Box::new(item), kind)
                }
            }
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Items,
            } if matches!(self.getrepr(over)?, Repr::Str | Repr::UniChar) => Repr::StrIter,
            S::Iterator {
                over,
                variant:
                    rpy3_annotator::model::IterVariant::Enumerate
                    | rpy3_annotator::model::IterVariant::EnumerateSigned,
            } => {
                let r = Repr::EnumIter(Box::new(self.getrepr(over)?));
                // the annotation `hl_next` takes for this iterator type
                self.list_items
                    .borrow_mut()
                    .entry(r.clone())
                    .or_insert(s.clone());
                r
            }
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Zip,
            } => match &**over {
                S::Tuple(its) => {
                    let r = Repr::ZipIter(
                        its.iter()
                            .map(|i| self.getrepr(i))
                            .collect::<Result<_, _>>()?,
                    );
                    self.list_items
                        .borrow_mut()
                        .entry(r.clone())
                        .or_insert(s.clone());
                    r
                }
                _ => return Err(RTypeError::new("malformed zip() annotation")),
            },
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Items,
            } if matches!(**over, S::Iterator { .. } | S::Generator(_)) => self.getrepr(over)?,
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Reversed,
            } if matches!(self.getrepr(over)?, Repr::Str) => Repr::StrIter,
            // iterating over a tuple goes over a list of its items
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Items,
            } if matches!(**over, S::Tuple(_)) => {
                let S::Tuple(items) = &**over else {
                    unreachable!("checked")
                };
                if !items.is_empty() && items.iter().all(|i| matches!(i, S::Pbc { .. })) {
                    // classes, functions, prebuilt objects: their union
                    let mut descs = std::collections::BTreeSet::new();
                    let mut none = false;
                    for i in items {
                        if let S::Pbc {
                            descs: d,
                            can_be_none,
                        } = i
                        {
                            descs.extend(d.iter().copied());
                            none |= *can_be_none;
                        }
                    }
                    let s_item = S::Pbc {
                        descs: std::sync::Arc::new(descs),
                        can_be_none: none,
                    };
                    let item = self.getrepr(&s_item)?;
                    self.list_items
                        .borrow_mut()
                        .entry(item.clone())
                        .or_insert(s_item);
                    return Ok(Repr::ListIter(Box::new(item), false, SeqKind::List));
                }
                // the items' annotations united (a char that meets a str
                // is a str, instances their common base), as RPython
                // generalises the items of a tuple iterated over
                let mut s_item: Option<S> = None;
                for i in items {
                    s_item = Some(match s_item {
                        None => i.without_const(),
                        Some(a) => self.unite_items(&a, i)?.ok_or_else(|| {
                            RTypeError::unsupported(&format!(
                                "iterating over a tuple of {} and {}",
                                rpy3_annotator::model::describe(&a),
                                rpy3_annotator::model::describe(i)
                            ))
                        })?,
                    });
                }
                let item = match &s_item {
                    Some(s_item) => {
                        let r = self.getrepr(s_item)?;
                        self.list_items
                            .borrow_mut()
                            .entry(r.clone())
                            .or_insert(s_item.clone());
                        Some(r)
                    }
                    None => None,
                };
                Repr::ListIter(Box::new(item.unwrap_or(Repr::Void)), false, SeqKind::List)
            }
            S::Iterator {
                over,
                variant: rpy3_annotator::model::IterVariant::Items,
            } if matches!(self.getrepr(over)?, Repr::Bytes) => {
                let int = Repr::Int(IntKind::Signed);
                self.list_items
                    .borrow_mut()
                    .entry(int.clone())
                    .or_insert(S::int());
                Repr::ListIter(Box::new(int), false, SeqKind::List)
            }
            S::Iterator { over, variant } => match self.getrepr(over)? {
                Repr::Dict(k, v) => {
                    use rpy3_annotator::model::IterVariant as V;
                    let which = match variant {
                        V::Items => 0,
                        V::Values => 1,
                        V::Pairs => 2,
                        _ => {
                            return Err(RTypeError::unsupported(&format!(
                                "iterating over a dict with {variant:?}"
                            )))
                        }
                    };
                    let r = Repr::DictIter(k, v, which);
                    if which == 2 {
                        self.list_items
                            .borrow_mut()
                            .entry(r.clone())
                            .or_insert(s.clone());
                    }
                    r
                }
                Repr::Set(k) if *variant == rpy3_annotator::model::IterVariant::Items => {
                    Repr::DictIter(k, Box::new(Repr::Void), 0)
                }
                // reversed(range(...)) iterates over a range iterator
                Repr::Range | Repr::RangeIter => Repr::RangeIter,
                Repr::List(item, kind) if *variant == rpy3_annotator::model::IterVariant::Items => {
                    Repr::ListIter(item, false, kind)
                }
                Repr::List(item, kind)
                    if *variant == rpy3_annotator::model::IterVariant::Reversed =>
                {
                    Repr::ListIter(item, true, kind)
                }
                _ => {
                    return Err(RTypeError::unsupported(
                        "iterators over containers (the containers issue)",
                    ))
                }
            },
            S::Dict(id) | S::Set(id) => {
                let d = self.ann.itemdefs.get(*id);
                let key = self.item_repr(&d.item)?;
                let s_key = match &d.item {
                    S::Impossible => S::None_,
                    other => other.without_const(),
                };
                self.list_items
                    .borrow_mut()
                    .entry(key.clone())
                    .or_insert(s_key);
                if matches!(s, S::Set(_)) {
                    Repr::Set(Box::new(key))
                } else {
                    let value = self.item_repr(&d.value)?;
                    // the item functions of the values (repr() of a dict)
                    let s_value = match &d.value {
                        S::Impossible => S::None_,
                        other => other.without_const(),
                    };
                    self.list_items
                        .borrow_mut()
                        .entry(value.clone())
                        .or_insert(s_value);
                    Repr::Dict(Box::new(key), Box::new(value))
                }
            }
            S::Generator(id) if self.generator_family(*id).len() > 1 => {
                Repr::GeneratorSet(self.ann.itemdefs.find(*id))
            }
            S::Generator(id) => Repr::Generator(self.generator_graph(*id)?),
            // super(C, obj) carries obj; other bound built-ins carry nothing
            S::Builtin {
                name: "super",
                s_self: Some(inner),
            } => match &**inner {
                S::Tuple(parts) if parts.len() == 2 => self.getrepr(&parts[1])?,
                _ => return Err(RTypeError::new("malformed super() annotation")),
            },
            // the built-in __init__ of super(C, obj) carries obj
            S::Builtin {
                name: "base_init" | "exception_message",
                s_self: Some(inner),
            } if matches!(**inner, S::Instance { .. }) => self.getrepr(inner)?,
            // a StringBuilder, and its methods bound to it
            S::Builtin {
                name: "StringBuilder",
                s_self: Some(inner),
            } if matches!(
                **inner,
                S::Str {
                    kind: StrKind::Str,
                    ..
                }
            ) && self.str_ptr.is_some() =>
            {
                Repr::StrBuilder
            }
            S::Builtin {
                name: "BytesBuilder",
                s_self: Some(_),
            } if self.bytesbuilder_ptr.is_some() => Repr::BytesBuilder,
            S::Builtin {
                s_self: Some(inner),
                ..
            } if matches!(
                **inner,
                S::Builtin {
                    name: "StringBuilder" | "BytesBuilder",
                    ..
                }
            ) =>
            {
                self.getrepr(inner)?
            }
            // a method bound to a string (bytes) carries the string
            S::Builtin {
                s_self: Some(inner),
                ..
            } if matches!(**inner, S::Str { .. }) && self.str_ptr.is_some() => {
                self.getrepr(inner)?
            }
            // a method bound to a list carries the list
            S::Builtin {
                s_self: Some(inner),
                ..
            } if matches!(**inner, S::List(_) | S::Dict(_) | S::Set(_)) => self.getrepr(inner)?,
            // a method bound to a number (bit_length) carries the number
            S::Builtin {
                s_self: Some(inner),
                ..
            } if matches!(**inner, S::Integer { .. } | S::Float { .. }) => self.getrepr(inner)?,
            S::Builtin { .. } => Repr::Void,
            S::Slice(_) => Repr::Slice,
            S::LowLevelType(_) => Repr::Void,
            S::Ptr(t) => Repr::LlPtr(*t),
            S::InteriorPtr { parent, field } => Repr::Interior(*parent, field.to_string()),
        })
    }

    /// The low-level value of a constant in representation `r`.
    pub fn convert_const(
        &mut self,
        py: Python<'_>,
        r: &Repr,
        obj: &Bound<'_, PyAny>,
    ) -> Result<LlValue, RTypeError> {
        if let Some(rep) = rpy3_annotator::description::stdlib_replacement(py, obj) {
            // (as the annotator saw it)
            return self.convert_const(py, r, &rep);
        }
        let bad = || {
            RTypeError::new(format!(
                "cannot represent the constant {} as {r:?}",
                obj.repr().map(|x| x.to_string()).unwrap_or_default()
            ))
        };
        if matches!(r, Repr::Instance(_)) && obj.is_instance_of::<pyo3::types::PyFunction>() {
            // a plain function where closures are: its prebuilt closure
            // (as the annotator united them)
            if let Some(w) = py
                .import("rpy3._closures")
                .and_then(|m| m.getattr("existing_wrapper")?.call1((obj,)))
                .ok()
                .filter(|w| !w.is_none())
            {
                return self.convert_const(py, r, &w);
            }
        }
        if rpy3_annotator::is_undefined_local(obj) {
            // a local not assigned on this path: the zero of its type
            let t = r.lowleveltype(self);
            return Ok(t.default_value());
        }
        // a method of a built-in type bound to a constant ("\n".join kept in
        // a variable): represented by its receiver
        if r != &Repr::Void
            && obj
                .get_type()
                .name()
                .map(|n| n == "builtin_function_or_method")
                .unwrap_or(false)
        {
            if let Ok(me) = obj.getattr("__self__") {
                if !me.is_instance_of::<pyo3::types::PyModule>() && !me.is_none() {
                    return self.convert_const(py, r, &me);
                }
            }
        }
        if let Repr::Rec(id) = r {
            let own = self.rec_repr(*id)?;
            return self.convert_const(py, &own, obj);
        }
        Ok(match r {
            Repr::Void => LlValue::Void,
            Repr::Int(k) => {
                let v: i128 = obj.extract().map_err(|_| bad())?;
                if k.unsigned() {
                    LlValue::UInt(v as u64)
                } else {
                    LlValue::Int(v as i64)
                }
            }
            Repr::Bool => LlValue::Bool(obj.is_truthy().map_err(|_| bad())?),
            Repr::Float => LlValue::Float(obj.extract::<f64>().map_err(|_| bad())?),
            Repr::Number | Repr::IntBool => {
                let isint = obj.is_instance_of::<pyo3::types::PyInt>();
                let isbool = obj.is_instance_of::<pyo3::types::PyBool>();
                let f = obj.extract::<f64>().map_err(|_| bad())?;
                let i = if isint {
                    obj.extract::<i64>().map_err(|_| bad())?
                } else {
                    0
                };
                LlValue::Ptr(Some(self.prebuilt_number(isint, isbool, i, f)?))
            }
            Repr::UniChar => {
                let s: String = obj.extract().map_err(|_| bad())?;
                LlValue::UniChar(s.chars().next().ok_or_else(bad)? as u32)
            }
            Repr::Char => {
                let b: Vec<u8> = obj.extract().map_err(|_| bad())?;
                LlValue::Char(*b.first().ok_or_else(bad)?)
            }
            Repr::Class if obj.is_none() => LlValue::Ptr(None),
            Repr::Class => {
                // (a classmethod bound to a class stands for the class)
                let cls = match obj.getattr("__self__") {
                    Ok(c) if obj.hasattr("__func__").unwrap_or(false)
                        && c.is_instance_of::<pyo3::types::PyType>() =>
                    {
                        c
                    }
                    _ => obj.clone(),
                };
                let cdef = self.classdef_of_class(py, &cls)?;
                LlValue::Ptr(Some(self.classes.vtable(cdef)))
            }
            Repr::Instance(_) | Repr::FuncPtr(_) | Repr::Frozen if obj.is_none() => {
                LlValue::Ptr(None)
            }
            // an int, float or bool constant where a complex is expected:
            // the prebuilt complex of its value
            Repr::Instance(c)
                if self.ann.is_number_class(*c)
                    && (obj.is_instance_of::<pyo3::types::PyInt>()
                        || obj.is_instance_of::<pyo3::types::PyFloat>()) =>
            {
                let p = py
                    .import("rpy3.stdlib.complexnum")
                    .and_then(|m| {
                        let z = py.import("builtins")?.getattr("complex")?.call1((obj,))?;
                        m.getattr("prebuilt")?.call1((z,))
                    })
                    .map_err(|e| RTypeError::new(format!("a complex constant: {e}")))?;
                return self.convert_const(py, r, &p);
            }
            // a null pointer of a low-level helper (prebuilt structures are
            // refused by the annotator)
            Repr::LlPtr(_) if !obj.is_truthy().unwrap_or(true) => LlValue::Ptr(None),
            Repr::Frozen => {
                // a method bound to a frozen object is represented by the object
                let target = match (obj.getattr("__func__"), obj.getattr("__self__")) {
                    (Ok(_), Ok(me)) => me,
                    _ => obj.clone(),
                };
                LlValue::Ptr(Some(self.frozen_object(py, &target)?))
            }
            Repr::MethodSet(_) if obj.is_none() => LlValue::Ptr(None),
            Repr::MethodSet(_) => {
                // a bound method of a prebuilt instance: a prebuilt pair
                let (Ok(me), Ok(name)) = (obj.getattr("__self__"), obj.getattr("__name__")) else {
                    return Err(bad());
                };
                let name: String = name.extract().map_err(|_| bad())?;
                let cls = me.get_type();
                let c = self.classdef_of_class(py, cls.as_any())?;
                let inst = self.convert_const(py, &Repr::Instance(c), &me)?;
                let LlValue::Ptr(Some(p)) = inst else {
                    return Err(bad());
                };
                let as_object = rpy3_model::lltype::Ptr {
                    ty: self.objmodel.object,
                    ..p
                };
                let pair_t = self.method_pair_struct();
                let pair = self
                    .heap
                    .malloc(pair_t, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                self.heap.set_slot(&pair, 0, LlValue::Ptr(Some(as_object)));
                self.heap
                    .set_slot(&pair, 1, LlValue::Int(self.method_name_id(&name)));
                LlValue::Ptr(Some(pair))
            }
            Repr::FuncSet(_) if obj.is_none() => LlValue::Int(-1),
            Repr::FuncSet(funcs) => {
                let i = funcs
                    .iter()
                    .position(|f| f.bind(py).is(obj))
                    .ok_or_else(bad)?;
                LlValue::Int(i as i64)
            }
            Repr::FuncPtr(_) => {
                let key = rpy3_model::PyObj::new(obj);
                let d = self.ann.lookup_desc(&key).ok_or_else(bad)?;
                let g = self.single_graph(d)?;
                let idx = self.func_index(g).ok_or_else(bad)?;
                LlValue::Func(self.func_ref(idx))
            }
            Repr::Slice => {
                let ty = self.tuple_struct(&slice_fields());
                let p = self
                    .heap
                    .malloc(ty, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let mut nones = 0;
                for (i, a) in ["start", "stop", "step"].iter().enumerate() {
                    let part = obj.getattr(*a).map_err(|_| bad())?;
                    let v = if part.is_none() {
                        nones |= 1 << i;
                        0
                    } else {
                        part.extract::<i64>().map_err(|_| bad())?
                    };
                    let off = ty.field_offset(&format!("item{i}")).expect("slice field");
                    self.heap.set_slot(&p, off, LlValue::Int(v));
                }
                let off = ty.field_offset("item3").expect("slice field");
                self.heap.set_slot(&p, off, LlValue::Int(nones));
                LlValue::Ptr(Some(p))
            }
            Repr::Bytes if obj.is_none() => LlValue::Ptr(None),
            Repr::Bytes => {
                let b: Vec<u8> = obj.extract().map_err(|_| bad())?;
                LlValue::Ptr(Some(self.prebuilt_bytes(&b)?))
            }
            Repr::Str if obj.is_none() => LlValue::Ptr(None),
            Repr::Str => {
                let s: String = obj.extract().map_err(|_| bad())?;
                LlValue::Ptr(Some(self.prebuilt_string(&s)?))
            }
            Repr::Instance(_) => LlValue::Ptr(Some(self.prebuilt_instance(py, obj)?)),
            Repr::Dict(..) | Repr::Set(_) if obj.is_none() => LlValue::Ptr(None),
            Repr::Dict(..) | Repr::Set(_) => LlValue::Ptr(Some(self.prebuilt_dict(py, r, obj)?)),
            Repr::Optional(_) if obj.is_none() => LlValue::Ptr(None),
            Repr::Optional(inner) => {
                let v = self.convert_const(py, inner, obj)?;
                let st = self.optional_struct(inner);
                let p = self
                    .heap
                    .malloc(st, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let off = st.field_offset("value").expect("optional field");
                self.heap.set_slot(&p, off, v);
                LlValue::Ptr(Some(p))
            }
            Repr::List(..) if obj.is_none() => LlValue::Ptr(None),
            Repr::List(item, kind) => {
                // one heap list per Python list: aliases stay aliases (a
                // tuple may be one of another representation elsewhere)
                let key = rpy3_model::PyObj::new(obj);
                let st = self.seq_struct(item, *kind);
                if let Some(p) = self.prebuilt.get(&key) {
                    if p.ty == st {
                        return Ok(LlValue::Ptr(Some(*p)));
                    }
                }
                let values: Vec<Bound<'_, PyAny>> = obj
                    .try_iter()
                    .map_err(|_| bad())?
                    .collect::<PyResult<_>>()
                    .map_err(|_| bad())?;
                let arr = LlType::array(item.lowleveltype(self), true)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let p = self
                    .heap
                    .malloc(st, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                self.prebuilt.insert(key, p);
                let a = self
                    .heap
                    .malloc(arr, values.len())
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                for (i, v) in values.iter().enumerate() {
                    let llv = self.convert_const(py, item, v)?;
                    self.heap
                        .set_item(&a, i as i64, 0, llv)
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                }
                let off = st.field_offset("length").expect("list length");
                self.heap
                    .set_slot(&p, off, LlValue::Int(values.len() as i64));
                let off = st.field_offset("items").expect("list items");
                self.heap.set_slot(&p, off, LlValue::Ptr(Some(a)));
                LlValue::Ptr(Some(p))
            }
            Repr::StrBuilder | Repr::BytesBuilder => {
                // a prebuilt builder: a fresh buffer holding what it built
                // so far (full, so the next append reallocates it)
                let key = rpy3_model::PyObj::new(obj);
                if let Some(p) = self.prebuilt.get(&key) {
                    return Ok(LlValue::Ptr(Some(*p)));
                }
                let text = obj.call_method0("build").map_err(|_| bad())?;
                let chars: Vec<u32> = match text.extract::<String>() {
                    Ok(s) => s.chars().map(u32::from).collect(),
                    Err(_) => text
                        .extract::<Vec<u8>>()
                        .map_err(|_| bad())?
                        .into_iter()
                        .map(u32::from)
                        .collect(),
                };
                let bt = r.lowleveltype(self).target().ok_or_else(bad)?;
                let buf_ptr = bt.field_type("buf").ok_or_else(bad)?;
                let buf_st = buf_ptr.target().ok_or_else(bad)?;
                let buf = self
                    .heap
                    .malloc(buf_st, chars.len())
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                for (i, c) in chars.iter().enumerate() {
                    self.heap
                        .set_item(&buf, i as i64, 0, LlValue::UniChar(*c))
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                }
                let p = self
                    .heap
                    .malloc(bt, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let off = bt.field_offset("buf").ok_or_else(bad)?;
                self.heap.set_slot(&p, off, LlValue::Ptr(Some(buf)));
                let off = bt.field_offset("used").ok_or_else(bad)?;
                self.heap
                    .set_slot(&p, off, LlValue::Int(chars.len() as i64));
                self.prebuilt.insert(key, p);
                LlValue::Ptr(Some(p))
            }
            Repr::Range => {
                // a prebuilt range object: its bounds
                let key = rpy3_model::PyObj::new(obj);
                if let Some(p) = self.prebuilt.get(&key) {
                    return Ok(LlValue::Ptr(Some(*p)));
                }
                let (st, ..) = self.range_types();
                let p = self
                    .heap
                    .malloc(st, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                for f in ["start", "stop", "step"] {
                    let v: i64 = obj
                        .getattr(f)
                        .and_then(|v| v.extract())
                        .map_err(|_| bad())?;
                    let off = st.field_offset(f).ok_or_else(bad)?;
                    self.heap.set_slot(&p, off, LlValue::Int(v));
                }
                self.prebuilt.insert(key, p);
                LlValue::Ptr(Some(p))
            }
            Repr::Tuple(_) if obj.is_none() => LlValue::Ptr(None),
            Repr::Tuple(items) => {
                let t = obj.cast::<pyo3::types::PyTuple>().map_err(|_| bad())?;
                let ty = self.tuple_struct(items);
                let p = self
                    .heap
                    .malloc(ty, 0)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                for (i, (item, r)) in t.iter().zip(items.clone()).enumerate() {
                    let v = self.convert_const(py, &r, &item)?;
                    let off = ty.field_offset(&format!("item{i}")).expect("tuple field");
                    self.heap.set_slot(&p, off, v);
                }
                LlValue::Ptr(Some(p))
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "prebuilt constants of representation {r:?}"
                )))
            }
        })
    }
}

impl RTyper<'_> {
    /// A prebuilt dict or set: its entries in insertion (iteration) order
    /// and an index laid out as `rdict` lays it out, with the hashes the
    /// helpers compute at run time.  One heap dict per Python object.
    fn prebuilt_dict(
        &mut self,
        py: Python<'_>,
        r: &Repr,
        obj: &Bound<'_, PyAny>,
    ) -> Result<lltype::Ptr, RTypeError> {
        let key = rpy3_model::PyObj::new(obj);
        if let Some(p) = self.prebuilt.get(&key) {
            return Ok(*p);
        }
        let (kr, vr) = match r {
            Repr::Dict(k, v) => ((**k).clone(), (**v).clone()),
            Repr::Set(k) => return self.prebuilt_set(py, k, obj, key),
            _ => return Err(RTypeError::new("a prebuilt dict of a non-dict repr")),
        };
        let mut entries: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)> = Vec::new();
        let err = |e: PyErr| RTypeError::new(e.to_string());
        let items = obj.call_method0("items").map_err(err)?;
        for kv in items.try_iter().map_err(err)? {
            let kv = kv.map_err(err)?;
            entries.push((kv.get_item(0).map_err(err)?, kv.get_item(1).map_err(err)?));
        }
        // an r_dict hashes its keys with its own function
        let custom_hash = obj
            .get_type()
            .name()
            .is_ok_and(|n| n == "r_dict")
            .then(|| obj.getattr("key_hash").ok())
            .flatten();
        let n = entries.len();
        let mut size = 8usize;
        while (size * 2) / 3 <= n * 2 {
            size *= 2;
        }
        let cap = (size * 2) / 3;
        let st = self.dict_struct(&kr, &vr);
        let p = self
            .heap
            .malloc(st, 0)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        self.prebuilt.insert(key, p);
        let array = |rt: &mut Self, field: &str, len: usize| -> Result<lltype::Ptr, RTypeError> {
            let at = st
                .field_type(field)
                .and_then(|t| t.target())
                .ok_or_else(|| RTypeError::new("dict field"))?;
            let a = rt
                .heap
                .malloc(at, len)
                .map_err(|e| RTypeError::new(e.to_string()))?;
            let off = st.field_offset(field).expect("dict field");
            rt.heap.set_slot(&p, off, LlValue::Ptr(Some(a)));
            Ok(a)
        };
        let keys = array(self, "keys", cap)?;
        let values = array(self, "values", cap)?;
        let hashes = array(self, "hashes", cap)?;
        let live = array(self, "live", cap)?;
        let index = array(self, "index", size)?;
        for i in 0..size {
            self.heap
                .set_item(&index, i as i64, 0, LlValue::Int(-1))
                .map_err(|e| RTypeError::new(e.to_string()))?;
        }
        let mask = (size - 1) as i64;
        for (e, (k, v)) in entries.iter().enumerate() {
            let h = match &custom_hash {
                Some(f) => {
                    let h = f.call1((k,)).map_err(err)?;
                    let h: i128 = h.extract().map_err(err)?;
                    h as i64
                }
                None => self.prebuilt_hash(&kr, k)?,
            };
            let set = |rt: &mut Self, a: &lltype::Ptr, val: LlValue| {
                rt.heap
                    .set_item(a, e as i64, 0, val)
                    .map_err(|e| RTypeError::new(e.to_string()))
            };
            let kv = self.convert_const(py, &kr, k)?;
            set(self, &keys, kv)?;
            let vv = self.convert_const(py, &vr, v)?;
            set(self, &values, vv)?;
            set(self, &hashes, LlValue::Int(h))?;
            set(self, &live, LlValue::Bool(true))?;
            // the probing of rdict._put_index
            let mut i = h & mask;
            let mut perturb = (h as u64) & 0x7FFF_FFFF_FFFF_FFFF;
            loop {
                let LlValue::Int(slot) =
                    self.heap.get_item(&index, i, 0).unwrap_or(LlValue::Int(-1))
                else {
                    return Err(RTypeError::new("internal error: a dict index slot"));
                };
                if slot < 0 {
                    break;
                }
                perturb >>= 5;
                i = (i
                    .wrapping_mul(5)
                    .wrapping_add(perturb as i64)
                    .wrapping_add(1))
                    & mask;
            }
            self.heap
                .set_item(&index, i, 0, LlValue::Int(e as i64))
                .map_err(|e| RTypeError::new(e.to_string()))?;
        }
        for (field, val) in [("length", n), ("used", n)] {
            let off = st.field_offset(field).expect("dict field");
            self.heap.set_slot(&p, off, LlValue::Int(val as i64));
        }
        Ok(p)
    }

    /// A prebuilt set, laid out as `rdict` lays out sets: CPython's own
    /// table of the object (its slots, dummies, `fill` and `finger`) when
    /// the hashes CPython keeps are those the helpers compute, so that the
    /// set iterates, grows and pops as in CPython; otherwise (strings hash
    /// at random in CPython) its keys in CPython's order placed in a table
    /// of CPython's size.
    fn prebuilt_set(
        &mut self,
        py: Python<'_>,
        kr: &Repr,
        obj: &Bound<'_, PyAny>,
        key: rpy3_model::PyObj,
    ) -> Result<lltype::Ptr, RTypeError> {
        use crate::settable::{cpython_table, insert_clean_slot, Slot};
        let (table, cpython_fill, cpython_finger) = cpython_table(obj)
            .ok_or_else(|| RTypeError::unsupported("a prebuilt set that is not a set"))?;
        let size = table.len();
        // (slot, key, hash) of each key; whether CPython's slots are kept
        let mut placed: Vec<(usize, Bound<'_, PyAny>, i64)> = Vec::new();
        let mut dummies = Vec::new();
        let mut same_hashes = true;
        for (i, slot) in table.iter().enumerate() {
            match slot {
                Slot::Free => {}
                Slot::Dummy => dummies.push(i),
                Slot::Key(k, h) => {
                    let ours = self.prebuilt_hash(kr, k)?;
                    same_hashes &= ours == *h;
                    placed.push((i, k.clone(), ours));
                }
            }
        }
        let (fill, finger) = if same_hashes {
            (cpython_fill, cpython_finger)
        } else {
            let mut taken = vec![false; size];
            for (slot, _, h) in placed.iter_mut() {
                *slot = insert_clean_slot(&taken, *h);
                taken[*slot] = true;
            }
            dummies.clear();
            (placed.len(), 0)
        };
        let st = self.dict_struct(kr, &Repr::Void);
        let p = self
            .heap
            .malloc(st, 0)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        self.prebuilt.insert(key, p);
        let mut arrays = Vec::new();
        for field in ["keys", "values", "hashes", "live", "index"] {
            let at = st
                .field_type(field)
                .and_then(|t| t.target())
                .ok_or_else(|| RTypeError::new("set field"))?;
            let a = self
                .heap
                .malloc(at, size)
                .map_err(|e| RTypeError::new(e.to_string()))?;
            let off = st.field_offset(field).expect("set field");
            self.heap.set_slot(&p, off, LlValue::Ptr(Some(a)));
            arrays.push(a);
        }
        let [keys, _, hashes, live, index] = arrays[..] else {
            unreachable!("five arrays")
        };
        let set = |rt: &mut Self, a: &lltype::Ptr, i: usize, v: LlValue| {
            rt.heap
                .set_item(a, i as i64, 0, v)
                .map_err(|e| RTypeError::new(e.to_string()))
        };
        // rdict's slot states: FREE, DELETED (a dummy), or the slot itself
        for i in 0..size {
            set(self, &index, i, LlValue::Int(-1))?;
            set(self, &live, i, LlValue::Bool(false))?;
        }
        for &i in &dummies {
            set(self, &index, i, LlValue::Int(-2))?;
        }
        for (i, k, h) in &placed {
            let kv = self.convert_const(py, kr, k)?;
            set(self, &keys, *i, kv)?;
            set(self, &hashes, *i, LlValue::Int(*h))?;
            set(self, &live, *i, LlValue::Bool(true))?;
            set(self, &index, *i, LlValue::Int(*i as i64))?;
        }
        let n = placed.len() as i64;
        for (field, val) in [
            ("length", n),
            ("used", size as i64),
            ("fill", fill as i64),
            ("finger", finger),
        ] {
            let off = st.field_offset(field).expect("set field");
            self.heap.set_slot(&p, off, LlValue::Int(val));
        }
        Ok(p)
    }

    /// The hash the helpers compute at run time for a prebuilt key.
    fn prebuilt_hash(&self, r: &Repr, k: &Bound<'_, PyAny>) -> Result<i64, RTypeError> {
        let bad = || {
            RTypeError::unsupported(&format!(
                "prebuilt dicts or sets with keys of representation {r:?}"
            ))
        };
        Ok(match r {
            Repr::Int(_) | Repr::Bool => {
                let x: i64 = k.extract::<i128>().map(|v| v as i64).map_err(|_| bad())?;
                hash_int(x)
            }
            Repr::Str | Repr::UniChar => {
                let s: String = k.extract().map_err(|_| bad())?;
                hash_code_points(&s.chars().map(|c| c as u32).collect::<Vec<_>>())
            }
            Repr::Bytes => {
                let b: Vec<u8> = k.extract().map_err(|_| bad())?;
                hash_code_points(&b.iter().map(|&c| u32::from(c)).collect::<Vec<_>>())
            }
            Repr::Void => 0,
            // an Enum member: its stand-in's __hash__ is hash(self.name)
            Repr::Instance(_) => {
                let name = k
                    .py()
                    .import("rpy3.stdlib.enums")
                    .and_then(|m| m.getattr("standin_hash_name")?.call1((k,)))
                    .map_err(|_| bad())?;
                if name.is_none() {
                    return Err(bad());
                }
                let s: String = name.extract().map_err(|_| bad())?;
                hash_code_points(&s.chars().map(|c| c as u32).collect::<Vec<_>>())
            }
            // ll_hash_float is CPython's hash of floats
            Repr::Float => {
                let _: f64 = k.extract().map_err(|_| bad())?;
                k.hash().map_err(|_| bad())? as i64
            }
            Repr::Tuple(items) => {
                let t = k.cast::<pyo3::types::PyTuple>().map_err(|_| bad())?;
                let mut acc: i64 = 2870177450012600261;
                for (x, ir) in t.iter().zip(items) {
                    let h = self.prebuilt_hash(ir, &x)?;
                    acc = acc.wrapping_add(h.wrapping_mul(-4417276706812531889));
                    acc = acc.rotate_left(31);
                    acc = acc.wrapping_mul(-7046029288634856825);
                }
                let acc = acc.wrapping_add((items.len() as i64) ^ (2870177450012600261 ^ 3527539));
                if acc == -1 {
                    1546275796
                } else {
                    acc
                }
            }
            _ => return Err(bad()),
        })
    }
}

/// `rdict.ll_hash_int`: CPython's hash of a machine integer.
fn hash_int(x: i64) -> i64 {
    const P: i64 = (1 << 61) - 1;
    let mut h = x.rem_euclid(P);
    if x < 0 && h != 0 {
        h -= P;
    }
    if h == -1 {
        -2
    } else {
        h
    }
}

/// `rdict.ll_strhash` of the code points of a string (or bytes).
fn hash_code_points(cps: &[u32]) -> i64 {
    let n = cps.len();
    let mut x: i64 = 0;
    if let Some(&c) = cps.first() {
        x = i64::from(c) << 7;
    }
    for &c in cps {
        x = 1000003i64.wrapping_mul(x) ^ i64::from(c);
    }
    x ^= n as i64;
    if x == 0 || x == -1 {
        -2
    } else {
        x
    }
}

/// The items of the tuple struct representing a slice.
pub fn slice_fields() -> [Repr; 4] {
    std::array::from_fn(|_| Repr::Int(IntKind::Signed))
}

/// Whether two `__defaults__` tuples (`__kwdefaults__` dicts) hold the
/// same values of the same types.
fn same_defaults(a: &rpy3_model::PyObj, b: &rpy3_model::PyObj) -> bool {
    Python::attach(|py| {
        let (a, b) = (a.bind(py), b.bind(py));
        if let (Ok(x), Ok(y)) = (a.cast::<pyo3::types::PyDict>(), b.cast::<pyo3::types::PyDict>()) {
            return x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.get_item(&k).ok().flatten().is_some_and(|w| {
                        rpy3_annotator::model::same_const(
                            &rpy3_model::PyObj::new(&v),
                            &rpy3_model::PyObj::new(&w),
                        )
                    })
                });
        }
        match (a.cast::<pyo3::types::PyTuple>(), b.cast::<pyo3::types::PyTuple>()) {
            (Ok(x), Ok(y)) => {
                x.len() == y.len()
                    && x.iter().zip(y.iter()).all(|(v, w)| {
                        rpy3_annotator::model::same_const(
                            &rpy3_model::PyObj::new(&v),
                            &rpy3_model::PyObj::new(&w),
                        )
                    })
            }
            _ => false,
        }
    })
}
