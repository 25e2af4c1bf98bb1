//! The annotation rules of every high-level operation (PyPy's `unaryop.py`
//! and `binaryop.py`): given the annotations of the arguments, the
//! annotation of the result, with side effects on shared state (container
//! items, attributes, called graphs).

mod arith;
mod builtins;
pub(crate) mod containers;
mod external;
pub(crate) mod special;

use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::{Hlvalue, OpName, SpaceOperation};

use crate::description::{CallArgs, Desc};
use crate::error::AnnotatorError;
use crate::ids::{ClassDefId, GraphId};
use crate::model::{describe, KnownTypeData, SomeValue, StrKind};
use crate::Annotator;

pub use arith::string as string_annotation;
pub use builtins::{
    builtin_name, immutable_builtin_value, keyword_slots, unbound_method_wrapper, KeywordSlot,
};
pub use external::world_object;
pub use special::SpecialCall;

/// `obj.name` where `obj` is a value of a built-in type (a bound method).
pub(crate) fn method_of(
    ann: &mut Annotator,
    py: Python<'_>,
    obj: &SomeValue,
    name: &str,
) -> Result<SomeValue, AnnotatorError> {
    builtins::method(ann, py, obj, name)
}

/// The name of a method of a list, dict or set, as the annotator's
/// `Builtin` annotations spell it (for a bound method that is a constant,
/// `get = D.get`), if it is one.
pub fn static_method_name(obj: &SomeValue, name: &str) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "get", "keys", "values", "items", "pop", "setdefault", "update", "clear", "copy",
        "popitem", "append", "extend", "insert", "remove", "index", "count", "reverse", "sort",
        "add", "discard", "union", "intersection", "difference", "issubset", "issuperset",
        "isdisjoint", "symmetric_difference",
    ];
    if !matches!(obj, SomeValue::List(_) | SomeValue::Dict(_) | SomeValue::Set(_)) {
        return None;
    }
    NAMES.iter().find(|&&n| n == name).copied()
}

/// Whether operation `op` uses the value of an operand that is an int,
/// float or bool that may be None (TypeError when it is None), rather than
/// the operand itself (`is`, `==`, truth, `str()`, `%` formatting, where
/// None is a value of its own).  `first` is the first operand.
pub fn unboxes_optional(op: OpName, first: &SomeValue) -> bool {
    use OpName::*;
    if matches!(op, Mod | InplaceMod) && matches!(first, SomeValue::Str { .. }) {
        return false;
    }
    matches!(
        op,
        Neg | Pos
            | Invert
            | Abs
            | Add
            | Sub
            | Mul
            | Truediv
            | Floordiv
            | Mod
            | Divmod
            | Pow
            | Lshift
            | Rshift
            | And_
            | Or_
            | Xor
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
            | AddOvf
            | SubOvf
            | MulOvf
            | FloordivOvf
            | ModOvf
            | LshiftOvf
            | NegOvf
            | AbsOvf
            | Lt
            | Le
            | Gt
            | Ge
    )
}

/// Whether operation `opname` of `args` is `format(x, '')` where `x` has
/// no `__format__` of its own: `str(x)`.
pub fn is_plain_format(ann: &Annotator, py: Python<'_>, opname: OpName, args: &[SomeValue]) -> bool {
    opname == OpName::Format
        && args.len() == 2
        && const_str(py, &args[1]).is_some_and(|s| s.is_empty())
        && !matches!(&args[0], SomeValue::Instance { classdef, .. }
            if special::defines(ann, py, *classdef, "__format__"))
}

