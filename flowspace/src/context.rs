//! The engine of the flow space: pending blocks, join points, recording of
//! operations, forking on truth tests and on possible exceptions.
//!
//! As in PyPy's `flowcontext.py`, a "spam" block starts at an instruction
//! boundary in a known frame state and records the operations of one
//! instruction; the next instruction that records an operation ends the
//! block at a join point, where its state is merged with the blocks
//! already started there (two different constants generalise to a
//! variable).  A fork (a truth test on a variable, an operation that may
//! raise inside a `try`) closes the block and creates one "egg" block per
//! outcome; flowing an egg replays the instruction from the spam block's
//! state, taking the recorded outcome at the fork, then records on.

use std::collections::{HashMap, VecDeque};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rpy3_model::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
    VarId,
};

use crate::bytecode::CodeInfo;
use crate::error::FlowError;
use crate::framestate::{FrameState, FrameValue};

/// Why the flowing of the current block stopped.
pub(crate) enum Signal {
    /// The block was closed by a fork.
    StopFlowing,
    /// The block ends at a join point in this state.
    Merge(FrameState),
    /// An exception is propagating in the frame.
    Raise { etype: Hlvalue, evalue: Hlvalue },
    /// The function returns.
    Return(Hlvalue),
    /// The code is not RPython.
    Error(FlowError),
}

pub(crate) type FlowResult<T> = Result<T, Signal>;

/// The outcome an egg block takes at its parent's fork.
#[derive(Clone)]
enum Outcome {
    Bool(bool),
    Normal,
    Exc { etype: Hlvalue, evalue: VarId },
}

enum BlockKind {
    Spam { state: FrameState, dead: bool },
    Egg { prev: BlockId, outcome: Outcome },
}

struct ReplayStep {
    ops: Vec<(OpName, VarId)>,
    outcome: Outcome,
}

enum Recorder {
    Record {
        block: BlockId,
        last_join_point: Option<FrameState>,
        entering: bool,
    },
    Replay {
        steps: VecDeque<ReplayStep>,
        index: usize,
        then: BlockId,
    },
}

/// The abstract interpreter of one code object.
pub(crate) struct FlowContext<'py> {
    pub py: Python<'py>,
    pub code: CodeInfo,
    pub graph: FunctionGraph,
    pub globals: Bound<'py, PyDict>,
    pub builtins: Bound<'py, PyAny>,
    // current frame
    pub locals: Vec<FrameValue>,
    pub stack: Vec<FrameValue>,
    pub exc_info: FrameValue,
    pub kwnames: Option<PyObj>,
    pub cur_offset: u32,
    pub cur_lineno: u32,
    // blocks
    recorder: Recorder,
    pending: VecDeque<BlockId>,
    joinpoints: HashMap<u32, Vec<BlockId>>,
    kinds: HashMap<BlockId, BlockKind>,
    /// Egg blocks, for renaming their variables at the end.
    pub eggs: Vec<BlockId>,
    exc_classes: HashMap<&'static str, PyObj>,
    /// The nested functions being turned into closure values (a closure
    /// capturing another: see `calls::closure_value`), against cycles.
    pub converting_closures: Vec<PyObj>,
    /// The attribute reads recorded (`v = getattr(obj, 'name')`): a hint
    /// that `v` may be a bound method (`key=d.get`), never trusted for
    /// what `v` holds (another path may bring another value).
    pub attr_reads: std::collections::HashMap<VarId, (Hlvalue, String)>,
    /// The local slots that hold a box (`rpy3._cells`): cell and free
    /// variables that nested functions assign, read and written through
    /// the box's `value`.
    pub boxed: Vec<bool>,
}

