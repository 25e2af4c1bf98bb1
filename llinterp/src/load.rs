//! Loading: each low-level graph becomes a [`CFunc`] — one flat array of
//! instructions over numbered registers.  The program is first checked by
//! the model's verifier of low-level graphs ([`rpy3_model::llverify`]),
//! which owns the type rules; the loader only resolves what it needs
//! (field offsets, allocation templates, call targets) and refuses, with
//! an error rather than a panic, what it cannot represent.
//!
//! Registers of a function: one per variable of its graph (the variable's
//! index), then one per distinct constant, which a new frame receives by
//! copying `consts`.  A block is a run of `Instr::Op`/`Call` followed by one
//! terminator; a raising block's terminator is `Catch`, placed right after
//! the raising operation, which is how the executor knows an exception
//! raised at `pc` is caught when `code[pc + 1]` is a `Catch`.

use std::collections::HashMap;
use std::fmt;

use pyo3::prelude::*;
use rpy3_model::extfunc::ExtFunc;
use rpy3_model::llconst::{self, LlPtrConst};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{HeapObj, LlType, LlValue, Primitive, Ptr, TypeDef, BOOL, CHAR, UNICHAR};
use rpy3_model::llverify;
use rpy3_model::program::{LlExceptionClass, LlProgram};
use rpy3_model::{BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, LinkId, OpName, VarId};

use crate::LlError;

/// "No register".
pub(crate) const NONE: u32 = u32::MAX;

/// One instruction.  Operands are registers of the current frame unless
/// said otherwise; indices name entries of the function's side tables.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Instr {
    /// An operation of the table; the meaning of `a`, `b`, `c` per
    /// operation is in [`Loader::lower_op`].
    Op {
        op: LlOp,
        dst: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    /// A call of a known function; arguments are `operands[args..args+nargs]`.
    Call {
        dst: u32,
        func: u32,
        args: u32,
        nargs: u32,
    },
    /// A call through a function pointer of type `types[ty]`.
    CallPtr {
        dst: u32,
        fptr: u32,
        args: u32,
        nargs: u32,
        ty: u32,
    },
    /// A function of the external-function table; arguments are
    /// `operands[args..args+nargs]`, the result has type `types[ty]`.
    External {
        dst: u32,
        func: ExtFunc,
        args: u32,
        nargs: u32,
        ty: u32,
    },
    /// The hottest operations, each its own instruction (one dispatch,
    /// not two): as `Op` with that operation.
    Getfield {
        dst: u32,
        a: u32,
        off: u32,
    },
    Setfield {
        dst: u32,
        a: u32,
        off: u32,
        v: u32,
    },
    Getarrayitem {
        dst: u32,
        a: u32,
        i: u32,
    },
    Setarrayitem {
        dst: u32,
        a: u32,
        i: u32,
        v: u32,
    },
    IntAdd {
        dst: u32,
        a: u32,
        b: u32,
    },
    IntSub {
        dst: u32,
        a: u32,
        b: u32,
    },
    IntAddOvf {
        dst: u32,
        a: u32,
        b: u32,
    },
    IntSubOvf {
        dst: u32,
        a: u32,
        b: u32,
    },
    /// `getinteriorfield` / `setinteriorfield` whose path is fields, one
    /// index (register `i`), then fields adding up to slot `off` of the
    /// item: the item's slot, as the general path finds it.
    GetinteriorItem {
        dst: u32,
        a: u32,
        i: u32,
        off: u32,
    },
    SetinteriorItem {
        dst: u32,
        a: u32,
        i: u32,
        off: u32,
        v: u32,
    },
    /// An operation of two operands giving a `Bool` (as `Op`: a comparison,
    /// or the `getfield` of a `Bool` field), then the
    /// two-way branch on it: the block's last operation fused with the
    /// `If` of its exitswitch.
    OpIf {
        op: LlOp,
        dst: u32,
        a: u32,
        b: u32,
        iffalse: u32,
        iftrue: u32,
    },
    /// Follow `links[link]`.
    Jump {
        link: u32,
    },
    /// A `Jump` whose link moves nothing.
    Goto {
        target: u32,
    },
    /// A `Jump` whose link moves one value.
    Move1 {
        src: u32,
        dst: u32,
        target: u32,
    },
    /// Two-way branch on a `Bool`.
    If {
        cond: u32,
        iffalse: u32,
        iftrue: u32,
    },
    /// Switch on a value: `cases[first..first+n]`, then `default` (a link or NONE).
    Switch {
        value: u32,
        first: u32,
        n: u32,
        default: u32,
    },
    /// After a raising operation: `normal` link when it did not raise,
    /// else the first matching `handlers[first..first+n]`.
    Catch {
        normal: u32,
        first: u32,
        n: u32,
    },
    /// Leave the function with a value.
    Return {
        value: u32,
    },
    /// Leave the function raising (class, instance).
    Raise {
        etype: u32,
        evalue: u32,
    },
    /// The end of an inlined call: its result to `dst`, then on at `cont`
    /// (the instruction after the call site).
    InlineReturn {
        value: u32,
        dst: u32,
        cont: u32,
    },
}

/// A link: moves into the target's input registers, then a jump.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CLink {
    pub moves: (u32, u32),
    pub target: u32,
    /// Some move reads a register another move of this link writes.
    pub parallel: bool,
}

/// An exception exit: taken when the raised class's number is in `lo..hi`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Handler {
    pub lo: i64,
    pub hi: i64,
    pub link: u32,
    pub etype: u32,
    pub evalue: u32,
}

/// A zeroed object to allocate.
#[derive(Clone, Debug)]
pub(crate) struct Template {
    pub ty: LlType,
    pub slots: Vec<LlValue>,
    /// One zeroed array item (empty for fixed-size types).
    pub item: Vec<LlValue>,
}

/// One step of an interior path.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    /// Add a slot offset.
    Field(u32),
    /// Index the object's array by the value of a register.
    Index(u32),
}

/// The path and stored value of an interior-field operation.
#[derive(Clone, Debug)]
pub(crate) struct Interior {
    pub steps: Vec<Step>,
    pub value: u32,
}

/// Where an instruction came from, for messages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Origin {
    pub block: u32,
    /// Operation index in the block, or NONE for the block's exits.
    pub op: u32,
    pub opname: Option<LlOp>,
    /// The graph inlined here (an index of `CFunc::inlined`), or NONE:
    /// the function's own.
    pub graph: u32,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.opname {
            Some(op) if self.op != NONE => {
                write!(f, "block{}, op {} ({})", self.block, self.op, op)
            }
            _ if self.op != NONE => write!(f, "block{}, op {}", self.block, self.op),
            _ => write!(f, "block{}, exits", self.block),
        }
    }
}

