//! Special methods of the program's classes: an operation on an instance
//! whose class defines the matching method (`a + b` with `__add__`,
//! `x[i]` with `__getitem__`, `str(x)` with `__str__`, `for y in x` with
//! `__iter__`, `x(...)` with `__call__`, ...) is annotated as a call of
//! that method, and the call is recorded in `Annotator::special_calls`
//! so the rtyper lowers the operation as the same method call.  Python
//! finds such methods on the class; only methods the program defines
//! count (not those of `object`).

use pyo3::prelude::*;
use pyo3::types::PyFunction;
use rpy3_model::{Hlvalue, OpName, SpaceOperation};

use crate::description::CallArgs;
use crate::error::AnnotatorError;
use crate::ids::ClassDefId;
use crate::model::SomeValue;
use crate::Annotator;

/// An operation lowered as a call of a special method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialCall {
    /// The method's name.
    pub method: String,
    /// The annotation of the bound method (a PBC of methods).
    pub s_method: SomeValue,
    /// The operation's argument that is the receiver.
    pub receiver: usize,
    /// The operation's arguments passed to the method, in order.
    pub args: Vec<usize>,
    /// The method's result is negated (`!=` through `__eq__`).
    pub negate: bool,
}

/// Whether the class of `c` (or a base of it) sets `__hash__` to None
/// (Python does when a class defines `__eq__` only).
pub(crate) fn hash_is_none(ann: &Annotator, py: Python<'_>, c: ClassDefId) -> bool {
    let cls = ann.classdefs[c].cls.bind(py).clone();
    cls.getattr("__hash__").is_ok_and(|h| h.is_none())
}

/// Whether the class of `c` (or a base of it, but not `object`) defines
/// `name` as a function.
pub(crate) fn defines(ann: &Annotator, py: Python<'_>, c: ClassDefId, name: &str) -> bool {
    let cls = ann.classdefs[c].cls.bind(py).clone();
    let Ok(mro) = cls.getattr("__mro__") else {
        return false;
    };
    let Ok(mro) = mro.try_iter() else {
        return false;
    };
    for k in mro.flatten() {
        let builtin = k
            .getattr("__module__")
            .is_ok_and(|m| m.to_string() == "builtins");
        if builtin {
            continue;
        }
        if let Ok(d) = k.getattr("__dict__") {
            if let Ok(v) = d.get_item(name) {
                return v.is_instance_of::<PyFunction>();
            }
        }
    }
    false
}

fn class_of(s: &SomeValue) -> Option<ClassDefId> {
    match s {
        SomeValue::Instance { classdef, .. } => Some(*classdef),
        _ => None,
    }
}

