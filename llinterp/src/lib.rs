//! The llinterp: executes the low-level graphs of an [`LlProgram`] on a
//! heap of lltype objects (PyPy's `rpython/rtyper/llinterp.py`).  It is the
//! oracle the compiled backends are held to.
//!
//! Loading ([`LlInterp::new`]) compiles every graph once into a compact
//! form — blocks as arrays of instructions over numbered registers (one per
//! variable, then one per constant), link moves and exits precomputed,
//! field names resolved to slot offsets, allocation templates built —
//! after the model's verifier of low-level graphs
//! ([`rpy3_model::llverify`], which owns the type rules: every operation
//! against its pattern in the table of [`rpy3_model::lloperation`]) has
//! accepted the program.  Running ([`LlInterp::call`]) touches no strings and no
//! Python objects: a loop over instructions with an explicit frame stack, so
//! deep recursion is an [`LlError::RecursionLimit`], never a stack overflow.
//!
//! Heap policy: the heap persists across [`LlInterp::call`]s, like the
//! memory of a running program (prebuilt objects mutated by one call are
//! seen by the next).  [`LlInterp::reset_heap`] restores the program's
//! prebuilt heap (shared objects, copied when first written); one-call-per-run users
//! (`interpret()`) call it before each call.  Objects allocated by calls
//! are collected (`store.rs`: a precise mark-and-sweep); what the harness
//! allocated ([`LlInterp::alloc`]) or was given (a call's pointer result,
//! a raised exception) stays alive until the heap is restored.

pub mod arith;
mod coalesce;
mod exec;
mod external;
mod load;
#[cfg(feature = "planted-bug")]
pub mod planted;
mod store;
pub mod world;

use std::fmt;

use pyo3::prelude::*;
use rpy3_model::lltype::{Heap, HeapObj, LlType, LlValue, Ptr};
use rpy3_model::program::{LlProgram, ObjectModel};

use load::CFunc;

/// The default limit on nested calls.
pub const DEFAULT_RECURSION_LIMIT: usize = 10_000;

/// What went wrong at run time, beyond a low-level exception.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// Dereferencing the null pointer.
    #[error("null pointer dereference ({0})")]
    Null(&'static str),
    /// A pointer to an object that does not exist, or a slot outside it.
    #[error("invalid pointer: {0}")]
    BadPointer(String),
    /// A value of the wrong type.
    #[error("type error: {0}")]
    Type(String),
    /// A down-cast to a type the object is not an instance of.
    #[error("invalid cast: {0}")]
    Cast(String),
    /// `debug_assert` saw `False`.
    #[error("debug_assert failed: {0}")]
    AssertFailed(String),
    /// An operation raised a built-in exception the program has no class for.
    #[error("the program has no class for built-in exception {0}")]
    MissingException(&'static str),
}

/// An error of the interpreter: a malformed program, or a program doing
/// something undefined.  Never a low-level exception (see [`LlOutcome`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlError {
    /// A graph is not fully typed, or uses an operation wrongly: found when
    /// loading.
    #[error("graph `{graph}`, {at}: {msg}")]
    Malformed {
        /// The graph.
        graph: String,
        /// Where in it (`block3, op 2 (int_add)`).
        at: String,
        /// What is wrong.
        msg: String,
    },
    /// An operation did something undefined.
    #[error("in graph `{graph}`, {at}: {fault}")]
    Runtime {
        /// The graph.
        graph: String,
        /// Where in it.
        at: String,
        /// What happened.
        fault: Fault,
    },
    /// Too many nested calls.
    #[error("recursion limit exceeded: more than {limit} nested calls (calling `{graph}`)")]
    RecursionLimit {
        /// The limit.
        limit: usize,
        /// The function being called.
        graph: String,
    },
    /// A bad call from outside (unknown function, wrong arguments).
    #[error("bad call: {0}")]
    BadCall(String),
}

/// How a call ends when it does not return a value.
#[derive(Debug, Clone, PartialEq)]
pub enum LlOutcome {
    /// A low-level exception escaped the called function.
    Raised {
        /// The vtable of the exception's class.
        etype: Ptr,
        /// The exception instance.
        evalue: Ptr,
        /// The class name (from the vtable).
        class_name: String,
    },
    /// The program called `sys.exit(status)`.
    Exit(i64),
    /// An interpreter error.
    Error(LlError),
}

impl From<LlError> for LlOutcome {
    fn from(e: LlError) -> LlOutcome {
        LlOutcome::Error(e)
    }
}

impl fmt::Display for LlOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlOutcome::Raised { class_name, .. } => write!(f, "low-level exception {class_name}"),
            LlOutcome::Exit(status) => write!(f, "exit with status {status}"),
            LlOutcome::Error(e) => write!(f, "{e}"),
        }
    }
}

/// A built-in exception class, ready to instantiate.
#[derive(Clone)]
struct BuiltinExc {
    vtable: Ptr,
    /// The zeroed instance, its typeptr already set.
    instance: HeapObj,
}