/// A compiled function.
pub(crate) struct CFunc {
    pub name: String,
    /// A function of the program itself (flowed from a Python function
    /// outside the `rpy3` package), counted by the user recursion limit.
    pub counted: bool,
    pub nvars: usize,
    pub nregs: usize,
    pub consts: Vec<LlValue>,
    pub params: Vec<u32>,
    pub param_types: Vec<LlType>,
    pub entry: u32,
    pub code: Vec<Instr>,
    pub origin: Vec<Origin>,
    pub links: Vec<CLink>,
    pub moves: Vec<(u32, u32)>,
    pub operands: Vec<u32>,
    pub handlers: Vec<Handler>,
    pub cases: Vec<(LlValue, u32)>,
    pub types: Vec<LlType>,
    pub templates: Vec<Template>,
    pub interiors: Vec<Interior>,
    pub messages: Vec<String>,
    /// The collector's root map: for the instruction at each pc that may
    /// collect (an allocation, a call), `gc_live[lo..hi]` are the pointer
    /// registers live after it (read by later operations of its block or
    /// by its exits); (0, 0) elsewhere.
    pub gc_map: Vec<(u32, u32)>,
    pub gc_live: Vec<u32>,
    /// By pc: for an instruction of an inlined graph, the pc of the call
    /// site it was inlined at (an exception it does not catch goes on
    /// there, and the call site's root map holds too); NONE elsewhere.
    pub escape: Vec<u32>,
    /// The names of the graphs inlined in this one (for messages).
    pub inlined: Vec<String>,
}

/// What the loader decided about inlining one function.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct InlinePlan {
    /// Calls of it are inlined.
    pub inline: bool,
    /// Its operations, those of the graphs inlined in it included.
    pub ops: usize,
    /// Registers its inlined graphs take (one region per call site).
    pub extra_vars: u32,
}

/// Largest graph (its operations, the graphs inlined in it included) whose
/// calls are inlined.
const MAX_INLINE_OPS: usize = 40;

/// The function a `direct_call` operation calls.
fn direct_target(py: Python<'_>, args: &[Hlvalue]) -> Option<u32> {
    match llconst::ll_value(py, args.first()?.as_const()?) {
        Ok(LlValue::Func(f)) => Some(f.index),
        _ => None,
    }
}

/// Decides which functions are inlined at their direct calls: helpers
/// (never the program's own functions, whose calls the user recursion
/// limit counts) of at most `MAX_INLINE_OPS` operations whose own calls
/// are all inlined too (so never a function on a cycle of calls).  An
/// inlined call pushes no frame: the hard recursion limit does not see it.
fn plan_inlining(py: Python<'_>, program: &LlProgram, counted: &[bool]) -> Vec<InlinePlan> {
    // 0: not visited, 1: in progress, 2: done
    fn visit(
        py: Python<'_>,
        program: &LlProgram,
        counted: &[bool],
        i: usize,
        state: &mut [u8],
        plans: &mut [InlinePlan],
    ) {
        state[i] = 1;
        let g = &program.functions[i].graph;
        let mut plan = InlinePlan::default();
        let mut all_inlined = !counted[i];
        for b in g.iterblocks() {
            for op in &g.blocks[b].operations {
                plan.ops += 1;
                match op.opname {
                    OpName::Ll(LlOp::DirectCall) => {
                        match direct_target(py, &op.args).map(|t| t as usize) {
                            Some(t) if t < plans.len() => {
                                if state[t] == 0 {
                                    visit(py, program, counted, t, state, plans);
                                }
                                if state[t] == 2 && plans[t].inline {
                                    plan.ops += plans[t].ops;
                                    plan.extra_vars += program.functions[t].graph.vars.len() as u32
                                        + plans[t].extra_vars;
                                } else {
                                    all_inlined = false;
                                }
                            }
                            _ => all_inlined = false,
                        }
                    }
                    OpName::Ll(LlOp::IndirectCall) => all_inlined = false,
                    _ => {}
                }
            }
        }
        plan.inline = all_inlined && plan.ops <= MAX_INLINE_OPS;
        plans[i] = plan;
        state[i] = 2;
    }
    let n = program.functions.len();
    let mut state = vec![0u8; n];
    let mut plans = vec![InlinePlan::default(); n];
    for i in 0..n {
        if state[i] == 0 {
            visit(py, program, counted, i, &mut state, &mut plans);
        }
    }
    plans
}

/// A call site whose callee's blocks are still to be loaded.
struct PendingInline {
    callee: usize,
    /// First register of the callee's variables.
    base: u32,
    /// The link into the callee's start block (its target to patch).
    link: u32,
    /// The call site's pc.
    site: u32,
    dst: u32,
    /// The registers the callee's parameters read (the arguments' own:
    /// nothing writes them while the callee runs), or empty: the link
    /// moves the arguments in.
    params: Vec<u32>,
}

/// How an operation is lowered (the loader's dispatch; exhaustive, so a new
/// operation in the table does not compile until it is handled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lowering {
    /// Fixed argument and result patterns: `Op { a, b }` (primitive ops).
    Simple,
    SameAs,
    Malloc,
    MallocVarsize,
    Getfield,
    Setfield,
    Getsubstruct,
    Getarrayitem,
    Setarrayitem,
    Getarraysize,
    Interior,
    CastPointer,
    PtrCompare,
    PtrTest,
    Call,
    External,
    DebugAssert,
    KeepAlive,
}