/// The special method an operation calls on `args`, if any: (method,
/// receiver, arguments passed, negate).
fn lookup(
    ann: &Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Option<(String, usize, Vec<usize>, bool)> {
    use OpName::*;
    if matches!(op.opname, Getattr | Setattr) {
        // a property: a call of its getter or setter, exposed as methods
        let c = class_of(args.first()?)?;
        let Hlvalue::Constant(k) = op.args.get(1)? else {
            return None;
        };
        let name: String = k.value.bind(py).extract().ok()?;
        let cls = ann.classdefs[c].cls.bind(py).clone();
        let found = py
            .import("rpy3._properties")
            .and_then(|m| m.getattr("find")?.call1((cls, name.as_str())))
            .ok()?;
        if found.is_none() {
            return None;
        }
        return Some(if op.opname == Getattr {
            (format!("_rpy3_get_{name}"), 0, vec![], false)
        } else {
            (format!("_rpy3_set_{name}"), 0, vec![2], false)
        });
    }
    let lookup = lookup_special(ann, py, op, args)?;
    Some((lookup.0.to_string(), lookup.1, lookup.2, lookup.3))
}

/// The special method (a dunder) an operation calls on `args`, if any.
fn lookup_special(
    ann: &Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Option<(&'static str, usize, Vec<usize>, bool)> {
    use OpName::*;
    let has = |i: usize, name: &str| -> bool {
        args.get(i)
            .and_then(class_of)
            .is_some_and(|c| defines(ann, py, c, name))
    };
    // (the left operand's class, nor any subclass, defines the method:
    // object's gives NotImplemented, and the right one's reflection is
    // called, as in CPython)
    let lacks = |i: usize, name: &str| -> bool {
        match args.get(i).and_then(class_of) {
            Some(c) => !ann.subtree(c).into_iter().any(|k| defines(ann, py, k, name)),
            None => true,
        }
    };
    let binary = |name: &'static str, rname: &'static str| {
        if has(0, name) {
            Some((name, 0, vec![1], false))
        } else if rname.is_empty() || !lacks(0, name) {
            None
        } else if has(1, rname) {
            Some((rname, 1, vec![0], false))
        } else {
            None
        }
    };
    let inplace = |iname: &'static str, name: &'static str, rname: &'static str| {
        if has(0, iname) {
            Some((iname, 0, vec![1], false))
        } else {
            binary(name, rname)
        }
    };
    match op.opname {
        Add => binary("__add__", "__radd__"),
        Sub => binary("__sub__", "__rsub__"),
        Mul => binary("__mul__", "__rmul__"),
        Truediv => binary("__truediv__", "__rtruediv__"),
        Floordiv => binary("__floordiv__", "__rfloordiv__"),
        Mod => binary("__mod__", "__rmod__"),
        Pow => binary("__pow__", "__rpow__"),
        Lshift => binary("__lshift__", "__rlshift__"),
        Rshift => binary("__rshift__", "__rrshift__"),
        And_ => binary("__and__", "__rand__"),
        Or_ => binary("__or__", "__ror__"),
        Xor => binary("__xor__", "__rxor__"),
        Matmul => binary("__matmul__", "__rmatmul__"),
        InplaceAdd => inplace("__iadd__", "__add__", "__radd__"),
        InplaceSub => inplace("__isub__", "__sub__", "__rsub__"),
        InplaceMul => inplace("__imul__", "__mul__", "__rmul__"),
        InplaceTruediv => inplace("__itruediv__", "__truediv__", "__rtruediv__"),
        InplaceFloordiv => inplace("__ifloordiv__", "__floordiv__", "__rfloordiv__"),
        InplaceMod => inplace("__imod__", "__mod__", "__rmod__"),
        InplacePow => inplace("__ipow__", "__pow__", "__rpow__"),
        InplaceLshift => inplace("__ilshift__", "__lshift__", "__rlshift__"),
        InplaceRshift => inplace("__irshift__", "__rshift__", "__rrshift__"),
        InplaceAnd => inplace("__iand__", "__and__", "__rand__"),
        InplaceOr => inplace("__ior__", "__or__", "__ror__"),
        InplaceXor => inplace("__ixor__", "__xor__", "__rxor__"),
        InplaceMatmul => inplace("__imatmul__", "__matmul__", "__rmatmul__"),
        Neg if has(0, "__neg__") => Some(("__neg__", 0, vec![], false)),
        Pos if has(0, "__pos__") => Some(("__pos__", 0, vec![], false)),
        Invert if has(0, "__invert__") => Some(("__invert__", 0, vec![], false)),
        Abs if has(0, "__abs__") => Some(("__abs__", 0, vec![], false)),
        // comparisons: the reflection of < is >, of == is ==
        Lt => binary("__lt__", "__gt__"),
        Le => binary("__le__", "__ge__"),
        Gt => binary("__gt__", "__lt__"),
        Ge => binary("__ge__", "__le__"),
        Eq => binary("__eq__", "__eq__"),
        Ne if has(0, "__ne__") => Some(("__ne__", 0, vec![1], false)),
        Ne if has(0, "__eq__") => Some(("__eq__", 0, vec![1], true)),
        Ne if class_of(&args[0]).is_none() && has(1, "__eq__") => {
            Some(("__eq__", 1, vec![0], true))
        }
        Getitem if has(0, "__getitem__") => Some(("__getitem__", 0, vec![1], false)),
        Setitem if has(0, "__setitem__") => Some(("__setitem__", 0, vec![1, 2], false)),
        Delitem if has(0, "__delitem__") => Some(("__delitem__", 0, vec![1], false)),
        Len if has(0, "__len__") => Some(("__len__", 0, vec![], false)),
        Contains if has(0, "__contains__") => Some(("__contains__", 0, vec![1], false)),
        Iter if has(0, "__iter__") => Some(("__iter__", 0, vec![], false)),
        Next if has(0, "__next__") => Some(("__next__", 0, vec![], false)),
        Bool if has(0, "__bool__") => Some(("__bool__", 0, vec![], false)),
        // without __bool__, the truth of an instance is its length
        Bool if has(0, "__len__") => Some(("__len__", 0, vec![], false)),
        Str if has(0, "__str__") => Some(("__str__", 0, vec![], false)),
        Format if has(0, "__format__") => Some(("__format__", 0, vec![1], false)),
        Str | Repr | Ascii if has(0, "__repr__") => Some(("__repr__", 0, vec![], false)),
        Hash if has(0, "__hash__") => Some(("__hash__", 0, vec![], false)),
        SimpleCall if has(0, "__call__") => Some(("__call__", 0, (1..args.len()).collect(), false)),
        // float(x), int(x) of an instance: its conversion method
        SimpleCall
            if args.len() == 2
                && matches!(args[0], SomeValue::Builtin { name: "float", s_self: None })
                && has(1, "__float__") =>
        {
            Some(("__float__", 1, vec![], false))
        }
        // reversed(x) of an instance: its __reversed__()
        SimpleCall
            if args.len() == 2
                && matches!(args[0], SomeValue::Builtin { name: "reversed", s_self: None })
                && has(1, "__reversed__") =>
        {
            Some(("__reversed__", 1, vec![], false))
        }
        SimpleCall
            if args.len() == 2
                && matches!(args[0], SomeValue::Builtin { name: "int", s_self: None })
                && (has(1, "__int__") || has(1, "__index__")) =>
        {
            Some((if has(1, "__int__") { "__int__" } else { "__index__" }, 1, vec![], false))
        }
        _ => None,
    }
}

/// Annotates `op` as a call of a special method when one applies; the
/// result's annotation, or `None` when the operation is an ordinary one.
pub fn consider(
    ann: &mut Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Result<Option<SomeValue>, AnnotatorError> {
    if matches!(op.opname, OpName::Str | OpName::Repr) {
        install_text_defaults(ann, py, args)?;
    }
    let plain_format = op.opname == OpName::Format
        && args.get(1).is_some_and(|a| matches!(a.konst(), Some(k) if k.bind(py).extract::<String>().is_ok_and(|s| s.is_empty())));
    if (matches!(op.opname, OpName::Str | OpName::Repr | OpName::Ascii) || plain_format)
        && matches!(args.first(), Some(SomeValue::Instance { can_be_none: true, .. }))
    {
        // the text of an instance that may be None: 'None' for None, else
        // the instance's text (a helper testing it first)
        let helper = if op.opname == OpName::Repr { "repr_or_none" } else if op.opname == OpName::Ascii { "ascii_or_none" } else { "str_or_none" };
        return call_protocol_helper(ann, py, op, args, helper, 0, vec![]).map(Some);
    }
    let Some((method, receiver, passed, negate)) = lookup(ann, py, op, args) else {
        return protocol_fallback(ann, py, op, args);
    };
    let Some(c) = class_of(&args[receiver]) else {
        return Ok(None);
    };
    if method.starts_with("_rpy3_set_") && !defines(ann, py, c, &method) {
        let name = method.trim_start_matches("_rpy3_set_");
        return Err(ann.error(format!("the property '{name}' has no setter")));
    }
    let s_method = ann.get_attr(py, c, &method)?;
    let call_args = CallArgs::positional(passed.iter().map(|&i| args[i].clone()).collect());
    let result = super::call(ann, py, &s_method, call_args)?;
    let result = match (method.as_str(), negate) {
        (_, true) | ("__eq__" | "__ne__" | "__lt__" | "__le__" | "__gt__" | "__ge__", _)
            if !result.is_impossible() =>
        {
            SomeValue::bool()
        }
        ("__bool__" | "__contains__", _) if !result.is_impossible() => SomeValue::bool(),
        // ascii(x): the repr escaped, another str than the method gives
        ("__repr__", _) if op.opname == OpName::Ascii && !result.is_impossible() => SomeValue::str(),
        ("__len__", _) if op.opname == OpName::Bool && !result.is_impossible() => SomeValue::bool(),
        // (a __hash__ that always raises: the hash is still an int where
        // containers compute it)
        ("__hash__", _) => SomeValue::int(),
        _ => result,
    };
    if let Some(at) = ann.current_position() {
        ann.special_calls.insert(
            at,
            SpecialCall {
                method,
                s_method,
                receiver,
                args: passed,
                negate,
            },
        );
    }
    Ok(Some(result))
}

/// The prefix of the `method` of a [`SpecialCall`] that calls a helper
/// function of `rpy3._defaults` (the instance its first argument) instead
/// of a method.
pub const PROTOCOL_HELPER: &str = "protocol:";

/// The protocols CPython falls back on when a class lacks the special
/// method an operation wants: `x in obj` iterates over `obj` (its
/// `__iter__`), `iter(obj)` indexes it from 0 until IndexError (its
/// `__getitem__`).  A call of a helper of `rpy3._defaults`, recorded as
/// a special call whose method is a function.
fn protocol_fallback(
    ann: &mut Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    args: &[SomeValue],
) -> Result<Option<SomeValue>, AnnotatorError> {
    let reversed_call = op.opname == OpName::SimpleCall
        && args.len() == 2
        && matches!(args[0], SomeValue::Builtin { name: "reversed", s_self: None });
    // (the instance the protocol applies to)
    let receiver = usize::from(reversed_call);
    let Some(c) = args.get(receiver).and_then(class_of) else {
        return Ok(None);
    };
    let lacks = |ann: &Annotator, name: &str| !ann.subtree(c).into_iter().any(|k| defines(ann, py, k, name));
    let (helper, passed) = match op.opname {
        // reversed(obj) without __reversed__: its items from len(obj) - 1 down
        OpName::SimpleCall
            if reversed_call
                && lacks(ann, "__reversed__")
                && defines(ann, py, c, "__len__")
                && defines(ann, py, c, "__getitem__") =>
        {
            ("reverse_by_index", vec![])
        }
        OpName::Contains if lacks(ann, "__contains__") && defines(ann, py, c, "__iter__") => {
            ("contains_by_iteration", vec![1])
        }
        OpName::Iter if lacks(ann, "__iter__") && defines(ann, py, c, "__getitem__") => {
            ("iterate_by_index", vec![])
        }
        _ => return Ok(None),
    };
    call_protocol_helper(ann, py, op, args, helper, receiver, passed).map(Some)
}

/// `op` as a call of `helper` of `rpy3._defaults` with `args[receiver]`
/// and the arguments `passed`, recorded as a special call.
fn call_protocol_helper(
    ann: &mut Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    args: &[SomeValue],
    helper: &str,
    receiver: usize,
    passed: Vec<usize>,
) -> Result<SomeValue, AnnotatorError> {
    let f = py
        .import("rpy3._defaults")
        .and_then(|m| m.getattr(helper))
        .map_err(|e| ann.error(format!("rpy3._defaults: {e}")))?;
    let s_f = ann.immutablevalue(py, &f)?;
    let mut call_args = vec![args[receiver].clone()];
    call_args.extend(passed.iter().map(|&i| args[i].clone()));
    let result = super::call(ann, py, &s_f, CallArgs::positional(call_args))?;
    let result = match op.opname {
        OpName::Contains if !result.is_impossible() => SomeValue::bool(),
        _ => result,
    };
    if let Some(at) = ann.current_position() {
        ann.special_calls.insert(
            at,
            SpecialCall {
                method: format!("{PROTOCOL_HELPER}{helper}"),
                s_method: s_f,
                receiver,
                args: passed,
                negate: false,
            },
        );
    }
    Ok(result)
}

/// The conversions of a constant `%` format, in order: for each directive
/// consuming an argument, whether it is `%r`... (`Some(true)`), `%s`
/// (`Some(false)`) or another (`None`).
fn percent_conversions(fmt: &str) -> Vec<Option<bool>> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        while matches!(chars.get(i), Some('-' | '+' | ' ' | '#' | '0'..='9' | '.' | '*' | 'l' | 'h' | 'L')) {
            // (a '*' width takes a value, never shown)
            if chars[i] == '*' {
                out.push(None);
            }
            i += 1;
        }
        match chars.get(i) {
            Some('%') => {}
            Some('r' | 'a') => out.push(Some(true)),
            Some('s') => out.push(Some(false)),
            Some(_) => out.push(None),
            None => {}
        }
        i += 1;
    }
    out
}