/// The annotation of `op`'s result.
pub fn consider_op(
    ann: &mut Annotator,
    py: Python<'_>,
    graph: GraphId,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Result<SomeValue, AnnotatorError> {
    use OpName::*;
    if args.iter().any(|a| matches!(a, SomeValue::Instance { .. })) {
        if let Some(s) = special::consider(ann, py, op, args)? {
            return Ok(s);
        }
    }
    if !args.is_empty()
        && unboxes_optional(op.opname, &args[0])
        && args.iter().any(|a| matches!(a, SomeValue::Optional(_)))
    {
        // an int, float or bool that may be None as an operand: its value
        // (None raises TypeError there, as in CPython)
        let args: Vec<SomeValue> = args.iter().map(|a| a.nonnone()).collect();
        return consider_op(ann, py, graph, op, &args);
    }
    if is_plain_format(ann, py, op.opname, args) {
        // format(x, '') is str(x) where x's class has no __format__
        let mut as_str = op.clone();
        as_str.opname = Str;
        as_str.args.truncate(1);
        return consider_op(ann, py, graph, &as_str, &args[..1]);
    }
    if matches!(op.opname, Lt | Le | Gt | Ge)
        && args.len() == 2
        && args.iter().any(|a| matches!(a, SomeValue::TupleOrNone(_)))
    {
        // ordering a tuple that may be None: None raises TypeError
        let args: Vec<SomeValue> = args
            .iter()
            .map(|a| match a {
                SomeValue::TupleOrNone(items) => SomeValue::Tuple(items.clone()),
                other => other.clone(),
            })
            .collect();
        return consider_op(ann, py, graph, op, &args);
    }
    if let (Len | Getitem | Getslice | Iter | Contains, Some(SomeValue::TupleOrNone(items))) =
        (op.opname, args.first())
    {
        // a tuple that may be None used as a tuple (None raises TypeError)
        let mut args = args.to_vec();
        args[0] = SomeValue::Tuple(items.clone());
        return consider_op(ann, py, graph, op, &args);
    }
    match op.opname {
        Unpackable => match &args[0] {
            // a sequence is indexed as it is
            SomeValue::Tuple(_)
            | SomeValue::TupleOrNone(_)
            | SomeValue::List(_)
            | SomeValue::Str { .. }
            | SomeValue::Impossible => Ok(args[0].clone()),
            // an instance indexed and measured by its own methods (a
            // namedtuple), or iterated into a list of its items
            SomeValue::Instance { classdef, .. }
                if special::defines(ann, py, *classdef, "__getitem__")
                    && special::defines(ann, py, *classdef, "__len__") =>
            {
                Ok(args[0].clone())
            }
            SomeValue::Instance { classdef, .. } if special::defines(ann, py, *classdef, "__iter__") => {
                builtins::call(ann, py, "list", None, crate::description::CallArgs::positional(vec![args[0].clone()]))
            }
            SomeValue::Instance { .. } => Err(ann.error(format!(
                "unpacking {} (unpack a list or a tuple of its items)",
                describe(&args[0])
            ))),
            // an iterator, a generator, a dict, a set: the list of its items
            other => builtins::call(ann, py, "list", None, crate::description::CallArgs::positional(vec![other.clone()])),
        },
        Bool => {
            // the truth of an instance is whether it is not None
            ann.refuse_special_methods(py, &args[0], &["__bool__", "__len__"], "the truth")?;
            Ok(truth(&args[0], op_var(op, 0)))
        }
        // the type of a value of a built-in type compared with a class
        Is_ | Eq | Ne if known_types_same(ann, py, &args[0], &args[1]).is_some() => {
            let same = known_types_same(ann, py, &args[0], &args[1]).expect("checked");
            Ok(SomeValue::Bool {
                konst: Some(same != (op.opname == Ne)),
                knowntypedata: None,
            })
        }
        Is_ => Ok(is_(ann, op, args)),
        Issubtype => issubtype(ann, py, graph, op, args),
        Type => type_of(ann, py, &args[0]),
        Neg | Pos | Invert | Abs => arith::unary(ann, op.opname, &args[0]),
        NegOvf => arith::unary(ann, Neg, &args[0]),
        AbsOvf => arith::unary(ann, Abs, &args[0]),
        AddOvf | SubOvf | MulOvf | FloordivOvf | ModOvf | LshiftOvf => {
            let base = match op.opname {
                AddOvf => Add,
                SubOvf => Sub,
                MulOvf => Mul,
                FloordivOvf => Floordiv,
                ModOvf => Mod,
                _ => Lshift,
            };
            arith::binary(ann, py, base, &args[0], &args[1])
        }
        Add | Sub | Mul | Truediv | Floordiv | Mod | Divmod | Pow | Lshift | Rshift | And_
        | Or_ | Xor | InplaceAdd | InplaceSub | InplaceMul | InplaceTruediv | InplaceFloordiv
        | InplaceMod | InplacePow | InplaceLshift | InplaceRshift | InplaceAnd | InplaceOr
        | InplaceXor | Matmul | InplaceMatmul => {
            arith::binary(ann, py, op.opname, &args[0], &args[1])
        }
        Eq | Ne if args.iter().any(|a| matches!(a, SomeValue::Optional(_))) => {
            // None equals only None; otherwise the values compare
            if !args.iter().any(|a| matches!(a, SomeValue::None_)) {
                arith::compare(ann, py, op, &args[0].nonnone(), &args[1].nonnone())?;
            }
            Ok(SomeValue::bool())
        }
        Lt | Le | Eq | Ne | Gt | Ge => arith::compare(ann, py, op, &args[0], &args[1]),
        Contains => containers::contains(ann, &args[0], &args[1]),
        Len => containers::len(ann, py, &args[0]),
        Hash => match &args[0] {
            SomeValue::Integer { .. }
            | SomeValue::Bool { .. }
            | SomeValue::Float { .. }
            | SomeValue::Str { .. }
            | SomeValue::Tuple(_) => Ok(SomeValue::int()),
            // an instance whose class has no __hash__: its identity (a
            // class with __hash__ is a special call, annotated before)
            SomeValue::Instance { .. } => {
                ann.check_hashable_key(py, &args[0])?;
                Ok(SomeValue::int())
            }
            // a tuple of a length known at run time only (a list is
            // refused as unhashable)
            SomeValue::List(_) => {
                ann.check_hashable_key(py, &args[0])?;
                Ok(SomeValue::int())
            }
            other => Err(ann.error(format!(
                "hash() of {} is not RPython (use compute_hash)",
                describe(other)
            ))),
        },
        Str => {
            // the text of an exception: exceptions keep the text of their
            // arguments (also those rpy3's own helpers raise), subclasses
            // defining __str__ are dispatched to
            if let SomeValue::Instance { classdef, .. } = &args[0] {
                if ann.is_exception_classdef(py, *classdef) {
                    ann.note_exception_text(py, *classdef)?;
                    return Ok(str_of(&args[0]));
                }
            }
            // a subclass's __str__ (or __repr__) would be silently ignored
            ann.refuse_special_methods(py, &args[0], &["__str__", "__repr__"], "str()")?;
            Ok(str_of(&args[0]))
        }
        // the repr of a character has quotes around it
        Repr | Ascii => {
            ann.refuse_special_methods(py, &args[0], &["__repr__"], "repr()")?;
            // an exception's: its class's name and its arguments' reprs
            if let SomeValue::Instance { classdef, .. } = &args[0] {
                if ann.is_exception_classdef(py, *classdef) {
                    ann.note_exception_repr(py)?;
                }
            }
            Ok(SomeValue::str())
        }
        Format => Ok(SomeValue::str()),
        Getattr => {
            if let Some(name) = const_str(py, &args[1]) {
                if let Some(holder) = class_value_holder(ann, py, &args[0], &name, false)? {
                    // an assigned class attribute read through a class value
                    let s_holder = ann.immutablevalue(py, holder.bind(py))?;
                    return getattr(ann, py, op, &s_holder, &args[1]);
                }
            }
            getattr(ann, py, op, &args[0], &args[1])
        }
        Setattr => {
            let name = const_str(py, &args[1])
                .ok_or_else(|| ann.error("setattr() with a non-constant attribute name"))?;
            let target = match class_value_holder(ann, py, &args[0], &name, true)? {
                // an assigned class attribute written through a class value
                Some(holder) => ann.immutablevalue(py, holder.bind(py))?,
                None => args[0].clone(),
            };
            match &target {
                SomeValue::Instance { classdef, .. } => {
                    let s = args[2].clone();
                    ann.set_attr(py, *classdef, &name, &s)?;
                    Ok(SomeValue::None_)
                }
                SomeValue::Ptr(pt) => {
                    ll_getattr(ann, *pt, &name)?;
                    Ok(SomeValue::None_)
                }
                other => Err(ann.error(format!(
                    "cannot set attribute '{name}' on {}",
                    describe(other)
                ))),
            }
        }
        Delattr => Err(ann.error("deleting attributes is not RPython")),
        Getitem => containers::getitem(ann, py, &args[0], &args[1]),
        Setitem => containers::setitem(ann, &args[0], &args[1], &args[2]),
        Delitem => containers::delitem(ann, &args[0], &args[1]),
        Getslice => containers::getslice(ann, &args[0], &args[1], &args[2]),
        Setslice => containers::setslice(ann, &args[0], &args[3]),
        Delslice => containers::delslice(ann, &args[0]),
        Newslice => containers::newslice(ann, args),
        Iter => containers::iter(ann, &args[0]),
        Next => containers::next(ann, &args[0]),
        Newtuple => Ok(SomeValue::Tuple(args.to_vec())),
        Newlist | Newset => {
            let kind = if op.opname == Newlist {
                crate::itemdef::ItemKind::List
            } else {
                crate::itemdef::ItemKind::Set
            };
            let id = ann.new_container(kind, SomeValue::Impossible, SomeValue::Impossible);
            for a in args {
                ann.generalize_item(id, &a.without_const(), &SomeValue::Impossible)?;
            }
            Ok(if op.opname == Newlist {
                SomeValue::List(id)
            } else {
                SomeValue::Set(id)
            })
        }
        Newdict => {
            let id = ann.new_container(
                crate::itemdef::ItemKind::Dict,
                SomeValue::Impossible,
                SomeValue::Impossible,
            );
            for pair in args.chunks(2) {
                ann.generalize_item(id, &pair[0].without_const(), &pair[1].without_const())?;
            }
            Ok(SomeValue::Dict(id))
        }
        SimpleCall => {
            if let (
                SomeValue::Builtin {
                    name: "isinstance",
                    s_self: None,
                },
                3,
            ) = (&args[0], args.len())
            {
                let (result, narrowed) = builtins::isinstance(ann, py, &args[1], &args[2])?;
                if let (SomeValue::Bool { konst: None, .. }, Some(n), Some(v)) =
                    (&result, narrowed, op_var(op, 1))
                {
                    return Ok(SomeValue::Bool {
                        konst: None,
                        knowntypedata: Some(Arc::new(KnownTypeData {
                            facts: vec![(v, Some(n), None)],
                        })),
                    });
                }
                return Ok(result);
            }
            if let (
                SomeValue::Builtin {
                    name: "super",
                    s_self: None,
                },
                3,
            ) = (&args[0], args.len())
            {
                return super_object(ann, py, &args[1], &args[2]);
            }
            if let (
                SomeValue::Builtin {
                    name: "next",
                    s_self: None,
                },
                [_, it, default],
            ) = (&args[0], args)
            {
                // next(it, default) where the default is of another kind
                // than the items (None after ints, a float after ints, a
                // str after characters): a function returning either, so
                // the result takes the representation of their union
                let item = containers::next(ann, it)?;
                let differs = matches!(
                    item,
                    SomeValue::Integer { .. }
                        | SomeValue::Bool { .. }
                        | SomeValue::Float { .. }
                        | SomeValue::Str { is_char: true, .. }
                ) && !item.is_impossible()
                    && ann.union(&item.without_const(), &default.without_const()).ok()
                        != Some(item.without_const());
                if differs {
                    let f = py
                        .import("rpy3.hlbuiltins")
                        .and_then(|m| m.getattr("rpy_next_default"))
                        .map_err(|e| ann.error(format!("rpy3.hlbuiltins: {e}")))?;
                    let s_method = ann.immutablevalue(py, &f)?;
                    let result = call(
                        ann,
                        py,
                        &s_method,
                        crate::description::CallArgs::positional(vec![it.clone(), default.clone()]),
                    )?;
                    if let Some(at) = ann.current_position() {
                        ann.special_calls.insert(
                            at,
                            special::SpecialCall {
                                method: "rpy_next_default".into(),
                                s_method,
                                receiver: 1,
                                args: vec![1, 2],
                                negate: false,
                            },
                        );
                    }
                    return Ok(result);
                }
            }
            if let (
                SomeValue::Builtin {
                    name: "sum",
                    s_self: None,
                },
                [_, _, SomeValue::List(_)],
            ) = (&args[0], args)
            {
                // sum(lists, []) (or a tuple of run-time length): the
                // concatenation, as CPython's `start + x1 + x2...`
                let f = py
                    .import("rpy3.hlbuiltins")
                    .and_then(|m| m.getattr("rpy_sum_seq"))
                    .map_err(|e| ann.error(format!("rpy3.hlbuiltins: {e}")))?;
                let s_method = ann.immutablevalue(py, &f)?;
                let result = call(
                    ann,
                    py,
                    &s_method,
                    crate::description::CallArgs::positional(vec![args[1].clone(), args[2].clone()]),
                )?;
                if let Some(at) = ann.current_position() {
                    ann.special_calls.insert(
                        at,
                        special::SpecialCall {
                            method: "rpy_sum_seq".into(),
                            s_method,
                            receiver: 1,
                            args: vec![1, 2],
                            negate: false,
                        },
                    );
                }
                return Ok(result);
            }
            call(
                ann,
                py,
                &args[0],
                crate::description::CallArgs::positional(args[1..].to_vec()),
            )
        }
        CallArgs => {
            let shape = match &op.args[1] {
                Hlvalue::Constant(c) => rpy3_model::operation::CallShape::from_py(c.value.bind(py))
                    .ok_or_else(|| ann.error("internal error: bad call shape"))?,
                _ => return Err(ann.error("internal error: call shape is not a constant")),
            };
            let values = &args[2..];
            let mut ca =
                crate::description::CallArgs::positional(values[..shape.num_positional].to_vec());
            let mut i = shape.num_positional;
            for k in &shape.keywords {
                ca.keywords.push((k.clone(), values[i].clone()));
                i += 1;
            }
            if shape.has_star {
                ca.star = Some(values[i].clone());
                i += 1;
            }
            if shape.has_starstar {
                let _ = i;
                return Err(ann.error("calls with **kwargs are not RPython"));
            }
            if let Some(r) = zip_star(ann, py, &args[0], &ca, 2 + i - 1)? {
                return Ok(r);
            }
            if let Some(r) = print_star(ann, py, &args[0], &ca, &shape.keywords, 2 + i - 1)? {
                return Ok(r);
            }
            if let SomeValue::Instance { classdef, .. } = &args[0] {
                if special::defines(ann, py, *classdef, "__call__") {
                    // an instance called with keywords (or *args): its
                    // __call__, the instance standing for the bound method
                    let s_method = ann.get_attr(py, *classdef, "__call__")?;
                    let result = call(ann, py, &s_method, ca)?;
                    if let Some(at) = ann.current_position() {
                        ann.special_calls.insert(
                            at,
                            SpecialCall {
                                method: "__call__".to_string(),
                                s_method,
                                receiver: 0,
                                args: Vec::new(),
                                negate: false,
                            },
                        );
                    }
                    return Ok(result);
                }
            }
            call(ann, py, &args[0], ca)
        }
        Yield => {
            let gen = ann.graphs[graph]
                .generator
                .ok_or_else(|| ann.error("yield outside a generator"))?;
            ann.generalize_item(gen, &args[0].without_const(), &SomeValue::Impossible)?;
            Ok(SomeValue::None_)
        }
        YieldFromResult => yield_from_result(ann, &args[0]),
        Ll(op) => Err(ann.error(format!("low-level operation {op} in a flow graph"))),
    }
}

/// The value of `yield from it`: what the generator functions that make
/// `it` return (the current block is reflowed when that generalises);
/// None for other iterators.
fn yield_from_result(ann: &mut Annotator, it: &SomeValue) -> Result<SomeValue, AnnotatorError> {
    let SomeValue::Generator(id) = it else {
        return Ok(SomeValue::None_);
    };
    let root = ann.itemdefs.find(*id);
    let graphs: Vec<GraphId> = ann
        .graphs
        .iter()
        .filter(|(_, g)| g.generator.is_some_and(|d| ann.itemdefs.find(d) == root))
        .map(|(gid, _)| gid)
        .collect();
    let mut result = SomeValue::Impossible;
    for g in graphs {
        ann.note_caller(g);
        let r = ann.return_annotation(g);
        result = ann.union(&result, &r).map_err(|e| {
            ann.error(format!(
                "the values returned by the delegate generators of 'yield from': {}",
                e.message
            ))
        })?;
    }
    Ok(result)
}

fn op_var(op: &SpaceOperation, i: usize) -> Option<rpy3_model::VarId> {
    op.args.get(i).and_then(|a| a.as_var())
}

/// The constant string value of an annotation.
pub(crate) fn const_str(py: Python<'_>, s: &SomeValue) -> Option<String> {
    s.konst().and_then(|k| k.bind(py).extract::<String>().ok())
}

/// The object of a one-element PBC.
fn pbc_const(ann: &Annotator, s: &SomeValue) -> Option<rpy3_model::PyObj> {
    match s {
        SomeValue::Pbc {
            descs,
            can_be_none: false,
        } if descs.len() == 1 => ann.desc_object(*descs.iter().next()?),
        _ => None,
    }
}

/// `bool(x)`: constant when the value decides it; carries the fact that a
/// nullable value is not None when true.
fn truth(s: &SomeValue, var: Option<rpy3_model::VarId>) -> SomeValue {
    use SomeValue::*;
    if let Ptr(_) = s {
        return SomeValue::bool();
    }
    let konst = match s {
        Bool { konst, .. } => *konst,
        None_ => Some(false),
        Pbc {
            can_be_none: false, ..
        } => Some(true),
        Instance {
            can_be_none: false, ..
        } => Some(true),
        _ => s
            .konst()
            .and_then(|k| Python::attach(|py| k.bind(py).is_truthy().ok())),
    };
    let knowntypedata = match (s, var) {
        (
            Instance { .. }
            | Pbc { .. }
            | TupleOrNone(_)
            | Optional(_)
            | Str {
                can_be_none: true, ..
            },
            Some(v),
        ) if s.can_be_none() => Some(Arc::new(KnownTypeData {
            facts: vec![(v, Some(s.nonnone()), None)],
        })),
        _ => None,
    };
    if let Bool {
        knowntypedata: Some(k),
        ..
    } = s
    {
        return Bool {
            konst,
            knowntypedata: Some(k.clone()),
        };
    }
    Bool {
        konst,
        knowntypedata,
    }
}

/// The class an annotation stands for when it is one known class: a
/// constant `type(x)`, a built-in type named as a value (`int`), a class.
fn known_class(ann: &Annotator, py: Python<'_>, s: &SomeValue) -> Option<rpy3_model::PyObj> {
    match s {
        SomeValue::Type { konst: Some(k), .. } => Some(k.clone()),
        SomeValue::Builtin { name, s_self: None } => {
            let t = py.import("builtins").ok()?.getattr(*name).ok()?;
            t.is_instance_of::<pyo3::types::PyType>()
                .then(|| rpy3_model::PyObj::new(&t))
        }
        SomeValue::Pbc {
            descs,
            can_be_none: false,
        } if descs.len() == 1 => {
            let d = *descs.iter().next()?;
            matches!(ann.descs[d], crate::description::Desc::Class { .. })
                .then(|| ann.desc_object(d))
                .flatten()
        }
        _ => None,
    }
}

/// Whether `a` and `b` are the same class, when one of them is the known
/// type of a value of a built-in type (`type(n) == int`) and the other a
/// known class; None otherwise.
fn known_types_same(ann: &Annotator, py: Python<'_>, a: &SomeValue, b: &SomeValue) -> Option<bool> {
    if !matches!(a, SomeValue::Type { konst: Some(_), .. })
        && !matches!(b, SomeValue::Type { konst: Some(_), .. })
    {
        return None;
    }
    let (x, y) = (known_class(ann, py, a)?, known_class(ann, py, b)?);
    Some(x.bind(py).is(y.bind(py)))
}

fn is_(ann: &mut Annotator, op: &SpaceOperation, args: &[SomeValue]) -> SomeValue {
    let (a, b) = (&args[0], &args[1]);
    let konst = match (a, b) {
        (SomeValue::None_, SomeValue::None_) => Some(true),
        (SomeValue::None_, SomeValue::List(id) | SomeValue::Dict(id) | SomeValue::Set(id))
        | (SomeValue::List(id) | SomeValue::Dict(id) | SomeValue::Set(id), SomeValue::None_) => {
            if ann.container_can_be_none(*id) {
                None
            } else {
                Some(false)
            }
        }
        (SomeValue::None_, x) | (x, SomeValue::None_) if !x.can_be_none() => Some(false),
        (
            SomeValue::Pbc {
                descs: d1,
                can_be_none: false,
            },
            SomeValue::Pbc {
                descs: d2,
                can_be_none: false,
            },
        ) if d1.len() == 1 && d2.len() == 1 => Some(d1 == d2),
        // a prebuilt constant (a function, a class, a frozen object) is
        // never a number, a string or a container
        (SomeValue::Pbc { .. }, x) | (x, SomeValue::Pbc { .. })
            if matches!(
                x,
                SomeValue::Integer { .. }
                    | SomeValue::Float { .. }
                    | SomeValue::Bool { .. }
                    | SomeValue::Str {
                        can_be_none: false,
                        ..
                    }
                    | SomeValue::Tuple(_)
            ) =>
        {
            Some(false)
        }
        _ => None,
    };
    let mut facts = Vec::new();
    for (i, (this, other)) in [(a, b), (b, a)].into_iter().enumerate() {
        if matches!(other, SomeValue::None_) && this.can_be_none() {
            if let Some(v) = op_var(op, i) {
                facts.push((v, Some(SomeValue::None_), Some(this.nonnone())));
            }
        }
    }
    SomeValue::Bool {
        konst,
        knowntypedata: if facts.is_empty() {
            None
        } else {
            Some(Arc::new(KnownTypeData { facts }))
        },
    }
}

fn str_of(s: &SomeValue) -> SomeValue {
    match s {
        SomeValue::Str {
            kind: StrKind::Str,
            is_char,
            can_be_none,
            ..
        } => SomeValue::Str {
            kind: StrKind::Str,
            // str(None) is 'None'
            is_char: *is_char && !*can_be_none,
            can_be_none: false,
            konst: None,
        },
        _ => SomeValue::str(),
    }
}

fn type_of(
    ann: &mut Annotator,
    py: Python<'_>,
    s: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    match s {
        SomeValue::Instance { classdef, .. } => Ok(SomeValue::Type {
            classdef: Some(*classdef),
            konst: None,
        }),
        other => {
            let ty = match other {
                SomeValue::Float { int_too: true, .. } => {
                    return Err(ann.error("type() of a number that is an int or a float"))
                }
                SomeValue::Str {
                    can_be_none: true, ..
                } => return Err(ann.error(format!("type() of {}", describe(other)))),
                SomeValue::Integer { .. } => "int",
                SomeValue::Bool { .. } => "bool",
                SomeValue::Float { .. } => "float",
                SomeValue::Str {
                    kind: StrKind::Str, ..
                } => "str",
                SomeValue::Str {
                    kind: StrKind::Bytes,
                    ..
                } => "bytes",
                _ => return Err(ann.error(format!("type() of {} is not RPython", describe(other)))),
            };
            let t = py
                .import("builtins")
                .and_then(|b| b.getattr(ty))
                .map_err(|e| ann.error(format!("{e}")))?;
            Ok(SomeValue::Type {
                classdef: None,
                konst: Some(rpy3_model::PyObj::new(&t)),
            })
        }
    }
}

fn getattr(
    ann: &mut Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    obj: &SomeValue,
    name: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    let _ = op;
    let Some(name) = const_str(py, name) else {
        return Err(ann.error("getattr() with a non-constant attribute name"));
    };
    match obj {
        SomeValue::Instance { classdef, .. } => ann.get_attr(py, *classdef, &name),
        // a range's bounds and step
        SomeValue::List(id)
            if matches!(name.as_str(), "start" | "stop" | "step")
                && ann.itemdefs.get(*id).range_step.is_some() =>
        {
            Ok(SomeValue::int())
        }
        // a deque's bound: a constant
        SomeValue::List(id) if name == "maxlen" && ann.itemdefs.get(*id).deque => {
            match ann.itemdefs.get(*id).maxlen {
                Some(n) => {
                    let v = n.into_pyobject(py).map_err(|e| ann.error(format!("{e}")))?;
                    ann.immutablevalue(py, v.as_any())
                }
                None => Ok(SomeValue::None_),
            }
        }
        SomeValue::Pbc { descs, .. } => {
            let descs: Vec<_> = descs.iter().copied().collect();
            let mut result = SomeValue::Impossible;
            for d in descs {
                let s = pbc_getattr(ann, py, d, &name)?;
                result = ann.union(&result, &s).map_err(|e| {
                    let mut err = ann.error(e.message);
                    err.chain.push(format!(
                        "reading the attribute '{name}' of several prebuilt constants"
                    ));
                    err
                })?;
            }
            Ok(result)
        }
        SomeValue::Type {
            classdef: Some(c),
            konst,
        } => {
            // attributes of a class as a value: its class-level constants;
            // a class known only by its base may be any subclass, so the
            // value is the union of theirs (a constant only when equal)
            let classes: Vec<ClassDefId> = if konst.is_some() {
                vec![*c]
            } else {
                // (read again when a new subclass appears)
                if let Some(pos) = ann.current_position() {
                    ann.classdefs[*c].method_readers.insert((pos.0, pos.1));
                }
                ann.classdefs
                    .keys()
                    .filter(|&k| ann.is_subclass(k, *c))
                    .collect()
            };
            let mut result = SomeValue::Impossible;
            for k in classes {
                let cls = ann.classdefs[k].cls.clone();
                let v = cls
                    .bind(py)
                    .getattr(name.as_str())
                    .map_err(|_| ann.error(format!("class has no attribute '{name}'")))?;
                let s = ann.immutablevalue(py, &v)?;
                result = ann.union(&result, &s).map_err(|e| {
                    ann.error(format!(
                        "the attribute '{name}' of the classes below {}: {}",
                        ann.classdefs[*c].name, e.message
                    ))
                })?;
            }
            Ok(result)
        }
        SomeValue::Builtin {
            name: "super",
            s_self: Some(inner),
        } => match &**inner {
            SomeValue::Tuple(parts) if parts.len() == 2 => {
                let cls = pbc_const(ann, &parts[0])
                    .ok_or_else(|| ann.error("internal error: super() of a non-constant class"))?;
                ann.super_attr(py, &cls, &parts[1], &name)
            }
            _ => Err(ann.error("internal error: malformed super() object")),
        },
        SomeValue::Ptr(pt) => ll_getattr(ann, *pt, &name),
        SomeValue::LowLevelType(t) => lltype_attr(ann, *t, &name),
        other => builtins::method(ann, py, other, &name),
    }
}

/// For `v.name` with `v` a value that is a class (a class method's `cls`,
/// `type(x)`, a variable holding classes) when the program assigns that
/// class attribute (see `rpy3._classattrs`): the instance holding it,
/// which must be the same for every class `v` can be; recorded for the
/// rtyper.  `None` when the attribute is a constant of those classes (or
/// `v` is not a class).  A `store` goes to the class itself, as Python
/// sets the attribute on the class it is given.
fn class_value_holder(
    ann: &mut Annotator,
    py: Python<'_>,
    obj: &SomeValue,
    name: &str,
    store: bool,
) -> Result<Option<rpy3_model::PyObj>, AnnotatorError> {
    let classes: Vec<rpy3_model::PyObj> = match obj {
        SomeValue::Pbc { descs, .. } => {
            let mut out = Vec::new();
            for &d in descs.iter() {
                match &ann.descs[d] {
                    crate::description::Desc::Class { cls, .. } => out.push(cls.clone()),
                    _ => return Ok(None),
                }
            }
            out
        }
        SomeValue::Type {
            konst: Some(k), ..
        } => vec![k.clone()],
        SomeValue::Type {
            classdef: Some(c),
            konst: None,
        } => {
            let c = *c;
            // (read again when a new subclass appears)
            if let Some(pos) = ann.current_position() {
                ann.classdefs[c].method_readers.insert((pos.0, pos.1));
            }
            ann.classdefs
                .keys()
                .filter(|&k| ann.is_subclass(k, c))
                .map(|k| ann.classdefs[k].cls.clone())
                .collect()
        }
        _ => return Ok(None),
    };
    if classes.is_empty() {
        return Ok(None);
    }
    let func = if store { "store_holder" } else { "holder_for" };
    let module = py
        .import("rpy3._classattrs")
        .map_err(|e| ann.error(format!("rpy3._classattrs: {e}")))?;
    let mut found: Vec<Option<rpy3_model::PyObj>> = Vec::new();
    for cls in &classes {
        let h = module
            .getattr(func)
            .and_then(|f| f.call1((cls.bind(py), name)))
            .map_err(|e| ann.error(format!("rpy3._classattrs: {e}")))?;
        found.push((!h.is_none()).then(|| rpy3_model::PyObj::new(&h)));
    }
    if found.iter().all(Option::is_none) {
        // (a store is then refused as an attribute of a class value)
        return Ok(None);
    }
    let first = found[0].clone();
    let same = found.iter().all(|h| match (h, &first) {
        (Some(a), Some(b)) => a.bind(py).is(b.bind(py)),
        _ => false,
    });
    if !same {
        let what = if store { "assigned" } else { "read" };
        return Err(ann.error(format!(
            "the class attribute '{name}' is {what} through a value that can be several \
             classes, which do not share it (Python would {}); use the class's name",
            if store {
                "set it on whichever class the value is"
            } else {
                "read each class's own attribute"
            }
        )));
    }
    if let Some(pos) = ann.current_position() {
        ann.class_attr_holders.insert(pos, first.clone().expect("same"));
    }
    Ok(first)
}

/// The RPython function of `rpy3.hlbuiltins` that implements method
/// `name` of a built-in value annotated `recv` (`int.to_bytes`), if any.
fn method_helper<'py>(py: Python<'py>, recv: &SomeValue, name: &str) -> Option<Bound<'py, PyAny>> {
    let kind = match recv {
        SomeValue::Integer { .. } | SomeValue::Bool { .. } => "int",
        SomeValue::Str {
            kind: crate::model::StrKind::Str,
            can_be_none: false,
            ..
        } => "str",
        _ => return None,
    };
    let f = py
        .import("rpy3.hlbuiltins")
        .ok()?
        .getattr("method_helper")
        .ok()?
        .call1((kind, name))
        .ok()?;
    (!f.is_none()).then_some(f)
}