pub(crate) fn lowering(op: LlOp) -> Option<Lowering> {
    use LlOp::*;
    Some(match op {
        IntAdd | IntSub | IntMul | IntFloordiv | IntMod | IntAnd | IntOr | IntXor | IntLshift
        | IntRshift | IntNeg | IntAbs | IntInvert | IntIsTrue | IntLt | IntLe | IntEq | IntNe
        | IntGt | IntGe | IntAddOvf | IntSubOvf | IntMulOvf | IntNegOvf | IntAbsOvf
        | IntFloordivOvf | IntModOvf | IntLshiftOvf | IntPow | IntTruediv | UintAdd | UintSub
        | UintMul | UintFloordiv | UintMod | UintAnd | UintOr | UintXor | UintLshift
        | UintRshift | UintNeg | UintInvert | UintIsTrue | UintLt | UintLe | UintEq | UintNe
        | UintGt | UintGe | FloatAdd | FloatSub | FloatMul | FloatTruediv | FloatFloordiv
        | FloatMod | FloatPow | FloatNeg | FloatAbs | FloatIsTrue | FloatLt | FloatLe | FloatEq
        | FloatNe | FloatGt | FloatGe | FloatSqrt | FloatExp | FloatExpm1 | FloatLog
        | FloatLog2 | FloatLog10 | FloatLog1p | FloatSin | FloatCos | FloatTan | FloatAsin
        | FloatAcos | FloatAtan | FloatSinh | FloatCosh | FloatTanh | FloatAsinh | FloatAcosh
        | FloatAtanh | FloatFloor | FloatCeil | FloatTrunc | FloatRound | FloatRoundDigits
        | FloatAtan2 | FloatFmod | FloatMathPow | FloatHypot | FloatCopysign | FloatFrexpExp
        | FloatLdexp | FloatIsnan | FloatIsinf | FloatIsfinite | CharLt | CharLe | CharEq
        | CharNe | CharGt | CharGe | UnicharLt | UnicharLe | UnicharEq | UnicharNe | UnicharGt
        | UnicharGe | UnicharUpper | UnicharLower | UnicharTitle | UnicharCasefold
        | UnicharProps | FloatFormatChar | BoolNot | CastBoolToInt | CastBoolToUint
        | CastBoolToFloat | CastIntToFloat | CastUintToFloat | CastFloatToInt | CastFloatToUint
        | CastIntToUint | CastUintToInt | CastIntToLonglong | CastLonglongToInt | CastCharToInt
        | CastIntToChar | CastUnicharToInt | CastIntToUnichar => Lowering::Simple,
        SameAs => Lowering::SameAs,
        Malloc => Lowering::Malloc,
        MallocVarsize => Lowering::MallocVarsize,
        Getfield => Lowering::Getfield,
        Setfield => Lowering::Setfield,
        Getsubstruct => Lowering::Getsubstruct,
        Getarrayitem => Lowering::Getarrayitem,
        Setarrayitem => Lowering::Setarrayitem,
        Getarraysize => Lowering::Getarraysize,
        Getinteriorfield | Setinteriorfield | Getinteriorarraysize => Lowering::Interior,
        CastPointer => Lowering::CastPointer,
        PtrEq | PtrNe => Lowering::PtrCompare,
        PtrIszero | PtrNonzero | GcIdentityHash | GcId | StrToFloat => Lowering::PtrTest,
        DirectCall | IndirectCall => Lowering::Call,
        ExternalCall => Lowering::External,
        DebugAssert => Lowering::DebugAssert,
        KeepAlive => Lowering::KeepAlive,
        // graphs prepared for a compiled backend only: the llinterp runs
        // graphs before preparation
        ExcOccurred | ExcFetchType | ExcFetchValue | ExcClear | ExcRaise | GcPushRoots
        | GcPopRoots | StackCheck => return None,
    })
}

/// Compiles every function of `program`.
pub(crate) fn load_program(py: Python<'_>, program: &LlProgram) -> Result<Vec<CFunc>, LlError> {
    llverify::verify_program(py, program).map_err(|e| LlError::Malformed {
        graph: e.function,
        at: e.site.to_string(),
        msg: e.message,
    })?;
    let counted: Vec<bool> = program
        .functions
        .iter()
        .map(|f| {
            f.graph.func.as_ref().is_some_and(|func| {
                func.bind(py)
                    .getattr("__module__")
                    .and_then(|m| m.extract::<String>())
                    .map(|m| m != "rpy3" && !m.starts_with("rpy3."))
                    .unwrap_or(true)
            })
        })
        .collect();
    let plans = plan_inlining(py, program, &counted);
    program
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut l = Loader::new(py, program, &f.graph, &f.name, &plans, plans[i].extra_vars);
            l.load(i)?;
            l.f.counted = counted[i];
            Ok(l.f)
        })
        .collect()
}

/// The vtable of a built-in exception class and its zeroed instance.
pub(crate) fn builtin_exception(
    program: &LlProgram,
    name: &str,
    cls: &LlExceptionClass,
) -> Result<(Ptr, HeapObj), LlError> {
    let bad = |msg: String| LlError::Malformed {
        graph: "<program>".into(),
        at: format!("exception {name}"),
        msg,
    };
    if program.heap.object_at(cls.vtable.obj).is_none() {
        return Err(bad("the vtable is not in the prebuilt heap".into()));
    }
    if !cls.instance.starts_with(program.objmodel.object) {
        return Err(bad(format!(
            "instances are {}, which does not start with object",
            cls.instance
        )));
    }
    if cls.instance.is_varsize() {
        return Err(bad("instances are varsize".into()));
    }
    let mut slots = Vec::new();
    cls.instance.zero_slots(&mut slots);
    // the typeptr is slot 0 (the instance starts with `object`)
    let typeptr = slots
        .first_mut()
        .ok_or_else(|| bad("instances have no typeptr".into()))?;
    *typeptr = LlValue::Ptr(Some(Ptr {
        ty: program.objmodel.vtable,
        ..cls.vtable
    }));
    Ok((
        cls.vtable,
        HeapObj {
            ty: cls.instance,
            slots,
            items: Vec::new(),
            item_slots: 0,
        },
    ))
}

struct Loader<'a, 'py> {
    py: Python<'py>,
    program: &'a LlProgram,
    graph: &'a FunctionGraph,
    f: CFunc,
    const_regs: HashMap<(usize, LlType), u32>,
    origin: Origin,
    block_pc: HashMap<BlockId, u32>,
    /// Links whose `target` still holds a block index to patch.
    pending: Vec<(u32, BlockId)>,
    /// Variables defined so far in the current block (SSI: a variable is
    /// used only after its definition in its block, so no frame ever reads
    /// a register it did not write).
    defined: Vec<bool>,
    defined_list: Vec<u32>,
    /// By variable: the register of the value it is a `same_as` of (NONE:
    /// its own register).  A variable is defined once and its value never
    /// changes while its block runs, and a constant's register is never
    /// written, so the copy is not needed: the result reads the source's
    /// register instead.
    alias: Vec<u32>,
    /// The block's last operation raises (its `Catch` follows it).
    raising_last: bool,
    /// Which functions are inlined at their direct calls.
    plans: &'a [InlinePlan],
    /// The register of variable 0 of the graph being loaded (not 0 for an
    /// inlined graph).
    var_base: u32,
    /// The next register free for an inlined graph's variables.
    next_region: u32,
    /// For the instructions being emitted: the call site they are inlined
    /// at (NONE: the function's own).
    escape_pc: u32,
    /// Loading an inlined graph: its return block writes this register and
    /// goes on at this pc.
    ret: Option<(u32, u32)>,
    inline_queue: Vec<PendingInline>,
    /// By variable of the graph being loaded: its register class
    /// (`coalesce.rs`).
    class: Vec<u32>,
}

/// Operations of at most two operands (`c` unused) with a `Bool` result
/// that `OpIf` fuses with the branch on it.
fn fusable_with_if(op: LlOp) -> bool {
    use LlOp::*;
    matches!(
        op,
        IntLt
            | IntLe
            | IntEq
            | IntNe
            | IntGt
            | IntGe
            | IntIsTrue
            | UintLt
            | UintLe
            | UintEq
            | UintNe
            | UintGt
            | UintGe
            | UintIsTrue
            | FloatLt
            | FloatLe
            | FloatEq
            | FloatNe
            | FloatGt
            | FloatGe
            | FloatIsTrue
            | CharLt
            | CharLe
            | CharEq
            | CharNe
            | CharGt
            | CharGe
            | UnicharLt
            | UnicharLe
            | UnicharEq
            | UnicharNe
            | UnicharGt
            | UnicharGe
            | BoolNot
            | PtrEq
            | PtrNe
            | PtrIszero
            | PtrNonzero
    )
}

