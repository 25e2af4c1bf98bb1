//! The RTyper (PyPy's `rtyper.py`): chooses a representation for every
//! annotation and turns each annotated flow graph into a low-level graph
//! whose variables and constants all have low-level types and whose
//! operations all come from the low-level operation table.
//!
//! The result is an [`LlProgram`]: one low-level function per annotated
//! graph (specialised copies included), helper graphs built here, the
//! prebuilt heap (vtables, prebuilt constants) and the object model.

mod classes;
mod generators;
mod helpers;
mod lower;
pub mod repr;
mod settable;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_annotator::{Annotator, ClassDefId, GraphId, SomeValue};
use rpy3_model::lltype::{FuncRef, Heap, LlType};
use rpy3_model::program::{LlFunction, LlProgram, ObjectModel};
use rpy3_model::lloperation::LlOp;
use rpy3_model::{FunctionGraph, Hlvalue, SourceLocation};

pub use classes::Classes;
pub use repr::{Repr, SeqKind};

/// Why a program cannot be rtyped (yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RTypeError {
    /// What is wrong.
    pub message: String,
    /// Where, when known.
    pub location: Option<SourceLocation>,
    /// Set when the rtyper stopped only because helpers must be annotated
    /// first (it annotates them and starts again).
    pub retry: bool,
}

impl RTypeError {
    /// A new error.
    pub fn new(message: impl Into<String>) -> RTypeError {
        RTypeError {
            message: message.into(),
            location: None,
            retry: false,
        }
    }

    /// Helpers must be annotated before this can be lowered.
    pub fn retry() -> RTypeError {
        RTypeError {
            message: "internal error: helpers still to be annotated".into(),
            location: None,
            retry: true,
        }
    }

    /// A construct the rtyper does not support yet.
    pub fn unsupported(what: &str) -> RTypeError {
        RTypeError::new(format!("the rtyper does not support {what} yet"))
    }
}

impl fmt::Display for RTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(l) => write!(f, "{l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RTypeError {}

/// The nominal low-level types made by a rtyping pass, kept for the next
/// pass (a pass that needs more helpers annotated stops, and the next one
/// must see the same types the helpers were annotated with).
#[derive(Default)]
pub struct TypeCache {
    objmodel: Option<ObjectModel>,
    classes: classes::ClassTypes,
    tuples: HashMap<Vec<Repr>, LlType>,
    range: Option<(LlType, LlType, LlType, LlType)>,
    frozen: HashMap<Vec<(String, LlType)>, LlType>,
    lists: HashMap<Repr, LlType>,
}

/// A helper call the annotator must annotate before the next pass: the
/// function and its argument annotations.
type Need = (rpy3_model::PyObj, Vec<SomeValue>);

/// The state of one rtyping.
pub struct RTyper<'a> {
    /// The annotated program.
    pub ann: &'a Annotator,
    /// Object model types.
    pub objmodel: ObjectModel,
    /// The prebuilt heap being filled.
    pub heap: Heap,
    /// Class layouts.
    pub classes: Classes,
    /// Functions: index by annotated graph.
    func_of_graph: HashMap<GraphId, usize>,
    /// Function types and names, by index.
    funcs: Vec<(String, LlType)>,
    /// Low-level graphs, by function index (filled as they are built).
    graphs: Vec<Option<Arc<FunctionGraph>>>,
    /// Tuple struct types by item reprs.
    tuples: std::cell::RefCell<HashMap<Vec<Repr>, LlType>>,
    /// Range list and range iterator types.
    range: Option<(LlType, LlType, LlType, LlType)>,
    /// Helper graphs by name.
    helpers: HashMap<&'static str, usize>,
    /// Classes of built-in exceptions by name.
    exception_classdefs: HashMap<String, ClassDefId>,
    /// Prebuilt instances already in the heap.
    prebuilt: HashMap<rpy3_model::PyObj, rpy3_model::lltype::Ptr>,
    /// Method dispatchers by their cases.
    dispatchers: HashMap<String, usize>,
    /// The names of methods held by `Repr::MethodSet` values, numbered.
    method_names: std::cell::RefCell<Vec<String>>,
    /// The struct of frozen objects used as variables, its fields, and
    /// the prebuilt instance of each object.
    frozen: Option<(LlType, Vec<(String, Repr)>)>,
    frozen_objects: HashMap<rpy3_model::PyObj, rpy3_model::lltype::Ptr>,
    /// `Ptr(rpy_string)`, when the string helpers are available.
    pub str_ptr: Option<LlType>,
    /// `Ptr(rpy_striter)`.
    pub striter_ptr: Option<LlType>,
    /// `Ptr(rstr.STRBUILDER)`, the representation of a StringBuilder.
    pub strbuilder_ptr: Option<LlType>,
    /// `Ptr(rstr.BYTES)`, the representation of bytes.
    pub bytes_ptr: Option<LlType>,
    /// `Ptr(rstr.BYTESBUILDER)`, the representation of a BytesBuilder.
    pub bytesbuilder_ptr: Option<LlType>,
    /// Prebuilt strings (and bytes, as `b'...'` keys) by value.
    prebuilt_strings: HashMap<String, rpy3_model::lltype::Ptr>,
    /// Types made by earlier passes and this one.
    cache: TypeCache,
    /// List struct types by item repr (see [`TypeCache`]).
    lists: std::cell::RefCell<HashMap<Repr, LlType>>,
    /// Helper calls to annotate before the next pass.
    needs: std::cell::RefCell<Vec<Need>>,
    /// The `next()` function of each generator function's generators.
    gen_next: HashMap<GraphId, usize>,
    /// The `gnext` adapter of each generator function of a family
    /// (`Repr::GeneratorSet`): its `next()` taking the `genbase` header.
    gen_adapter: HashMap<GraphId, usize>,
    /// `next()` of each family's generators: through their `gnext`.
    genset_next: HashMap<rpy3_annotator::ItemDefId, usize>,
    /// An annotation of the items of lists, by item repr (the item
    /// functions `hl_eq` and `hl_lt` are annotated with it).
    pub list_items: std::cell::RefCell<HashMap<Repr, SomeValue>>,
    /// The values of a class attribute (`__name__` included) for the
    /// classes at or below a class, indexed by their numbers (see
    /// `getattr` of a class known at run time only): Python lists
    /// converted once.
    pub class_attr_lists: std::cell::RefCell<HashMap<(i64, i64, String), rpy3_model::PyObj>>,
    /// Prebuilt instances whose fields are still to be converted, and
    /// whether an outer `prebuilt_instance` is converting them.
    prebuilt_todo: Vec<(rpy3_model::PyObj, rpy3_model::lltype::Ptr, ClassDefId)>,
    draining_prebuilt: bool,
    /// The containers whose repr is being computed (see `getrepr`).
    repr_open: std::cell::RefCell<Vec<rpy3_annotator::ItemDefId>>,
    /// How many container or tuple items `getrepr` is inside.
    repr_nesting: std::cell::Cell<usize>,
    /// Whether each container definition is part of a cycle of types.
    cyclic: std::cell::RefCell<HashMap<rpy3_annotator::ItemDefId, bool>>,
    /// The own repr of the containers `Repr::Rec` names.
    rec_reprs: std::cell::RefCell<HashMap<rpy3_annotator::ItemDefId, Repr>>,
}

