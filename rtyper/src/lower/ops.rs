//! Arithmetic, comparisons and identity.

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, BOOL, FLOAT, SIGNED, UNSIGNED};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::{int_op, is_ovfchecked, name, Cx};
use crate::helpers::value_const;
use crate::repr::{Repr, SeqKind};
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    pub(super) fn arith(
        &mut self,
        op: &SpaceOperation,
        next: Option<&SpaceOperation>,
    ) -> Result<(), RTypeError> {
        use rpy3_model::OpName as H;
        let r = self.result_repr(op)?;
        let base = match op.opname {
            H::InplaceAdd => H::Add,
            H::InplaceSub => H::Sub,
            H::InplaceMul => H::Mul,
            H::InplaceFloordiv => H::Floordiv,
            H::InplaceMod => H::Mod,
            H::InplaceTruediv => H::Truediv,
            H::InplacePow => H::Pow,
            H::InplaceLshift => H::Lshift,
            H::InplaceRshift => H::Rshift,
            H::InplaceAnd => H::And_,
            H::InplaceOr => H::Or_,
            H::InplaceXor => H::Xor,
            H::AddOvf => H::Add,
            H::SubOvf => H::Sub,
            H::MulOvf => H::Mul,
            H::FloordivOvf => H::Floordiv,
            H::ModOvf => H::Mod,
            H::LshiftOvf => H::Lshift,
            o => o,
        };
        let t = r.lowleveltype(self.rt);
        let ovf = is_ovfchecked(op, next)
            || matches!(
                op.opname,
                H::AddOvf | H::SubOvf | H::MulOvf | H::FloordivOvf | H::ModOvf | H::LshiftOvf
            )
            // a program's int arithmetic whose result is not only masked:
            // OverflowError where CPython's int would grow
            || (r == Repr::Int(IntKind::Signed)
                && matches!(base, H::Add | H::Sub | H::Mul | H::Lshift)
                && self.wrapping.as_ref().is_some_and(|w| !w.contains(&op.result)));
        match &r {
            Repr::Int(k) => {
                let shift = matches!(base, H::Lshift | H::Rshift);
                let a = self.input(&op.args[0], &r)?;
                let b = if shift {
                    self.input(&op.args[1], &Repr::Int(IntKind::Signed))?
                } else {
                    self.input(&op.args[1], &r)?
                };
                let u = k.unsigned();
                let llop = match (base, u, ovf) {
                    (H::Add, false, true) => LlOp::IntAddOvf,
                    (H::Sub, false, true) => LlOp::IntSubOvf,
                    (H::Mul, false, true) => LlOp::IntMulOvf,
                    (H::Floordiv, false, true) => LlOp::IntFloordivOvf,
                    (H::Mod, false, true) => LlOp::IntModOvf,
                    (H::Lshift, false, true) => LlOp::IntLshiftOvf,
                    (H::Add, _, _) => int_op(*k, LlOp::IntAdd, LlOp::UintAdd),
                    (H::Sub, _, _) => int_op(*k, LlOp::IntSub, LlOp::UintSub),
                    (H::Mul, _, _) => int_op(*k, LlOp::IntMul, LlOp::UintMul),
                    (H::Floordiv, _, _) => int_op(*k, LlOp::IntFloordiv, LlOp::UintFloordiv),
                    (H::Mod, _, _) => int_op(*k, LlOp::IntMod, LlOp::UintMod),
                    (H::And_, _, _) => int_op(*k, LlOp::IntAnd, LlOp::UintAnd),
                    (H::Or_, _, _) => int_op(*k, LlOp::IntOr, LlOp::UintOr),
                    (H::Xor, _, _) => int_op(*k, LlOp::IntXor, LlOp::UintXor),
                    (H::Lshift, _, _) => int_op(*k, LlOp::IntLshift, LlOp::UintLshift),
                    (H::Rshift, _, _) => int_op(*k, LlOp::IntRshift, LlOp::UintRshift),
                    (H::Pow, false, _) => LlOp::IntPow,
                    _ => return Err(RTypeError::unsupported(&format!("{} on {r:?}", op.opname))),
                };
                if !u && matches!(base, H::Floordiv | H::Mod) {
                    let which = if base == H::Mod { 2 } else { 0 };
                    self.check_divisor(&op.args[1], b.clone(), false, which)?;
                }
                let v = self.emit(llop, vec![a, b], t);
                self.finish(op.result, v);
            }
            Repr::Float
                if base == H::Truediv
                    && [&op.args[0], &op.args[1]].iter().all(|h| {
                        matches!(self.repr_of(h), Ok(Repr::Int(IntKind::Signed) | Repr::Bool))
                    }) =>
            {
                let ir = Repr::Int(IntKind::Signed);
                let a = self.input(&op.args[0], &ir)?;
                let b = self.input(&op.args[1], &ir)?;
                self.check_divisor(&op.args[1], b.clone(), false, 1)?;
                let v = self.emit(LlOp::IntTruediv, vec![a, b], t);
                self.finish(op.result, v);
            }
            Repr::Float => {
                let a = self.input(&op.args[0], &r)?;
                let b = self.input(&op.args[1], &r)?;
                let llop = match base {
                    H::Add => LlOp::FloatAdd,
                    H::Sub => LlOp::FloatSub,
                    H::Mul => LlOp::FloatMul,
                    H::Truediv => LlOp::FloatTruediv,
                    H::Floordiv => LlOp::FloatFloordiv,
                    H::Mod => LlOp::FloatMod,
                    H::Pow => LlOp::FloatPow,
                    _ => return Err(RTypeError::unsupported(&format!("{} on floats", op.opname))),
                };
                match base {
                    H::Truediv => self.check_divisor(&op.args[1], b.clone(), true, 0)?,
                    H::Floordiv => self.check_divisor(&op.args[1], b.clone(), true, 1)?,
                    H::Mod => self.check_divisor(&op.args[1], b.clone(), true, 2)?,
                    _ => {}
                }
                let v = self.emit(llop, vec![a, b], t);
                self.finish(op.result, v);
            }
            Repr::Number => self.number_arith(op, base)?,
            Repr::Bool => {
                let ir = Repr::Int(IntKind::Signed);
                let a = self.input(&op.args[0], &ir)?;
                let b = self.input(&op.args[1], &ir)?;
                let llop = match base {
                    H::And_ => LlOp::IntAnd,
                    H::Or_ => LlOp::IntOr,
                    H::Xor => LlOp::IntXor,
                    _ => return Err(RTypeError::unsupported(&format!("{} on bools", op.opname))),
                };
                let v = self.emit(llop, vec![a, b], SIGNED);
                let v = self.emit(LlOp::IntIsTrue, vec![v], BOOL);
                self.finish(op.result, v);
            }
            Repr::Tuple(items) if base == H::Add => {
                let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
                let (Repr::Tuple(ia), Repr::Tuple(ib)) = (ra.clone(), rb.clone()) else {
                    return Err(RTypeError::unsupported("adding these values"));
                };
                let a = self.input(&op.args[0], &ra)?;
                let b = self.input(&op.args[1], &rb)?;
                let mut vals = Vec::new();
                for (src, its) in [(a, ia), (b, ib)] {
                    for (i, ir) in its.iter().enumerate() {
                        let v = self.emit(
                            LlOp::Getfield,
                            vec![src.clone(), name(self.py, &format!("item{i}"))],
                            ir.lowleveltype(self.rt),
                        );
                        let want = items[vals.len()].clone();
                        vals.push(self.convert(v, ir, &want)?);
                    }
                }
                let tup = self.new_tuple(items, vals)?;
                self.finish(op.result, tup);
            }
            Repr::Tuple(items) if base == H::Mul => {
                // a tuple times a constant (the annotator knew the length):
                // the tuple's items repeated
                let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
                let (t, tr) = match (&ra, &rb) {
                    (Repr::Tuple(_), _) => (&op.args[0], ra.clone()),
                    (_, Repr::Tuple(_)) => (&op.args[1], rb.clone()),
                    _ => return Err(RTypeError::unsupported("multiplying these values")),
                };
                let Repr::Tuple(src) = tr.clone() else {
                    unreachable!("a tuple")
                };
                let x = self.input(t, &tr)?;
                let mut vals = Vec::new();
                if !src.is_empty() {
                    for k in 0..items.len() {
                        let i = k % src.len();
                        let v = self.emit(
                            LlOp::Getfield,
                            vec![x.clone(), name(self.py, &format!("item{i}"))],
                            src[i].lowleveltype(self.rt),
                        );
                        vals.push(self.convert(v, &src[i], &items[k])?);
                    }
                }
                let tup = self.new_tuple(items, vals)?;
                self.finish(op.result, tup);
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "{} giving {r:?} (strings and containers are the containers issue)",
                    op.opname
                )))
            }
        }
        Ok(())
    }

    /// `divmod(a, b)`: one call of a helper computing both results.
    pub(super) fn divmod(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let v = self.divmod_values(&op.args[0], &op.args[1], op)?;
        self.finish(op.result, v);
        Ok(())
    }

    pub(super) fn divmod_values(
        &mut self,
        a: &Hlvalue,
        b: &Hlvalue,
        op: &SpaceOperation,
    ) -> Result<Hlvalue, RTypeError> {
        let r = self.result_repr(op)?;
        let Repr::Tuple(items) = r.clone() else {
            return Err(RTypeError::unsupported("divmod of these values"));
        };
        if items.len() != 2 || items[0].lowleveltype(self.rt) != items[1].lowleveltype(self.rt) {
            return Err(RTypeError::unsupported("divmod of these values"));
        }
        let helper = self.rt.helper_divmod(self.py, &items[0])?;
        let x = self.input(a, &items[0])?;
        let y = self.input(b, &items[0])?;
        let f = self.func_const(helper)?;
        let t = r.lowleveltype(self.rt);
        Ok(self.emit(LlOp::DirectCall, vec![f, x, y], t))
    }

    /// `n OP f` for an int `n` and a float `f`, compared exactly (CPython
    /// does not round the int): the float comparison of `float(n)` and
    /// `f`, corrected by the tie-break helper when `float(n) == f`.
    fn compare_int_float(
        &mut self,
        op: &SpaceOperation,
        swapped: bool,
    ) -> Result<Hlvalue, RTypeError> {
        use rpy3_model::OpName as H;
        let (ih, fh) = if swapped {
            (&op.args[1], &op.args[0])
        } else {
            (&op.args[0], &op.args[1])
        };
        let n = self.input(ih, &Repr::Int(IntKind::Signed))?;
        let f = self.input(fh, &Repr::Float)?;
        // the operation as `n OP f`
        let o = match (op.opname, swapped) {
            (H::Lt, true) => H::Gt,
            (H::Gt, true) => H::Lt,
            (H::Le, true) => H::Ge,
            (H::Ge, true) => H::Le,
            (o, _) => o,
        };
        let (fop, iop, both) = match o {
            H::Lt => (LlOp::FloatLt, LlOp::IntLt, false),
            H::Le => (LlOp::FloatLe, LlOp::IntLe, true),
            H::Eq => (LlOp::FloatEq, LlOp::IntEq, true),
            H::Ne => (LlOp::FloatNe, LlOp::IntNe, false),
            H::Gt => (LlOp::FloatGt, LlOp::IntGt, false),
            _ => (LlOp::FloatGe, LlOp::IntGe, true),
        };
        let fnv = self.emit(LlOp::CastIntToFloat, vec![n.clone()], FLOAT);
        let helper = self.rt.helper_int_float_tiebreak(self.py)?;
        let hc = self.func_const(helper)?;
        let tb = self.emit(LlOp::DirectCall, vec![hc, n, f.clone()], SIGNED);
        let c1 = self.emit(fop, vec![fnv, f], BOOL);
        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
        let c2 = self.emit(iop, vec![tb, zero], BOOL);
        let c1 = self.emit(LlOp::CastBoolToInt, vec![c1], SIGNED);
        let c2 = self.emit(LlOp::CastBoolToInt, vec![c2], SIGNED);
        let c = self.emit(
            if both { LlOp::IntAnd } else { LlOp::IntOr },
            vec![c1, c2],
            SIGNED,
        );
        Ok(self.emit(LlOp::IntIsTrue, vec![c], BOOL))
    }

    /// Whether `h` is an int constant a float holds exactly.
    fn small_int_constant(&self, h: &Hlvalue) -> bool {
        let k = match h {
            Hlvalue::Constant(c) => Some(c.value.clone()),
            Hlvalue::Variable(v) => self.rt.ann.binding(self.g, *v).konst().cloned(),
        };
        k.and_then(|k| k.bind(self.py).extract::<i64>().ok())
            .map(|i| i.unsigned_abs() <= 1 << 53)
            .unwrap_or(false)
    }

    /// `len(x)` of a range or a tuple.
    pub(super) fn len_(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let r = self.repr_of(&op.args[0])?;
        let v = match &r {
            Repr::Range => {
                let helper = self.rt.helper_range_len(self.py)?;
                let f = self.func_const(helper)?;
                let x = self.input(&op.args[0], &r)?;
                self.emit(LlOp::DirectCall, vec![f, x], SIGNED)
            }
            Repr::Tuple(items) => {
                self.tuple_input(&op.args[0], &r)?;
                value_const(self.py, LlValue::Int(items.len() as i64), SIGNED)?
            }
            _ => {
                return Err(RTypeError::unsupported(
                    "len() of containers (the containers issue)",
                ))
            }
        };
        let want = self.result_repr(op)?;
        let v = self.convert(v, &Repr::Int(IntKind::Signed), &want)?;
        self.finish(op.result, v);
        Ok(())
    }

    /// The truth value of a range list: it is not empty.
    pub(super) fn range_is_true(&mut self, x: Hlvalue) -> Result<Hlvalue, RTypeError> {
        let helper = self.rt.helper_range_ulen(self.py)?;
        let f = self.func_const(helper)?;
        let n = self.emit(LlOp::DirectCall, vec![f, x], UNSIGNED);
        Ok(self.emit(LlOp::UintIsTrue, vec![n], BOOL))
    }

    /// `r[i]` of a range list, raising IndexError out of bounds.
    pub(super) fn range_getitem(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let konst = match &op.args[1] {
            Hlvalue::Constant(c) => Some(c.value.clone()),
            Hlvalue::Variable(_) => self.s(&op.args[1]).konst().cloned(),
        };
        if let Some(k) = konst.filter(|k| k.bind(self.py).is_instance_of::<pyo3::types::PySlice>()) {
            return self.range_slice(op, &k);
        }
        let ri = self.repr_of(&op.args[1])?;
        if !matches!(ri, Repr::Int(_) | Repr::Bool) {
            return Err(RTypeError::unsupported(
                "indexing a range with a non-integer (slices: the containers issue)",
            ));
        }
        let helper = self.rt.helper_range_item(self.py)?;
        let f = self.func_const(helper)?;
        let r = self.input(&op.args[0], &Repr::Range)?;
        let i = self.input(&op.args[1], &Repr::Int(IntKind::Signed))?;
        let v = self.emit(LlOp::DirectCall, vec![f, r, i], SIGNED);
        let want = self.result_repr(op)?;
        let v = self.convert(v, &Repr::Int(IntKind::Signed), &want)?;
        self.finish(op.result, v);
        Ok(())
    }

    /// `r[a:b:c]` of a range with a constant slice: the range of the items
    /// it picks (`rpy3.lltypesystem.rbuiltin.ll_range_slice`).
    fn range_slice(&mut self, op: &SpaceOperation, k: &rpy3_model::PyObj) -> Result<(), RTypeError> {
        let s = k.bind(self.py);
        let mut flags = 0;
        let mut parts = Vec::new();
        for (bit, attr) in [(1, "start"), (2, "stop"), (4, "step")] {
            let v = s.getattr(attr).map_err(|e| RTypeError::new(e.to_string()))?;
            let n = if v.is_none() {
                0
            } else {
                flags |= bit;
                v.extract::<i64>()
                    .map_err(|_| RTypeError::unsupported("a range slice of a non-integer"))?
            };
            parts.push(value_const(self.py, LlValue::Int(n), SIGNED)?);
        }
        let r = self.input(&op.args[0], &Repr::Range)?;
        let mut fields = Vec::new();
        for f in ["start", "stop", "step"] {
            fields.push(self.emit(LlOp::Getfield, vec![r.clone(), name(self.py, f)], SIGNED));
        }
        let fc = value_const(self.py, LlValue::Int(flags), SIGNED)?;
        let (range_struct, pr, _, _) = self.rt.range_types();
        let tc = crate::helpers::type_const(self.py, range_struct)?;
        let p = self.emit(LlOp::Malloc, vec![tc], pr);
        for (which, f) in ["start", "stop", "step"].iter().enumerate() {
            let wc = value_const(self.py, LlValue::Int(which as i64), SIGNED)?;
            let mut args: Vec<(Hlvalue, SomeValue)> =
                fields.iter().map(|v| (v.clone(), SomeValue::int())).collect();
            args.extend(parts.iter().map(|v| (v.clone(), SomeValue::int())));
            args.push((fc.clone(), SomeValue::int()));
            args.push((wc, SomeValue::int()));
            let (v, _) = self.call_helper_in(super::builtins::RBUILTIN, "ll_range_slice", args)?;
            self.emit(LlOp::Setfield, vec![p.clone(), name(self.py, f), v], rpy3_model::lltype::VOID);
        }
        let want = self.result_repr(op)?;
        let v = self.convert(p, &Repr::Range, &want)?;
        self.finish(op.result, v);
        Ok(())
    }

    /// `item in container` (the operation's arguments: container, item).
    pub(super) fn contains(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let r = self.repr_of(&op.args[0])?;
        let v = match &r {
            Repr::Range => {
                let helper = self.rt.helper_range_contains(self.py)?;
                let f = self.func_const(helper)?;
                let c = self.input(&op.args[0], &r)?;
                let x = self.input(&op.args[1], &Repr::Int(IntKind::Signed))?;
                self.emit(LlOp::DirectCall, vec![f, c, x], BOOL)
            }
            Repr::Tuple(items) => {
                let c = self.tuple_input(&op.args[0], &r)?;
                let rx = self.repr_of(&op.args[1])?;
                let x = self.input(&op.args[1], &rx)?;
                let mut acc: Option<Hlvalue> = None;
                for (i, ir) in items.iter().enumerate() {
                    let it = self.emit(
                        LlOp::Getfield,
                        vec![c.clone(), name(self.py, &format!("item{i}"))],
                        ir.lowleveltype(self.rt),
                    );
                    let e = self.compare_values(2, x.clone(), &rx, it, ir)?;
                    acc = Some(match acc {
                        None => e,
                        Some(p) => self.bool_combine(LlOp::IntOr, p, e),
                    });
                }
                match acc {
                    Some(v) => v,
                    None => value_const(self.py, LlValue::Bool(false), BOOL)?,
                }
            }
            _ => {
                return Err(RTypeError::unsupported(
                    "'in' on containers (the containers issue)",
                ))
            }
        };
        self.finish(op.result, v);
        Ok(())
    }

    fn bool_combine(&mut self, op: LlOp, a: Hlvalue, b: Hlvalue) -> Hlvalue {
        let x = self.emit(LlOp::CastBoolToInt, vec![a], SIGNED);
        let y = self.emit(LlOp::CastBoolToInt, vec![b], SIGNED);
        let o = self.emit(op, vec![x, y], SIGNED);
        self.emit(LlOp::IntIsTrue, vec![o], BOOL)
    }

    /// Comparison number `i` (`<`, `<=`, `==`, `!=`, `>`, `>=`) of two
    /// low-level values.
    fn compare_values(
        &mut self,
        i: usize,
        a: Hlvalue,
        ra: &Repr,
        b: Hlvalue,
        rb: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let common = match (ra, rb) {
            (Repr::Tuple(ia), Repr::Tuple(ib)) => return self.compare_tuples(i, a, ia, b, ib),
            (Repr::Float | Repr::Number, _) | (_, Repr::Float | Repr::Number) => Repr::Float,
            (Repr::Int(x), Repr::Int(y)) if x.unsigned() || y.unsigned() => {
                Repr::Int(IntKind::Unsigned)
            }
            (Repr::Int(_) | Repr::Bool | Repr::IntBool, Repr::Int(_) | Repr::Bool | Repr::IntBool) => {
                Repr::Int(IntKind::Signed)
            }
            (Repr::UniChar, Repr::UniChar) => Repr::UniChar,
            (Repr::Char, Repr::Char) => Repr::Char,
            (Repr::Void, Repr::Void) if i == 2 || i == 3 => {
                return value_const(self.py, LlValue::Bool(i == 2), BOOL);
            }
            (Repr::Instance(_), Repr::Void) | (Repr::Void, Repr::Instance(_))
                if i == 2 || i == 3 =>
            {
                let x = if *ra == Repr::Void { b } else { a };
                return Ok(self.emit(
                    if i == 3 {
                        LlOp::PtrNonzero
                    } else {
                        LlOp::PtrIszero
                    },
                    vec![x],
                    BOOL,
                ));
            }
            (Repr::Instance(x), Repr::Instance(y))
                if (i == 2 || i == 3)
                    && !self.rt.ann.compares_specially(self.py, *x)
                    && !self.rt.ann.compares_specially(self.py, *y) =>
            {
                let (x, y) = (self.object_ptr_of(a)?, self.object_ptr_of(b)?);
                return Ok(self.emit(
                    if i == 3 { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![x, y],
                    BOOL,
                ));
            }
            (Repr::Dict(..), Repr::Dict(..)) | (Repr::Set(_), Repr::Set(_))
                if ra == rb && (i == 2 || i == 3) =>
            {
                return self.compare_by_item_functions(i, a, b, ra);
            }
            (Repr::Instance(x), Repr::Instance(y)) => {
                // ordering instances (items of tuples compared): the
                // program's own `__lt__`, through the item function
                let c = self.rt.ann.common_base(*x, *y).ok_or_else(|| {
                    RTypeError::unsupported("comparing instances of unrelated classes")
                })?;
                let r = Repr::Instance(c);
                self.rt
                    .list_items
                    .borrow_mut()
                    .entry(r.clone())
                    .or_insert(SomeValue::Instance {
                        classdef: c,
                        can_be_none: false,
                    });
                let a = self.convert(a, ra, &r)?;
                let b = self.convert(b, rb, &r)?;
                return self.compare_by_item_functions(i, a, b, &r);
            }
            // a tuple of known length and one of a length known at run
            // time only: as two of the latter
            (Repr::List(_, SeqKind::Tuple), Repr::Tuple(_))
            | (Repr::Tuple(_), Repr::List(_, SeqKind::Tuple)) => {
                let r = if matches!(ra, Repr::List(..)) { ra } else { rb };
                let a = self.convert(a, ra, r)?;
                let b = self.convert(b, rb, r)?;
                return self.compare_by_item_functions(i, a, b, r);
            }
            (Repr::Str | Repr::UniChar, Repr::Str | Repr::UniChar)
            | (Repr::Bytes, Repr::Bytes)
            | (Repr::List(..), Repr::List(..))
                if ra == rb || !matches!(ra, Repr::List(..)) =>
            {
                // strings, lists (and what they hold): through the item
                // functions, which lower `a == b` and `a < b` as the
                // program's own comparisons
                let r = if *ra == Repr::UniChar { rb } else { ra };
                let a = self.convert(a, ra, r)?;
                let b = self.convert(b, rb, r)?;
                return self.compare_by_item_functions(i, a, b, r);
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "comparing {ra:?} and {rb:?}"
                )))
            }
        };
        let a = self.convert(a, ra, &common)?;
        let b = self.convert(b, rb, &common)?;
        let table: [[LlOp; 6]; 5] = [
            [
                LlOp::IntLt,
                LlOp::IntLe,
                LlOp::IntEq,
                LlOp::IntNe,
                LlOp::IntGt,
                LlOp::IntGe,
            ],
            [
                LlOp::UintLt,
                LlOp::UintLe,
                LlOp::UintEq,
                LlOp::UintNe,
                LlOp::UintGt,
                LlOp::UintGe,
            ],
            [
                LlOp::FloatLt,
                LlOp::FloatLe,
                LlOp::FloatEq,
                LlOp::FloatNe,
                LlOp::FloatGt,
                LlOp::FloatGe,
            ],
            [
                LlOp::UnicharLt,
                LlOp::UnicharLe,
                LlOp::UnicharEq,
                LlOp::UnicharNe,
                LlOp::UnicharGt,
                LlOp::UnicharGe,
            ],
            [
                LlOp::CharLt,
                LlOp::CharLe,
                LlOp::CharEq,
                LlOp::CharNe,
                LlOp::CharGt,
                LlOp::CharGe,
            ],
        ];
        let row = match &common {
            Repr::Int(IntKind::Signed) => 0,
            Repr::Int(_) => 1,
            Repr::Float => 2,
            Repr::UniChar => 3,
            _ => 4,
        };
        Ok(self.emit(table[row][i], vec![a, b], BOOL))
    }

    /// Comparison number `i` of two values of repr `r` by `hl_eq` and
    /// `hl_lt` annotated for `r`.
    fn compare_by_item_functions(
        &mut self,
        i: usize,
        a: Hlvalue,
        b: Hlvalue,
        r: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let default = match r {
            Repr::Str => Some(SomeValue::Str {
                kind: rpy3_annotator::model::StrKind::Str,
                is_char: false,
                can_be_none: true,
                konst: None,
            }),
            Repr::Bytes => Some(SomeValue::Str {
                kind: rpy3_annotator::model::StrKind::Bytes,
                is_char: false,
                can_be_none: true,
                konst: None,
            }),
            _ => None,
        };
        if let Some(s) = default {
            self.rt
                .list_items
                .borrow_mut()
                .entry(r.clone())
                .or_insert(s);
        }
        let (which, swap, negate) = match i {
            0 => ("hl_lt", false, false),
            1 => ("hl_lt", true, true),
            2 => ("hl_eq", false, false),
            3 => ("hl_eq", false, true),
            4 => ("hl_lt", true, false),
            _ => ("hl_lt", false, true),
        };
        let (f, _) = self.item_function(which, r)?;
        let (x, y) = if swap { (b, a) } else { (a, b) };
        let v = self.emit(LlOp::DirectCall, vec![f, x, y], BOOL);
        Ok(if negate {
            self.emit(LlOp::BoolNot, vec![v], BOOL)
        } else {
            v
        })
    }

    /// Tuples compare lexicographically: the first pair of items that are
    /// not equal decides, else the lengths do.
    fn compare_tuples(
        &mut self,
        i: usize,
        a: Hlvalue,
        ia: &[Repr],
        b: Hlvalue,
        ib: &[Repr],
    ) -> Result<Hlvalue, RTypeError> {
        let n = ia.len().min(ib.len());
        let (la, lb) = (ia.len(), ib.len());
        let by_len = [la < lb, la <= lb, la == lb, la != lb, la > lb, la >= lb][i];
        if i != 2 && i != 3 {
            // the first pair of items that differ decides, and only it is
            // ordered (instances without `__lt__` raise TypeError, and the
            // program's `__lt__` is called as CPython calls it): a helper
            let f = self.tuple_order_helper(i, ia, ib, by_len)?;
            let fc = self.func_const(f)?;
            return Ok(self.emit(LlOp::DirectCall, vec![fc, a, b], BOOL));
        }
        // == and !=: every pair of items equal (and the same lengths)
        if la != lb {
            return value_const(self.py, LlValue::Bool(i == 3), BOOL);
        }
        let mut acc = value_const(self.py, LlValue::Bool(true), BOOL)?;
        for k in 0..n {
            let f = format!("item{k}");
            let x = self.emit(
                LlOp::Getfield,
                vec![a.clone(), name(self.py, &f)],
                ia[k].lowleveltype(self.rt),
            );
            let y = self.emit(
                LlOp::Getfield,
                vec![b.clone(), name(self.py, &f)],
                ib[k].lowleveltype(self.rt),
            );
            let e = self.compare_values(2, x, &ia[k], y, &ib[k])?;
            acc = if k == 0 {
                e
            } else {
                self.bool_combine(LlOp::IntAnd, acc, e)
            };
        }
        if i == 3 {
            acc = self.emit(LlOp::BoolNot, vec![acc], BOOL);
        }
        Ok(acc)
    }

    /// Before a division whose divisor `b` (the low-level value of `arg`)
    /// may be 0, when the program reads exception messages: a check
    /// raising ZeroDivisionError with CPython's message (`which` picks
    /// it, see `ll_check_int_divisor`, `ll_check_float_divisor`); the
    /// operation's own check gives none.
    fn check_divisor(
        &mut self,
        arg: &Hlvalue,
        b: Hlvalue,
        float: bool,
        which: i64,
    ) -> Result<(), RTypeError> {
        let zero = self.rt.exception_classdef("ZeroDivisionError");
        if !self.keeps_message(zero) {
            return Ok(());
        }
        let nonzero_const = match self.s(arg).konst() {
            Some(k) => k
                .bind(self.py)
                .extract::<f64>()
                .map(|x| x != 0.0)
                .unwrap_or(false),
            None => false,
        };
        if nonzero_const {
            return Ok(());
        }
        let wc = value_const(self.py, LlValue::Int(which), SIGNED)?;
        let (helper, s_b) = if float {
            ("ll_check_float_divisor", SomeValue::float())
        } else {
            ("ll_check_int_divisor", SomeValue::int())
        };
        self.call_helper_in(
            super::builtins::RBUILTIN,
            helper,
            vec![(b, s_b), (wc, SomeValue::int())],
        )?;
        Ok(())
    }

    /// Before float `f` becomes an int (`int()`, `round()`, `math.floor`),
    /// when the program reads the messages of OverflowError or ValueError:
    /// a check raising them with CPython's message for an infinity or a
    /// NaN (the conversion's own check gives none).
    pub(super) fn check_float_to_int(&mut self, f: Hlvalue) -> Result<(), RTypeError> {
        let ovf = self.rt.exception_classdef("OverflowError");
        let val = self.rt.exception_classdef("ValueError");
        if !self.keeps_message(ovf) && !self.keeps_message(val) {
            return Ok(());
        }
        self.call_helper_in(
            super::builtins::RBUILTIN,
            "ll_check_float_to_int",
            vec![(f, SomeValue::float())],
        )?;
        Ok(())
    }

    /// Before `chr(n)`, when the program reads ValueError's message: a
    /// check raising it with CPython's message for an `n` out of range.
    pub(super) fn check_chr(&mut self, n: Hlvalue) -> Result<(), RTypeError> {
        if !self.keeps_message(self.rt.exception_classdef("ValueError")) {
            return Ok(());
        }
        self.call_helper_in(super::builtins::RBUILTIN, "ll_check_chr", vec![(n, SomeValue::int())])?;
        Ok(())
    }

    /// `(a, b) -> bool`: `a OP b` for tuples of items `ia` and `ib` (`OP`
    /// the comparison numbered `i`), comparing items in order until a
    /// pair differs.
    fn tuple_order_helper(
        &mut self,
        i: usize,
        ia: &[Repr],
        ib: &[Repr],
        by_len: bool,
    ) -> Result<usize, RTypeError> {
        let key = format!("tuple_order:{i}:{ia:?}:{ib:?}");
        if let Some(&f) = self.rt.dispatchers.get(&key) {
            return Ok(f);
        }
        let py = self.py;
        let ta = Repr::Tuple(ia.to_vec()).lowleveltype(self.rt);
        let tb = Repr::Tuple(ib.to_vec()).lowleveltype(self.rt);
        let params = [ta, tb];
        let (mut bld, inputs) =
            crate::helpers::GraphBuilder::new(self.rt, "tuple_order", &params, BOOL);
        let n = ia.len().min(ib.len());
        let mut check = bld.graph.startblock;
        let mut cvars = inputs.clone();
        for k in 0..n {
            let f = format!("item{k}");
            let (next, nvars) = bld.block(&params);
            let (decide, dvars) = bld.block(&params);
            // check: are items k equal?
            let mut sub = Cx::new(&mut *self.rt, py, self.g, check, &mut bld.graph);
            let x = sub.emit(
                LlOp::Getfield,
                vec![Hlvalue::Variable(cvars[0]), name(py, &f)],
                ia[k].lowleveltype(sub.rt),
            );
            let y = sub.emit(
                LlOp::Getfield,
                vec![Hlvalue::Variable(cvars[1]), name(py, &f)],
                ib[k].lowleveltype(sub.rt),
            );
            let e = sub.compare_values(2, x, &ia[k], y, &ib[k])?;
            let ops = std::mem::take(&mut sub.ops);
            bld.graph.blocks[check].operations.extend(ops);
            let e = match e {
                Hlvalue::Variable(v) => v,
                c => bld.op(check, LlOp::SameAs, vec![c], BOOL),
            };
            let pass: Vec<Hlvalue> = cvars.iter().map(|&v| Hlvalue::Variable(v)).collect();
            bld.branch(py, check, e, (decide, pass.clone()), (next, pass));
            // decide: the first differing items, ordered
            let mut sub = Cx::new(&mut *self.rt, py, self.g, decide, &mut bld.graph);
            let x = sub.emit(
                LlOp::Getfield,
                vec![Hlvalue::Variable(dvars[0]), name(py, &f)],
                ia[k].lowleveltype(sub.rt),
            );
            let y = sub.emit(
                LlOp::Getfield,
                vec![Hlvalue::Variable(dvars[1]), name(py, &f)],
                ib[k].lowleveltype(sub.rt),
            );
            let o = sub.compare_values(i, x, &ia[k], y, &ib[k])?;
            let ops = std::mem::take(&mut sub.ops);
            bld.graph.blocks[decide].operations.extend(ops);
            bld.ret(decide, o);
            check = next;
            cvars = nvars;
        }
        bld.ret(check, value_const(py, LlValue::Bool(by_len), BOOL)?);
        let ty = rpy3_model::lltype::LlType::func(params.to_vec(), BOOL);
        let f = self.rt.add_helper("tuple_order", bld.graph, ty);
        self.rt.dispatchers.insert(key, f);
        Ok(f)
    }

    /// The items of tuple `v` (item reprs `have`) converted to the reprs
    /// `want`; an item of repr Void (None, or no value) becomes the
    /// constant it stands for.
    pub(super) fn tuple_items_as(
        &mut self,
        v: &Hlvalue,
        have: &[Repr],
        want: &[Repr],
    ) -> Result<Vec<Hlvalue>, RTypeError> {
        self.tuple_items_known_as(v, None, have, want)
    }

    /// [`Cx::tuple_items_as`], the tuple's item annotations `s_items`
    /// known: an item known from its annotation alone (a function, a
    /// class) becomes its constant in the wanted repr.
    pub(super) fn tuple_items_known_as(
        &mut self,
        v: &Hlvalue,
        s_items: Option<&[SomeValue]>,
        have: &[Repr],
        want: &[Repr],
    ) -> Result<Vec<Hlvalue>, RTypeError> {
        let mut vals = Vec::with_capacity(want.len());
        for (k, (h, w)) in have.iter().zip(want.iter()).enumerate() {
            let s_item = s_items.and_then(|s| s.get(k));
            let x = if *h == Repr::Void {
                match w {
                    Repr::Void => value_const(self.py, LlValue::Void, rpy3_model::lltype::VOID)?,
                    _ if s_item.is_some() => {
                        super::constant_of(self.rt, self.py, s_item.expect("checked"), w)?
                    }
                    // a Void item of a value that can be None is None
                    Repr::Instance(_)
                    | Repr::Str
                    | Repr::Bytes
                    | Repr::List(..)
                    | Repr::Dict(_, _)
                    | Repr::Set(_) => {
                        value_const(self.py, LlValue::Ptr(None), w.lowleveltype(self.rt))?
                    }
                    _ => {
                        return Err(RTypeError::new(format!(
                            "cannot convert the items {have:?} to {want:?}"
                        )))
                    }
                }
            } else {
                let x = self.emit(
                    LlOp::Getfield,
                    vec![v.clone(), name(self.py, &format!("item{k}"))],
                    h.lowleveltype(self.rt),
                );
                match s_item {
                    Some(s) => self.convert_known(x, s, h, w)?,
                    None => self.convert(x, h, w)?,
                }
            };
            vals.push(x);
        }
        Ok(vals)
    }

    /// Converts a value of annotation `s` between representations: as
    /// [`Cx::convert`], tuples also converting the items their annotation
    /// alone gives (`("inc", f1)` among `(str, function)` pairs).
    pub(super) fn convert_known(
        &mut self,
        v: Hlvalue,
        s: &SomeValue,
        have: &Repr,
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        match (have, want, s) {
            (Repr::Tuple(a), Repr::Tuple(b), SomeValue::Tuple(items))
                if a.len() == b.len() && items.len() == a.len() && a != b =>
            {
                let vals = self.tuple_items_known_as(&v, Some(items), a, b)?;
                self.new_tuple(b, vals)
            }
            _ => self.convert(v, have, want),
        }
    }

    /// Converts a tuple between item representations.
    pub(super) fn convert_tuple(
        &mut self,
        v: Hlvalue,
        have: &[Repr],
        want: &[Repr],
    ) -> Result<Hlvalue, RTypeError> {
        if have.len() != want.len() {
            return Err(RTypeError::new(format!(
                "cannot convert {have:?} to {want:?}"
            )));
        }
        let vals = self.tuple_items_as(&v, have, want)?;
        self.new_tuple(want, vals)
    }

    /// `a == b` where one side is an int, float or bool that may be None:
    /// None equals only None, values compare as values.
    fn compare_optional(
        &mut self,
        op: &SpaceOperation,
        ra: &Repr,
        rb: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let (opt, other, ro, rother) = if matches!(ra, Repr::Optional(_)) {
            (&op.args[0], &op.args[1], ra, rb)
        } else {
            (&op.args[1], &op.args[0], rb, ra)
        };
        let Repr::Optional(inner) = ro else {
            unreachable!("an optional")
        };
        let pt = ro.lowleveltype(self.rt);
        let p = self.input(opt, ro)?;
        let rb = super::builtins::RBUILTIN;
        if matches!(self.s(other), SomeValue::None_) {
            return Ok(self.emit(LlOp::PtrIszero, vec![p], BOOL));
        }
        let unsupported = || {
            RTypeError::unsupported(&format!(
                "comparing {ro:?} and {rother:?} with == (test for None first)"
            ))
        };
        match rother {
            Repr::Optional(_) if rother == ro => {
                let q = self.input(other, ro)?;
                let args = vec![(p, SomeValue::Ptr(pt)), (q, SomeValue::Ptr(pt))];
                Ok(self.call_helper_in(rb, "ll_optional_eq_optional", args)?.0)
            }
            r if r.lowleveltype(self.rt) == inner.lowleveltype(self.rt)
                || matches!((&**inner, r), (Repr::Int(_), Repr::Bool)) =>
            {
                let v = self.input(other, inner)?;
                let sv = self.ll_annotation_of(inner)?;
                let args = vec![(p, SomeValue::Ptr(pt)), (v, sv)];
                Ok(self.call_helper_in(rb, "ll_optional_eq", args)?.0)
            }
            _ => Err(unsupported()),
        }
    }

    pub(super) fn compare(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        use rpy3_model::OpName as H;
        let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
        if matches!(op.opname, H::Eq | H::Ne) && ra == Repr::Range && rb == Repr::Range {
            // ranges are equal when they give the same items
            let mut args = Vec::new();
            for h in [&op.args[0], &op.args[1]] {
                let r = self.input(h, &Repr::Range)?;
                for f in ["start", "stop", "step"] {
                    let v = self.emit(LlOp::Getfield, vec![r.clone(), name(self.py, f)], SIGNED);
                    args.push((v, SomeValue::int()));
                }
            }
            let (v, _) = self.call_helper_in(super::builtins::RBUILTIN, "ll_range_eq", args)?;
            let v = if op.opname == H::Ne {
                self.emit(LlOp::BoolNot, vec![v], BOOL)
            } else {
                v
            };
            self.finish(op.result, v);
            return Ok(());
        }
        if matches!(op.opname, H::Eq | H::Ne)
            && (matches!(ra, Repr::Optional(_)) || matches!(rb, Repr::Optional(_)))
        {
            let v = self.compare_optional(op, &ra, &rb)?;
            let v = if op.opname == H::Ne {
                self.emit(LlOp::BoolNot, vec![v], BOOL)
            } else {
                v
            };
            self.finish(op.result, v);
            return Ok(());
        }
        if (ra == Repr::Bytes && self.is_bytearray(&op.args[1]))
            || (rb == Repr::Bytes && self.is_bytearray(&op.args[0]))
        {
            // bytes and a bytearray: as two bytes
            let mut vals = Vec::new();
            for (k, r) in [&ra, &rb].into_iter().enumerate() {
                let x = self.input(&op.args[k], r)?;
                vals.push(if *r == Repr::Bytes {
                    x
                } else {
                    let lt = r.lowleveltype(self.rt);
                    self.call_list_helper("ll_bytes_from_list", vec![(x, SomeValue::Ptr(lt))])?
                        .0
                });
            }
            let i = [H::Lt, H::Le, H::Eq, H::Ne, H::Gt, H::Ge]
                .iter()
                .position(|o| *o == op.opname)
                .unwrap_or(2);
            let b = vals.pop().expect("two");
            let a = vals.pop().expect("two");
            let v = self.compare_values(i, a, &Repr::Bytes, b, &Repr::Bytes)?;
            self.finish(op.result, v);
            return Ok(());
        }
        let tuple_like = |r: &Repr| matches!(r, Repr::Tuple(_) | Repr::List(_, SeqKind::Tuple));
        if tuple_like(&ra)
            && tuple_like(&rb)
            && (matches!(ra, Repr::Tuple(_)) || matches!(rb, Repr::Tuple(_)))
        {
            let i = [H::Lt, H::Le, H::Eq, H::Ne, H::Gt, H::Ge]
                .iter()
                .position(|o| *o == op.opname)
                .unwrap_or(2);
            // a tuple of any length compares through the item functions
            // of its repr
            for (k, r) in [&ra, &rb].into_iter().enumerate() {
                if matches!(r, Repr::List(..)) {
                    let s = self.s(&op.args[k]).without_const();
                    self.rt
                        .list_items
                        .borrow_mut()
                        .entry(r.clone())
                        .or_insert(s);
                }
            }
            let may_none =
                |s: &SomeValue| matches!(s, SomeValue::TupleOrNone(_)) || s.can_be_none();
            let (na, nb) = (
                may_none(&self.s(&op.args[0])),
                may_none(&self.s(&op.args[1])),
            );
            if matches!(op.opname, H::Eq | H::Ne) && (na || nb) {
                // == with a tuple that may be None: None equals only None
                if na && nb {
                    return Err(RTypeError::unsupported(
                        "== between two tuples that may both be None",
                    ));
                }
                let a = self.input(&op.args[0], &ra)?;
                let b = self.input(&op.args[1], &rb)?;
                let (x, rx, y, ry) = if na {
                    (a, &ra, b, &rb)
                } else {
                    (b, &rb, a, &ra)
                };
                let isnull = self.emit(LlOp::PtrIszero, vec![x.clone()], BOOL);
                let xt = rx.lowleveltype(self.rt);
                let y_as_x = if rx == ry {
                    y.clone()
                } else {
                    self.convert(y.clone(), ry, rx)?
                };
                let (x2, _) = self.call_helper_in(
                    super::builtins::RBUILTIN,
                    "ll_or_other",
                    vec![(x, SomeValue::Ptr(xt)), (y_as_x, SomeValue::Ptr(xt))],
                )?;
                let eq = self.compare_values(2, x2, rx, y, ry)?;
                let notnull = self.emit(LlOp::BoolNot, vec![isnull], BOOL);
                let v = self.bool_combine(LlOp::IntAnd, notnull, eq);
                let v = if op.opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![v], BOOL)
                } else {
                    v
                };
                self.finish(op.result, v);
                return Ok(());
            }
            let (a, b) = if matches!(op.opname, H::Eq | H::Ne) {
                (self.input(&op.args[0], &ra)?, self.input(&op.args[1], &rb)?)
            } else {
                // ordering a tuple that may be None: TypeError for None
                (
                    self.tuple_input(&op.args[0], &ra)?,
                    self.tuple_input(&op.args[1], &rb)?,
                )
            };
            let v = self.compare_values(i, a, &ra, b, &rb)?;
            self.finish(op.result, v);
            return Ok(());
        }
        let signed = |r: &Repr| matches!(r, Repr::Int(IntKind::Signed) | Repr::Bool);
        let mixed = match (&ra, &rb) {
            (a, Repr::Float) if signed(a) && !self.small_int_constant(&op.args[0]) => Some(false),
            (Repr::Float, b) if signed(b) && !self.small_int_constant(&op.args[1]) => Some(true),
            _ => None,
        };
        if let Some(swapped) = mixed {
            let v = self.compare_int_float(op, swapped)?;
            self.finish(op.result, v);
            return Ok(());
        }
        let common = match (&ra, &rb) {
            (Repr::Float | Repr::Number, _) | (_, Repr::Float | Repr::Number) => Repr::Float,
            (Repr::Int(a), Repr::Int(b)) if a.unsigned() || b.unsigned() => {
                Repr::Int(IntKind::Unsigned)
            }
            (Repr::Int(_) | Repr::Bool | Repr::IntBool, Repr::Int(_) | Repr::Bool | Repr::IntBool) => {
                Repr::Int(IntKind::Signed)
            }
            (Repr::UniChar, Repr::UniChar) => Repr::UniChar,
            (Repr::Char, Repr::Char) => Repr::Char,
            (Repr::Instance(_), Repr::Instance(_))
            | (Repr::Instance(_), Repr::Void)
            | (Repr::Void, Repr::Instance(_))
            | (Repr::Class, Repr::Class | Repr::Void)
            | (Repr::Void, Repr::Class)
                if matches!(op.opname, H::Eq | H::Ne) =>
            {
                // classes (type(x) == A) and instances compare by identity
                return self.identity(op, op.opname == H::Ne);
            }
            (Repr::Instance(_), Repr::Instance(_)) => {
                // ordering instances of classes without `__lt__` & co (the
                // annotator found none): TypeError, as CPython; reached
                // only when the items before them in tuples are equal
                let which = match op.opname {
                    H::Lt => 0,
                    H::Le => 1,
                    H::Gt => 2,
                    _ => 3,
                };
                let c = value_const(self.py, LlValue::Int(which), SIGNED)?;
                self.call_helper_in(
                    super::builtins::RBUILTIN,
                    "ll_unorderable",
                    vec![(c, SomeValue::int())],
                )?;
                let f = value_const(self.py, LlValue::Bool(false), BOOL)?;
                self.finish(op.result, f);
                return Ok(());
            }
            // classes, functions and frozen objects are equal when they are
            // the same; anything compared with None is
            (Repr::Class | Repr::FuncPtr(_) | Repr::FuncSet(_) | Repr::Frozen, _)
            | (_, Repr::Class | Repr::FuncPtr(_) | Repr::FuncSet(_) | Repr::Frozen)
            | (Repr::Void, _)
            | (_, Repr::Void)
                if matches!(op.opname, H::Eq | H::Ne) =>
            {
                return self.identity(op, op.opname == H::Ne);
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "comparing {ra:?} and {rb:?}"
                )))
            }
        };
        let a = self.input(&op.args[0], &common)?;
        let b = self.input(&op.args[1], &common)?;
        let pick = |i: usize| -> LlOp {
            let table: [[LlOp; 6]; 5] = [
                [
                    LlOp::IntLt,
                    LlOp::IntLe,
                    LlOp::IntEq,
                    LlOp::IntNe,
                    LlOp::IntGt,
                    LlOp::IntGe,
                ],
                [
                    LlOp::UintLt,
                    LlOp::UintLe,
                    LlOp::UintEq,
                    LlOp::UintNe,
                    LlOp::UintGt,
                    LlOp::UintGe,
                ],
                [
                    LlOp::FloatLt,
                    LlOp::FloatLe,
                    LlOp::FloatEq,
                    LlOp::FloatNe,
                    LlOp::FloatGt,
                    LlOp::FloatGe,
                ],
                [
                    LlOp::UnicharLt,
                    LlOp::UnicharLe,
                    LlOp::UnicharEq,
                    LlOp::UnicharNe,
                    LlOp::UnicharGt,
                    LlOp::UnicharGe,
                ],
                [
                    LlOp::CharLt,
                    LlOp::CharLe,
                    LlOp::CharEq,
                    LlOp::CharNe,
                    LlOp::CharGt,
                    LlOp::CharGe,
                ],
            ];
            let row = match &common {
                Repr::Int(IntKind::Signed) => 0,
                Repr::Int(_) => 1,
                Repr::Float => 2,
                Repr::UniChar => 3,
                _ => 4,
            };
            table[row][i]
        };
        let i = match op.opname {
            H::Lt => 0,
            H::Le => 1,
            H::Eq => 2,
            H::Ne => 3,
            H::Gt => 4,
            _ => 5,
        };
        let v = self.emit(pick(i), vec![a, b], BOOL);
        self.finish(op.result, v);
        Ok(())
    }

    /// `is` / `==` on instances and None: pointer identity.
    pub(super) fn identity(&mut self, op: &SpaceOperation, negate: bool) -> Result<(), RTypeError> {
        let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
        let is_none = |cx: &Self, h: &Hlvalue| match h {
            Hlvalue::Variable(v) => matches!(
                cx.rt.ann.binding(cx.g, *v),
                rpy3_annotator::SomeValue::None_ | rpy3_annotator::SomeValue::Impossible
            ),
            Hlvalue::Constant(c) => c.value.bind(cx.py).is_none(),
        };
        let v = match (&ra, &rb) {
            // None and None (the items of lists that only hold None)
            (Repr::Void, Repr::Void)
                if is_none(self, &op.args[0]) && is_none(self, &op.args[1]) =>
            {
                value_const(self.py, LlValue::Bool(!negate), BOOL)?
            }
            (Repr::Instance(_) | Repr::Optional(_), Repr::Void)
            | (Repr::Void, Repr::Instance(_) | Repr::Optional(_)) => {
                let (h, r) = if ra == Repr::Void {
                    (&op.args[1], &rb)
                } else {
                    (&op.args[0], &ra)
                };
                let x = self.input(h, r)?;
                self.emit(
                    if negate {
                        LlOp::PtrNonzero
                    } else {
                        LlOp::PtrIszero
                    },
                    vec![x],
                    BOOL,
                )
            }
            (Repr::Frozen, _) | (_, Repr::Frozen) => {
                let a = self.input(&op.args[0], &Repr::Frozen)?;
                let b = self.input(&op.args[1], &Repr::Frozen)?;
                self.emit(
                    if negate { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![a, b],
                    BOOL,
                )
            }
            (Repr::Class, Repr::Void) | (Repr::Void, Repr::Class) => {
                // type(x) is A: the vtables
                let a = self.input(&op.args[0], &Repr::Class)?;
                let b = self.input(&op.args[1], &Repr::Class)?;
                self.emit(
                    if negate { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![a, b],
                    BOOL,
                )
            }
            (Repr::Instance(_) | Repr::Class, Repr::Instance(_) | Repr::Class) => {
                let a = self.input(&op.args[0], &ra)?;
                let b = self.input(&op.args[1], &rb)?;
                let (a, b) = if matches!(ra, Repr::Instance(_)) {
                    (self.object_ptr_of(a)?, self.object_ptr_of(b)?)
                } else {
                    (a, b)
                };
                self.emit(
                    if negate { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![a, b],
                    BOOL,
                )
            }
            // a pointer and a value known to the annotator (None, a
            // constant class or function): the constant as such a pointer
            (Repr::Void, p) | (p, Repr::Void) if is_pointer(p) => {
                let p = p.clone();
                let a = self.input(&op.args[0], &p)?;
                let b = self.input(&op.args[1], &p)?;
                self.emit(
                    if negate { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![a, b],
                    BOOL,
                )
            }
            (a, b) if a == b && is_pointer(a) => {
                let x = self.input(&op.args[0], &ra)?;
                let y = self.input(&op.args[1], &rb)?;
                self.emit(
                    if negate { LlOp::PtrNe } else { LlOp::PtrEq },
                    vec![x, y],
                    BOOL,
                )
            }
            // functions of different signatures: their indices
            (Repr::FuncSet(_), _) | (_, Repr::FuncSet(_)) => {
                let fs = if matches!(ra, Repr::FuncSet(_)) {
                    ra.clone()
                } else {
                    rb.clone()
                };
                let a = self.input(&op.args[0], &fs)?;
                let b = self.input(&op.args[1], &fs)?;
                self.emit(
                    if negate { LlOp::IntNe } else { LlOp::IntEq },
                    vec![a, b],
                    BOOL,
                )
            }
            (Repr::Int(_) | Repr::Bool | Repr::IntBool, Repr::Int(_) | Repr::Bool | Repr::IntBool) => {
                // the same value of the same kind (`1 is True` is false)
                let ir = Repr::Int(IntKind::Signed);
                let mut kinds = Vec::new();
                for (h, r) in [(&op.args[0], &ra), (&op.args[1], &rb)] {
                    kinds.push(match r {
                        Repr::IntBool => {
                            let x = self.input(h, r)?;
                            self.emit(LlOp::Getfield, vec![x, super::name(self.py, "isbool")], BOOL)
                        }
                        _ => value_const(self.py, LlValue::Bool(*r == Repr::Bool), BOOL)?,
                    });
                }
                let a = self.input(&op.args[0], &ir)?;
                let b = self.input(&op.args[1], &ir)?;
                // (a ^ b) | (ka ^ kb) == 0
                let diff = self.emit(LlOp::IntXor, vec![a, b], SIGNED);
                let kb = kinds.pop().expect("two kinds");
                let ka = kinds.pop().expect("two kinds");
                let ka = self.emit(LlOp::CastBoolToInt, vec![ka], SIGNED);
                let kb = self.emit(LlOp::CastBoolToInt, vec![kb], SIGNED);
                let kdiff = self.emit(LlOp::IntXor, vec![ka, kb], SIGNED);
                let any = self.emit(LlOp::IntOr, vec![diff, kdiff], SIGNED);
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                self.emit(if negate { LlOp::IntNe } else { LlOp::IntEq }, vec![any, zero], BOOL)
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "identity of {ra:?} and {rb:?}"
                )))
            }
        };
        self.finish(op.result, v);
        Ok(())
    }

    pub(super) fn is_(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        self.identity(op, false)
    }
}

/// Whether values of `r` are pointers compared by identity.
fn is_pointer(r: &Repr) -> bool {
    matches!(
        r,
        Repr::Instance(_)
            | Repr::Class
            | Repr::FuncPtr(_)
            | Repr::List(..)
            | Repr::Dict(_, _)
            | Repr::Set(_)
            | Repr::Str
            | Repr::Bytes
            | Repr::Generator(_)
            | Repr::GeneratorSet(_)
            | Repr::Tuple(_)
            | Repr::MethodSet(_)
    )
}