fn prim(t: LlType) -> Option<Primitive> {
    t.primitive()
}

impl<'a, 'py> Loader<'a, 'py> {
    fn new(
        py: Python<'py>,
        program: &'a LlProgram,
        graph: &'a FunctionGraph,
        name: &str,
        plans: &'a [InlinePlan],
        extra_vars: u32,
    ) -> Self {
        let own = graph.vars.len();
        let nvars = own + extra_vars as usize;
        Loader {
            py,
            program,
            graph,
            f: CFunc {
                name: name.to_string(),
                counted: false,
                nvars,
                nregs: nvars,
                consts: Vec::new(),
                params: Vec::new(),
                param_types: Vec::new(),
                entry: 0,
                code: Vec::new(),
                origin: Vec::new(),
                links: Vec::new(),
                moves: Vec::new(),
                operands: Vec::new(),
                handlers: Vec::new(),
                cases: Vec::new(),
                types: Vec::new(),
                templates: Vec::new(),
                interiors: Vec::new(),
                messages: Vec::new(),
                gc_map: Vec::new(),
                gc_live: Vec::new(),
                escape: Vec::new(),
                inlined: Vec::new(),
            },
            const_regs: HashMap::new(),
            origin: Origin {
                block: 0,
                op: NONE,
                opname: None,
                graph: NONE,
            },
            block_pc: HashMap::new(),
            pending: Vec::new(),
            defined: vec![false; own],
            defined_list: Vec::new(),
            alias: vec![NONE; own],
            raising_last: false,
            plans,
            var_base: 0,
            next_region: own as u32,
            escape_pc: NONE,
            ret: None,
            inline_queue: Vec::new(),
            class: crate::coalesce::coalesce(graph),
        }
    }

    fn err(&self, msg: impl Into<String>) -> LlError {
        let graph = match self.f.inlined.last() {
            Some(name) if self.escape_pc != NONE => format!("{name}` (inlined in `{}", self.f.name),
            _ => self.f.name.clone(),
        };
        LlError::Malformed {
            graph,
            at: self.origin.to_string(),
            msg: msg.into(),
        }
    }

    fn var_type(&self, v: VarId) -> Result<LlType, LlError> {
        match self.graph.vars.get(v) {
            None => Err(self.err(format!("{v} is not a variable of the graph"))),
            Some(d) => d
                .concretetype
                .ok_or_else(|| self.err(format!("{v} has no concretetype"))),
        }
    }

    fn ty(&self, h: &Hlvalue) -> Result<LlType, LlError> {
        match h {
            Hlvalue::Variable(v) => self.var_type(*v),
            Hlvalue::Constant(c) => c
                .concretetype
                .ok_or_else(|| self.err("a constant has no concretetype")),
        }
    }

    fn var_reg(&self, v: VarId) -> Result<u32, LlError> {
        self.var_type(v)?;
        if !self.defined[v.as_u32() as usize] {
            return Err(self.err(format!("{v} is used where it is not defined")));
        }
        Ok(self.register_of(v))
    }

    /// The register holding variable `v`: its own, or the one of the
    /// value it is a `same_as` of.
    fn register_of(&self, v: VarId) -> u32 {
        match self.alias.get(v.as_u32() as usize) {
            Some(&r) if r != NONE => r,
            _ => self.own_reg(v),
        }
    }

    /// The register of variable `v` itself (its class's).
    fn own_reg(&self, v: VarId) -> u32 {
        match self.class.get(v.as_u32() as usize) {
            Some(&c) => self.var_base + c,
            None => NONE,
        }
    }

    fn define(&mut self, v: VarId) -> Result<(), LlError> {
        self.var_type(v)?;
        if !std::mem::replace(&mut self.defined[v.as_u32() as usize], true) {
            self.defined_list.push(v.as_u32());
        }
        Ok(())
    }

    fn undefine(&mut self, v: VarId) {
        if let Some(d) = self.defined.get_mut(v.as_u32() as usize) {
            *d = false;
        }
    }

    fn clear_defined(&mut self) {
        for v in self.defined_list.drain(..) {
            self.defined[v as usize] = false;
        }
    }

    fn const_reg(&mut self, c: &Constant) -> Result<u32, LlError> {
        let ty = c
            .concretetype
            .ok_or_else(|| self.err("a constant has no concretetype"))?;
        if let Some(&r) = self.const_regs.get(&(c.value.addr(), ty)) {
            return Ok(r);
        }
        let v = llconst::ll_value(self.py, c).map_err(|e| self.err(e))?;
        let r = (self.f.nvars + self.f.consts.len()) as u32;
        self.f.consts.push(v);
        self.f.nregs += 1;
        self.const_regs.insert((c.value.addr(), ty), r);
        Ok(r)
    }

    fn reg(&mut self, h: &Hlvalue) -> Result<u32, LlError> {
        match h {
            Hlvalue::Variable(v) => self.var_reg(*v),
            Hlvalue::Constant(c) => self.const_reg(c),
        }
    }

    fn add_type(&mut self, t: LlType) -> u32 {
        self.f.types.push(t);
        (self.f.types.len() - 1) as u32
    }

    fn void_type(&self, h: &Hlvalue) -> Result<LlType, LlError> {
        let c = h
            .as_const()
            .ok_or_else(|| self.err("expected a Void constant holding a type"))?;
        llconst::type_of_constant(self.py, c)
            .ok_or_else(|| self.err("expected a Void constant holding a type"))
    }

    fn void_name(&self, h: &Hlvalue) -> Result<String, LlError> {
        let c = h
            .as_const()
            .ok_or_else(|| self.err("expected a Void constant holding a field name"))?;
        llconst::name_of_constant(self.py, c)
            .ok_or_else(|| self.err("expected a Void constant holding a field name"))
    }

    fn ptr_target(&self, t: LlType, what: &str) -> Result<LlType, LlError> {
        t.target()
            .ok_or_else(|| self.err(format!("{what} is {t}, not a pointer")))
    }