/// `fmt % values` with a constant format: each instance that a `%s` or
/// `%r` shows is shown by its class's `__str__` or `__repr__`, called
/// here (and recorded for the rtyper in `Annotator::format_methods`).
pub fn format_methods(
    ann: &mut Annotator,
    py: Python<'_>,
    fmt: &str,
    values: &SomeValue,
) -> Result<(), AnnotatorError> {
    let items: Vec<SomeValue> = match values {
        SomeValue::Tuple(items) => items.clone(),
        // a tuple of a length known at run time only: its items, as many
        // as the format takes (a different length raises TypeError)
        SomeValue::List(id) if ann.itemdefs.get(*id).tuple => {
            let item = ann.itemdefs.get(*id).item.clone();
            vec![item; percent_conversions(fmt).len()]
        }
        other => vec![other.clone()],
    };
    let Some(pos) = ann.current_position() else {
        return Ok(());
    };
    for (j, (conv, item)) in percent_conversions(fmt).into_iter().zip(items).enumerate() {
        let (Some(repr), Some(c)) = (conv, class_of(&item)) else {
            continue;
        };
        if ann.is_exception_classdef(py, c) && !repr {
            // (shown as str(e) is: its message, or a subclass's __str__)
            ann.note_exception_text(py, c)?;
            continue;
        }
        if ann.is_exception_classdef(py, c) && !defines(ann, py, c, "__repr__") {
            // (shown as repr(e) is)
            ann.note_exception_repr(py)?;
            continue;
        }
        install_text_defaults(ann, py, std::slice::from_ref(&item))?;
        let method = if !repr && defines(ann, py, c, "__str__") {
            "__str__"
        } else if defines(ann, py, c, "__repr__") {
            "__repr__"
        } else {
            continue;
        };
        let s_method = ann.get_attr(py, c, method)?;
        super::call(ann, py, &s_method, CallArgs::positional(Vec::new()))?;
        ann.format_methods.insert((pos.0, pos.1, pos.2, j), s_method);
    }
    Ok(())
}

