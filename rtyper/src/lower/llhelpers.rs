//! Small low-level helper graphs the lowering of arithmetic and built-ins
//! calls: a branching select (for `min`/`max`, where floats need real
//! comparisons), `divmod` (both results from one call, so that the call is
//! the one raising operation of a `try` block), and the exact tie-break
//! of int/float comparisons.

use pyo3::prelude::*;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, FLOAT, SIGNED, UNSIGNED, VOID};
use rpy3_model::{llconst, BlockId, Hlvalue, VarId};

use crate::helpers::{type_const, GraphBuilder};
use crate::repr::Repr;
use crate::{RTypeError, RTyper};

fn var(v: VarId) -> Hlvalue {
    Hlvalue::Variable(v)
}

fn cst(py: Python<'_>, v: LlValue, t: LlType) -> Result<Hlvalue, RTypeError> {
    crate::helpers::value_const(py, v, t)
}

impl RTyper<'_> {
    /// `ll_select(cond, a, b) -> a if cond else b` on values of type `ty`
    /// (`Signed`, `Unsigned` or `Float`).
    pub(crate) fn helper_select(
        &mut self,
        py: Python<'_>,
        ty: LlType,
    ) -> Result<usize, RTypeError> {
        let key: &'static str = match ty {
            t if t == SIGNED => "ll_select_int",
            t if t == UNSIGNED => "ll_select_uint",
            t if t == FLOAT => "ll_select_float",
            _ => {
                return Err(RTypeError::new(
                    "internal error: select of an unexpected type",
                ))
            }
        };
        if let Some(&i) = self.helpers.get(key) {
            return Ok(i);
        }
        let (mut b, args) = GraphBuilder::new(self, key, &[BOOL, ty, ty], ty);
        let start = b.graph.startblock;
        let ret = b.graph.returnblock;
        b.branch(
            py,
            start,
            args[0],
            (ret, vec![var(args[2])]),
            (ret, vec![var(args[1])]),
        );
        Ok(self.add_helper(key, b.graph, LlType::func(vec![BOOL, ty, ty], ty)))
    }

    /// `ll_divmod(a, b) -> (a // b, a % b)` for items of repr `item`.
    pub(crate) fn helper_divmod(
        &mut self,
        py: Python<'_>,
        item: &Repr,
    ) -> Result<usize, RTypeError> {
        let (key, fl, md): (&'static str, LlOp, LlOp) = match item {
            Repr::Int(k) if k.unsigned() => ("ll_divmod_uint", LlOp::UintFloordiv, LlOp::UintMod),
            Repr::Int(_) => ("ll_divmod_int", LlOp::IntFloordiv, LlOp::IntMod),
            Repr::Float => ("ll_divmod_float", LlOp::FloatFloordiv, LlOp::FloatMod),
            _ => return Err(RTypeError::unsupported("divmod of these values")),
        };
        if let Some(&i) = self.helpers.get(key) {
            return Ok(i);
        }
        let t = item.lowleveltype(self);
        let items = vec![item.clone(), item.clone()];
        let st = self.tuple_struct(&items);
        let pt = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
        let (mut b, args) = GraphBuilder::new(self, key, &[t, t], pt);
        let s = b.graph.startblock;
        let q = b.op(s, fl, vec![var(args[0]), var(args[1])], t);
        let m = b.op(s, md, vec![var(args[0]), var(args[1])], t);
        let p = b.op(s, LlOp::Malloc, vec![type_const(py, st)?], pt);
        for (i, v) in [q, m].into_iter().enumerate() {
            let field = Hlvalue::Constant(llconst::name_constant(py, &format!("item{i}")));
            b.op(
                s,
                LlOp::Setfield,
                vec![var(p), field, var(v)],
                rpy3_model::lltype::VOID,
            );
        }
        b.ret(s, var(p));
        Ok(self.add_helper(key, b.graph, LlType::func(vec![t, t], pt)))
    }

    /// `ll_int_float_tiebreak(n, f) -> Signed`: 0 when `float(n) != f`
    /// (or either is NaN); otherwise the sign of the exact `n - f`.  With
    /// it, `n OP f` compares exactly, as CPython does.
    pub(crate) fn helper_int_float_tiebreak(
        &mut self,
        py: Python<'_>,
    ) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_int_float_tiebreak";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let (mut b, args) = GraphBuilder::new(self, KEY, &[SIGNED, FLOAT], SIGNED);
        let s = b.graph.startblock;
        let ret = b.graph.returnblock;
        let fnv = b.op(s, LlOp::CastIntToFloat, vec![var(args[0])], FLOAT);
        let eq = b.op(s, LlOp::FloatEq, vec![var(fnv), var(args[1])], BOOL);
        let (b1, v1) = b.block(&[SIGNED, FLOAT]);
        b.branch(
            py,
            s,
            eq,
            (ret, vec![cst(py, LlValue::Int(0), SIGNED)?]),
            (b1, vec![var(args[0]), var(args[1])]),
        );
        // f is integral and within [-2**63, 2**63]; 2**63 is above every n
        let big = b.op(
            b1,
            LlOp::FloatGe,
            vec![
                var(v1[1]),
                cst(py, LlValue::Float(9223372036854775808.0), FLOAT)?,
            ],
            BOOL,
        );
        let (b2, v2) = b.block(&[SIGNED, FLOAT]);
        b.branch(
            py,
            b1,
            big,
            (b2, vec![var(v1[0]), var(v1[1])]),
            (ret, vec![cst(py, LlValue::Int(-1), SIGNED)?]),
        );
        let m = b.op(b2, LlOp::CastFloatToInt, vec![var(v2[1])], SIGNED);
        let lt = b.op(b2, LlOp::IntLt, vec![var(v2[0]), var(m)], BOOL);
        let gt = b.op(b2, LlOp::IntGt, vec![var(v2[0]), var(m)], BOOL);
        let lt = b.op(b2, LlOp::CastBoolToInt, vec![var(lt)], SIGNED);
        let gt = b.op(b2, LlOp::CastBoolToInt, vec![var(gt)], SIGNED);
        let r = b.op(b2, LlOp::IntSub, vec![var(gt), var(lt)], SIGNED);
        b.ret(b2, var(r));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![SIGNED, FLOAT], SIGNED)))
    }

    /// `ll_range_ulen(r) -> Unsigned`: the number of items, exact for any
    /// bounds (up to 2**64 - 1).
    pub(crate) fn helper_range_ulen(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_range_ulen";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let pr = self.range_types().1;
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr], UNSIGNED);
        let s = b.graph.startblock;
        let ret = b.graph.returnblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let start = b.op(
            s,
            LlOp::Getfield,
            vec![var(args[0]), field("start")],
            SIGNED,
        );
        let stop = b.op(s, LlOp::Getfield, vec![var(args[0]), field("stop")], SIGNED);
        let step = b.op(s, LlOp::Getfield, vec![var(args[0]), field("step")], SIGNED);
        let up = b.op(
            s,
            LlOp::IntGt,
            vec![var(step), cst(py, LlValue::Int(0), SIGNED)?],
            BOOL,
        );
        // lo, hi, |step| with the items running from lo towards hi
        let (count, cv) = b.block(&[SIGNED, SIGNED, UNSIGNED]);
        let (bup, vup) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let (bdown, vdown) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let pass = vec![var(start), var(stop), var(step)];
        b.branch(py, s, up, (bdown, pass.clone()), (bup, pass));
        let st = b.op(bup, LlOp::CastIntToUint, vec![var(vup[2])], UNSIGNED);
        b.goto(bup, count, vec![var(vup[0]), var(vup[1]), var(st)]);
        let st = b.op(bdown, LlOp::CastIntToUint, vec![var(vdown[2])], UNSIGNED);
        let st = b.op(bdown, LlOp::UintNeg, vec![var(st)], UNSIGNED);
        b.goto(bdown, count, vec![var(vdown[1]), var(vdown[0]), var(st)]);
        // for a negative step the bounds were swapped: hi is the start
        let nonempty = b.op(count, LlOp::IntLt, vec![var(cv[0]), var(cv[1])], BOOL);
        let (body, bv) = b.block(&[SIGNED, SIGNED, UNSIGNED]);
        b.branch(
            py,
            count,
            nonempty,
            (ret, vec![cst(py, LlValue::UInt(0), UNSIGNED)?]),
            (body, vec![var(cv[0]), var(cv[1]), var(cv[2])]),
        );
        let lo = b.op(body, LlOp::CastIntToUint, vec![var(bv[0])], UNSIGNED);
        let hi = b.op(body, LlOp::CastIntToUint, vec![var(bv[1])], UNSIGNED);
        let d = b.op(body, LlOp::UintSub, vec![var(hi), var(lo)], UNSIGNED);
        let d = b.op(
            body,
            LlOp::UintSub,
            vec![var(d), cst(py, LlValue::UInt(1), UNSIGNED)?],
            UNSIGNED,
        );
        let q = b.op(body, LlOp::UintFloordiv, vec![var(d), var(bv[2])], UNSIGNED);
        let q = b.op(
            body,
            LlOp::UintAdd,
            vec![var(q), cst(py, LlValue::UInt(1), UNSIGNED)?],
            UNSIGNED,
        );
        b.ret(body, var(q));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr], UNSIGNED)))
    }

    /// `ll_range_contains(r, x) -> Bool`.
    pub(crate) fn helper_range_contains(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_range_contains";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let pr = self.range_types().1;
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr, SIGNED], BOOL);
        let s = b.graph.startblock;
        let ret = b.graph.returnblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let start = b.op(
            s,
            LlOp::Getfield,
            vec![var(args[0]), field("start")],
            SIGNED,
        );
        let stop = b.op(s, LlOp::Getfield, vec![var(args[0]), field("stop")], SIGNED);
        let step = b.op(s, LlOp::Getfield, vec![var(args[0]), field("step")], SIGNED);
        let x = args[1];
        let up = b.op(
            s,
            LlOp::IntGt,
            vec![var(step), cst(py, LlValue::Int(0), SIGNED)?],
            BOOL,
        );
        // (first, x, |step|, in bounds): x must be first + k * |step| in the
        // direction of the step
        let (check, cv) = b.block(&[SIGNED, SIGNED, UNSIGNED]);
        let (bup, vup) = b.block(&[SIGNED, SIGNED, SIGNED, SIGNED]);
        let (bdown, vdown) = b.block(&[SIGNED, SIGNED, SIGNED, SIGNED]);
        let pass = vec![var(start), var(stop), var(step), var(x)];
        b.branch(py, s, up, (bdown, pass.clone()), (bup, pass));
        let f = cst(py, LlValue::Bool(false), BOOL)?;
        {
            // start <= x < stop
            let a = b.op(bup, LlOp::IntLe, vec![var(vup[0]), var(vup[3])], BOOL);
            let c = b.op(bup, LlOp::IntLt, vec![var(vup[3]), var(vup[1])], BOOL);
            let a = b.op(bup, LlOp::CastBoolToInt, vec![var(a)], SIGNED);
            let c = b.op(bup, LlOp::CastBoolToInt, vec![var(c)], SIGNED);
            let both = b.op(bup, LlOp::IntAnd, vec![var(a), var(c)], SIGNED);
            let inside = b.op(bup, LlOp::IntIsTrue, vec![var(both)], BOOL);
            let st = b.op(bup, LlOp::CastIntToUint, vec![var(vup[2])], UNSIGNED);
            b.branch(
                py,
                bup,
                inside,
                (ret, vec![f.clone()]),
                (check, vec![var(vup[0]), var(vup[3]), var(st)]),
            );
        }
        {
            // stop < x <= start; the distance counts from x up to start
            let a = b.op(bdown, LlOp::IntLt, vec![var(vdown[1]), var(vdown[3])], BOOL);
            let c = b.op(bdown, LlOp::IntLe, vec![var(vdown[3]), var(vdown[0])], BOOL);
            let a = b.op(bdown, LlOp::CastBoolToInt, vec![var(a)], SIGNED);
            let c = b.op(bdown, LlOp::CastBoolToInt, vec![var(c)], SIGNED);
            let both = b.op(bdown, LlOp::IntAnd, vec![var(a), var(c)], SIGNED);
            let inside = b.op(bdown, LlOp::IntIsTrue, vec![var(both)], BOOL);
            let st = b.op(bdown, LlOp::CastIntToUint, vec![var(vdown[2])], UNSIGNED);
            let st = b.op(bdown, LlOp::UintNeg, vec![var(st)], UNSIGNED);
            b.branch(
                py,
                bdown,
                inside,
                (ret, vec![f]),
                (check, vec![var(vdown[3]), var(vdown[0]), var(st)]),
            );
        }
        let lo = b.op(check, LlOp::CastIntToUint, vec![var(cv[0])], UNSIGNED);
        let hi = b.op(check, LlOp::CastIntToUint, vec![var(cv[1])], UNSIGNED);
        let d = b.op(check, LlOp::UintSub, vec![var(hi), var(lo)], UNSIGNED);
        let m = b.op(check, LlOp::UintMod, vec![var(d), var(cv[2])], UNSIGNED);
        let z = b.op(
            check,
            LlOp::UintEq,
            vec![var(m), cst(py, LlValue::UInt(0), UNSIGNED)?],
            BOOL,
        );
        b.ret(check, var(z));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr, SIGNED], BOOL)))
    }

    /// A constant naming helper `idx` for a `direct_call`.
    fn helper_const(&self, py: Python<'_>, idx: usize) -> Result<Hlvalue, RTypeError> {
        let name = self.funcs[idx].0.clone();
        llconst::func_constant(py, self.func_ref(idx), &name)
            .map(Hlvalue::Constant)
            .map_err(|e| RTypeError::new(e.to_string()))
    }

    /// `ll_range_len(r) -> Signed`, raising OverflowError when the range
    /// has more than `maxint` items (as CPython's `len()` does).
    pub(crate) fn helper_range_len(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_range_len";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let ulen = self.helper_range_ulen(py)?;
        let ulen_c = self.helper_const(py, ulen)?;
        let pr = self.range_types().1;
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr], SIGNED);
        let s = b.graph.startblock;
        let n = b.op(s, LlOp::DirectCall, vec![ulen_c, var(args[0])], UNSIGNED);
        let big = b.op(
            s,
            LlOp::UintGt,
            vec![var(n), cst(py, LlValue::UInt(i64::MAX as u64), UNSIGNED)?],
            BOOL,
        );
        let (ok, ov) = b.block(&[UNSIGNED]);
        let (bad, _) = b.block(&[]);
        b.branch(py, s, big, (ok, vec![var(n)]), (bad, vec![]));
        b.raise_builtin(self, py, bad, "OverflowError")?;
        let r = b.op(ok, LlOp::CastUintToInt, vec![var(ov[0])], SIGNED);
        b.ret(ok, var(r));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr], SIGNED)))
    }

    /// A new range iterator yielding `len` items from `first` by `step`
    /// (wrapping arithmetic: every item is exact).
    fn new_range_iter(
        &self,
        py: Python<'_>,
        b: &mut GraphBuilder,
        block: BlockId,
        first: VarId,
        len: VarId,
        step: VarId,
    ) -> Result<VarId, RTypeError> {
        let (_, _, it, pit) = self.range_types();
        let p = b.op(block, LlOp::Malloc, vec![type_const(py, it)?], pit);
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let len = b.op(block, LlOp::CastUintToInt, vec![var(len)], SIGNED);
        for (f, v) in [("next", first), ("len", len), ("step", step)] {
            b.op(block, LlOp::Setfield, vec![var(p), field(f), var(v)], VOID);
        }
        Ok(p)
    }

    /// `ll_rangeiter(r) -> Ptr(rangeiter)`: an iterator over `r`'s items.
    pub(crate) fn helper_range_iter(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_rangeiter";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let ulen = self.helper_range_ulen(py)?;
        let ulen_c = self.helper_const(py, ulen)?;
        let (_, pr, _, pit) = self.range_types();
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr], pit);
        let s = b.graph.startblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let n = b.op(s, LlOp::DirectCall, vec![ulen_c, var(args[0])], UNSIGNED);
        let start = b.op(
            s,
            LlOp::Getfield,
            vec![var(args[0]), field("start")],
            SIGNED,
        );
        let step = b.op(s, LlOp::Getfield, vec![var(args[0]), field("step")], SIGNED);
        let p = self.new_range_iter(py, &mut b, s, start, n, step)?;
        b.ret(s, var(p));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr], pit)))
    }

    /// `ll_rangenext(it) -> Signed`, raising StopIteration at the end: the
    /// iterator counts the items left (as CPython's does), so that no
    /// bound near the integer limits needs a value past them.
    pub(crate) fn helper_range_next(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_rangenext";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let pit = self.range_types().3;
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pit], SIGNED);
        let s = b.graph.startblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        // the count is an unsigned number stored in a Signed field
        let left = b.op(s, LlOp::Getfield, vec![var(args[0]), field("len")], SIGNED);
        let done = b.op(
            s,
            LlOp::IntEq,
            vec![var(left), cst(py, LlValue::Int(0), SIGNED)?],
            BOOL,
        );
        let (stop, _) = b.block(&[]);
        let (more, mv) = b.block(&[pit, SIGNED]);
        b.branch(
            py,
            s,
            done,
            (more, vec![var(args[0]), var(left)]),
            (stop, vec![]),
        );
        b.raise_builtin(self, py, stop, "StopIteration")?;
        let left = b.op(
            more,
            LlOp::IntSub,
            vec![var(mv[1]), cst(py, LlValue::Int(1), SIGNED)?],
            SIGNED,
        );
        b.op(
            more,
            LlOp::Setfield,
            vec![var(mv[0]), field("len"), var(left)],
            VOID,
        );
        let cur = b.op(
            more,
            LlOp::Getfield,
            vec![var(mv[0]), field("next")],
            SIGNED,
        );
        let step = b.op(
            more,
            LlOp::Getfield,
            vec![var(mv[0]), field("step")],
            SIGNED,
        );
        // past the last item the sum may wrap; it is never yielded
        let next = b.op(more, LlOp::IntAdd, vec![var(cur), var(step)], SIGNED);
        b.op(
            more,
            LlOp::Setfield,
            vec![var(mv[0]), field("next"), var(next)],
            VOID,
        );
        b.ret(more, var(cur));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pit], SIGNED)))
    }

    /// `ll_range_reversed(r) -> Ptr(rangeiter)`: an iterator from the last
    /// item of `r` back to its first.
    pub(crate) fn helper_range_reversed(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_range_reversed";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let ulen = self.helper_range_ulen(py)?;
        let ulen_c = self.helper_const(py, ulen)?;
        let (_, pr, _, pit) = self.range_types();
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr], pit);
        let s = b.graph.startblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let n = b.op(s, LlOp::DirectCall, vec![ulen_c, var(args[0])], UNSIGNED);
        let start = b.op(
            s,
            LlOp::Getfield,
            vec![var(args[0]), field("start")],
            SIGNED,
        );
        let step = b.op(s, LlOp::Getfield, vec![var(args[0]), field("step")], SIGNED);
        // last = start + (n - 1) * step, exact in wrapping arithmetic (it
        // is an item; for n == 0 nothing is yielded); the step back is
        // -step, also wrapping (-minint steps by 2**63 modulo 2**64)
        let k = b.op(
            s,
            LlOp::UintSub,
            vec![var(n), cst(py, LlValue::UInt(1), UNSIGNED)?],
            UNSIGNED,
        );
        let k = b.op(s, LlOp::CastUintToInt, vec![var(k)], SIGNED);
        let d = b.op(s, LlOp::IntMul, vec![var(k), var(step)], SIGNED);
        let last = b.op(s, LlOp::IntAdd, vec![var(start), var(d)], SIGNED);
        let back = b.op(s, LlOp::IntNeg, vec![var(step)], SIGNED);
        let p = self.new_range_iter(py, &mut b, s, last, n, back)?;
        b.ret(s, var(p));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr], pit)))
    }

    /// `ll_newrange(start, stop, step) -> Ptr(range)`, raising ValueError
    /// for a step of zero (as `range()` does).
    pub(crate) fn helper_range_new(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_newrange";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let (st, pr, _, _) = self.range_types();
        let (mut b, args) = GraphBuilder::new(self, KEY, &[SIGNED, SIGNED, SIGNED], pr);
        let s = b.graph.startblock;
        let zero = b.op(
            s,
            LlOp::IntEq,
            vec![var(args[2]), cst(py, LlValue::Int(0), SIGNED)?],
            BOOL,
        );
        let (bad, _) = b.block(&[]);
        let (ok, v) = b.block(&[SIGNED, SIGNED, SIGNED]);
        b.branch(
            py,
            s,
            zero,
            (ok, args.iter().map(|&a| var(a)).collect()),
            (bad, vec![]),
        );
        b.raise_builtin(self, py, bad, "ValueError")?;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let p = b.op(ok, LlOp::Malloc, vec![type_const(py, st)?], pr);
        for (f, x) in [("start", v[0]), ("stop", v[1]), ("step", v[2])] {
            b.op(ok, LlOp::Setfield, vec![var(p), field(f), var(x)], VOID);
        }
        b.ret(ok, var(p));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![SIGNED, SIGNED, SIGNED], pr)))
    }

    /// `ll_rangeitem(r, i) -> Signed`: item `i` of the range (negative
    /// indexes count from the end), raising IndexError out of bounds.
    pub(crate) fn helper_range_item(&mut self, py: Python<'_>) -> Result<usize, RTypeError> {
        const KEY: &str = "ll_rangeitem";
        if let Some(&i) = self.helpers.get(KEY) {
            return Ok(i);
        }
        let ulen = self.helper_range_ulen(py)?;
        let ulen_c = self.helper_const(py, ulen)?;
        let pr = self.range_types().1;
        let (mut b, args) = GraphBuilder::new(self, KEY, &[pr, SIGNED], SIGNED);
        let s = b.graph.startblock;
        let field = |n: &str| Hlvalue::Constant(llconst::name_constant(py, n));
        let n = b.op(s, LlOp::DirectCall, vec![ulen_c, var(args[0])], UNSIGNED);
        // the index as an unsigned position: i, or n + i for i < 0 (all
        // modulo 2**64; a negative i is in range when -i <= n)
        let ui = b.op(s, LlOp::CastIntToUint, vec![var(args[1])], UNSIGNED);
        let neg = b.op(
            s,
            LlOp::IntLt,
            vec![var(args[1]), cst(py, LlValue::Int(0), SIGNED)?],
            BOOL,
        );
        let (check, cv) = b.block(&[pr, UNSIGNED, UNSIGNED]);
        let (fix, fv) = b.block(&[pr, UNSIGNED, UNSIGNED]);
        b.branch(
            py,
            s,
            neg,
            (check, vec![var(args[0]), var(ui), var(n)]),
            (fix, vec![var(args[0]), var(ui), var(n)]),
        );
        {
            let mag = b.op(fix, LlOp::UintNeg, vec![var(fv[1])], UNSIGNED);
            let ok = b.op(fix, LlOp::UintLe, vec![var(mag), var(fv[2])], BOOL);
            let (bad, _) = b.block(&[]);
            let (pos, pv) = b.block(&[pr, UNSIGNED, UNSIGNED]);
            b.branch(
                py,
                fix,
                ok,
                (bad, vec![]),
                (pos, vec![var(fv[0]), var(mag), var(fv[2])]),
            );
            b.raise_builtin(self, py, bad, "IndexError")?;
            // n - |i| < n since |i| >= 1
            let j = b.op(pos, LlOp::UintSub, vec![var(pv[2]), var(pv[1])], UNSIGNED);
            b.goto(pos, check, vec![var(pv[0]), var(j), var(pv[2])]);
        }
        let inside = b.op(check, LlOp::UintLt, vec![var(cv[1]), var(cv[2])], BOOL);
        let (bad, _) = b.block(&[]);
        let (get, gv) = b.block(&[pr, UNSIGNED]);
        b.branch(
            py,
            check,
            inside,
            (bad, vec![]),
            (get, vec![var(cv[0]), var(cv[1])]),
        );
        b.raise_builtin(self, py, bad, "IndexError")?;
        // start + j * step: the exact result is an item, so wrapping
        // arithmetic gives it
        let start = b.op(
            get,
            LlOp::Getfield,
            vec![var(gv[0]), field("start")],
            SIGNED,
        );
        let step = b.op(get, LlOp::Getfield, vec![var(gv[0]), field("step")], SIGNED);
        let j = b.op(get, LlOp::CastUintToInt, vec![var(gv[1])], SIGNED);
        let d = b.op(get, LlOp::IntMul, vec![var(j), var(step)], SIGNED);
        let x = b.op(get, LlOp::IntAdd, vec![var(start), var(d)], SIGNED);
        b.ret(get, var(x));
        Ok(self.add_helper(KEY, b.graph, LlType::func(vec![pr, SIGNED], SIGNED)))
    }
}