impl<'a> RTyper<'a> {
    /// The function index of an annotated graph.
    pub fn func_index(&self, g: GraphId) -> Option<usize> {
        self.func_of_graph.get(&g).copied()
    }

    /// The function reference of function `index`.
    pub fn func_ref(&self, index: usize) -> FuncRef {
        FuncRef {
            index: index as u32,
            ty: self.funcs[index].1,
        }
    }

    /// The function type of function `index`.
    pub fn funcs_ty(&self, index: usize) -> LlType {
        self.funcs[index].1
    }

    /// The name of function `index`.
    pub fn func_name(&self, index: usize) -> &str {
        &self.funcs[index].0
    }

    /// The struct of lists of items of repr `item`: the length and a
    /// pointer to the items' array (PyPy's resizable list).
    pub fn list_struct(&self, item: &Repr) -> LlType {
        self.seq_struct(item, SeqKind::List)
    }

    /// The struct of lists (or variable-length tuples: `vartuple`, of the
    /// same fields) of items of repr `item`.
    pub fn seq_struct(&self, item: &Repr, kind: SeqKind) -> LlType {
        // cached under the list's repr: the other structs of this cache are
        // under theirs (a list of dicts must not find the dict struct)
        let cache_key = Repr::List(Box::new(item.clone()), kind);
        if let Some(t) = self.lists.borrow().get(&cache_key) {
            return *t;
        }
        // declared first: the item type may refer to the list type
        let t = LlType::forward(true);
        self.lists.borrow_mut().insert(cache_key, t);
        let items = LlType::array(item.lowleveltype(self), true).expect("list items");
        let name = match kind {
            SeqKind::List => "list",
            SeqKind::Tuple => "vartuple",
        };
        t.become_(
            name,
            vec![
                ("length".into(), rpy3_model::lltype::SIGNED),
                ("items".into(), LlType::ptr(items).expect("an array")),
            ],
        )
        .expect("a list struct");
        t
    }

    /// The struct of dicts from `key` to `value` (sets: `value` Void).
    pub fn dict_struct(&self, key: &Repr, value: &Repr) -> LlType {
        let cache_key = Repr::Dict(Box::new(key.clone()), Box::new(value.clone()));
        if let Some(t) = self.lists.borrow().get(&cache_key) {
            return *t;
        }
        // declared first: keys or values may refer to the dict type
        let t = LlType::forward(true);
        self.lists.borrow_mut().insert(cache_key, t);
        let arr = |item: LlType| {
            LlType::ptr(LlType::array(item, true).expect("dict entries")).expect("an array")
        };
        use rpy3_model::lltype::{BOOL, SIGNED};
        t.become_(
            "dict",
            vec![
                ("length".into(), SIGNED),
                ("used".into(), SIGNED),
                // sets only (rdict): keys and dummies, where pop() looks
                ("fill".into(), SIGNED),
                ("finger".into(), SIGNED),
                ("keys".into(), arr(key.lowleveltype(self))),
                ("values".into(), arr(value.lowleveltype(self))),
                ("hashes".into(), arr(SIGNED)),
                ("live".into(), arr(BOOL)),
                ("index".into(), arr(SIGNED)),
            ],
        )
        .expect("a dict struct");
        t
    }

    /// The struct of iterators over dicts from `key` to `value`.
    /// `{dict, index, size, isset}`: `size` the dict's length when the
    /// iteration started (a change raises RuntimeError, as in CPython),
    /// `isset` whether it iterates over a set (for the message).
    pub fn dictiter_struct(&self, key: &Repr, value: &Repr) -> LlType {
        let cache_key = Repr::DictIter(Box::new(key.clone()), Box::new(value.clone()), 0);
        if let Some(t) = self.lists.borrow().get(&cache_key) {
            return *t;
        }
        let c = LlType::ptr(self.dict_struct(key, value)).expect("a struct");
        let t = LlType::new_struct(
            "dictiter",
            vec![
                ("dict".into(), c),
                ("index".into(), rpy3_model::lltype::SIGNED),
                ("size".into(), rpy3_model::lltype::SIGNED),
                ("isset".into(), rpy3_model::lltype::BOOL),
            ],
            true,
        )
        .expect("a dictiter struct");
        self.lists.borrow_mut().insert(cache_key, t);
        t
    }

    /// The struct `{<field>: Ptr(container), index}` of an iterator by
    /// position, cached under `cache_key`.
    fn index_iter_struct(
        &self,
        cache_key: Repr,
        name: &str,
        field: &str,
        container: impl FnOnce() -> LlType,
    ) -> LlType {
        if let Some(t) = self.lists.borrow().get(&cache_key) {
            return *t;
        }
        let c = LlType::ptr(container()).expect("a struct");
        let t = LlType::new_struct(
            name,
            vec![
                (field.into(), c),
                ("index".into(), rpy3_model::lltype::SIGNED),
            ],
            true,
        )
        .expect("an iterator struct");
        self.lists.borrow_mut().insert(cache_key, t);
        t
    }

    /// The generator functions whose generators have item definition `id`
    /// (several when their generators meet in one variable).
    pub fn generator_family(&self, id: rpy3_annotator::ItemDefId) -> Vec<GraphId> {
        let root = self.ann.itemdefs.find(id);
        self.ann
            .graphs
            .iter()
            .filter(|(_, ag)| ag.generator.map(|i| self.ann.itemdefs.find(i)) == Some(root))
            .map(|(g, _)| g)
            .collect()
    }

