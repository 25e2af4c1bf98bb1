//! Lists: built here (`newlist`, iterators) or by the helpers of
//! `rpy3.lltypesystem.rlist`, one specialised copy per list type.

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, TypeDef, BOOL, SIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::{name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::{Repr, SeqKind};
use crate::RTypeError;

/// The module of the list helpers.
pub const RLIST: &str = "rpy3.lltypesystem.rlist";

/// An argument of a helper call: the low-level value and the annotation
/// the helper is specialised for.
pub(super) type Arg = (Hlvalue, SomeValue);

impl Cx<'_, '_, '_, '_> {
    /// Whether the annotator knows `h` is an int that is not negative.
    pub(super) fn is_nonneg(&self, h: &Hlvalue) -> bool {
        match self.s(h) {
            SomeValue::Integer {
                nonneg,
                konst,
                kind,
                ..
            } => {
                kind == IntKind::Signed
                    && (nonneg
                        || konst.is_some_and(|k| {
                            k.bind(self.py).extract::<i64>().is_ok_and(|k| k >= 0)
                        }))
            }
            _ => false,
        }
    }

    pub(super) fn int_arg(&mut self, h: &Hlvalue) -> Result<Arg, RTypeError> {
        Ok((
            self.input(h, &Repr::Int(IntKind::Signed))?,
            SomeValue::int(),
        ))
    }

    pub(super) fn const_int_arg(&self, v: i64) -> Result<Arg, RTypeError> {
        Ok((
            value_const(self.py, LlValue::Int(v), SIGNED)?,
            SomeValue::int(),
        ))
    }

    /// A list operand in the list repr `lr`.
    pub(super) fn list_arg(&mut self, h: &Hlvalue, lr: &Repr) -> Result<Arg, RTypeError> {
        let v = self.input(h, lr)?;
        Ok((v, SomeValue::Ptr(lr.lowleveltype(self.rt))))
    }

    /// An item operand of a list of items of repr `item`.
    pub(super) fn item_arg(&mut self, h: &Hlvalue, item: &Repr) -> Result<Arg, RTypeError> {
        let v = self.input(h, item)?;
        Ok((v, self.ll_annotation_of(item)?))
    }

    pub(super) fn ll_annotation_of(&self, r: &Repr) -> Result<SomeValue, RTypeError> {
        self.rt
            .ann
            .ll_annotation(r.lowleveltype(self.rt))
            .map_err(|e| RTypeError::new(e.message))
    }

    /// Calls list helper `helper`; returns its result and low-level type.
    pub(super) fn call_list_helper(
        &mut self,
        helper: &str,
        args: Vec<Arg>,
    ) -> Result<(Hlvalue, LlType), RTypeError> {
        self.call_helper_in(RLIST, helper, args)
    }

    /// Calls helper `helper` of module `module`, specialised for the
    /// annotations of `args`; returns its result and low-level type.
    pub(super) fn call_helper_in(
        &mut self,
        module: &str,
        helper: &str,
        args: Vec<Arg>,
    ) -> Result<(Hlvalue, LlType), RTypeError> {
        let f = self
            .py
            .import(module)
            .and_then(|m| m.getattr(helper))
            .map_err(|e| RTypeError::new(format!("helper {module}.{helper}: {e}")))?;
        let (vals, anns): (Vec<Hlvalue>, Vec<SomeValue>) = args.into_iter().unzip();
        let idx = self.rt.helper_for(self.py, &f, anns)?;
        let TypeDef::Func { result, .. } = self.rt.funcs_ty(idx).def() else {
            return Err(RTypeError::new("a helper without a function type"));
        };
        let mut all = vec![self.func_const(idx)?];
        all.extend(vals);
        Ok((self.emit(LlOp::DirectCall, all, result), result))
    }

    /// The function pointer of `hl_eq` or `hl_lt` for items of repr `item`.
    pub(super) fn item_function(&mut self, which: &str, item: &Repr) -> Result<Arg, RTypeError> {
        self.item_function_in(RLIST, which, item)
    }

    /// The function pointer of `module.which` for items of repr `item`.
    pub(super) fn item_function_in(
        &mut self,
        module: &str,
        which: &str,
        item: &Repr,
    ) -> Result<Arg, RTypeError> {
        let n = if matches!(which, "hl_hash" | "hl_hash_special" | "hl_repr" | "hl_bool") {
            1
        } else {
            2
        };
        let s_item = self
            .rt
            .list_items
            .borrow()
            .get(item)
            .cloned()
            .ok_or_else(|| RTypeError::new(format!("no annotation for list items {item:?}")))?;
        let f = self
            .py
            .import(module)
            .and_then(|m| m.getattr(which))
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let idx = self.rt.helper_for(self.py, &f, vec![s_item; n])?;
        let c = self.func_const(idx)?;
        let t = LlType::ptr(self.rt.funcs_ty(idx)).map_err(|e| RTypeError::new(e.to_string()))?;
        Ok((c, SomeValue::Ptr(t)))
    }

    /// Whether list `h` (or the list a method is bound to) is a bytearray.
    pub(super) fn is_bytearray(&self, h: &Hlvalue) -> bool {
        match self.s(h) {
            SomeValue::List(id) => self.rt.ann.itemdefs.get(id).bytearray,
            SomeValue::Builtin {
                s_self: Some(inner),
                ..
            } => matches!(*inner, SomeValue::List(id) if self.rt.ann.itemdefs.get(id).bytearray),
            _ => false,
        }
    }

    /// Item `x` stored into list `l`: a bytearray checks its range.  In a
    /// call (`append`, `insert`) the check is where the call raises; a
    /// `setitem` raises only its IndexError where an `except` can see it.
    fn checked_item(&mut self, l: &Hlvalue, x: Arg, in_call: bool) -> Result<Arg, RTypeError> {
        if !self.is_bytearray(l) {
            return Ok(x);
        }
        let rb = super::builtins::RBUILTIN;
        if in_call {
            self.raising_at = Some(self.ops.len());
        }
        let (v, _) = self.call_helper_in(rb, "ll_check_byte", vec![x.clone()])?;
        Ok((v, x.1))
    }

    /// A new list of items of repr `item` holding `items`.
    pub(super) fn new_list(
        &mut self,
        item: &Repr,
        items: Vec<Hlvalue>,
    ) -> Result<Hlvalue, RTypeError> {
        let n = value_const(self.py, LlValue::Int(items.len() as i64), SIGNED)?;
        let l = self.new_list_of_length(item, n)?;
        if !items.is_empty() {
            let arr = self.list_items_array(item, l.clone())?;
            for (i, v) in items.into_iter().enumerate() {
                let k = value_const(self.py, LlValue::Int(i as i64), SIGNED)?;
                self.emit(LlOp::Setarrayitem, vec![arr.clone(), k, v], VOID);
            }
        }
        Ok(l)
    }

    /// A new list of `n` zeroed items.
    pub(super) fn new_list_of_length(
        &mut self,
        item: &Repr,
        n: Hlvalue,
    ) -> Result<Hlvalue, RTypeError> {
        self.new_seq_of_length(item, SeqKind::List, n)
    }

    /// A new list (or variable-length tuple) of `n` zeroed items.
    pub(super) fn new_seq_of_length(
        &mut self,
        item: &Repr,
        kind: SeqKind,
        n: Hlvalue,
    ) -> Result<Hlvalue, RTypeError> {
        let st = self.rt.seq_struct(item, kind);
        let lp = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
        let arr = LlType::array(item.lowleveltype(self.rt), true)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let ap = LlType::ptr(arr).map_err(|e| RTypeError::new(e.to_string()))?;
        let l = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], lp);
        let a = self.emit(
            LlOp::MallocVarsize,
            vec![type_const(self.py, arr)?, n.clone()],
            ap,
        );
        self.emit(
            LlOp::Setfield,
            vec![l.clone(), name(self.py, "length"), n],
            VOID,
        );
        self.emit(
            LlOp::Setfield,
            vec![l.clone(), name(self.py, "items"), a],
            VOID,
        );
        Ok(l)
    }

    fn list_items_array(&mut self, item: &Repr, l: Hlvalue) -> Result<Hlvalue, RTypeError> {
        let arr = LlType::array(item.lowleveltype(self.rt), true)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let ap = LlType::ptr(arr).map_err(|e| RTypeError::new(e.to_string()))?;
        Ok(self.emit(LlOp::Getfield, vec![l, name(self.py, "items")], ap))
    }

    /// A new iterator over list `l`, backwards when `reversed`.
    pub(super) fn new_list_iter(
        &mut self,
        item: &Repr,
        kind: SeqKind,
        l: Hlvalue,
        reversed: bool,
    ) -> Result<Hlvalue, RTypeError> {
        let st = self.rt.listiter_struct(item, kind);
        let pt = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
        let it = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
        let start = if reversed {
            self.emit(
                LlOp::Getfield,
                vec![l.clone(), name(self.py, "length")],
                SIGNED,
            )
        } else {
            value_const(self.py, LlValue::Int(0), SIGNED)?
        };
        self.emit(
            LlOp::Setfield,
            vec![it.clone(), name(self.py, "list"), l],
            VOID,
        );
        self.emit(
            LlOp::Setfield,
            vec![it.clone(), name(self.py, "index"), start],
            VOID,
        );
        Ok(it)
    }

    /// The four parts of a slice object (start, stop, step, nones).
    pub(super) fn slice_args(&mut self, h: &Hlvalue) -> Result<Vec<Arg>, RTypeError> {
        let sl = self.input(h, &Repr::Slice)?;
        let mut out = Vec::new();
        for i in 0..4 {
            let v = self.emit(
                LlOp::Getfield,
                vec![sl.clone(), name(self.py, &format!("item{i}"))],
                SIGNED,
            );
            out.push((v, SomeValue::int()));
        }
        Ok(out)
    }

    /// `start, stop, step, nones` of `x[a:b]` (either bound may be None).
    pub(super) fn bounds_args(&mut self, a: &Hlvalue, b: &Hlvalue) -> Result<Vec<Arg>, RTypeError> {
        let mut out = Vec::new();
        let mut nones = 4;
        for (k, h) in [a, b].into_iter().enumerate() {
            if matches!(self.s(h), SomeValue::None_) {
                nones |= 1 << k;
                out.push(self.const_int_arg(0)?);
            } else {
                out.push(self.int_arg(h)?);
            }
        }
        out.push(self.const_int_arg(1)?);
        out.push(self.const_int_arg(nones)?);
        Ok(out)
    }

    /// Converts a helper's result to the operation's result.
    fn list_result(
        &mut self,
        op: &SpaceOperation,
        v: Hlvalue,
        have: &Repr,
    ) -> Result<(), RTypeError> {
        let want = self.result_repr(op)?;
        let v = self.convert(v, have, &want)?;
        self.finish(op.result, v);
        Ok(())
    }

    /// Lowers `op` if it works on lists; false otherwise.
    pub(super) fn lower_list(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        if op.opname == H::Newlist {
            let want = self.result_repr(op)?;
            let Repr::List(item, _) = &want else {
                return Ok(false);
            };
            let mut vals = Vec::new();
            for a in &op.args {
                vals.push(self.input(a, item)?);
            }
            let l = self.new_list(item, vals)?;
            self.finish(op.result, l);
            return Ok(true);
        }
        let Some(mut first) = op.args.first() else {
            return Ok(false);
        };
        let mut r0 = self.repr_of(first)?;
        if op.opname == H::Mul && op.args.len() == 2 {
            // n * lst
            let r1 = self.repr_of(&op.args[1])?;
            if matches!(r1, Repr::List(..)) {
                first = &op.args[1];
                r0 = r1;
            }
        }
        // `x in lst` has the list first too (contains(container, item))
        let (lr, item) = match &r0 {
            Repr::List(item, _) => (r0.clone(), (**item).clone()),
            Repr::ListIter(item, reversed, _) if op.opname == H::Next => {
                let helper = if *reversed {
                    "ll_iter_next_reversed"
                } else {
                    "ll_iter_next"
                };
                let it = self.input(first, &r0)?;
                let (v, _) = self.call_list_helper(
                    helper,
                    vec![(it, SomeValue::Ptr(r0.lowleveltype(self.rt)))],
                )?;
                let item = (**item).clone();
                self.list_result(op, v, &item)?;
                return Ok(true);
            }
            Repr::ListIter(..) if op.opname == H::Iter => {
                let v = self.input(first, &r0)?;
                self.finish(op.result, v);
                return Ok(true);
            }
            _ => return Ok(false),
        };
        let arg_repr =
            |cx: &Self, k: usize| -> Result<Repr, RTypeError> { cx.repr_of(&op.args[k]) };
        match op.opname {
            H::Len => {
                let l = self.input(first, &lr)?;
                let v = self.emit(LlOp::Getfield, vec![l, name(self.py, "length")], SIGNED);
                self.list_result(op, v, &Repr::Int(IntKind::Signed))?;
            }
            H::Bool => {
                let l = self.list_arg(first, &lr)?;
                let (v, _) = self.call_list_helper("ll_is_true", vec![l])?;
                self.list_result(op, v, &Repr::Bool)?;
            }
            H::Getattr if !matches!(self.s(&Hlvalue::Variable(op.result)), SomeValue::Builtin { .. }) => {
                // an attribute that is a constant (a deque's maxlen)
                let s_res = self.rt.ann.binding(self.g, op.result);
                let want = self.result_repr(op)?;
                let c = super::constant_of(self.rt, self.py, &s_res, &want)?;
                self.finish(op.result, c);
            }
            H::Getattr => {
                // a bound method of a list is the list
                let v = self.input(first, &lr)?;
                self.finish(op.result, v);
            }
            H::Iter => {
                let l = self.input(first, &lr)?;
                let Repr::List(_, kind) = lr else {
                    unreachable!("a list")
                };
                let it = self.new_list_iter(&item, kind, l, false)?;
                self.finish(op.result, it);
            }
            H::Is_ => {
                let a = self.input(first, &lr)?;
                let b = self.input(&op.args[1], &lr)?;
                let v = self.emit(LlOp::PtrEq, vec![a, b], BOOL);
                self.finish(op.result, v);
            }
            H::Getitem if arg_repr(self, 1)? == Repr::Slice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.slice_args(&op.args[1])?);
                let (v, _) = self.call_list_helper("ll_slice_step", args)?;
                self.list_result(op, v, &lr)?;
            }
            H::Getitem => {
                let args = vec![self.list_arg(first, &lr)?, self.int_arg(&op.args[1])?];
                // an index the annotator knows is not negative needs no
                // wrapping around (RPython's ll_getitem_nonneg)
                let helper = if self.is_nonneg(&op.args[1]) {
                    "ll_getitem_nonneg"
                } else {
                    "ll_getitem"
                };
                let (v, _) = self.call_list_helper(helper, args)?;
                self.list_result(op, v, &item)?;
            }
            H::Setitem if arg_repr(self, 1)? == Repr::Slice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.slice_args(&op.args[1])?);
                args.push(self.list_arg(&op.args[2], &lr)?);
                self.call_list_helper("ll_setslice", args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::Setitem => {
                let x = self.item_arg(&op.args[2], &item)?;
                let x = self.checked_item(first, x, false)?;
                let args = vec![self.list_arg(first, &lr)?, self.int_arg(&op.args[1])?, x];
                let helper = if self.is_nonneg(&op.args[1]) {
                    "ll_setitem_nonneg"
                } else {
                    "ll_setitem"
                };
                self.call_list_helper(helper, args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::Delitem if arg_repr(self, 1)? == Repr::Slice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.slice_args(&op.args[1])?);
                self.call_list_helper("ll_delslice", args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::Delitem => {
                let args = vec![self.list_arg(first, &lr)?, self.int_arg(&op.args[1])?];
                self.call_list_helper("ll_delitem", args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::Getslice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.bounds_args(&op.args[1], &op.args[2])?);
                let (v, _) = self.call_list_helper("ll_slice_step", args)?;
                self.list_result(op, v, &lr)?;
            }
            H::Setslice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.bounds_args(&op.args[1], &op.args[2])?);
                args.push(self.list_arg(&op.args[3], &lr)?);
                self.call_list_helper("ll_setslice", args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::Delslice => {
                let mut args = vec![self.list_arg(first, &lr)?];
                args.extend(self.bounds_args(&op.args[1], &op.args[2])?);
                self.call_list_helper("ll_delslice", args)?;
                self.list_result(op, value_const(self.py, LlValue::Void, VOID)?, &Repr::Void)?;
            }
            H::InplaceAdd | H::Add
                if matches!(self.repr_of(&op.args[1])?, Repr::Str | Repr::UniChar | Repr::Bytes) =>
            {
                // a list += a str (bytes): extended by its characters (ints);
                // a bytearray + bytes: a new bytearray
                let want = self.result_repr(op)?;
                let Repr::List(item, _) = want.clone() else {
                    return Err(RTypeError::new("list += str without a list"));
                };
                let a = self.list_arg(first, &want)?;
                let other = self.iterable_as_list(&op.args[1], &item)?;
                let oa = (other, SomeValue::Ptr(want.lowleveltype(self.rt)));
                let v = if op.opname == H::Add {
                    self.call_list_helper("ll_concat", vec![a, oa])?.0
                } else {
                    let l = a.0.clone();
                    self.call_list_helper("ll_extend", vec![a, oa])?;
                    l
                };
                self.finish(op.result, v);
            }
            H::Add | H::InplaceAdd => {
                let want = self.result_repr(op)?;
                let a = self.list_arg(first, &want)?;
                let b = self.list_arg(&op.args[1], &want)?;
                // (a tuple is never changed: `t += u` makes a new one)
                let v = if op.opname == H::Add || matches!(want, Repr::List(_, SeqKind::Tuple)) {
                    self.call_list_helper("ll_concat", vec![a, b])?.0
                } else {
                    let l = a.0.clone();
                    self.call_list_helper("ll_extend", vec![a, b])?;
                    l
                };
                self.finish(op.result, v);
            }
            H::Mul | H::InplaceMul => {
                let want = self.result_repr(op)?;
                let (li, ni) = if std::ptr::eq(first, &op.args[0]) {
                    (0, 1)
                } else {
                    (1, 0)
                };
                let l = self.list_arg(&op.args[li], &want)?;
                let n = self.int_arg(&op.args[ni])?;
                let helper = if op.opname == H::Mul {
                    "ll_mul"
                } else {
                    "ll_inplace_mul"
                };
                let (v, _) = self.call_list_helper(helper, vec![l, n])?;
                self.finish(op.result, v);
            }
            H::Eq | H::Ne | H::Lt | H::Le | H::Gt | H::Ge
                if self.repr_of(&op.args[1])? == Repr::Bytes =>
            {
                // a bytearray compared with bytes: the comparisons' own
                return Ok(false);
            }
            H::Eq | H::Ne | H::Lt | H::Le | H::Gt | H::Ge => {
                let a = self.input(first, &lr)?;
                let b = self.input(&op.args[1], &lr)?;
                let v = self.compare_lists(op.opname, a, b, &lr)?;
                self.finish(op.result, v);
            }
            H::Contains => {
                let l = self.list_arg(first, &lr)?;
                let x = self.item_arg(&op.args[1], &item)?;
                let eq = self.item_function("hl_eq", &item)?;
                let (v, _) = self.call_list_helper("ll_contains", vec![l, x, eq])?;
                self.list_result(op, v, &Repr::Bool)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `a <op> b` on two lists in repr `lr`.
    pub(super) fn compare_lists(
        &mut self,
        opname: rpy3_model::OpName,
        a: Hlvalue,
        b: Hlvalue,
        lr: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        use rpy3_model::OpName as H;
        let Repr::List(item, _) = lr else {
            return Err(RTypeError::new("comparing lists of a non-list repr"));
        };
        let lt = lr.lowleveltype(self.rt);
        let a = (a, SomeValue::Ptr(lt));
        let b = (b, SomeValue::Ptr(lt));
        let eq = self.item_function("hl_eq", item)?;
        Ok(match opname {
            H::Eq | H::Ne => {
                let (v, _) = self.call_list_helper("ll_eq", vec![a, b, eq])?;
                if opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![v], BOOL)
                } else {
                    v
                }
            }
            _ => {
                let less = self.item_function("hl_lt", item)?;
                let (c, _) = self.call_list_helper("ll_cmp", vec![a, b, eq, less])?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let cmp = match opname {
                    H::Lt => LlOp::IntLt,
                    H::Le => LlOp::IntLe,
                    H::Gt => LlOp::IntGt,
                    _ => LlOp::IntGe,
                };
                self.emit(cmp, vec![c, zero], BOOL)
            }
        })
    }

    /// A method of a list: `lst.append(x)`, ...
    pub(super) fn list_method(
        &mut self,
        method: &str,
        recv: &Hlvalue,
        args: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        if let Some(maxlen) = self.deque_bound(recv) {
            // a deque with a maxlen: a full one drops an item at the other end
            let trim = match (method, args.len()) {
                ("append" | "extend", 1) => Some("ll_trim_left"),
                ("appendleft" | "extendleft", 1) => Some("ll_trim_right"),
                ("insert", 2) => {
                    return Err(RTypeError::unsupported("insert() into a deque with a maxlen"))
                }
                _ => None,
            };
            if let Some(trim) = trim {
                let v = self.list_method_unbounded(method, recv, args, keywords, want)?;
                let lr = self.repr_of(recv)?;
                let l = self.list_arg(recv, &lr)?;
                let nc = self.const_int_arg(maxlen)?;
                self.call_list_helper(trim, vec![l, nc])?;
                return Ok(v);
            }
        }
        self.list_method_unbounded(method, recv, args, keywords, want)
    }

    /// The maxlen of the deque `h` is (or a method is bound to), if it has one.
    fn deque_bound(&self, h: &Hlvalue) -> Option<i64> {
        let id = match self.s(h) {
            SomeValue::List(id) => id,
            SomeValue::Builtin {
                s_self: Some(inner),
                ..
            } => match *inner {
                SomeValue::List(id) => id,
                _ => return None,
            },
            _ => return None,
        };
        self.rt.ann.itemdefs.get(id).maxlen
    }

    /// A method of a list (or of a deque without a bound).
    fn list_method_unbounded(
        &mut self,
        method: &str,
        recv: &Hlvalue,
        args: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let lr = self.repr_of(recv)?;
        if lr == Repr::Range && matches!(method, "index" | "count") && args.len() == 1 {
            // a range's: by its bounds (ValueError when not in it)
            let r = self.input(recv, &Repr::Range)?;
            let mut hargs = Vec::new();
            for f in ["start", "stop", "step"] {
                let v = self.emit(LlOp::Getfield, vec![r.clone(), name(self.py, f)], SIGNED);
                hargs.push((v, SomeValue::int()));
            }
            let x = self.input(&args[0], &Repr::Int(IntKind::Signed))?;
            hargs.push((x, SomeValue::int()));
            let helper = if method == "index" {
                "ll_range_index"
            } else {
                "ll_range_count"
            };
            let (v, _) = self.call_helper_in(super::builtins::RBUILTIN, helper, hargs)?;
            return self.convert(v, &Repr::Int(IntKind::Signed), want);
        }
        let Repr::List(item, _) = lr.clone() else {
            return Err(RTypeError::new("a list method on a non-list"));
        };
        let item = *item;
        let l = self.list_arg(recv, &lr)?;
        let none = value_const(self.py, LlValue::Void, VOID)?;
        if matches!(method, "hex" | "decode") && self.is_bytearray(recv) {
            // a bytearray's: those of the bytes it holds
            let (b, _) = self.call_list_helper("ll_bytes_from_list", vec![l])?;
            let Hlvalue::Variable(bv) = b else {
                return Err(RTypeError::new("bytes of a bytearray"));
            };
            self.synthetic.insert(
                bv,
                SomeValue::Str {
                    kind: rpy3_annotator::model::StrKind::Bytes,
                    is_char: false,
                    can_be_none: false,
                    konst: None,
                },
            );
            self.lowered.insert(bv, Repr::Bytes);
            return self.str_method(method, &Hlvalue::Variable(bv), args, want);
        }
        let (v, have) = match (method, args.len()) {
            ("append", 1) => {
                let x = self.item_arg(&args[0], &item)?;
                let x = self.checked_item(recv, x, true)?;
                self.call_list_helper("ll_append", vec![l, x])?;
                (none, Repr::Void)
            }
            ("pop", 0) => (self.call_list_helper("ll_pop_last", vec![l])?.0, item),
            // a deque's methods (a deque is a list)
            ("popleft", 0) => {
                let i = self.const_int_arg(0)?;
                (self.call_list_helper("ll_pop", vec![l, i])?.0, item)
            }
            ("appendleft", 1) => {
                let i = self.const_int_arg(0)?;
                let x = self.item_arg(&args[0], &item)?;
                self.call_list_helper("ll_insert", vec![l, i, x])?;
                (none, Repr::Void)
            }
            ("extendleft", 1) => {
                let other = self.iterable_as_list(&args[0], &item)?;
                let oa = (other, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                self.call_list_helper("ll_extendleft", vec![l, oa])?;
                (none, Repr::Void)
            }
            ("rotate", 0 | 1) => {
                let n = match args.first() {
                    Some(a) => self.int_arg(a)?,
                    None => self.const_int_arg(1)?,
                };
                self.call_list_helper("ll_rotate", vec![l, n])?;
                (none, Repr::Void)
            }
            ("pop", 1) => {
                let i = self.int_arg(&args[0])?;
                (self.call_list_helper("ll_pop", vec![l, i])?.0, item)
            }
            ("insert", 2) => {
                let i = self.int_arg(&args[0])?;
                let x = self.item_arg(&args[1], &item)?;
                let x = self.checked_item(recv, x, true)?;
                self.call_list_helper("ll_insert", vec![l, i, x])?;
                (none, Repr::Void)
            }
            ("extend", 1) => {
                let other = self.iterable_as_list(&args[0], &item)?;
                let oa = (other, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                if self.is_bytearray(recv) && self.repr_of(&args[0])? != Repr::Bytes {
                    self.raising_at = Some(self.ops.len());
                    self.call_list_helper("ll_check_bytes_list", vec![oa.clone()])?;
                }
                self.call_list_helper("ll_extend", vec![l, oa])?;
                (none, Repr::Void)
            }
            ("index", 1)
                if self.keeps_message(self.rt.exception_classdef("ValueError"))
                    && matches!(
                        item,
                        Repr::Int(_)
                            | Repr::Bool
                            | Repr::Float
                            | Repr::Str
                            | Repr::UniChar
                            | Repr::Char
                            | Repr::Bytes
                    ) =>
            {
                // ValueError's message shows the item: '3 is not in list'
                let x = self.item_arg(&args[0], &item)?;
                let eq = self.item_function("hl_eq", &item)?;
                let shown = self.item_function("hl_repr", &item)?;
                let (v, _) = self.call_list_helper("ll_index_shown", vec![l, x, eq, shown])?;
                (v, Repr::Int(IntKind::Signed))
            }
            ("remove" | "index" | "count", 1) => {
                let x = self.item_arg(&args[0], &item)?;
                let eq = self.item_function("hl_eq", &item)?;
                let helper = format!("ll_{method}");
                let (v, _) = self.call_list_helper(&helper, vec![l, x, eq])?;
                if method == "remove" {
                    (none, Repr::Void)
                } else {
                    (v, Repr::Int(IntKind::Signed))
                }
            }
            ("index", 2 | 3) => {
                let x = self.item_arg(&args[0], &item)?;
                let start = self.int_arg(&args[1])?;
                let stop = match args.get(2) {
                    Some(a) => self.int_arg(a)?,
                    None => self.const_int_arg(i64::MAX)?,
                };
                let eq = self.item_function("hl_eq", &item)?;
                let (v, _) =
                    self.call_list_helper("ll_index_range", vec![l, x, start, stop, eq])?;
                (v, Repr::Int(IntKind::Signed))
            }
            ("reverse", 0) => {
                self.call_list_helper("ll_reverse", vec![l])?;
                (none, Repr::Void)
            }
            ("copy", 0) => (self.call_list_helper("ll_copy", vec![l])?.0, lr.clone()),
            ("clear", 0) => {
                self.call_list_helper("ll_clear", vec![l])?;
                (none, Repr::Void)
            }
            ("sort", 0) => {
                self.sort_list(l, &item, keywords)?;
                (none, Repr::Void)
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "list.{method}() with {} arguments",
                    args.len()
                )))
            }
        };
        self.convert(v, &have, want)
    }

    /// Sorts list `l` in place (`reverse=` may be given).
    pub(super) fn sort_list(
        &mut self,
        l: Arg,
        item: &Repr,
        keywords: &[(String, Hlvalue)],
    ) -> Result<(), RTypeError> {
        let mut reverse = (
            value_const(self.py, LlValue::Bool(false), BOOL)?,
            SomeValue::bool(),
        );
        let mut key = None;
        for (k, v) in keywords {
            match k.as_str() {
                "reverse" => reverse = (self.input(v, &Repr::Bool)?, SomeValue::bool()),
                "key" if !matches!(self.s(v), SomeValue::None_) => key = Some(v.clone()),
                "key" => {}
                other => {
                    return Err(RTypeError::unsupported(&format!(
                        "sorting with the keyword argument '{other}'"
                    )))
                }
            }
        }
        let Some(key) = key else {
            let lt = self.item_function("hl_lt", item)?;
            self.call_list_helper("ll_sort", vec![l, lt, reverse])?;
            return Ok(());
        };
        // the keys, computed once per item into an array, then sorted with
        // the items
        let (f, ft, key_repr) = self.key_function(&key, item)?;
        let lt = self.item_function("hl_lt", &key_repr)?;
        let n = self.emit(
            LlOp::Getfield,
            vec![l.0.clone(), name(self.py, "length")],
            SIGNED,
        );
        let arr = LlType::array(key_repr.lowleveltype(self.rt), true)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let ap = LlType::ptr(arr).map_err(|e| RTypeError::new(e.to_string()))?;
        let keys = self.emit(LlOp::MallocVarsize, vec![type_const(self.py, arr)?, n], ap);
        self.call_list_helper(
            "ll_sort_keyed",
            vec![
                l,
                (keys, SomeValue::Ptr(ap)),
                (f, SomeValue::Ptr(ft)),
                lt,
                reverse,
            ],
        )?;
        Ok(())
    }

    /// Tuple `h` used as a tuple (its items read): when the annotator
    /// says it may be None, a check raising TypeError if it is.
    pub(super) fn tuple_input(&mut self, h: &Hlvalue, tr: &Repr) -> Result<Hlvalue, RTypeError> {
        let t = self.input(h, tr)?;
        if !matches!(self.s(h), SomeValue::TupleOrNone(_)) {
            return Ok(t);
        }
        let pt = tr.lowleveltype(self.rt);
        let (v, _) = self.call_helper_in(
            super::builtins::RBUILTIN,
            "ll_check_not_none",
            vec![(t, SomeValue::Ptr(pt))],
        )?;
        Ok(v)
    }

    /// `tuple[i]` with a variable index (the annotator checked that the
    /// items unite): the items as a list of the result's repr, indexed
    /// like a list (IndexError when out of range).
    pub(super) fn tuple_getitem_var(
        &mut self,
        op: &SpaceOperation,
        _tr: &Repr,
    ) -> Result<(), RTypeError> {
        let item = self.result_repr(op)?;
        self.rt
            .list_items
            .borrow_mut()
            .entry(item.clone())
            .or_insert_with(|| self.s(&Hlvalue::Variable(op.result)));
        let l = self.iterable_as_list(&op.args[0], &item)?;
        let lr = Repr::list_of(item.clone());
        let args = vec![
            (l, SomeValue::Ptr(lr.lowleveltype(self.rt))),
            self.int_arg(&op.args[1])?,
        ];
        let (v, _) = self.call_list_helper("ll_getitem", args)?;
        self.finish(op.result, v);
        Ok(())
    }

    /// A list of items of repr `item` with the items of iterable `h` (the
    /// list itself when it is one).
    pub(super) fn iterable_as_list(
        &mut self,
        h: &Hlvalue,
        item: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let lr = Repr::list_of(item.clone());
        let r = self.repr_of(h)?;
        match &r {
            Repr::List(i, _) if **i == *item => self.input(h, &lr),
            Repr::Dict(..) | Repr::Set(_) => self.dict_keys_list(h, &r, &lr),
            Repr::Generator(_)
            | Repr::GeneratorSet(_)
            | Repr::ListIter(..)
            | Repr::StrIter
            | Repr::RangeIter
            | Repr::DictIter(..)
            | Repr::EnumIter(_)
            | Repr::ZipIter(_) => {
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let l = self.new_list_of_length(item, zero)?;
                let la = (l.clone(), SomeValue::Ptr(lr.lowleveltype(self.rt)));
                self.extend_from_iterator(la, h, &r)?;
                Ok(l)
            }
            Repr::List(..) | Repr::Range | Repr::Str | Repr::Tuple(_) => {
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let l = self.new_list_of_length(item, zero)?;
                self.extend_from(l.clone(), &lr, h, &r)?;
                Ok(l)
            }
            Repr::Bytes if matches!(item, Repr::Int(IntKind::Signed)) => {
                // the byte values
                let b = self.input(h, &r)?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let l = self.new_list_of_length(item, zero)?;
                let bt = Repr::Bytes.lowleveltype(self.rt);
                self.call_list_helper(
                    "ll_extend_bytes",
                    vec![
                        (l.clone(), SomeValue::Ptr(lr.lowleveltype(self.rt))),
                        (b, SomeValue::Ptr(bt)),
                    ],
                )?;
                Ok(l)
            }
            other => Err(RTypeError::unsupported(&format!(
                "a list made from {other:?}"
            ))),
        }
    }

    /// Appends the items of `h` (of repr `r`) to list `l` (of repr `lr`).
    fn extend_from(
        &mut self,
        l: Hlvalue,
        lr: &Repr,
        h: &Hlvalue,
        r: &Repr,
    ) -> Result<(), RTypeError> {
        let Repr::List(item, _) = lr else {
            return Err(RTypeError::new("extending a non-list"));
        };
        let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
        match r {
            Repr::Range => {
                let x = self.input(h, r)?;
                let mut args = vec![la];
                for f in ["start", "stop", "step"] {
                    let v = self.emit(LlOp::Getfield, vec![x.clone(), name(self.py, f)], SIGNED);
                    args.push((v, SomeValue::int()));
                }
                if **item != Repr::Int(IntKind::Signed) {
                    return Err(RTypeError::unsupported(&format!(
                        "a list of {item:?} made from a range"
                    )));
                }
                self.call_list_helper("ll_extend_range", args)?;
            }
            Repr::Str => {
                let s = self.input(h, r)?;
                let st = r.lowleveltype(self.rt);
                let helper = match **item {
                    Repr::UniChar => "ll_extend_chars",
                    Repr::Str => "ll_extend_strs",
                    _ => {
                        return Err(RTypeError::unsupported(&format!(
                            "a list of {item:?} made from a str"
                        )))
                    }
                };
                self.call_list_helper(helper, vec![la, (s, SomeValue::Ptr(st))])?;
            }
            // a list never given an item (see `convert`) adds nothing
            Repr::List(other, _) if **other == Repr::Void => {}
            Repr::List(other, _) => {
                // items of another repr, converted one by one
                let src = self.input(h, r)?;
                let n = self.emit(
                    LlOp::Getfield,
                    vec![src.clone(), name(self.py, "length")],
                    SIGNED,
                );
                if **other == **item {
                    self.call_list_helper(
                        "ll_extend",
                        vec![la, (src, SomeValue::Ptr(r.lowleveltype(self.rt)))],
                    )?;
                    let _ = n;
                } else if **other == Repr::UniChar && **item == Repr::Str {
                    // one-character strs among longer ones
                    self.call_list_helper(
                        "ll_extend_chars_as_strs",
                        vec![la, (src, SomeValue::Ptr(r.lowleveltype(self.rt)))],
                    )?;
                } else {
                    return Err(RTypeError::unsupported(&format!(
                        "extending a list of {item:?} with a list of {other:?}"
                    )));
                }
            }
            Repr::Tuple(items) => {
                let t = self.tuple_input(h, r)?;
                let s_items = match self.s(h) {
                    SomeValue::Tuple(s) => s,
                    _ => Vec::new(),
                };
                for (i, ir) in items.iter().enumerate() {
                    let v = match s_items.get(i) {
                        // an item known from its annotation alone (a class,
                        // a function): its constant in the list's repr
                        Some(s) if *ir == Repr::Void && **item != Repr::Void => {
                            super::constant_of(self.rt, self.py, s, item)?
                        }
                        _ => {
                            let v = self.emit(
                                LlOp::Getfield,
                                vec![t.clone(), name(self.py, &format!("item{i}"))],
                                ir.lowleveltype(self.rt),
                            );
                            match s_items.get(i) {
                                Some(s) => self.convert_known(v, s, ir, item)?,
                                None => self.convert(v, ir, item)?,
                            }
                        }
                    };
                    let anno = self.ll_annotation_of(item)?;
                    self.call_list_helper("ll_append", vec![la.clone(), (v, anno)])?;
                }
            }
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "extending a list with {other:?}"
                )))
            }
        }
        Ok(())
    }

    /// Builtins on lists: `list(x)`, `sorted(x)`, `reversed(lst)`; None
    /// when `builtin` is not one of them for these arguments.
    pub(super) fn list_builtin(
        &mut self,
        builtin: &str,
        args: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<Option<Hlvalue>, RTypeError> {
        match (builtin, want) {
            ("deque_bounded", Repr::List(item, _)) => {
                // the items, then only the last `maxlen` kept
                let item = (**item).clone();
                let l = self.iterable_as_list(&args[0], &item)?;
                let l = if self.repr_of(&args[0])? == *want {
                    let la = (l, SomeValue::Ptr(want.lowleveltype(self.rt)));
                    self.call_list_helper("ll_copy", vec![la])?.0
                } else {
                    l
                };
                let n: i64 = match &args[1] {
                    Hlvalue::Constant(c) => c.value.bind(self.py).extract().unwrap_or(0),
                    Hlvalue::Variable(v) => self
                        .rt
                        .ann
                        .binding(self.g, *v)
                        .konst()
                        .and_then(|k| k.bind(self.py).extract().ok())
                        .unwrap_or(0),
                };
                let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                let nc = self.const_int_arg(n)?;
                self.call_list_helper("ll_trim_left", vec![la, nc])?;
                Ok(Some(l))
            }
            ("list" | "deque", Repr::List(item, kind)) => {
                let item = (**item).clone();
                if args.is_empty() {
                    let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                    return Ok(Some(self.new_seq_of_length(&item, *kind, zero)?));
                }
                let r = self.repr_of(&args[0])?;
                let v = if r == *want {
                    let l = self.list_arg(&args[0], want)?;
                    self.call_list_helper("ll_copy", vec![l])?.0
                } else {
                    // (tuple(x) of any other iterable: its items, copied)
                    let l = self.iterable_as_list(&args[0], &item)?;
                    self.convert_seq(l, &item, *kind)?
                };
                Ok(Some(v))
            }
            ("sorted", Repr::List(item, _)) => {
                let item = (**item).clone();
                let r = self.repr_of(&args[0])?;
                let l = if r == *want {
                    let l = self.list_arg(&args[0], want)?;
                    self.call_list_helper("ll_copy", vec![l])?.0
                } else {
                    self.iterable_as_list(&args[0], &item)?
                };
                let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                self.sort_list(la, &item, keywords)?;
                Ok(Some(l))
            }
            ("bytearray", Repr::List(item, _)) => {
                let item = (**item).clone();
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let Some(arg) = args.first() else {
                    return Ok(Some(self.new_list_of_length(&item, zero)?));
                };
                let r = self.repr_of(arg)?;
                let rb = super::builtins::RBUILTIN;
                let v = match r {
                    Repr::Int(_) | Repr::Bool => {
                        let n = self.int_arg(arg)?;
                        self.raising_at = Some(self.ops.len());
                        let (n, _) = self.call_helper_in(rb, "ll_check_size", vec![n])?;
                        self.new_list_of_length(&item, n)?
                    }
                    Repr::Bytes => self.iterable_as_list(arg, &item)?,
                    _ => {
                        let l = if r == *want {
                            let l = self.list_arg(arg, want)?;
                            self.call_list_helper("ll_copy", vec![l])?.0
                        } else {
                            self.iterable_as_list(arg, &item)?
                        };
                        let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                        self.call_list_helper("ll_check_bytes_list", vec![la])?;
                        l
                    }
                };
                Ok(Some(v))
            }
            ("bytes", Repr::Bytes) => {
                let bt = Repr::Bytes.lowleveltype(self.rt);
                let Some(arg) = args.first() else {
                    let p = self.rt.prebuilt_bytes(b"")?;
                    return Ok(Some(value_const(self.py, LlValue::Ptr(Some(p)), bt)?));
                };
                let r = self.repr_of(arg)?;
                let v = match r {
                    Repr::Bytes => self.input(arg, &r)?,
                    Repr::Int(_) | Repr::Bool => {
                        let n = self.int_arg(arg)?;
                        self.call_list_helper("ll_bytes_zeros", vec![n])?.0
                    }
                    Repr::Str | Repr::UniChar => {
                        return Err(RTypeError::unsupported("bytes() of a str (use encode())"))
                    }
                    _ => {
                        let int = Repr::Int(rpy3_annotator::model::IntKind::Signed);
                        let l = self.iterable_as_list(arg, &int)?;
                        let lt = Repr::list_of(int).lowleveltype(self.rt);
                        self.call_list_helper("ll_bytes_from_list", vec![(l, SomeValue::Ptr(lt))])?
                            .0
                    }
                };
                Ok(Some(v))
            }
            ("reversed", Repr::ListIter(item, true, kind)) => {
                let lr = Repr::List(item.clone(), *kind);
                let l = if matches!(self.repr_of(&args[0])?, Repr::List(..)) {
                    self.input(&args[0], &lr)?
                } else {
                    // a tuple or a dict: a list of its items
                    self.iterable_as_list(&args[0], item)?
                };
                Ok(Some(self.new_list_iter(item, *kind, l, true)?))
            }
            ("iter", Repr::ListIter(item, false, kind)) => {
                let lr = Repr::List(item.clone(), *kind);
                let l = self.input(&args[0], &lr)?;
                Ok(Some(self.new_list_iter(item, *kind, l, false)?))
            }
            _ => Ok(None),
        }
    }

    /// `s.split(...)`, `s.rsplit(...)`, `s.join(lst)`.
    pub(super) fn str_list_method(
        &mut self,
        method: &str,
        me: Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
        sp: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let st = sp.lowleveltype(self.rt);
        let s = (me, SomeValue::Ptr(st));
        if method == "join" {
            let [lst] = args else {
                return Err(RTypeError::new("str.join() takes one argument"));
            };
            // any iterable of strings or characters, as a list
            let lr = self.aggregate_list(lst)?;
            if matches!(&lr, Repr::List(item, _) if **item == Repr::Void) {
                // items known from their annotation alone (a tuple of
                // constants, or of nothing): a list of their strings
                let l = self.iterable_as_list(lst, sp)?;
                let lt = Repr::list_of(sp.clone()).lowleveltype(self.rt);
                let (v, _) = self.call_list_helper("ll_join", vec![s, (l, SomeValue::Ptr(lt))])?;
                return self.convert(v, sp, want);
            }
            let helper = match &lr {
                Repr::List(item, _) if **item == *sp => "ll_join",
                Repr::List(item, _) if **item == Repr::UniChar => "ll_join_chars",
                other => return Err(RTypeError::unsupported(&format!("str.join() of {other:?}"))),
            };
            let l = self.list_of(lst, &lr)?;
            let (v, _) = self.call_list_helper(helper, vec![s, l])?;
            return self.convert(v, sp, want);
        }
        let Repr::List(item, _) = want else {
            return Err(RTypeError::new(format!(
                "str.{method}() without a list result"
            )));
        };
        if **item != *sp {
            return Err(RTypeError::new(format!("str.{method}() giving {want:?}")));
        }
        if method == "splitlines" {
            let keepends = match args {
                [] => value_const(self.py, LlValue::Bool(false), rpy3_model::lltype::BOOL)?,
                [k] => self.input(k, &Repr::Bool)?,
                _ => return Err(RTypeError::new("str.splitlines() takes at most 1 argument")),
            };
            let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
            let l = self.new_list_of_length(item, zero)?;
            let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
            let helper = if *sp == Repr::Bytes {
                "ll_bytes_splitlines"
            } else {
                "ll_splitlines"
            };
            self.call_list_helper(helper, vec![la, s, (keepends, SomeValue::bool())])?;
            return Ok(l);
        }
        if args.len() > 2 {
            return Err(RTypeError::new(format!(
                "str.{method}() takes at most 2 arguments"
            )));
        }
        let sep = match args.first() {
            Some(a) if !matches!(self.s(a), SomeValue::None_) => self.input(a, sp)?,
            _ => value_const(self.py, LlValue::Ptr(None), st)?,
        };
        let maxsplit = match args.get(1) {
            Some(a) => self.int_arg(a)?,
            None => self.const_int_arg(-1)?,
        };
        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
        let l = self.new_list_of_length(item, zero)?;
        let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
        let helper = match (method, sp) {
            ("split", Repr::Bytes) => "ll_bytes_split",
            ("split", _) => "ll_split",
            (_, Repr::Bytes) => "ll_bytes_rsplit",
            _ => "ll_rsplit",
        };
        self.call_list_helper(helper, vec![la, s, (sep, SomeValue::Ptr(st)), maxsplit])?;
        Ok(l)
    }
}