/// The key bit of [`Annotator::format_methods`] telling the `__repr__`
/// that a `!r` field of `str.format()` shows (without it, the method
/// that `str()` calls).
pub const REPR_FIELD: usize = 1 << 20;

/// The key bit of [`Annotator::format_methods`] telling the `__format__`
/// that a field of `str.format()` without a conversion calls.
pub const FORMAT_FIELD: usize = 1 << 21;

/// `fmt.format(args...)`: each instance argument is shown by its class's
/// `__str__` (a `!r` field by its `__repr__`), called here and recorded
/// for the rtyper in `Annotator::format_methods` under the argument's
/// index (positional arguments first, then keywords).
pub fn str_format_methods(
    ann: &mut Annotator,
    py: Python<'_>,
    args: &[SomeValue],
) -> Result<(), AnnotatorError> {
    let Some(pos) = ann.current_position() else {
        return Ok(());
    };
    for (j, item) in args.iter().enumerate() {
        let Some(c) = class_of(item) else {
            continue;
        };
        if ann.is_exception_classdef(py, c) {
            continue;
        }
        install_text_defaults(ann, py, std::slice::from_ref(item))?;
        let as_str = if defines(ann, py, c, "__str__") {
            Some("__str__")
        } else if defines(ann, py, c, "__repr__") {
            Some("__repr__")
        } else {
            None
        };
        let as_repr = defines(ann, py, c, "__repr__").then_some("__repr__");
        let as_format = defines(ann, py, c, "__format__").then_some("__format__");
        for (key, method) in [(j, as_str), (j | REPR_FIELD, as_repr), (j | FORMAT_FIELD, as_format)] {
            let Some(method) = method else {
                continue;
            };
            let s_method = ann.get_attr(py, c, method)?;
            let args = if method == "__format__" {
                vec![SomeValue::str()]
            } else {
                Vec::new()
            };
            super::call(ann, py, &s_method, CallArgs::positional(args))?;
            ann.format_methods.insert((pos.0, pos.1, pos.2, key), s_method);
        }
    }
    Ok(())
}

