//! Calls, instantiation, attributes and built-in functions.

use pyo3::prelude::*;
use rpy3_annotator::{ClassDefId, SomeValue};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, VOID};
use rpy3_model::{Constant, Hlvalue, OpName, SpaceOperation};

use super::{constant_of, is_constant, name, Cx};
use crate::classes::field_name;
use crate::helpers::{type_const, value_const};
use crate::repr::Repr;
use crate::RTypeError;
use rpy3_annotator::description::Desc;

impl Cx<'_, '_, '_, '_> {
    /// The graph the annotator chose for a call of `desc` at this operation.
    fn callee(&self, desc: rpy3_annotator::DescId) -> Result<usize, RTypeError> {
        let sites = self
            .rt
            .ann
            .call_sites
            .get(&(self.g, self.block, self.index));
        let g = sites
            .and_then(|m| m.get(&desc))
            .ok_or_else(|| RTypeError::new("internal error: call site without a recorded graph"))?;
        self.rt
            .func_index(*g)
            .ok_or_else(|| RTypeError::unsupported("calling a generator function"))
    }

    /// Emits a direct call of function `f` with high-level arguments bound
    /// to its parameters; returns the result in the callee's repr.
    fn direct_call(
        &mut self,
        f: usize,
        args: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<(Hlvalue, Repr), RTypeError> {
        self.direct_call_with(f, args, keywords, None, None, None)
    }

    /// `direct_call`, with an already low-level first argument (`ll_self`)
    /// and/or another function to call with the same arguments (`target`,
    /// a dispatcher).
    fn direct_call_with(
        &mut self,
        f: usize,
        mut args: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
        ll_self: Option<Hlvalue>,
        target: Option<Hlvalue>,
        result: Option<Repr>,
    ) -> Result<(Hlvalue, Repr), RTypeError> {
        let gid = *self
            .rt
            .func_of_graph
            .iter()
            .find(|(_, &i)| i == f)
            .map(|(g, _)| g)
            .expect("function of a graph");
        let graph = self.rt.ann.graphs[gid].graph.clone();
        let sig = &graph.signature;
        // defaults and keywords
        let nparams = sig.argnames.len();
        let mut slots: Vec<Option<Hlvalue>> = vec![None; nparams];
        let mut kwonly: Vec<Option<Hlvalue>> = vec![None; sig.kwonlyargnames.len()];
        let extra: Vec<Hlvalue> = if args.len() > nparams {
            args.split_off(nparams)
        } else {
            Vec::new()
        };
        for (i, a) in args.into_iter().enumerate() {
            slots[i] = Some(a);
        }
        for (k, v) in keywords {
            if let Some(i) = sig.argnames.iter().position(|n| *n == k) {
                slots[i] = Some(v);
            } else if let Some(i) = sig.kwonlyargnames.iter().position(|n| *n == k) {
                kwonly[i] = Some(v);
            }
        }
        let nd = graph.defaults.len();
        let mut bound: Vec<Hlvalue> = Vec::new();
        for (i, s) in slots.into_iter().enumerate() {
            bound.push(match s {
                Some(v) => v,
                None => Hlvalue::Constant(graph.defaults[i + nd - nparams].clone()),
            });
        }
        if sig.varargname.is_some() {
            if extra.is_empty() {
                let empty = pyo3::types::PyTuple::empty(self.py).into_any();
                bound.push(Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                    &empty,
                ))));
            } else {
                // the extra positional arguments packed into the *args tuple
                let star = graph.blocks[graph.startblock].inputargs[nparams];
                let Repr::Tuple(items) = self.rt.getrepr(&self.rt.ann.binding(gid, star))? else {
                    return Err(RTypeError::new("*args that is not a tuple"));
                };
                if items.len() != extra.len() {
                    return Err(RTypeError::new("*args of another length"));
                }
                let mut vals = Vec::new();
                for (a, r) in extra.iter().zip(items.iter()) {
                    vals.push(self.input(a, r)?);
                }
                let t = self.new_tuple(&items, vals)?;
                if let Hlvalue::Variable(v) = &t {
                    self.lowered.insert(*v, Repr::Tuple(items));
                }
                bound.push(t);
            }
        }
        for (i, s) in kwonly.into_iter().enumerate() {
            bound.push(match s {
                Some(v) => v,
                None => {
                    let name = &sig.kwonlyargnames[i];
                    let c = graph
                        .kwdefaults
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, c)| c.clone())
                        .ok_or_else(|| RTypeError::new("missing keyword-only argument"))?;
                    Hlvalue::Constant(c)
                }
            });
        }
        let inputs = graph.blocks[graph.startblock].inputargs.clone();
        let mut ll_args = vec![match target {
            Some(t) => t,
            None => self.func_const(f)?,
        }];
        let mut ll_self = ll_self;
        for (v, a) in inputs.iter().zip(bound.iter()) {
            if let Some(s) = ll_self.take() {
                ll_args.push(s);
                continue;
            }
            let want = self.rt.getrepr(&self.rt.ann.binding(gid, *v))?;
            ll_args.push(self.input(a, &want)?);
        }
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        // calling a generator function makes a generator
        let rr = if let Some(r) = result {
            r
        } else if graph.is_generator {
            Repr::Generator(gid)
        } else {
            self.rt.getrepr(&self.rt.ann.binding(gid, rv))?
        };
        let t = rr.lowleveltype(self.rt);
        Ok((self.emit(LlOp::DirectCall, ll_args, t), rr))
    }

    pub(super) fn call(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let (positional, keywords) = if op.opname == rpy3_model::OpName::CallArgs {
            let shape = match &op.args[1] {
                Hlvalue::Constant(c) => {
                    rpy3_model::operation::CallShape::from_py(c.value.bind(self.py))
                        .ok_or_else(|| RTypeError::new("call shape"))?
                }
                _ => return Err(RTypeError::new("call shape")),
            };
            if shape.has_starstar {
                return Err(RTypeError::unsupported("calls with **kwargs"));
            }
            let vals = &op.args[2..];
            let mut pos = vals[..shape.num_positional].to_vec();
            let nkw = shape.keywords.len();
            let kws = shape
                .keywords
                .iter()
                .cloned()
                .zip(
                    vals[shape.num_positional..shape.num_positional + nkw]
                        .iter()
                        .cloned(),
                )
                .collect();
            if shape.has_star {
                // f(*t) with a tuple t: its items, read from the tuple
                let star = &vals[shape.num_positional + nkw];
                let Repr::Tuple(items) = self.repr_of(star)? else {
                    return Err(RTypeError::unsupported(
                        "calls with *args that is not a tuple",
                    ));
                };
                let t = self.input(star, &Repr::Tuple(items.clone()))?;
                let s_items = match self.s(star) {
                    SomeValue::Tuple(s) if s.len() == items.len() => Some(s),
                    _ => None,
                };
                for (i, r) in items.iter().enumerate() {
                    let v = self.emit(
                        LlOp::Getfield,
                        vec![t.clone(), name(self.py, &format!("item{i}"))],
                        r.lowleveltype(self.rt),
                    );
                    if let Hlvalue::Variable(var) = &v {
                        self.lowered.insert(*var, r.clone());
                        // (the item's own annotation, for what reads it)
                        if let Some(s) = &s_items {
                            self.synthetic.insert(*var, s[i].clone());
                        }
                    }
                    pos.push(v);
                }
            }
            (pos, kws)
        } else {
            (op.args[1..].to_vec(), Vec::new())
        };
        let (mut positional, keywords) =
            self.builtin_keywords(&op.args[0], positional, keywords)?;
        if self.callee_override.is_none() {
            // a built-in iterating over instances: their __iter__() first
            let iters = self
                .rt
                .ann
                .special_args
                .get(&(self.g, self.block, self.index))
                .cloned()
                .unwrap_or_default();
            for (i, sc, s_iter) in iters {
                let Some(recv) = positional.get(i).cloned() else {
                    continue;
                };
                let r = self.rt.getrepr(&s_iter)?;
                let v = self.graph.new_var("");
                self.graph.vars[v].concretetype = Some(r.lowleveltype(self.rt));
                self.lowered.insert(v, r);
                self.synthetic.insert(v, s_iter);
                // `rpy_iterate(recv)`: the callee's annotation overrides the
                // placeholder first argument
                let call = SpaceOperation {
                    opname: rpy3_model::OpName::SimpleCall,
                    args: vec![recv.clone(), recv],
                    result: v,
                    lineno: op.lineno,
                };
                self.callee_override = Some(sc.s_method.clone());
                let lowered = self.call(&call);
                self.callee_override = None;
                lowered?;
                positional[i] = Hlvalue::Variable(v);
            }
        }
        let want = self.result_repr(op)?;
        if let Hlvalue::Constant(c) = &op.args[0] {
            // a method of a constant string ("{} {}".format)
            let obj = c.value.bind(self.py);
            if let (Ok(recv), Ok(mname)) = (obj.getattr("__self__"), obj.getattr("__name__")) {
                if (recv.is_instance_of::<pyo3::types::PyString>()
                    || recv.is_instance_of::<pyo3::types::PyBytes>())
                    && !obj.is_instance_of::<pyo3::types::PyType>()
                    && obj
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                        == "builtin_function_or_method"
                {
                    let mname: String = mname.extract().unwrap_or_default();
                    let v = if mname == "format" {
                        let fmt: String = recv.extract().unwrap_or_default();
                        self.str_format(&fmt, &positional, &keywords, &want)?
                    } else {
                        let receiver = Hlvalue::Constant(rpy3_model::Constant::new(
                            rpy3_model::PyObj::new(&recv),
                        ));
                        self.str_method(&mname, &receiver, &positional, &want)?
                    };
                    self.finish(op.result, v);
                    return Ok(());
                }
            }
        }
        let s_callee = match self.callee_override.take() {
            Some(s) => s,
            None => self.s(&op.args[0]),
        };
        if let Some(v) = self.external_call(&s_callee, &positional, &keywords, &want)? {
            self.finish(op.result, v);
            return Ok(());
        }
        if let SomeValue::Builtin {
            name: "exception_message",
            s_self,
        } = &s_callee
        {
            // BaseException's __str__: the exception's message (no
            // dispatch to a subclass's __str__: this is the base's own)
            let target = match s_self.as_deref() {
                Some(inst) => Some((op.args[0].clone(), inst.clone())),
                None => positional.first().map(|first| (first.clone(), self.s(first))),
            };
            let Some((inst, SomeValue::Instance { classdef, .. })) = target else {
                return Err(RTypeError::new("BaseException.__str__ of a non-instance"));
            };
            let r = self.repr_of(&inst)?;
            let x = self.input(&inst, &r)?;
            let x = self.convert(x, &r, &Repr::Instance(classdef))?;
            let v = self.exception_message_text(x, classdef)?;
            let v = self.convert(v, &Repr::Str, &want)?;
            self.finish(op.result, v);
            return Ok(());
        }
        if let SomeValue::Builtin {
            name: "base_init",
            s_self,
        } = &s_callee
        {
            // Exception.__init__(self, args...) / super().__init__(args...):
            // the exception's text becomes that of these arguments
            let target = match s_self.as_deref() {
                // super().__init__: bound to the instance
                Some(inst) => Some((op.args[0].clone(), inst.clone(), positional.clone())),
                None => positional
                    .split_first()
                    .map(|(first, rest)| (first.clone(), self.s(first), rest.to_vec())),
            };
            if let Some((inst, SomeValue::Instance { classdef, .. }, args)) = target {
                if self.is_exception_class(classdef) {
                    let r = self.repr_of(&inst)?;
                    let x = self.input(&inst, &r)?;
                    let x = self.convert(x, &r, &Repr::Instance(classdef))?;
                    self.set_exception_message(x, classdef, &args)?;
                }
            }
            let none = value_const(self.py, LlValue::Void, VOID)?;
            self.finish(op.result, none);
            return Ok(());
        }
        match &s_callee {
            // (before the constant results: deepcopy_fields gives None)
            SomeValue::Builtin {
                name: builtin @ ("copy_instance" | "deepcopy_fields" | "deepcopy_items"),
                s_self: None,
            } => self.copy_builtin(op, builtin, &positional, &want),
            SomeValue::Builtin { s_self: None, .. }
                if is_constant(&self.rt.ann.binding(self.g, op.result)) =>
            {
                let s_res = self.rt.ann.binding(self.g, op.result);
                let c = constant_of(self.rt, self.py, &s_res, &want)?;
                self.finish(op.result, c);
                Ok(())
            }
            SomeValue::Builtin {
                name: "super",
                s_self: None,
            } => {
                // super(C, obj) is obj, looked up from C's base
                let v = self.input(&positional[1], &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "tuple",
                s_self: None,
            } if positional.len() == 1 && matches!(want, Repr::Tuple(_)) => {
                // tuple(t) of a tuple is t
                let v = self.input(&positional[0], &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "instantiate",
                s_self: None,
            } => {
                // an instance of the class, without calling __init__
                let Repr::Instance(base) = want else {
                    return Err(RTypeError::new("instantiate() without an instance result"));
                };
                let s_cls = self.s(&positional[0]);
                let classes: Vec<rpy3_model::PyObj> = match &s_cls {
                    SomeValue::Pbc { descs, .. } => descs
                        .iter()
                        .filter_map(|d| self.rt.ann.desc_object(*d))
                        .collect(),
                    _ => return Err(RTypeError::unsupported("instantiate() of this value")),
                };
                let v = if classes.len() == 1 {
                    let c = self
                        .rt
                        .classdef_of_class(self.py, classes[0].bind(self.py))?;
                    let p = self.allocate(c)?;
                    self.convert(p, &Repr::Instance(c), &want)?
                } else {
                    let mut cases = Vec::new();
                    for cls in &classes {
                        cases.push((self.rt.classdef_of_class(self.py, cls.bind(self.py))?, None));
                    }
                    let dispatcher = self.class_dispatcher(base, &cases, &[])?;
                    let vt = self.input(&positional[0], &Repr::Class)?;
                    let fc = self.func_const(dispatcher)?;
                    let t = self.rt.classes.instance_ptr(base);
                    self.emit(LlOp::DirectCall, vec![fc, vt], t)
                };
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name,
                s_self: Some(inner),
            } if matches!(**inner, SomeValue::Str { .. }) => {
                let v = self.str_method(name, &op.args[0], &positional, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "StringBuilder",
                s_self: None,
            } if want == Repr::StrBuilder => {
                let hint = match positional.first() {
                    Some(h) => self.input(h, &Repr::Int(rpy3_annotator::model::IntKind::Signed))?,
                    None => crate::helpers::value_const(
                        self.py,
                        rpy3_model::lltype::LlValue::Int(16),
                        rpy3_model::lltype::SIGNED,
                    )?,
                };
                let t = want.lowleveltype(self.rt);
                let v = self.call_str_helper("ll_sb_new", vec![hint], t)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "BytesBuilder",
                s_self: None,
            } if want == Repr::BytesBuilder => {
                let int = Repr::Int(rpy3_annotator::model::IntKind::Signed);
                let hint = match positional.first() {
                    Some(h) => self.input(h, &int)?,
                    None => crate::helpers::value_const(
                        self.py,
                        rpy3_model::lltype::LlValue::Int(16),
                        rpy3_model::lltype::SIGNED,
                    )?,
                };
                let (v, _) =
                    self.call_helper_in(crate::RSTR, "ll_bb_new", vec![(hint, SomeValue::int())])?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name,
                s_self: Some(inner),
            } if matches!(
                **inner,
                SomeValue::Builtin {
                    name: "StringBuilder" | "BytesBuilder",
                    ..
                }
            ) && matches!(
                self.repr_of(&op.args[0])?,
                Repr::StrBuilder | Repr::BytesBuilder
            ) =>
            {
                let v = self.builder_method(name, &op.args[0], &positional, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name,
                s_self: Some(inner),
            } if matches!(**inner, SomeValue::List(_))
                && matches!(self.repr_of(&op.args[0])?, Repr::List(..) | Repr::Range) =>
            {
                let v = self.list_method(name, &op.args[0], &positional, &keywords, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name,
                s_self: Some(inner),
            } if matches!(**inner, SomeValue::Dict(_) | SomeValue::Set(_))
                && matches!(self.repr_of(&op.args[0])?, Repr::Dict(..) | Repr::Set(_)) =>
            {
                let v = self.dict_method(name, &op.args[0], &positional, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: name @ ("bit_length" | "bit_count" | "is_integer"),
                s_self: Some(inner),
            } if matches!(**inner, SomeValue::Integer { .. } | SomeValue::Float { .. })
                && positional.is_empty() =>
            {
                // int.bit_length(), float.is_integer(): the receiver is the
                // bound method's value
                let recv = match &op.args[0] {
                    Hlvalue::Constant(c) => {
                        let me = c
                            .value
                            .bind(self.py)
                            .getattr("__self__")
                            .map_err(|e| RTypeError::new(e.to_string()))?;
                        Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(&me)))
                    }
                    v => v.clone(),
                };
                let (r, s, helper) = if *name == "bit_length" || *name == "bit_count" {
                    (
                        Repr::Int(rpy3_annotator::model::IntKind::Signed),
                        SomeValue::int(),
                        if *name == "bit_length" {
                            "ll_bit_length"
                        } else {
                            "ll_bit_count"
                        },
                    )
                } else {
                    (Repr::Float, SomeValue::float(), "ll_float_is_integer")
                };
                let x = self.input(&recv, &r)?;
                let (v, t) =
                    self.call_helper_in(super::builtins::RBUILTIN, helper, vec![(x, s)])?;
                let have = if t == rpy3_model::lltype::BOOL {
                    Repr::Bool
                } else {
                    Repr::Int(rpy3_annotator::model::IntKind::Signed)
                };
                let v = self.convert(v, &have, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "compute_hash" | "hash",
                s_self: None,
            } if positional.len() == 1 => {
                let r = self.repr_of(&positional[0])?;
                let x = self.input(&positional[0], &r)?;
                let h = self.hash_of(x, &r)?;
                let v =
                    self.convert(h, &Repr::Int(rpy3_annotator::model::IntKind::Signed), &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: name @ ("min" | "max"),
                s_self: None,
            } if !positional.is_empty()
                && !keywords.is_empty()
                && keywords.iter().all(|(k, _)| k == "key" || k == "default") =>
            {
                // the arguments are the items (min(a, b, key=f))
                let s_res = self.rt.ann.binding(self.g, op.result).without_const();
                self.rt
                    .list_items
                    .borrow_mut()
                    .entry(want.clone())
                    .or_insert(s_res);
                let key = keywords
                    .iter()
                    .find(|(k, _)| k == "key")
                    .map(|(_, v)| v.clone())
                    .filter(|v| !matches!(self.s(v), SomeValue::None_));
                let default = keywords
                    .iter()
                    .find(|(k, _)| k == "default")
                    .map(|(_, v)| v.clone());
                let v =
                    self.min_max_key(name, &positional, key.as_ref(), default.as_ref(), &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin {
                name: "math.isclose",
                s_self: None,
            } if !keywords.is_empty() => {
                // rel_tol and abs_tol by position, with their defaults
                let mut args = positional.clone();
                for (k, default) in [("rel_tol", 1e-09), ("abs_tol", 0.0)] {
                    args.push(match keywords.iter().find(|(n, _)| n == k) {
                        Some((_, v)) => v.clone(),
                        None => Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                            &pyo3::types::PyFloat::new(self.py, default),
                        ))),
                    });
                }
                let v = self.builtin_call("math.isclose", &args, op)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Builtin { name, s_self: None } => {
                // a built-in that is an operation, called through a
                // variable (`map(str, xs)`): that operation
                let as_op = match *name {
                    "str" => Some(rpy3_model::OpName::Str),
                    "repr" => Some(rpy3_model::OpName::Repr),
                    "len" => Some(rpy3_model::OpName::Len),
                    "abs" => Some(rpy3_model::OpName::Abs),
                    "bool" => Some(rpy3_model::OpName::Bool),
                    _ => None,
                };
                if let (Some(opname), 1, true) = (as_op, positional.len(), keywords.is_empty()) {
                    let direct = SpaceOperation {
                        opname,
                        args: positional.clone(),
                        result: op.result,
                        lineno: op.lineno,
                    };
                    return self.lower_op(&direct, None);
                }
                if let Some(v) = self.iter_builtin(name, &positional, &want)? {
                    self.finish(op.result, v);
                    return Ok(());
                }
                if let Some(v) = self.dict_builtin(name, &positional, &want)? {
                    self.finish(op.result, v);
                    return Ok(());
                }
                if let Some(v) = self.list_builtin(name, &positional, &keywords, &want)? {
                    self.finish(op.result, v);
                    return Ok(());
                }
                let v = self.builtin_call(name, &positional, op)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Pbc { descs, .. } if descs.len() == 1 => {
                let d = *descs.iter().next().expect("one");
                match &self.rt.ann.descs[d] {
                    Desc::Function(fd)
                        if fd.specialize == rpy3_annotator::description::Specialize::Memo =>
                    {
                        // run at annotation time: the result is a constant
                        let s_res = self.rt.ann.binding(self.g, op.result);
                        if !is_constant(&s_res) && want != Repr::Void {
                            let func = fd.func.clone();
                            let v = self.memo_table(&func, &positional, &want)?;
                            self.finish(op.result, v);
                            return Ok(());
                        }
                        let c = constant_of(self.rt, self.py, &s_res, &want)?;
                        self.finish(op.result, c);
                        Ok(())
                    }
                    Desc::Function(_) => {
                        let f = self.callee(d)?;
                        let (v, rr) = self.direct_call(f, positional, keywords)?;
                        let v = self.convert(v, &rr, &want)?;
                        self.finish(op.result, v);
                        Ok(())
                    }
                    Desc::Method { func, .. } => {
                        let func = *func;
                        let f = self.callee(func)?;
                        // a prebuilt bound method (`m = r.meth` at module
                        // level): its instance
                        let receiver = match &op.args[0] {
                            Hlvalue::Constant(c) => match c.value.bind(self.py).getattr("__self__") {
                                Ok(me) => Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(&me))),
                                Err(_) => op.args[0].clone(),
                            },
                            v => v.clone(),
                        };
                        let mut args = vec![receiver];
                        args.extend(positional);
                        let (v, rr) = self.direct_call(f, args, keywords)?;
                        let v = self.convert(v, &rr, &want)?;
                        self.finish(op.result, v);
                        Ok(())
                    }
                    Desc::Class { cls, .. } => {
                        let cls = cls.clone();
                        let v = self.instantiate(&cls, positional, keywords)?;
                        self.finish(op.result, v);
                        Ok(())
                    }
                    Desc::MethodOfFrozen { func, frozen } => {
                        // a method of a frozen object or a classmethod: the
                        // object (a constant) comes first
                        let (func, frozen) = (*func, *frozen);
                        let f = self.callee(func)?;
                        let obj = self
                            .rt
                            .ann
                            .desc_object(frozen)
                            .ok_or_else(|| RTypeError::new("frozen object"))?;
                        let mut args = vec![Hlvalue::Constant(Constant::new(obj))];
                        args.extend(positional);
                        let (v, rr) = self.direct_call(f, args, keywords)?;
                        let v = self.convert(v, &rr, &want)?;
                        self.finish(op.result, v);
                        Ok(())
                    }
                    _ => Err(RTypeError::unsupported("calling this prebuilt object")),
                }
            }
            SomeValue::Pbc { descs, .. }
                if descs.len() > 1
                    && descs
                        .iter()
                        .all(|d| matches!(self.rt.ann.descs[*d], Desc::Method { .. })) =>
            {
                // methods of different names: the pair tells which
                if let Repr::MethodSet(_) = self.repr_of(&op.args[0])? {
                    let descs: Vec<_> = descs.iter().copied().collect();
                    return self.call_method_set(op, &descs, &positional, &keywords, &want);
                }
                // a method of several classes: dispatch on the receiver's class
                let Repr::Instance(base) = self.repr_of(&op.args[0])? else {
                    return Err(RTypeError::new(
                        "internal error: method set without an instance",
                    ));
                };
                let mut cases = Vec::new();
                for d in descs.iter() {
                    if let Desc::Method {
                        func, selfclassdef, ..
                    } = &self.rt.ann.descs[*d]
                    {
                        let (func, c) = (*func, *selfclassdef);
                        cases.push((c, self.callee(func)?));
                    }
                }
                if !self.rt.methods_share_a_type(&cases) || !self.rt.family_covers(base, &cases) {
                    // different signatures, or classes without the method
                    // (AttributeError with CPython's message): a generated
                    // dispatcher tests the receiver's class and calls each
                    // method directly
                    let v = self.call_method_family(op, base, descs, positional, keywords)?;
                    let v = self.convert(v.0, &v.1, &want)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
                let dispatcher = self.rt.method_dispatcher(self.py, base, cases.clone())?;
                // the receiver as the base class, computed before the call
                let me = self.input(&op.args[0], &Repr::Instance(base))?;
                let fc = self.func_const(dispatcher)?;
                let mut args = vec![op.args[0].clone()];
                args.extend(positional);
                // the arguments and result as a case that returns gives
                // them (not one that only raises)
                let result_of = |rt: &crate::RTyper<'_>, f: usize| match rt.funcs_ty(f).def() {
                    rpy3_model::lltype::TypeDef::Func { result, .. } => Some(result),
                    _ => None,
                };
                let want_result = result_of(self.rt, dispatcher);
                let model = cases
                    .iter()
                    .map(|&(_, f)| f)
                    .find(|&f| result_of(self.rt, f) == want_result)
                    .unwrap_or(cases[0].1);
                // results of different classes come back as their base,
                // generators of different functions as their header
                let result = self
                    .rt
                    .dispatch_result_class(&cases)
                    .map(Repr::Instance)
                    .or_else(|| self.rt.dispatch_result_generators(&cases).map(Repr::GeneratorSet));
                let (v, rr) =
                    self.direct_call_with(model, args, keywords, Some(me), Some(fc), result)?;
                let v = self.convert(v, &rr, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Pbc { descs, .. }
                if descs.len() > 1
                    && descs
                        .iter()
                        .all(|d| matches!(self.rt.ann.descs[*d], Desc::MethodOfFrozen { .. })) =>
            {
                // one function bound to one of several frozen objects
                let funcs: std::collections::BTreeSet<_> = descs
                    .iter()
                    .filter_map(|d| match &self.rt.ann.descs[*d] {
                        Desc::MethodOfFrozen { func, .. } => Some(*func),
                        _ => None,
                    })
                    .collect();
                if funcs.len() != 1 {
                    // classmethods of several classes (a variable holding
                    // classes): a dispatcher comparing the class
                    if self.repr_of(&op.args[0])? != Repr::Class {
                        return Err(RTypeError::unsupported(
                            "calling different methods of several frozen objects",
                        ));
                    }
                    let mut methods = Vec::new();
                    let mut classes = std::collections::BTreeSet::new();
                    for d in descs.iter() {
                        let Desc::MethodOfFrozen { func, frozen } = &self.rt.ann.descs[*d] else {
                            unreachable!("methods of frozen objects")
                        };
                        classes.insert(*frozen);
                        let (f, k) = (
                            self.rt.ann.desc_object(*func),
                            self.rt.ann.desc_object(*frozen),
                        );
                        let (Some(f), Some(k)) = (f, k) else {
                            return Err(RTypeError::new("a classmethod without its objects"));
                        };
                        methods.push(f.bind(self.py).clone());
                        methods.push(k.bind(self.py).clone());
                    }
                    let s_classes = SomeValue::Pbc {
                        descs: std::sync::Arc::new(classes),
                        can_be_none: false,
                    };
                    let (v, rr) = self.call_dispatcher(
                        "classmethod_dispatcher",
                        None,
                        methods,
                        op.args[0].clone(),
                        s_classes,
                        positional,
                        keywords,
                    )?;
                    let v = self.convert(v, &rr, &want)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
                let func = *funcs.iter().next().expect("one");
                let f = self.callee(func)?;
                // (the frozen object, or the class of a classmethod)
                let mr = self.repr_of(&op.args[0])?;
                let me = self.input(&op.args[0], &mr)?;
                let placeholder = Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                    &self.py.None().into_bound(self.py),
                )));
                let mut args = vec![placeholder];
                args.extend(positional);
                let (v, rr) = self.direct_call_with(f, args, keywords, Some(me), None, None)?;
                let v = self.convert(v, &rr, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Pbc { descs, .. }
                if descs.len() > 1
                    && descs
                        .iter()
                        .all(|d| matches!(self.rt.ann.descs[*d], Desc::Function(_))) =>
            {
                // one of several functions: an indirect call through the pointer
                let r = self.repr_of(&op.args[0])?;
                if let Repr::FuncSet(funcs) = &r {
                    // different signatures: a dispatcher taking this call's
                    // arguments calls each directly
                    let funcs = funcs.iter().map(|f| f.bind(self.py).clone()).collect();
                    let (v, rr) = self.call_dispatcher(
                        "function_dispatcher",
                        None,
                        funcs,
                        op.args[0].clone(),
                        SomeValue::nonneg_int(),
                        positional,
                        keywords,
                    )?;
                    let v = self.convert(v, &rr, &want)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
                let fptr = self.input(&op.args[0], &r)?;
                let first = *descs.iter().next().expect("non-empty");
                let f0 = self.callee(first)?;
                let (v, rr) =
                    self.direct_call_with(f0, positional, keywords, None, Some(fptr), None)?;
                if let Some(last) = self.ops.last_mut() {
                    last.opname = OpName::Ll(LlOp::IndirectCall);
                    last.args.push(value_const(self.py, LlValue::Void, VOID)?);
                }
                let v = self.convert(v, &rr, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Pbc { descs, .. }
                if descs.len() > 1
                    && descs
                        .iter()
                        .all(|d| matches!(self.rt.ann.descs[*d], Desc::Class { .. })) =>
            {
                let classes: Vec<rpy3_model::PyObj> = descs
                    .iter()
                    .filter_map(|d| self.rt.ann.desc_object(*d))
                    .collect();
                let v = self.instantiate_one_of(op, &classes, positional, keywords)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Type {
                classdef: Some(c),
                konst: None,
            } => {
                // the class of an instance: one of the classes below its
                // class definition (as the annotator called them)
                let classes: Vec<rpy3_model::PyObj> = self
                    .rt
                    .ann
                    .subtree(*c)
                    .into_iter()
                    .map(|cd| self.rt.ann.classdefs[cd].cls.clone())
                    .collect();
                let v = self.instantiate_one_of(op, &classes, positional, keywords)?;
                self.finish(op.result, v);
                Ok(())
            }
            SomeValue::Type { konst: Some(k), .. } => {
                let k = k.clone();
                let v = self.instantiate(&k, positional, keywords)?;
                self.finish(op.result, v);
                Ok(())
            }
            other => Err(RTypeError::unsupported(&format!(
                "calling {}",
                rpy3_annotator::describe(other)
            ))),
        }
    }

    /// Calls the dispatcher `rpy3._dispatch.<kind>` made for `candidates`
    /// and this call's shape, with `first` (annotated `s_first`: the
    /// function's index, the receiver or the class) and the call's
    /// arguments.
    fn call_dispatcher(
        &mut self,
        kind: &str,
        base: Option<Bound<'_, PyAny>>,
        candidates: Vec<Bound<'_, PyAny>>,
        first: Hlvalue,
        s_first: SomeValue,
        positional: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<(Hlvalue, Repr), RTypeError> {
        let py = self.py;
        let err = |e: PyErr| RTypeError::new(format!("making a call dispatcher: {e}"));
        let cands = pyo3::types::PyList::new(py, candidates).map_err(err)?;
        let kwnames: Vec<String> = keywords.iter().map(|(k, _)| k.clone()).collect();
        let dispatcher = py
            .import("rpy3._dispatch")
            .and_then(|m| m.getattr(kind))
            .and_then(|f| match base {
                Some(b) => f.call1((cands, positional.len(), kwnames, b)),
                None => f.call1((cands, positional.len(), kwnames)),
            })
            .map_err(err)?;
        let mut anns = vec![s_first];
        for a in positional.iter().chain(keywords.iter().map(|(_, v)| v)) {
            anns.push(self.s(a).without_const());
        }
        let f = self.rt.helper_for(py, &dispatcher, anns)?;
        let mut args = vec![first];
        args.extend(positional);
        args.extend(keywords.into_iter().map(|(_, v)| v));
        self.direct_call(f, args, Vec::new())
    }

    /// A method of several classes whose signatures differ, called through
    /// `rpy3._dispatch.method_dispatcher` (most derived classes first).
    fn call_method_family(
        &mut self,
        op: &SpaceOperation,
        base: ClassDefId,
        descs: &std::collections::BTreeSet<rpy3_annotator::DescId>,
        positional: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<(Hlvalue, Repr), RTypeError> {
        let py = self.py;
        let depth = |ann: &rpy3_annotator::Annotator, mut c: ClassDefId| {
            let mut d = 0;
            while let Some(b) = ann.classdefs[c].base {
                d += 1;
                c = b;
            }
            d
        };
        let mut cases = Vec::new();
        for d in descs.iter() {
            if let Desc::Method {
                func, selfclassdef, ..
            } = &self.rt.ann.descs[*d]
            {
                let f = self
                    .rt
                    .ann
                    .desc_object(*func)
                    .ok_or_else(|| RTypeError::new("method without a function"))?;
                cases.push((depth(self.rt.ann, *selfclassdef), *selfclassdef, f));
            }
        }
        cases.sort_by_key(|(d, c, _)| (std::cmp::Reverse(*d), *c));
        let candidates = cases
            .iter()
            .map(|(_, c, f)| {
                let cls = self.rt.ann.classdefs[*c].cls.bind(py).clone();
                pyo3::types::PyTuple::new(py, [cls, f.bind(py).clone()]).map(|t| t.into_any())
            })
            .collect::<PyResult<Vec<_>>>()
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let s_self = SomeValue::Instance {
            classdef: base,
            can_be_none: false,
        };
        let base_cls = self.rt.ann.classdefs[base].cls.bind(py).clone();
        self.call_dispatcher(
            "method_dispatcher",
            Some(base_cls),
            candidates,
            op.args[0].clone(),
            s_self,
            positional,
            keywords,
        )
    }

    /// An operation on an instance lowered as the call of a special
    /// method of its class (the annotator recorded which).
    pub(super) fn special_call(
        &mut self,
        op: &SpaceOperation,
        sc: &rpy3_annotator::SpecialCall,
    ) -> Result<(), RTypeError> {
        if op.opname == rpy3_model::OpName::CallArgs && sc.method == "__call__" {
            // an instance called with keywords: the call as it is, the
            // instance standing for its bound __call__
            self.callee_override = Some(sc.s_method.clone());
            let lowered = self.call(op);
            self.callee_override = None;
            return lowered;
        }
        // (a helper function standing for a protocol: it comes first and
        // takes the receiver)
        let function = match &sc.s_method {
            SomeValue::Pbc { descs, .. }
                if descs.len() == 1 && sc.method.starts_with(rpy3_annotator::PROTOCOL_HELPER) =>
            {
                let d = *descs.iter().next().expect("one");
                match &self.rt.ann.descs[d] {
                    rpy3_annotator::description::Desc::Function(_) => self.rt.ann.desc_object(d),
                    _ => None,
                }
            }
            _ => None,
        };
        let mut args = match &function {
            Some(f) => vec![Hlvalue::Constant(Constant::new(f.clone())), op.args[sc.receiver].clone()],
            None => vec![op.args[sc.receiver].clone()],
        };
        args.extend(sc.args.iter().map(|&i| op.args[i].clone()));
        let ascii = op.opname == rpy3_model::OpName::Ascii;
        let result = if sc.negate {
            let v = self.graph.new_var("");
            self.graph.vars[v].concretetype = Some(BOOL);
            self.lowered.insert(v, Repr::Bool);
            v
        } else if ascii {
            let v = self.graph.new_var("");
            self.graph.vars[v].concretetype = Some(Repr::Str.lowleveltype(self.rt));
            self.lowered.insert(v, Repr::Str);
            self.synthetic.insert(v, SomeValue::str());
            v
        } else {
            op.result
        };
        let call = SpaceOperation {
            opname: rpy3_model::OpName::SimpleCall,
            args,
            result,
            lineno: op.lineno,
        };
        if function.is_none() {
            self.callee_override = Some(sc.s_method.clone());
        }
        let lowered = self.call(&call);
        self.callee_override = None;
        lowered?;
        if sc.negate {
            // `!=` through `__eq__`: the call's result as a bool, negated
            let v = self.emit(LlOp::BoolNot, vec![Hlvalue::Variable(result)], BOOL);
            self.finish(op.result, v);
        }
        if ascii {
            // ascii(x): its __repr__, non-ASCII characters escaped
            let st = Repr::Str.lowleveltype(self.rt);
            let v = self.call_str_helper("ll_ascii_escape", vec![Hlvalue::Variable(result)], st)?;
            let want = self.result_repr(op)?;
            let v = self.convert(v, &Repr::Str, &want)?;
            self.finish(op.result, v);
        }
        Ok(())
    }

    /// The keyword arguments a built-in (or a method of a string) takes
    /// moved into place among the positional ones, as the annotator did.
    #[allow(clippy::type_complexity)]
    fn builtin_keywords(
        &mut self,
        callee: &Hlvalue,
        mut positional: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<(Vec<Hlvalue>, Vec<(String, Hlvalue)>), RTypeError> {
        if keywords.is_empty() {
            return Ok((positional, keywords));
        }
        let (name, of_str): (String, bool) = match self.s(callee) {
            SomeValue::Builtin { name, s_self } => (
                name.to_string(),
                matches!(s_self.as_deref(), Some(SomeValue::Str { .. })),
            ),
            _ => match callee {
                // a method of a constant string
                Hlvalue::Constant(c) => {
                    let obj = c.value.bind(self.py);
                    let recv_is_str = obj
                        .getattr("__self__")
                        .map(|r| {
                            r.is_instance_of::<pyo3::types::PyString>()
                                || r.is_instance_of::<pyo3::types::PyBytes>()
                        })
                        .unwrap_or(false);
                    match obj.getattr("__name__").and_then(|n| n.extract::<String>()) {
                        Ok(n) if recv_is_str => (n, true),
                        _ => return Ok((positional, keywords)),
                    }
                }
                _ => return Ok((positional, keywords)),
            },
        };
        let names: Vec<String> = keywords.iter().map(|(k, _)| k.clone()).collect();
        let Some(slots) = rpy3_annotator::keyword_slots(&name, of_str, positional.len(), &names)
        else {
            return Ok((positional, keywords));
        };
        let slots = slots.map_err(RTypeError::new)?;
        for s in slots {
            positional.push(match s {
                rpy3_annotator::KeywordSlot::Keyword(k) => keywords[k].1.clone(),
                rpy3_annotator::KeywordSlot::Default(lit) => {
                    let v = self
                        .py
                        .eval(&std::ffi::CString::new(lit).expect("a literal"), None, None)
                        .map_err(|e| RTypeError::new(e.to_string()))?;
                    Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(&v)))
                }
            });
        }
        Ok((positional, Vec::new()))
    }

    pub(super) fn instantiate(
        &mut self,
        cls: &rpy3_model::PyObj,
        args: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<Hlvalue, RTypeError> {
        let c = self.rt.classdef_of_class(self.py, cls.bind(self.py))?;
        let st = self.rt.classes.structs[&c];
        let pt = self.rt.classes.ptrs[&c];
        let tc = type_const(self.py, st)?;
        let p = self.emit(LlOp::Malloc, vec![tc], pt);
        let obj = self.object_ptr_of(p.clone())?;
        let vt = self.rt.classes.vtable(c);
        let vtc = value_const(self.py, LlValue::Ptr(Some(vt)), self.rt.objmodel.vtable_ptr)?;
        self.emit(
            LlOp::Setfield,
            vec![obj, name(self.py, "typeptr"), vtc],
            VOID,
        );
        self.init_class_defaults(c, &p)?;
        // an exception keeps the text of the call's arguments (and the
        // name of its class, for repr())
        self.set_exception_name(p.clone(), c)?;
        if !args.is_empty() {
            self.set_exception_message(p.clone(), c, &args)?;
        }
        // __init__, if the program defines one (the annotator recorded it)
        let sites = self
            .rt
            .ann
            .call_sites
            .get(&(self.g, self.block, self.index))
            .cloned()
            .unwrap_or_default();
        if let Some((_, &g)) = sites.iter().next() {
            let f = self
                .rt
                .func_index(g)
                .ok_or_else(|| RTypeError::new("__init__ graph"))?;
            let selfv = self.rt.ann.graphs[g].graph.blocks[self.rt.ann.graphs[g].graph.startblock]
                .inputargs[0];
            let want_self = self.rt.getrepr(&self.rt.ann.binding(g, selfv))?;
            let me = self.convert(p.clone(), &Repr::Instance(c), &want_self)?;
            let placeholder = Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                &self.py.None().into_bound(self.py),
            )));
            let mut all = vec![placeholder];
            all.extend(args);
            self.direct_call_with(f, all, keywords, Some(me), None, None)?;
        }
        Ok(p)
    }

    /// A memo function called with one of several frozen objects: its
    /// results, computed now in CPython, in a table searched by identity.
    fn memo_table(
        &mut self,
        func: &rpy3_model::PyObj,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        use crate::helpers::GraphBuilder;
        let py = self.py;
        // each argument: its repr and the values it can have (the same
        // enumeration as the annotator's call of the memo function)
        let mut reprs = Vec::new();
        let mut choices: Vec<Vec<rpy3_model::PyObj>> = Vec::new();
        for a in args {
            let r = self.repr_of(a)?;
            let values: Vec<rpy3_model::PyObj> = match self.s(a) {
                _ if r == Repr::Void => match a {
                    Hlvalue::Constant(c) => vec![c.value.clone()],
                    Hlvalue::Variable(_) => match self.s(a).konst() {
                        Some(k) => vec![k.clone()],
                        None if matches!(self.s(a), SomeValue::None_) => {
                            vec![rpy3_model::PyObj::new(&py.None().into_bound(py))]
                        }
                        None => match self.s(a) {
                            SomeValue::Pbc { descs, .. } => descs
                                .iter()
                                .filter_map(|d| self.rt.ann.desc_object(*d))
                                .collect(),
                            _ => return Err(RTypeError::new("memo argument")),
                        },
                    },
                },
                SomeValue::Pbc { descs, .. } => descs
                    .iter()
                    .filter_map(|d| self.rt.ann.desc_object(*d))
                    .collect(),
                SomeValue::Bool { .. } => vec![
                    rpy3_model::PyObj::new(&pyo3::types::PyBool::new(py, false).to_owned().into_any()),
                    rpy3_model::PyObj::new(&pyo3::types::PyBool::new(py, true).to_owned().into_any()),
                ],
                SomeValue::Type {
                    classdef: Some(c), ..
                } => self
                    .rt
                    .ann
                    .subtree(c)
                    .into_iter()
                    .map(|k| self.rt.ann.classdefs[k].cls.clone())
                    .collect(),
                _ => {
                    return Err(RTypeError::unsupported(
                        "a specialize:memo function of an argument that is not a prebuilt constant or a bool",
                    ))
                }
            };
            if !matches!(r, Repr::Void | Repr::Frozen | Repr::Class | Repr::Bool) {
                return Err(RTypeError::unsupported(&format!(
                    "a specialize:memo function of an argument of repr {r:?}"
                )));
            }
            reprs.push(r);
            choices.push(values);
        }
        let combos = rpy3_annotator::description::combinations(&choices);
        // the helper: (the arguments that are not constants) -> result
        let params: Vec<usize> = (0..args.len()).filter(|&i| reprs[i] != Repr::Void).collect();
        let ptypes: Vec<LlType> = params.iter().map(|&i| reprs[i].lowleveltype(self.rt)).collect();
        let rt_ty = want.lowleveltype(self.rt);
        let (mut b, inputs) = GraphBuilder::new(self.rt, "memo_table", &ptypes, rt_ty);
        let mut check = b.graph.startblock;
        let mut cvars = inputs.clone();
        for (n, combo) in combos.iter().enumerate() {
            let argv: Vec<Bound<'_, PyAny>> = combo.iter().map(|o| o.bind(py).clone()).collect();
            let tuple = pyo3::types::PyTuple::new(py, argv).map_err(|e| RTypeError::new(e.to_string()))?;
            let result = func
                .bind(py)
                .call1(tuple)
                .map_err(|e| RTypeError::new(format!("memo function raised {e}")))?;
            let llv = self.rt.convert_const(py, want, &result)?;
            let c = value_const(py, llv, rt_ty)?;
            if n + 1 == combos.len() {
                b.ret(check, c);
                break;
            }
            // this combination: every parameter equal to its value
            let (next, nvars) = b.block(&ptypes);
            let mut here = check;
            let mut hvars = cvars.clone();
            for (j, &i) in params.iter().enumerate() {
                let v = Hlvalue::Variable(hvars[j]);
                let cond = match &reprs[i] {
                    Repr::Bool => {
                        let truth = combo[i].bind(py).is_truthy().unwrap_or(false);
                        if truth {
                            hvars[j]
                        } else {
                            b.op(here, LlOp::BoolNot, vec![v], BOOL)
                        }
                    }
                    r => {
                        let me = value_const(py, self.rt.convert_const(py, r, combo[i].bind(py))?, ptypes[j])?;
                        b.op(here, LlOp::PtrEq, vec![v, me], BOOL)
                    }
                };
                let (then, tvars) = b.block(&ptypes);
                let pass: Vec<Hlvalue> = hvars.iter().map(|&x| Hlvalue::Variable(x)).collect();
                b.branch(py, here, cond, (next, pass.clone()), (then, pass));
                here = then;
                hvars = tvars;
            }
            b.ret(here, c);
            check = next;
            cvars = nvars;
        }
        let idx = self
            .rt
            .add_helper("memo_table", b.graph, LlType::func(ptypes.clone(), rt_ty));
        let mut call = vec![self.func_const(idx)?];
        for &i in &params {
            call.push(self.input(&args[i], &reprs[i])?);
        }
        Ok(self.emit(LlOp::DirectCall, call, rt_ty))
    }

    /// A new instance of class `c`: its vtable and class-level defaults set.
    fn allocate(&mut self, c: ClassDefId) -> Result<Hlvalue, RTypeError> {
        let st = self.rt.classes.structs[&c];
        let pt = self.rt.classes.ptrs[&c];
        let tc = type_const(self.py, st)?;
        let p = self.emit(LlOp::Malloc, vec![tc], pt);
        let obj = self.object_ptr_of(p.clone())?;
        let vt = self.rt.classes.vtable(c);
        let vtc = value_const(self.py, LlValue::Ptr(Some(vt)), self.rt.objmodel.vtable_ptr)?;
        self.emit(
            LlOp::Setfield,
            vec![obj, name(self.py, "typeptr"), vtc],
            VOID,
        );
        self.init_class_defaults(c, &p)?;
        Ok(p)
    }

    /// `C(args)` where `C` is one of several classes (its vtable at run
    /// time): a dispatcher comparing the vtable with each class's allocates
    /// and initialises the instance.
    fn instantiate_one_of(
        &mut self,
        op: &SpaceOperation,
        classes: &[rpy3_model::PyObj],
        args: Vec<Hlvalue>,
        keywords: Vec<(String, Hlvalue)>,
    ) -> Result<Hlvalue, RTypeError> {
        let want = self.result_repr(op)?;
        let Repr::Instance(base) = want else {
            return Err(RTypeError::new("instantiation without an instance result"));
        };
        let sites = self
            .rt
            .ann
            .call_sites
            .get(&(self.g, self.block, self.index))
            .cloned()
            .unwrap_or_default();
        let mut cases = Vec::new();
        for cls in classes {
            let c = self.rt.classdef_of_class(self.py, cls.bind(self.py))?;
            let init = cls
                .bind(self.py)
                .getattr("__init__")
                .ok()
                .filter(|i| i.is_instance_of::<pyo3::types::PyFunction>());
            let f = match init {
                Some(i) => {
                    let d = self
                        .rt
                        .ann
                        .lookup_desc(&rpy3_model::PyObj::new(&i))
                        .ok_or_else(|| RTypeError::new("__init__ without a description"))?;
                    let g = sites.get(&d).ok_or_else(|| {
                        RTypeError::new("internal error: __init__ call not recorded")
                    })?;
                    Some(
                        self.rt
                            .func_index(*g)
                            .ok_or_else(|| RTypeError::new("__init__ graph"))?,
                    )
                }
                None => None,
            };
            cases.push((c, f));
        }
        // argument types from the first __init__ (all must agree)
        let first_init = cases.iter().find_map(|(_, f)| *f);
        let arg_types: Vec<LlType> = match first_init {
            Some(f) => match self.rt.funcs_ty(f).def() {
                rpy3_model::lltype::TypeDef::Func { args, .. } => args[1..].to_vec(),
                _ => Vec::new(),
            },
            None => Vec::new(),
        };
        let inits: Vec<usize> = cases.iter().filter_map(|(_, f)| *f).collect();
        let inits_agree = self.rt.defaults_agree(&inits);
        for (_, f) in &cases {
            let ok = inits_agree && match f {
                Some(f) => {
                    matches!(self.rt.funcs_ty(*f).def(), rpy3_model::lltype::TypeDef::Func { args, .. } if args[1..] == arg_types[..])
                }
                None => arg_types.is_empty(),
            };
            if !ok {
                // different signatures: a generated dispatcher compares the
                // class with each and instantiates it directly
                let candidates = classes.iter().map(|c| c.bind(self.py).clone()).collect();
                let s_cls = self.s(&op.args[0]);
                let (v, rr) = self.call_dispatcher(
                    "class_dispatcher",
                    None,
                    candidates,
                    op.args[0].clone(),
                    s_cls,
                    args,
                    keywords,
                )?;
                return self.convert(v, &rr, &want);
            }
        }
        let dispatcher = self.class_dispatcher(base, &cases, &arg_types)?;
        let vt = self.input(&op.args[0], &Repr::Class)?;
        let fc = self.func_const(dispatcher)?;
        let base_ptr = self.rt.classes.instance_ptr(base);
        match first_init {
            Some(f) => {
                let placeholder = Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                    &self.py.None().into_bound(self.py),
                )));
                let mut all = vec![placeholder];
                all.extend(args);
                let (v, _) = self.direct_call_with(f, all, keywords, Some(vt), Some(fc), None)?;
                if let Hlvalue::Variable(var) = &v {
                    self.graph.vars[*var].concretetype = Some(base_ptr);
                }
                Ok(v)
            }
            None => Ok(self.emit(LlOp::DirectCall, vec![fc, vt], base_ptr)),
        }
    }

    /// The dispatcher of `instantiate_one_of`.
    fn class_dispatcher(
        &mut self,
        base: ClassDefId,
        cases: &[(ClassDefId, Option<usize>)],
        arg_types: &[LlType],
    ) -> Result<usize, RTypeError> {
        use crate::helpers::GraphBuilder;
        let py = self.py;
        let vt_t = self.rt.objmodel.vtable_ptr;
        let base_ptr = self.rt.classes.instance_ptr(base);
        let mut params = vec![vt_t];
        params.extend_from_slice(arg_types);
        let (mut b, inputs) = GraphBuilder::new(self.rt, "instantiate_dispatch", &params, base_ptr);
        let mut check = b.graph.startblock;
        let mut cvars = inputs.clone();
        for (i, &(c, init)) in cases.iter().enumerate() {
            let (alloc, avars) = b.block(&params);
            let pass: Vec<Hlvalue> = cvars.iter().map(|&v| Hlvalue::Variable(v)).collect();
            if i + 1 == cases.len() {
                b.goto(check, alloc, pass);
            } else {
                let vt = value_const(py, LlValue::Ptr(Some(self.rt.classes.vtable(c))), vt_t)?;
                let eq = b.op(
                    check,
                    LlOp::PtrEq,
                    vec![Hlvalue::Variable(cvars[0]), vt],
                    BOOL,
                );
                let (next, nvars) = b.block(&params);
                b.branch(py, check, eq, (next, pass.clone()), (alloc, pass));
                check = next;
                cvars = nvars;
            }
            // allocate, set the class and the defaults, call __init__
            let mut sub = Cx::new(&mut *self.rt, py, self.g, alloc, &mut b.graph);
            let st = sub.rt.classes.structs[&c];
            let pt = sub.rt.classes.ptrs[&c];
            let tc = type_const(py, st)?;
            let p = sub.emit(LlOp::Malloc, vec![tc], pt);
            let obj = sub.object_ptr_of(p.clone())?;
            let vtc = value_const(py, LlValue::Ptr(Some(sub.rt.classes.vtable(c))), vt_t)?;
            sub.emit(LlOp::Setfield, vec![obj, name(py, "typeptr"), vtc], VOID);
            sub.init_class_defaults(c, &p)?;
            if let Some(f) = init {
                let fty = sub.rt.funcs_ty(f);
                let (self_t, res_t) = match fty.def() {
                    rpy3_model::lltype::TypeDef::Func { args, result } => (args[0], result),
                    _ => unreachable!("function type"),
                };
                let me = sub.emit(
                    LlOp::CastPointer,
                    vec![type_const(py, self_t)?, p.clone()],
                    self_t,
                );
                let mut cargs = vec![sub.func_const(f)?, me];
                cargs.extend(avars[1..].iter().map(|&v| Hlvalue::Variable(v)));
                sub.emit(LlOp::DirectCall, cargs, res_t);
            }
            let r = sub.emit(
                LlOp::CastPointer,
                vec![type_const(py, base_ptr)?, p],
                base_ptr,
            );
            let ops = std::mem::take(&mut sub.ops);
            b.graph.blocks[alloc].operations = ops;
            b.ret(alloc, r);
        }
        let ty = LlType::func(params, base_ptr);
        Ok(self.rt.add_helper("instantiate_dispatch", b.graph, ty))
    }

    /// Stores the class-level defaults of attributes that live on instances.
    fn init_class_defaults(&mut self, c: ClassDefId, p: &Hlvalue) -> Result<(), RTypeError> {
        let cls = self.rt.ann.classdefs[c].cls.clone();
        let mut k = Some(c);
        while let Some(x) = k {
            let fields = self.rt.classes.fields.get(&x).cloned().unwrap_or_default();
            for (attr, r) in fields {
                if r == Repr::Void {
                    continue;
                }
                let Ok(v) = cls.bind(self.py).getattr(attr.as_str()) else {
                    continue;
                };
                let static_method = cls
                    .bind(self.py)
                    .getattr("__mro__")
                    .ok()
                    .and_then(|mro| {
                        mro.try_iter().ok()?.flatten().find_map(|k| {
                            k.getattr("__dict__")
                                .ok()?
                                .get_item(attr.as_str())
                                .ok()
                        })
                    })
                    .is_some_and(|raw| raw.get_type().name().is_ok_and(|n| n == "staticmethod"));
                if (v.is_callable() && !static_method)
                    || rpy3_annotator::classdef::is_slot_descriptor(&v)
                {
                    continue;
                }
                let llv = self.rt.convert_const(self.py, &r, &v)?;
                let cst = value_const(self.py, llv, r.lowleveltype(self.rt))?;
                let target = self.field_ptr(p.clone(), c, x)?;
                self.emit(
                    LlOp::Setfield,
                    vec![target, name(self.py, &field_name(&attr)), cst],
                    VOID,
                );
            }
            k = self.rt.ann.classdefs[x].base;
        }
        Ok(())
    }

    /// A pointer to the part of instance `p` (of class `c`) that is class `owner`.
    pub(super) fn field_ptr(
        &mut self,
        p: Hlvalue,
        c: ClassDefId,
        owner: ClassDefId,
    ) -> Result<Hlvalue, RTypeError> {
        if c == owner {
            return Ok(p);
        }
        let pt = self.rt.classes.ptrs[&owner];
        let tc = type_const(self.py, pt)?;
        Ok(self.emit(LlOp::CastPointer, vec![tc, p], pt))
    }

    pub(super) fn getattr(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let s_obj = self.s(&op.args[0]);
        let attr: String = match &op.args[1] {
            Hlvalue::Constant(c) => c
                .value
                .bind(self.py)
                .extract()
                .map_err(|_| RTypeError::new("attribute name"))?,
            _ => return Err(RTypeError::new("attribute name is not a constant")),
        };
        let s_res = self.rt.ann.binding(self.g, op.result);
        let want = self.result_repr(op)?;
        if matches!(s_obj, SomeValue::Integer { .. } | SomeValue::Float { .. })
            && matches!(s_res, SomeValue::Builtin { .. })
        {
            // a bound method of a number is the number
            let r = self.repr_of(&op.args[0])?;
            let x = self.input(&op.args[0], &r)?;
            let v = self.convert(x, &r, &want)?;
            self.finish(op.result, v);
            return Ok(());
        }
        if let SomeValue::Instance { classdef, .. } = s_obj {
            // a method: the bound method is the instance itself (unless
            // the attribute is a field holding a method bound to another
            // object, `self.f = other.meth`)
            let is_field = {
                let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
                self.rt.classes.owner_of(classdef, &attr, &base_of).is_some()
            };
            let methods = !is_field
                && matches!(&s_res, SomeValue::Pbc { descs, .. }
                    if descs.iter().all(|d| matches!(self.rt.ann.descs[*d], Desc::Method { .. })));
            if methods {
                let r = self.repr_of(&op.args[0])?;
                let x = self.input(&op.args[0], &r)?;
                let v = self.convert(x, &r, &want)?;
                self.finish(op.result, v);
                return Ok(());
            }
            let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
            if let Some(owner) = self.rt.classes.owner_of(classdef, &attr, &base_of) {
                let r = self.repr_of(&op.args[0])?;
                let x = self.input(&op.args[0], &r)?;
                let p = self.field_ptr(x, classdef, owner)?;
                let fr = self.rt.classes.fields[&owner]
                    .iter()
                    .find(|(n, _)| *n == attr)
                    .map(|(_, r)| r.clone())
                    .expect("field");
                let st = self.rt.classes.structs[&owner];
                let fty = st.field_type(&field_name(&attr)).expect("field type");
                let v = self.emit(
                    LlOp::Getfield,
                    vec![p, name(self.py, &field_name(&attr))],
                    fty,
                );
                let v = if fty != fr.lowleveltype(self.rt) {
                    let t = fr.lowleveltype(self.rt);
                    let tc = type_const(self.py, t)?;
                    self.emit(LlOp::CastPointer, vec![tc, v], t)
                } else {
                    v
                };
                let v = self.convert(v, &fr, &want)?;
                self.finish(op.result, v);
                return Ok(());
            }
        }
        if self.repr_of(&op.args[0])? == Repr::Frozen {
            let fr = self
                .rt
                .frozen_fields()
                .iter()
                .find(|(n, _)| *n == attr)
                .map(|(_, r)| r.clone());
            if let SomeValue::Pbc { descs, .. } = &s_res {
                if descs
                    .iter()
                    .all(|d| matches!(self.rt.ann.descs[*d], Desc::MethodOfFrozen { .. }))
                {
                    // a bound method of a frozen object is the object
                    let x = self.input(&op.args[0], &Repr::Frozen)?;
                    let v = self.convert(x, &Repr::Frozen, &want)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
            }
            if let Some(fr) = fr {
                let x = self.input(&op.args[0], &Repr::Frozen)?;
                let v = self.emit(
                    LlOp::Getfield,
                    vec![x, name(self.py, &format!("f_{attr}"))],
                    fr.lowleveltype(self.rt),
                );
                let v = self.convert(v, &fr, &want)?;
                self.finish(op.result, v);
                return Ok(());
            }
        }
        if let SomeValue::Builtin { name: "super", .. } = s_obj {
            // a method of the base, or the base's built-in __init__: bound
            // to the instance
            if let SomeValue::Pbc { .. }
            | SomeValue::Builtin {
                name: "base_init" | "exception_message",
                ..
            } = s_res
            {
                let r = self.repr_of(&op.args[0])?;
                let x = self.input(&op.args[0], &r)?;
                let v = self.convert(x, &r, &want)?;
                self.finish(op.result, v);
                return Ok(());
            }
        }
        if want == Repr::Void || is_constant(&s_res) {
            let c = constant_of(self.rt, self.py, &s_res, &want)?;
            self.finish(op.result, c);
            return Ok(());
        }
        if let (SomeValue::Builtin { s_self: Some(_), .. }, Repr::Range) = (&s_res, &want) {
            // a bound method of a range is the range
            let x = self.input(&op.args[0], &Repr::Range)?;
            self.finish(op.result, x);
            return Ok(());
        }
        if let (SomeValue::Instance { .. }, SomeValue::Pbc { descs, .. }, Repr::Class) =
            (&s_obj, &s_res, &want)
        {
            if descs
                .iter()
                .all(|d| matches!(self.rt.ann.descs[*d], Desc::MethodOfFrozen { .. }))
            {
                // a classmethod read through an instance of one of several
                // classes: bound to the instance's class (its vtable)
                let r = self.repr_of(&op.args[0])?;
                let v = self.class_of_instance(&op.args[0], &r)?;
                self.finish(op.result, v);
                return Ok(());
            }
        }
        if let SomeValue::Pbc { descs, .. } = &s_obj {
            // an attribute of the one frozen object (or class) a constant
            // is: its value
            if let [d] = descs.iter().copied().collect::<Vec<_>>()[..] {
                if let Desc::Frozen { obj, .. } | Desc::Class { cls: obj, .. } = &self.rt.ann.descs[d] {
                    let obj = obj.clone();
                    if let Ok(v) = obj.bind(self.py).getattr(attr.as_str()) {
                        let llv = self.rt.convert_const(self.py, &want, &v)?;
                        let c = value_const(self.py, llv, want.lowleveltype(self.rt))?;
                        self.finish(op.result, c);
                        return Ok(());
                    }
                }
            }
        }
        // one of several classes (`type(x)`, or a variable holding classes):
        // the range of their class numbers
        let runtime_class: Option<(i64, i64, Vec<ClassDefId>)> = match &s_obj {
            SomeValue::Type {
                classdef: Some(c),
                konst: None,
            } => self
                .rt
                .classes
                .ranges
                .get(c)
                .map(|&(lo, hi)| (lo, hi, self.rt.ann.subtree(*c))),
            SomeValue::Pbc { descs, .. }
                if descs
                    .iter()
                    .all(|d| matches!(self.rt.ann.descs[*d], Desc::Class { .. })) =>
            {
                let mut range: Option<(i64, i64, Vec<ClassDefId>)> = None;
                for d in descs.iter() {
                    let Desc::Class { cls, .. } = &self.rt.ann.descs[*d] else {
                        unreachable!("classes")
                    };
                    let k = self.rt.classdef_of_class(self.py, cls.bind(self.py))?;
                    let (lo, hi) = self.rt.classes.ranges[&k];
                    range = Some(match range {
                        None => (lo, hi, vec![k]),
                        Some((a, b, mut ks)) => {
                            ks.push(k);
                            (a.min(lo), b.max(hi), ks)
                        }
                    });
                }
                range
            }
            _ => None,
        };
        if let Some((lo, hi, members)) = runtime_class {
            if self.repr_of(&op.args[0])? == Repr::Class {
                // a class known at run time only (one of the classes
                // numbered lo..hi): the attribute's value for each of them
                // in a prebuilt list, indexed by the class's number
                let vt = self.input(&op.args[0], &Repr::Class)?;
                let values = self.class_attr_list(lo, hi, &members, &attr)?;
                let lr = Repr::list_of(want.clone());
                let values = self.rt.convert_const(self.py, &lr, values.bind(self.py))?;
                let lt = lr.lowleveltype(self.rt);
                let values = value_const(self.py, values, lt)?;
                let num = self.emit(
                    LlOp::Getfield,
                    vec![vt, name(self.py, "subclassrange_min")],
                    rpy3_model::lltype::SIGNED,
                );
                let lo = value_const(self.py, LlValue::Int(lo), rpy3_model::lltype::SIGNED)?;
                let index = self.emit(LlOp::IntSub, vec![num, lo], rpy3_model::lltype::SIGNED);
                self.rt
                    .list_items
                    .borrow_mut()
                    .entry(want.clone())
                    .or_insert_with(|| s_res.without_const());
                let (v, _) = self.call_list_helper(
                    "ll_getitem",
                    vec![(values, SomeValue::Ptr(lt)), (index, SomeValue::int())],
                )?;
                self.finish(op.result, v);
                return Ok(());
            }
        }
        Err(RTypeError::unsupported(&format!(
            "reading the attribute '{attr}' of {}",
            rpy3_annotator::describe(&s_obj)
        )))
    }

    /// The Python list of the values of attribute `attr` (`__name__`
    /// included) of the classes at or below `c`, indexed by their number
    /// less the first's (which is returned too).
    fn class_attr_list(
        &mut self,
        lo: i64,
        hi: i64,
        members: &[ClassDefId],
        attr: &str,
    ) -> Result<rpy3_model::PyObj, RTypeError> {
        let mut sorted: Vec<ClassDefId> = members.to_vec();
        sorted.sort();
        let key = (lo, hi, format!("{attr}:{sorted:?}"));
        if let Some(l) = self.rt.class_attr_lists.borrow().get(&key) {
            return Ok(l.clone());
        }
        let mut values: Vec<Option<Bound<'_, PyAny>>> = vec![None; (hi - lo).max(0) as usize];
        for (k, (klo, _)) in &self.rt.classes.ranges {
            if *klo < lo || *klo >= hi || !members.contains(k) {
                continue;
            }
            let cls = self.rt.ann.classdefs[*k].cls.bind(self.py).clone();
            // (a class without it is never reached: its slot is filled)
            let Ok(v) = cls.getattr(attr) else {
                continue;
            };
            values[(*klo - lo) as usize] = Some(v);
        }
        let filler = values
            .iter()
            .flatten()
            .next()
            .cloned()
            .ok_or_else(|| RTypeError::new(format!("no class has the attribute '{attr}'")))?;
        let values: Vec<Bound<'_, PyAny>> = values
            .into_iter()
            .map(|v| v.unwrap_or_else(|| filler.clone()))
            .collect();
        let l = pyo3::types::PyList::new(self.py, values)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let l = rpy3_model::PyObj::new(l.as_any());
        self.rt.class_attr_lists.borrow_mut().insert(key, l.clone());
        Ok(l)
    }

    pub(super) fn setattr(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        let s_obj = self.s(&op.args[0]);
        let attr: String = match &op.args[1] {
            Hlvalue::Constant(c) => c
                .value
                .bind(self.py)
                .extract()
                .map_err(|_| RTypeError::new("attribute name"))?,
            _ => return Err(RTypeError::new("attribute name is not a constant")),
        };
        let SomeValue::Instance { classdef, .. } = s_obj else {
            return Err(RTypeError::unsupported("setting attributes of this value"));
        };
        let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
        let owner = self
            .rt
            .classes
            .owner_of(classdef, &attr, &base_of)
            .ok_or_else(|| RTypeError::new(format!("no field for attribute '{attr}'")))?;
        let fr = self.rt.classes.fields[&owner]
            .iter()
            .find(|(n, _)| *n == attr)
            .map(|(_, r)| r.clone())
            .expect("field");
        let r = self.repr_of(&op.args[0])?;
        let x = self.input(&op.args[0], &r)?;
        let p = self.field_ptr(x, classdef, owner)?;
        let mut v = self.input(&op.args[2], &fr)?;
        let st = self.rt.classes.structs[&owner];
        let fty = st.field_type(&field_name(&attr)).expect("field type");
        if fty != fr.lowleveltype(self.rt) {
            let tc = type_const(self.py, fty)?;
            v = self.emit(LlOp::CastPointer, vec![tc, v], fty);
        }
        if fr != Repr::Void {
            self.emit(
                LlOp::Setfield,
                vec![p, name(self.py, &field_name(&attr)), v],
                VOID,
            );
        }
        let none = value_const(self.py, LlValue::Void, VOID)?;
        self.finish(op.result, none);
        Ok(())
    }
}