/// The interpreter of one program.
pub struct LlInterp {
    funcs: Vec<CFunc>,
    /// The prebuilt heap, restored by `reset_heap`.
    prebuilt: Vec<std::sync::Arc<HeapObj>>,
    store: store::Store,
    objmodel: ObjectModel,
    /// Indexed by `arith::Exc::index`.
    builtins: Vec<Option<BuiltinExc>>,
    recursion_limit: usize,
    /// The limit on nested calls of the program's own functions.
    user_recursion_limit: Option<usize>,
    /// The register stack: each frame's registers are a window of it.
    regs: Vec<LlValue>,
    /// Temporaries for parallel link moves.
    scratch: Vec<LlValue>,
    /// Checked down-casts: (allocated type, target) -> allowed.
    cast_cache: exec::CastCache,
    /// Where external functions act (the real system unless replaced).
    world: Box<dyn world::World>,
    /// The buffers of stdout and stderr.
    streams: world::Streams,
}

impl LlInterp {
    /// Loads `program`: compiles and type-checks every function.
    pub fn new(py: Python<'_>, program: &LlProgram) -> Result<LlInterp, LlError> {
        let funcs = load::load_program(py, program)?;
        let prebuilt: Vec<_> = (0..program.heap.len() as u32)
            .filter_map(|i| program.heap.object_at(i))
            .map(|o| std::sync::Arc::new(o.clone()))
            .collect();
        let mut builtins = Vec::new();
        for exc in arith::Exc::ALL {
            builtins.push(match program.exceptions.get(exc.name()) {
                None => None,
                Some(cls) => Some(load::builtin_exception(program, exc.name(), cls)?),
            });
        }
        Ok(LlInterp {
            funcs,
            store: store::Store::new(&prebuilt, gc_stress_from_env()),
            prebuilt,
            objmodel: program.objmodel,
            builtins: builtins
                .into_iter()
                .map(|b| b.map(|(vtable, instance)| BuiltinExc { vtable, instance }))
                .collect(),
            recursion_limit: DEFAULT_RECURSION_LIMIT,
            user_recursion_limit: None,
            regs: Vec::new(),
            scratch: Vec::new(),
            cast_cache: exec::CastCache::new(),
            world: Box::new(world::RealWorld::new()),
            streams: world::Streams::default(),
        })
    }

    /// Replaces the world external functions act on (a
    /// [`world::CapturedWorld`] in tests); the streams are flushed first.
    pub fn set_world(&mut self, world: Box<dyn world::World>) {
        self.flush_streams();
        self.world = world;
    }

    /// Writes out what the program's stdout and stderr buffers hold (at
    /// the end of a run, as CPython does at exit).
    pub fn flush_streams(&mut self) {
        self.streams.flush_all(self.world.as_mut());
    }

    /// Sets the limit on nested calls (default [`DEFAULT_RECURSION_LIMIT`]).
    pub fn set_recursion_limit(&mut self, limit: usize) {
        self.recursion_limit = limit;
    }

    /// The limit on nested calls.
    pub fn recursion_limit(&self) -> usize {
        self.recursion_limit
    }

    /// Also limits the nested calls of the program's own functions (those
    /// flowed from Python functions outside the `rpy3` package: helpers and
    /// dispatchers do not count), as CPython's recursion limit counts its
    /// frames; past it a call raises RecursionError.  `None`: no such limit.
    pub fn set_user_recursion_limit(&mut self, limit: Option<usize>) {
        self.user_recursion_limit = limit;
    }

    /// Restores the program's prebuilt heap (a reference count per
    /// prebuilt object, plus freeing the objects allocated since).
    pub fn reset_heap(&mut self) {
        self.store = store::Store::new(&self.prebuilt, self.store.stress);
    }

    /// Collects at every allocation (and never reuses a freed object's
    /// number, so a pointer the collector wrongly freed is caught at its
    /// next use); the default comes from the environment variable
    /// `RPY3_LLINTERP_GC_STRESS` (set and not `0`).
    pub fn set_gc_stress(&mut self, stress: bool) {
        self.store.stress = stress;
    }

    /// Number of collections since the heap was restored.
    pub fn collections(&self) -> usize {
        self.store.collections
    }

    /// A snapshot of the current heap as one persistent [`Heap`] (a copy
    /// of every object; prefer [`LlInterp::object`] to only read).
    pub fn heap(&mut self) -> &Heap {
        self.store.snapshot()
    }

    /// Object number `obj` of the current heap.
    pub fn object(&self, obj: u32) -> Option<&HeapObj> {
        self.store.get(obj)
    }