/// `str(x)` or `repr(x)` of an instance of a class defining neither
/// (above `object`) while a subclass defines one: the class gets
/// `object`'s two as methods of its own (`rpy3._defaults`), so the call
/// dispatches on the instance's class.
fn install_text_defaults(
    ann: &mut Annotator,
    py: Python<'_>,
    args: &[SomeValue],
) -> Result<(), AnnotatorError> {
    let Some(c) = args.first().and_then(class_of) else {
        return Ok(());
    };
    if defines(ann, py, c, "__str__") || defines(ann, py, c, "__repr__") {
        return Ok(());
    }
    if ann.is_exception_classdef(py, c) {
        // an exception shows its message, or a subclass's __str__ through
        // a dispatcher (`Annotator::note_exception_text`); object's text
        // is not an exception's
        return Ok(());
    }
    let below = ann.subtree(c).into_iter().any(|k| {
        k != c && (defines(ann, py, k, "__str__") || defines(ann, py, k, "__repr__"))
    });
    if !below {
        return Ok(());
    }
    let cls = ann.classdefs[c].cls.bind(py).clone();
    py.import("rpy3._defaults")
        .and_then(|m| m.getattr("install")?.call1((cls,)))
        .map_err(|e| ann.error(format!("rpy3._defaults: {e}")))?;
    Ok(())
}