impl<'py> FlowContext<'py> {
    pub fn new(
        py: Python<'py>,
        code: CodeInfo,
        graph: FunctionGraph,
        globals: Bound<'py, PyDict>,
    ) -> PyResult<FlowContext<'py>> {
        let builtins = py.import("builtins")?.into_any();
        let mut boxed = vec![false; code.localsplus.len()];
        if let Some(m) = crate::opcodes::optional_module(py, "rpy3._cells")? {
            let names = m.getattr("boxed_names")?.call1((code.object.bind(py),))?;
            for (i, n) in code.localsplus.iter().enumerate() {
                boxed[i] = names.contains(n.as_str())?;
            }
        }
        Ok(FlowContext {
            py,
            cur_lineno: code.firstlineno,
            code,
            graph,
            globals,
            builtins,
            locals: Vec::new(),
            stack: Vec::new(),
            exc_info: FrameValue::Undefined,
            kwnames: None,
            cur_offset: 0,
            recorder: Recorder::Replay {
                steps: VecDeque::new(),
                index: 0,
                then: BlockId::from_u32(0),
            },
            pending: VecDeque::new(),
            joinpoints: HashMap::new(),
            kinds: HashMap::new(),
            eggs: Vec::new(),
            exc_classes: HashMap::new(),
            converting_closures: Vec::new(),
            attr_reads: std::collections::HashMap::new(),
            boxed,
        })
    }

    // ----- errors and constants ---------------------------------------

    /// A flowing error at the current instruction.
    pub fn error(&self, message: impl Into<String>) -> Signal {
        Signal::Error(self.error_value(message))
    }

    pub fn error_value(&self, message: impl Into<String>) -> FlowError {
        let mut e = FlowError::new(message, self.code.filename.clone(), self.cur_lineno);
        e.function = Some(self.code.qualname.clone());
        e.columns = self
            .code
            .instr_at(self.cur_offset)
            .filter(|i| i.lineno == self.cur_lineno)
            .and_then(|i| i.columns);
        e
    }

    /// Converts a Python error raised while flowing into a flowing error.
    pub fn pyerr(&self, what: &str, e: PyErr) -> Signal {
        self.error(format!("{what}: {e}"))
    }

    pub fn constant(&self, obj: &Bound<'_, PyAny>) -> Hlvalue {
        Hlvalue::Constant(Constant::new(PyObj::new(obj)))
    }

    pub fn const_none(&self) -> Hlvalue {
        self.constant(&self.py.None().into_bound(self.py))
    }

    pub fn const_bool(&self, b: bool) -> Hlvalue {
        self.constant(&pyo3::types::PyBool::new(self.py, b).to_owned().into_any())
    }

    pub fn const_str(&self, s: &str) -> Hlvalue {
        self.constant(&pyo3::types::PyString::new(self.py, s).into_any())
    }

    pub fn const_int(&self, i: i64) -> Hlvalue {
        self.constant(&pyo3::types::PyInt::new(self.py, i).into_any())
    }

    /// A built-in class or function by name.
    pub fn builtin(&mut self, name: &'static str) -> FlowResult<PyObj> {
        if let Some(c) = self.exc_classes.get(name) {
            return Ok(c.clone());
        }
        let obj = self
            .builtins
            .getattr(name)
            .map_err(|e| self.pyerr("missing builtin", e))?;
        let obj = PyObj::new(&obj);
        self.exc_classes.insert(name, obj.clone());
        Ok(obj)
    }

    // ----- the frame ------------------------------------------------------

    pub fn getstate(&self, next_offset: u32) -> FrameState {
        FrameState {
            locals: self.locals.clone(),
            stack: self.stack.clone(),
            exc_info: self.exc_info.clone(),
            kwnames: self.kwnames.clone(),
            next_offset,
        }
    }

    fn setstate(&mut self, state: &FrameState) {
        self.locals = state.locals.clone();
        self.stack = state.stack.clone();
        self.exc_info = state.exc_info.clone();
        self.kwnames = state.kwnames.clone();
    }

    pub fn push(&mut self, v: FrameValue) {
        self.stack.push(v);
    }

    pub fn pushval(&mut self, h: Hlvalue) {
        self.stack.push(FrameValue::Val(h));
    }

    pub fn pop(&mut self) -> FlowResult<FrameValue> {
        match self.stack.pop() {
            Some(v) => Ok(v),
            None => Err(self.error("value stack underflow (malformed bytecode)")),
        }
    }

    /// Pops an ordinary value.
    pub fn popvalue(&mut self) -> FlowResult<Hlvalue> {
        let v = self.pop()?;
        self.as_value(v)
    }

    /// The value a frame slot holds when used as an operand.
    pub fn as_value(&mut self, v: FrameValue) -> FlowResult<Hlvalue> {
        match v {
            FrameValue::Val(h) => Ok(h),
            // a local bound on some paths only, captured by a nested function
            FrameValue::MaybeVal { value, .. } => Ok(value),
            FrameValue::Exc { evalue, .. } => Ok(evalue),
            // a nested function capturing variables used as a value: an
            // instance holding their values
            FrameValue::Closure {
                func,
                slots,
                defaults,
            } => self.closure_value(&func, &slots, &defaults, false),
            FrameValue::Undefined => Err(self.error("use of an undefined value")),
            FrameValue::Unroller { .. } => Err(self.error(
                "an unrolling_iterable's iterator is only for `for` loops",
            )),
            FrameValue::Null
            | FrameValue::SortReceiver(_)
            | FrameValue::Cell(_)
            | FrameValue::Cells(_) => {
                Err(self.error("unexpected internal value on the stack (malformed bytecode)"))
            }
        }
    }

    pub fn peek(&self, n: usize) -> FlowResult<&FrameValue> {
        if n == 0 || n > self.stack.len() {
            return Err(self.error("value stack underflow (malformed bytecode)"));
        }
        Ok(&self.stack[self.stack.len() - n])
    }

    pub fn popvalues(&mut self, n: usize) -> FlowResult<Vec<Hlvalue>> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.popvalue()?);
        }
        out.reverse();
        Ok(out)
    }

    // ----- recording ---------------------------------------------------------

    fn current_block(&self) -> BlockId {
        match &self.recorder {
            Recorder::Record { block, .. } => *block,
            Recorder::Replay { then, .. } => *then,
        }
    }

    /// Called at the start of every instruction.
    fn bytecode_trace(&mut self, offset: u32) {
        let state = match &self.recorder {
            Recorder::Record {
                entering: false, ..
            } => Some(self.getstate(offset)),
            _ => None,
        };
        if let Recorder::Record {
            last_join_point,
            entering,
            ..
        } = &mut self.recorder
        {
            if *entering {
                *entering = false;
            } else {
                *last_join_point = state;
            }
        }
    }

    /// Ends the block at the last join point passed, if any (what
    /// recording an operation would do): a local undefined here may be
    /// bound on another path into that point.
    pub fn merge_at_join_point(&mut self) -> Option<Signal> {
        match &mut self.recorder {
            Recorder::Record {
                last_join_point, ..
            } => last_join_point.take().map(Signal::Merge),
            Recorder::Replay { .. } => None,
        }
    }

    /// Records `op`, or during a replay returns the result recorded before.
    fn record(&mut self, opname: OpName, args: Vec<Hlvalue>) -> FlowResult<VarId> {
        match &mut self.recorder {
            Recorder::Record {
                block,
                last_join_point,
                ..
            } => {
                if let Some(state) = last_join_point.take() {
                    return Err(Signal::Merge(state));
                }
                let block = *block;
                let result = self.graph.new_var("");
                self.graph.blocks[block].operations.push(SpaceOperation {
                    opname,
                    args,
                    result,
                    lineno: self.cur_lineno,
                });
                Ok(result)
            }
            Recorder::Replay { steps, index, .. } => {
                let step = steps
                    .front()
                    .expect("a replay has a step until it switches to recording");
                match step.ops.get(*index) {
                    Some(&(name, result)) if name == opname => {
                        *index += 1;
                        Ok(result)
                    }
                    _ => Err(Signal::Error(FlowError::new(
                        format!("internal error: replaying {opname} does not match the recorded operations"),
                        self.code.filename.clone(),
                        self.cur_lineno,
                    ))),
                }
            }
        }
    }

    /// During a replay, consumes the fork of the current step.
    fn replay_fork(&mut self) -> Option<Outcome> {
        if let Recorder::Replay { steps, index, then } = &mut self.recorder {
            let step = steps.pop_front().expect("a replay has a step");
            debug_assert_eq!(*index, step.ops.len());
            *index = 0;
            if steps.is_empty() {
                let then = *then;
                self.recorder = Recorder::Record {
                    block: then,
                    last_join_point: None,
                    entering: false,
                };
            }
            Some(step.outcome)
        } else {
            None
        }
    }

    fn new_egg(&mut self, prev: BlockId, inputargs: Vec<VarId>, outcome: Outcome) -> BlockId {
        let egg = self.graph.new_block(inputargs);
        self.kinds.insert(egg, BlockKind::Egg { prev, outcome });
        self.eggs.push(egg);
        self.pending.push_back(egg);
        egg
    }

    /// Decides a truth value, forking the graph when it is not a constant.
    pub fn guessbool(&mut self, w: Hlvalue) -> FlowResult<bool> {
        if let Hlvalue::Constant(c) = &w {
            return c
                .value
                .bind(self.py)
                .is_truthy()
                .map_err(|e| self.pyerr("truth value of a constant", e));
        }
        if let Some(outcome) = self.replay_fork() {
            return match outcome {
                Outcome::Bool(b) => Ok(b),
                _ => Err(self.error("internal error: replay expected a truth test")),
            };
        }
        let block = self.current_block();
        let vars = self.graph.blocks[block].getvariables();
        let mut links = Vec::new();
        for case in [false, true] {
            let egg = self.new_egg(block, vars.clone(), Outcome::Bool(case));
            let args = vars.iter().map(|&v| Hlvalue::Variable(v)).collect();
            links.push(
                Link::new(args, egg).with_exitcase(Constant::new(PyObj::new(
                    &pyo3::types::PyBool::new(self.py, case)
                        .to_owned()
                        .into_any(),
                ))),
            );
        }
        self.close(block, ExitSwitch::Value(w), links);
        Err(Signal::StopFlowing)
    }

    /// The last recorded operation may raise one of `cases` (classes):
    /// fork into the normal outcome and one outcome per class.
    pub fn guessexception(&mut self, cases: &[PyObj]) -> FlowResult<()> {
        if let Some(outcome) = self.replay_fork() {
            return match outcome {
                Outcome::Normal => Ok(()),
                Outcome::Exc { etype, evalue } => Err(Signal::Raise {
                    etype,
                    evalue: Hlvalue::Variable(evalue),
                }),
                Outcome::Bool(_) => {
                    Err(self.error("internal error: replay expected an exception fork"))
                }
            };
        }
        let block = self.current_block();
        let vars = self.graph.blocks[block].getvariables();
        let lastresult = self.graph.blocks[block]
            .operations
            .last()
            .map(|op| op.result);
        let mut links = Vec::new();
        let egg = self.new_egg(block, vars.clone(), Outcome::Normal);
        links.push(Link::new(
            vars.iter().map(|&v| Hlvalue::Variable(v)).collect(),
            egg,
        ));
        let exception = self.builtin("Exception")?;
        let kept: Vec<VarId> = vars
            .iter()
            .copied()
            .filter(|&v| Some(v) != lastresult)
            .collect();
        for case in cases {
            let last_exception = self.graph.new_var("last_exception");
            let last_exc_value = self.graph.new_var("last_exc_value");
            let mut inputargs = kept.clone();
            let mut args: Vec<Hlvalue> = kept.iter().map(|&v| Hlvalue::Variable(v)).collect();
            let etype = if *case == exception {
                let v = self.graph.new_var("etype");
                inputargs.push(v);
                args.push(Hlvalue::Variable(last_exception));
                Hlvalue::Variable(v)
            } else {
                Hlvalue::Constant(Constant::new(case.clone()))
            };
            let evalue = self.graph.new_var("evalue");
            inputargs.push(evalue);
            args.push(Hlvalue::Variable(last_exc_value));
            let egg = self.new_egg(block, inputargs, Outcome::Exc { etype, evalue });
            let mut link = Link::new(args, egg).with_exitcase(Constant::new(case.clone()));
            link.last_exception = Some(last_exception);
            link.last_exc_value = Some(last_exc_value);
            links.push(link);
        }
        self.close(block, ExitSwitch::LastException, links);
        Err(Signal::StopFlowing)
    }

    /// Whether an exception raised at the current instruction is caught
    /// by a handler of this frame.
    pub fn in_try(&self) -> bool {
        self.code.handler_for(self.cur_offset).is_some()
    }

    /// Performs a high-level operation: folds it when pure on constants,
    /// records it otherwise, and forks on its exceptions inside a `try`.
    pub fn do_op(&mut self, opname: OpName, args: Vec<Hlvalue>) -> FlowResult<Hlvalue> {
        let mut args = self.replaced_builtin_values(opname, args)?;
        if let (OpName::Iter, Some(Hlvalue::Constant(c))) = (opname, args.first()) {
            // iterating over an Enum class: over its members
            let obj = c.value.bind(self.py).clone();
            if obj.is_instance_of::<pyo3::types::PyType>() {
                if let Some(m) = crate::opcodes::optional_module(self.py, "rpy3.stdlib")
                    .map_err(|e| self.pyerr("rpy3.stdlib", e))?
                {
                    let it = m
                        .getattr("iteration_replacement")
                        .and_then(|f| f.call1((&obj,)))
                        .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
                    if !it.is_none() {
                        args[0] = self.constant(&it);
                    }
                }
            }
        }
        if let (OpName::Getattr, Some(Hlvalue::Constant(c)), Some(Hlvalue::Constant(n))) =
            (opname, args.first(), args.get(1))
        {
            // a class method of a built-in class that rpy3 writes in
            // RPython (`int.from_bytes`, `chain.from_iterable`)
            let obj = c.value.bind(self.py).clone();
            if obj.is_instance_of::<pyo3::types::PyType>()
                && obj
                    .getattr("__module__")
                    .is_ok_and(|m| matches!(m.to_string().as_str(), "itertools" | "builtins"))
            {
                if let Some(m) = crate::opcodes::optional_module(self.py, "rpy3.stdlib")
                    .map_err(|e| self.pyerr("rpy3.stdlib", e))?
                {
                    let f = m
                        .getattr("attribute_replacement")
                        .and_then(|f| f.call1((&obj, n.value.bind(self.py))))
                        .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
                    if !f.is_none() {
                        return Ok(self.constant(&f));
                    }
                }
            }
        }
        if let (OpName::Getitem, Some(Hlvalue::Constant(c))) = (opname, args.first()) {
            // an Enum class indexed by a name: its member of that name
            let obj = c.value.bind(self.py).clone();
            if obj.is_instance_of::<pyo3::types::PyType>() && args.len() == 2 {
                if let Some(m) = crate::opcodes::optional_module(self.py, "rpy3.stdlib")
                    .map_err(|e| self.pyerr("rpy3.stdlib", e))?
                {
                    let f = m
                        .getattr("getitem_replacement")
                        .and_then(|f| f.call1((&obj,)))
                        .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
                    if !f.is_none() {
                        let f = self.constant(&f);
                        let key = args[1].clone();
                        return self.do_op(OpName::SimpleCall, vec![f, key]);
                    }
                }
            }
        }
        if let Some(c) = self.try_fold(opname, &args) {
            return Ok(c);
        }
        let read = match (opname, args.get(1)) {
            (OpName::Getattr, Some(Hlvalue::Constant(n))) => n
                .value
                .bind(self.py)
                .extract::<String>()
                .ok()
                .map(|name| (args[0].clone(), name)),
            _ => None,
        };
        let result = self.record(opname, args)?;
        if let Some(read) = read {
            self.attr_reads.insert(result, read);
        }
        let mut canraise: Vec<&str> = opname.desc().canraise.to_vec();
        if self.in_try() && calls_special_method(opname) && !canraise.contains(&"Exception") {
            // on an instance, the operation calls a special method of the
            // program's, which may raise anything the `try` catches
            canraise.push("Exception");
        }
        if !canraise.is_empty() && self.in_try() {
            let mut cases = Vec::with_capacity(canraise.len());
            for name in canraise {
                cases.push(self.builtin(name)?);
            }
            self.guessexception(&cases)?;
        }
        Ok(Hlvalue::Variable(result))
    }

    /// A built-in function of the standard library used as a value (not
    /// called here: `ops = {"+": operator.add}`, `reduce(operator.mul,
    /// xs)`) is its RPython replacement (`rpy3.stdlib.replacement`), as a
    /// call of it would be.
    fn replaced_builtin_values(
        &mut self,
        opname: OpName,
        mut args: Vec<Hlvalue>,
    ) -> FlowResult<Vec<Hlvalue>> {
        let call = matches!(opname, OpName::SimpleCall | OpName::CallArgs);
        let stored = matches!(
            opname,
            OpName::Newlist | OpName::Newtuple | OpName::Newdict | OpName::Newset | OpName::Setitem
        );
        for a in args.iter_mut().skip(usize::from(call)) {
            let Hlvalue::Constant(c) = a else {
                continue;
            };
            let obj = c.value.bind(self.py).clone();
            if !obj.is_instance_of::<pyo3::types::PyCFunction>() {
                continue;
            }
            let Some(module) = crate::opcodes::optional_module(self.py, "rpy3.stdlib")
                .map_err(|e| self.pyerr("rpy3.stdlib", e))?
            else {
                return Ok(args);
            };
            let found = module
                .getattr("replacement")
                .and_then(|r| r.call1((&obj,)))
                .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
            if !found.is_none() {
                *a = self.constant(&found);
            } else if stored {
                // any other built-in stored in a container: a plain function
                // calling it (built-ins of one kind do not unite)
                let w = self
                    .py
                    .import("rpy3.hlbuiltins")
                    .and_then(|m| m.getattr("value_wrapper")?.call1((&obj,)))
                    .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
                *a = self.constant(&w);
            }
        }
        Ok(args)
    }

    /// Records an operation and forks on exactly `cases` (plus `Exception`
    /// inside a `try`), whatever the table says; used by `FOR_ITER`.
    pub fn do_op_forced(
        &mut self,
        opname: OpName,
        args: Vec<Hlvalue>,
        cases: &[&'static str],
    ) -> FlowResult<Hlvalue> {
        let result = self.record(opname, args)?;
        let mut classes = Vec::new();
        for name in cases {
            classes.push(self.builtin(name)?);
        }
        if self.in_try() {
            classes.push(self.builtin("Exception")?);
        }
        self.guessexception(&classes)?;
        Ok(Hlvalue::Variable(result))
    }

    fn try_fold(&self, opname: OpName, args: &[Hlvalue]) -> Option<Hlvalue> {
        let desc = opname.desc();
        // In-place operators fold too: on immutable constants they build a
        // new value.
        if !desc.pure && !desc.name.starts_with("inplace_") {
            return None;
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            let c = a.as_const()?;
            let obj = c.value.bind(self.py);
            if !crate::fold::foldable(self.py, obj) {
                return None;
            }
            values.push(obj.clone());
        }
        let result = crate::fold::fold(self.py, opname, &values)?;
        Some(self.constant(&result))
    }

    // ----- blocks -----------------------------------------------------------

    /// Creates the first block of the graph in `state` (whose variables are
    /// the start block's input arguments) and flows every block until none
    /// is pending.
    pub fn build(&mut self, state: FrameState) -> Result<(), FlowError> {
        let fresh = state.copy_fresh(&mut self.graph, &self.code.localsplus);
        let first = self.graph.new_block(fresh.getvariables());
        let startblock = self.graph.startblock;
        let args = state.getoutputargs(&fresh);
        self.close(startblock, ExitSwitch::None, vec![Link::new(args, first)]);
        self.kinds.insert(
            first,
            BlockKind::Spam {
                state: fresh,
                dead: false,
            },
        );
        self.pending.push_back(first);
        while let Some(block) = self.pending.pop_front() {
            if self.is_dead(block) {
                continue;
            }
            self.flow_block(block)?;
        }
        Ok(())
    }

    /// Raising the built-in exception `name` with `message` (the
    /// instance is made by an operation, as `raise E(message)` would).
    pub fn raise_builtin(&mut self, name: &str, message: &str) -> FlowResult<Signal> {
        let cls = self
            .builtins
            .getattr(name)
            .map_err(|e| self.pyerr(name, e))?;
        let etype = Hlvalue::Constant(Constant::new(PyObj::new(&cls)));
        let msg = pyo3::types::PyString::new(self.py, message).into_any();
        let msg = Hlvalue::Constant(Constant::new(PyObj::new(&msg)));
        let evalue = self.do_op(OpName::SimpleCall, vec![etype.clone(), msg])?;
        Ok(Signal::Raise { etype, evalue })
    }

    fn is_dead(&self, mut block: BlockId) -> bool {
        loop {
            match self.kinds.get(&block) {
                Some(BlockKind::Spam { dead, .. }) => return *dead,
                Some(BlockKind::Egg { prev, .. }) => block = *prev,
                None => return true,
            }
        }
    }

    fn flow_block(&mut self, block: BlockId) -> Result<(), FlowError> {
        // Find the spam block at the root and the outcomes leading here.
        let mut steps = VecDeque::new();
        let mut cur = block;
        let state = loop {
            match self.kinds.get(&cur) {
                Some(BlockKind::Spam { state, .. }) => break state.clone(),
                Some(BlockKind::Egg { prev, outcome }) => {
                    let prev = *prev;
                    let ops = self.graph.blocks[prev]
                        .operations
                        .iter()
                        .map(|op| (op.opname, op.result))
                        .collect();
                    steps.push_front(ReplayStep {
                        ops,
                        outcome: outcome.clone(),
                    });
                    cur = prev;
                }
                None => unreachable!("every pending block has a kind"),
            }
        };
        self.setstate(&state);
        self.recorder = if steps.is_empty() {
            Recorder::Record {
                block,
                last_join_point: None,
                entering: true,
            }
        } else {
            Recorder::Replay {
                steps,
                index: 0,
                then: block,
            }
        };
        let mut offset = state.next_offset;
        loop {
            match self.step(offset) {
                Ok(next) => offset = next,
                Err(Signal::StopFlowing) => return Ok(()),
                Err(Signal::Merge(state)) => {
                    let current = self.current_block();
                    self.mergeblock(current, state);
                    return Ok(());
                }
                Err(Signal::Return(v)) => {
                    let current = self.current_block();
                    let ret = self.graph.returnblock;
                    self.close(current, ExitSwitch::None, vec![Link::new(vec![v], ret)]);
                    return Ok(());
                }
                Err(Signal::Raise { etype, evalue }) => {
                    let current = self.current_block();
                    let exc = self.graph.exceptblock;
                    self.close(
                        current,
                        ExitSwitch::None,
                        vec![Link::new(vec![etype, evalue], exc)],
                    );
                    return Ok(());
                }
                Err(Signal::Error(e)) => return Err(e),
            }
        }
    }

    /// Runs one instruction, unwinding to this frame's handler when it
    /// raises; returns the offset of the next instruction.
    fn step(&mut self, offset: u32) -> FlowResult<u32> {
        self.bytecode_trace(offset);
        self.cur_offset = offset;
        let Some(instr) = self.code.instr_at(offset).cloned() else {
            return Err(self.error(format!(
                "no instruction at offset {offset} (malformed bytecode)"
            )));
        };
        self.cur_lineno = instr.lineno;
        match self.dispatch(&instr) {
            Err(Signal::Raise { etype, evalue }) => match self.code.handler_for(offset).cloned() {
                Some(h) => {
                    if self.stack.len() < h.depth {
                        return Err(self.error(
                            "exception handler deeper than the stack (malformed bytecode)",
                        ));
                    }
                    self.stack.truncate(h.depth);
                    if h.lasti {
                        let lasti = self.const_int(offset as i64);
                        self.pushval(lasti);
                    }
                    self.push(FrameValue::Exc { etype, evalue });
                    Ok(h.target)
                }
                None => Err(Signal::Raise { etype, evalue }),
            },
            other => other,
        }
    }

    /// Ends `current` at a join point in `state`: links it to an existing
    /// block if the state fits, else to a new block, generalising (and
    /// killing) an older block at the same position when the two merge.
    /// Attribute reads stay known under the new names a join block gives
    /// the values `args` (a hint only, see `attr_reads`).
    fn carry_attr_reads(&mut self, args: &[Hlvalue], fresh: &FrameState) {
        for (a, v) in args.iter().zip(fresh.getvariables()) {
            if let Hlvalue::Variable(old) = a {
                if let Some(read) = self.attr_reads.get(old).cloned() {
                    self.attr_reads.insert(v, read);
                }
            }
        }
    }

    fn mergeblock(&mut self, current: BlockId, state: FrameState) {
        let offset = state.next_offset;
        let candidates = self.joinpoints.get(&offset).cloned().unwrap_or_default();
        let mut found = None;
        for &cand in &candidates {
            let Some(BlockKind::Spam { state: cstate, .. }) = self.kinds.get(&cand) else {
                continue;
            };
            let cstate = cstate.clone();
            if let Some(u) = cstate.union(self.py, &state, &mut self.graph) {
                found = Some((cand, cstate, u));
                break;
            }
        }
        let Some((cand, cstate, union)) = found else {
            let fresh = state.copy_fresh(&mut self.graph, &self.code.localsplus);
            let newblock = self.new_spam(fresh.clone());
            let args = state.getoutputargs(&fresh);
            self.carry_attr_reads(&args, &fresh);
            self.close(current, ExitSwitch::None, vec![Link::new(args, newblock)]);
            self.joinpoints
                .entry(offset)
                .or_default()
                .insert(0, newblock);
            return;
        };
        if cstate.matches(self.py, &union) {
            let args = state.getoutputargs(&cstate);
            self.close(current, ExitSwitch::None, vec![Link::new(args, cand)]);
            return;
        }
        let fresh = union.copy_fresh(&mut self.graph, &self.code.localsplus);
        let newblock = self.new_spam(fresh.clone());
        let args = state.getoutputargs(&fresh);
        let oldargs = cstate.getoutputargs(&fresh);
        self.carry_attr_reads(&args, &fresh);
        self.carry_attr_reads(&oldargs, &fresh);
        self.close(current, ExitSwitch::None, vec![Link::new(args, newblock)]);
        // The old block becomes a plain link to its generalisation.
        if let Some(BlockKind::Spam { dead, .. }) = self.kinds.get_mut(&cand) {
            *dead = true;
        }
        self.graph.blocks[cand].operations.clear();
        self.close(cand, ExitSwitch::None, vec![Link::new(oldargs, newblock)]);
        let list = self.joinpoints.entry(offset).or_default();
        list.retain(|&b| b != cand);
        list.insert(0, newblock);
    }

    /// Closes `block`, the new links carrying the current source line.
    fn close(&mut self, block: BlockId, exitswitch: ExitSwitch, links: Vec<Link>) {
        let line = self.cur_lineno;
        let links = links
            .into_iter()
            .map(|l| if l.lineno == 0 { l.at_line(line) } else { l })
            .collect();
        self.graph.closeblock(block, exitswitch, links);
    }

    fn new_spam(&mut self, state: FrameState) -> BlockId {
        let block = self.graph.new_block(state.getvariables());
        self.kinds
            .insert(block, BlockKind::Spam { state, dead: false });
        self.pending.push_back(block);
        block
    }
}