    /// Slot `slot` of the struct `p` points to, if there is one.
    pub fn read_slot(&self, p: &Ptr, slot: usize) -> Option<LlValue> {
        let o = self.store.get(p.obj)?;
        let off = p.offset as usize + slot;
        if p.item == 0 {
            o.slots.get(off).copied()
        } else if off < o.item_slots as usize {
            o.items
                .get((p.item as usize - 1) * o.item_slots as usize + off)
                .copied()
        } else {
            None
        }
    }

    /// Allocates an object of type `ty` (`length` items when varsize) in
    /// the current heap, for passing arguments in (a string).
    pub fn alloc(&mut self, ty: LlType, length: usize) -> Result<Ptr, LlError> {
        let mut scratch = Heap::new();
        let p = scratch
            .malloc(ty, length)
            .map_err(|e| LlError::BadCall(e.to_string()))?;
        let obj = scratch
            .object_at(p.obj)
            .cloned()
            .ok_or_else(|| LlError::BadCall("allocation".into()))?;
        let index = self.store.push(obj);
        self.store.pin(index);
        Ok(Ptr { obj: index, ..p })
    }

    /// Writes slot `slot` of item `index` of the array part of object `p`.
    pub fn write_item(
        &mut self,
        p: &Ptr,
        index: usize,
        slot: usize,
        v: LlValue,
    ) -> Result<(), LlError> {
        let o = self
            .store
            .get_mut(p.obj)
            .ok_or_else(|| LlError::BadCall("no such object".into()))?;
        let per = o.item_slots as usize;
        let at = o
            .items
            .get_mut(index * per + slot)
            .ok_or_else(|| LlError::BadCall("item out of range".into()))?;
        *at = v;
        Ok(())
    }

    /// Writes slot `slot` of the struct `p` points to.
    pub fn write_slot(&mut self, p: &Ptr, slot: usize, v: LlValue) -> Result<(), LlError> {
        let o = self
            .store
            .get_mut(p.obj)
            .ok_or_else(|| LlError::BadCall("no such object".into()))?;
        let at = o
            .slots
            .get_mut(p.offset as usize + slot)
            .ok_or_else(|| LlError::BadCall("slot out of range".into()))?;
        *at = v;
        Ok(())
    }

    /// Number of objects allocated so far (prebuilt ones included).
    pub fn heap_len(&self) -> usize {
        self.store.len()
    }

    /// The object model of the program.
    pub fn objmodel(&self) -> &ObjectModel {
        &self.objmodel
    }

    /// Number of functions.
    pub fn num_functions(&self) -> usize {
        self.funcs.len()
    }

    /// Index of the function named `name`, if any.
    pub fn function_index(&self, name: &str) -> Option<usize> {
        self.funcs.iter().position(|f| f.name == name)
    }

    /// Calls function `func_index` with `args`; the heap is kept from the
    /// previous call (see [`LlInterp::reset_heap`]).
    pub fn call(&mut self, func_index: usize, args: Vec<LlValue>) -> Result<LlValue, LlOutcome> {
        let f = self
            .funcs
            .get(func_index)
            .ok_or_else(|| LlError::BadCall(format!("no function number {func_index}")))?;
        if args.len() != f.params.len() {
            return Err(LlError::BadCall(format!(
                "`{}` takes {} arguments, got {}",
                f.name,
                f.params.len(),
                args.len()
            ))
            .into());
        }
        for (i, (a, t)) in args.iter().zip(&f.param_types).enumerate() {
            if !t.accepts(a) {
                return Err(LlError::BadCall(format!(
                    "`{}`: argument {i} is {a:?}, not a {t}",
                    f.name
                ))
                .into());
            }
        }
        let outcome = self.run(func_index, &args);
        // the harness holds what it is given until the heap is restored
        match &outcome {
            Ok(LlValue::Ptr(Some(p))) => self.store.pin(p.obj),
            Err(LlOutcome::Raised { evalue, .. }) => self.store.pin(evalue.obj),
            _ => {}
        }
        outcome
    }

    /// The class name stored in the vtable `cls` ("?" if unreadable).
    pub fn class_name(&self, cls: &Ptr) -> String {
        exec::class_name(&self.store, cls)
    }
}

/// Whether `RPY3_LLINTERP_GC_STRESS` asks for the stress mode.
fn gc_stress_from_env() -> bool {
    std::env::var_os("RPY3_LLINTERP_GC_STRESS").is_some_and(|v| v != "0" && !v.is_empty())
}

/// Confirms that `program` can be loaded: the verifier of low-level
/// graphs accepts it (every graph fully typed, only operations of the
/// table, each on arguments of the types its rule requires) and the
/// loader can represent it.
pub fn check_program(program: &LlProgram) -> Result<(), LlError> {
    Python::attach(|py| load::load_program(py, program).map(|_| ()))
}

/// Whether the interpreter implements `op`: every operation of the table
/// has an arm in the loader and in the executor (both matches are
/// exhaustive, so this is true by construction; the coverage test also runs
/// each operation once).
pub fn implemented(op: rpy3_model::lloperation::LlOp) -> bool {
    load::lowering(op).is_some()
}
