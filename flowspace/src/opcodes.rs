//! One handler per instruction: what each does to the abstract frame.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rpy3_model::{Hlvalue, OpName, PyObj};

use crate::bytecode::{Instr, Op};
use crate::context::{FlowContext, FlowResult, Signal};
use crate::framestate::FrameValue;

/// `BINARY_OP` argument to operation.
fn binary_op(arg: u32) -> Option<OpName> {
    use OpName::*;
    const TABLE: [OpName; 13] = [
        Add, And_, Floordiv, Lshift, Matmul, Mul, Mod, Or_, Pow, Rshift, Sub, Truediv, Xor,
    ];
    const INPLACE: [OpName; 13] = [
        InplaceAdd,
        InplaceAnd,
        InplaceFloordiv,
        InplaceLshift,
        InplaceMatmul,
        InplaceMul,
        InplaceMod,
        InplaceOr,
        InplacePow,
        InplaceRshift,
        InplaceSub,
        InplaceTruediv,
        InplaceXor,
    ];
    let a = arg as usize;
    if a < 13 {
        Some(TABLE[a])
    } else {
        INPLACE.get(a - 13).copied()
    }
}

/// The checked variant of an arithmetic operation (for `ovfcheck`).
fn checked(op: OpName) -> Option<OpName> {
    use OpName::*;
    Some(match op {
        Add | InplaceAdd => AddOvf,
        Sub | InplaceSub => SubOvf,
        Mul | InplaceMul => MulOvf,
        Floordiv | InplaceFloordiv => FloordivOvf,
        Mod | InplaceMod => ModOvf,
        Lshift | InplaceLshift => LshiftOvf,
        Neg => NegOvf,
        _ => return None,
    })
}

impl<'py> FlowContext<'py> {
    /// Whether the value the instruction computes is passed straight to
    /// `ovfcheck()` (the callable sits below the operands and the next
    /// call takes one argument): `ovfcheck(x * y)` is the checked
    /// operation `mul_ovf`, as PyPy's `transform_ovfcheck` makes it.
    fn ovfcheck_follows(&self, instr: &Instr) -> bool {
        matches!(self.stack.last(), Some(FrameValue::Val(Hlvalue::Constant(c))) if self.ovfcheck_call_next(instr, c))
    }

    /// Whether the instruction after `instr` (past NOPs) is a call of one
    /// argument and `callee` is `ovfcheck`.
    fn ovfcheck_call_next(&self, instr: &Instr, callee: &rpy3_model::Constant) -> bool {
        let mut off = instr.next_offset;
        let call = loop {
            match self.code.instr_at(off) {
                Some(i) if i.op == Op::Nop => off = i.next_offset,
                other => break other,
            }
        };
        matches!(call, Some(c) if c.op == Op::Call && c.arg == 1)
            && self
                .py
                .import("rpy3.rlib.rarithmetic")
                .and_then(|m| m.getattr("ovfcheck"))
                .map(|f| f.is(callee.value.bind(self.py)))
                .unwrap_or(false)
    }

    /// Whether local slot `i` holds a box (see `rpy3._cells`).
    fn is_boxed(&self, i: usize) -> bool {
        self.boxed.get(i).copied().unwrap_or(false)
    }

    /// `MAKE_CELL i` of a boxed variable: a new box of its class, holding
    /// the parameter's value when the variable is a parameter.
    fn make_box(&mut self, i: usize) -> FlowResult<()> {
        let name = self.local_name(i);
        let cls = optional_module(self.py, "rpy3._cells")
            .and_then(|m| match m {
                Some(m) => m
                    .getattr("box_class")?
                    .call1((self.code.object.bind(self.py), name.as_str()))
                    .map(Some),
                None => Ok(None),
            })
            .map_err(|e| self.pyerr("rpy3._cells", e))?
            .ok_or_else(|| self.error("rpy3._cells is missing"))?;
        let cls = self.constant(&cls);
        let b = self.do_op(OpName::SimpleCall, vec![cls])?;
        if let Some(FrameValue::Val(v)) = self.locals.get(i).cloned() {
            let attr = self.const_str("value");
            self.do_op(OpName::Setattr, vec![b.clone(), attr, v])?;
        }
        self.locals[i] = FrameValue::Val(b);
        Ok(())
    }

    /// The box in local slot `i` (a real closure's cell: its prebuilt box).
    fn box_of(&mut self, i: usize) -> FlowResult<Hlvalue> {
        match self.locals.get(i).cloned() {
            Some(FrameValue::Val(b)) => Ok(b),
            Some(FrameValue::MaybeVal { value, .. }) => Ok(value),
            _ => {
                let name = self.local_name(i);
                Err(self.error(format!("the variable '{name}' of an enclosing function has no cell")))
            }
        }
    }

    /// Whether the call `instr` is `abs(x)` (the built-in below a NULL
    /// and its one argument) whose result goes straight to `ovfcheck()`.
    fn abs_under_ovfcheck(&self, instr: &Instr) -> bool {
        let n = self.stack.len();
        if n < 4 || !matches!(self.stack[n - 3], FrameValue::Null) {
            return false;
        }
        let FrameValue::Val(Hlvalue::Constant(c)) = &self.stack[n - 2] else {
            return false;
        };
        let is_abs = self
            .builtins
            .getattr("abs")
            .map(|a| a.is(c.value.bind(self.py)))
            .unwrap_or(false);
        if !is_abs {
            return false;
        }
        // (the callee below the call's three entries)
        matches!(&self.stack[n - 4], FrameValue::Val(Hlvalue::Constant(f)) if self.ovfcheck_call_next(instr, f))
    }

