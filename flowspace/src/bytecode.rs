//! Decoding of CPython 3.11 code objects: instructions, exception table,
//! line numbers and the layout of the "fast locals plus" slots.
//!
//! This is the only module that knows the bytecode of a particular CPython
//! version; it turns it into [`Instr`]s with a version-neutral [`Op`], so
//! 3.12 and 3.13 can be added here without touching the abstract
//! interpreter.  Decoding goes through the running interpreter's own `dis`
//! module, which resolves arguments (names, constants, jump targets).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use rpy3_model::PyObj;

use crate::error::FlowError;

/// Code flags (`co_flags`).
pub const CO_VARARGS: u32 = 0x04;
/// `**kwargs` present.
pub const CO_VARKEYWORDS: u32 = 0x08;
/// Generator function.
pub const CO_GENERATOR: u32 = 0x20;
/// Coroutine.
pub const CO_COROUTINE: u32 = 0x80;
/// Async generator.
pub const CO_ASYNC_GENERATOR: u32 = 0x200;
/// Iterable coroutine.
pub const CO_ITERABLE_COROUTINE: u32 = 0x100;

/// The version-neutral operations the abstract interpreter implements
/// (named after the CPython instructions they come from).
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum Op {
    Nop,
    /// `MAKE_CELL i`: a cell for local slot `i` (a box when nested
    /// functions assign the variable, see `rpy3._cells`; else nothing).
    MakeCell,
    PopTop,
    PushNull,
    Copy,
    Swap,
    ReturnGenerator,
    LoadConst,
    LoadFast,
    StoreFast,
    DeleteFast,
    LoadDeref,
    StoreDeref,
    DeleteDeref,
    LoadClosure,
    LoadGlobal,
    StoreGlobal,
    DeleteGlobal,
    LoadAttr,
    LoadMethod,
    StoreAttr,
    DeleteAttr,
    BinarySubscr,
    StoreSubscr,
    DeleteSubscr,
    BuildSlice,
    /// Fused `BUILD_SLICE 2; BINARY_SUBSCR`.
    GetSlice,
    /// Fused `BUILD_SLICE 2; STORE_SUBSCR`.
    SetSlice,
    /// Fused `BUILD_SLICE 2; DELETE_SUBSCR`.
    DelSlice,
    BinaryOp,
    UnaryPositive,
    UnaryNegative,
    UnaryInvert,
    UnaryNot,
    CompareOp,
    IsOp,
    ContainsOp,
    JumpForward,
    JumpBackward,
    PopJumpIfFalse,
    PopJumpIfTrue,
    PopJumpIfNone,
    PopJumpIfNotNone,
    JumpIfFalseOrPop,
    JumpIfTrueOrPop,
    GetIter,
    ForIter,
    RaiseVarargs,
    Reraise,
    PushExcInfo,
    PopExcept,
    CheckExcMatch,
    LoadAssertionError,
    ReturnValue,
    YieldValue,
    BuildTuple,
    BuildList,
    BuildSet,
    BuildMap,
    BuildConstKeyMap,
    /// Fused `BUILD_LIST 0; LOAD_CONST tuple; LIST_EXTEND 1`: argval is the tuple.
    BuildListFromConst,
    /// Fused `BUILD_SET 0; LOAD_CONST frozenset; SET_UPDATE 1`.
    BuildSetFromConst,
    /// A `BUILD_LIST` whose list only collects the items of a tuple
    /// (`f(a, *b)`, `(a, *b)`): it builds a tuple instead.
    BuildTupleFromList,
    /// `LIST_EXTEND 1` into such a list: concatenates a tuple of the items.
    TupleExtend,
    /// `LIST_APPEND 1` into such a list.
    TupleAppend,
    /// `CALL_FUNCTION_EX 1` whose keyword dict is a literal with `arg`
    /// constant keys built just before it (`f(*a, k=v)`): argval holds the
    /// keys, the values are on the stack.
    CallFunctionExKw,
    /// `CALL_FUNCTION_EX 1` whose keyword dict is a `BUILD_MAP arg` built
    /// just before it: the (key, value) pairs are on the stack.
    CallFunctionExKwPairs,
    ListAppend,
    SetAdd,
    MapAdd,
    ListExtend,
    SetUpdate,
    DictUpdate,
    DictMerge,
    ListToTuple,
    UnpackSequence,
    UnpackEx,
    FormatValue,
    BuildString,
    MakeFunction,
    KwNames,
    Call,
    CallFunctionEx,
    BeforeWith,
    WithExceptStart,
    ImportName,
    ImportFrom,
    MatchSequence,
    MatchMapping,
    MatchKeys,
    MatchClass,
    GetLen,
    GetYieldFromIter,
    Send,
    /// Anything else: flowing it is an error naming the opcode.
    Unsupported(String),
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Instr {
    /// Byte offset of the instruction (of its first `EXTENDED_ARG`, if any).
    pub offset: u32,
    /// Offset of the instruction that follows it in the code.
    pub next_offset: u32,
    /// The operation.
    pub op: Op,
    /// The full argument (0 when the opcode takes none).
    pub arg: u32,
    /// The resolved argument: the constant, the name, or `None`.
    pub argval: Option<PyObj>,
    /// The resolved argument as a string when it is a name.
    pub name: String,
    /// Jump target offset for jumps.
    pub target: u32,
    /// Source line.
    pub lineno: u32,
    /// The columns of the source the instruction comes from (UTF-8 byte
    /// offsets in the line, end excluded), when it lies on one line
    /// (`co_positions()`).
    pub columns: Option<(u32, u32)>,
    /// The instruction's effect on the stack depth when it falls through.
    pub stack_effect: i32,
}

/// An entry of the exception table.
#[derive(Clone, Debug)]
pub struct ExcEntry {
    /// First covered offset.
    pub start: u32,
    /// End (exclusive) of the covered range.
    pub end: u32,
    /// Handler offset.
    pub target: u32,
    /// Stack depth to unwind to.
    pub depth: usize,
    /// Whether the offset of the raising instruction is pushed.
    pub lasti: bool,
}

/// Everything the abstract interpreter needs from a code object.
pub struct CodeInfo {
    /// The code object itself.
    pub object: PyObj,
    /// `co_qualname`.
    pub qualname: String,
    /// `co_filename`.
    pub filename: String,
    /// `co_firstlineno`.
    pub firstlineno: u32,
    /// `co_flags`.
    pub flags: u32,
    /// `co_argcount`.
    pub argcount: usize,
    /// `co_kwonlyargcount`.
    pub kwonlyargcount: usize,
    /// Names of the local slots: `co_varnames`, then cell variables that
    /// are not arguments, then `co_freevars`.
    pub localsplus: Vec<String>,
    /// Index of the first free variable slot.
    pub first_freevar: usize,
    /// `co_freevars`.
    pub freevars: Vec<String>,
    /// Decoded instructions, in order.
    pub instrs: Vec<Instr>,
    /// Offset to index in `instrs`.
    pub index: HashMap<u32, usize>,
    /// The exception table.
    pub exctable: Vec<ExcEntry>,
}

impl CodeInfo {
    /// Decodes `code`, a CPython code object.
    pub fn decode(py: Python<'_>, code: &Bound<'_, PyAny>) -> Result<CodeInfo, FlowError> {
        decode(py, code).map_err(|e| {
            let filename = code
                .getattr("co_filename")
                .and_then(|f| f.extract::<String>())
                .unwrap_or_else(|_| "<unknown>".into());
            let line = code
                .getattr("co_firstlineno")
                .and_then(|f| f.extract::<u32>())
                .unwrap_or(0);
            FlowError::new(format!("cannot decode the bytecode: {e}"), filename, line)
        })
    }

    /// The instruction at `offset`.
    pub fn instr_at(&self, offset: u32) -> Option<&Instr> {
        self.index.get(&offset).map(|&i| &self.instrs[i])
    }

    /// The innermost handler covering `offset`, if any.
    pub fn handler_for(&self, offset: u32) -> Option<&ExcEntry> {
        self.exctable
            .iter()
            .find(|e| e.start <= offset && offset < e.end)
    }
}

fn map_opname(name: &str) -> Op {
    match name {
        "NOP" | "RESUME" | "PRECALL" | "COPY_FREE_VARS" | "EXTENDED_ARG" | "CACHE" => Op::Nop,
        "MAKE_CELL" => Op::MakeCell,
        "POP_TOP" => Op::PopTop,
        "PUSH_NULL" => Op::PushNull,
        "COPY" => Op::Copy,
        "SWAP" => Op::Swap,
        "RETURN_GENERATOR" => Op::ReturnGenerator,
        "LOAD_CONST" => Op::LoadConst,
        "LOAD_FAST" => Op::LoadFast,
        "STORE_FAST" => Op::StoreFast,
        "DELETE_FAST" => Op::DeleteFast,
        "LOAD_DEREF" => Op::LoadDeref,
        "STORE_DEREF" => Op::StoreDeref,
        "DELETE_DEREF" => Op::DeleteDeref,
        "LOAD_CLOSURE" => Op::LoadClosure,
        "LOAD_GLOBAL" => Op::LoadGlobal,
        "STORE_GLOBAL" => Op::StoreGlobal,
        "DELETE_GLOBAL" => Op::DeleteGlobal,
        "LOAD_ATTR" => Op::LoadAttr,
        "LOAD_METHOD" => Op::LoadMethod,
        "STORE_ATTR" => Op::StoreAttr,
        "DELETE_ATTR" => Op::DeleteAttr,
        "BINARY_SUBSCR" => Op::BinarySubscr,
        "STORE_SUBSCR" => Op::StoreSubscr,
        "DELETE_SUBSCR" => Op::DeleteSubscr,
        "BUILD_SLICE" => Op::BuildSlice,
        "BINARY_OP" => Op::BinaryOp,
        "UNARY_POSITIVE" => Op::UnaryPositive,
        "UNARY_NEGATIVE" => Op::UnaryNegative,
        "UNARY_INVERT" => Op::UnaryInvert,
        "UNARY_NOT" => Op::UnaryNot,
        "COMPARE_OP" => Op::CompareOp,
        "IS_OP" => Op::IsOp,
        "CONTAINS_OP" => Op::ContainsOp,
        "JUMP_FORWARD" => Op::JumpForward,
        "JUMP_BACKWARD" | "JUMP_BACKWARD_NO_INTERRUPT" => Op::JumpBackward,
        "POP_JUMP_FORWARD_IF_FALSE" | "POP_JUMP_BACKWARD_IF_FALSE" => Op::PopJumpIfFalse,
        "POP_JUMP_FORWARD_IF_TRUE" | "POP_JUMP_BACKWARD_IF_TRUE" => Op::PopJumpIfTrue,
        "POP_JUMP_FORWARD_IF_NONE" | "POP_JUMP_BACKWARD_IF_NONE" => Op::PopJumpIfNone,
        "POP_JUMP_FORWARD_IF_NOT_NONE" | "POP_JUMP_BACKWARD_IF_NOT_NONE" => Op::PopJumpIfNotNone,
        "JUMP_IF_FALSE_OR_POP" => Op::JumpIfFalseOrPop,
        "JUMP_IF_TRUE_OR_POP" => Op::JumpIfTrueOrPop,
        "GET_ITER" => Op::GetIter,
        "FOR_ITER" => Op::ForIter,
        "RAISE_VARARGS" => Op::RaiseVarargs,
        "RERAISE" => Op::Reraise,
        "PUSH_EXC_INFO" => Op::PushExcInfo,
        "POP_EXCEPT" => Op::PopExcept,
        "CHECK_EXC_MATCH" => Op::CheckExcMatch,
        "LOAD_ASSERTION_ERROR" => Op::LoadAssertionError,
        "RETURN_VALUE" => Op::ReturnValue,
        "YIELD_VALUE" => Op::YieldValue,
        "BUILD_TUPLE" => Op::BuildTuple,
        "BUILD_LIST" => Op::BuildList,
        "BUILD_SET" => Op::BuildSet,
        "BUILD_MAP" => Op::BuildMap,
        "BUILD_CONST_KEY_MAP" => Op::BuildConstKeyMap,
        "LIST_APPEND" => Op::ListAppend,
        "SET_ADD" => Op::SetAdd,
        "MAP_ADD" => Op::MapAdd,
        "LIST_EXTEND" => Op::ListExtend,
        "SET_UPDATE" => Op::SetUpdate,
        "DICT_UPDATE" => Op::DictUpdate,
        "DICT_MERGE" => Op::DictMerge,
        "LIST_TO_TUPLE" => Op::ListToTuple,
        "UNPACK_SEQUENCE" => Op::UnpackSequence,
        "UNPACK_EX" => Op::UnpackEx,
        "FORMAT_VALUE" => Op::FormatValue,
        "BUILD_STRING" => Op::BuildString,
        "MAKE_FUNCTION" => Op::MakeFunction,
        "KW_NAMES" => Op::KwNames,
        "CALL" => Op::Call,
        "CALL_FUNCTION_EX" => Op::CallFunctionEx,
        "BEFORE_WITH" => Op::BeforeWith,
        "WITH_EXCEPT_START" => Op::WithExceptStart,
        "IMPORT_NAME" => Op::ImportName,
        "IMPORT_FROM" => Op::ImportFrom,
        "MATCH_SEQUENCE" => Op::MatchSequence,
        "MATCH_MAPPING" => Op::MatchMapping,
        "MATCH_KEYS" => Op::MatchKeys,
        "MATCH_CLASS" => Op::MatchClass,
        "GET_LEN" => Op::GetLen,
        "GET_YIELD_FROM_ITER" => Op::GetYieldFromIter,
        "SEND" => Op::Send,
        other => Op::Unsupported(other.to_string()),
    }
}

fn decode(py: Python<'_>, code: &Bound<'_, PyAny>) -> PyResult<CodeInfo> {
    let dis = py.import("dis")?;
    let get = |name: &str| code.getattr(name);
    let varnames: Vec<String> = get("co_varnames")?.extract()?;
    let cellvars: Vec<String> = get("co_cellvars")?.extract()?;
    let freevars: Vec<String> = get("co_freevars")?.extract()?;
    let mut localsplus = varnames.clone();
    for c in &cellvars {
        if !varnames.contains(c) {
            localsplus.push(c.clone());
        }
    }
    let first_freevar = localsplus.len();
    localsplus.extend(freevars.iter().cloned());
    let consts: Vec<PyObj> = get("co_consts")?
        .cast_into::<PyTuple>()?
        .iter()
        .map(|c| PyObj::new(&c))
        .collect();

    let mut instrs: Vec<Instr> = Vec::new();
    let mut ext_start: Option<u32> = None;
    let mut lineno: u32 = get("co_firstlineno")?.extract()?;
    for ins in dis.call_method1("get_instructions", (code,))?.try_iter()? {
        let ins = ins?;
        let opname: String = ins.getattr("opname")?.extract()?;
        let offset: u32 = ins.getattr("offset")?.extract()?;
        let positions = ins.getattr("positions")?;
        if let Ok(Some(l)) = positions.getattr("lineno")?.extract::<Option<u32>>() {
            lineno = l;
        }
        let columns = match (
            positions.getattr("end_lineno")?.extract::<Option<u32>>(),
            positions.getattr("col_offset")?.extract::<Option<u32>>(),
            positions.getattr("end_col_offset")?.extract::<Option<u32>>(),
        ) {
            (Ok(Some(end)), Ok(Some(start_col)), Ok(Some(end_col)))
                if end == lineno && start_col < end_col =>
            {
                Some((start_col, end_col))
            }
            _ => None,
        };
        if opname == "EXTENDED_ARG" {
            ext_start.get_or_insert(offset);
            continue;
        }
        let start = ext_start.take().unwrap_or(offset);
        let arg: Option<u32> = ins.getattr("arg")?.extract()?;
        let argval = ins.getattr("argval")?;
        let op = map_opname(&opname);
        let is_jump = matches!(
            op,
            Op::JumpForward
                | Op::JumpBackward
                | Op::PopJumpIfFalse
                | Op::PopJumpIfTrue
                | Op::PopJumpIfNone
                | Op::PopJumpIfNotNone
                | Op::JumpIfFalseOrPop
                | Op::JumpIfTrueOrPop
                | Op::ForIter
                | Op::Send
        );
        let target = if is_jump { argval.extract::<u32>()? } else { 0 };
        let name = argval.extract::<String>().unwrap_or_default();
        let opcode: u32 = ins.getattr("opcode")?.extract()?;
        let takes_arg = opcode >= dis.getattr("HAVE_ARGUMENT")?.extract::<u32>()?;
        let stack_effect: i32 = if takes_arg {
            dis.call_method1("stack_effect", (opcode, arg.unwrap_or(0)))?
                .extract()
                .unwrap_or(0)
        } else {
            dis.call_method1("stack_effect", (opcode,))?
                .extract()
                .unwrap_or(0)
        };
        let argval = match op {
            Op::KwNames => Some(consts[arg.unwrap_or(0) as usize].clone()),
            _ if argval.is_none() => None,
            _ => Some(PyObj::new(&argval)),
        };
        instrs.push(Instr {
            offset: start,
            next_offset: 0,
            op,
            arg: arg.unwrap_or(0),
            argval,
            name,
            target,
            lineno,
            columns,
            stack_effect,
        });
    }
    let total_len = get("co_code")?.len()? as u32;
    for i in 0..instrs.len() {
        instrs[i].next_offset = if i + 1 < instrs.len() {
            instrs[i + 1].offset
        } else {
            total_len
        };
    }
    let mut exctable = Vec::new();
    for e in dis
        .call_method1("_parse_exception_table", (code,))?
        .try_iter()?
    {
        let e = e?;
        exctable.push(ExcEntry {
            start: e.getattr("start")?.extract()?,
            end: e.getattr("end")?.extract()?,
            target: e.getattr("target")?.extract()?,
            depth: e.getattr("depth")?.extract()?,
            lasti: e.getattr("lasti")?.extract()?,
        });
    }
    let instrs = fuse(instrs);
    let instrs = tuple_builders(instrs);
    let index = instrs
        .iter()
        .enumerate()
        .map(|(i, ins)| (ins.offset, i))
        .collect();
    Ok(CodeInfo {
        object: PyObj::new(code),
        qualname: get("co_qualname")?.extract()?,
        filename: get("co_filename")?.extract()?,
        firstlineno: get("co_firstlineno")?.extract()?,
        flags: get("co_flags")?.extract()?,
        argcount: get("co_argcount")?.extract()?,
        kwonlyargcount: get("co_kwonlyargcount")?.extract()?,
        localsplus,
        first_freevar,
        freevars,
        instrs,
        index,
        exctable,
    })
}

/// Finds lists that only collect the items of a tuple: a `BUILD_LIST`
/// whose list, in straight-line code, only receives `LIST_EXTEND 1` /
/// `LIST_APPEND 1` and ends in `LIST_TO_TUPLE`.  Python 3.11 compiles
/// `f(a, *b)` and `(a, *b)` that way; building the tuple directly keeps
/// its length known to the annotator.  A keyword dict literal with
/// constant keys right before `CALL_FUNCTION_EX 1` becomes keywords.
fn tuple_builders(mut instrs: Vec<Instr>) -> Vec<Instr> {
    let targets: std::collections::HashSet<u32> = instrs
        .iter()
        .filter(|i| i.target != 0)
        .map(|i| i.target)
        .collect();
    let is_jump = |i: &Instr| {
        i.target != 0 || matches!(i.op, Op::ReturnValue | Op::RaiseVarargs | Op::Reraise)
    };
    for start in 0..instrs.len() {
        if instrs[start].op != Op::BuildList {
            continue;
        }
        let mut rel: i32 = 0;
        let mut members = Vec::new();
        let mut end = None;
        for (j, ins) in instrs.iter().enumerate().skip(start + 1) {
            if targets.contains(&ins.offset) || is_jump(ins) {
                break;
            }
            match ins.op {
                Op::ListExtend | Op::ListAppend if ins.arg == 1 && rel == 1 => members.push(j),
                Op::ListToTuple if rel == 0 => {
                    end = Some(j);
                    break;
                }
                _ => {}
            }
            rel += ins.stack_effect;
            if rel < 0 {
                break;
            }
        }
        if let Some(end) = end {
            instrs[start].op = Op::BuildTupleFromList;
            for j in members {
                instrs[j].op = if instrs[j].op == Op::ListExtend {
                    Op::TupleExtend
                } else {
                    Op::TupleAppend
                };
            }
            instrs[end].op = Op::Nop;
        }
    }
    // `BUILD_MAP n; CALL_FUNCTION_EX 1` and
    // `LOAD_CONST keys; BUILD_CONST_KEY_MAP n; CALL_FUNCTION_EX 1`
    for i in 1..instrs.len() {
        if instrs[i].op == Op::CallFunctionEx
            && instrs[i].arg & 1 == 1
            && instrs[i - 1].op == Op::BuildMap
            && !targets.contains(&instrs[i].offset)
        {
            instrs[i].op = Op::CallFunctionExKwPairs;
            instrs[i].arg = instrs[i - 1].arg;
            instrs[i - 1].op = Op::Nop;
            continue;
        }
        if instrs[i].op == Op::CallFunctionEx
            && instrs[i].arg & 1 == 1
            && instrs[i - 1].op == Op::BuildConstKeyMap
            && !targets.contains(&instrs[i].offset)
            && !targets.contains(&instrs[i - 1].offset)
        {
            // the keys are the constant loaded just before the map
            if i >= 2
                && instrs[i - 2].op == Op::LoadConst
                && !targets.contains(&instrs[i - 2].offset)
            {
                let keys = instrs[i - 2].argval.clone();
                let n = instrs[i - 1].arg;
                instrs[i].op = Op::CallFunctionExKw;
                instrs[i].argval = keys;
                instrs[i].arg = n;
                instrs[i - 1].op = Op::Nop;
                instrs[i - 2].op = Op::Nop;
            }
        }
    }
    instrs
}

/// Fuses instruction pairs that express one RPython operation
/// (`x[a:b]`, `[1, 2, 3]`), so the flow graph gets `getslice` and a
/// `newlist` of constants instead of slice objects and `extend` calls.
/// A fused instruction keeps the offset of the first one; an instruction
/// that is a jump target is never absorbed.
fn fuse(instrs: Vec<Instr>) -> Vec<Instr> {
    let targets: std::collections::HashSet<u32> = instrs
        .iter()
        .filter(|i| i.target != 0)
        .map(|i| i.target)
        .collect();
    let mut out: Vec<Instr> = Vec::with_capacity(instrs.len());
    let mut i = 0;
    while i < instrs.len() {
        let ins = &instrs[i];
        let next = instrs.get(i + 1).filter(|n| !targets.contains(&n.offset));
        if ins.op == Op::BuildSlice && ins.arg == 2 {
            if let Some(n) = next {
                let fused = match n.op {
                    Op::BinarySubscr => Some(Op::GetSlice),
                    Op::StoreSubscr => Some(Op::SetSlice),
                    Op::DeleteSubscr => Some(Op::DelSlice),
                    _ => None,
                };
                if let Some(op) = fused {
                    out.push(Instr {
                        op,
                        next_offset: n.next_offset,
                        lineno: n.lineno,
                        columns: n.columns,
                        // (the effect of both: `tuple_builders` follows it)
                        stack_effect: ins.stack_effect + n.stack_effect,
                        ..ins.clone()
                    });
                    i += 2;
                    continue;
                }
            }
        }
        if (ins.op == Op::BuildList || ins.op == Op::BuildSet) && ins.arg == 0 {
            let n2 = instrs.get(i + 2).filter(|n| !targets.contains(&n.offset));
            if let (Some(c), Some(e)) = (next, n2) {
                let want = if ins.op == Op::BuildList {
                    Op::ListExtend
                } else {
                    Op::SetUpdate
                };
                if c.op == Op::LoadConst && e.op == want && e.arg == 1 {
                    let op = if ins.op == Op::BuildList {
                        Op::BuildListFromConst
                    } else {
                        Op::BuildSetFromConst
                    };
                    out.push(Instr {
                        op,
                        argval: c.argval.clone(),
                        next_offset: e.next_offset,
                        stack_effect: ins.stack_effect + c.stack_effect + e.stack_effect,
                        ..ins.clone()
                    });
                    i += 3;
                    continue;
                }
            }
        }
        out.push(ins.clone());
        i += 1;
    }
    out
}