    /// The header every generator frame of family `root` starts with:
    /// `{gnext}`, the function running `next()` of that frame.
    pub fn genbase_struct(&self, root: rpy3_annotator::ItemDefId) -> LlType {
        let key = Repr::GeneratorSet(root);
        if let Some(t) = self.lists.borrow().get(&key) {
            return *t;
        }
        let t = LlType::forward(true);
        self.lists.borrow_mut().insert(key, t);
        let item = self
            .getrepr(&self.ann.itemdefs.get(root).item)
            .map(|r| r.lowleveltype(self))
            .unwrap_or(rpy3_model::lltype::VOID);
        let pbase = LlType::ptr(t).expect("a struct");
        let fptr = LlType::ptr(LlType::func(vec![pbase], item)).expect("a function");
        t.become_("genbase", vec![("gnext".into(), fptr)])
            .expect("a generator header");
        t
    }

    /// The function index of `next()` of the generators of family
    /// `root`: a call through the frame's `gnext`.
    pub fn genset_next(
        &mut self,
        py: Python<'_>,
        root: rpy3_annotator::ItemDefId,
    ) -> Result<usize, RTypeError> {
        if let Some(&i) = self.genset_next.get(&root) {
            return Ok(i);
        }
        let base = self.genbase_struct(root);
        let pbase = LlType::ptr(base).map_err(|e| RTypeError::new(e.to_string()))?;
        let item = self
            .getrepr(&self.ann.itemdefs.get(root).item)?
            .lowleveltype(self);
        let fptr = LlType::ptr(LlType::func(vec![pbase], item))
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let (mut b, args) = helpers::GraphBuilder::new(self, "genset_next", &[pbase], item);
        let s = b.graph.startblock;
        let name = Hlvalue::Constant(rpy3_model::llconst::name_constant(py, "gnext"));
        let f = b.op(s, LlOp::Getfield, vec![Hlvalue::Variable(args[0]), name], fptr);
        let none = helpers::value_const(py, rpy3_model::lltype::LlValue::Void, rpy3_model::lltype::VOID)?;
        let v = b.op(
            s,
            LlOp::IndirectCall,
            vec![Hlvalue::Variable(f), Hlvalue::Variable(args[0]), none],
            item,
        );
        b.ret(s, Hlvalue::Variable(v));
        let graph = b.graph;
        let idx = self.funcs.len();
        self.funcs.push((graph.name.clone(), LlType::func(vec![pbase], item)));
        self.graphs.push(Some(Arc::new(graph)));
        self.genset_next.insert(root, idx);
        Ok(idx)
    }

    /// The graph of the generator function whose calls make generators of
    /// item definition `id`.
    pub fn generator_graph(&self, id: rpy3_annotator::ItemDefId) -> Result<GraphId, RTypeError> {
        let root = self.ann.itemdefs.find(id);
        let mut found = None;
        for (g, ag) in self.ann.graphs.iter() {
            if ag.generator.map(|i| self.ann.itemdefs.find(i)) == Some(root) {
                if found.is_some() {
                    return Err(RTypeError::unsupported(
                        "a variable holding generators of different functions",
                    ));
                }
                found = Some(g);
            }
        }
        found.ok_or_else(|| RTypeError::new("a generator of no generator function"))
    }

    /// The frame struct of the generators of generator function `g` (a
    /// forward reference until its body is lowered).
    pub fn generator_frame(&self, g: GraphId) -> LlType {
        let key = Repr::Generator(g);
        if let Some(t) = self.lists.borrow().get(&key) {
            return *t;
        }
        let t = LlType::forward(true);
        self.lists.borrow_mut().insert(key, t);
        t
    }

    /// The repr of the items an iterator of repr `ir` gives.
    pub fn next_item_repr(&self, ir: &Repr) -> Repr {
        match ir {
            Repr::ListIter(item, ..) => (**item).clone(),
            Repr::DictIter(k, _, 0) => (**k).clone(),
            Repr::DictIter(_, v, 1) => (**v).clone(),
            Repr::DictIter(k, v, _) => Repr::Tuple(vec![(**k).clone(), (**v).clone()]),
            Repr::StrIter => Repr::UniChar,
            Repr::EnumIter(inner) => Repr::Tuple(vec![
                Repr::Int(rpy3_annotator::model::IntKind::Signed),
                self.next_item_repr(inner),
            ]),
            Repr::ZipIter(inners) => {
                Repr::Tuple(inners.iter().map(|i| self.next_item_repr(i)).collect())
            }
            Repr::Generator(g) => self.ann.graphs[*g]
                .generator
                .and_then(|id| self.getrepr(&self.ann.itemdefs.get(id).item).ok())
                .unwrap_or(Repr::Void),
            _ => Repr::Int(rpy3_annotator::model::IntKind::Signed),
        }
    }

    /// The struct of an `enumerate()` or `zip()` iterator repr.
    pub fn iterator_struct(&self, r: &Repr) -> LlType {
        if let Some(t) = self.lists.borrow().get(r) {
            return *t;
        }
        let next_type = |ir: &Repr| -> LlType { self.next_item_repr(ir).lowleveltype(self) };
        let (name, fields) = match r {
            Repr::EnumIter(inner) => (
                "enumerate",
                vec![
                    ("it".to_string(), inner.lowleveltype(self)),
                    ("cur".to_string(), next_type(inner)),
                    ("index".to_string(), rpy3_model::lltype::SIGNED),
                ],
            ),
            Repr::ZipIter(inners) => {
                let mut fields = Vec::new();
                for (i, ir) in inners.iter().enumerate() {
                    fields.push((format!("it{i}"), ir.lowleveltype(self)));
                    fields.push((format!("cur{i}"), next_type(ir)));
                }
                ("zip", fields)
            }
            _ => panic!("iterator_struct of {r:?}"),
        };
        let t = LlType::new_struct(name, fields, true).expect("an iterator struct");
        self.lists.borrow_mut().insert(r.clone(), t);
        t
    }

    /// The struct of iterators over lists of items of repr `item`.
    pub fn listiter_struct(&self, item: &Repr, kind: SeqKind) -> LlType {
        let key = Repr::ListIter(Box::new(item.clone()), false, kind);
        self.index_iter_struct(key, "listiter", "list", || self.seq_struct(item, kind))
    }

