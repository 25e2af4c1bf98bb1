//! Bound methods of different names in one variable (`Repr::MethodSet`):
//! `h = g.go if c else g.look`, lists and dicts of bound methods.  The
//! value is a pair `(im_self, which)`: the instance as an `object` and
//! the number of the method's name.  A call tests `which` and calls the
//! method of that name (through the class dispatcher when subclasses
//! override it).

use rpy3_annotator::description::Desc;
use rpy3_annotator::{ClassDefId, DescId, GraphId, SomeValue};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, SIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::{name, Cx};
use crate::helpers::{type_const, value_const, GraphBuilder};
use crate::repr::Repr;
use crate::RTypeError;

/// The methods of a method set grouped by name, names in order.
fn by_name(cx: &Cx<'_, '_, '_, '_>, descs: &[DescId]) -> Vec<(String, Vec<(DescId, ClassDefId)>)> {
    let mut groups: Vec<(String, Vec<(DescId, ClassDefId)>)> = Vec::new();
    for &d in descs {
        if let Desc::Method {
            func,
            selfclassdef,
            name,
        } = &cx.rt.ann.descs[d]
        {
            match groups.iter_mut().find(|(n, _)| n == name) {
                Some((_, g)) => g.push((*func, *selfclassdef)),
                None => groups.push((name.clone(), vec![(*func, *selfclassdef)])),
            }
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    groups
}

impl Cx<'_, '_, '_, '_> {
    /// A bound method of one name (its repr is the instance, maybe null)
    /// as a `Repr::MethodSet` pair (null for None).
    pub(super) fn to_method_set(
        &mut self,
        v: Hlvalue,
        s: &SomeValue,
        have: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let SomeValue::Pbc { descs, .. } = s else {
            return Err(RTypeError::new(format!(
                "internal error: a method set from {have:?}"
            )));
        };
        let descs: Vec<DescId> = descs.iter().copied().collect();
        let groups = by_name(self, &descs);
        if groups.len() != 1 {
            return Err(RTypeError::new(
                "internal error: a method pair of several names",
            ));
        }
        let which = self.rt.method_name_id(&groups[0].0);
        let obj_t = self.rt.objmodel.object_ptr;
        let obj = self.emit(
            LlOp::CastPointer,
            vec![type_const(self.py, obj_t)?, v],
            obj_t,
        );
        let f = self.method_pair_maker()?;
        let fc = self.func_const(f)?;
        let wc = value_const(self.py, LlValue::Int(which), SIGNED)?;
        let t = self.rt.method_pair_ptr();
        Ok(self.emit(LlOp::DirectCall, vec![fc, obj, wc], t))
    }

    /// `(obj, which) -> pair`: a new pair, or null when `obj` is null.
    fn method_pair_maker(&mut self) -> Result<usize, RTypeError> {
        let key = "method_pair".to_string();
        if let Some(&f) = self.rt.dispatchers.get(&key) {
            return Ok(f);
        }
        let py = self.py;
        let obj_t = self.rt.objmodel.object_ptr;
        let pair_t = self.rt.method_pair_ptr();
        let params = [obj_t, SIGNED];
        let (mut b, inputs) = GraphBuilder::new(self.rt, "method_pair", &params, pair_t);
        let start = b.graph.startblock;
        let nonnull = b.op(
            start,
            LlOp::PtrNonzero,
            vec![Hlvalue::Variable(inputs[0])],
            BOOL,
        );
        let (make, mv) = b.block(&params);
        let (null, _) = b.block(&[]);
        let pass: Vec<Hlvalue> = inputs.iter().map(|&v| Hlvalue::Variable(v)).collect();
        b.branch(py, start, nonnull, (null, vec![]), (make, pass));
        let st = self.rt.method_pair_struct();
        let p = b.op(make, LlOp::Malloc, vec![type_const(py, st)?], pair_t);
        b.op(
            make,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(p),
                name(py, "item0"),
                Hlvalue::Variable(mv[0]),
            ],
            VOID,
        );
        b.op(
            make,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(p),
                name(py, "item1"),
                Hlvalue::Variable(mv[1]),
            ],
            VOID,
        );
        b.ret(make, Hlvalue::Variable(p));
        b.ret(null, value_const(py, LlValue::Ptr(None), pair_t)?);
        let ty = LlType::func(params.to_vec(), pair_t);
        let f = self.rt.add_helper("method_pair", b.graph, ty);
        self.rt.dispatchers.insert(key, f);
        Ok(f)
    }

    /// The graph a call site reaches for `desc`.
    fn callee_graph(&self, desc: DescId) -> Result<GraphId, RTypeError> {
        self.rt
            .ann
            .call_sites
            .get(&(self.g, self.block, self.index))
            .and_then(|m| m.get(&desc))
            .copied()
            .ok_or_else(|| RTypeError::new("internal error: call site without a recorded graph"))
    }

    /// A call of a `Repr::MethodSet` value: a helper made for the call
    /// site tests the name's number and calls that method.
    pub(super) fn call_method_set(
        &mut self,
        op: &SpaceOperation,
        descs: &[DescId],
        positional: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<(), RTypeError> {
        if !keywords.is_empty() {
            return Err(RTypeError::unsupported(
                "keyword arguments in a call of bound methods of different names",
            ));
        }
        let py = self.py;
        let groups = by_name(self, descs);
        // each name: the function to call with the instance and the
        // arguments, its parameter reprs and its result repr
        let mut cases = Vec::new();
        for (mname, methods) in &groups {
            let which = self.rt.method_name_id(mname);
            let mut graphs = Vec::new();
            for &(func, c) in methods {
                let g = self.callee_graph(func)?;
                let f = self
                    .rt
                    .func_index(g)
                    .ok_or_else(|| RTypeError::unsupported("calling a generator method"))?;
                graphs.push((c, f, g));
            }
            let (_, f0, g0) = graphs[0];
            let graph = self.rt.ann.graphs[g0].graph.clone();
            let inputs = graph.blocks[graph.startblock].inputargs.clone();
            if inputs.len() != positional.len() + 1 {
                return Err(RTypeError::unsupported(
                    "calling bound methods of different names whose parameters differ in number",
                ));
            }
            let mut params = Vec::new();
            for v in &inputs {
                params.push(self.rt.getrepr(&self.rt.ann.binding(g0, *v))?);
            }
            let rv = graph.blocks[graph.returnblock].inputargs[0];
            let mut result = self.rt.getrepr(&self.rt.ann.binding(g0, rv))?;
            let (target, self_class) = if graphs.len() == 1 {
                (f0, graphs[0].0)
            } else {
                let cases: Vec<(ClassDefId, usize)> =
                    graphs.iter().map(|&(c, f, _)| (c, f)).collect();
                if !self.rt.methods_share_a_type(&cases) {
                    return Err(RTypeError::unsupported(
                        "overriding methods with different argument or result types",
                    ));
                }
                let mut base = cases[0].0;
                for &(c, _) in &cases[1..] {
                    base =
                        self.rt.ann.common_base(base, c).ok_or_else(|| {
                            RTypeError::unsupported("methods of unrelated classes")
                        })?;
                }
                if !self.rt.family_covers(base, &cases) {
                    return Err(RTypeError::unsupported(
                        "a method set with a method some classes lack",
                    ));
                }
                if let Some(c) = self.rt.dispatch_result_class(&cases) {
                    result = Repr::Instance(c);
                }
                (self.rt.method_dispatcher(py, base, cases)?, base)
            };
            cases.push((which, target, self_class, params, result));
        }
        // the helper: (pair, args...) -> result
        let site_reprs: Vec<Repr> = positional
            .iter()
            .map(|a| self.repr_of(a))
            .collect::<Result<_, _>>()?;
        let pair_t = self.rt.method_pair_ptr();
        let mut ll_params = vec![pair_t];
        for r in &site_reprs {
            ll_params.push(r.lowleveltype(self.rt));
        }
        let res_t = want.lowleveltype(self.rt);
        let (mut b, inputs) = GraphBuilder::new(self.rt, "call_method_set", &ll_params, res_t);
        let start = b.graph.startblock;
        let which_v = b.op(
            start,
            LlOp::Getfield,
            vec![Hlvalue::Variable(inputs[0]), name(py, "item1")],
            SIGNED,
        );
        let mut types = ll_params.clone();
        types.push(SIGNED);
        let (mut check, mut cvars) = b.block(&types);
        let mut pass: Vec<Hlvalue> = inputs.iter().map(|&v| Hlvalue::Variable(v)).collect();
        pass.push(Hlvalue::Variable(which_v));
        b.goto(start, check, pass);
        let n = cases.len();
        for (i, (which, target, self_class, params, result)) in cases.into_iter().enumerate() {
            let (case, kvars) = b.block(&ll_params);
            let fwd: Vec<Hlvalue> = cvars[..ll_params.len()]
                .iter()
                .map(|&v| Hlvalue::Variable(v))
                .collect();
            if i + 1 == n {
                b.goto(check, case, fwd);
            } else {
                let wc = value_const(py, LlValue::Int(which), SIGNED)?;
                let eq = b.op(
                    check,
                    LlOp::IntEq,
                    vec![Hlvalue::Variable(cvars[ll_params.len()]), wc],
                    BOOL,
                );
                let (next, nvars) = b.block(&types);
                let all: Vec<Hlvalue> = cvars.iter().map(|&v| Hlvalue::Variable(v)).collect();
                b.branch(py, check, eq, (next, all), (case, fwd));
                check = next;
                cvars = nvars;
            }
            let mut sub = Cx::new(&mut *self.rt, py, self.g, case, &mut b.graph);
            let obj_t = sub.rt.objmodel.object_ptr;
            let obj = sub.emit(
                LlOp::Getfield,
                vec![Hlvalue::Variable(kvars[0]), name(py, "item0")],
                obj_t,
            );
            let self_t = match sub.rt.funcs_ty(target).def() {
                rpy3_model::lltype::TypeDef::Func { args, .. } => args[0],
                _ => sub.rt.classes.instance_ptr(self_class),
            };
            let me = sub.emit(
                LlOp::CastPointer,
                vec![type_const(py, self_t)?, obj],
                self_t,
            );
            let mut args = vec![sub.func_const(target)?, me];
            for (k, r) in site_reprs.iter().enumerate() {
                let a = sub.convert(Hlvalue::Variable(kvars[k + 1]), r, &params[k + 1])?;
                args.push(a);
            }
            let rt_t = match sub.rt.funcs_ty(target).def() {
                rpy3_model::lltype::TypeDef::Func { result, .. } => result,
                _ => result.lowleveltype(sub.rt),
            };
            let r = sub.emit(LlOp::DirectCall, args, rt_t);
            let r = sub.convert(r, &result, want)?;
            let ops = std::mem::take(&mut sub.ops);
            b.graph.blocks[case].operations = ops;
            b.ret(case, r);
        }
        let ty = LlType::func(ll_params, res_t);
        let f = self.rt.add_helper("call_method_set", b.graph, ty);
        let fc = self.func_const(f)?;
        let pair = self.input(&op.args[0], &self.repr_of(&op.args[0])?)?;
        let mut call_args = vec![fc, pair];
        for (a, r) in positional.iter().zip(&site_reprs) {
            call_args.push(self.input(a, r)?);
        }
        let v = self.emit(LlOp::DirectCall, call_args, res_t);
        self.finish(op.result, v);
        Ok(())
    }
}