    fn local_name(&self, i: usize) -> String {
        self.code
            .localsplus
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("#{i}"))
    }

    /// Raising `UnboundLocalError` for local slot `i`, as CPython does.
    fn unbound_local(&mut self, i: usize) -> FlowResult<Signal> {
        let name = self.local_name(i);
        self.raise_builtin(
            "UnboundLocalError",
            &format!(
                "cannot access local variable '{name}' where it is not associated with a value"
            ),
        )
    }

    fn load_local(&mut self, i: usize) -> FlowResult<()> {
        match self.locals.get(i) {
            Some(FrameValue::Undefined) | None => {
                // bound on no path that reaches here (yet: a join point
                // passed may be generalised by a path that binds it)
                if let Some(merge) = self.merge_at_join_point() {
                    return Err(merge);
                }
                Err(self.unbound_local(i)?)
            }
            Some(FrameValue::MaybeVal { value, bound }) => {
                // bound on some paths only: Python's check
                let (value, bound) = (value.clone(), bound.clone());
                if self.guessbool(bound)? {
                    self.push(FrameValue::Val(value));
                    Ok(())
                } else {
                    Err(self.unbound_local(i)?)
                }
            }
            Some(v) => {
                let v = v.clone();
                self.push(v);
                Ok(())
            }
        }
    }

    fn store_local(&mut self, i: usize) -> FlowResult<()> {
        let v = self.pop()?;
        if i >= self.locals.len() {
            return Err(self.error("local slot out of range (malformed bytecode)"));
        }
        self.locals[i] = v;
        Ok(())
    }

    fn jump_if(&mut self, instr: &Instr, jump_when: bool) -> FlowResult<u32> {
        let v = self.popvalue()?;
        let b = self.do_op(OpName::Bool, vec![v])?;
        let truth = self.guessbool(b)?;
        Ok(if truth == jump_when {
            instr.target
        } else {
            instr.next_offset
        })
    }

    fn jump_if_none(&mut self, instr: &Instr, jump_when_none: bool) -> FlowResult<u32> {
        let v = self.popvalue()?;
        let none = self.const_none();
        let is_none = self.do_op(OpName::Is_, vec![v, none])?;
        let truth = self.guessbool(is_none)?;
        Ok(if truth == jump_when_none {
            instr.target
        } else {
            instr.next_offset
        })
    }

    /// `not v`, decided by forking.
    pub fn not_(&mut self, v: Hlvalue) -> FlowResult<Hlvalue> {
        let b = self.do_op(OpName::Bool, vec![v])?;
        let truth = self.guessbool(b)?;
        Ok(self.const_bool(!truth))
    }

    /// The exception raised by `raise X`: a class is instantiated, an
    /// instance gives its class.
    pub fn exc_from_raise(&mut self, v: FrameValue) -> FlowResult<Signal> {
        if let FrameValue::Exc { etype, evalue } = v {
            return Ok(Signal::Raise { etype, evalue });
        }
        let h = self.as_value(v)?;
        let base = self.builtin("BaseException")?;
        if let Hlvalue::Constant(c) = &h {
            let obj = c.value.bind(self.py).clone();
            if let Ok(cls) = obj.cast::<pyo3::types::PyType>() {
                if !cls.is_subclass(base.bind(self.py)).unwrap_or(false) {
                    return Err(self.error(format!(
                        "'raise' of {} which is not an exception class",
                        cls
                    )));
                }
                let evalue = self.do_op(OpName::SimpleCall, vec![h.clone()])?;
                return Ok(Signal::Raise { etype: h, evalue });
            }
            if !obj.is_instance(base.bind(self.py)).unwrap_or(false) {
                return Err(self.error("'raise' of an object that is not an exception"));
            }
            let etype = self.constant(&obj.get_type().into_any());
            return Ok(Signal::Raise { etype, evalue: h });
        }
        let etype = self.do_op(OpName::Type, vec![h.clone()])?;
        Ok(Signal::Raise { etype, evalue: h })
    }

    /// Whether the class `etype` matches an `except` clause's `cls`.
    fn exception_match(&mut self, etype: Hlvalue, cls: Hlvalue) -> FlowResult<Hlvalue> {
        if let (Hlvalue::Constant(t), Hlvalue::Constant(c)) = (&etype, &cls) {
            let builtins = self.builtins.clone();
            let r = builtins
                .getattr("issubclass")
                .and_then(|f| f.call1((t.value.bind(self.py), c.value.bind(self.py))))
                .and_then(|r| r.is_truthy())
                .map_err(|e| self.pyerr("invalid 'except' clause", e))?;
            return Ok(self.const_bool(r));
        }
        self.do_op(OpName::Issubtype, vec![etype, cls])
    }

    fn method_call(&mut self, obj: Hlvalue, name: &str, args: Vec<Hlvalue>) -> FlowResult<Hlvalue> {
        let n = self.const_str(name);
        let m = self.do_op(OpName::Getattr, vec![obj, n])?;
        let mut all = vec![m];
        all.extend(args);
        self.do_op(OpName::SimpleCall, all)
    }

    fn unpack(&mut self, v: Hlvalue, n: usize) -> FlowResult<Vec<Hlvalue>> {
        if let Hlvalue::Constant(c) = &v {
            let obj = c.value.bind(self.py).clone();
            if crate::fold::foldable(self.py, &obj) {
                if let Ok(items) = obj
                    .try_iter()
                    .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                {
                    if items.len() == n {
                        return Ok(items.iter().map(|i| self.constant(i)).collect());
                    }
                }
            }
        }
        let v = self.do_op(OpName::Unpackable, vec![v])?;
        let len = self.do_op(OpName::Len, vec![v.clone()])?;
        let expected = self.const_int(n as i64);
        let ok = self.do_op(OpName::Eq, vec![len, expected])?;
        let okb = self.do_op(OpName::Bool, vec![ok])?;
        if !self.guessbool(okb)? {
            let cls = self.builtin("ValueError")?;
            let cls = self.constant(cls.bind(self.py));
            let sig = self.exc_from_raise(FrameValue::Val(cls))?;
            return Err(sig);
        }
        let mut items = Vec::with_capacity(n);
        for i in 0..n {
            let idx = self.const_int(i as i64);
            items.push(self.do_op(OpName::Getitem, vec![v.clone(), idx])?);
        }
        Ok(items)
    }

    /// The items (a tuple) of `v` when it is a constant
    /// `rpy3.rlib.unroll.unrolling_iterable`.
    fn unrolling_items(&self, v: &Hlvalue) -> Option<PyObj> {
        let Hlvalue::Constant(c) = v else {
            return None;
        };
        let obj = c.value.bind(self.py);
        let marked = obj
            .get_type()
            .getattr("_rpy3_unroll_")
            .and_then(|m| m.is_truthy())
            .unwrap_or(false);
        if !marked {
            return None;
        }
        obj.getattr("_items").ok().map(|t| PyObj::new(&t))
    }

    /// Executes one instruction; returns the offset of the next one.
    pub(crate) fn dispatch(&mut self, instr: &Instr) -> FlowResult<u32> {
        let next = instr.next_offset;
        let arg = instr.arg as usize;
        match &instr.op {
            Op::Nop => {}
            Op::PopTop => {
                self.pop()?;
            }
            Op::PushNull => self.push(FrameValue::Null),
            Op::Copy => {
                let v = self.peek(arg)?.clone();
                self.push(v);
            }
            Op::Swap => {
                let n = self.stack.len();
                if arg == 0 || arg > n {
                    return Err(self.error("SWAP beyond the stack (malformed bytecode)"));
                }
                self.stack.swap(n - 1, n - arg);
            }
            Op::ReturnGenerator => {
                let none = self.const_none();
                self.pushval(none);
            }
            Op::LoadConst => {
                let c = match &instr.argval {
                    // a complex constant: the prebuilt instance of
                    // rpy3.stdlib.complexnum.Complex standing for it
                    Some(v) if v.bind(self.py).is_instance_of::<pyo3::types::PyComplex>() => {
                        let p = self
                            .py
                            .import("rpy3.stdlib.complexnum")
                            .and_then(|m| m.getattr("prebuilt")?.call1((v.bind(self.py),)))
                            .map_err(|e| self.pyerr("rpy3.stdlib.complexnum", e))?;
                        self.constant(&p)
                    }
                    Some(v) => self.constant(v.bind(self.py)),
                    None => self.const_none(),
                };
                self.pushval(c);
            }
            Op::MakeCell if self.is_boxed(arg) => self.make_box(arg)?,
            Op::MakeCell => {}
            Op::LoadDeref if self.is_boxed(arg) => {
                let b = self.box_of(arg)?;
                let name = self.const_str("value");
                let v = self.do_op(OpName::Getattr, vec![b, name])?;
                self.pushval(v);
            }
            Op::StoreDeref if self.is_boxed(arg) => {
                let v = self.popvalue()?;
                let b = self.box_of(arg)?;
                let name = self.const_str("value");
                self.do_op(OpName::Setattr, vec![b, name, v])?;
            }
            Op::DeleteDeref if self.is_boxed(arg) => {
                let name = self.local_name(arg);
                return Err(self.error(format!(
                    "deleting '{name}', a variable nested functions assign, is not RPython"
                )));
            }
            Op::LoadFast | Op::LoadDeref => self.load_local(arg)?,
            Op::StoreFast => self.store_local(arg)?,
            Op::StoreDeref | Op::DeleteDeref if arg >= self.code.first_freevar => {
                let name = self.local_name(arg);
                return Err(self.error(format!(
                    "assigning to '{name}', a variable of an enclosing function ('nonlocal' or ':='), is not RPython"
                )));
            }
            Op::StoreDeref => self.store_local(arg)?,
            Op::DeleteFast | Op::DeleteDeref => {
                if let Some(slot) = self.locals.get_mut(arg) {
                    *slot = FrameValue::Undefined;
                }
            }
            Op::LoadClosure => {
                if arg >= self.locals.len() {
                    return Err(self.error("closure slot out of range (malformed bytecode)"));
                }
                self.push(FrameValue::Cell(arg));
            }
            Op::LoadGlobal => {
                if instr.arg & 1 == 1 {
                    self.push(FrameValue::Null);
                }
                let v = self.load_global(&instr.name)?;
                self.pushval(v);
            }
            Op::StoreGlobal => {
                let value = self.popvalue()?;
                let holder = self.assigned_global(&instr.name)?;
                let name = self.const_str(&instr.name);
                self.do_op(OpName::Setattr, vec![holder, name, value])?;
            }
            Op::DeleteGlobal => {
                let holder = self.assigned_global(&instr.name)?;
                let name = self.const_str(&instr.name);
                self.do_op(OpName::Delattr, vec![holder, name])?;
            }
            Op::LoadAttr => {
                let obj = self.popvalue()?;
                let v = if instr.name == "argv" && self.is_sys_module(&obj) {
                    self.sys_argv()?
                } else if instr.name == "__class__" {
                    // `x.__class__` is `type(x)` for every object RPython
                    // knows (no class redefines `__class__`)
                    self.do_op(OpName::Type, vec![obj])?
                } else if let Some(holder) = self.class_attr_holder(&obj, &instr.name, false)? {
                    // a class attribute the program assigns
                    let name = self.const_str(&instr.name);
                    self.do_op(OpName::Getattr, vec![holder, name])?
                } else {
                    let name = self.const_str(&instr.name);
                    self.do_op(OpName::Getattr, vec![obj, name])?
                };
                self.pushval(v);
            }
            Op::LoadMethod => {
                let obj = self.popvalue()?;
                let v = if instr.name == "__class__" {
                    self.do_op(OpName::Type, vec![obj.clone()])?
                } else {
                    let name = self.const_str(&instr.name);
                    self.do_op(OpName::Getattr, vec![obj.clone(), name])?
                };
                if instr.name == "sort" {
                    self.push(FrameValue::SortReceiver(obj));
                } else {
                    self.push(FrameValue::Null);
                }
                self.pushval(v);
            }
            Op::StoreAttr => {
                let obj = self.popvalue()?;
                let value = self.popvalue()?;
                let obj = match self.class_attr_holder(&obj, &instr.name, true)? {
                    Some(holder) => holder,
                    None => obj,
                };
                let name = self.const_str(&instr.name);
                self.do_op(OpName::Setattr, vec![obj, name, value])?;
            }
            Op::DeleteAttr => {
                let obj = self.popvalue()?;
                let name = self.const_str(&instr.name);
                self.do_op(OpName::Delattr, vec![obj, name])?;
            }
            Op::BinarySubscr => {
                let key = self.popvalue()?;
                let obj = self.popvalue()?;
                let v = self.do_op(OpName::Getitem, vec![obj, key])?;
                self.pushval(v);
            }
            Op::StoreSubscr => {
                let key = self.popvalue()?;
                let obj = self.popvalue()?;
                let value = self.popvalue()?;
                self.do_op(OpName::Setitem, vec![obj, key, value])?;
            }
            Op::DeleteSubscr => {
                let key = self.popvalue()?;
                let obj = self.popvalue()?;
                self.do_op(OpName::Delitem, vec![obj, key])?;
            }
            Op::BuildSlice => {
                let step = if arg == 3 {
                    self.popvalue()?
                } else {
                    self.const_none()
                };
                let stop = self.popvalue()?;
                let start = self.popvalue()?;
                let v = self.do_op(OpName::Newslice, vec![start, stop, step])?;
                self.pushval(v);
            }
            Op::GetSlice => {
                let stop = self.popvalue()?;
                let start = self.popvalue()?;
                let obj = self.popvalue()?;
                let v = self.do_op(OpName::Getslice, vec![obj, start, stop])?;
                self.pushval(v);
            }
            Op::SetSlice => {
                let stop = self.popvalue()?;
                let start = self.popvalue()?;
                let obj = self.popvalue()?;
                let value = self.popvalue()?;
                self.do_op(OpName::Setslice, vec![obj, start, stop, value])?;
            }
            Op::DelSlice => {
                let stop = self.popvalue()?;
                let start = self.popvalue()?;
                let obj = self.popvalue()?;
                self.do_op(OpName::Delslice, vec![obj, start, stop])?;
            }
            Op::BinaryOp => {
                let Some(op) = binary_op(instr.arg) else {
                    return Err(self.error(format!("unknown BINARY_OP {}", instr.arg)));
                };
                let b = self.popvalue()?;
                let a = self.popvalue()?;
                let op = if self.ovfcheck_follows(instr) {
                    checked(op).unwrap_or(op)
                } else {
                    op
                };
                let v = self.do_op(op, vec![a, b])?;
                self.pushval(v);
            }
            Op::UnaryPositive | Op::UnaryNegative | Op::UnaryInvert => {
                let op = match instr.op {
                    Op::UnaryPositive => OpName::Pos,
                    Op::UnaryNegative => OpName::Neg,
                    _ => OpName::Invert,
                };
                let a = self.popvalue()?;
                let op = if self.ovfcheck_follows(instr) {
                    checked(op).unwrap_or(op)
                } else {
                    op
                };
                let v = self.do_op(op, vec![a])?;
                self.pushval(v);
            }
            Op::UnaryNot => {
                let a = self.popvalue()?;
                let v = self.not_(a)?;
                self.pushval(v);
            }
            Op::CompareOp => {
                let op = match instr.name.as_str() {
                    "<" => OpName::Lt,
                    "<=" => OpName::Le,
                    "==" => OpName::Eq,
                    "!=" => OpName::Ne,
                    ">" => OpName::Gt,
                    ">=" => OpName::Ge,
                    other => return Err(self.error(format!("unknown comparison {other}"))),
                };
                let b = self.popvalue()?;
                let a = self.popvalue()?;
                let v = self.do_op(op, vec![a, b])?;
                self.pushval(v);
            }
            Op::IsOp | Op::ContainsOp => {
                let b = self.popvalue()?;
                let a = self.popvalue()?;
                // `x in {1, 2}` is compiled to a frozenset constant, a
                // prebuilt object RPython has no type for: test against
                // a set of its items instead (folded when `x` is constant)
                let b = match &b {
                    Hlvalue::Constant(c)
                        if instr.op == Op::ContainsOp
                            && !matches!(a, Hlvalue::Constant(_))
                            && c.value
                                .bind(self.py)
                                .is_instance_of::<pyo3::types::PyFrozenSet>() =>
                    {
                        let items = c
                            .value
                            .bind(self.py)
                            .try_iter()
                            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                            .map_err(|e| self.pyerr("constant set", e))?;
                        let items = items.iter().map(|i| self.constant(i)).collect();
                        self.do_op(OpName::Newset, items)?
                    }
                    _ => b,
                };
                let v = if instr.op == Op::IsOp {
                    self.do_op(OpName::Is_, vec![a, b])?
                } else {
                    self.do_op(OpName::Contains, vec![b, a])?
                };
                let v = if instr.arg == 1 {
                    let truth = self.guessbool(v)?;
                    self.const_bool(!truth)
                } else {
                    v
                };
                self.pushval(v);
            }
            Op::JumpForward | Op::JumpBackward => return Ok(instr.target),
            Op::PopJumpIfFalse => return self.jump_if(instr, false),
            Op::PopJumpIfTrue => return self.jump_if(instr, true),
            Op::PopJumpIfNone => return self.jump_if_none(instr, true),
            Op::PopJumpIfNotNone => return self.jump_if_none(instr, false),
            Op::JumpIfFalseOrPop | Op::JumpIfTrueOrPop => {
                let v = self.as_value(self.peek(1)?.clone())?;
                let b = self.do_op(OpName::Bool, vec![v])?;
                let truth = self.guessbool(b)?;
                let jump_when = instr.op == Op::JumpIfTrueOrPop;
                if truth == jump_when {
                    return Ok(instr.target);
                }
                self.pop()?;
            }
            Op::GetIter => {
                let v = self.popvalue()?;
                if let Some(items) = self.unrolling_items(&v) {
                    self.push(FrameValue::Unroller { items, index: 0 });
                    return Ok(next);
                }
                let it = self.do_op(OpName::Iter, vec![v])?;
                self.pushval(it);
            }
            Op::ForIter if matches!(self.peek(1)?, FrameValue::Unroller { .. }) => {
                // an unrolled loop: the next item as a constant, or its end
                let FrameValue::Unroller { items, index } = self.pop()? else {
                    unreachable!("checked just above");
                };
                let item = items.bind(self.py).get_item(index).ok();
                match item {
                    Some(item) => {
                        self.push(FrameValue::Unroller {
                            items,
                            index: index + 1,
                        });
                        let c = self.constant(&item);
                        self.pushval(c);
                    }
                    None => return Ok(instr.target),
                }
            }
            Op::ForIter => {
                let it = self.as_value(self.peek(1)?.clone())?;
                match self.do_op_forced(OpName::Next, vec![it], &["StopIteration"]) {
                    Ok(v) => self.pushval(v),
                    Err(Signal::Raise { etype, evalue }) => {
                        let stop = self.builtin("StopIteration")?;
                        let is_stop = matches!(&etype, Hlvalue::Constant(c) if c.value == stop);
                        if is_stop {
                            self.pop()?;
                            return Ok(instr.target);
                        }
                        return Err(Signal::Raise { etype, evalue });
                    }
                    Err(other) => return Err(other),
                }
            }
            Op::RaiseVarargs => {
                let sig = match arg {
                    0 => match self.exc_info.clone() {
                        FrameValue::Exc { etype, evalue } => Signal::Raise { etype, evalue },
                        _ => return Err(self.error("bare 'raise' outside of an 'except' block")),
                    },
                    1 => {
                        let v = self.pop()?;
                        self.exc_from_raise(v)?
                    }
                    _ => {
                        let _cause = self.pop()?;
                        let v = self.pop()?;
                        self.exc_from_raise(v)?
                    }
                };
                return Err(sig);
            }
            Op::Reraise => {
                let v = self.pop()?;
                let sig = self.exc_from_raise(v)?;
                return Err(sig);
            }
            Op::PushExcInfo => {
                let exc = self.pop()?;
                let prev = std::mem::replace(&mut self.exc_info, exc.clone());
                self.push(prev);
                self.push(exc);
            }
            Op::PopExcept => {
                self.exc_info = self.pop()?;
            }
            Op::CheckExcMatch => {
                let cls = self.popvalue()?;
                let etype = match self.peek(1)?.clone() {
                    FrameValue::Exc { etype, .. } => etype,
                    other => {
                        let v = self.as_value(other)?;
                        self.do_op(OpName::Type, vec![v])?
                    }
                };
                let r = self.exception_match(etype, cls)?;
                self.pushval(r);
            }
            Op::LoadAssertionError => {
                let cls = self.builtin("AssertionError")?;
                let c = self.constant(cls.bind(self.py));
                self.pushval(c);
            }
            Op::ReturnValue => {
                let v = self.popvalue()?;
                return Err(Signal::Return(v));
            }
            Op::YieldValue => {
                let v = self.popvalue()?;
                let r = self.do_op(OpName::Yield, vec![v])?;
                self.pushval(r);
            }
            Op::BuildTuple => {
                let n = arg;
                let cells = self.stack.len() >= n
                    && n > 0
                    && self.stack[self.stack.len() - n..]
                        .iter()
                        .all(|v| matches!(v, FrameValue::Cell(_)));
                if cells {
                    let mut slots = Vec::with_capacity(n);
                    for v in self.stack.drain(self.stack.len() - n..) {
                        if let FrameValue::Cell(slot) = v {
                            slots.push(slot);
                        }
                    }
                    self.push(FrameValue::Cells(slots));
                } else {
                    let items = self.popvalues(n)?;
                    let v = self.do_op(OpName::Newtuple, items)?;
                    self.pushval(v);
                }
            }
            Op::BuildList | Op::BuildSet => {
                let items = self.popvalues(arg)?;
                let op = if instr.op == Op::BuildList {
                    OpName::Newlist
                } else {
                    OpName::Newset
                };
                let v = self.do_op(op, items)?;
                self.pushval(v);
            }
            Op::BuildSetFromConst if instr.argval.is_some() => {
                // CPython merges the frozenset constant into a new set
                // (set_merge), whose table is not the one adding its items
                // would give: that set is prebuilt, and each run copies
                // it (`set(P)` copies P's table as it is)
                let frozen = instr.argval.as_ref().expect("a constant").bind(self.py);
                let set = self
                    .builtins
                    .getattr("set")
                    .map_err(|e| self.pyerr("builtins", e))?;
                let prebuilt = set
                    .call1((frozen,))
                    .map_err(|e| self.pyerr("constant set", e))?;
                let args = vec![self.constant(&set), self.constant(&prebuilt)];
                let v = self.do_op(OpName::SimpleCall, args)?;
                self.pushval(v);
            }
            Op::BuildListFromConst | Op::BuildSetFromConst => {
                let items: Vec<Hlvalue> = match &instr.argval {
                    Some(t) => {
                        let t = t.bind(self.py).clone();
                        let items = t
                            .try_iter()
                            .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                            .map_err(|e| self.pyerr("constant sequence", e))?;
                        items.iter().map(|i| self.constant(i)).collect()
                    }
                    None => Vec::new(),
                };
                let op = if instr.op == Op::BuildListFromConst {
                    OpName::Newlist
                } else {
                    OpName::Newset
                };
                let v = self.do_op(op, items)?;
                self.pushval(v);
            }
            Op::BuildTupleFromList => {
                let mut items = self.popvalues(arg)?;
                if self.print_is_below()? {
                    // the arguments of `print(a, *xs)`: their strs, which
                    // unite with the strs of the starred items
                    items = items
                        .into_iter()
                        .map(|x| self.do_op(OpName::Str, vec![x]))
                        .collect::<FlowResult<_>>()?;
                }
                let v = self.do_op(OpName::Newtuple, items)?;
                self.pushval(v);
            }
            Op::TupleExtend | Op::TupleAppend => {
                let v = self.popvalue()?;
                let t = self.popvalue()?;
                if self.print_is_below()? {
                    // `print(a, *xs)`: a list of the strs of all arguments
                    let list = self
                        .builtins
                        .getattr("list")
                        .map_err(|e| self.pyerr("builtins", e))?;
                    let list = self.constant(&list);
                    let t = self.do_op(OpName::SimpleCall, vec![list, t])?;
                    let more = if instr.op == Op::TupleAppend {
                        let x = self.do_op(OpName::Str, vec![v])?;
                        self.do_op(OpName::Newlist, vec![x])?
                    } else {
                        let strs = self
                            .py
                            .import("rpy3.hlbuiltins")
                            .and_then(|m| m.getattr("rpy_strs"))
                            .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
                        let strs = self.constant(&strs);
                        self.do_op(OpName::SimpleCall, vec![strs, v])?
                    };
                    let r = self.do_op(OpName::Add, vec![t, more])?;
                    self.pushval(r);
                    return Ok(next);
                }
                let more = if instr.op == Op::TupleAppend {
                    self.do_op(OpName::Newtuple, vec![v])?
                } else {
                    let tuple = self
                        .builtins
                        .getattr("tuple")
                        .map_err(|e| self.pyerr("builtins", e))?;
                    let tuple = self.constant(&tuple);
                    self.do_op(OpName::SimpleCall, vec![tuple, v])?
                };
                let r = self.do_op(OpName::Add, vec![t, more])?;
                self.pushval(r);
            }
            Op::CallFunctionExKw | Op::CallFunctionExKwPairs => self.call_function_ex_kw(instr)?,
            Op::BuildMap => {
                let items = self.popvalues(2 * arg)?;
                let v = self.do_op(OpName::Newdict, items)?;
                self.pushval(v);
            }
            Op::BuildConstKeyMap => {
                let keys = self.popvalue()?;
                let values = self.popvalues(arg)?;
                let Hlvalue::Constant(k) = keys else {
                    return Err(self.error("BUILD_CONST_KEY_MAP without constant keys"));
                };
                let keys: Vec<Bound<'_, PyAny>> = k
                    .value
                    .bind(self.py)
                    .try_iter()
                    .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                    .map_err(|e| self.pyerr("dict keys", e))?;
                let mut items = Vec::with_capacity(2 * arg);
                for (key, value) in keys.iter().zip(values) {
                    items.push(self.constant(key));
                    items.push(value);
                }
                let v = self.do_op(OpName::Newdict, items)?;
                self.pushval(v);
            }
            Op::ListAppend
            | Op::SetAdd
            | Op::ListExtend
            | Op::SetUpdate
            | Op::DictUpdate
            | Op::DictMerge => {
                let v = self.popvalue()?;
                let target = self.as_value(self.peek(arg)?.clone())?;
                let name = match instr.op {
                    Op::ListAppend => "append",
                    Op::SetAdd => "add",
                    Op::ListExtend => "extend",
                    _ => "update",
                };
                self.method_call(target, name, vec![v])?;
            }
            Op::MapAdd => {
                let value = self.popvalue()?;
                let key = self.popvalue()?;
                let target = self.as_value(self.peek(arg)?.clone())?;
                self.do_op(OpName::Setitem, vec![target, key, value])?;
            }
            Op::ListToTuple => {
                let v = self.popvalue()?;
                let tuple = self
                    .builtins
                    .getattr("tuple")
                    .map_err(|e| self.pyerr("builtins", e))?;
                let t = self.constant(&tuple);
                let r = self.do_op(OpName::SimpleCall, vec![t, v])?;
                self.pushval(r);
            }
            Op::UnpackSequence => {
                let v = self.popvalue()?;
                let items = self.unpack(v, arg)?;
                for item in items.into_iter().rev() {
                    self.pushval(item);
                }
            }
            Op::UnpackEx => {
                let before = arg & 0xff;
                let after = arg >> 8;
                let v = self.popvalue()?;
                let v = self.do_op(OpName::Unpackable, vec![v])?;
                let len = self.do_op(OpName::Len, vec![v.clone()])?;
                let minimum = self.const_int((before + after) as i64);
                let ok = self.do_op(OpName::Ge, vec![len, minimum])?;
                let okb = self.do_op(OpName::Bool, vec![ok])?;
                if !self.guessbool(okb)? {
                    let cls = self.builtin("ValueError")?;
                    let cls = self.constant(cls.bind(self.py));
                    return Err(self.exc_from_raise(FrameValue::Val(cls))?);
                }
                let mut items = Vec::new();
                for i in 0..before {
                    let idx = self.const_int(i as i64);
                    items.push(self.do_op(OpName::Getitem, vec![v.clone(), idx])?);
                }
                // constant bounds (a tuple is sliced only so): the length
                // was checked, so `[before:-after]` is `[before:len-after]`
                let start = self.const_int(before as i64);
                let stop = if after == 0 {
                    self.const_none()
                } else {
                    self.const_int(-(after as i64))
                };
                let middle = self.do_op(OpName::Getslice, vec![v.clone(), start, stop])?;
                let list = self
                    .builtins
                    .getattr("list")
                    .map_err(|e| self.pyerr("builtins", e))?;
                let list = self.constant(&list);
                items.push(self.do_op(OpName::SimpleCall, vec![list, middle])?);
                for k in 0..after {
                    let idx = self.const_int(k as i64 - after as i64);
                    items.push(self.do_op(OpName::Getitem, vec![v.clone(), idx])?);
                }
                for item in items.into_iter().rev() {
                    self.pushval(item);
                }
            }
            Op::FormatValue => {
                let spec = if arg & 4 != 0 {
                    Some(self.popvalue()?)
                } else {
                    None
                };
                let v = self.popvalue()?;
                let converted = match arg & 3 {
                    1 => Some(self.do_op(OpName::Str, vec![v.clone()])?),
                    2 => Some(self.do_op(OpName::Repr, vec![v.clone()])?),
                    3 => Some(self.do_op(OpName::Ascii, vec![v.clone()])?),
                    _ => None,
                };
                let r = match (spec, converted) {
                    (Some(spec), c) => self.do_op(OpName::Format, vec![c.unwrap_or(v), spec])?,
                    (None, Some(c)) => c,
                    // f"{x}" is format(x, ''): str(x), unless x's class
                    // defines __format__
                    (None, None) => {
                        let empty = self.const_str("");
                        self.do_op(OpName::Format, vec![v, empty])?
                    }
                };
                self.pushval(r);
            }
            Op::BuildString => {
                let pieces = self.popvalues(arg)?;
                let mut it = pieces.into_iter();
                let mut acc = match it.next() {
                    Some(p) => p,
                    None => self.const_str(""),
                };
                for p in it {
                    acc = self.do_op(OpName::Add, vec![acc, p])?;
                }
                self.pushval(acc);
            }
            Op::MakeFunction => self.make_function(instr.arg)?,
            Op::KwNames => {
                self.kwnames = instr.argval.clone();
            }
            // `ovfcheck(abs(x))`: the checked `abs_ovf`
            Op::Call if arg == 1 && self.abs_under_ovfcheck(instr) => {
                let x = self.popvalue()?;
                self.pop()?;
                self.pop()?;
                let v = self.do_op(OpName::AbsOvf, vec![x])?;
                self.pushval(v);
            }
            Op::Call => self.call(arg)?,
            Op::CallFunctionEx => self.call_function_ex(instr.arg)?,
            Op::BeforeWith => {
                let mgr = self.popvalue()?;
                let exit_name = self.const_str("__exit__");
                let exit = self.do_op(OpName::Getattr, vec![mgr.clone(), exit_name])?;
                self.pushval(exit);
                let r = self.method_call(mgr, "__enter__", vec![])?;
                self.pushval(r);
            }
            Op::WithExceptStart => {
                let (etype, evalue) = match self.peek(1)?.clone() {
                    FrameValue::Exc { etype, evalue } => (etype, evalue),
                    _ => return Err(self.error("WITH_EXCEPT_START without an exception")),
                };
                let exit = self.as_value(self.peek(4)?.clone())?;
                let none = self.const_none();
                let r = self.do_op(OpName::SimpleCall, vec![exit, etype, evalue, none])?;
                self.pushval(r);
            }
            Op::ImportName => {
                let fromlist = self.popvalue()?;
                let level = self.popvalue()?;
                let (Hlvalue::Constant(f), Hlvalue::Constant(l)) = (&fromlist, &level) else {
                    return Err(self.error("import with non-constant arguments"));
                };
                let import = self
                    .builtins
                    .getattr("__import__")
                    .map_err(|e| self.pyerr("builtins", e))?;
                let module = import
                    .call1((
                        instr.name.as_str(),
                        self.globals.clone(),
                        PyDict::new(self.py),
                        f.value.bind(self.py),
                        l.value.bind(self.py),
                    ))
                    .map_err(|e| {
                        self.pyerr(
                            &format!("import of '{}' failed while flowing", instr.name),
                            e,
                        )
                    })?;
                let c = self.constant(&module);
                self.pushval(c);
            }
            Op::ImportFrom => {
                let module = self.as_value(self.peek(1)?.clone())?;
                let name = self.const_str(&instr.name);
                let v = self.do_op(OpName::Getattr, vec![module, name])?;
                self.pushval(v);
            }
            Op::MatchSequence | Op::MatchMapping => {
                let subject = self.as_value(self.peek(1)?.clone())?;
                let classes: &[&'static str] = if instr.op == Op::MatchSequence {
                    &["list", "tuple"]
                } else {
                    &["dict"]
                };
                let v = self.isinstance_of_builtins(subject, classes)?;
                self.pushval(v);
            }
            Op::GetLen => {
                let subject = self.as_value(self.peek(1)?.clone())?;
                let v = self.do_op(OpName::Len, vec![subject])?;
                self.pushval(v);
            }
            Op::MatchKeys => {
                let keys = self.as_value(self.peek(1)?.clone())?;
                let subject = self.as_value(self.peek(2)?.clone())?;
                let v = self.match_keys(subject, keys)?;
                self.pushval(v);
            }
            Op::MatchClass => {
                let names = self.popvalue()?;
                let cls = self.popvalue()?;
                let subject = self.popvalue()?;
                let v = self.match_class(subject, cls, names, arg)?;
                self.pushval(v);
            }
            Op::GetYieldFromIter => {
                let v = self.popvalue()?;
                let it = self.do_op(OpName::Iter, vec![v])?;
                self.pushval(it);
            }
            Op::Send => return self.yield_from_step(instr),
            Op::Unsupported(name) => return Err(self.error(unsupported_message(name))),
        }
        Ok(next)
    }

    fn load_global(&mut self, name: &str) -> FlowResult<Hlvalue> {
        if let Some(holder) = self.global_holder(name)? {
            let name = self.const_str(name);
            return self.do_op(OpName::Getattr, vec![holder, name]);
        }
        if let Ok(Some(v)) = self.globals.get_item(name) {
            if self.is_sys_argv(&v) {
                return self.sys_argv();
            }
            return Ok(self.constant(&v));
        }
        if let Ok(v) = self.builtins.getattr(name) {
            return Ok(self.constant(&v));
        }
        Err(self.error(format!("global name '{name}' is not defined")))
    }
}