    /// The struct of tuples with these item reprs (created on first use;
    /// one struct per list of item reprs).
    pub fn tuple_struct(&self, items: &[Repr]) -> LlType {
        if let Some(t) = self.tuples.borrow().get(items) {
            return *t;
        }
        let fields = items
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("item{i}"), r.lowleveltype(self)))
            .collect();
        let t = LlType::new_struct(&format!("tuple{}", items.len()), fields, true)
            .expect("tuple items are valid fields");
        self.tuples.borrow_mut().insert(items.to_vec(), t);
        t
    }

    /// The struct boxing an int, float or bool that may be None.
    pub fn optional_struct(&self, inner: &Repr) -> LlType {
        let key = Repr::Optional(Box::new(inner.clone()));
        if let Some(t) = self.lists.borrow().get(&key) {
            return *t;
        }
        let t = LlType::new_struct(
            "optional",
            vec![("value".to_string(), inner.lowleveltype(self))],
            true,
        )
        .expect("an optional struct");
        self.lists.borrow_mut().insert(key, t);
        t
    }

    /// The struct of `Repr::Number` and `Repr::IntBool` values:
    /// `{isint, isbool, i, f}` (a bool is also an int).
    pub fn number_struct(&self) -> LlType {
        let key = Repr::Number;
        if let Some(t) = self.lists.borrow().get(&key) {
            return *t;
        }
        let t = LlType::new_struct(
            "number",
            vec![
                ("isint".to_string(), rpy3_model::lltype::BOOL),
                ("isbool".to_string(), rpy3_model::lltype::BOOL),
                ("i".to_string(), rpy3_model::lltype::SIGNED),
                ("f".to_string(), rpy3_model::lltype::FLOAT),
            ],
            true,
        )
        .expect("a number struct");
        self.lists.borrow_mut().insert(key, t);
        t
    }

    /// `Ptr` to [`RTyper::number_struct`].
    pub fn number_ptr(&self) -> LlType {
        LlType::ptr(self.number_struct()).expect("a struct")
    }

    /// A prebuilt number box (`Repr::Number`, `Repr::IntBool`) of an int
    /// (`isint`, `i`; a bool when `isbool`) or a float `f`.
    pub fn prebuilt_number(
        &mut self,
        isint: bool,
        isbool: bool,
        i: i64,
        f: f64,
    ) -> Result<rpy3_model::lltype::Ptr, RTypeError> {
        use rpy3_model::lltype::LlValue;
        let st = self.number_struct();
        let p = self
            .heap
            .malloc(st, 0)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        for (name, v) in [
            ("isint", LlValue::Bool(isint)),
            ("isbool", LlValue::Bool(isbool)),
            ("i", LlValue::Int(i)),
            ("f", LlValue::Float(f)),
        ] {
            let off = st.field_offset(name).expect("number field");
            self.heap.set_slot(&p, off, v);
        }
        Ok(p)
    }

    /// The pointer type of tuples with these item reprs.
    pub fn tuple_ptr(&self, items: &[Repr]) -> LlType {
        LlType::ptr(self.tuple_struct(items)).expect("a struct")
    }

    /// The struct of `Repr::MethodSet` values: `(im_self, which)`, the
    /// instance as an `object` and the method name's number.
    pub fn method_pair_struct(&self) -> LlType {
        self.tuple_struct(&[
            Repr::LlPtr(self.objmodel.object_ptr),
            Repr::Int(rpy3_annotator::model::IntKind::Signed),
        ])
    }

    /// `Ptr` to [`RTyper::method_pair_struct`].
    pub fn method_pair_ptr(&self) -> LlType {
        LlType::ptr(self.method_pair_struct()).expect("a struct")
    }

    /// The number of method name `name` in `Repr::MethodSet` values.
    pub fn method_name_id(&self, name: &str) -> i64 {
        let mut names = self.method_names.borrow_mut();
        match names.iter().position(|n| n == name) {
            Some(i) => i as i64,
            None => {
                names.push(name.to_string());
                (names.len() - 1) as i64
            }
        }
    }

    /// `(range struct, Ptr(range), range iterator struct, Ptr(iterator))`.
    pub fn range_types(&self) -> (LlType, LlType, LlType, LlType) {
        self.range.expect("range types are created at start")
    }

    /// The class definition of a class object.
    pub fn classdef_of_class(
        &self,
        py: Python<'_>,
        cls: &Bound<'_, PyAny>,
    ) -> Result<ClassDefId, RTypeError> {
        let _ = py;
        for (id, c) in self.ann.classdefs.iter() {
            if c.cls.bind(py).is(cls) {
                return Ok(id);
            }
        }
        Err(RTypeError::new(format!(
            "class {} was not seen by the annotator",
            cls.repr().map(|r| r.to_string()).unwrap_or_default()
        )))
    }

    /// The class definition of a built-in exception.
    pub fn exception_classdef(&self, name: &str) -> ClassDefId {
        self.exception_classdefs[name]
    }
}

/// Makes sure the annotator has class definitions for the built-in
/// exceptions operations raise.
fn prepare(py: Python<'_>, ann: &mut Annotator) -> Result<HashMap<String, ClassDefId>, RTypeError> {
    let builtins = py
        .import("builtins")
        .map_err(|e| RTypeError::new(e.to_string()))?;
    let mut out = HashMap::new();
    for name in classes::STANDARD_EXCEPTIONS {
        let cls = builtins
            .getattr(*name)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let c = ann
            .getclassdef(py, &cls)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        out.insert(name.to_string(), c);
    }
    // classes used only as values (compared, passed to memo functions)
    // need a vtable too
    let classes: Vec<rpy3_model::PyObj> = ann
        .descs
        .values()
        .filter_map(|d| match d {
            rpy3_annotator::description::Desc::Class { cls, .. } => Some(cls.clone()),
            _ => None,
        })
        .collect();
    for cls in classes {
        ann.getclassdef(py, cls.bind(py))
            .map_err(|e| RTypeError::new(e.to_string()))?;
    }
    Ok(out)
}

/// The module of the string helpers (`rpy3.lltypesystem.rstr`).
pub const RSTR: &str = "rpy3.lltypesystem.rstr";

