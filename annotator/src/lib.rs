//! The annotator: whole-program type inference from an entry point, over
//! the flow graphs of every function it reaches (PyPy's `annrpython.py`).
//!
//! Annotations flow forward from the entry point's arguments: a block is
//! (re)flowed when the annotations of its input arguments generalise; the
//! readers of a container's items, of an instance attribute or of a
//! function's return value are reflowed when those generalise.  Bindings
//! only ever grow, so the process reaches the least fixpoint whatever the
//! order in which pending blocks are taken.

pub use rpy3_model::program::{EXC_ARGS_ATTR, EXC_MESSAGE_ATTR, EXC_NAME_ATTR};

pub mod classdef;
pub mod description;
mod dump;
pub mod error;
pub mod ids;
pub mod itemdef;
pub mod lldialect;
mod meet;
pub mod model;
mod rules;
pub mod soundness;

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

use cranelift_entity::{PrimaryMap, SecondaryMap};
use pyo3::prelude::*;
use rpy3_flowspace::FlowCache;
use rpy3_model::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, PyObj, VarId};

pub use error::AnnotatorError;
pub use ids::{ClassDefId, DescId, GraphId, ItemDefId};
pub use model::{describe, SomeValue};
pub use rpy3_flowspace::is_undefined_local;
pub use rules::special::{FORMAT_FIELD, PROTOCOL_HELPER, REPR_FIELD};
pub use rules::{static_method_name, 
    builtin_name, is_plain_format, keyword_slots, unbound_method_wrapper, unboxes_optional,
    world_object,
    KeywordSlot, SpecialCall,
};

use classdef::ClassDef;
use description::Desc;
use itemdef::{ItemDefs, ItemKind, Position};
use model::UnionError;

/// One annotated graph: a specialised copy of a function's flow graph and
/// the annotation of each of its variables.
pub struct AnnGraph {
    /// The graph.
    pub graph: Arc<FunctionGraph>,
    /// Annotation of each variable (absent: not reached yet).
    pub bindings: SecondaryMap<VarId, Option<SomeValue>>,
    /// The function description it belongs to.
    pub desc: Option<DescId>,
    /// What a call of a generator function returns.
    pub generator: Option<ItemDefId>,
}

/// Processing order of pending blocks (for testing that the result does not
/// depend on it).
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// First in, first out.
    Fifo,
    /// Pseudo-random, from a seed.
    Shuffled(u64),
}

/// Called with `(graph, variable, old, new)` whenever a binding changes.
pub type BindObserver = Box<dyn FnMut(GraphId, VarId, &SomeValue, &SomeValue)>;

/// The whole-program annotator.
pub struct Annotator {
    /// Flow graphs per function object.
    pub cache: FlowCache,
    /// Annotated graphs.
    pub graphs: PrimaryMap<GraphId, AnnGraph>,
    /// Container item definitions.
    pub itemdefs: ItemDefs,
    /// Descriptions of prebuilt constants.
    pub descs: PrimaryMap<DescId, Desc>,
    desc_of: HashMap<PyObj, DescId>,
    /// Class definitions.
    pub classdefs: PrimaryMap<ClassDefId, ClassDef>,
    classdef_of: HashMap<PyObj, ClassDefId>,
    /// Prebuilt lists and dicts already given a definition.
    prebuilt_containers: HashMap<PyObj, SomeValue>,
    /// Prebuilt instances whose attributes were recorded.
    seen_prebuilt: HashSet<PyObj>,
    /// Prebuilt instances whose attributes are still to be annotated, and
    /// whether an outer `immutablevalue` is annotating them (a worklist,
    /// so a long chain of prebuilt objects does not nest calls).
    prebuilt_todo: Vec<(PyObj, ClassDefId)>,
    draining_prebuilt: bool,
    pending: VecDeque<Position>,
    in_pending: HashSet<Position>,
    annotated: HashSet<Position>,
    /// Links the fixpoint followed (PyPy's `links_followed`): a link of a
    /// flowed block that is not here is never taken (its switch is a known
    /// constant, or one of its values cannot exist).
    links_followed: HashSet<(GraphId, rpy3_model::LinkId)>,
    /// Callers to reflow when a graph's return annotation generalises.
    notify: HashMap<GraphId, BTreeSet<Position>>,
    /// The block being flowed, and the line of the operation.
    current: Option<(Position, u32)>,
    /// The index of the operation being annotated in its block.
    current_op: usize,
    /// Per graph, the variables known to hold the class of another
    /// variable of the same block (`type(x)`, an exception's type and
    /// value), for narrowing on `issubtype`.
    typeof_rel: HashMap<GraphId, Arc<HashMap<VarId, VarId>>>,
    order: Order,
    rng: u64,
    /// Observer of every binding change (for the monotonicity test).
    pub on_bind: Option<BindObserver>,
    /// How many times a block was flowed (for throughput measurements).
    pub blocks_flowed: u64,
    /// Blocks whose last flowing failed, with the error, in the order
    /// they first failed: reported only if they still fail once the
    /// fixpoint is reached (a value may merely have been incomplete).
    errored: Vec<(Position, AnnotatorError)>,
    /// Low-level types of `rpy3.lltype` type objects.
    pub ll_types: HashMap<PyObj, rpy3_model::lltype::LlType>,
    /// For each call operation `(graph, block, operation index)`, the graph
    /// each function description it calls uses there (specialisation is
    /// decided per call site); the rtyper turns calls into direct calls of
    /// these graphs.
    pub call_sites: HashMap<(GraphId, BlockId, usize), std::collections::BTreeMap<DescId, GraphId>>,
    /// Operations on instances annotated as calls of a special method of
    /// their class (`__add__`, `__getitem__`, ...), by position.
    pub special_calls: HashMap<(GraphId, BlockId, usize), rules::SpecialCall>,
    /// `getattr`/`setattr` operations on a value that is a class (a class
    /// method's `cls`, `type(x)`) whose attribute the program assigns:
    /// the prebuilt instance holding it (see `rpy3._classattrs`), which
    /// the operation reads or writes instead, by position.
    pub class_attr_holders: HashMap<(GraphId, BlockId, usize), PyObj>,
    /// `hasattr(x, name)` calls that only some classes of `x` answer yes:
    /// those classes, which the rtyper tests `x`'s class against.
    pub hasattr_classes: HashMap<(GraphId, BlockId, usize), Vec<PyObj>>,
    /// Blocks that walk over every instance attribute of some classes
    /// (`deepcopy_fields`): reflowed when any class gains an attribute.
    pub field_walkers: std::collections::BTreeSet<Position>,
    /// Calls of built-ins iterating over instances: for each, the
    /// positional arguments replaced by their `__iter__()` (the index, the
    /// call, and its result's annotation).
    pub special_args: HashMap<(GraphId, BlockId, usize), Vec<SpecialArg>>,
    /// `fmt % args` with instances shown by `%s`/`%r`: for each such
    /// argument (the operation's position, the argument's index), the
    /// annotation of its class's `__str__` or `__repr__` (a PBC of methods).
    pub format_methods: HashMap<(GraphId, BlockId, usize, usize), SomeValue>,
    /// For an exception class whose instances are shown (`str(e)`, `%s`,
    /// `print`) while subclasses define `__str__` it does not: the function
    /// that shows one (`rpy3._defaults.exception_str_dispatcher`), called
    /// with the instance.
    pub exception_str_dispatchers: HashMap<ClassDefId, PyObj>,
}