impl FlowContext<'_> {
    /// The prebuilt instance holding the module global `name` when some
    /// function of the module assigns it (see `rpy3._globals`); such a
    /// global is read and written as that instance's attribute, any other
    /// is a constant.
    fn global_holder(&mut self, name: &str) -> FlowResult<Option<Hlvalue>> {
        let py = self.py;
        let module =
            optional_module(py, "rpy3._globals").map_err(|e| self.pyerr("rpy3._globals", e))?;
        let Some(module) = module else {
            return Ok(None);
        };
        let found = Ok(module)
            .and_then(|m| {
                m.getattr("holder_for")?
                    .call1((&self.globals, self.code.object.bind(py), name))
            })
            .map_err(|e| self.pyerr("rpy3._globals", e))?;
        Ok(if found.is_none() {
            None
        } else {
            Some(self.constant(&found))
        })
    }

    /// For `C.name` with `C` a constant class of the program: the
    /// instance holding the attribute when the program assigns it (see
    /// `rpy3._classattrs`), else None.  An assignment (`store`) to a class
    /// attribute rpy3 did not find assigned is refused.
    fn class_attr_holder(
        &mut self,
        obj: &Hlvalue,
        name: &str,
        store: bool,
    ) -> FlowResult<Option<Hlvalue>> {
        let py = self.py;
        let Hlvalue::Constant(c) = obj else {
            return Ok(None);
        };
        let cls = c.value.bind(py).clone();
        if !cls.is_instance_of::<pyo3::types::PyType>() {
            return Ok(None);
        }
        let Some(module) = optional_module(py, "rpy3._classattrs")
            .map_err(|e| self.pyerr("rpy3._classattrs", e))?
        else {
            return Ok(None);
        };
        let func = if store { "store_holder" } else { "holder_for" };
        let found = module
            .getattr(func)
            .and_then(|f| f.call1((&cls, name, self.code.object.bind(py), &self.globals)))
            .map_err(|e| self.pyerr("rpy3._classattrs", e))?;
        if found.is_none() {
            if store {
                let cname = cls
                    .getattr("__qualname__")
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                return Err(self.error(format!(
                    "assigning the class attribute {cname}.{name} in a way rpy3 does not \
                     recognise, or after it was read as a constant (assign it as \
                     `{cname}.{name} = ...` in a function of the program)"
                )));
            }
            return Ok(None);
        }
        Ok(Some(self.constant(&found)))
    }

    fn is_sys_module(&self, h: &Hlvalue) -> bool {
        matches!(h, Hlvalue::Constant(c)
            if self.py.import("sys").is_ok_and(|sys| c.value.bind(self.py).is(&sys)))
    }

    fn is_sys_argv(&self, v: &Bound<'_, PyAny>) -> bool {
        self.py
            .import("sys")
            .and_then(|sys| sys.getattr("argv"))
            .is_ok_and(|argv| v.is(&argv))
    }

    /// `sys.argv`: the running program's command line, which
    /// `rpy3.stdlib.sysargv` keeps (never the translating process's).
    fn sys_argv(&mut self) -> FlowResult<Hlvalue> {
        let holder = self
            .py
            .import("rpy3.stdlib.sysargv")
            .and_then(|m| m.getattr("HOLDER"))
            .map_err(|e| self.pyerr("rpy3.stdlib.sysargv", e))?;
        let holder = self.constant(&holder);
        let name = self.const_str("argv");
        self.do_op(OpName::Getattr, vec![holder, name])
    }

    /// The holder of a global the function assigns.
    fn assigned_global(&mut self, name: &str) -> FlowResult<Hlvalue> {
        match self.global_holder(name)? {
            Some(h) => Ok(h),
            None => Err(self.error(format!(
                "assigning to the global '{name}' from a function rpy3 did not find among \
                 the module's functions and methods (assign it from one of those)"
            ))),
        }
    }
}