    /// Compiles function number `index` (verified: its type is a function
    /// type whose parameters are the start block's).
    fn load(&mut self, index: usize) -> Result<(), LlError> {
        let g = self.graph;
        let func = &self.program.functions[index];
        let TypeDef::Func { args, .. } = func.ty.def() else {
            return Err(self.err(format!(
                "the function's type {} is not a function type",
                func.ty
            )));
        };
        for (&v, &t) in g.blocks[g.startblock].inputargs.iter().zip(&args) {
            self.f.params.push(self.own_reg(v));
            self.f.param_types.push(t);
        }
        for b in g.iterblocks() {
            self.block_pc.insert(b, self.f.code.len() as u32);
            self.load_block(b)?;
        }
        for (link, b) in std::mem::take(&mut self.pending) {
            self.f.links[link as usize].target = self.block_pc[&b];
        }
        self.f.entry = self.block_pc[&g.startblock];
        while let Some(p) = self.inline_queue.pop() {
            self.load_inlined(p)?;
        }
        if self.next_region as usize > self.f.nvars {
            return Err(self.err("inlined graphs took more registers than planned"));
        }
        // jumps moving nothing or one value, with their target resolved
        for i in &mut self.f.code {
            if let Instr::Jump { link } = *i {
                let l = &self.f.links[link as usize];
                match l.moves.1 - l.moves.0 {
                    0 => *i = Instr::Goto { target: l.target },
                    1 => {
                        let (src, dst) = self.f.moves[l.moves.0 as usize];
                        *i = Instr::Move1 {
                            src,
                            dst,
                            target: l.target,
                        };
                    }
                    _ => {}
                }
            }
        }
        // links and jumps to a jump that moves nothing go to its target
        let code = &self.f.code;
        let thread = |mut t: u32| {
            for _ in 0..16 {
                match code.get(t as usize) {
                    Some(&Instr::Goto { target }) if target != t => t = target,
                    _ => break,
                }
            }
            t
        };
        for l in &mut self.f.links {
            l.target = thread(l.target);
        }
        let threaded: Vec<(usize, Instr)> = code
            .iter()
            .enumerate()
            .filter_map(|(pc, i)| match *i {
                Instr::Goto { target } => Some((
                    pc,
                    Instr::Goto {
                        target: thread(target),
                    },
                )),
                Instr::Move1 { src, dst, target } => Some((
                    pc,
                    Instr::Move1 {
                        src,
                        dst,
                        target: thread(target),
                    },
                )),
                _ => None,
            })
            .collect();
        for (pc, i) in threaded {
            self.f.code[pc] = i;
        }
        Ok(())
    }

    /// Loads the blocks of a graph inlined at a call site, after the
    /// function's own: its variables in their own region of registers,
    /// its exceptions going on at the call site.
    fn load_inlined(&mut self, p: PendingInline) -> Result<(), LlError> {
        let func = &self.program.functions[p.callee];
        let g = &func.graph;
        self.graph = g;
        self.var_base = p.base;
        self.escape_pc = p.site;
        self.ret = Some((p.dst, p.site + 1));
        self.defined = vec![false; g.vars.len()];
        self.defined_list.clear();
        self.alias = vec![NONE; g.vars.len()];
        self.class = crate::coalesce::coalesce(g);
        for (v, &r) in g.blocks[g.startblock].inputargs.iter().zip(&p.params) {
            self.alias[v.as_u32() as usize] = r;
        }
        self.f.inlined.push(func.name.clone());
        self.block_pc.clear();
        for b in g.iterblocks() {
            self.block_pc.insert(b, self.f.code.len() as u32);
            self.load_block(b)?;
        }
        for (link, b) in std::mem::take(&mut self.pending) {
            self.f.links[link as usize].target = self.block_pc[&b];
        }
        self.f.links[p.link as usize].target = self.block_pc[&g.startblock];
        Ok(())
    }

    fn emit(&mut self, i: Instr) {
        self.f.code.push(i);
        self.f.origin.push(self.origin);
        self.f.gc_map.push((0, 0));
        self.f.escape.push(self.escape_pc);
    }

    /// The origin's graph tag of the graph being loaded.
    fn graph_tag(&self) -> u32 {
        if self.escape_pc == NONE {
            NONE
        } else {
            (self.f.inlined.len() - 1) as u32
        }
    }

    /// For each operation of `b` that may collect: the pointer variables
    /// of the block live after it.  Graphs are in SSI form (a variable is
    /// used only in the block defining it, links carry values on), so the
    /// registers a frame may still read are those its block reads later:
    /// a backward scan of the block is exact.
    fn live_pointers(&self, b: BlockId) -> Vec<Option<Vec<VarId>>> {
        let g = self.graph;
        let block = &g.blocks[b];
        let mut defined: std::collections::HashSet<VarId> =
            block.inputargs.iter().copied().collect();
        defined.extend(block.operations.iter().map(|op| op.result));
        let is_ptr = |v: VarId| {
            g.vars
                .get(v)
                .and_then(|d| d.concretetype)
                .is_some_and(|t| t.target().is_some())
        };
        let mut live: Vec<VarId> = Vec::new();
        let add = |live: &mut Vec<VarId>, h: &Hlvalue| {
            if let Some(v) = h.as_var() {
                if defined.contains(&v) && is_ptr(v) && !live.contains(&v) {
                    live.push(v);
                }
            }
        };
        for &l in &block.exits {
            if let Some(link) = g.links.get(l) {
                for a in &link.args {
                    add(&mut live, a);
                }
            }
        }
        if let ExitSwitch::Value(h) = &block.exitswitch {
            add(&mut live, h);
        }
        if b == g.returnblock || b == g.exceptblock {
            for &v in &block.inputargs {
                add(&mut live, &Hlvalue::Variable(v));
            }
        }
        let mut out = vec![None; block.operations.len()];
        for (i, op) in block.operations.iter().enumerate().rev() {
            let collects = matches!(
                op.opname,
                OpName::Ll(
                    LlOp::Malloc | LlOp::MallocVarsize | LlOp::DirectCall | LlOp::IndirectCall
                )
            );
            live.retain(|&v| v != op.result);
            if collects {
                out[i] = Some(live.clone());
            }
            for a in &op.args {
                add(&mut live, a);
            }
        }
        out
    }