/// The built-ins that iterate over their positional arguments.
const ITERATING_BUILTINS: &[&str] = &[
    "list",
    "tuple",
    "set",
    "frozenset",
    "sorted",
    "sum",
    "min",
    "max",
    "any",
    "all",
    "enumerate",
    "zip",
];

/// A call of a built-in that iterates over an instance whose class
/// defines `__iter__`: the argument is replaced by the generator
/// `rpy3.hlbuiltins.rpy_iterate(obj)` (a call recorded in
/// `Annotator::special_args`, which the rtyper makes before the
/// built-in's own lowering).
pub fn iterable_arguments(
    ann: &mut Annotator,
    py: Python<'_>,
    name: &str,
    mut args: CallArgs,
) -> Result<CallArgs, AnnotatorError> {
    if !ITERATING_BUILTINS.contains(&name) {
        return Ok(args);
    }
    let iterated: Vec<usize> = match name {
        "zip" => (0..args.positional.len()).collect(),
        // min(a, b) compares its arguments; min(xs) iterates
        "min" | "max" if args.positional.len() != 1 => Vec::new(),
        _ => vec![0],
    };
    let mut recorded = Vec::new();
    let n = args.positional.len();
    for i in iterated.into_iter().filter(|&i| i < n) {
        let Some(c) = class_of(&args.positional[i]) else {
            continue;
        };
        if !defines(ann, py, c, "__iter__") {
            continue;
        }
        // through rpy3.hlbuiltins.rpy_iterate, a generator of the items
        let f = py
            .import("rpy3.hlbuiltins")
            .and_then(|m| m.getattr("rpy_iterate"))
            .map_err(|e| ann.error(format!("rpy3.hlbuiltins: {e}")))?;
        let s_method = ann.immutablevalue(py, &f)?;
        let s_iter = super::call(
            ann,
            py,
            &s_method,
            CallArgs::positional(vec![args.positional[i].clone()]),
        )?;
        recorded.push((
            i,
            SpecialCall {
                method: "rpy_iterate".into(),
                s_method,
                receiver: 0,
                args: Vec::new(),
                negate: false,
            },
            s_iter.clone(),
        ));
        args.positional[i] = s_iter;
    }
    if !recorded.is_empty() {
        if let Some(at) = ann.current_position() {
            ann.special_args.insert(at, recorded);
        }
    }
    Ok(args)
}