/// The module `name` of the `rpy3` package, or None when the package is
/// not importable (then flowing works without its additions).
pub(crate) fn optional_module<'py>(
    py: Python<'py>,
    name: &str,
) -> PyResult<Option<Bound<'py, PyModule>>> {
    match py.import(name) {
        Ok(m) => Ok(Some(m)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyModuleNotFoundError>(py) => Ok(None),
        Err(e) => Err(e),
    }
}

fn unsupported_message(opname: &str) -> String {
    match opname {
        "LOAD_BUILD_CLASS" => "class definitions inside functions are not RPython".into(),
        "LOAD_NAME" | "STORE_NAME" | "DELETE_NAME" | "LOAD_CLASSDEREF" => {
            "module-level or class-body code cannot be flowed; only functions".into()
        }
        "GET_AWAITABLE" | "GET_AITER" | "GET_ANEXT" | "BEFORE_ASYNC_WITH" | "END_ASYNC_FOR"
        | "ASYNC_GEN_WRAP" => "async functions and 'await' are not RPython".into(),
        "CHECK_EG_MATCH" | "PREP_RERAISE_STAR" => "'except*' is not RPython".into(),
        "IMPORT_STAR" => "'from ... import *' inside a function is not RPython".into(),
        "SETUP_ANNOTATIONS" => "variable annotations at this level are not supported".into(),
        other => format!("unsupported bytecode {other}"),
    }
}

impl FlowContext<'_> {
    /// Whether the value under the top of the stack being built is the
    /// built-in `print` (the arguments tuple of `print(a, *xs)` is being
    /// built: its items become strs, as print shows them, so that items of
    /// different types unite).
    fn print_is_below(&self) -> FlowResult<bool> {
        let Ok(FrameValue::Val(Hlvalue::Constant(c))) = self.peek(1) else {
            return Ok(false);
        };
        let print = self
            .builtins
            .getattr("print")
            .map_err(|e| self.pyerr("builtins", e))?;
        Ok(c.value.bind(self.py).is(&print))
    }
}