/// An argument of a built-in replaced by a call: its index, the call, and
/// the annotation of the call's result.
pub type SpecialArg = (usize, rules::SpecialCall, SomeValue);

impl Annotator {
    /// The operation being annotated: (graph, block, index).
    pub fn current_position(&self) -> Option<(GraphId, BlockId, usize)> {
        self.current.map(|((g, b), _)| (g, b, self.current_op))
    }

    /// The indices, among the arguments of the operation being annotated
    /// (a call), of the call's argument values: after the callee, and
    /// after the call shape of a call with keywords.
    pub fn current_call_value_indices(&self, n: usize) -> Vec<usize> {
        let first = match self.current_position() {
            Some((g, b, i)) => match self.graphs[g].graph.blocks[b].operations.get(i) {
                Some(op) if op.opname == rpy3_model::OpName::CallArgs => 2,
                _ => 1,
            },
            None => 1,
        };
        (first..first + n).collect()
    }
}

impl Default for Annotator {
    fn default() -> Self {
        Annotator::new()
    }
}

impl Annotator {
    /// An annotator with nothing annotated yet.
    pub fn new() -> Annotator {
        Annotator {
            cache: FlowCache::new(),
            graphs: PrimaryMap::new(),
            itemdefs: ItemDefs::default(),
            descs: PrimaryMap::new(),
            desc_of: HashMap::new(),
            classdefs: PrimaryMap::new(),
            classdef_of: HashMap::new(),
            prebuilt_containers: HashMap::new(),
            seen_prebuilt: HashSet::new(),
            prebuilt_todo: Vec::new(),
            draining_prebuilt: false,
            pending: VecDeque::new(),
            in_pending: HashSet::new(),
            annotated: HashSet::new(),
            links_followed: HashSet::new(),
            notify: HashMap::new(),
            current: None,
            current_op: 0,
            typeof_rel: HashMap::new(),
            order: Order::Fifo,
            rng: 0,
            on_bind: None,
            blocks_flowed: 0,
            errored: Vec::new(),
            ll_types: HashMap::new(),
            call_sites: HashMap::new(),
            special_calls: HashMap::new(),
            class_attr_holders: HashMap::new(),
            hasattr_classes: HashMap::new(),
            field_walkers: std::collections::BTreeSet::new(),
            special_args: HashMap::new(),
            format_methods: HashMap::new(),
            exception_str_dispatchers: HashMap::new(),
        }
    }

