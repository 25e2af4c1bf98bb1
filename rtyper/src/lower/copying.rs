//! `copy.copy()` and `copy.deepcopy()` of instances (see
//! `rpy3.stdlib.copymod`): `copy_instance(x)` allocates an instance of the
//! run-time class of `x` and copies every field of that class;
//! `deepcopy_fields(x, fn, memo)` replaces every field `f` of `x` by
//! `fn(f, memo)`, calling the graph of `fn` the annotator made for the
//! field's annotation; `deepcopy_items(t, fn, memo)` does the same for the
//! items of a tuple of a known length.  The run-time class is found by
//! comparing the instance's vtable with each class's, as
//! `instantiate_dispatch` does.

use rpy3_annotator::{ClassDefId, DescId, GraphId, SomeValue};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, VOID};
use rpy3_model::{Hlvalue, SpaceOperation, VarId};

use super::{name, Cx};
use crate::classes::field_name;
use crate::helpers::{type_const, value_const, GraphBuilder};
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// Lowers `copy_instance`, `deepcopy_fields` and `deepcopy_items`.
    pub(super) fn copy_builtin(
        &mut self,
        op: &SpaceOperation,
        builtin: &str,
        positional: &[Hlvalue],
        want: &Repr,
    ) -> Result<(), RTypeError> {
        match builtin {
            "copy_instance" => {
                let Repr::Instance(base) = want.clone() else {
                    return Err(RTypeError::new(
                        "copy_instance() without an instance result",
                    ));
                };
                let x = self.input(&positional[0], &Repr::Instance(base))?;
                let f = self.instance_copier(base)?;
                let fc = self.func_const(f)?;
                let t = self.rt.classes.instance_ptr(base);
                let v = self.emit(LlOp::DirectCall, vec![fc, x], t);
                self.finish(op.result, v);
            }
            "deepcopy_fields" => {
                let SomeValue::Instance { classdef: base, .. } = self.s(&positional[0]) else {
                    return Err(RTypeError::new("deepcopy_fields() of a non-instance"));
                };
                let x = self.input(&positional[0], &Repr::Instance(base))?;
                let desc = self.single_function(&positional[1])?;
                let s_memo = self.s(&positional[2]);
                let memo_r = self.rt.getrepr(&s_memo)?;
                let m = self.input(&positional[2], &memo_r)?;
                let f = self.field_deep_copier(base, desc, &s_memo, &memo_r)?;
                let fc = self.func_const(f)?;
                self.emit(LlOp::DirectCall, vec![fc, x, m], VOID);
                let none = value_const(self.py, LlValue::Void, VOID)?;
                self.finish(op.result, none);
            }
            "deepcopy_items" => {
                let s_t = self.s(&positional[0]);
                let SomeValue::Tuple(s_items) = &s_t else {
                    return Err(RTypeError::new("deepcopy_items() of a non-tuple"));
                };
                let Repr::Tuple(in_items) = self.repr_of(&positional[0])? else {
                    return Err(RTypeError::new("deepcopy_items() of a non-tuple"));
                };
                let Repr::Tuple(out_items) = want.clone() else {
                    return Err(RTypeError::new("deepcopy_items() without a tuple result"));
                };
                let t = self.input(&positional[0], &Repr::Tuple(in_items.clone()))?;
                let desc = self.single_function(&positional[1])?;
                let s_memo = self.s(&positional[2]);
                let memo_r = self.rt.getrepr(&s_memo)?;
                let m = self.input(&positional[2], &memo_r)?;
                let mut vals = Vec::new();
                for (i, (r_in, r_out)) in in_items.iter().zip(out_items.iter()).enumerate() {
                    let v = self.emit(
                        LlOp::Getfield,
                        vec![t.clone(), name(self.py, &format!("item{i}"))],
                        r_in.lowleveltype(self.rt),
                    );
                    let s_item = s_items[i].without_const();
                    vals.push(self.call_copier_graph(
                        desc,
                        &s_item,
                        &s_memo,
                        v,
                        r_in,
                        m.clone(),
                        &memo_r,
                        r_out,
                    )?);
                }
                let nt = self.new_tuple(&out_items, vals)?;
                self.finish(op.result, nt);
            }
            _ => {
                return Err(RTypeError::new(format!(
                    "internal error: copy builtin {builtin}"
                )))
            }
        }
        Ok(())
    }

    /// The function a constant argument names (the `fn` of the copy
    /// built-ins).
    fn single_function(&self, v: &Hlvalue) -> Result<DescId, RTypeError> {
        match self.s(v) {
            SomeValue::Pbc { descs, .. } if descs.len() == 1 => {
                Ok(*descs.iter().next().expect("one desc"))
            }
            _ => Err(RTypeError::new(
                "the copy function is not a constant function",
            )),
        }
    }

    /// Emits a call of the graph of `desc` made for `(s_arg, s_memo)` on
    /// `v` (of repr `r_in`) and `memo`, its result converted to `r_out`.
    #[allow(clippy::too_many_arguments)]
    fn call_copier_graph(
        &mut self,
        desc: DescId,
        s_arg: &SomeValue,
        s_memo: &SomeValue,
        v: Hlvalue,
        r_in: &Repr,
        memo: Hlvalue,
        memo_r: &Repr,
        r_out: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        if *r_in == Repr::Void {
            // a field that always holds one constant: its copy is it
            return Ok(v);
        }
        let g: GraphId = self
            .rt
            .ann
            .existing_graph(self.py, desc, &[s_arg.clone(), s_memo.clone()])
            .ok_or_else(|| RTypeError::new("internal error: no copy graph for a field"))?;
        let f = self
            .rt
            .func_index(g)
            .ok_or_else(|| RTypeError::new("internal error: copy graph not rtyped"))?;
        let graph = self.rt.ann.graphs[g].graph.clone();
        let inputs = graph.blocks[graph.startblock].inputargs.clone();
        let p0 = self.rt.getrepr(&self.rt.ann.binding(g, inputs[0]))?;
        let p1 = self.rt.getrepr(&self.rt.ann.binding(g, inputs[1]))?;
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        let res_r = self.rt.getrepr(&self.rt.ann.binding(g, rv))?;
        let a0 = self.convert(v, r_in, &p0)?;
        let a1 = self.convert(memo, memo_r, &p1)?;
        let fc = self.func_const(f)?;
        let t = res_r.lowleveltype(self.rt);
        let res = self.emit(LlOp::DirectCall, vec![fc, a0, a1], t);
        self.convert(res, &res_r, r_out)
    }

    /// A graph `(p: base*, extra...) -> result` that finds the class of
    /// `p` among those at or below `base` and runs `body` for it, with `p`
    /// cast to that class's pointer; `body` returns the result value.
    fn per_class_graph(
        &mut self,
        helper: &'static str,
        base: ClassDefId,
        extra: &[LlType],
        result: LlType,
        mut body: impl FnMut(
            &mut Cx<'_, '_, '_, '_>,
            ClassDefId,
            Hlvalue,
            &[VarId],
        ) -> Result<Hlvalue, RTypeError>,
    ) -> Result<usize, RTypeError> {
        let py = self.py;
        let vt_t = self.rt.objmodel.vtable_ptr;
        let base_ptr = self.rt.classes.instance_ptr(base);
        let mut params = vec![base_ptr];
        params.extend_from_slice(extra);
        let (mut b, inputs) = GraphBuilder::new(self.rt, helper, &params, result);
        let start = b.graph.startblock;
        let op_t = self.rt.objmodel.object_ptr;
        let obj = b.op(
            start,
            LlOp::CastPointer,
            vec![type_const(py, op_t)?, Hlvalue::Variable(inputs[0])],
            op_t,
        );
        let vt = b.op(
            start,
            LlOp::Getfield,
            vec![Hlvalue::Variable(obj), name(py, "typeptr")],
            vt_t,
        );
        let mut types = params.clone();
        types.push(vt_t);
        let (mut check, mut cvars) = b.block(&types);
        let mut pass: Vec<Hlvalue> = inputs.iter().map(|&v| Hlvalue::Variable(v)).collect();
        pass.push(Hlvalue::Variable(vt));
        b.goto(start, check, pass);
        let cases = self.rt.ann.subtree(base);
        for (i, &c) in cases.iter().enumerate() {
            let (case, kvars) = b.block(&params);
            let fwd: Vec<Hlvalue> = cvars[..params.len()]
                .iter()
                .map(|&v| Hlvalue::Variable(v))
                .collect();
            if i + 1 == cases.len() {
                b.goto(check, case, fwd);
            } else {
                let vtc = value_const(py, LlValue::Ptr(Some(self.rt.classes.vtable(c))), vt_t)?;
                let eq = b.op(
                    check,
                    LlOp::PtrEq,
                    vec![Hlvalue::Variable(cvars[params.len()]), vtc],
                    BOOL,
                );
                let (next, nvars) = b.block(&types);
                let all: Vec<Hlvalue> = cvars.iter().map(|&v| Hlvalue::Variable(v)).collect();
                b.branch(py, check, eq, (next, all), (case, fwd));
                check = next;
                cvars = nvars;
            }
            let mut sub = Cx::new(&mut *self.rt, py, self.g, case, &mut b.graph);
            let pt = sub.rt.classes.ptrs[&c];
            let me = sub.emit(
                LlOp::CastPointer,
                vec![type_const(py, pt)?, Hlvalue::Variable(kvars[0])],
                pt,
            );
            let r = body(&mut sub, c, me, &kvars[1..])?;
            let ops = std::mem::take(&mut sub.ops);
            b.graph.blocks[case].operations = ops;
            b.ret(case, r);
        }
        let ty = LlType::func(params, result);
        Ok(self.rt.add_helper(helper, b.graph, ty))
    }

    /// The fields of an instance of class `c`: the class each lives on,
    /// its attribute name and repr (constant fields, of repr Void, left out).
    fn all_fields(&self, c: ClassDefId) -> Vec<(ClassDefId, String, Repr)> {
        let mut chain = Vec::new();
        let mut k = Some(c);
        while let Some(x) = k {
            chain.push(x);
            k = self.rt.ann.classdefs[x].base;
        }
        chain.reverse();
        let mut out = Vec::new();
        for o in chain {
            for (attr, r) in self.rt.classes.fields.get(&o).cloned().unwrap_or_default() {
                if r != Repr::Void {
                    out.push((o, attr, r));
                }
            }
        }
        out
    }

    /// `(p: base*) -> base*`: a new instance of the class of `p` with the
    /// same field values.
    fn instance_copier(&mut self, base: ClassDefId) -> Result<usize, RTypeError> {
        let key = format!("copy_instance:{base:?}");
        if let Some(&f) = self.rt.dispatchers.get(&key) {
            return Ok(f);
        }
        let py = self.py;
        let base_ptr = self.rt.classes.instance_ptr(base);
        let f = self.per_class_graph("copy_instance", base, &[], base_ptr, |cx, c, me, _| {
            let st = cx.rt.classes.structs[&c];
            let pt = cx.rt.classes.ptrs[&c];
            let new = cx.emit(LlOp::Malloc, vec![type_const(py, st)?], pt);
            let obj = cx.object_ptr_of(new.clone())?;
            let vtc = value_const(
                py,
                LlValue::Ptr(Some(cx.rt.classes.vtable(c))),
                cx.rt.objmodel.vtable_ptr,
            )?;
            cx.emit(LlOp::Setfield, vec![obj, name(py, "typeptr"), vtc], VOID);
            for (owner, attr, r) in cx.all_fields(c) {
                let src = cx.field_ptr(me.clone(), c, owner)?;
                let dst = cx.field_ptr(new.clone(), c, owner)?;
                let fname = field_name(&attr);
                let v = cx.emit(
                    LlOp::Getfield,
                    vec![src, name(py, &fname)],
                    r.lowleveltype(cx.rt),
                );
                cx.emit(LlOp::Setfield, vec![dst, name(py, &fname), v], VOID);
            }
            Ok(cx.emit(
                LlOp::CastPointer,
                vec![type_const(py, base_ptr)?, new],
                base_ptr,
            ))
        })?;
        self.rt.dispatchers.insert(key, f);
        Ok(f)
    }

    /// `(p: base*, memo) -> void`: every field `f` of `p` becomes
    /// `fn(f, memo)` (`fn` the function of `desc`).
    fn field_deep_copier(
        &mut self,
        base: ClassDefId,
        desc: DescId,
        s_memo: &SomeValue,
        memo_r: &Repr,
    ) -> Result<usize, RTypeError> {
        let key = format!("deepcopy_fields:{base:?}:{desc:?}:{memo_r:?}");
        if let Some(&f) = self.rt.dispatchers.get(&key) {
            return Ok(f);
        }
        let py = self.py;
        let memo_t = memo_r.lowleveltype(self.rt);
        let f = self.per_class_graph(
            "deepcopy_fields",
            base,
            &[memo_t],
            VOID,
            |cx, c, me, extra| {
                let memo = Hlvalue::Variable(extra[0]);
                for (owner, attr, r) in cx.all_fields(c) {
                    let s_attr = cx.rt.ann.classdefs[owner]
                        .attrs
                        .get(&attr)
                        .map(|a| a.s_value.clone())
                        .unwrap_or(SomeValue::Impossible);
                    if s_attr.is_impossible() {
                        continue;
                    }
                    let fname = field_name(&attr);
                    let at = cx.field_ptr(me.clone(), c, owner)?;
                    let v = cx.emit(
                        LlOp::Getfield,
                        vec![at.clone(), name(py, &fname)],
                        r.lowleveltype(cx.rt),
                    );
                    let nv = cx.call_copier_graph(
                        desc,
                        &s_attr,
                        s_memo,
                        v,
                        &r,
                        memo.clone(),
                        memo_r,
                        &r,
                    )?;
                    cx.emit(LlOp::Setfield, vec![at, name(py, &fname), nv], VOID);
                }
                value_const(py, LlValue::Void, VOID)
            },
        )?;
        self.rt.dispatchers.insert(key, f);
        Ok(f)
    }
}