/// Prepares the low-level string helpers: the low-level types they declare
/// in `ll_args` (the helpers are annotated when first needed); returns the
/// string types.
fn prepare_strings(py: Python<'_>, ann: &mut Annotator) -> Result<Option<StrTypes>, RTypeError> {
    let Ok(module) = py.import(RSTR) else {
        return Ok(None);
    };
    let err = |e: String| RTypeError::new(format!("string helpers: {e}"));
    let st = module.getattr("STR").map_err(|e| err(e.to_string()))?;
    let st = ann
        .lltype_from_py(py, &st)
        .map_err(|e| err(e.to_string()))?;
    let names: Vec<String> = module
        .dir()
        .map_err(|e| err(e.to_string()))?
        .extract()
        .map_err(|e: PyErr| err(e.to_string()))?;
    for name in names {
        let Ok(f) = module.getattr(name.as_str()) else {
            continue;
        };
        let Ok(types) = f.getattr("ll_args") else {
            continue;
        };
        // the argument types are converted now; the helpers themselves are
        // annotated on first use (see `RTyper::str_helper`)
        for t in types.try_iter().map_err(|e| err(e.to_string()))? {
            let t = t.map_err(|e| err(e.to_string()))?;
            let lt = ann.lltype_from_py(py, &t).map_err(|e| err(e.to_string()))?;
            ann.ll_annotation(lt).map_err(|e| err(e.to_string()))?;
        }
    }
    let it = module.getattr("STRITER").map_err(|e| err(e.to_string()))?;
    let it = ann
        .lltype_from_py(py, &it)
        .map_err(|e| err(e.to_string()))?;
    let sb = module
        .getattr("STRBUILDER")
        .map_err(|e| err(e.to_string()))?;
    let sb = ann
        .lltype_from_py(py, &sb)
        .map_err(|e| err(e.to_string()))?;
    let bt = module.getattr("BYTES").map_err(|e| err(e.to_string()))?;
    let bt = ann
        .lltype_from_py(py, &bt)
        .map_err(|e| err(e.to_string()))?;
    let bb = module
        .getattr("BYTESBUILDER")
        .map_err(|e| err(e.to_string()))?;
    let bb = ann
        .lltype_from_py(py, &bb)
        .map_err(|e| err(e.to_string()))?;
    Ok(Some((
        LlType::ptr(st).map_err(|e| err(e.to_string()))?,
        LlType::ptr(it).map_err(|e| err(e.to_string()))?,
        LlType::ptr(sb).map_err(|e| err(e.to_string()))?,
        LlType::ptr(bt).map_err(|e| err(e.to_string()))?,
        LlType::ptr(bb).map_err(|e| err(e.to_string()))?,
    )))
}

/// `Ptr(STR)`, `Ptr(STRITER)`, `Ptr(STRBUILDER)`, `Ptr(BYTES)`,
/// `Ptr(BYTESBUILDER)`.
type StrTypes = (LlType, LlType, LlType, LlType, LlType);

impl RTyper<'_> {
    /// The function index of string helper `name`.
    pub fn str_helper(&self, py: Python<'_>, name: &str) -> Result<usize, RTypeError> {
        let f = py
            .import(RSTR)
            .and_then(|m| m.getattr(name))
            .map_err(|e| RTypeError::new(e.to_string()))?;
        // the copy for the argument types it declares (bytes have others)
        let mut args = Vec::new();
        let types = f
            .getattr("ll_args")
            .map_err(|_| RTypeError::new(format!("string helper {name} declares no ll_args")))?;
        for t in types
            .try_iter()
            .map_err(|e| RTypeError::new(e.to_string()))?
        {
            let t = t.map_err(|e| RTypeError::new(e.to_string()))?;
            let key = match t.getattr("_ident") {
                Ok(ident) => rpy3_model::PyObj::new(&ident),
                Err(_) => rpy3_model::PyObj::new(&t),
            };
            let lt = self.ann.ll_types.get(&key).copied().ok_or_else(|| {
                RTypeError::new(format!("string helper {name}: an unknown argument type"))
            })?;
            args.push(
                self.ann
                    .ll_annotation(lt)
                    .map_err(|e| RTypeError::new(e.message))?,
            );
        }
        // annotated on first use: a later pass has it
        self.helper_for(py, &f, args)
    }

    /// The prebuilt bytes `value`.
    pub fn prebuilt_bytes(&mut self, value: &[u8]) -> Result<rpy3_model::lltype::Ptr, RTypeError> {
        let key = format!("b{value:?}");
        if let Some(p) = self.prebuilt_strings.get(&key) {
            return Ok(*p);
        }
        let pt = self
            .bytes_ptr
            .ok_or_else(|| RTypeError::unsupported("bytes without rpy3.lltypesystem.rstr"))?;
        let st = pt.target().expect("a pointer");
        let p = self
            .heap
            .malloc(st, value.len())
            .map_err(|e| RTypeError::new(e.to_string()))?;
        for (i, b) in value.iter().enumerate() {
            self.heap
                .set_item(
                    &p,
                    i as i64,
                    0,
                    rpy3_model::lltype::LlValue::UniChar(u32::from(*b)),
                )
                .map_err(|e| RTypeError::new(e.to_string()))?;
        }
        self.prebuilt_strings.insert(key, p);
        Ok(p)
    }

    /// The prebuilt string `value`.
    pub fn prebuilt_string(&mut self, value: &str) -> Result<rpy3_model::lltype::Ptr, RTypeError> {
        if let Some(p) = self.prebuilt_strings.get(value) {
            return Ok(*p);
        }
        let pt = self
            .str_ptr
            .ok_or_else(|| RTypeError::unsupported("strings without rpy3.lltypesystem.rstr"))?;
        let st = pt.target().expect("a pointer");
        let chars: Vec<char> = value.chars().collect();
        let p = self
            .heap
            .malloc(st, chars.len())
            .map_err(|e| RTypeError::new(e.to_string()))?;
        for (i, c) in chars.iter().enumerate() {
            self.heap
                .set_item(
                    &p,
                    i as i64,
                    0,
                    rpy3_model::lltype::LlValue::UniChar(*c as u32),
                )
                .map_err(|e| RTypeError::new(e.to_string()))?;
        }
        self.prebuilt_strings.insert(value.to_string(), p);
        Ok(p)
    }
}

/// Rtypes everything the annotator reached from `entry`.
///
/// Lowering may find helper calls whose specialised graphs the annotator
/// has not made yet (the helpers of a list type first seen here); the pass
/// then stops, the annotator annotates them, and a new pass starts with
/// the low-level types of the previous one.
pub fn rtype(py: Python<'_>, ann: &mut Annotator, entry: GraphId) -> Result<LlProgram, RTypeError> {
    rtype_entries(py, ann, entry, &[]).map(|(p, _)| p)
}

/// Rtypes like [`rtype`], and gives the function index of each graph of
/// `others` too (entry points of test cases sharing one program).
pub fn rtype_entries(
    py: Python<'_>,
    ann: &mut Annotator,
    entry: GraphId,
    others: &[GraphId],
) -> Result<(LlProgram, Vec<usize>), RTypeError> {
    let exception_classdefs = prepare(py, ann)?;
    let str_ptr = prepare_strings(py, ann)?;
    let mut cache = TypeCache::default();
    for _pass in 0..50 {
        let (result, needs, back) =
            rtype_pass(py, ann, entry, others, &exception_classdefs, str_ptr, cache);
        cache = back;
        if needs.is_empty() {
            return result;
        }
        if let Err(e) = &result {
            if !e.retry {
                return result;
            }
        }
        for (f, args) in needs {
            ann.annotate(py, f.bind(py), args)
                .map_err(|e| RTypeError::new(format!("annotating a low-level helper: {e}")))?;
        }
    }
    Err(RTypeError::new(
        "internal error: the rtyper kept finding helpers to annotate",
    ))
}