    /// Sets the processing order of pending blocks.
    pub fn set_order(&mut self, order: Order) {
        self.order = order;
        if let Order::Shuffled(seed) = order {
            self.rng = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407)
                | 1;
        }
    }

    /// Annotates everything reachable from `func` called with arguments
    /// of the given annotations; returns the entry graph.
    pub fn annotate(
        &mut self,
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        args: Vec<SomeValue>,
    ) -> Result<GraphId, AnnotatorError> {
        let desc = self.getdesc(py, func)?;
        let graph = self.graph_for_call(py, desc, &args)?;
        let cells = self.bind_args(py, graph, description::CallArgs::positional(args))?;
        let start = self.graphs[graph].graph.startblock;
        self.addpendingblock(graph, start, cells)?;
        self.complete(py)?;
        Ok(graph)
    }

    /// The annotation of a graph's return value.
    pub fn return_annotation(&self, graph: GraphId) -> SomeValue {
        let g = &self.graphs[graph].graph;
        let v = g.blocks[g.returnblock].inputargs[0];
        self.binding(graph, v)
    }

    /// The annotation of a variable (`Impossible` if not reached).
    pub fn binding(&self, graph: GraphId, v: VarId) -> SomeValue {
        self.graphs[graph].bindings[v]
            .clone()
            .unwrap_or(SomeValue::Impossible)
    }

    /// The annotation of an operand.
    pub fn annotation_of(
        &mut self,
        py: Python<'_>,
        graph: GraphId,
        h: &Hlvalue,
    ) -> Result<SomeValue, AnnotatorError> {
        match h {
            Hlvalue::Variable(v) => Ok(self.binding(graph, *v)),
            Hlvalue::Constant(c) => self.immutablevalue(py, c.value.bind(py)),
        }
    }

    // ----- errors ----------------------------------------------------------

    /// An error at the operation being annotated.
    pub fn error(&self, message: impl Into<String>) -> AnnotatorError {
        let (filename, lineno, function) = match self.current {
            Some(((g, _), line)) => {
                let src = &self.graphs[g].graph.source;
                (src.filename.clone(), line, Some(src.qualname.clone()))
            }
            None => ("<unknown>".into(), 0, None),
        };
        AnnotatorError {
            message: message.into(),
            filename,
            lineno,
            function,
            chain: Vec::new(),
            columns: None,
        }
    }

    fn union_error(&self, e: UnionError, what: &str) -> AnnotatorError {
        let mut err = self.error(e.message);
        err.chain.push(what.to_string());
        err
    }

    // ----- the lattice with shared state ----------------------------------------

    /// The least annotation containing both (merging container definitions
    /// and uniting class definitions).
    /// The annotations of plain functions `descs` as prebuilt closures
    /// like the instances of `c` (a closure class): None when `c` is no
    /// closure class or a function cannot be one.
    fn functions_as_closures(
        &mut self,
        descs: &std::collections::BTreeSet<DescId>,
        c: ClassDefId,
    ) -> Option<Vec<SomeValue>> {
        Python::attach(|py| {
            let m = py.import("rpy3._closures").ok()?;
            let cls = self.classdefs[c].cls.bind(py).clone();
            let n = m.getattr("closure_params").ok()?.call1((cls,)).ok()?;
            if n.is_none() {
                return None;
            }
            let mut out = Vec::new();
            for d in descs.iter() {
                if !matches!(self.descs[*d], Desc::Function(_)) {
                    return None;
                }
                let f = self.desc_object(*d)?;
                let w = m.getattr("function_wrapper").ok()?.call1((f.bind(py), &n)).ok()?;
                if w.is_none() {
                    return None;
                }
                out.push(self.immutablevalue(py, &w).ok()?.without_const());
            }
            Some(out)
        })
    }

    pub fn union(&mut self, a: &SomeValue, b: &SomeValue) -> Result<SomeValue, UnionError> {
        use SomeValue::*;
        // an int, float or bool meeting a number class of rpy3's (a
        // complex): that class, the rtyper converting the plain number
        if let (Integer { .. } | Float { .. } | Bool { .. }, inst @ Instance { classdef, .. })
        | (inst @ Instance { classdef, .. }, Integer { .. } | Float { .. } | Bool { .. }) = (a, b)
        {
            if self.is_number_class(*classdef) {
                return Ok(inst.clone());
            }
        }
        if let (Pbc { descs, can_be_none }, inst @ Instance { classdef, .. })
        | (inst @ Instance { classdef, .. }, Pbc { descs, can_be_none }) = (a, b)
        {
            // plain functions meeting closures: each function as a
            // prebuilt closure calling it (rpy3._closures.function_wrapper)
            if let Some(wrapped) = self.functions_as_closures(descs, *classdef) {
                let mut u = inst.clone();
                for w in wrapped {
                    u = self.union(&u, &w)?;
                }
                if *can_be_none {
                    u = self.union(&u, &None_)?;
                }
                return Ok(u);
            }
        }
        if let (
            Pbc {
                descs,
                can_be_none: false,
            },
            Type { classdef, .. },
        )
        | (
            Type { classdef, .. },
            Pbc {
                descs,
                can_be_none: false,
            },
        ) = (a, b)
        {
            // a class given as a constant and a class known by its base
            // (an exception's type): a class below their common base
            return self.union_classes_with_type(descs, *classdef);
        }
        if let (
            Pbc {
                descs: d1,
                can_be_none: n1,
            },
            Pbc {
                descs: d2,
                can_be_none: n2,
            },
        ) = (a, b)
        {
            let mut descs: BTreeSet<DescId> = (**d1).clone();
            descs.extend(d2.iter().copied());
            return Ok(Pbc {
                descs: Arc::new(self.simplify_methods(descs)),
                can_be_none: *n1 || *n2,
            });
        }
        if let (None_, List(id) | Dict(id) | Set(id)) | (List(id) | Dict(id) | Set(id), None_) =
            (a, b)
        {
            // a container or None: a possibly null pointer
            self.make_nullable(*id);
            return Ok(if matches!(a, None_) {
                b.clone()
            } else {
                a.clone()
            });
        }
        if let (Optional(x), y) | (y, Optional(x)) = (a, b) {
            // an int, float or bool that may be None: the union of the
            // values, which may be None
            let y = match y {
                Optional(inner) => &**inner,
                None_ => &**x,
                other => other,
            };
            let u = self.union(x, y)?;
            return u.noneable().ok_or_else(|| UnionError {
                message: format!("cannot unite {} and {}", describe(a), describe(b)),
            });
        }
        if let Some(r) = model::union_simple(a, b) {
            return r;
        }
        Ok(match (a, b) {
            (
                Bool {
                    konst: c1,
                    knowntypedata: Some(k1),
                },
                Bool {
                    konst: c2,
                    knowntypedata: Some(k2),
                },
            ) => {
                // facts about a variable known on both sides hold for the
                // union, generalised (PyPy's merge_knowntypedata)
                let mut facts = Vec::new();
                for (v, t1, f1) in &k1.facts {
                    if let Some((_, t2, f2)) = k2.facts.iter().find(|(w, _, _)| w == v) {
                        let t = match (t1, t2) {
                            (Some(a), Some(b)) => Some(self.union(a, b)?),
                            _ => None,
                        };
                        let f = match (f1, f2) {
                            (Some(a), Some(b)) => Some(self.union(a, b)?),
                            _ => None,
                        };
                        if t.is_some() || f.is_some() {
                            facts.push((*v, t, f));
                        }
                    }
                }
                Bool {
                    konst: if c1 == c2 { *c1 } else { None },
                    knowntypedata: if facts.is_empty() {
                        None
                    } else {
                        Some(Arc::new(model::KnownTypeData { facts }))
                    },
                }
            }
            (Tuple(x) | TupleOrNone(x), Tuple(y) | TupleOrNone(y)) => {
                let nullable = matches!(a, TupleOrNone(_)) || matches!(b, TupleOrNone(_));
                if x.len() != y.len() {
                    // one variable holds tuples of several lengths: a
                    // tuple whose length is only known at run time
                    let id = self.var_tuple(x.iter().chain(y.iter()))?;
                    if nullable {
                        self.make_nullable(id);
                    }
                    return Ok(List(id));
                }
                let mut items = Vec::with_capacity(x.len());
                for (p, q) in x.iter().zip(y) {
                    items.push(self.union(p, q)?);
                }
                if nullable {
                    TupleOrNone(items)
                } else {
                    Tuple(items)
                }
            }
            (List(x), List(y)) => List(self.merge_itemdefs(*x, *y)?),
            (Tuple(items) | TupleOrNone(items), List(id))
            | (List(id), Tuple(items) | TupleOrNone(items))
                if self.itemdefs.get(*id).tuple =>
            {
                // a tuple of known length joining tuples of any length
                let fixed = self.var_tuple(items.iter())?;
                let id = self.merge_itemdefs(*id, fixed)?;
                if matches!(a, TupleOrNone(_)) || matches!(b, TupleOrNone(_)) {
                    self.make_nullable(id);
                }
                List(id)
            }
            (Dict(x), Dict(y)) => Dict(self.merge_itemdefs(*x, *y)?),
            (Set(x), Set(y)) => Set(self.merge_itemdefs(*x, *y)?),
            (Generator(x), Generator(y)) => Generator(self.merge_itemdefs(*x, *y)?),
            (
                Instance {
                    classdef: c1,
                    can_be_none: n1,
                },
                Instance {
                    classdef: c2,
                    can_be_none: n2,
                },
            ) => match self.common_base(*c1, *c2) {
                Some(c) => Instance {
                    classdef: c,
                    can_be_none: *n1 || *n2,
                },
                None => Instance {
                    classdef: self.unite_roots(*c1, *c2)?,
                    can_be_none: *n1 || *n2,
                },
            },
            (Type { classdef: c1, .. }, Type { classdef: c2, .. }) => {
                let c = match (c1, c2) {
                    (Some(x), Some(y)) => self.common_base(*x, *y),
                    _ => None,
                };
                Type {
                    classdef: c,
                    konst: None,
                }
            }
            (
                Iterator {
                    over: o1,
                    variant: v1,
                },
                Iterator {
                    over: o2,
                    variant: v2,
                },
            ) if v1 == v2 => {
                let over = self.union(o1, o2)?;
                Iterator {
                    over: Box::new(over),
                    variant: *v1,
                }
            }
            (
                Builtin {
                    name: n1,
                    s_self: Some(s1),
                },
                Builtin {
                    name: n2,
                    s_self: Some(s2),
                },
            ) if n1 == n2 => {
                let s = self.union(s1, s2)?;
                Builtin {
                    name: n1,
                    s_self: Some(Box::new(s)),
                }
            }
            _ => {
                return Err(UnionError {
                    message: format!("cannot unite {} and {}", describe(a), describe(b)),
                })
            }
        })
    }

    /// Merges the methods of a PBC set that bind one function to
    /// different classes into one method bound to their common base
    /// (PyPy's `MethodDesc.simplify_desc_set`), so the set does not depend
    /// on which classes the receiver had on the way to the fixpoint.
    pub fn simplify_methods(&mut self, descs: BTreeSet<DescId>) -> BTreeSet<DescId> {
        let mut groups: HashMap<DescId, Vec<(DescId, ClassDefId)>> = HashMap::new();
        for &d in &descs {
            if let Desc::Method {
                func, selfclassdef, ..
            } = &self.descs[d]
            {
                groups.entry(*func).or_default().push((d, *selfclassdef));
            }
        }
        let mut out = descs;
        for (func, members) in groups {
            if members.len() < 2 {
                continue;
            }
            // merge the members that share a common base
            let mut base = members[0].1;
            let mut ok = true;
            for &(_, c) in &members[1..] {
                match self.common_base(base, c) {
                    Some(b) => base = b,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                continue;
            }
            let name = match &self.descs[members[0].0] {
                Desc::Method { name, .. } => name.clone(),
                _ => String::new(),
            };
            for (d, _) in &members {
                out.remove(d);
            }
            out.insert(self.method_desc_for(func, base, &name));
        }
        out
    }

    /// The method description binding the function description `func` to
    /// instances of `selfclassdef`.
    pub fn method_desc_for(
        &mut self,
        func: DescId,
        selfclassdef: ClassDefId,
        name: &str,
    ) -> DescId {
        for (id, d) in self.descs.iter() {
            if let Desc::Method {
                func: f,
                selfclassdef: s,
                ..
            } = d
            {
                if *f == func && *s == selfclassdef {
                    return id;
                }
            }
        }
        self.descs.push(Desc::Method {
            func,
            selfclassdef,
            name: name.to_string(),
        })
    }

    fn union_classes_with_type(
        &mut self,
        descs: &BTreeSet<DescId>,
        classdef: Option<ClassDefId>,
    ) -> Result<SomeValue, UnionError> {
        let mut result = classdef;
        for d in descs {
            let Desc::Class { cls, .. } = &self.descs[*d] else {
                return Err(UnionError {
                    message: "cannot unite a class and a prebuilt constant that is not a class"
                        .into(),
                });
            };
            let cls = cls.clone();
            let cdef = Python::attach(|py| self.getclassdef(py, cls.bind(py)))
                .map_err(|e| UnionError { message: e.message })?;
            result = match result {
                Some(r) => self.common_base(r, cdef),
                None => None,
            };
            if result.is_none() {
                break;
            }
        }
        Ok(SomeValue::Type {
            classdef: result,
            konst: None,
        })
    }

    /// Merges two container definitions, reflowing the readers of a side
    /// whose items generalised.
    pub fn merge_itemdefs(&mut self, a: ItemDefId, b: ItemDefId) -> Result<ItemDefId, UnionError> {
        let (ra, rb) = (self.itemdefs.find(a), self.itemdefs.find(b));
        if ra == rb {
            return Ok(ra);
        }
        let (da, db) = (self.itemdefs.get(ra).clone(), self.itemdefs.get(rb).clone());
        if da.kind != db.kind {
            return Err(UnionError {
                message: "containers of different kinds".into(),
            });
        }
        // a defaultdict (deque) behaves unlike a dict (list): one variable
        // cannot hold both
        if da.default_missing != db.default_missing {
            return Err(UnionError {
                message: match (&da.default_missing, &db.default_missing) {
                    (Some(_), Some(_)) => {
                        "defaultdicts with different default factories in one variable".into()
                    }
                    _ => "a defaultdict and a dict in one variable (a missing key is filled \
                          in one, an error in the other)"
                        .into(),
                },
            });
        }
        if da.tuple != db.tuple {
            return Err(UnionError {
                message: "a tuple and a list in one variable".into(),
            });
        }
        if da.maxlen != db.maxlen {
            return Err(UnionError {
                message: "deques of different maxlen in one variable".into(),
            });
        }
        if da.ordered != db.ordered {
            return Err(UnionError {
                message: "an OrderedDict and a dict in one variable (they show differently)"
                    .into(),
            });
        }
        if da.counter != db.counter {
            return Err(UnionError {
                message: "a Counter and a dict in one variable (they show differently)".into(),
            });
        }
        if da.deque != db.deque {
            return Err(UnionError {
                message: "a deque and a list in one variable (they show differently)".into(),
            });
        }
        let item = self.union(&da.item, &db.item)?;
        let value = self.union(&da.value, &db.value)?;
        let (ra, rb) = (self.itemdefs.find(ra), self.itemdefs.find(rb));
        if ra == rb {
            return Ok(ra);
        }
        let nullable = da.can_be_none || db.can_be_none;
        let a_changed = item != da.item || value != da.value || nullable != da.can_be_none;
        let b_changed = item != db.item || value != db.value || nullable != db.can_be_none;
        let mut readers = Vec::new();
        if a_changed {
            readers.extend(da.readers.iter().copied());
        }
        if b_changed {
            readers.extend(db.readers.iter().copied());
        }
        self.itemdefs.link(ra, rb);
        let d = self.itemdefs.get_mut(ra);
        d.item = item;
        d.value = value;
        for r in readers {
            self.reflow(r);
        }
        Ok(ra)
    }

    /// A new tuple whose length is known only at run time, holding items
    /// of the union of `items` (refused when a bool would become an int or
    /// an int a float, as CPython keeps each item's type).
    pub fn var_tuple<'a>(
        &mut self,
        items: impl Iterator<Item = &'a SomeValue>,
    ) -> Result<ItemDefId, UnionError> {
        let items: Vec<SomeValue> = items.map(|i| i.without_const()).collect();
        let mut item = SomeValue::Impossible;
        for i in &items {
            item = self.union(&item, i)?;
        }
        for i in &items {
            if let Some(m) = rules::containers::number_kind_change(i, &item) {
                return Err(UnionError {
                    message: format!("tuples of different lengths with {m}"),
                });
            }
        }
        let id = self.new_container(ItemKind::List, item, SomeValue::Impossible);
        self.itemdefs.get_mut(id).tuple = true;
        Ok(id)
    }

    /// Whether `s` is a tuple whose length is known only at run time.
    pub fn is_var_tuple(&self, s: &SomeValue) -> bool {
        matches!(s, SomeValue::List(id) if self.itemdefs.get(*id).tuple)
    }

    /// Marks a container definition as possibly None, reflowing the blocks
    /// that read it (an `is None` test decided too early).
    pub fn make_nullable(&mut self, id: ItemDefId) {
        let d = self.itemdefs.get_mut(id);
        if d.can_be_none {
            return;
        }
        d.can_be_none = true;
        let readers: Vec<Position> = d.readers.iter().copied().collect();
        for r in readers {
            self.reflow(r);
        }
    }

    /// Whether a container definition may be None (the current block is
    /// reflowed if that changes).
    pub fn container_can_be_none(&mut self, id: ItemDefId) -> bool {
        self.read_item(id);
        self.itemdefs.get(id).can_be_none
    }

    /// Instances as dict keys or set items: hashed and compared by
    /// identity, or through their class's `__hash__` and `__eq__` when it
    /// defines them (Python's rules: a class defining `__eq__` without
    /// `__hash__` is unhashable).  Refused when only some subclasses define
    /// them, since the keys' class then hashes some instances one way and
    /// some the other.
    pub(crate) fn check_hashable_key(
        &self,
        py: Python<'_>,
        item: &SomeValue,
    ) -> Result<(), AnnotatorError> {
        let classdef = match item {
            SomeValue::Instance { classdef, .. } => classdef,
            SomeValue::List(id) => {
                let d = self.itemdefs.get(*id);
                if !d.tuple {
                    let what = if d.bytearray {
                        "bytearray"
                    } else if d.deque {
                        "deque"
                    } else {
                        "list"
                    };
                    return Err(self.error(format!(
                        "unhashable type: '{what}' (a dict key or set item must be hashable)"
                    )));
                }
                let inner = d.item.clone();
                return self.check_hashable_key(py, &inner);
            }
            SomeValue::Tuple(items) | SomeValue::TupleOrNone(items) => {
                for i in items {
                    self.check_hashable_key(py, i)?;
                }
                return Ok(());
            }
            SomeValue::Dict(_) => {
                return Err(
                    self.error("unhashable type: 'dict' (a dict key or set item must be hashable)")
                )
            }
            SomeValue::Optional(inner) => {
                return Err(self.error(format!(
                    "a dict key or set item that is {} or None (not supported: test for None \
                     first)",
                    describe(inner)
                )))
            }
            _ => return Ok(()),
        };
        let hash = rules::special::defines(self, py, *classdef, "__hash__");
        let eq = rules::special::defines(self, py, *classdef, "__eq__");
        if hash {
            return Ok(());
        }
        if eq || rules::special::hash_is_none(self, py, *classdef) {
            return Err(self.error(format!(
                "instances of {} are unhashable (the class defines __eq__ but not __hash__) \
                 and cannot be dict keys or set items",
                self.classdefs[*classdef].name
            )));
        }
        self.refuse_special_methods(
            py,
            item,
            &["__hash__", "__eq__"],
            "hashing (as dict keys or set items)",
        )
    }

    /// Whether `c` is an exception class.
    pub fn is_exception_classdef(&self, py: Python<'_>, c: ClassDefId) -> bool {
        let base = py.get_type::<pyo3::exceptions::PyBaseException>();
        self.classdefs[c]
            .cls
            .bind(py)
            .cast::<pyo3::types::PyType>()
            .is_ok_and(|t| t.is_subclass(&base).unwrap_or(false))
    }

    /// Instances of two classes without a common base meet (duck typing,
    /// a `match` over unrelated classes): `object` becomes the base of
    /// both hierarchies, as it is in Python, and the instances are known
    /// as `object` instances from then on.  Classes that never meet keep
    /// no such base.
    fn unite_roots(&mut self, a: ClassDefId, b: ClassDefId) -> Result<ClassDefId, UnionError> {
        let root = |ann: &Annotator, mut c: ClassDefId| {
            while let Some(x) = ann.classdefs[c].base {
                c = x;
            }
            c
        };
        let object = Python::attach(|py| -> Result<ClassDefId, UnionError> {
            let obj = py.get_type::<pyo3::types::PyAny>();
            let key = PyObj::new(obj.as_any());
            if let Some(&c) = self.classdef_of.get(&key) {
                return Ok(c);
            }
            let id = self.classdefs.push(ClassDef {
                cls: key.clone(),
                name: "object".to_string(),
                base: None,
                subdefs: Vec::new(),
                attrs: HashMap::new(),
                method_readers: BTreeSet::new(),
            });
            self.classdef_of.insert(key, id);
            Ok(id)
        })?;
        for c in [root(self, a), root(self, b)] {
            if c != object {
                self.classdefs[c].base = Some(object);
                self.classdefs[object].subdefs.push(c);
            }
        }
        Ok(object)
    }

    /// Whether instances of the exception class `c` show the text of their
    /// arguments as `str()` (BaseException's and KeyError's `__str__`, or
    /// the program's own); built-in exceptions with a `__str__` of their
    /// own (UnicodeDecodeError, OSError...) keep no text.
    pub fn exception_keeps_message(&self, py: Python<'_>, c: ClassDefId) -> bool {
        let cls = self.classdefs[c].cls.bind(py).clone();
        let Ok(method) = cls.getattr("__str__") else {
            return false;
        };
        if method.is_instance_of::<pyo3::types::PyFunction>() {
            return true;
        }
        // AttributeError's, NameError's, SyntaxError's and OSError's own
        // __str__ give the text of a single argument as BaseException's
        // does (the rtyper refuses a SyntaxError or OSError made with more)
        ["BaseException", "KeyError", "AttributeError", "NameError", "SyntaxError", "OSError"]
            .iter()
            .any(|name| {
            py.import("builtins")
                .and_then(|b| b.getattr(*name)?.getattr("__str__"))
                .is_ok_and(|m| m.is(&method))
        })
    }

    /// Whether `c` is a number class of rpy3's own (`_rpy3_number_`, as
    /// `rpy3.stdlib.complexnum.Complex`), which ints, floats and bools
    /// convert to.
    pub fn is_number_class(&self, c: ClassDefId) -> bool {
        Python::attach(|py| {
            self.classdefs[c]
                .cls
                .bind(py)
                .getattr("_rpy3_number_")
                .and_then(|v| v.is_truthy())
                .unwrap_or(false)
        })
    }

    /// Some exception is made with arguments: exceptions keep the text of
    /// their arguments (what `str(e)` gives) in the attribute
    /// [`EXC_MESSAGE_ATTR`] of `BaseException`, None when they have none.
    pub fn note_exception_message(&mut self, py: Python<'_>) -> Result<(), AnnotatorError> {
        let base = py.get_type::<pyo3::exceptions::PyBaseException>();
        let c = self.getclassdef(py, base.as_any())?;
        let s = SomeValue::str().noneable().expect("a str may be None");
        self.set_attr(py, c, EXC_MESSAGE_ATTR, &s)
    }

    /// The text of an instance known as exception class `c` is shown:
    /// its message is kept, and where subclasses define a `__str__` that
    /// `c` lacks, a dispatcher calling theirs (else giving the message) is
    /// annotated for the rtyper (`exception_str_dispatchers`), read again
    /// when a new subclass appears.
    pub fn note_exception_text(&mut self, py: Python<'_>, c: ClassDefId) -> Result<(), AnnotatorError> {
        if self.exception_keeps_message(py, c) {
            self.note_exception_message(py)?;
        }
        if rules::special::defines(self, py, c, "__str__") {
            return Ok(());
        }
        if let Some(pos) = self.current_position() {
            self.classdefs[c].method_readers.insert((pos.0, pos.1));
        }
        // the subclasses defining __str__ first below `c`
        let own = |ann: &Annotator, k: ClassDefId| {
            ann.classdefs[k]
                .cls
                .bind(py)
                .getattr("__dict__")
                .and_then(|d| d.get_item("__str__"))
                .is_ok_and(|m| m.is_instance_of::<pyo3::types::PyFunction>())
        };
        let mut tops = Vec::new();
        for k in self.subtree(c) {
            if k == c || !own(self, k) {
                continue;
            }
            let mut b = self.classdefs[k].base;
            let mut shadowed = false;
            while let Some(x) = b {
                if x == c {
                    break;
                }
                if own(self, x) {
                    shadowed = true;
                    break;
                }
                b = self.classdefs[x].base;
            }
            if !shadowed {
                tops.push(self.classdefs[k].cls.clone());
            }
        }
        if tops.is_empty() {
            self.exception_str_dispatchers.remove(&c);
            return Ok(());
        }
        let classes = pyo3::types::PyTuple::new(py, tops.iter().map(|k| k.bind(py)))
            .map_err(|e| self.error(format!("{e}")))?;
        let keeps = self.exception_keeps_message(py, c);
        let f = py
            .import("rpy3._defaults")
            .and_then(|m| m.getattr("exception_str_dispatcher")?.call1((classes, keeps)))
            .map_err(|e| self.error(format!("rpy3._defaults: {e}")))?;
        let s_f = self.immutablevalue(py, &f)?;
        let s_inst = SomeValue::Instance {
            classdef: c,
            can_be_none: false,
        };
        rules::call(self, py, &s_f, crate::description::CallArgs::positional(vec![s_inst]))?;
        self.exception_str_dispatchers.insert(c, PyObj::new(&f));
        Ok(())
    }

    /// Whether instances of `c` (or of a subclass) show through a
    /// `__repr__` (for `repr()`), or a `__str__` or `__repr__` (for
    /// `str()`), of the program's.
    pub fn shows_specially(&self, py: Python<'_>, c: ClassDefId, repr: bool) -> bool {
        self.subtree(c).into_iter().any(|k| {
            (!repr && rules::special::defines(self, py, k, "__str__"))
                || rules::special::defines(self, py, k, "__repr__")
        })
    }

    /// Whether instances of `c` (or of a subclass) compare through an
    /// `__eq__` of the program's.
    pub fn compares_specially(&self, py: Python<'_>, c: ClassDefId) -> bool {
        self.subtree(c)
            .into_iter()
            .any(|k| rules::special::defines(self, py, k, "__eq__"))
    }

    /// `repr()` of some exception is taken: exceptions keep their class's
    /// name and the reprs of their arguments ([`EXC_NAME_ATTR`],
    /// [`EXC_ARGS_ATTR`] of `BaseException`, None when not set).
    pub fn note_exception_repr(&mut self, py: Python<'_>) -> Result<(), AnnotatorError> {
        let base = py.get_type::<pyo3::exceptions::PyBaseException>();
        let c = self.getclassdef(py, base.as_any())?;
        let s = SomeValue::str().noneable().expect("a str may be None");
        self.set_attr(py, c, EXC_NAME_ATTR, &s)?;
        self.set_attr(py, c, EXC_ARGS_ATTR, &s)
    }

    /// Whether instances of `c` hash through their class's `__hash__`
    /// (dict keys and set items of that class use it and `__eq__`).
    pub fn hashes_specially(&self, py: Python<'_>, c: ClassDefId) -> bool {
        rules::special::defines(self, py, c, "__hash__")
    }

    /// Generalises the item (and value) of a container definition.
    pub fn generalize_item(
        &mut self,
        id: ItemDefId,
        item: &SomeValue,
        value: &SomeValue,
    ) -> Result<(), AnnotatorError> {
        let d = self.itemdefs.get(id).clone();
        let new_item = self
            .union(&d.item, item)
            .map_err(|e| self.union_error(e, "storing an item into a container"))?;
        if matches!(d.kind, ItemKind::Dict | ItemKind::Set) && d.custom.is_none() {
            // the keys' common class decides how all of them hash
            Python::attach(|py| {
                self.check_hashable_key(py, item)?;
                self.check_hashable_key(py, &new_item)
            })?;
        }
        let new_value = self
            .union(&d.value, value)
            .map_err(|e| self.union_error(e, "storing a value into a dict"))?;
        let new_item = self.normalize(&new_item);
        let new_value = self.normalize(&new_value);
        let d = self.itemdefs.get_mut(id);
        if new_item != d.item || new_value != d.value {
            let key_changed = new_item != d.item;
            d.item = new_item.clone();
            d.value = new_value;
            let custom = d.custom.clone();
            let readers: Vec<Position> = d.readers.iter().copied().collect();
            for r in readers {
                self.reflow(r);
            }
            if let (Some((eq, hash)), true) = (custom, key_changed) {
                // an r_dict calls its functions on the keys
                Python::attach(|py| -> Result<(), AnnotatorError> {
                    let k = new_item.clone();
                    let args = description::CallArgs::positional(vec![k.clone(), k.clone()]);
                    rules::call(self, py, &eq, args)?;
                    let h =
                        rules::call(self, py, &hash, description::CallArgs::positional(vec![k]))?;
                    if !matches!(h, SomeValue::Integer { .. } | SomeValue::Impossible) {
                        return Err(self.error(format!(
                            "the key hash function of an r_dict returns {}",
                            crate::describe(&h)
                        )));
                    }
                    Ok(())
                })?;
            }
        }
        Ok(())
    }

    /// The item (and value) annotations of a container, registering the
    /// current block as a reader.
    pub fn read_item(&mut self, id: ItemDefId) -> (SomeValue, SomeValue) {
        if let Some((pos, _)) = self.current {
            self.itemdefs.get_mut(id).readers.insert(pos);
        }
        let d = self.itemdefs.get(id);
        (d.item.clone(), d.value.clone())
    }

    /// A new container definition.
    pub fn new_container(
        &mut self,
        kind: ItemKind,
        item: SomeValue,
        value: SomeValue,
    ) -> ItemDefId {
        self.itemdefs.new_def(kind, item, value)
    }

    /// Replaces container ids by their representatives, so equal
    /// annotations compare equal.
    pub fn normalize(&self, s: &SomeValue) -> SomeValue {
        use SomeValue::*;
        match s {
            List(i) => List(self.itemdefs.find(*i)),
            Dict(i) => Dict(self.itemdefs.find(*i)),
            Set(i) => Set(self.itemdefs.find(*i)),
            Generator(i) => Generator(self.itemdefs.find(*i)),
            Tuple(items) => Tuple(items.iter().map(|x| self.normalize(x)).collect()),
            TupleOrNone(items) => TupleOrNone(items.iter().map(|x| self.normalize(x)).collect()),
            Optional(inner) => Optional(Box::new(self.normalize(inner))),
            Iterator { over, variant } => Iterator {
                over: Box::new(self.normalize(over)),
                variant: *variant,
            },
            Builtin {
                name,
                s_self: Some(s),
            } => Builtin {
                name,
                s_self: Some(Box::new(self.normalize(s))),
            },
            other => other.clone(),
        }
    }

    // ----- the fixpoint -----------------------------------------------------

    /// Schedules a block to be (re)flowed.
    pub fn reflow(&mut self, pos: Position) {
        if self.in_pending.insert(pos) {
            self.pending.push_back(pos);
        }
    }

    fn next_pending(&mut self) -> Option<Position> {
        let pos = match self.order {
            Order::Fifo => self.pending.pop_front()?,
            Order::Shuffled(_) => {
                if self.pending.is_empty() {
                    return None;
                }
                self.rng ^= self.rng << 13;
                self.rng ^= self.rng >> 7;
                self.rng ^= self.rng << 17;
                let i = (self.rng % self.pending.len() as u64) as usize;
                self.pending.remove(i)?
            }
        };
        self.in_pending.remove(&pos);
        Some(pos)
    }

    /// Merges `cells` into the input arguments of `block` and schedules it
    /// if anything generalised (or it was never flowed).
    pub fn addpendingblock(
        &mut self,
        graph: GraphId,
        block: BlockId,
        cells: Vec<SomeValue>,
    ) -> Result<(), AnnotatorError> {
        let inputargs = self.graphs[graph].graph.blocks[block].inputargs.clone();
        if inputargs.len() != cells.len() {
            return Err(self.error("internal error: wrong number of values for a block"));
        }
        let mut changed = false;
        for (v, cell) in inputargs.iter().zip(cells) {
            if self.setbinding(graph, *v, &cell)? {
                changed = true;
            }
        }
        let g = &self.graphs[graph].graph;
        if block == g.returnblock {
            if changed {
                let callers: Vec<Position> = self
                    .notify
                    .get(&graph)
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default();
                for c in callers {
                    self.reflow(c);
                }
            }
            return Ok(());
        }
        if block == g.exceptblock {
            return Ok(());
        }
        if changed || !self.annotated.contains(&(graph, block)) {
            self.reflow((graph, block));
        }
        Ok(())
    }

    /// What merging values into `v` means, for error messages.
    fn merge_context(&self, graph: GraphId, v: VarId) -> String {
        let g = &self.graphs[graph].graph;
        let name = g.vars[v].name_hint.clone();
        let func = &g.source.qualname;
        if g.blocks[g.returnblock].inputargs.contains(&v) {
            return format!("merging the values returned by '{func}'");
        }
        if g.blocks[g.startblock].inputargs.contains(&v) {
            return format!("merging the argument '{name}' of the calls to '{func}'");
        }
        let block = g
            .iterblocks()
            .into_iter()
            .find(|&b| g.blocks[b].inputargs.contains(&v));
        let line = block
            .map(|b| g.block_lineno(b))
            .unwrap_or(g.source.firstlineno);
        if name.is_empty() {
            format!("merging the values that reach line {line} of '{func}'")
        } else {
            format!("merging the values of '{name}' that reach line {line} of '{func}'")
        }
    }

    /// Generalises the binding of `v` with `s`; true if it changed.
    fn setbinding(
        &mut self,
        graph: GraphId,
        v: VarId,
        s: &SomeValue,
    ) -> Result<bool, AnnotatorError> {
        let old = self.graphs[graph].bindings[v].clone();
        let new = match &old {
            None => s.clone(),
            Some(o) => {
                let what = self.merge_context(graph, v);
                self.union(o, s).map_err(|e| self.union_error(e, &what))?
            }
        };
        let new = self.normalize(&new);
        let old_norm = old.as_ref().map(|o| self.normalize(o));
        if old_norm.as_ref() == Some(&new) {
            return Ok(false);
        }
        if let Some(cb) = self.on_bind.as_mut() {
            cb(
                graph,
                v,
                old_norm.as_ref().unwrap_or(&SomeValue::Impossible),
                &new,
            );
        }
        self.graphs[graph].bindings[v] = Some(new);
        Ok(true)
    }

    /// Binds the result of an operation recomputed from (more general)
    /// arguments: the new annotation replaces the old one when it contains
    /// it, so facts that depend on the arguments (narrowing data) are
    /// those of the latest computation, whatever the order of reflows.
    fn setresult(
        &mut self,
        graph: GraphId,
        v: VarId,
        s: &SomeValue,
    ) -> Result<bool, AnnotatorError> {
        let Some(old) = self.graphs[graph].bindings[v].clone() else {
            return self.setbinding(graph, v, s);
        };
        let joined = self
            .union(&old, s)
            .map_err(|e| self.union_error(e, "recomputing the result of an operation"))?;
        let strip = |x: &SomeValue| match x {
            SomeValue::Bool { konst, .. } => SomeValue::Bool {
                konst: *konst,
                knowntypedata: None,
            },
            other => other.clone(),
        };
        let new = if self.normalize(&strip(&joined)) == self.normalize(&strip(s)) {
            s.clone()
        } else {
            joined
        };
        let new = self.normalize(&new);
        if self.normalize(&old) == new {
            return Ok(false);
        }
        if let Some(cb) = self.on_bind.as_mut() {
            cb(graph, v, &old, &new);
        }
        self.graphs[graph].bindings[v] = Some(new);
        Ok(true)
    }

    /// Flows pending blocks until none is left.
    ///
    /// An error in a block does not stop the fixpoint: the block may have
    /// seen values that were still incomplete (the result of a call whose
    /// other returns were not reached yet looks like None).  As in PyPy,
    /// errors are reported once nothing is pending and the blocks that
    /// failed still fail when flowed again; the first of them (in the order
    /// they failed) is the error.
    pub fn complete(&mut self, py: Python<'_>) -> Result<(), AnnotatorError> {
        // rounds of re-checking (each one made progress: a bound on the
        // unforeseen, where failing blocks would keep rescheduling work)
        let mut rounds = 0usize;
        loop {
            while let Some(pos) = self.next_pending() {
                self.annotated.insert(pos);
                self.blocks_flowed += 1;
                self.flow_recording(py, pos);
            }
            if self.errored.is_empty() {
                break;
            }
            // the fixpoint: flow the failed blocks again on final values
            let failed: Vec<Position> = self.errored.iter().map(|(p, _)| *p).collect();
            for pos in failed {
                self.blocks_flowed += 1;
                self.flow_recording(py, pos);
            }
            rounds += 1;
            if self.pending.is_empty() || rounds > 10_000 {
                // nothing changed: the failures are real
                if let Some((_, e)) = self.errored.first() {
                    let e = e.clone();
                    self.errored.clear();
                    self.current = None;
                    return Err(e);
                }
            }
        }
        self.current = None;
        self.check_unset_attrs(py)
    }

    /// Flows a block, keeping its error (if any) for the end of the
    /// fixpoint.
    fn flow_recording(&mut self, py: Python<'_>, pos: Position) {
        match self.flowin(py, pos.0, pos.1) {
            Ok(()) => self.errored.retain(|(p, _)| *p != pos),
            Err(e) => match self.errored.iter_mut().find(|(p, _)| *p == pos) {
                Some(slot) => slot.1 = e,
                None => self.errored.push((pos, e)),
            },
        }
    }

    fn flowin(
        &mut self,
        py: Python<'_>,
        graph: GraphId,
        block: BlockId,
    ) -> Result<(), AnnotatorError> {
        let g = self.graphs[graph].graph.clone();
        let b = &g.blocks[block];
        let nops = b.operations.len();
        let mut last_raised = false;
        for (i, op) in b.operations.iter().enumerate() {
            self.current = Some(((graph, block), op.lineno));
            self.current_op = i;
            let mut args = Vec::with_capacity(op.args.len());
            for a in &op.args {
                let s = self.annotation_of(py, graph, a)?;
                if s.is_impossible() {
                    return Ok(()); // blocked until the argument is known
                }
                args.push(s);
            }
            let result = rules::consider_op(self, py, graph, op, &args)?;
            if result.is_impossible() {
                // (a call, or an operation calling a special method or a
                // property)
                let is_call = matches!(
                    op.opname,
                    rpy3_model::OpName::SimpleCall
                        | rpy3_model::OpName::CallArgs
                        | rpy3_model::OpName::Next
                ) || self.special_calls.contains_key(&(graph, block, i));
                if is_call {
                    // A call that does not return (yet): the rest of the
                    // block is dead until it does.  Its results are
                    // annotated as having no value (PyPy leaves them
                    // unbound), so a value showing up there is caught.
                    for later in &b.operations[i..] {
                        if self.graphs[graph].bindings[later.result].is_none() {
                            self.setbinding(graph, later.result, &SomeValue::Impossible)?;
                        }
                    }
                }
                if i + 1 == nops && b.exitswitch == ExitSwitch::LastException {
                    // the operation always raises: only exception exits
                    last_raised = true;
                    break;
                }
                return Ok(()); // blocked (e.g. a call whose result is not known yet)
            }
            self.setresult(graph, op.result, &result)?;
        }
        self.follow_exits(py, graph, block, last_raised)
    }

    fn follow_exits(
        &mut self,
        py: Python<'_>,
        graph: GraphId,
        block: BlockId,
        last_raised: bool,
    ) -> Result<(), AnnotatorError> {
        let g = self.graphs[graph].graph.clone();
        let b = &g.blocks[block];
        match &b.exitswitch {
            ExitSwitch::None => {
                for &l in &b.exits {
                    self.follow_link(py, graph, l, &HashMap::new())?;
                }
            }
            ExitSwitch::Value(h) => {
                let s = self.annotation_of(py, graph, h)?;
                let (konst, facts) = match &s {
                    SomeValue::Bool {
                        konst,
                        knowntypedata,
                    } => (*konst, knowntypedata.clone()),
                    _ => (None, None),
                };
                for &l in &b.exits {
                    let link = &g.links[l];
                    let case = link
                        .exitcase
                        .as_ref()
                        .map(|c| c.value.bind(py).is_truthy().unwrap_or(false));
                    if let (Some(k), Some(c)) = (konst, case) {
                        if k != c {
                            continue;
                        }
                    }
                    let mut narrow = HashMap::new();
                    if let (Some(facts), Some(c)) = (&facts, case) {
                        for (v, when_true, when_false) in &facts.facts {
                            let n = if c { when_true } else { when_false };
                            if let Some(n) = n {
                                narrow.insert(*v, n.clone());
                            }
                        }
                    }
                    self.follow_link(py, graph, l, &narrow)?;
                }
            }
            ExitSwitch::LastException => {
                for (i, &l) in b.exits.iter().enumerate() {
                    if i == 0 && last_raised {
                        continue;
                    }
                    self.follow_link(py, graph, l, &HashMap::new())?;
                }
            }
        }
        Ok(())
    }

    fn follow_link(
        &mut self,
        py: Python<'_>,
        graph: GraphId,
        l: rpy3_model::LinkId,
        narrow: &HashMap<VarId, SomeValue>,
    ) -> Result<(), AnnotatorError> {
        let g = self.graphs[graph].graph.clone();
        let link = &g.links[l];
        if let (Some((pos, _)), true) = (self.current, link.lineno != 0) {
            self.current = Some((pos, link.lineno));
        }
        let mut extra: HashMap<VarId, SomeValue> = HashMap::new();
        if let (Some(et), Some(ev), Some(case)) =
            (link.last_exception, link.last_exc_value, &link.exitcase)
        {
            let cls = case.value.bind(py).clone();
            let cdef = self.getclassdef(py, &cls)?;
            extra.insert(
                et,
                SomeValue::Type {
                    classdef: Some(cdef),
                    konst: None,
                },
            );
            extra.insert(
                ev,
                SomeValue::Instance {
                    classdef: cdef,
                    can_be_none: false,
                },
            );
        }
        let inputs: &[VarId] = match link.prevblock {
            Some(b) => &g.blocks[b].inputargs,
            None => &[],
        };
        let mut cells = Vec::with_capacity(link.args.len());
        for a in &link.args {
            let s = match a {
                Hlvalue::Variable(v) => {
                    if let Some(s) = extra.get(v) {
                        s.clone()
                    } else if let Some(s) = narrow.get(v) {
                        // narrowing never widens: what the variable holds
                        // and what the test proved, both
                        let current = self.binding(graph, *v);
                        if current.is_impossible() {
                            s.clone()
                        } else {
                            self.meet(&current, s)
                        }
                    } else {
                        let s = self.binding(graph, *v);
                        if s.is_impossible() && inputs.contains(v) {
                            // an input of the block with no value: a local
                            // not assigned yet on this path (see below),
                            // passed on
                            cells.push(s);
                            continue;
                        }
                        s
                    }
                }
                Hlvalue::Constant(c) if rpy3_flowspace::is_undefined_local(c.value.bind(py)) => {
                    // a local this path does not assign: the link is taken,
                    // the variable gets its annotation from other paths
                    cells.push(SomeValue::Impossible);
                    continue;
                }
                Hlvalue::Constant(c) => self.immutablevalue(py, c.value.bind(py))?,
            };
            if s.is_impossible() {
                return Ok(()); // a value that cannot exist: the link is not taken
            }
            cells.push(s);
        }
        self.links_followed.insert((graph, l));
        self.addpendingblock(graph, link.target, cells)
    }

    /// Registers the current block as a caller of `callee`, to be reflowed
    /// when its return annotation generalises.
    pub fn note_caller(&mut self, callee: GraphId) {
        if let Some((pos, _)) = self.current {
            self.notify.entry(callee).or_default().insert(pos);
        }
    }

    /// The variable whose class `t` holds, if `t` is known to hold
    /// exactly the class of another variable of its block.
    pub fn typeof_var(&mut self, graph: GraphId, t: VarId) -> Option<VarId> {
        if !self.typeof_rel.contains_key(&graph) {
            let rel = compute_typeof(&self.graphs[graph].graph);
            self.typeof_rel.insert(graph, Arc::new(rel));
        }
        self.typeof_rel[&graph].get(&t).copied()
    }

    /// Number of container definitions created.
    pub fn itemdefs_len(&self) -> usize {
        self.itemdefs.len()
    }

    /// The description already made for a Python object, if any.
    pub fn lookup_desc(&self, obj: &PyObj) -> Option<DescId> {
        self.desc_of.get(obj).copied()
    }

    /// Whether `block` of `graph` was ever flowed (reached).
    pub fn is_annotated(&self, graph: GraphId, block: BlockId) -> bool {
        self.annotated.contains(&(graph, block))
    }

    /// Whether the fixpoint ever followed link `l` of `graph`.
    pub fn is_link_followed(&self, graph: GraphId, l: rpy3_model::LinkId) -> bool {
        self.links_followed.contains(&(graph, l))
    }

    /// The current block, if flowing.
    pub fn position(&self) -> Option<Position> {
        self.current.map(|(p, _)| p)
    }

    /// Every variable of every annotated graph whose annotation is still
    /// missing although its block was flowed (a fully annotated program has
    /// none).
    pub fn unannotated(&self) -> Vec<(GraphId, VarId)> {
        let mut out = Vec::new();
        for (gid, ag) in self.graphs.iter() {
            for b in ag.graph.iterblocks() {
                if !self.annotated.contains(&(gid, b)) {
                    continue;
                }
                for v in ag.graph.blocks[b].getvariables() {
                    if ag.bindings[v].is_none() {
                        out.push((gid, v));
                    }
                }
            }
        }
        out
    }
}