/// Whether `op` calls a special method when its operand is an instance of
/// the program's classes (`__add__`, `__getitem__`, `__len__`, `__str__`...:
/// see the annotator's `rules/special.rs`).  The truth test and iteration
/// are left out: `__bool__`, `__iter__` and `__next__` raising into a
/// handler of the same frame are rare, and every `if` and `for` would fork.
fn calls_special_method(op: OpName) -> bool {
    use OpName::*;
    matches!(
        op,
        Add | Sub
            | Mul
            | Truediv
            | Floordiv
            | Mod
            | Pow
            | Lshift
            | Rshift
            | And_
            | Or_
            | Xor
            | Matmul
            | InplaceAdd
            | InplaceSub
            | InplaceMul
            | InplaceTruediv
            | InplaceFloordiv
            | InplaceMod
            | InplacePow
            | InplaceLshift
            | InplaceRshift
            | InplaceAnd
            | InplaceOr
            | InplaceXor
            | InplaceMatmul
            | Neg
            | Pos
            | Invert
            | Abs
            | Lt
            | Le
            | Eq
            | Ne
            | Gt
            | Ge
            | Getitem
            | Setitem
            | Delitem
            | Len
            | Contains
            | Str
            | Repr
            | Hash
            | Format
            | Bool
            | Iter
            | Next
            // a property's getter or setter
            | Getattr
            | Setattr
            // the keys' __hash__ and __eq__
            | Newdict
            | Newset
    )
}