    fn load_block(&mut self, b: BlockId) -> Result<(), LlError> {
        let g = self.graph;
        let block = &g.blocks[b];
        self.origin = Origin {
            block: b.as_u32(),
            op: NONE,
            opname: None,
            graph: self.graph_tag(),
        };
        self.clear_defined();
        for v in &block.inputargs {
            self.define(*v)?;
        }
        let live = self.live_pointers(b);
        for (i, op) in block.operations.iter().enumerate() {
            let OpName::Ll(llop) = op.opname else {
                self.origin.op = i as u32;
                return Err(self.err(format!(
                    "high-level operation `{}` in a low-level graph",
                    op.opname.name()
                )));
            };
            self.origin = Origin {
                block: b.as_u32(),
                op: i as u32,
                opname: Some(llop),
                graph: self.graph_tag(),
            };
            self.raising_last = i + 1 == block.operations.len()
                && matches!(block.exitswitch, ExitSwitch::LastException);
            self.lower_op(llop, &op.args, op.result)?;
            if let Some(vars) = &live[i] {
                let lo = self.f.gc_live.len() as u32;
                for &v in vars {
                    let r = self.register_of(v);
                    self.f.gc_live.push(r);
                }
                let hi = self.f.gc_live.len() as u32;
                if let Some(m) = self.f.gc_map.last_mut() {
                    *m = (lo, hi);
                }
            }
            self.define(op.result)?;
        }
        self.origin = Origin {
            block: b.as_u32(),
            op: NONE,
            opname: None,
            graph: self.graph_tag(),
        };
        if b == g.returnblock {
            let value = self.var_reg(block.inputargs[0])?;
            match self.ret {
                Some((dst, cont)) => self.emit(Instr::InlineReturn { value, dst, cont }),
                None => self.emit(Instr::Return { value }),
            }
            return Ok(());
        }
        if b == g.exceptblock {
            let [etype, evalue] = block.inputargs.as_slice() else {
                return Err(self.err("the except block must take two arguments"));
            };
            let (etype, evalue) = (self.var_reg(*etype)?, self.var_reg(*evalue)?);
            self.emit(Instr::Raise { etype, evalue });
            return Ok(());
        }
        match &block.exitswitch {
            ExitSwitch::None => {
                let [l] = block.exits.as_slice() else {
                    return Err(
                        self.err(format!("{} exits without an exitswitch", block.exits.len()))
                    );
                };
                let link = self.load_link(*l)?;
                self.emit(Instr::Jump { link });
            }
            ExitSwitch::Value(h) => self.load_switch(h, &block.exits)?,
            ExitSwitch::LastException => {
                let Some(last) = block.operations.last() else {
                    return Err(self.err("a raising block has no operations"));
                };
                self.load_catch(&block.exits, last.result)?
            }
        }
        Ok(())
    }

    fn load_link(&mut self, l: LinkId) -> Result<u32, LlError> {
        let g = self.graph;
        let link = g
            .links
            .get(l)
            .ok_or_else(|| self.err(format!("{l} does not exist")))?;
        let target = g
            .blocks
            .get(link.target)
            .ok_or_else(|| self.err(format!("{l} leads nowhere")))?;
        if link.args.len() != target.inputargs.len() {
            return Err(self.err(format!(
                "{l} passes {} values to {} which takes {}",
                link.args.len(),
                link.target,
                target.inputargs.len()
            )));
        }
        // in an inlined graph, a link to the return block moves the
        // result straight into the call's result and goes on after the
        // call site
        let inlined_return = match self.ret {
            Some((dst, cont)) if link.target == g.returnblock => Some((dst, cont)),
            _ => None,
        };
        let start = self.f.moves.len() as u32;
        for (a, &t) in link.args.iter().zip(&target.inputargs) {
            let src = self.reg(a)?;
            let dst = match inlined_return {
                Some((dst, _)) => dst,
                None => self.own_reg(t),
            };
            if src != dst {
                self.f.moves.push((src, dst));
            }
        }
        let moves = &self.f.moves[start as usize..];
        let parallel = moves
            .iter()
            .any(|&(_, d)| moves.iter().any(|&(s, _)| s == d));
        self.f.links.push(CLink {
            moves: (start, self.f.moves.len() as u32),
            target: 0,
            parallel,
        });
        let id = (self.f.links.len() - 1) as u32;
        match inlined_return {
            Some((_, cont)) => self.f.links[id as usize].target = cont,
            None => self.pending.push((id, link.target)),
        }
        Ok(id)
    }

    fn load_switch(&mut self, h: &Hlvalue, exits: &[LinkId]) -> Result<(), LlError> {
        let py = self.py;
        let t = self.ty(h)?;
        let value = self.reg(h)?;
        let g = self.graph;
        let case_of = |l: LinkId| g.links.get(l).and_then(|link| link.exitcase.clone());
        if t == BOOL && exits.len() == 2 {
            let mut targets = [NONE, NONE];
            for &l in exits {
                let c = case_of(l).ok_or_else(|| self.err("a switch exit has no exitcase"))?;
                let b: bool = c
                    .value
                    .bind(py)
                    .extract()
                    .map_err(|_| self.err("a Bool switch case is not a bool"))?;
                targets[b as usize] = self.load_link(l)?;
            }
            if targets.contains(&NONE) {
                return Err(self.err("a Bool switch needs a False and a True exit"));
            }
            // the switch on the result of the block's last instruction, a
            // comparison: one instruction (it still writes its result)
            let last = match self.f.code.last().copied() {
                Some(Instr::Op { op, dst, a, b, .. }) if fusable_with_if(op) => {
                    Some((op, dst, a, b))
                }
                // a Bool field
                Some(Instr::Getfield { dst, a, off }) => Some((LlOp::Getfield, dst, a, off)),
                _ => None,
            };
            if let Some((op, dst, a, b)) = last {
                if dst == value {
                    *self.f.code.last_mut().unwrap_or_else(|| unreachable!()) = Instr::OpIf {
                        op,
                        dst,
                        a,
                        b,
                        iffalse: targets[0],
                        iftrue: targets[1],
                    };
                    return Ok(());
                }
            }
            self.emit(Instr::If {
                cond: value,
                iffalse: targets[0],
                iftrue: targets[1],
            });
            return Ok(());
        }
        if !matches!(prim(t), Some(p) if p != Primitive::Void && p != Primitive::Float) {
            return Err(self.err(format!("cannot switch on a {t}")));
        }
        let mut cases = Vec::new();
        let mut default = NONE;
        for (i, &l) in exits.iter().enumerate() {
            let c = case_of(l).ok_or_else(|| self.err("a switch exit has no exitcase"))?;
            let is_default = c
                .value
                .bind(py)
                .extract::<String>()
                .map(|s| s == "default")
                .unwrap_or(false);
            if is_default && i + 1 == exits.len() && t != CHAR && t != UNICHAR {
                default = self.load_link(l)?;
                continue;
            }
            let typed = Constant::typed(c.value.clone(), t);
            let v =
                llconst::ll_value(py, &typed).map_err(|e| self.err(format!("switch case: {e}")))?;
            let link = self.load_link(l)?;
            cases.push((v, link));
        }
        let first = self.f.cases.len() as u32;
        let n = cases.len() as u32;
        self.f.cases.extend(cases);
        self.emit(Instr::Switch {
            value,
            first,
            n,
            default,
        });
        Ok(())
    }