/// Which variables hold the class of which other variable of the same
/// block: results of `type(x)`, and block input arguments that receive, on
/// every incoming link, a class and the value it is the class of (an
/// exception's `last_exception` and `last_exc_value`, passed on together).
fn compute_typeof(g: &FunctionGraph) -> HashMap<VarId, VarId> {
    let mut rel: HashMap<VarId, VarId> = HashMap::new();
    for b in g.iterblocks() {
        for op in &g.blocks[b].operations {
            if op.opname == rpy3_model::OpName::Type {
                if let Some(x) = op.args[0].as_var() {
                    rel.insert(op.result, x);
                }
            }
        }
    }
    let mut incoming: HashMap<BlockId, Vec<rpy3_model::LinkId>> = HashMap::new();
    for b in g.iterblocks() {
        for &l in &g.blocks[b].exits {
            incoming.entry(g.links[l].target).or_default().push(l);
        }
    }
    loop {
        let mut changed = false;
        for (&b, links) in &incoming {
            let inputargs = &g.blocks[b].inputargs;
            for (i, &t) in inputargs.iter().enumerate() {
                if rel.contains_key(&t) {
                    continue;
                }
                let mut cand: Option<usize> = None;
                let mut ok = true;
                for &l in links {
                    let link = &g.links[l];
                    let Some(Hlvalue::Variable(a)) = link.args.get(i) else {
                        ok = false;
                        break;
                    };
                    let val = if Some(*a) == link.last_exception {
                        link.last_exc_value
                    } else {
                        rel.get(a).copied()
                    };
                    let Some(val) = val else {
                        ok = false;
                        break;
                    };
                    let is_val = |j: usize| matches!(link.args.get(j), Some(Hlvalue::Variable(x)) if *x == val);
                    match cand {
                        None => match (0..link.args.len()).find(|&j| is_val(j)) {
                            Some(j) => cand = Some(j),
                            None => {
                                ok = false;
                                break;
                            }
                        },
                        Some(j) => {
                            if !is_val(j) {
                                ok = false;
                                break;
                            }
                        }
                    }
                }
                if let (true, Some(j)) = (ok, cand) {
                    rel.insert(t, inputargs[j]);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    rel
}