/// One rtyping pass: the program, or the helpers to annotate first.
#[allow(clippy::type_complexity)]
fn rtype_pass(
    py: Python<'_>,
    ann: &Annotator,
    entry: GraphId,
    others: &[GraphId],
    exception_classdefs: &HashMap<String, ClassDefId>,
    str_ptr: Option<StrTypes>,
    mut cache: TypeCache,
) -> (
    Result<(LlProgram, Vec<usize>), RTypeError>,
    Vec<Need>,
    TypeCache,
) {
    let objmodel = match cache.objmodel.take() {
        Some(o) => o,
        None => match ObjectModel::new() {
            Ok(o) => o,
            Err(e) => return (Err(RTypeError::new(e.to_string())), Vec::new(), cache),
        },
    };
    let tuples = std::mem::take(&mut cache.tuples);
    let lists = std::mem::take(&mut cache.lists);
    let mut rt = RTyper {
        ann,
        objmodel,
        heap: Heap::new(),
        classes: Classes::default(),
        func_of_graph: HashMap::new(),
        funcs: Vec::new(),
        graphs: Vec::new(),
        tuples: std::cell::RefCell::new(tuples),
        range: None,
        helpers: HashMap::new(),
        exception_classdefs: exception_classdefs.clone(),
        prebuilt: HashMap::new(),
        dispatchers: HashMap::new(),
        method_names: std::cell::RefCell::new(Vec::new()),
        frozen: None,
        frozen_objects: HashMap::new(),
        str_ptr: str_ptr.map(|p| p.0),
        striter_ptr: str_ptr.map(|p| p.1),
        strbuilder_ptr: str_ptr.map(|p| p.2),
        bytes_ptr: str_ptr.map(|p| p.3),
        bytesbuilder_ptr: str_ptr.map(|p| p.4),
        prebuilt_strings: HashMap::new(),
        cache,
        lists: std::cell::RefCell::new(lists),
        needs: std::cell::RefCell::new(Vec::new()),
        list_items: std::cell::RefCell::new(HashMap::new()),
        class_attr_lists: std::cell::RefCell::new(HashMap::new()),
        repr_open: std::cell::RefCell::new(Vec::new()),
        repr_nesting: std::cell::Cell::new(0),
        cyclic: std::cell::RefCell::new(HashMap::new()),
        rec_reprs: std::cell::RefCell::new(HashMap::new()),
        prebuilt_todo: Vec::new(),
        draining_prebuilt: false,
        gen_next: HashMap::new(),
        gen_adapter: HashMap::new(),
        genset_next: HashMap::new(),
    };
    let result = rt.run(py, entry).and_then(|p| {
        let idx = others
            .iter()
            .map(|&g| {
                rt.func_index(g)
                    .ok_or_else(|| RTypeError::unsupported("a generator as an entry point"))
            })
            .collect::<Result<Vec<usize>, RTypeError>>()?;
        Ok((p, idx))
    });
    let needs = rt.needs.take();
    let mut cache = std::mem::take(&mut rt.cache);
    cache.tuples = rt.tuples.take();
    cache.lists = rt.lists.take();
    match result {
        Ok(program) => (Ok(program), needs, cache),
        Err(e) => {
            // the object model went into the program on success only
            cache.objmodel = Some(rt.objmodel);
            (Err(e), needs, cache)
        }
    }
}

