//! Dicts and sets, by the helpers of `rpy3.lltypesystem.rdict` (one
//! specialised copy per dict type), and `hash()` of every hashable repr.

use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, SIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::lists::Arg;
use super::{name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::{Repr, SeqKind};
use crate::RTypeError;

/// The module of the dict helpers.
pub const RDICT: &str = "rpy3.lltypesystem.rdict";

/// The start of CPython's tuple hash (xxHash's PRIME64_5).
const TUPLE_HASH_START: i64 = 2870177450012600261;

/// The key and value reprs of a dict or set repr.
fn parts(r: &Repr) -> Option<(Repr, Repr)> {
    match r {
        Repr::Dict(k, v) => Some(((**k).clone(), (**v).clone())),
        Repr::Set(k) => Some(((**k).clone(), Repr::Void)),
        _ => None,
    }
}

impl Cx<'_, '_, '_, '_> {
    pub(super) fn dict_helper(&mut self, helper: &str, args: Vec<Arg>) -> Result<Hlvalue, RTypeError> {
        Ok(self.call_helper_in(RDICT, helper, args)?.0)
    }

    pub(super) fn dict_arg(&mut self, h: &Hlvalue, dr: &Repr) -> Result<Arg, RTypeError> {
        let v = self.input(h, dr)?;
        Ok((v, SomeValue::Ptr(dr.lowleveltype(self.rt))))
    }

    /// The `hash` and `eq` function pointers of keys of repr `key` (an
    /// `r_dict`'s own functions when the operation is on one).
    pub(super) fn key_functions(&mut self, key: &Repr) -> Result<(Arg, Arg), RTypeError> {
        if let Some((eq, hash)) = self.custom_keys.clone() {
            return Ok((self.function_arg(&hash)?, self.function_arg(&eq)?));
        }
        let hash = self.hash_function(key)?;
        let eq = self.item_function("hl_eq", key)?;
        Ok((hash, eq))
    }

    /// The function pointer hashing values of repr `key`: instances whose
    /// class defines __hash__ (and __eq__) hash through it, other values
    /// by their type's rules.
    fn hash_function(&mut self, key: &Repr) -> Result<Arg, RTypeError> {
        let special = matches!(key, Repr::Instance(c) if self.rt.ann.hashes_specially(self.py, *c));
        let which = if special {
            "hl_hash_special"
        } else {
            "hl_hash"
        };
        self.item_function_in(RDICT, which, key)
    }

    /// The key equality function pointer (see [`Cx::key_functions`]).
    fn key_eq(&mut self, key: &Repr) -> Result<Arg, RTypeError> {
        Ok(self.key_functions(key)?.1)
    }

    /// The function pointer of the one function an annotation stands for.
    fn function_arg(&mut self, s: &SomeValue) -> Result<Arg, RTypeError> {
        let SomeValue::Pbc { descs, .. } = s else {
            return Err(RTypeError::unsupported(
                "r_dict() with functions that are not constants",
            ));
        };
        if descs.len() != 1 {
            return Err(RTypeError::unsupported(
                "r_dict() with one of several functions",
            ));
        }
        let d = *descs.iter().next().expect("one");
        let g = self.rt.single_graph(d)?;
        let idx = self
            .rt
            .func_index(g)
            .ok_or_else(|| RTypeError::new("an r_dict function without a graph"))?;
        let t = LlType::ptr(self.rt.funcs_ty(idx)).map_err(|e| RTypeError::new(e.to_string()))?;
        Ok((self.func_const(idx)?, SomeValue::Ptr(t)))
    }

    /// The function filling the missing keys of the defaultdict (or
    /// Counter) `h`: the graph made for this dict's types when the
    /// function serves dicts of several (`Counter`s of strs and of ints).
    fn missing_function_arg(&mut self, s: &SomeValue, h: &Hlvalue) -> Result<Arg, RTypeError> {
        let SomeValue::Pbc { descs, .. } = s else {
            return self.function_arg(s);
        };
        let (Some(&d), SomeValue::Dict(id)) = (descs.iter().next(), self.s(h)) else {
            return self.function_arg(s);
        };
        let key = self.rt.ann.itemdefs.get(id).item.clone();
        let args = [SomeValue::Dict(id), key];
        let Some(g) = self.rt.ann.existing_graph(self.py, d, &args) else {
            return self.function_arg(s);
        };
        let idx = self
            .rt
            .func_index(g)
            .ok_or_else(|| RTypeError::new("a defaultdict function without a graph"))?;
        let t = LlType::ptr(self.rt.funcs_ty(idx)).map_err(|e| RTypeError::new(e.to_string()))?;
        Ok((self.func_const(idx)?, SomeValue::Ptr(t)))
    }

    /// Whether the dict `h` is (or a method is bound to) never holds a value.
    fn never_holds_a_value(&self, h: &Hlvalue) -> bool {
        let id = match self.s(h) {
            SomeValue::Dict(id) => id,
            SomeValue::Builtin {
                s_self: Some(inner),
                ..
            } => match *inner {
                SomeValue::Dict(id) => id,
                _ => return false,
            },
            _ => return false,
        };
        self.rt.ann.itemdefs.get(id).value.is_impossible()
    }

    /// The functions of the `r_dict` that `h` is (or a method is bound to).
    fn custom_of(&self, h: &Hlvalue) -> Option<(SomeValue, SomeValue)> {
        let id = match self.s(h) {
            SomeValue::Dict(id) => id,
            SomeValue::Builtin {
                s_self: Some(inner),
                ..
            } => match *inner {
                SomeValue::Dict(id) => id,
                _ => return None,
            },
            _ => return None,
        };
        self.rt.ann.itemdefs.get(id).custom.clone()
    }

    /// The function filling the missing keys of the defaultdict `h`.
    pub(super) fn default_missing_of(&self, h: &Hlvalue) -> Option<SomeValue> {
        match self.s(h) {
            SomeValue::Dict(id) => self.rt.ann.itemdefs.get(id).default_missing.clone(),
            _ => None,
        }
    }

    /// A new empty dict of repr `dr`.
    fn new_dict(&mut self, dr: &Repr) -> Result<Hlvalue, RTypeError> {
        let pt = dr.lowleveltype(self.rt);
        let st = pt.target().expect("a pointer");
        let d = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
        let init = if matches!(dr, Repr::Set(_)) {
            "ll_set_init"
        } else {
            "ll_dict_init"
        };
        self.dict_helper(init, vec![(d.clone(), SomeValue::Ptr(pt))])?;
        Ok(d)
    }

    /// `d[key] = value` (sets: adds `key`).
    fn dict_store(
        &mut self,
        d: Arg,
        dr: &Repr,
        key: Hlvalue,
        value: Option<Hlvalue>,
    ) -> Result<(), RTypeError> {
        let (kr, vr) = parts(dr).ok_or_else(|| RTypeError::new("not a dict"))?;
        let ka = (key, self.ll_annotation_of(&kr)?);
        let (hash, eq) = self.key_functions(&kr)?;
        match value {
            Some(v) => {
                let va = (v, self.ll_annotation_of(&vr)?);
                self.dict_helper("ll_setitem", vec![d, ka, va, hash, eq])?;
            }
            None => {
                self.dict_helper("ll_set_add", vec![d, ka, hash, eq])?;
            }
        }
        Ok(())
    }

    /// Entry `e` of dict `d`: its key, value or `(key, value)` tuple in
    /// repr `want`.
    fn dict_entry(
        &mut self,
        d: Hlvalue,
        dr: &Repr,
        e: Hlvalue,
        which: u8,
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let (kr, vr) = parts(dr).ok_or_else(|| RTypeError::new("not a dict"))?;
        let read = |cx: &mut Self, field: &str, r: &Repr| -> Result<Hlvalue, RTypeError> {
            let t = r.lowleveltype(cx.rt);
            let at =
                LlType::ptr(LlType::array(t, true).map_err(|e| RTypeError::new(e.to_string()))?)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
            let arr = cx.emit(LlOp::Getfield, vec![d.clone(), name(cx.py, field)], at);
            Ok(cx.emit(LlOp::Getarrayitem, vec![arr, e.clone()], t))
        };
        match which {
            0 => {
                let k = read(self, "keys", &kr)?;
                self.convert(k, &kr, want)
            }
            1 => {
                let v = read(self, "values", &vr)?;
                self.convert(v, &vr, want)
            }
            _ => {
                let k = read(self, "keys", &kr)?;
                let v = read(self, "values", &vr)?;
                let pair = [kr.clone(), vr.clone()];
                self.rt.ensure_types(&Repr::Tuple(pair.to_vec()));
                let t = self.new_tuple(&pair, vec![k, v])?;
                self.convert(t, &Repr::Tuple(pair.to_vec()), want)
            }
        }
    }

    /// Lowers `op` if it works on dicts or sets; false otherwise.
    pub(super) fn lower_dict(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        self.custom_keys = None;
        if matches!(op.opname, H::Newdict | H::Newset) {
            let want = self.result_repr(op)?;
            let Some((kr, vr)) = parts(&want) else {
                return Ok(false);
            };
            let d = self.new_dict(&want)?;
            let da = (d.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
            if op.opname == H::Newdict {
                for pair in op.args.chunks(2) {
                    let k = self.input(&pair[0], &kr)?;
                    let v = self.input(&pair[1], &vr)?;
                    self.dict_store(da.clone(), &want, k, Some(v))?;
                }
            } else {
                for a in &op.args {
                    let k = self.input(a, &kr)?;
                    self.dict_store(da.clone(), &want, k, None)?;
                }
            }
            self.finish(op.result, d);
            return Ok(true);
        }
        if op.opname == H::Hash {
            let r = self.repr_of(&op.args[0])?;
            let x = self.input(&op.args[0], &r)?;
            let h = self.hash_of(x, &r)?;
            let want = self.result_repr(op)?;
            let v = self.convert(h, &Repr::Int(IntKind::Signed), &want)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let Some(first) = op.args.first() else {
            return Ok(false);
        };
        let r0 = self.repr_of(first)?;
        if let Repr::DictIter(k, v, which) = &r0 {
            let dr = if **v == Repr::Void && *which == 0 && self.iter_over_set(first) {
                Repr::Set(k.clone())
            } else {
                Repr::Dict(k.clone(), v.clone())
            };
            return match op.opname {
                H::Iter => {
                    let it = self.input(first, &r0)?;
                    self.finish(op.result, it);
                    Ok(true)
                }
                H::Next => {
                    let it = self.input(first, &r0)?;
                    let pt = r0.lowleveltype(self.rt);
                    // the call raises StopIteration; the reads after it cannot raise
                    self.raising_at = Some(self.ops.len());
                    let e =
                        self.dict_helper("ll_iter_next", vec![(it.clone(), SomeValue::Ptr(pt))])?;
                    let d = self.emit(
                        LlOp::Getfield,
                        vec![it, name(self.py, "dict")],
                        dr.lowleveltype(self.rt),
                    );
                    let want = self.result_repr(op)?;
                    let v = self.dict_entry(d, &dr, e, *which, &want)?;
                    self.finish(op.result, v);
                    Ok(true)
                }
                _ => Ok(false),
            };
        }
        let Some((kr, _)) = parts(&r0) else {
            return Ok(false);
        };
        self.custom_keys = self.custom_of(first);
        let dr = r0.clone();
        let is_set = matches!(dr, Repr::Set(_));
        let void = value_const(self.py, LlValue::Void, VOID)?;
        let v = match op.opname {
            H::Len => {
                let d = self.input(first, &dr)?;
                let n = self.emit(LlOp::Getfield, vec![d, name(self.py, "length")], SIGNED);
                let want = self.result_repr(op)?;
                self.convert(n, &Repr::Int(IntKind::Signed), &want)?
            }
            H::Bool => {
                let d = self.dict_arg(first, &dr)?;
                self.dict_helper("ll_is_true", vec![d])?
            }
            H::Getattr => self.input(first, &dr)?,
            H::Is_ => {
                let a = self.input(first, &dr)?;
                let b = self.input(&op.args[1], &dr)?;
                self.emit(LlOp::PtrEq, vec![a, b], BOOL)
            }
            H::Iter => {
                let d = self.input(first, &dr)?;
                let (k, v) = parts(&dr).expect("a dict");
                self.new_dict_iter(d, &k, &v, is_set)?
            }
            H::Contains => {
                let d = self.dict_arg(first, &dr)?;
                let k = self.item_arg(&op.args[1], &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                let helper = if is_set {
                    "ll_set_contains"
                } else {
                    "ll_contains"
                };
                self.dict_helper(helper, vec![d, k, hash, eq])?
            }
            H::Getitem if !is_set => {
                let d = self.dict_arg(first, &dr)?;
                let k = self.item_arg(&op.args[1], &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                let v = match self.default_missing_of(first) {
                    // a defaultdict: missing(d, key) fills a missing key
                    Some(missing) => {
                        let m = self.missing_function_arg(&missing, first)?;
                        self.dict_helper("ll_getitem_default", vec![d, k, hash, eq, m])?
                    }
                    None => self.dict_helper("ll_getitem", vec![d, k, hash, eq])?,
                };
                let (_, vr) = parts(&dr).expect("a dict");
                let want = self.result_repr(op)?;
                self.convert(v, &vr, &want)?
            }
            H::Setitem if !is_set => {
                let d = self.dict_arg(first, &dr)?;
                let (_, vr) = parts(&dr).expect("a dict");
                let k = self.input(&op.args[1], &kr)?;
                let v = self.input(&op.args[2], &vr)?;
                self.dict_store(d, &dr, k, Some(v))?;
                void
            }
            H::Delitem if !is_set => {
                let d = self.dict_arg(first, &dr)?;
                let k = self.item_arg(&op.args[1], &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                self.dict_helper("ll_delitem", vec![d, k, hash, eq])?;
                void
            }
            H::Eq | H::Ne if is_set => {
                let a = self.dict_arg(first, &dr)?;
                let b = self.dict_arg(&op.args[1], &dr)?;
                let eq = self.key_eq(&kr)?;
                let v = self.dict_helper("ll_set_eq", vec![a, b, eq])?;
                if op.opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![v], BOOL)
                } else {
                    v
                }
            }
            H::Eq | H::Ne if self.repr_of(&op.args[1])? == dr => {
                // dicts: the same keys with equal values
                let (_, vr) = parts(&dr).expect("a dict");
                let a = self.dict_arg(first, &dr)?;
                let b = self.dict_arg(&op.args[1], &dr)?;
                let eq = self.key_eq(&kr)?;
                let value_eq = self.item_function("hl_eq", &vr)?;
                let v = self.dict_helper("ll_dict_eq", vec![a, b, eq, value_eq])?;
                if op.opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![v], BOOL)
                } else {
                    v
                }
            }
            H::Le | H::Ge | H::Lt | H::Gt if is_set => {
                let (x, y) = if matches!(op.opname, H::Le | H::Lt) {
                    (first, &op.args[1])
                } else {
                    (&op.args[1], first)
                };
                let a = self.dict_arg(x, &dr)?;
                let b = self.dict_arg(y, &dr)?;
                let eq = self.key_eq(&kr)?;
                let sub =
                    self.dict_helper("ll_set_issubset", vec![a.clone(), b.clone(), eq.clone()])?;
                if matches!(op.opname, H::Lt | H::Gt) {
                    // a proper subset: a subset that is not equal
                    let same = self.dict_helper("ll_set_eq", vec![a, b, eq])?;
                    let differ = self.emit(LlOp::BoolNot, vec![same], BOOL);
                    self.bool_and(sub, differ)
                } else {
                    sub
                }
            }
            H::Or_ | H::InplaceOr if !is_set => {
                // d1 | d2: a copy of d1 updated with d2 (|= updates d1)
                let a = self.dict_arg(first, &dr)?;
                let b = self.dict_arg(&op.args[1], &dr)?;
                let eq = self.key_eq(&kr)?;
                if op.opname == H::InplaceOr {
                    self.dict_helper("ll_update", vec![a.clone(), b, eq])?;
                    a.0
                } else {
                    self.dict_helper("ll_dict_union", vec![a, b, eq])?
                }
            }
            H::Or_
            | H::And_
            | H::Sub
            | H::Xor
            | H::InplaceOr
            | H::InplaceAnd
            | H::InplaceSub
            | H::InplaceXor
                if is_set =>
            {
                // CPython's set_or, set_ior, set_and... (setobject.c)
                let helper = match op.opname {
                    H::Or_ => "ll_set_union",
                    H::InplaceOr => "ll_set_update",
                    H::And_ | H::InplaceAnd => "ll_set_intersection",
                    H::Sub => "ll_set_difference",
                    H::InplaceSub => "ll_set_difference_update",
                    H::Xor => "ll_set_symmetric_difference",
                    _ => "ll_set_symmetric_difference_update",
                };
                let a = self.dict_arg(first, &dr)?;
                let b = self.dict_arg(&op.args[1], &dr)?;
                let eq = self.key_eq(&kr)?;
                let r = self.dict_helper(helper, vec![a.clone(), b, eq])?;
                match op.opname {
                    H::InplaceAnd => {
                        // the intersection's table becomes a's
                        let pt = dr.lowleveltype(self.rt);
                        let r = (r, SomeValue::Ptr(pt));
                        self.dict_helper("ll_set_replace", vec![a.clone(), r])?;
                        a.0
                    }
                    H::InplaceOr | H::InplaceSub | H::InplaceXor => a.0,
                    _ => r,
                }
            }
            _ => return Ok(false),
        };
        self.finish(op.result, v);
        Ok(true)
    }

    /// Whether `h` is an iterator over a set (not a dict).
    fn iter_over_set(&self, h: &Hlvalue) -> bool {
        matches!(self.s(h), SomeValue::Iterator { over, .. } if matches!(*over, SomeValue::Set(_)))
    }

    fn bool_and(&mut self, a: Hlvalue, b: Hlvalue) -> Hlvalue {
        let x = self.emit(LlOp::CastBoolToInt, vec![a], SIGNED);
        let y = self.emit(LlOp::CastBoolToInt, vec![b], SIGNED);
        let z = self.emit(LlOp::IntAnd, vec![x, y], SIGNED);
        self.emit(LlOp::IntIsTrue, vec![z], BOOL)
    }

    /// A method of a dict or set.
    pub(super) fn dict_method(
        &mut self,
        method: &str,
        recv: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let dr = self.repr_of(recv)?;
        let (kr, vr) = parts(&dr).ok_or_else(|| RTypeError::new("a dict method on a non-dict"))?;
        let is_set = matches!(dr, Repr::Set(_));
        self.custom_keys = self.custom_of(recv);
        let d = self.dict_arg(recv, &dr)?;
        if is_set {
            if let Some((v, have)) = self.set_method(method, d.clone(), &dr, args, want)? {
                return self.convert(v, &have, want);
            }
        }
        let void = value_const(self.py, LlValue::Void, VOID)?;
        let (v, have) = match (method, args.len(), is_set) {
            ("get", 2, false) if self.never_holds_a_value(recv) =>
            {
                // a dict that never holds a value: always the default
                (self.input(&args[1], want)?, want.clone())
            }
            // a default of another type than the values (a str where the
            // values are characters, an int where they are bools): the
            // value found, or the default, as their union
            ("get", 1 | 2, false) | ("pop", 2, false)
                if vr.lowleveltype(self.rt) != want.lowleveltype(self.rt)
                    && !matches!(want, Repr::Optional(inner) if **inner == vr) =>
            {
                let s_dict = match self.s(recv) {
                    SomeValue::Builtin {
                        s_self: Some(inner),
                        ..
                    } => *inner,
                    other => other,
                };
                let s_key = self.s(&args[0]).without_const();
                // (`d.get(k)`: None)
                let none = Hlvalue::Constant(rpy3_model::Constant::new(rpy3_model::PyObj::new(
                    &self.py.None().into_bound(self.py),
                )));
                let default = args.get(1).unwrap_or(&none).clone();
                let s_default = self.s(&default).without_const();
                let rk = self.rt.getrepr(&s_key)?;
                let rd = self.rt.getrepr(&s_default)?;
                let k = self.input(&args[0], &rk)?;
                let dv = self.input(&default, &rd)?;
                let helper = if method == "get" {
                    "hl_get_default"
                } else {
                    "hl_pop_default"
                };
                let anns = vec![(d.0.clone(), s_dict.clone()), (k, s_key), (dv, s_default)];
                // (its result is the union the annotator gave the call)
                let (v, t) = self.call_helper_in(RDICT, helper, anns)?;
                if t != want.lowleveltype(self.rt) {
                    return Err(RTypeError::unsupported(&format!(
                        "dict.{method}() giving {want:?} from values {vr:?}"
                    )));
                }
                (v, want.clone())
            }
            ("get", 1 | 2, false) => {
                let k = self.item_arg(&args[0], &kr)?;
                let default = match args.get(1) {
                    Some(a) => self.input(a, want)?,
                    None => self.none_of(want)?,
                };
                let ann = self.ll_annotation_of(want)?;
                if matches!(want, Repr::Optional(inner) if **inner == vr) {
                    // values that are numbers, a result that may be None:
                    // the value found is boxed
                    let (hash, eq) = self.key_functions(&kr)?;
                    let v =
                        self.dict_helper("ll_get_boxed", vec![d, k, (default, ann), hash, eq])?;
                    (v, want.clone())
                } else {
                    let value = self.convert_arg_value(&vr, want)?;
                    if !value {
                        return Err(RTypeError::unsupported(&format!(
                            "dict.get() giving {want:?} from values {vr:?}"
                        )));
                    }
                    let (hash, eq) = self.key_functions(&kr)?;
                    let v = self.dict_helper("ll_get", vec![d, k, (default, ann), hash, eq])?;
                    (v, want.clone())
                }
            }
            ("pop", 2, false) if matches!(want, Repr::Optional(inner) if **inner == vr) => {
                let k = self.item_arg(&args[0], &kr)?;
                let dv = self.input(&args[1], want)?;
                let ann = self.ll_annotation_of(want)?;
                let (hash, eq) = self.key_functions(&kr)?;
                (
                    self.dict_helper("ll_pop_boxed", vec![d, k, (dv, ann), hash, eq])?,
                    want.clone(),
                )
            }
            ("setdefault", 2, false) => {
                let k = self.item_arg(&args[0], &kr)?;
                let dv = self.item_arg(&args[1], &vr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                (
                    self.dict_helper("ll_setdefault", vec![d, k, dv, hash, eq])?,
                    vr.clone(),
                )
            }
            ("pop", 1, false) => {
                let k = self.item_arg(&args[0], &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                (
                    self.dict_helper("ll_pop", vec![d, k, hash, eq])?,
                    vr.clone(),
                )
            }
            ("pop", 2, false) => {
                let k = self.item_arg(&args[0], &kr)?;
                let dv = self.item_arg(&args[1], &vr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                (
                    self.dict_helper("ll_pop_default", vec![d, k, dv, hash, eq])?,
                    vr.clone(),
                )
            }
            ("keys" | "values" | "items", 0, false) => {
                let Repr::List(item, _) = want else {
                    return Err(RTypeError::new(format!(
                        "dict.{method}() without a list result"
                    )));
                };
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let l = self.new_list_of_length(item, zero)?;
                let la = (l.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                let expected = match method {
                    "keys" => kr.clone(),
                    "values" => vr.clone(),
                    _ => Repr::Tuple(vec![kr.clone(), vr.clone()]),
                };
                if **item != expected {
                    return Err(RTypeError::unsupported(&format!(
                        "dict.{method}() into a list of {item:?}"
                    )));
                }
                let helper = format!("ll_{method}_into");
                self.dict_helper(&helper, vec![d, la])?;
                (l, want.clone())
            }
            ("update", 1, false) => {
                if self.repr_of(&args[0])? == dr {
                    let other = self.dict_arg(&args[0], &dr)?;
                    let eq = self.key_eq(&kr)?;
                    self.dict_helper("ll_update", vec![d, other, eq])?;
                } else {
                    self.dict_update_pairs(d, &dr, &args[0])?;
                }
                (void, Repr::Void)
            }
            ("isdisjoint", 1, true) => {
                let other = self.as_set(&args[0], &dr)?;
                let eq = self.key_eq(&kr)?;
                (
                    self.dict_helper("ll_set_isdisjoint", vec![d, other, eq])?,
                    Repr::Bool,
                )
            }
            ("copy", 0, false) => {
                let eq = self.key_eq(&kr)?;
                (self.dict_helper("ll_copy", vec![d, eq])?, dr.clone())
            }
            ("clear", 0, false) => {
                self.dict_helper("ll_clear", vec![d])?;
                (void, Repr::Void)
            }
            ("popitem", 0, false) => {
                let e = self.dict_helper("ll_popitem_entry", vec![d.clone()])?;
                (self.dict_entry(d.0, &dr, e, 2, want)?, want.clone())
            }
            ("issubset" | "issuperset", 1, true) => {
                let other = self.as_set(&args[0], &dr)?;
                let eq = self.key_eq(&kr)?;
                let (a, b) = if method == "issubset" {
                    (d, other)
                } else {
                    (other, d)
                };
                (
                    self.dict_helper("ll_set_issubset", vec![a, b, eq])?,
                    Repr::Bool,
                )
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "{}.{method}() with {} arguments",
                    if is_set { "set" } else { "dict" },
                    args.len()
                )))
            }
        };
        self.convert(v, &have, want)
    }

    /// A method of a set that changes or makes sets, visiting and
    /// inserting keys in CPython's order (setobject.c: `set_update`,
    /// `set_union`, `set_intersection_multi`, `set_difference_multi`...);
    /// None for the others.
    fn set_method(
        &mut self,
        method: &str,
        d: Arg,
        sr: &Repr,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Option<(Hlvalue, Repr)>, RTypeError> {
        let Repr::Set(kr) = sr else {
            return Err(RTypeError::new("a set method on a non-set"));
        };
        let kr = (**kr).clone();
        let pt = sr.lowleveltype(self.rt);
        let void = value_const(self.py, LlValue::Void, VOID)?;
        let set = |v: Hlvalue| (v, SomeValue::Ptr(pt));
        Ok(Some(match (method, args.len()) {
            ("add", 1) => {
                let k = self.input(&args[0], &kr)?;
                self.dict_store(d, sr, k, None)?;
                (void, Repr::Void)
            }
            ("remove" | "discard", 1) => {
                let k = self.item_arg(&args[0], &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                let helper = if method == "remove" {
                    "ll_set_remove"
                } else {
                    "ll_set_discard"
                };
                self.dict_helper(helper, vec![d, k, hash, eq])?;
                (void, Repr::Void)
            }
            ("pop", 0) => {
                let e = self.dict_helper("ll_set_pop", vec![d.clone()])?;
                (self.dict_entry(d.0, sr, e, 0, want)?, want.clone())
            }
            ("clear", 0) => {
                self.dict_helper("ll_set_clear", vec![d])?;
                (void, Repr::Void)
            }
            ("copy", 0) => {
                let eq = self.key_eq(&kr)?;
                (self.dict_helper("ll_set_copy", vec![d, eq])?, sr.clone())
            }
            ("update", _) => {
                for a in args {
                    self.set_extend(d.clone(), sr, a)?;
                }
                (void, Repr::Void)
            }
            ("union", _) => {
                let eq = self.key_eq(&kr)?;
                let r = set(self.dict_helper("ll_set_copy", vec![d.clone(), eq.clone()])?);
                for a in args {
                    if self.repr_of(a)? == *sr {
                        let other = self.dict_arg(a, sr)?;
                        let args = vec![r.clone(), other, d.clone(), eq.clone()];
                        self.dict_helper("ll_set_update_other", args)?;
                    } else {
                        self.set_extend(r.clone(), sr, a)?;
                    }
                }
                (r.0, sr.clone())
            }
            ("intersection" | "intersection_update", _) => {
                let eq = self.key_eq(&kr)?;
                let r = if args.is_empty() {
                    set(self.dict_helper("ll_set_copy", vec![d.clone(), eq])?)
                } else {
                    let mut acc = d.clone();
                    for a in args {
                        let v = if self.repr_of(a)? == *sr {
                            let other = self.dict_arg(a, sr)?;
                            self.dict_helper("ll_set_intersection", vec![acc, other, eq.clone()])?
                        } else {
                            // any other iterable: its items in order
                            let l = self.iterable_as_list(a, &kr)?;
                            let lr = Repr::List(Box::new(kr.clone()), SeqKind::List);
                            let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                            let (hash, eq) = self.key_functions(&kr)?;
                            self.dict_helper("ll_set_intersection_list", vec![acc, la, hash, eq])?
                        };
                        acc = set(v);
                    }
                    acc
                };
                if method == "intersection" {
                    (r.0, sr.clone())
                } else {
                    self.dict_helper("ll_set_replace", vec![d, r])?;
                    (void, Repr::Void)
                }
            }
            ("difference", 0) => {
                let eq = self.key_eq(&kr)?;
                (self.dict_helper("ll_set_copy", vec![d, eq])?, sr.clone())
            }
            ("difference", _) => {
                // only which keys the others hold matters, not their order
                let eq = self.key_eq(&kr)?;
                let first = self.repr_of(&args[0])?;
                let helper = if first == *sr || matches!(first, Repr::Dict(..)) {
                    "ll_set_difference"
                } else {
                    "ll_set_copy_difference"
                };
                let other = self.as_set(&args[0], sr)?;
                let r = set(self.dict_helper(helper, vec![d, other, eq.clone()])?);
                for a in &args[1..] {
                    let other = self.as_set(a, sr)?;
                    let args = vec![r.clone(), other, eq.clone()];
                    self.dict_helper("ll_set_difference_update", args)?;
                }
                (r.0, sr.clone())
            }
            ("difference_update", _) => {
                let eq = self.key_eq(&kr)?;
                for a in args {
                    let other = self.as_set(a, sr)?;
                    let args = vec![d.clone(), other, eq.clone()];
                    self.dict_helper("ll_set_difference_update", args)?;
                }
                (void, Repr::Void)
            }
            ("symmetric_difference", 1) => {
                // a new set of the other, each key of d toggled in it
                let eq = self.key_eq(&kr)?;
                let r = if self.repr_of(&args[0])? == *sr {
                    let other = self.dict_arg(&args[0], sr)?;
                    set(self.dict_helper("ll_set_copy", vec![other, eq.clone()])?)
                } else {
                    let r = set(self.new_dict(sr)?);
                    self.set_extend(r.clone(), sr, &args[0])?;
                    r
                };
                let args = vec![r.clone(), d, eq];
                self.dict_helper("ll_set_symmetric_difference_update", args)?;
                (r.0, sr.clone())
            }
            ("symmetric_difference_update", 1) => {
                if matches!(self.repr_of(&args[0])?, Repr::Dict(..)) {
                    // a dict's keys are toggled in its order
                    let l = self.iterable_as_list(&args[0], &kr)?;
                    let lr = Repr::List(Box::new(kr.clone()), SeqKind::List);
                    let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                    let (hash, eq) = self.key_functions(&kr)?;
                    let args = vec![d, la, hash, eq];
                    self.dict_helper("ll_set_symmetric_difference_update_list", args)?;
                } else {
                    let other = self.as_set(&args[0], sr)?;
                    let eq = self.key_eq(&kr)?;
                    self.dict_helper("ll_set_symmetric_difference_update", vec![d, other, eq])?;
                }
                (void, Repr::Void)
            }
            _ => return Ok(None),
        }))
    }

    /// Whether values of repr `vr` are values of repr `want` unchanged.
    fn convert_arg_value(&self, vr: &Repr, want: &Repr) -> Result<bool, RTypeError> {
        Ok(vr.lowleveltype(self.rt) == want.lowleveltype(self.rt))
    }

    /// The None of a nullable repr (a null pointer).
    fn none_of(&mut self, r: &Repr) -> Result<Hlvalue, RTypeError> {
        let t = r.lowleveltype(self.rt);
        if t.target().is_none() {
            return Err(RTypeError::unsupported(&format!("None as {r:?}")));
        }
        value_const(self.py, LlValue::Ptr(None), t)
    }

    /// Stores the (key, value) pairs of iterable `h` into dict `d`.
    fn dict_update_pairs(&mut self, d: Arg, dr: &Repr, h: &Hlvalue) -> Result<(), RTypeError> {
        let (kr, vr) = parts(dr).ok_or_else(|| RTypeError::new("pairs into a non-dict"))?;
        let pair = Repr::Tuple(vec![kr.clone(), vr]);
        self.rt.ensure_types(&pair);
        let l = self.iterable_as_list(h, &pair)?;
        let lr = Repr::list_of(pair);
        let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
        let (hash, eq) = self.key_functions(&kr)?;
        self.dict_helper("ll_update_pairs", vec![d, la, hash, eq])?;
        Ok(())
    }

    /// Adds the items of iterable `h` to set `s` (CPython's
    /// `set_update_internal`: a set is merged, a dict's keys are added
    /// after one resize, any other iterable's items one by one in order).
    fn set_extend(&mut self, s: Arg, sr: &Repr, h: &Hlvalue) -> Result<(), RTypeError> {
        let Repr::Set(kr) = sr else {
            return Err(RTypeError::new("extending a non-set"));
        };
        let r = self.repr_of(h)?;
        if r == *sr {
            let other = self.dict_arg(h, sr)?;
            let eq = self.key_eq(kr)?;
            self.dict_helper("ll_set_update", vec![s, other, eq])?;
            return Ok(());
        }
        if matches!(&r, Repr::Dict(k, _) if **k == **kr) && self.custom_of(h).is_none() {
            // a dict: CPython grows the table once, then adds its keys
            // with the hashes the dict keeps
            let other = self.dict_arg(h, &r)?;
            let eq = self.key_eq(kr)?;
            self.dict_helper("ll_set_update_dict", vec![s, other, eq])?;
            return Ok(());
        }
        // any other iterable: through a list of its items
        let l = self.iterable_as_list(h, kr)?;
        let lr = Repr::List(kr.clone(), SeqKind::List);
        let (hash, eq) = self.key_functions(kr)?;
        let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
        self.dict_helper("ll_set_add_list", vec![s, la, hash, eq])?;
        Ok(())
    }

    /// Iterable `h` as a set of repr `sr` (the set itself when it is one).
    fn as_set(&mut self, h: &Hlvalue, sr: &Repr) -> Result<Arg, RTypeError> {
        if self.repr_of(h)? == *sr {
            return self.dict_arg(h, sr);
        }
        let s = self.new_dict(sr)?;
        let sa = (s, SomeValue::Ptr(sr.lowleveltype(self.rt)));
        self.set_extend(sa.clone(), sr, h)?;
        Ok(sa)
    }

    /// Builtins making dicts and sets: `dict()`, `set(x)`, and `list(x)`,
    /// `sorted(x)` of a dict or set; None when not one of them.
    pub(super) fn dict_builtin(
        &mut self,
        builtin: &str,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Option<Hlvalue>, RTypeError> {
        match (builtin, want) {
            ("dict", Repr::Dict(..)) if args.is_empty() => Ok(Some(self.new_dict(want)?)),
            ("dict", Repr::Dict(kr, _)) if args.len() == 1 => {
                let r = self.repr_of(&args[0])?;
                if r == *want {
                    // a copy of a dict of the same type
                    let d = self.dict_arg(&args[0], want)?;
                    let eq = self.key_eq(kr)?;
                    return Ok(Some(self.dict_helper("ll_copy", vec![d, eq])?));
                }
                if matches!(r, Repr::Dict(..)) {
                    return Err(RTypeError::unsupported(&format!(
                        "dict() of a {r:?} giving a {want:?}"
                    )));
                }
                let d = self.new_dict(want)?;
                let da = (d.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                self.dict_update_pairs(da, want, &args[0])?;
                Ok(Some(d))
            }
            ("dict.fromkeys", Repr::Dict(kr, vr)) => {
                let d = self.new_dict(want)?;
                let da = (d.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                let l = self.iterable_as_list(&args[0], kr)?;
                let lr = Repr::List(kr.clone(), SeqKind::List);
                let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                let value = match args.get(1) {
                    Some(v) => self.item_arg(v, vr)?,
                    None => {
                        let t = vr.lowleveltype(self.rt);
                        let n = if t.target().is_some() {
                            value_const(self.py, LlValue::Ptr(None), t)?
                        } else {
                            value_const(self.py, LlValue::Void, VOID)?
                        };
                        (n, self.ll_annotation_of(vr)?)
                    }
                };
                let (hash, eq) = self.key_functions(kr)?;
                self.dict_helper("ll_fromkeys", vec![da, la, value, hash, eq])?;
                Ok(Some(d))
            }
            // an r_dict's functions are passed to each helper call
            ("r_dict", Repr::Dict(..)) if args.len() == 2 => Ok(Some(self.new_dict(want)?)),
            // a defaultdict's function filling missing keys is passed to
            // each lookup
            ("defaultdict", Repr::Dict(..)) if args.len() == 1 => Ok(Some(self.new_dict(want)?)),
            ("counter" | "ordered_dict", Repr::Dict(..)) if args.is_empty() => {
                Ok(Some(self.new_dict(want)?))
            }
            ("set" | "frozenset", Repr::Set(_)) => {
                let s = self.new_dict(want)?;
                if let Some(a) = args.first() {
                    let sa = (s.clone(), SomeValue::Ptr(want.lowleveltype(self.rt)));
                    self.set_extend(sa, want, a)?;
                }
                Ok(Some(s))
            }
            _ => Ok(None),
        }
    }

    /// The keys of dict or set `h` (repr `dr`) as a new list of repr `lr`.
    pub(super) fn dict_keys_list(
        &mut self,
        h: &Hlvalue,
        dr: &Repr,
        lr: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let Repr::List(item, _) = lr else {
            return Err(RTypeError::new("keys into a non-list"));
        };
        let (kr, _) = parts(dr).ok_or_else(|| RTypeError::new("keys of a non-dict"))?;
        if **item != kr {
            return Err(RTypeError::unsupported(&format!(
                "a list of {item:?} from keys {kr:?}"
            )));
        }
        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
        let l = self.new_list_of_length(item, zero)?;
        let d = self.dict_arg(h, dr)?;
        let la = (l.clone(), SomeValue::Ptr(lr.lowleveltype(self.rt)));
        self.dict_helper("ll_keys_into", vec![d, la])?;
        Ok(l)
    }

    /// `hash(x)` for `x` of repr `r` (CPython's values for ints and
    /// tuples of them; strings hash consistently, instances by identity).
    pub(super) fn hash_of(&mut self, x: Hlvalue, r: &Repr) -> Result<Hlvalue, RTypeError> {
        let int = Repr::Int(IntKind::Signed);
        Ok(match r {
            Repr::Int(_) | Repr::Bool | Repr::IntBool => {
                let i = self.convert(x, r, &int)?;
                self.dict_helper("ll_hash_int", vec![(i, SomeValue::int())])?
            }
            Repr::Bytes => {
                let bt = Repr::Bytes.lowleveltype(self.rt);
                self.dict_helper("ll_strhash", vec![(x, SomeValue::Ptr(bt))])?
            }
            Repr::Float => {
                let args = vec![(x, SomeValue::float())];
                self.call_helper_in(super::builtins::RBUILTIN, "ll_hash_float", args)?
                    .0
            }
            Repr::Str | Repr::UniChar => {
                let s = self.convert(x, r, &Repr::Str)?;
                let st = Repr::Str.lowleveltype(self.rt);
                self.dict_helper("ll_strhash", vec![(s, SomeValue::Ptr(st))])?
            }
            // a number of either kind: by its value (`hash(1) == hash(1.0)`)
            Repr::Number => self.number_helper("ll_num_hash", vec![(x, Repr::Number)])?.0,
            Repr::Tuple(items) => {
                let mut acc = value_const(self.py, LlValue::Int(TUPLE_HASH_START), SIGNED)?;
                for (i, ir) in items.iter().enumerate() {
                    let v = self.emit(
                        LlOp::Getfield,
                        vec![x.clone(), name(self.py, &format!("item{i}"))],
                        ir.lowleveltype(self.rt),
                    );
                    let h = self.hash_of(v, ir)?;
                    acc = self.dict_helper(
                        "ll_hash_combine",
                        vec![(acc, SomeValue::int()), (h, SomeValue::int())],
                    )?;
                }
                let n = value_const(self.py, LlValue::Int(items.len() as i64), SIGNED)?;
                self.dict_helper(
                    "ll_hash_tuple_finish",
                    vec![(acc, SomeValue::int()), (n, SomeValue::int())],
                )?
            }
            Repr::Void => value_const(self.py, LlValue::Int(0), SIGNED)?,
            // a tuple of a length known at run time only (the annotator
            // refuses to hash lists): CPython's tuple hash of its items
            Repr::List(item, _) => {
                let t = r.lowleveltype(self.rt);
                let hash = self.hash_function(item)?;
                self.dict_helper("ll_tuple_hash", vec![(x, SomeValue::Ptr(t)), hash])?
            }
            // a frozenset: by content (from the hashes its entries keep)
            Repr::Set(_) => {
                let t = r.lowleveltype(self.rt);
                self.dict_helper("ll_set_hash", vec![(x, SomeValue::Ptr(t))])?
            }
            // an instance whose class defines __hash__ (an item of a tuple
            // key): a call of it
            Repr::Instance(c) if self.rt.ann.hashes_specially(self.py, *c) => {
                let s = SomeValue::Instance {
                    classdef: *c,
                    can_be_none: false,
                };
                self.call_helper_in(RDICT, "hl_hash_special", vec![(x, s)])?.0
            }
            r if r.lowleveltype(self.rt).target().is_some() => {
                self.emit(LlOp::GcIdentityHash, vec![x], SIGNED)
            }
            other => return Err(RTypeError::unsupported(&format!("hash() of {other:?}"))),
        })
    }
}
