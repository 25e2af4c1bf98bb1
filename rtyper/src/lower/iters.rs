//! Iterators over any iterable (`iter()`, `next()`), and the iterators
//! built on others: `enumerate()` and `zip()`, whose `next()` calls the
//! inner iterators' `next` through function pointers.  Also the
//! aggregates `sum()`, `min()`, `max()`, `any()`, `all()` of iterables.

use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, SIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::dicts::RDICT;
use super::lists::{Arg, RLIST};
use super::{name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::{Repr, SeqKind};
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// A new iterator over `h`, and its repr.
    pub(super) fn iter_of(&mut self, h: &Hlvalue) -> Result<(Hlvalue, Repr), RTypeError> {
        self.iter_of_as(h, None)
    }

    /// A new iterator over `h`; a constant `h` (a prebuilt list) takes the
    /// repr of the iterable that iterators of repr `expected` go over.
    pub(super) fn iter_of_as(
        &mut self,
        h: &Hlvalue,
        expected: Option<&Repr>,
    ) -> Result<(Hlvalue, Repr), RTypeError> {
        let r = match (h, expected) {
            (Hlvalue::Constant(_), Some(ir)) => match ir {
                Repr::ListIter(item, false, kind) => Repr::List(item.clone(), *kind),
                Repr::StrIter => Repr::Str,
                Repr::RangeIter => Repr::Range,
                Repr::DictIter(k, v, 0) if **v == Repr::Void => Repr::Set(k.clone()),
                Repr::DictIter(k, v, _) => Repr::Dict(k.clone(), v.clone()),
                _ => self.repr_of(h)?,
            },
            _ => self.repr_of(h)?,
        };
        let x = self.input(h, &r)?;
        Ok(match &r {
            Repr::Range => {
                let pit = self.rt.range_types().3;
                let f = self.rt.helper_range_iter(self.py)?;
                let f = self.func_const(f)?;
                (
                    self.emit(LlOp::DirectCall, vec![f, x], pit),
                    Repr::RangeIter,
                )
            }
            Repr::Str => {
                let t = Repr::StrIter.lowleveltype(self.rt);
                (
                    self.call_str_helper("ll_striter", vec![x], t)?,
                    Repr::StrIter,
                )
            }
            Repr::List(item, kind) => {
                let it = self.new_list_iter(item, *kind, x, false)?;
                (it, Repr::ListIter(item.clone(), false, *kind))
            }
            // bytes: over a list of the byte values
            Repr::Bytes => {
                let int = Repr::Int(IntKind::Signed);
                let l = self.iterable_as_list(h, &int)?;
                (
                    self.new_list_iter(&int, SeqKind::List, l, false)?,
                    Repr::ListIter(Box::new(int), false, SeqKind::List),
                )
            }
            Repr::Tuple(_) => {
                let ir = match expected {
                    Some(ir @ Repr::ListIter(..)) => ir.clone(),
                    _ => self.rt.getrepr(&SomeValue::Iterator {
                        over: Box::new(self.s(h)),
                        variant: rpy3_annotator::model::IterVariant::Items,
                    })?,
                };
                let Repr::ListIter(item, _, _) = &ir else {
                    return Err(RTypeError::new("iterating over a tuple"));
                };
                let l = self.iterable_as_list(h, item)?;
                (
                    self.new_list_iter(item, SeqKind::List, l, false)?,
                    ir.clone(),
                )
            }
            Repr::Dict(k, v) => (
                self.new_dict_iter(x, k, v, false)?,
                Repr::DictIter(k.clone(), v.clone(), 0),
            ),
            Repr::Set(k) => {
                let void = Box::new(Repr::Void);
                (
                    self.new_dict_iter(x, k, &void, true)?,
                    Repr::DictIter(k.clone(), void, 0),
                )
            }
            Repr::ListIter(..)
            | Repr::StrIter
            | Repr::RangeIter
            | Repr::DictIter(..)
            | Repr::EnumIter(_)
            | Repr::ZipIter(_)
            | Repr::Generator(_)
            | Repr::GeneratorSet(_) => (x, r.clone()),
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "iterating over {other:?}"
                )))
            }
        })
    }

    /// A new `{dict, index}` iterator.
    pub(super) fn new_dict_iter(
        &mut self,
        d: Hlvalue,
        k: &Repr,
        v: &Repr,
        isset: bool,
    ) -> Result<Hlvalue, RTypeError> {
        let st = self.rt.dictiter_struct(k, v);
        let pt = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
        let it = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
        let size = self.emit(LlOp::Getfield, vec![d.clone(), name(self.py, "length")], SIGNED);
        let isset = value_const(self.py, LlValue::Bool(isset), rpy3_model::lltype::BOOL)?;
        for (f, v) in [("dict", d), ("index", zero), ("size", size), ("isset", isset)] {
            self.emit(LlOp::Setfield, vec![it.clone(), name(self.py, f), v], VOID);
        }
        Ok(it)
    }

    /// The function giving the next item of an iterator of repr `ir`, as a
    /// function pointer argument, and the repr of the items it gives.
    fn next_function(&mut self, ir: &Repr) -> Result<(Arg, Repr), RTypeError> {
        let it_ann = SomeValue::Ptr(ir.lowleveltype(self.rt));
        let (idx, item) = match ir {
            Repr::ListIter(item, rev, _) => {
                let name = if *rev {
                    "ll_iter_next_reversed"
                } else {
                    "ll_iter_next"
                };
                (
                    self.helper_index(RLIST, name, vec![it_ann])?,
                    (**item).clone(),
                )
            }
            Repr::DictIter(k, v, which @ (0 | 1)) => {
                let (name, item) = if *which == 0 {
                    ("ll_iter_next_key", k)
                } else {
                    ("ll_iter_next_value", v)
                };
                (
                    self.helper_index(RDICT, name, vec![it_ann])?,
                    (**item).clone(),
                )
            }
            Repr::StrIter => (self.rt.str_helper(self.py, "ll_strnext")?, Repr::UniChar),
            Repr::Generator(g) => (
                self.rt
                    .generator_next(*g)
                    .ok_or_else(|| RTypeError::new("a generator without next()"))?,
                self.generator_item(*g)?,
            ),
            Repr::GeneratorSet(root) => (
                self.rt.genset_next(self.py, *root)?,
                self.generator_set_item(*root)?,
            ),
            Repr::RangeIter => (
                self.rt.helper_range_next(self.py)?,
                Repr::Int(IntKind::Signed),
            ),
            Repr::EnumIter(_) | Repr::ZipIter(_) | Repr::DictIter(_, _, 2) => {
                // iterators built on others: `hl_next` annotated for the
                // iterator type (its body lowers next() as usual)
                let item = match ir {
                    Repr::EnumIter(inner) => Repr::Tuple(vec![
                        Repr::Int(IntKind::Signed),
                        self.next_function(inner)?.1,
                    ]),
                    Repr::ZipIter(inner) => {
                        let mut items = Vec::new();
                        for i in inner {
                            items.push(self.next_function(i)?.1);
                        }
                        Repr::Tuple(items)
                    }
                    Repr::DictIter(k, v, _) => Repr::Tuple(vec![(**k).clone(), (**v).clone()]),
                    _ => unreachable!("matched above"),
                };
                self.rt.ensure_types(&item);
                let s_it = self
                    .rt
                    .list_items
                    .borrow()
                    .get(ir)
                    .cloned()
                    .ok_or_else(|| RTypeError::new(format!("no annotation for {ir:?}")))?;
                (self.helper_index(RLIST, "hl_next", vec![s_it])?, item)
            }
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "enumerate() or zip() over {other:?}"
                )))
            }
        };
        let c = self.func_const(idx)?;
        let t = LlType::ptr(self.rt.funcs_ty(idx)).map_err(|e| RTypeError::new(e.to_string()))?;
        Ok(((c, SomeValue::Ptr(t)), item))
    }

    fn helper_index(
        &mut self,
        module: &str,
        helper: &str,
        args: Vec<SomeValue>,
    ) -> Result<usize, RTypeError> {
        use pyo3::prelude::*;
        let f = self
            .py
            .import(module)
            .and_then(|m| m.getattr(helper))
            .map_err(|e| RTypeError::new(format!("helper {module}.{helper}: {e}")))?;
        self.rt.helper_for(self.py, &f, args)
    }

    /// `enumerate(x[, start])` and `zip(a, b, ...)`: None for other builtins.
    pub(super) fn iter_builtin(
        &mut self,
        builtin: &str,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Option<Hlvalue>, RTypeError> {
        match (builtin, want) {
            ("enumerate", Repr::EnumIter(inner)) => {
                let (it, _) = self.iter_of_as(&args[0], Some(inner))?;
                let pt = want.lowleveltype(self.rt);
                let st = pt.target().expect("a pointer");
                let e = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
                let start = match args.get(1) {
                    // the index is counted before each item is returned
                    Some(a) => {
                        let s = self.input(a, &Repr::Int(IntKind::Signed))?;
                        let one = value_const(self.py, LlValue::Int(1), SIGNED)?;
                        self.emit(LlOp::IntSub, vec![s, one], SIGNED)
                    }
                    None => value_const(self.py, LlValue::Int(-1), SIGNED)?,
                };
                self.emit(
                    LlOp::Setfield,
                    vec![e.clone(), name(self.py, "it"), it],
                    VOID,
                );
                self.emit(
                    LlOp::Setfield,
                    vec![e.clone(), name(self.py, "index"), start],
                    VOID,
                );
                Ok(Some(e))
            }
            ("zip", Repr::ZipIter(inner)) if args.len() == inner.len() => {
                let pt = want.lowleveltype(self.rt);
                let st = pt.target().expect("a pointer");
                let z = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
                for (i, a) in args.iter().enumerate() {
                    let (it, _) = self.iter_of_as(a, Some(&inner[i]))?;
                    self.emit(
                        LlOp::Setfield,
                        vec![z.clone(), name(self.py, &format!("it{i}")), it],
                        VOID,
                    );
                }
                Ok(Some(z))
            }
            ("iter", _) => {
                let (it, ir) = self.iter_of(&args[0])?;
                Ok(Some(self.convert(it, &ir, want)?))
            }
            ("reversed", Repr::StrIter) => {
                let s = self.input(&args[0], &Repr::Str)?;
                let st = Repr::Str.lowleveltype(self.rt);
                let (r, _) =
                    self.call_list_helper("ll_reversed_str", vec![(s, SomeValue::Ptr(st))])?;
                let t = Repr::StrIter.lowleveltype(self.rt);
                Ok(Some(self.call_str_helper("ll_striter", vec![r], t)?))
            }
            ("next", _) if args.len() == 2 => {
                let ir = self.repr_of(&args[0])?;
                let it = self.input(&args[0], &ir)?;
                let (f, item) = self.next_function(&ir)?;
                let d = self.input(&args[1], want)?;
                if item.lowleveltype(self.rt) != want.lowleveltype(self.rt) {
                    return Err(RTypeError::unsupported(&format!(
                        "next() with a default giving {want:?} from {item:?}"
                    )));
                }
                let da = (d, self.ll_annotation_of(want)?);
                let ita = (it, SomeValue::Ptr(ir.lowleveltype(self.rt)));
                let (v, _) = self.call_list_helper("ll_next_default", vec![ita, f, da])?;
                Ok(Some(v))
            }
            ("sum", _) => {
                let lr = self.aggregate_list(&args[0])?;
                let Repr::List(item, _) = &lr else {
                    unreachable!("a list")
                };
                let num = match (&**item, want) {
                    (_, Repr::Float) => Repr::Float,
                    (_, Repr::Number) => Repr::Number,
                    _ => Repr::Int(IntKind::Signed),
                };
                let start = match args.get(1) {
                    Some(s) => self.input(s, &num)?,
                    None if num == Repr::Float => {
                        value_const(self.py, LlValue::Float(0.0), rpy3_model::lltype::FLOAT)?
                    }
                    None if num == Repr::Number => {
                        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                        self.box_number(zero, &Repr::Int(IntKind::Signed))?
                    }
                    None => value_const(self.py, LlValue::Int(0), SIGNED)?,
                };
                if **item == Repr::Void {
                    // items that never exist: the list is empty
                    return Ok(Some(self.convert(start, &num, want)?));
                }
                if num == Repr::Number {
                    // numbers of either kind: from the start (the int 0
                    // when omitted), an int while every item is one
                    let l = self.list_of(&args[0], &lr)?;
                    let lt = lr.lowleveltype(self.rt);
                    let (v, _) = if **item == Repr::Number {
                        self.call_helper_in(
                            super::numbers::RNUMBER,
                            "ll_num_sum",
                            vec![(l.0, SomeValue::Ptr(lt)), (start, SomeValue::Ptr(self.rt.number_ptr()))],
                        )?
                    } else {
                        self.call_list_helper("ll_sum", vec![l, (start, SomeValue::number())])?
                    };
                    return Ok(Some(self.convert(v, &num, want)?));
                }
                if **item != num && !matches!(**item, Repr::Bool | Repr::Int(_)) {
                    return Err(RTypeError::unsupported(&format!("sum() of {item:?}")));
                }
                let l = self.list_of(&args[0], &lr)?;
                let sa = (start, self.ll_annotation_of(&num)?);
                let (v, _) = self.call_list_helper("ll_sum", vec![l, sa])?;
                Ok(Some(self.convert(v, &num, want)?))
            }
            ("math.fsum", _) => {
                let lr = self.aggregate_list(&args[0])?;
                if lr == Repr::list_of(Repr::Void) {
                    // items that never exist: the sum of nothing
                    let z = value_const(self.py, LlValue::Float(0.0), rpy3_model::lltype::FLOAT)?;
                    return Ok(Some(self.convert(z, &Repr::Float, want)?));
                }
                if lr != Repr::list_of(Repr::Float) {
                    return Err(RTypeError::unsupported(&format!("math.fsum() of {lr:?}")));
                }
                let l = self.list_of(&args[0], &lr)?;
                let (v, _) = self.call_helper_in(super::builtins::RBUILTIN, "ll_fsum", vec![l])?;
                Ok(Some(self.convert(v, &Repr::Float, want)?))
            }
            ("any" | "all", _) => {
                let s_arg = self.s(&args[0]);
                let never = matches!(&s_arg, SomeValue::Tuple(items) if items.is_empty())
                    || matches!(self.s_next(&s_arg), Some(SomeValue::Impossible));
                if never {
                    // an iterable that never gives an item: any() is false,
                    // all() true
                    let v = value_const(
                        self.py,
                        LlValue::Bool(builtin == "all"),
                        rpy3_model::lltype::BOOL,
                    )?;
                    return Ok(Some(self.convert(v, &Repr::Bool, want)?));
                }
                let r = self.repr_of(&args[0])?;
                if matches!(
                    r,
                    Repr::Generator(_)
                        | Repr::GeneratorSet(_)
                        | Repr::ListIter(..)
                        | Repr::StrIter
                        | Repr::RangeIter
                        | Repr::DictIter(_, _, 0 | 1)
                ) {
                    // an iterator is consumed only up to the deciding item
                    // (the items after it are never computed)
                    let it = self.input(&args[0], &r)?;
                    let (f, item) = self.next_function(&r)?;
                    let truth = self.item_function("hl_bool", &item)?;
                    let ita = (it, SomeValue::Ptr(r.lowleveltype(self.rt)));
                    let helper = if builtin == "any" {
                        "ll_any_iter"
                    } else {
                        "ll_all_iter"
                    };
                    let (v, _) = self.call_list_helper(helper, vec![ita, f, truth])?;
                    return Ok(Some(self.convert(v, &Repr::Bool, want)?));
                }
                let lr = self.aggregate_list(&args[0])?;
                let Repr::List(item, _) = &lr else {
                    unreachable!("a list")
                };
                let truth = self.item_function("hl_bool", item)?;
                let l = self.list_of(&args[0], &lr)?;
                let helper = if builtin == "any" { "ll_any" } else { "ll_all" };
                let (v, _) = self.call_list_helper(helper, vec![l, truth])?;
                Ok(Some(self.convert(v, &Repr::Bool, want)?))
            }
            ("min" | "max", _) if args.len() == 1 => {
                let lr = self.aggregate_list(&args[0])?;
                let Repr::List(item, _) = &lr else {
                    unreachable!("a list")
                };
                let item = (**item).clone();
                let l = self.list_of(&args[0], &lr)?;
                let lt = self.item_function("hl_lt", &item)?;
                let largest = self.largest_arg(builtin)?;
                let (v, _) = self.call_list_helper("ll_extreme", vec![l, lt, largest])?;
                Ok(Some(self.convert(v, &item, want)?))
            }
            _ => Ok(None),
        }
    }

    /// `min(x, key=f)` / `max(x, key=f)`.
    pub(super) fn min_max_key(
        &mut self,
        builtin: &str,
        args: &[Hlvalue],
        key: Option<&Hlvalue>,
        default: Option<&Hlvalue>,
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let (l, item) = if let [arg] = args {
            let lr = self.aggregate_list(arg)?;
            let Repr::List(item, _) = &lr else {
                unreachable!("a list")
            };
            let item = (**item).clone();
            (self.list_of(arg, &lr)?, item)
        } else {
            // min(a, b, ..., key=f): a list of the arguments
            let mut vals = Vec::new();
            for a in args {
                vals.push(self.input(a, want)?);
            }
            let l = self.new_list(want, vals)?;
            let lt = Repr::list_of(want.clone()).lowleveltype(self.rt);
            ((l, SomeValue::Ptr(lt)), want.clone())
        };
        let largest = self.largest_arg(builtin)?;
        if let (Some(d), Repr::Void) = (default, &item) {
            // a list that never holds an item (`min([], default=-1)`):
            // always empty, the default
            if key.is_none() {
                return self.input(d, want);
            }
        }
        // the default is given in the items' repr
        if default.is_some() && item != *want {
            return Err(RTypeError::unsupported(&format!(
                "{builtin}() with a default of another type than its items ({item:?}, {want:?})"
            )));
        }
        let default = match default {
            Some(d) => Some(self.item_arg(d, &item)?),
            None => None,
        };
        let v = match key {
            Some(key) => {
                let (f, ft, key_repr) = self.key_function(key, &item)?;
                let lt = self.item_function("hl_lt", &key_repr)?;
                let mut args = vec![l, (f, SomeValue::Ptr(ft)), lt, largest];
                let helper = match default {
                    Some(d) => {
                        args.push(d);
                        "ll_extreme_key_or"
                    }
                    None => "ll_extreme_key",
                };
                self.call_list_helper(helper, args)?.0
            }
            None => {
                let lt = self.item_function("hl_lt", &item)?;
                let mut args = vec![l, lt, largest];
                let helper = match default {
                    Some(d) => {
                        args.push(d);
                        "ll_extreme_or"
                    }
                    None => "ll_extreme",
                };
                self.call_list_helper(helper, args)?.0
            }
        };
        self.convert(v, &item, want)
    }

    /// The repr of the items of generators of item definition `id` (of
    /// one generator function or of a family of them).
    fn generator_set_item(&self, id: rpy3_annotator::ItemDefId) -> Result<Repr, RTypeError> {
        let s_item = self.rt.ann.itemdefs.get(id).item.clone();
        let r = self.rt.getrepr(&s_item)?;
        // the item functions (min(), max() of a generator) need it
        self.rt
            .list_items
            .borrow_mut()
            .entry(r.clone())
            .or_insert(s_item.without_const());
        Ok(r)
    }

    /// The repr of the items generator function `g` yields.
    fn generator_item(&self, g: rpy3_annotator::GraphId) -> Result<Repr, RTypeError> {
        let id = self.rt.ann.graphs[g]
            .generator
            .ok_or_else(|| RTypeError::new("a generator graph without items"))?;
        self.generator_set_item(id)
    }

    /// The items of iterator `h` (repr `ir`) appended to list `l`.
    pub(super) fn extend_from_iterator(
        &mut self,
        l: Arg,
        h: &Hlvalue,
        ir: &Repr,
    ) -> Result<(), RTypeError> {
        let it = self.input(h, ir)?;
        let (f, _) = self.next_function(ir)?;
        let ita = (it, SomeValue::Ptr(ir.lowleveltype(self.rt)));
        self.call_list_helper("ll_extend_from_iter", vec![l, ita, f])?;
        Ok(())
    }

    /// A `key=` function: its pointer, the pointer's type, and the repr of
    /// the keys it gives (registered for `hl_lt`).
    pub(super) fn key_function(
        &mut self,
        key: &Hlvalue,
        item: &Repr,
    ) -> Result<(Hlvalue, LlType, Repr), RTypeError> {
        let kr = self.repr_of(key)?;
        // the high-level annotation of the keys, when the function is known
        let mut s_known: Option<SomeValue> = None;
        let (f, ft) = match (&kr, self.s(key)) {
            // a built-in (key=len): a function calling it, annotated for
            // the items
            (
                _,
                SomeValue::Builtin {
                    name: _,
                    s_self: None,
                },
            ) if matches!(key, Hlvalue::Constant(_)) => {
                use pyo3::prelude::*;
                let Hlvalue::Constant(c) = key else {
                    unreachable!("matched")
                };
                let wrapper = self
                    .py
                    .import("rpy3.hlbuiltins")
                    .and_then(|m| m.getattr("key_wrapper"))
                    .and_then(|w| w.call1((c.value.bind(self.py),)))
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let s_item = self
                    .rt
                    .list_items
                    .borrow()
                    .get(item)
                    .cloned()
                    .ok_or_else(|| RTypeError::new(format!("no annotation for items {item:?}")))?;
                let idx = self
                    .rt
                    .helper_for(self.py, &wrapper, vec![s_item.clone()])?;
                let obj = rpy3_model::PyObj::new(&wrapper);
                s_known = self
                    .rt
                    .ann
                    .lookup_desc(&obj)
                    .and_then(|d| self.rt.ann.existing_graph(self.py, d, &[s_item]))
                    .map(|g| self.rt.ann.return_annotation(g));
                let t = LlType::ptr(self.rt.funcs_ty(idx))
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                (self.func_const(idx)?, t)
            }
            // one known function: its pointer
            (Repr::Void, SomeValue::Pbc { descs, .. }) if descs.len() == 1 => {
                let d = *descs.iter().next().expect("one");
                let g = self.rt.single_graph(d)?;
                let idx = self
                    .rt
                    .func_index(g)
                    .ok_or_else(|| RTypeError::new("a key function without a graph"))?;
                s_known = Some(self.rt.ann.return_annotation(g));
                let t = LlType::ptr(self.rt.funcs_ty(idx))
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                (self.func_const(idx)?, t)
            }
            _ => (self.input(key, &kr)?, kr.lowleveltype(self.rt)),
        };
        if let Some(s_key) = s_known.map(|s| s.without_const()) {
            let key_repr = self.rt.getrepr(&s_key)?;
            self.rt
                .list_items
                .borrow_mut()
                .entry(key_repr.clone())
                .or_insert(s_key);
            return Ok((f, ft, key_repr));
        }
        let Some(rpy3_model::lltype::TypeDef::Func { result, .. }) = ft.target().map(|t| t.def())
        else {
            return Err(RTypeError::unsupported("a key= that is not one function"));
        };
        let s_key = self
            .rt
            .ann
            .ll_annotation(result)
            .map_err(|e| RTypeError::new(e.message))?;
        let key_repr = self.rt.getrepr(&s_key)?;
        self.rt
            .list_items
            .borrow_mut()
            .entry(key_repr.clone())
            .or_insert(s_key);
        Ok((f, ft, key_repr))
    }

    /// The `largest` flag of `ll_extreme`: true for `max()`.
    fn largest_arg(&self, builtin: &str) -> Result<Arg, RTypeError> {
        let v = value_const(
            self.py,
            LlValue::Bool(builtin == "max"),
            rpy3_model::lltype::BOOL,
        )?;
        Ok((v, SomeValue::bool()))
    }

    /// The list repr an aggregate of `h` works on.
    pub(super) fn aggregate_list(&mut self, h: &Hlvalue) -> Result<Repr, RTypeError> {
        let r = self.repr_of(h)?;
        // the item functions of characters and byte values need them
        for (ir, s) in [
            (Repr::UniChar, SomeValue::char()),
            (Repr::Int(IntKind::Signed), SomeValue::int()),
        ] {
            self.rt.list_items.borrow_mut().entry(ir).or_insert(s);
        }
        Ok(match &r {
            // a tuple's items as a list (a copy)
            Repr::List(item, _) => Repr::List(item.clone(), SeqKind::List),
            Repr::Set(k) => Repr::List(k.clone(), SeqKind::List),
            Repr::Dict(k, _) => Repr::List(k.clone(), SeqKind::List),
            Repr::Range => Repr::list_of(Repr::Int(IntKind::Signed)),
            Repr::Str => Repr::list_of(Repr::UniChar),
            Repr::Generator(g) => Repr::list_of(self.generator_item(*g)?),
            Repr::GeneratorSet(root) => Repr::list_of(self.generator_set_item(*root)?),
            Repr::ListIter(item, ..) => Repr::List(item.clone(), SeqKind::List),
            Repr::StrIter => Repr::list_of(Repr::UniChar),
            Repr::RangeIter => Repr::list_of(Repr::Int(IntKind::Signed)),
            Repr::DictIter(k, v, which @ (0 | 1)) => Repr::List(
                if *which == 0 { k.clone() } else { v.clone() },
                SeqKind::List,
            ),
            Repr::Tuple(_) => {
                // the items as the annotator sees the tuple's iteration
                let ir = self.rt.getrepr(&SomeValue::Iterator {
                    over: Box::new(self.s(h)),
                    variant: rpy3_annotator::model::IterVariant::Items,
                })?;
                let Repr::ListIter(item, ..) = ir else {
                    return Err(RTypeError::new("iterating over a tuple"));
                };
                Repr::List(item, SeqKind::List)
            }
            Repr::Bytes => Repr::list_of(Repr::Int(IntKind::Signed)),
            Repr::EnumIter(_) | Repr::ZipIter(_) | Repr::DictIter(_, _, 2) => {
                // tuples: their annotation for the item functions
                let item = self.rt.next_item_repr(&r);
                if let Some(s) = self.s_next(&self.s(h)) {
                    self.rt
                        .list_items
                        .borrow_mut()
                        .entry(item.clone())
                        .or_insert(s.without_const());
                }
                self.rt.ensure_types(&item);
                Repr::list_of(item)
            }
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "an aggregate of {other:?}"
                )))
            }
        })
    }

    /// The annotation of the items iterating over a value of annotation
    /// `s` gives (as the annotator's `next` sees them), where it is known.
    fn s_next(&self, s: &SomeValue) -> Option<SomeValue> {
        use rpy3_annotator::model::IterVariant as V;
        let defs = &self.rt.ann.itemdefs;
        Some(match s {
            SomeValue::Iterator { over, variant } => match (variant, &**over) {
                (V::Enumerate | V::EnumerateSigned, inner) => {
                    SomeValue::Tuple(vec![SomeValue::int(), self.s_next(inner)?])
                }
                (V::Zip, SomeValue::Tuple(its)) => SomeValue::Tuple(
                    its.iter()
                        .map(|i| self.s_next(i))
                        .collect::<Option<Vec<_>>>()?,
                ),
                (V::Values, SomeValue::Dict(id)) => defs.get(*id).value.clone(),
                (V::Pairs, SomeValue::Dict(id)) => {
                    let d = defs.get(*id);
                    SomeValue::Tuple(vec![d.item.clone(), d.value.clone()])
                }
                (_, inner) => self.s_next(inner)?,
            },
            SomeValue::List(id) | SomeValue::Set(id) | SomeValue::Dict(id) => {
                defs.get(*id).item.clone()
            }
            SomeValue::Generator(id) => defs.get(*id).item.clone(),
            SomeValue::Str {
                kind: rpy3_annotator::model::StrKind::Str,
                ..
            } => SomeValue::char(),
            SomeValue::Str { .. } => SomeValue::nonneg_int(),
            _ => return None,
        })
    }

    /// `h` as a list of repr `lr` (a copy when it is not a list).
    pub(super) fn list_of(&mut self, h: &Hlvalue, lr: &Repr) -> Result<Arg, RTypeError> {
        let Repr::List(item, _) = lr else {
            unreachable!("a list")
        };
        let l = self.iterable_as_list(h, item)?;
        Ok((l, SomeValue::Ptr(lr.lowleveltype(self.rt))))
    }

    /// `iter()` and `next()` on enumerate and zip iterators; false otherwise.
    pub(super) fn lower_iter(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        if !matches!(op.opname, H::Iter | H::Next) {
            return Ok(false);
        }
        let r = self.repr_of(&op.args[0])?;
        if matches!(r, Repr::Generator(_) | Repr::GeneratorSet(_)) {
            // a generator is its own iterator; `next()` runs its function's
            // (of one of several functions: through the frame's own)
            let x = self.input(&op.args[0], &r)?;
            if op.opname == H::Iter {
                self.finish(op.result, x);
                return Ok(true);
            }
            let ((next, _), item) = self.next_function(&r)?;
            let t = item.lowleveltype(self.rt);
            let v = self.emit(LlOp::DirectCall, vec![next, x], t);
            let want = self.result_repr(op)?;
            let v = self.convert(v, &item, &want)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let inner: Vec<Repr> = match &r {
            Repr::EnumIter(i) => vec![(**i).clone()],
            Repr::ZipIter(is) => is.clone(),
            _ => return Ok(false),
        };
        let x = self.input(&op.args[0], &r)?;
        if op.opname == H::Iter {
            self.finish(op.result, x);
            return Ok(true);
        }
        let mut fns = Vec::new();
        let mut items = Vec::new();
        for ir in &inner {
            let (f, item) = self.next_function(ir)?;
            fns.push(f);
            items.push(item);
        }
        let pt = r.lowleveltype(self.rt);
        let mut args = vec![(x.clone(), SomeValue::Ptr(pt))];
        args.extend(fns);
        let helper = match &r {
            Repr::EnumIter(_) => "ll_enumerate_step",
            _ if inner.len() == 2 => "ll_zip_step2",
            _ if inner.len() == 3 => "ll_zip_step3",
            _ if inner.len() == 4 => "ll_zip_step4",
            _ => return Err(RTypeError::unsupported("zip() of more than four iterables")),
        };
        // the step raises StopIteration; the reads after it cannot raise
        self.raising_at = Some(self.ops.len());
        self.call_list_helper(helper, args)?;
        let mut vals = Vec::new();
        let mut reprs = Vec::new();
        if let Repr::EnumIter(_) = r {
            vals.push(self.emit(
                LlOp::Getfield,
                vec![x.clone(), name(self.py, "index")],
                SIGNED,
            ));
            reprs.push(Repr::Int(IntKind::Signed));
            let t = items[0].lowleveltype(self.rt);
            vals.push(self.emit(LlOp::Getfield, vec![x, name(self.py, "cur")], t));
            reprs.push(items[0].clone());
        } else {
            for (i, item) in items.iter().enumerate() {
                let t = item.lowleveltype(self.rt);
                vals.push(self.emit(
                    LlOp::Getfield,
                    vec![x.clone(), name(self.py, &format!("cur{i}"))],
                    t,
                ));
                reprs.push(item.clone());
            }
        }
        self.rt.ensure_types(&Repr::Tuple(reprs.clone()));
        let t = self.new_tuple(&reprs, vals)?;
        let want = self.result_repr(op)?;
        let v = self.convert(t, &Repr::Tuple(reprs), &want)?;
        self.finish(op.result, v);
        Ok(true)
    }
}