impl RTyper<'_> {
    /// Builds the program (see [`rtype`]).
    fn run(&mut self, py: Python<'_>, entry: GraphId) -> Result<LlProgram, RTypeError> {
        let ann = self.ann;
        self.classes.root_ptr = Some(self.objmodel.object_ptr);
        self.make_range_types();
        // (frozen objects before the classes' fields: prebuilt class
        // attributes may be frozen objects, and frozen objects may hold
        // instances)
        self.declare_classes()?;
        self.build_frozen()?;
        self.build_classes()?;
        // every annotated graph becomes a function; types first, so calls
        // can refer to functions not built yet
        let gids: Vec<GraphId> = ann.graphs.keys().collect();
        for &g in &gids {
            if ann.graphs[g].graph.is_generator {
                // calls create the frame; `next()` runs the body
                let (args, frame, item) = self.generator_types(g)?;
                let pf = LlType::ptr(frame).map_err(|e| RTypeError::new(e.to_string()))?;
                let name = ann.graphs[g].graph.name.clone();
                let idx = self.funcs.len();
                self.funcs.push((name.clone(), LlType::func(args, pf)));
                self.graphs.push(None);
                self.func_of_graph.insert(g, idx);
                self.funcs
                    .push((format!("{name}.next"), LlType::func(vec![pf], item)));
                self.graphs.push(None);
                self.gen_next.insert(g, idx + 1);
                if let Some(id) = ann.graphs[g].generator {
                    if self.generator_family(id).len() > 1 {
                        // one of a family: `next()` taking the header too
                        let root = self.ann.itemdefs.find(id);
                        let base = self.genbase_struct(root);
                        let pbase = LlType::ptr(base).map_err(|e| RTypeError::new(e.to_string()))?;
                        let (mut b, bargs) =
                            helpers::GraphBuilder::new(self, &format!("{name}.gnext"), &[pbase], item);
                        let s = b.graph.startblock;
                        let tc = helpers::type_const(py, pf)?;
                        let fr = b.op(s, LlOp::CastPointer, vec![tc, Hlvalue::Variable(bargs[0])], pf);
                        let nf = Hlvalue::Constant(
                            rpy3_model::llconst::func_constant(
                                py,
                                self.func_ref(idx + 1),
                                self.func_name(idx + 1),
                            )
                            .map_err(|e| RTypeError::new(e.to_string()))?,
                        );
                        let v = b.op(s, LlOp::DirectCall, vec![nf, Hlvalue::Variable(fr)], item);
                        b.ret(s, Hlvalue::Variable(v));
                        let graph = b.graph;
                        self.funcs.push((graph.name.clone(), LlType::func(vec![pbase], item)));
                        self.graphs.push(Some(Arc::new(graph)));
                        self.gen_adapter.insert(g, idx + 2);
                    }
                }
                continue;
            }
            let ty = self.function_type(g)?;
            let idx = self.funcs.len();
            self.funcs.push((ann.graphs[g].graph.name.clone(), ty));
            self.graphs.push(None);
            self.func_of_graph.insert(g, idx);
        }
        let mut retry = false;
        for &g in &gids {
            if let Some(idx) = self.func_index(g) {
                let graph = match lower::lower_graph(self, py, g) {
                    Ok(graph) => graph,
                    // keep lowering to collect every helper still needed
                    Err(e) if e.retry => {
                        retry = true;
                        continue;
                    }
                    Err(mut e) => {
                        if e.location.is_none() {
                            let src = &ann.graphs[g].graph.source;
                            e.location = Some(SourceLocation {
                                filename: src.filename.clone(),
                                lineno: 0,
                                function: Some(src.qualname.clone()),
                            });
                        }
                        return Err(e);
                    }
                };
                if let Some(&next) = self.gen_next.get(&g) {
                    let (args, frame, item) = self.generator_types(g)?;
                    let name = ann.graphs[g].graph.name.clone();
                    // one of a family: the header first, its `gnext` set
                    let header = match (self.gen_adapter.get(&g), ann.graphs[g].generator) {
                        (Some(&adapter), Some(id)) => {
                            let root = self.ann.itemdefs.find(id);
                            Some((self.genbase_struct(root), adapter))
                        }
                        _ => None,
                    };
                    let create = generators::creation_graph(self, py, &name, &args, frame, header)?;
                    self.graphs[idx] = Some(Arc::new(create));
                    let body =
                        generators::next_graph(self, py, graph, frame, item, header.map(|h| h.0))?;
                    self.graphs[next] = Some(Arc::new(body));
                    continue;
                }
                self.graphs[idx] = Some(Arc::new(graph));
            }
        }
        if retry || !self.needs.borrow().is_empty() {
            return Err(RTypeError::retry());
        }
        let entry = self
            .func_index(entry)
            .ok_or_else(|| RTypeError::unsupported("a generator as the entry point"))?;
        let mut functions = Vec::new();
        for (i, (name, ty)) in self.funcs.iter().enumerate() {
            let graph = self.graphs[i]
                .clone()
                .ok_or_else(|| RTypeError::new(format!("function {name} was not built")))?;
            functions.push(LlFunction {
                name: name.clone(),
                graph,
                ty: *ty,
            });
        }
        let mut exceptions = HashMap::new();
        for name in classes::STANDARD_EXCEPTIONS {
            let c = self.exception_classdefs[*name];
            exceptions.insert(name.to_string(), self.classes.exception_class(c));
        }
        let objmodel = match ObjectModel::new() {
            Ok(fresh) => std::mem::replace(&mut self.objmodel, fresh),
            Err(e) => return Err(RTypeError::new(e.to_string())),
        };
        Ok(LlProgram {
            functions,
            heap: std::mem::take(&mut self.heap),
            objmodel,
            exceptions,
            entry,
        })
    }

    /// The function index of the graph of `func` (a Python function of the
    /// `rpy3` package) specialised for `args`; when the annotator has not
    /// made it yet, the call is recorded for the next pass.
    pub fn helper_for(
        &self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: Vec<SomeValue>,
    ) -> Result<usize, RTypeError> {
        let obj = rpy3_model::PyObj::new(func);
        let graph = self
            .ann
            .lookup_desc(&obj)
            .and_then(|d| self.ann.existing_graph(py, d, &args));
        // the graph must also have been annotated for arguments like these
        // (a helper first reached with a non-negative index must be
        // generalised before a call passing any int uses it)
        let fits = |g: GraphId| {
            let graph = &self.ann.graphs[g].graph;
            graph.blocks[graph.startblock]
                .inputargs
                .iter()
                .zip(&args)
                .all(|(&v, a)| {
                    let have = self.ann.binding(g, v);
                    match rpy3_annotator::model::union_simple(&have, a) {
                        Some(Ok(u)) => u == have,
                        _ => true,
                    }
                })
        };
        if let Some(g) = graph.filter(|&g| fits(g)) {
            if let Some(idx) = self.func_index(g) {
                return Ok(idx);
            }
        }
        let mut needs = self.needs.borrow_mut();
        if !needs.iter().any(|(f, a)| *f == obj && *a == args) {
            needs.push((obj, args));
        }
        Err(RTypeError::retry())
    }
}