    fn load_catch(&mut self, exits: &[LinkId], raising_result: VarId) -> Result<(), LlError> {
        let py = self.py;
        if exits.len() < 2 {
            return Err(self.err("a raising block needs a normal exit and an exception exit"));
        }
        let g = self.graph;
        if g.links.get(exits[0]).is_some_and(|l| l.exitcase.is_some()) {
            return Err(self.err("the first exit of a raising block must be the normal one"));
        }
        let normal = self.load_link(exits[0])?;
        // the raising operation gave no result when it raised
        self.undefine(raising_result);
        let mut handlers = Vec::new();
        for &l in &exits[1..] {
            let link = g
                .links
                .get(l)
                .ok_or_else(|| self.err(format!("{l} does not exist")))?;
            let case = link
                .exitcase
                .as_ref()
                .ok_or_else(|| self.err("an exception exit has no exception class"))?;
            let vtable = case
                .value
                .bind(py)
                .cast::<LlPtrConst>()
                .ok()
                .and_then(|p| p.get().ptr)
                .ok_or_else(|| self.err("an exception exit's case is not a vtable pointer"))?;
            let (lo, hi) = crate::exec::subclass_range(&self.program.heap, &vtable)
                .ok_or_else(|| self.err("an exception exit's vtable is not a readable vtable"))?;
            let reg_of = |v: Option<VarId>| -> Result<u32, LlError> {
                match v {
                    None => Ok(NONE),
                    Some(v) => {
                        let t = self.var_type(v)?;
                        if t.target().is_none() {
                            return Err(
                                self.err(format!("exception variable {v} is {t}, not a pointer"))
                            );
                        }
                        Ok(self.own_reg(v))
                    }
                }
            };
            let etype = reg_of(link.last_exception)?;
            let evalue = reg_of(link.last_exc_value)?;
            let extra: Vec<VarId> = [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
                .collect();
            for &v in &extra {
                self.define(v)?;
            }
            let link = self.load_link(l)?;
            for v in extra {
                self.undefine(v);
            }
            handlers.push(Handler {
                lo,
                hi,
                link,
                etype,
                evalue,
            });
        }
        let first = self.f.handlers.len() as u32;
        let n = handlers.len() as u32;
        self.f.handlers.extend(handlers);
        self.emit(Instr::Catch { normal, first, n });
        Ok(())
    }

    fn op(&mut self, op: LlOp, dst: u32, a: u32, b: u32, c: u32) {
        self.emit(match op {
            LlOp::Getfield => Instr::Getfield { dst, a, off: b },
            LlOp::Setfield => Instr::Setfield {
                dst,
                a,
                off: b,
                v: c,
            },
            LlOp::Getarrayitem => Instr::Getarrayitem { dst, a, i: b },
            LlOp::Setarrayitem => Instr::Setarrayitem { dst, a, i: b, v: c },
            LlOp::IntAdd => Instr::IntAdd { dst, a, b },
            LlOp::IntSub => Instr::IntSub { dst, a, b },
            LlOp::IntAddOvf => Instr::IntAddOvf { dst, a, b },
            LlOp::IntSubOvf => Instr::IntSubOvf { dst, a, b },
            _ => Instr::Op { op, dst, a, b, c },
        });
    }

    fn template(&mut self, t: LlType) -> u32 {
        let mut slots = Vec::new();
        t.zero_slots(&mut slots);
        let mut item = Vec::new();
        if let Some(i) = t.varsize_item() {
            i.zero_slots(&mut item);
        }
        self.f.templates.push(Template { ty: t, slots, item });
        (self.f.templates.len() - 1) as u32
    }

    /// A field of struct `s`: its slot offset and type.
    fn field(&self, s: LlType, name: &str) -> Result<(u32, LlType), LlError> {
        if !matches!(s.def(), TypeDef::Struct { .. }) {
            return Err(self.err(format!("{s} is not a struct")));
        }
        let t = s
            .field_type(name)
            .ok_or_else(|| self.err(format!("{s} has no field `{name}`")))?;
        let off = s
            .field_offset(name)
            .ok_or_else(|| self.err(format!("{s} has no field `{name}`")))?;
        Ok((off as u32, t))
    }

    /// Lowers one operation.  Operands of `Instr::Op` by operation:
    /// primitive ops `a`, `b`; `malloc` `b`=template; `malloc_varsize`
    /// `a`=length, `b`=template; `getfield` `a`=ptr, `b`=slot; `setfield`
    /// `a`=ptr, `b`=slot, `c`=value; `getsubstruct` `a`=ptr, `b`=slot,
    /// `c`=types index; `getarrayitem` `a`=ptr, `b`=index; `setarrayitem`
    /// `a`, `b`, `c`=value; interior ops `a`=ptr, `b`=interiors index;
    /// `cast_pointer` `a`=ptr, `b`=types index, `c`=1 when a down-cast to
    /// check; `debug_assert` `a`=cond, `b`=messages index.
    fn lower_op(&mut self, op: LlOp, args: &[Hlvalue], result: VarId) -> Result<(), LlError> {
        let dst = self.own_reg(result);
        let rt = self.var_type(result)?;
        let kind = lowering(op).ok_or_else(|| {
            self.err("an operation of graphs prepared for a compiled backend (the llinterp runs graphs before preparation)")
        })?;
        match kind {
            Lowering::Simple => {
                let a = match args.first() {
                    Some(h) => self.reg(h)?,
                    None => NONE,
                };
                let b = match args.get(1) {
                    Some(h) => self.reg(h)?,
                    None => NONE,
                };
                let c = match args.get(2) {
                    Some(h) => self.reg(h)?,
                    None => 0,
                };
                self.op(op, dst, a, b, c);
            }
            Lowering::SameAs if !self.raising_last && self.ty(&args[0])? == rt => {
                let a = self.reg(&args[0])?;
                self.alias[result.as_u32() as usize] = a;
            }
            Lowering::SameAs | Lowering::PtrTest | Lowering::KeepAlive => {
                let a = self.reg(&args[0])?;
                self.op(op, dst, a, 0, 0);
            }
            Lowering::Malloc | Lowering::MallocVarsize => {
                let t = self.void_type(&args[0])?;
                let a = match args.get(1) {
                    Some(h) => self.reg(h)?,
                    None => NONE,
                };
                let b = self.template(t);
                self.op(op, dst, a, b, 0);
            }
            Lowering::Getfield | Lowering::Setfield => {
                let s = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
                let name = self.void_name(&args[1])?;
                let (off, _) = self.field(s, &name)?;
                let a = self.reg(&args[0])?;
                let c = if op == LlOp::Setfield {
                    self.reg(&args[2])?
                } else {
                    0
                };
                self.op(op, dst, a, off, c);
            }
            Lowering::Getsubstruct => {
                let s = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
                let name = self.void_name(&args[1])?;
                let (off, ft) = self.field(s, &name)?;
                let a = self.reg(&args[0])?;
                let c = self.add_type(ft);
                self.op(op, dst, a, off, c);
            }
            Lowering::Getarrayitem | Lowering::Setarrayitem | Lowering::Getarraysize => {
                let a = self.reg(&args[0])?;
                let (b, c) = match op {
                    LlOp::Getarraysize => (0, 0),
                    LlOp::Getarrayitem => (self.reg(&args[1])?, 0),
                    _ => (self.reg(&args[1])?, self.reg(&args[2])?),
                };
                self.op(op, dst, a, b, c);
            }
            Lowering::Interior => self.lower_interior(op, args, dst)?,
            Lowering::CastPointer => {
                let mut t = self.void_type(&args[0])?;
                if let Some(x) = t.target() {
                    t = x;
                }
                let from = self.ptr_target(self.ty(&args[1])?, "the pointer")?;
                // the verifier made sure one struct starts with the other
                let down = t != from && t.starts_with(from);
                let a = self.reg(&args[1])?;
                let b = self.add_type(t);
                self.op(op, dst, a, b, down as u32);
            }
            Lowering::PtrCompare => {
                let (a, b) = (self.reg(&args[0])?, self.reg(&args[1])?);
                self.op(op, dst, a, b, 0);
            }
            Lowering::Call => self.lower_call(op, args, dst)?,
            Lowering::External => self.lower_external(args, dst, rt)?,
            Lowering::DebugAssert => {
                let a = self.reg(&args[0])?;
                let msg = args[1]
                    .as_const()
                    .and_then(|c| llconst::name_of_constant(self.py, c))
                    .unwrap_or_default();
                self.f.messages.push(msg);
                let b = (self.f.messages.len() - 1) as u32;
                self.op(op, dst, a, b, 0);
            }
        }
        Ok(())
    }

    fn lower_interior(&mut self, op: LlOp, args: &[Hlvalue], dst: u32) -> Result<(), LlError> {
        let mut cur = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
        let path_end = if op == LlOp::Setinteriorfield {
            args.len() - 1
        } else {
            args.len()
        };
        let mut steps = Vec::new();
        for h in &args[1..path_end] {
            match cur.def() {
                TypeDef::Struct { .. } => {
                    let name = self.void_name(h)?;
                    let (off, ft) = self.field(cur, &name)?;
                    steps.push(Step::Field(off));
                    cur = ft;
                }
                TypeDef::Array { item, .. } => {
                    steps.push(Step::Index(self.reg(h)?));
                    cur = item;
                }
                _ => return Err(self.err(format!("cannot step into a {cur}"))),
            }
        }
        let value = match op {
            LlOp::Setinteriorfield => self.reg(&args[args.len() - 1])?,
            _ => NONE,
        };
        let a = self.reg(&args[0])?;
        // fields before the index do not move the slot: the index resets it
        let index_at = steps.iter().position(|s| matches!(s, Step::Index(_)));
        if let Some(k) = index_at {
            let Step::Index(i) = steps[k] else {
                unreachable!("position found an Index")
            };
            let mut off = 0;
            let mut simple = true;
            for s in &steps[k + 1..] {
                match s {
                    Step::Field(o) => off += o,
                    Step::Index(_) => simple = false,
                }
            }
            if simple && op != LlOp::Getinteriorarraysize {
                self.emit(match op {
                    LlOp::Getinteriorfield => Instr::GetinteriorItem { dst, a, i, off },
                    _ => Instr::SetinteriorItem {
                        dst,
                        a,
                        i,
                        off,
                        v: value,
                    },
                });
                return Ok(());
            }
        }
        self.f.interiors.push(Interior { steps, value });
        let b = (self.f.interiors.len() - 1) as u32;
        self.op(op, dst, a, b, 0);
        Ok(())
    }

    fn lower_call(&mut self, op: LlOp, args: &[Hlvalue], dst: u32) -> Result<(), LlError> {
        let ft = self.ptr_target(self.ty(&args[0])?, "the function pointer")?;
        let mut actual = &args[1..];
        if op == LlOp::IndirectCall {
            // the last argument lists the graphs that may be called (or None)
            actual = &actual[..actual.len().saturating_sub(1)];
        }
        let start = self.f.operands.len() as u32;
        for a in actual {
            let r = self.reg(a)?;
            self.f.operands.push(r);
        }
        let nargs = actual.len() as u32;
        let fconst = args[0]
            .as_const()
            .map(|c| llconst::ll_value(self.py, c))
            .transpose()
            .map_err(|e| self.err(e))?;
        match fconst {
            Some(LlValue::Func(f))
                if op == LlOp::DirectCall
                    && self.plans.get(f.index as usize).is_some_and(|p| p.inline) =>
            {
                // inlined: the arguments move into the callee's registers,
                // its blocks come after the function's own
                self.f.operands.truncate(start as usize);
                let callee = f.index as usize;
                let cg = &self.program.functions[callee].graph;
                let params = &cg.blocks[cg.startblock].inputargs;
                if params.len() != actual.len() {
                    return Err(self.err(format!(
                        "calling `{}` with {} arguments, it takes {}",
                        self.program.functions[callee].name,
                        actual.len(),
                        params.len()
                    )));
                }
                let base = self.next_region;
                self.next_region += cg.vars.len() as u32;
                let mstart = self.f.moves.len() as u32;
                // the parameters can read the arguments' registers unless
                // a link of the callee goes back to its start block (and
                // would write them)
                let reentered = cg.iterblocks().into_iter().any(|b| {
                    cg.blocks[b]
                        .exits
                        .iter()
                        .any(|&l| cg.links.get(l).is_some_and(|l| l.target == cg.startblock))
                });
                let mut param_regs = Vec::new();
                for (a, p) in actual.iter().zip(params) {
                    let r = self.reg(a)?;
                    if reentered {
                        self.f.moves.push((r, base + p.as_u32()));
                    } else {
                        param_regs.push(r);
                    }
                }
                self.f.links.push(CLink {
                    moves: (mstart, self.f.moves.len() as u32),
                    target: 0,
                    // the callee's registers are not the caller's
                    parallel: false,
                });
                let link = (self.f.links.len() - 1) as u32;
                self.emit(Instr::Jump { link });
                self.inline_queue.push(PendingInline {
                    callee,
                    base,
                    link,
                    site: (self.f.code.len() - 1) as u32,
                    dst,
                    params: param_regs,
                });
            }
            Some(LlValue::Func(f)) => {
                self.emit(Instr::Call {
                    dst,
                    func: f.index,
                    args: start,
                    nargs,
                });
            }
            _ => {
                let fptr = self.reg(&args[0])?;
                let ty = self.add_type(ft);
                self.emit(Instr::CallPtr {
                    dst,
                    fptr,
                    args: start,
                    nargs,
                    ty,
                });
            }
        }
        Ok(())
    }

    fn lower_external(&mut self, args: &[Hlvalue], dst: u32, rt: LlType) -> Result<(), LlError> {
        let name = args
            .first()
            .and_then(|a| a.as_const())
            .and_then(|c| llconst::name_of_constant(self.py, c))
            .ok_or_else(|| self.err("external_call needs the function's name first"))?;
        let func = ExtFunc::from_name(&name)
            .ok_or_else(|| self.err(format!("no external function named '{name}'")))?;
        let actual = &args[1..];
        let start = self.f.operands.len() as u32;
        for a in actual {
            let r = self.reg(a)?;
            self.f.operands.push(r);
        }
        let ty = self.add_type(rt);
        self.emit(Instr::External {
            dst,
            func,
            args: start,
            nargs: actual.len() as u32,
            ty,
        });
        Ok(())
    }
}