/// `issubtype(t, C)` (an `except` clause, `issubclass`): constant when the
/// annotation of `t` decides; when true, `t` and the value it is the class
/// of are narrowed to `C`.
fn issubtype(
    ann: &mut Annotator,
    py: Python<'_>,
    graph: GraphId,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Result<SomeValue, AnnotatorError> {
    // the classes tested against
    let mut targets: Vec<rpy3_model::PyObj> = Vec::new();
    let mut all_known = true;
    let items: Vec<SomeValue> = match &args[1] {
        SomeValue::Tuple(items) => items.clone(),
        other => vec![other.clone()],
    };
    for it in &items {
        match it.konst().cloned().or_else(|| pbc_const(ann, it)) {
            Some(k) => targets.push(k),
            None => all_known = false,
        }
    }
    if let (SomeValue::Type { konst: Some(a), .. }, true) = (&args[0], all_known) {
        let a = a.bind(py);
        let r = match a.cast::<pyo3::types::PyType>() {
            Ok(t) => targets
                .iter()
                .any(|b| t.is_subclass(b.bind(py)).unwrap_or(false)),
            Err(_) => false,
        };
        return Ok(SomeValue::Bool {
            konst: Some(r),
            knowntypedata: None,
        });
    }
    let SomeValue::Type {
        classdef: Some(x), ..
    } = &args[0]
    else {
        return Ok(SomeValue::bool());
    };
    let x = *x;
    if !all_known {
        return Ok(SomeValue::bool());
    }
    let mut narrowed: Option<ClassDefId> = None;
    for k in &targets {
        let kb = k.bind(py);
        if !kb.is_instance_of::<pyo3::types::PyType>() {
            return Ok(SomeValue::bool());
        }
        let c = ann.getclassdef(py, kb)?;
        if ann.is_subclass(x, c) {
            return Ok(SomeValue::Bool {
                konst: Some(true),
                knowntypedata: None,
            });
        }
        if ann.is_subclass(c, x) {
            narrowed = Some(match narrowed {
                None => c,
                Some(n) => ann.common_base(n, c).unwrap_or(x),
            });
        }
    }
    let Some(n) = narrowed else {
        return Ok(SomeValue::bool());
    };
    let mut facts = Vec::new();
    if let Some(t) = op_var(op, 0) {
        facts.push((
            t,
            Some(SomeValue::Type {
                classdef: Some(n),
                konst: None,
            }),
            None,
        ));
        if let Some(v) = ann.typeof_var(graph, t) {
            if let SomeValue::Instance { classdef: vc, .. } = ann.binding(graph, v) {
                if ann.is_subclass(n, vc) {
                    facts.push((
                        v,
                        Some(SomeValue::Instance {
                            classdef: n,
                            can_be_none: false,
                        }),
                        None,
                    ));
                }
            }
        }
    }
    Ok(SomeValue::Bool {
        konst: None,
        knowntypedata: Some(Arc::new(KnownTypeData { facts })),
    })
}

/// `super(C, obj)`: a proxy remembering the class where the method lookup
/// starts and the instance the methods found are bound to.
fn super_object(
    ann: &mut Annotator,
    py: Python<'_>,
    cls: &SomeValue,
    obj: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    let Some(c) = pbc_const(ann, cls) else {
        return Err(ann.error(format!(
            "super() with a first argument that is not a constant class ({})",
            describe(cls)
        )));
    };
    if !c.bind(py).is_instance_of::<pyo3::types::PyType>() {
        return Err(ann.error("super() with a first argument that is not a class"));
    }
    match obj {
        SomeValue::Instance { classdef, .. } => {
            let cdef = ann.getclassdef(py, c.bind(py))?;
            if !ann.is_subclass(*classdef, cdef) {
                return Err(ann.error(format!(
                    "super({}, obj): obj is not an instance of that class",
                    ann.classdefs[cdef].name
                )));
            }
            let s_inst = SomeValue::Instance {
                classdef: *classdef,
                can_be_none: false,
            };
            Ok(SomeValue::Builtin {
                name: "super",
                s_self: Some(Box::new(SomeValue::Tuple(vec![cls.clone(), s_inst]))),
            })
        }
        other => Err(ann.error(format!(
            "super() with a second argument that is {}, not an instance",
            describe(other)
        ))),
    }
}

/// `instantiate(cls)`: a new instance of one of the classes `cls` can be,
/// without running `__init__`.
fn instantiate_builtin(
    ann: &mut Annotator,
    py: Python<'_>,
    args: &CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    let positional = args.flat_positional().unwrap_or_default();
    if positional.len() != 1 || !args.keywords.is_empty() {
        return Err(ann.error("instantiate() takes exactly one argument"));
    }
    let classes: Vec<rpy3_model::PyObj> = match &positional[0] {
        SomeValue::Pbc {
            descs,
            can_be_none: false,
        } => {
            let mut out = Vec::new();
            for d in descs.iter() {
                match &ann.descs[*d] {
                    Desc::Class { cls, .. } => out.push(cls.clone()),
                    _ => return Err(ann.error("instantiate() of something that is not a class")),
                }
            }
            out
        }
        SomeValue::Type {
            classdef: Some(c),
            konst: None,
        } => vec![ann.classdefs[*c].cls.clone()],
        SomeValue::Type { konst: Some(k), .. } => vec![k.clone()],
        other => {
            return Err(ann.error(format!("instantiate() of {}, not a class", describe(other))))
        }
    };
    let mut result = SomeValue::Impossible;
    for cls in classes {
        let cdef = ann.getclassdef(py, cls.bind(py))?;
        let s = SomeValue::Instance {
            classdef: cdef,
            can_be_none: false,
        };
        result = ann.union(&result, &s).map_err(|e| {
            let mut err = ann.error(e.message);
            err.chain
                .push("uniting the classes instantiate() can create".into());
            err
        })?;
    }
    Ok(result)
}

/// An attribute of one prebuilt constant.
fn pbc_getattr(
    ann: &mut Annotator,
    py: Python<'_>,
    d: crate::ids::DescId,
    name: &str,
) -> Result<SomeValue, AnnotatorError> {
    let obj = match &ann.descs[d] {
        Desc::Frozen { obj, .. } | Desc::Class { cls: obj, .. } => obj.clone(),
        Desc::Function(f) => f.func.clone(),
        _ => {
            return Err(ann.error(format!(
                "cannot read the attribute '{name}' of a bound method"
            )))
        }
    };
    let o = obj.bind(py);
    if name == "__new__" && o.is_instance_of::<pyo3::types::PyType>() {
        // `Cls.__new__(Cls)` of a class keeping object's __new__: an
        // instance not initialised (RPython's instantiate())
        let object_new = py
            .import("builtins")
            .and_then(|b| b.getattr("object")?.getattr("__new__"));
        if let (Ok(v), Ok(on)) = (o.getattr(name), object_new) {
            if v.is(&on) {
                return Ok(SomeValue::Builtin {
                    name: "instantiate",
                    s_self: None,
                });
            }
        }
    }
    if name == "__str__" && o.is_instance_of::<pyo3::types::PyType>() {
        // `Exception.__str__(self)` (BaseException's): the exception's own
        // text
        let base_str = py
            .import("builtins")
            .and_then(|b| b.getattr("BaseException")?.getattr("__str__"));
        if let (Ok(v), Ok(bs)) = (o.getattr(name), base_str) {
            if v.is(&bs) {
                return Ok(SomeValue::Builtin {
                    name: "exception_message",
                    s_self: None,
                });
            }
        }
    }
    if name == "__init__" && o.is_instance_of::<pyo3::types::PyType>() {
        // `Base.__init__` where the base is a built-in class (Exception, object)
        if let Ok(v) = o.getattr(name) {
            if !v.is_instance_of::<pyo3::types::PyFunction>() {
                return Ok(SomeValue::Builtin {
                    name: "base_init",
                    s_self: None,
                });
            }
        }
    }
    let v = o.getattr(name).map_err(|_| {
        ann.error(format!(
            "{} has no attribute '{name}'",
            o.repr().map(|r| r.to_string()).unwrap_or_default()
        ))
    })?;
    if matches!(ann.descs[d], Desc::Frozen { .. })
        && v.get_type().name().map(|n| n == "method").unwrap_or(false)
    {
        let func = v
            .getattr("__func__")
            .map_err(|e| ann.error(format!("{e}")))?;
        let md = ann.method_of_frozen_desc(py, &func, d)?;
        return Ok(ann.pbc(md));
    }
    ann.immutablevalue(py, &v)
}

/// A field of the struct a low-level pointer points to (looked up through
/// its inlined parents); an inlined array gives an interior pointer.
fn ll_getattr(
    ann: &mut Annotator,
    pt: rpy3_model::lltype::LlType,
    name: &str,
) -> Result<SomeValue, AnnotatorError> {
    use rpy3_model::lltype::{LlType, TypeDef};
    let target = pt
        .target()
        .ok_or_else(|| ann.error("getattr on a non-pointer"))?;
    let Some((path, ft)) = crate::lldialect::find_field(target, name) else {
        return Err(ann.error(format!("{target} has no field '{name}'")));
    };
    match ft.def() {
        TypeDef::Array { gc: false, .. } => {
            let owner = path.last().copied().unwrap_or(target);
            let parent = LlType::ptr(owner).map_err(|e| ann.error(e.to_string()))?;
            Ok(SomeValue::InteriorPtr {
                parent,
                field: Arc::from(name),
            })
        }
        TypeDef::Struct { .. } => Err(ann.error(format!(
            "reading the inlined struct field '{name}' is not supported yet"
        ))),
        _ => ann.ll_annotation(ft),
    }
}

/// An attribute of a low-level type used as a value in a helper:
/// `Ptr.TO`, `Array.OF`, a struct's field type.
fn lltype_attr(
    ann: &mut Annotator,
    t: rpy3_model::lltype::LlType,
    name: &str,
) -> Result<SomeValue, AnnotatorError> {
    use rpy3_model::lltype::TypeDef;
    let found = match (t.def(), name) {
        (TypeDef::Ptr(target), "TO") => Some(target),
        (TypeDef::Array { item, .. }, "OF") => Some(item),
        (TypeDef::Struct { .. }, _) => crate::lldialect::find_field(t, name).map(|(_, ft)| ft),
        _ => None,
    };
    found
        .map(SomeValue::LowLevelType)
        .ok_or_else(|| ann.error(format!("the low-level type {t} has no attribute '{name}'")))
}

/// The classes at or below `c`, as a PBC of classes.
pub(crate) fn classes_below(
    ann: &mut Annotator,
    py: Python<'_>,
    c: crate::ids::ClassDefId,
) -> Result<SomeValue, AnnotatorError> {
    let mut s = SomeValue::Impossible;
    for cd in ann.subtree(c) {
        let cls = ann.classdefs[cd].cls.clone();
        let one = ann.immutablevalue(py, cls.bind(py))?;
        s = ann.union(&s, &one).map_err(|e| ann.error(e.message))?;
    }
    Ok(s)
}

/// `zip(*seqs)` where the number of iterables is known at run time only
/// (`seqs` is no tuple of known length): a call of the generator
/// `rpy3.hlbuiltins.rpy_zip_star(seqs)`, giving tuples of that length,
/// recorded as a special call for the rtyper.  `star_at` is the index of
/// `seqs` among the operation's arguments.
fn zip_star(
    ann: &mut Annotator,
    py: Python<'_>,
    callee: &SomeValue,
    ca: &CallArgs,
    star_at: usize,
) -> Result<Option<SomeValue>, AnnotatorError> {
    let is_zip = matches!(callee, SomeValue::Builtin { name: "zip", s_self: None });
    let Some(star) = &ca.star else {
        return Ok(None);
    };
    if !ca.positional.is_empty() || !ca.keywords.is_empty() || matches!(star, SomeValue::Tuple(_)) {
        return Ok(None);
    }
    if let SomeValue::Builtin {
        name: name @ ("min" | "max"),
        s_self: None,
    } = callee
    {
        // max(*seq) of a sequence of two items or more is max(seq)
        let s_method = callee.clone();
        let result = call(ann, py, &s_method, CallArgs::positional(vec![star.clone()]))?;
        if let Some(at) = ann.current_position() {
            ann.special_calls.insert(
                at,
                special::SpecialCall {
                    method: name.to_string(),
                    s_method,
                    receiver: star_at,
                    args: vec![star_at],
                    negate: false,
                },
            );
        }
        return Ok(Some(result));
    }
    if !is_zip {
        return Ok(None);
    }
    let f = py
        .import("rpy3.hlbuiltins")
        .and_then(|m| m.getattr("rpy_zip_star"))
        .map_err(|e| ann.error(format!("rpy3.hlbuiltins: {e}")))?;
    let s_method = ann.immutablevalue(py, &f)?;
    let result = call(ann, py, &s_method, CallArgs::positional(vec![star.clone()]))?;
    if let Some(at) = ann.current_position() {
        ann.special_calls.insert(
            at,
            special::SpecialCall {
                method: "rpy_zip_star".into(),
                s_method,
                receiver: star_at,
                args: vec![star_at],
                negate: false,
            },
        );
    }
    Ok(Some(result))
}

/// `print(*seq)` (with `sep=` and `end=`) where `seq` is no tuple of
/// known length: a call of `rpy3.hlbuiltins.rpy_print_star(seq, sep,
/// end)` (or `rpy_print_star_end(seq, end)`), recorded as a special call
/// for the rtyper.  `star_at` is the index of `seq` among the operation's
/// arguments; the keyword values come just before it.
fn print_star(
    ann: &mut Annotator,
    py: Python<'_>,
    callee: &SomeValue,
    ca: &CallArgs,
    keywords: &[String],
    star_at: usize,
) -> Result<Option<SomeValue>, AnnotatorError> {
    let is_print = matches!(callee, SomeValue::Builtin { name: "print", s_self: None });
    let Some(star) = &ca.star else {
        return Ok(None);
    };
    if !is_print || !ca.positional.is_empty() || matches!(star, SomeValue::Tuple(_)) {
        return Ok(None);
    }
    let kw_at = |name: &str| {
        keywords
            .iter()
            .position(|k| k == name)
            .map(|j| star_at - keywords.len() + j)
    };
    if keywords.iter().any(|k| k != "sep" && k != "end") {
        return Ok(None);
    }
    let (helper, extra) = match (kw_at("sep"), kw_at("end")) {
        (None, None) => ("rpy_print_star", vec![]),
        (Some(s), None) => ("rpy_print_star", vec![s]),
        (Some(s), Some(e)) => ("rpy_print_star", vec![s, e]),
        (None, Some(e)) => ("rpy_print_star_end", vec![e]),
    };
    let f = py
        .import("rpy3.hlbuiltins")
        .and_then(|m| m.getattr(helper))
        .map_err(|e| ann.error(format!("rpy3.hlbuiltins: {e}")))?;
    let s_method = ann.immutablevalue(py, &f)?;
    let mut pos = vec![star.clone()];
    for (name, v) in &ca.keywords {
        if (name == "sep" && helper == "rpy_print_star") || name == "end" {
            pos.push(v.clone());
        }
    }
    let result = call(ann, py, &s_method, CallArgs::positional(pos))?;
    let mut args = vec![star_at];
    args.extend(extra);
    if let Some(at) = ann.current_position() {
        ann.special_calls.insert(
            at,
            special::SpecialCall {
                method: helper.into(),
                s_method,
                receiver: star_at,
                args,
                negate: false,
            },
        );
    }
    Ok(Some(result))
}

/// A call of whatever `callee` is.
pub(crate) fn call(
    ann: &mut Annotator,
    py: Python<'_>,
    callee: &SomeValue,
    args: CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    match callee {
        SomeValue::Pbc { descs, .. } => {
            let descs: Vec<_> = descs.iter().copied().collect();
            let mut result = SomeValue::Impossible;
            for d in descs {
                let s = call_desc(ann, py, d, &args)?;
                result = ann.union(&result, &s).map_err(|e| {
                    let mut err = ann.error(e.message);
                    err.chain
                        .push("uniting the results of the functions a call can reach".into());
                    err
                })?;
            }
            Ok(result)
        }
        // BaseException's __str__ of an exception (`Exception.__str__(self)`,
        // `super().__str__()`): the text of its arguments
        SomeValue::Builtin {
            name: "exception_message",
            s_self,
        } => {
            let inst = match s_self.as_deref() {
                Some(inst) => Some(inst.clone()),
                None => args.positional.first().cloned(),
            };
            match inst {
                Some(SomeValue::Instance { classdef, .. })
                    if ann.is_exception_classdef(py, classdef) =>
                {
                    if ann.exception_keeps_message(py, classdef) {
                        ann.note_exception_message(py)?;
                    }
                    Ok(SomeValue::str())
                }
                _ => Err(ann.error("BaseException.__str__ of something that is not an exception")),
            }
        }
        // the `__init__` of a built-in base (`Exception.__init__`,
        // `object.__init__`): accepts the arguments, does nothing typable
        SomeValue::Builtin {
            name: "base_init",
            s_self,
        } => {
            // `Exception.__init__(self, msg)` / `super().__init__(msg)`:
            // the exception keeps the text of its arguments
            let (s_inst, nargs) = match s_self.as_deref() {
                // super().__init__: bound to the instance
                Some(inst) => (Some(inst.clone()), args.positional.len()),
                None => (
                    args.positional.first().cloned(),
                    args.positional.len().saturating_sub(1),
                ),
            };
            if let Some(SomeValue::Instance { classdef, .. }) = s_inst {
                if nargs > 0
                    && ann.is_exception_classdef(py, classdef)
                    && ann.exception_keeps_message(py, classdef)
                {
                    ann.note_exception_message(py)?;
                }
            }
            Ok(SomeValue::None_)
        }
        SomeValue::Builtin {
            name: "instantiate",
            s_self: None,
        } => instantiate_builtin(ann, py, &args),
        SomeValue::Builtin {
            name,
            s_self: Some(recv),
        } if method_helper(py, recv, name).is_some() => {
            // a method of a built-in value written in RPython
            // (`n.to_bytes(...)`): a call of its helper with the value
            let f = method_helper(py, recv, name).expect("checked");
            let s_f = ann.immutablevalue(py, &f)?;
            let Some(positional) = args.flat_positional() else {
                return Err(ann.error(format!("{name}() with *args")));
            };
            if !args.keywords.is_empty() {
                return Err(ann.error(format!("{name}() with keyword arguments")));
            }
            let n = positional.len();
            let mut call_args = vec![(**recv).clone()];
            call_args.extend(positional);
            let result = call(ann, py, &s_f, crate::description::CallArgs::positional(call_args))?;
            if let Some(at) = ann.current_position() {
                ann.special_calls.insert(
                    at,
                    SpecialCall {
                        method: format!("{}{name}", special::PROTOCOL_HELPER),
                        s_method: s_f,
                        receiver: 0,
                        args: (1..=n).collect(),
                        negate: false,
                    },
                );
            }
            Ok(result)
        }
        SomeValue::Builtin { name, s_self } => {
            builtins::call(ann, py, name, s_self.as_deref(), args)
        }
        SomeValue::Type { konst: Some(k), .. } => {
            let k = k.clone();
            let s = ann.immutablevalue(py, k.bind(py))?;
            call(ann, py, &s, args)
        }
        // the class of an instance (`x.__class__(...)`): any class at or
        // below its class definition, as PyPy's read_attr__class__
        SomeValue::Type {
            classdef: Some(c),
            konst: None,
        } => {
            let s = classes_below(ann, py, *c)?;
            call(ann, py, &s, args)
        }
        // a low-level function pointer in a helper
        SomeValue::Ptr(pt) => {
            let target = pt.target().map(|t| t.def());
            let Some(rpy3_model::lltype::TypeDef::Func {
                args: params,
                result,
            }) = target
            else {
                return Err(ann.error(format!("cannot call the low-level pointer {pt}")));
            };
            if args.positional.len() != params.len() || !args.keywords.is_empty() {
                return Err(ann.error(format!(
                    "the function pointer {pt} takes {} arguments",
                    params.len()
                )));
            }
            ann.ll_annotation(result)
        }
        other => Err(ann.error(format!("cannot call {}", describe(other)))),
    }
}

fn call_desc(
    ann: &mut Annotator,
    py: Python<'_>,
    d: crate::ids::DescId,
    args: &CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    match &ann.descs[d] {
        Desc::Function(_) => ann.call_function(py, d, args.clone()),
        Desc::Method {
            func, selfclassdef, ..
        } => {
            let (func, selfclassdef) = (*func, *selfclassdef);
            let s_self = SomeValue::Instance {
                classdef: selfclassdef,
                can_be_none: false,
            };
            ann.call_function(py, func, args.prepend(s_self))
        }
        Desc::MethodOfFrozen { func, frozen } => {
            let (func, frozen) = (*func, *frozen);
            let s_self = ann.pbc(frozen);
            ann.call_function(py, func, args.prepend(s_self))
        }
        Desc::Class { cls, .. } => {
            let cls = cls.clone();
            instantiate(ann, py, &cls, args)
        }
        Desc::Frozen { name, .. } => {
            Err(ann.error(format!("the prebuilt constant {name} is not callable")))
        }
    }
}

/// `C(args)`: a new instance, then `C.__init__` if the program defines one.
fn instantiate(
    ann: &mut Annotator,
    py: Python<'_>,
    cls: &rpy3_model::PyObj,
    args: &CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    let c = cls.bind(py).clone();
    if let Some(s) = builtins::call_class_builtin(ann, py, &c, args)? {
        return Ok(s);
    }
    let builtin_type = c
        .getattr("__module__")
        .is_ok_and(|m| m.to_string() == "builtins");
    let is_exception = c.cast::<pyo3::types::PyType>().is_ok_and(|t| {
        t.is_subclass(&py.get_type::<pyo3::exceptions::PyBaseException>())
            .unwrap_or(false)
    });
    if builtin_type && !is_exception {
        let name = c
            .getattr("__name__")
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(ann.error(format!(
            "the built-in type {name}() is not supported in RPython"
        )));
    }
    let cdef = ann.getclassdef(py, &c)?;
    let s_inst = SomeValue::Instance {
        classdef: cdef,
        can_be_none: false,
    };
    if is_exception && !args.positional.is_empty() && ann.exception_keeps_message(py, cdef) {
        // CPython keeps the arguments of the call (`str(e)`), whatever
        // the class's `__init__` does
        ann.note_exception_message(py)?;
    }
    let init = c
        .getattr("__init__")
        .map_err(|e| ann.error(format!("{e}")))?;
    if init.is_instance_of::<pyo3::types::PyFunction>() {
        let d = ann.method_desc(py, &init, cdef, "__init__")?;
        let r = call_desc(ann, py, d, args)?;
        if r.is_impossible() {
            // __init__ not annotated yet (or always raises): the instance
            // still exists for the rest of the block.
        }
    } else {
        let is_exc = c
            .cast::<pyo3::types::PyType>()
            .map(|t| {
                t.is_subclass(&py.get_type::<pyo3::exceptions::PyBaseException>())
                    .unwrap_or(false)
            })
            .unwrap_or(false);
        if is_exc {
            // BaseException.__init__ accepts any arguments (their text is
            // kept, below)
        } else if !args.positional.is_empty() || !args.keywords.is_empty() {
            let name = ann.classdefs[cdef].name.clone();
            return Err(ann.error(format!(
                "{name}() takes no arguments (the class has no __init__)"
            )));
        }
    }
    Ok(s_inst)
}