impl RTyper<'_> {
    /// Lays out the struct of frozen objects that variables can hold: one
    /// field per attribute whose values all have one machine type.
    fn build_frozen(&mut self) -> Result<(), RTypeError> {
        Python::attach(|py| -> Result<(), RTypeError> {
            let mut objects = Vec::new();
            for (_, d) in self.ann.descs.iter() {
                if let rpy3_annotator::description::Desc::Frozen { obj, .. } = d {
                    objects.push(obj.clone());
                }
            }
            let mut fields: Vec<(String, Repr)> = Vec::new();
            let mut bad: std::collections::HashSet<String> = std::collections::HashSet::new();
            for o in &objects {
                let Ok(dict) = o.bind(py).getattr("__dict__") else {
                    continue;
                };
                let Ok(items) = dict.call_method0("items") else {
                    continue;
                };
                for item in items.try_iter().into_iter().flatten().flatten() {
                    let Ok((k, v)) = item.extract::<(String, Bound<'_, PyAny>)>() else {
                        continue;
                    };
                    let r = if v.is_instance_of::<pyo3::types::PyBool>() {
                        Some(Repr::Bool)
                    } else if v.is_instance_of::<pyo3::types::PyInt>() && v.extract::<i64>().is_ok()
                    {
                        Some(Repr::Int(rpy3_annotator::model::IntKind::Signed))
                    } else if v.is_instance_of::<pyo3::types::PyFloat>() {
                        Some(Repr::Float)
                    } else if v.is_exact_instance_of::<pyo3::types::PyString>()
                        && self.str_ptr.is_some()
                    {
                        Some(Repr::Str)
                    } else {
                        // an instance of a class the annotator knows
                        self.classdef_of_class(py, v.get_type().as_any())
                            .ok()
                            .map(Repr::Instance)
                    };
                    match (r, fields.iter().find(|(n, _)| *n == k)) {
                        (Some(Repr::Instance(a)), Some((_, Repr::Instance(b)))) if a != *b => {
                            // instances of several classes: their common base
                            match self.ann.common_base(a, *b) {
                                Some(c) => {
                                    let slot = fields
                                        .iter_mut()
                                        .find(|(n, _)| *n == k)
                                        .expect("found");
                                    slot.1 = Repr::Instance(c);
                                }
                                None => {
                                    bad.insert(k);
                                }
                            }
                        }
                        (Some(r), Some((_, have))) if *have != r => {
                            bad.insert(k);
                        }
                        (Some(r), None) => fields.push((k, r)),
                        (None, _) => {
                            bad.insert(k);
                        }
                        _ => {}
                    }
                }
            }
            fields.retain(|(n, _)| !bad.contains(n));
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            let llfields: Vec<(String, LlType)> = fields
                .iter()
                .map(|(n, r)| (format!("f_{n}"), r.lowleveltype(self)))
                .collect();
            let st = match self.cache.frozen.get(&llfields) {
                Some(t) => *t,
                None => {
                    let t = LlType::new_struct("frozen_pbc", llfields.clone(), false)
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                    self.cache.frozen.insert(llfields, t);
                    t
                }
            };
            self.frozen = Some((st, fields));
            Ok(())
        })
    }

    /// Pointer to the frozen-objects struct.
    pub fn frozen_ptr(&self) -> LlType {
        LlType::ptr(
            self.frozen
                .as_ref()
                .expect("frozen struct built at start")
                .0,
        )
        .expect("struct")
    }

    /// The fields of the frozen-objects struct.
    pub fn frozen_fields(&self) -> &[(String, Repr)] {
        &self
            .frozen
            .as_ref()
            .expect("frozen struct built at start")
            .1
    }

    /// The prebuilt struct of a frozen object.
    pub fn frozen_object(
        &mut self,
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
    ) -> Result<rpy3_model::lltype::Ptr, RTypeError> {
        let key = rpy3_model::PyObj::new(obj);
        if let Some(p) = self.frozen_objects.get(&key) {
            return Ok(*p);
        }
        let (st, fields) = self.frozen.clone().expect("frozen struct built at start");
        let p = self
            .heap
            .malloc(st, 0)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        for (name, r) in fields {
            if let Ok(v) = obj.getattr(name.as_str()) {
                let llv = self.convert_const(py, &r, &v)?;
                let off = st.field_offset(&format!("f_{name}")).expect("field");
                self.heap.set_slot(&p, off, llv);
            }
        }
        self.frozen_objects.insert(key, p);
        Ok(p)
    }

    fn make_range_types(&mut self) {
        use rpy3_model::lltype::SIGNED;
        if let Some(r) = self.cache.range {
            self.range = Some(r);
            return;
        }
        let f = |names: [&str; 3]| {
            names
                .iter()
                .map(|n| (n.to_string(), SIGNED))
                .collect::<Vec<_>>()
        };
        let range = LlType::new_struct("range", f(["start", "stop", "step"]), true).expect("valid");
        // the next item, the number of items left (unsigned), the step
        let iter =
            LlType::new_struct("rangeiter", f(["next", "len", "step"]), true).expect("valid");
        self.range = Some((
            range,
            LlType::ptr(range).expect("struct"),
            iter,
            LlType::ptr(iter).expect("struct"),
        ));
        self.cache.range = self.range;
    }

    /// Declares the instance struct of every class (forward references).
    fn declare_classes(&mut self) -> Result<(), RTypeError> {
        let defs: Vec<(ClassDefId, String, Option<ClassDefId>)> = self
            .ann
            .classdefs
            .iter()
            .map(|(id, c)| (id, c.name.clone(), c.base))
            .collect();
        self.classes = Classes::declare(&defs, &self.objmodel, &self.cache.classes)?;
        Ok(())
    }

    /// Defines the declared instance structs and builds the vtables.
    fn build_classes(&mut self) -> Result<(), RTypeError> {
        let ann = self.ann;
        let defs: Vec<(ClassDefId, String, Option<ClassDefId>)> = ann
            .classdefs
            .iter()
            .map(|(id, c)| (id, c.name.clone(), c.base))
            .collect();
        let mut field_reprs = HashMap::new();
        for (id, c) in ann.classdefs.iter() {
            let mut fields: Vec<(String, Repr, LlType)> = Vec::new();
            let mut names: Vec<&String> = c.attrs.keys().collect();
            names.sort();
            for name in names {
                let s = &c.attrs[name].s_value;
                let r = self.field_repr(s)?;
                self.ensure_types(&r);
                let t = r.lowleveltype(self);
                fields.push((name.clone(), r, t));
            }
            field_reprs.insert(id, fields);
        }
        let mut heap = std::mem::take(&mut self.heap);
        let mut classes = std::mem::take(&mut self.classes);
        let mut cache = std::mem::take(&mut self.cache.classes);
        let built = classes.build(&defs, &field_reprs, &self.objmodel, &mut heap, &mut cache);
        self.heap = heap;
        self.classes = classes;
        self.cache.classes = cache;
        built
    }

    /// The repr of an instance field; fields pointing to instances of a
    /// class not yet laid out point to the root object type.
    fn field_repr(&self, s: &SomeValue) -> Result<Repr, RTypeError> {
        self.getrepr(s)
    }

    /// Creates the types a repr needs (tuple structs).
    pub fn ensure_types(&mut self, r: &Repr) {
        if let Repr::Tuple(items) = r {
            for i in items {
                self.ensure_types(i);
            }
            self.tuple_struct(items);
        }
    }

    /// The argument types, frame struct and item type of generator
    /// function `g`.
    fn generator_types(&mut self, g: GraphId) -> Result<(Vec<LlType>, LlType, LlType), RTypeError> {
        let ag = &self.ann.graphs[g];
        let graph = ag.graph.clone();
        let mut args = Vec::new();
        for &v in &graph.blocks[graph.startblock].inputargs {
            let r = self.getrepr(&self.ann.binding(g, v))?;
            self.ensure_types(&r);
            args.push(r.lowleveltype(self));
        }
        let id = ag
            .generator
            .ok_or_else(|| RTypeError::new("a generator graph without items"))?;
        let item = self.ann.itemdefs.get(id).item.clone();
        let r = self.getrepr(&item)?;
        self.ensure_types(&r);
        Ok((args, self.generator_frame(g), r.lowleveltype(self)))
    }

    /// The function index of `next()` of the generators of function `g`.
    pub fn generator_next(&self, g: GraphId) -> Option<usize> {
        self.gen_next.get(&g).copied()
    }

    fn function_type(&mut self, g: GraphId) -> Result<LlType, RTypeError> {
        let ag = &self.ann.graphs[g];
        let graph = ag.graph.clone();
        let mut args = Vec::new();
        for &v in &graph.blocks[graph.startblock].inputargs {
            let r = self.getrepr(&self.ann.binding(g, v))?;
            self.ensure_types(&r);
            args.push(r.lowleveltype(self));
        }
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        let r = self.getrepr(&self.ann.binding(g, rv))?;
        self.ensure_types(&r);
        Ok(LlType::func(args, r.lowleveltype(self)))
    }
}
