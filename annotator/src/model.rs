//! The lattice of annotations (PyPy's `annotator/model.py`): what a
//! variable can hold, from `Impossible` (no value yet) upwards.  There is
//! no top: two annotations without a common, still-typable generalisation
//! do not unite, and the union reports why (a [`UnionError`]), which the
//! annotator turns into an error naming the source line.
//!
//! Lists, dicts, sets and generators are shared mutable containers: their
//! annotation names an item definition (`ItemDefId`) that every alias
//! shares, so the union of two list annotations merges their definitions
//! (see [`crate::itemdef`]).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::{PyObj, VarId};

use crate::ids::{ClassDefId, DescId, ItemDefId};

/// The machine integer kinds (`int`, `r_uint`, `r_longlong`, `r_ulonglong`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum IntKind {
    /// `int` (and `r_int`): a signed machine word.
    Signed,
    /// `r_uint`: an unsigned machine word.
    Unsigned,
    /// `r_longlong`: signed 64 bits.
    SignedLongLong,
    /// `r_ulonglong`: unsigned 64 bits.
    UnsignedLongLong,
}

impl IntKind {
    /// Whether values of this kind are unsigned.
    pub fn unsigned(self) -> bool {
        matches!(self, IntKind::Unsigned | IntKind::UnsignedLongLong)
    }

    /// The Python-level name.
    pub fn name(self) -> &'static str {
        match self {
            IntKind::Signed => "int",
            IntKind::Unsigned => "r_uint",
            IntKind::SignedLongLong => "r_longlong",
            IntKind::UnsignedLongLong => "r_ulonglong",
        }
    }
}

/// Text or bytes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum StrKind {
    /// `str` (Unicode).
    Str,
    /// `bytes`.
    Bytes,
}

/// Which items an iterator yields.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IterVariant {
    /// The container's items (`iter(x)`; a dict's keys).
    Items,
    /// A dict's values.
    Values,
    /// A dict's `(key, value)` pairs.
    Pairs,
    /// `enumerate(x)`: `(index, item)`, the index non-negative.
    Enumerate,
    /// `enumerate(x, start)` with a start that may be negative.
    EnumerateSigned,
    /// `reversed(x)`.
    Reversed,
    /// `zip(a, b, ...)`: `over` is the tuple of the iterables.
    Zip,
}

/// Facts a truth value carries about other variables of its block:
/// when it is true (or false), the variable has the narrower annotation.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct KnownTypeData {
    /// `(variable, annotation when true, annotation when false)`.
    pub facts: Vec<(VarId, Option<SomeValue>, Option<SomeValue>)>,
}

/// An annotation.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum SomeValue {
    /// No value (yet): the bottom of the lattice.
    Impossible,
    /// A machine integer; `bool_too` when some values are bools (a bool
    /// that met an int, `return False` in a function that also returns
    /// ints): it computes as an int but shows and tests as CPython's bool
    /// where it is one (the rtyper's `Repr::IntBool`, a box tagged with
    /// its kind).
    Integer {
        kind: IntKind,
        nonneg: bool,
        konst: Option<PyObj>,
        bool_too: bool,
    },
    /// A bool, possibly constant, possibly carrying narrowing facts.
    Bool {
        konst: Option<bool>,
        knowntypedata: Option<Arc<KnownTypeData>>,
    },
    /// A float; `int_too` when some values are ints (an int that met a
    /// float): a number whose kind is known at run time only, so that it
    /// shows, divides and tests as CPython's int or float (the rtyper's
    /// `Repr::Number`, a box tagged with its kind).
    Float {
        konst: Option<PyObj>,
        int_too: bool,
    },
    /// A str or bytes; `is_char` when it always has length 1.
    Str {
        kind: StrKind,
        is_char: bool,
        can_be_none: bool,
        konst: Option<PyObj>,
    },
    /// Exactly `None`.
    None_,
    /// A tuple of fixed length.
    Tuple(Vec<SomeValue>),
    /// A tuple of fixed length, or `None` (a tuple is a pointer to a GC
    /// struct at the low level, so `None` is the null pointer).
    TupleOrNone(Vec<SomeValue>),
    /// An int, float or bool that may be None (not RPython: a pointer to a
    /// box of the value, null for None).  Operations that need the value
    /// raise TypeError on None, as CPython does.
    Optional(Box<SomeValue>),
    /// A list; the item definition is shared by every alias.
    List(ItemDefId),
    /// A dict; the key and value definitions are shared by every alias.
    Dict(ItemDefId),
    /// A set.
    Set(ItemDefId),
    /// An instance of a class definition (or a subclass), maybe `None`.
    Instance {
        classdef: ClassDefId,
        can_be_none: bool,
    },
    /// One of a set of prebuilt constants: functions, classes, methods,
    /// frozen objects.  `konst` is the object when the set has one member
    /// that is a Python object.
    Pbc {
        descs: Arc<BTreeSet<DescId>>,
        can_be_none: bool,
    },
    /// An iterator over a container.
    Iterator {
        over: Box<SomeValue>,
        variant: IterVariant,
    },
    /// A generator object; its item definition holds what it yields.
    Generator(ItemDefId),
    /// A built-in function, or a method of a built-in type bound to a
    /// receiver (`s_self`).
    Builtin {
        name: &'static str,
        s_self: Option<Box<SomeValue>>,
    },
    /// A slice object `slice(start, stop, step)`: the annotations of its
    /// three parts (ints or `None`), always three.
    Slice(Vec<SomeValue>),
    /// A low-level type used as a value in a low-level helper (`malloc(T)`).
    LowLevelType(rpy3_model::lltype::LlType),
    /// A low-level pointer (of the given `Ptr` type) in a low-level helper.
    Ptr(rpy3_model::lltype::LlType),
    /// The array inlined in a varsize struct, reached through a pointer
    /// to the struct (of `Ptr` type `parent`): `p.chars`.
    InteriorPtr {
        parent: rpy3_model::lltype::LlType,
        field: Arc<str>,
    },
    /// A class as a value when only its identity matters (`type(x)`,
    /// exception classes caught by `except`): one of the classes at or
    /// below `classdef`.
    Type {
        classdef: Option<ClassDefId>,
        konst: Option<PyObj>,
    },
}

/// Why two annotations do not unite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnionError {
    /// A one-line reason in Python terms.
    pub message: String,
}

impl SomeValue {
    /// A plain signed integer.
    pub fn int() -> SomeValue {
        SomeValue::Integer {
            kind: IntKind::Signed,
            nonneg: false,
            konst: None,
            bool_too: false,
        }
    }

    /// A signed integer known to be `>= 0`.
    pub fn nonneg_int() -> SomeValue {
        SomeValue::Integer {
            kind: IntKind::Signed,
            nonneg: true,
            konst: None,
            bool_too: false,
        }
    }

    /// A bool.
    pub fn bool() -> SomeValue {
        SomeValue::Bool {
            konst: None,
            knowntypedata: None,
        }
    }

    /// A float.
    pub fn float() -> SomeValue {
        SomeValue::Float {
            konst: None,
            int_too: false,
        }
    }

    /// An int or a float, its kind known at run time only.
    pub fn number() -> SomeValue {
        SomeValue::Float {
            konst: None,
            int_too: true,
        }
    }

    /// Whether some values of a numeric annotation are ints (or bools),
    /// so an arithmetic result may stay an int.
    pub fn may_be_int(&self) -> bool {
        match self {
            SomeValue::Integer { .. } | SomeValue::Bool { .. } => true,
            SomeValue::Float { int_too, .. } => *int_too,
            _ => false,
        }
    }

    /// A str.
    pub fn str() -> SomeValue {
        SomeValue::Str {
            kind: StrKind::Str,
            is_char: false,
            can_be_none: false,
            konst: None,
        }
    }

    /// A length-1 str.
    pub fn char() -> SomeValue {
        SomeValue::Str {
            kind: StrKind::Str,
            is_char: true,
            can_be_none: false,
            konst: None,
        }
    }

    /// True for the bottom.
    pub fn is_impossible(&self) -> bool {
        matches!(self, SomeValue::Impossible)
    }

    /// The constant bool, if known.
    pub fn const_bool(&self) -> Option<bool> {
        match self {
            SomeValue::Bool { konst, .. } => *konst,
            _ => None,
        }
    }

    /// The constant value, when the annotation stands for one object.
    pub fn konst(&self) -> Option<&PyObj> {
        match self {
            SomeValue::Integer { konst, .. }
            | SomeValue::Float { konst, .. }
            | SomeValue::Str { konst, .. }
            | SomeValue::Type { konst, .. } => konst.as_ref(),
            _ => None,
        }
    }

    /// Whether `None` is among the values.
    pub fn can_be_none(&self) -> bool {
        match self {
            SomeValue::None_ => true,
            SomeValue::Str { can_be_none, .. }
            | SomeValue::Instance { can_be_none, .. }
            | SomeValue::Pbc { can_be_none, .. } => *can_be_none,
            SomeValue::TupleOrNone(_) | SomeValue::Optional(_) => true,
            _ => false,
        }
    }

    /// The same annotation without its constant and narrowing facts.
    pub fn without_const(&self) -> SomeValue {
        match self {
            SomeValue::Integer {
                kind,
                nonneg,
                bool_too,
                ..
            } => SomeValue::Integer {
                kind: *kind,
                nonneg: *nonneg,
                konst: None,
                bool_too: *bool_too,
            },
            SomeValue::Bool { .. } => SomeValue::bool(),
            SomeValue::Float { int_too, .. } => SomeValue::Float {
                konst: None,
                int_too: *int_too,
            },
            SomeValue::Str {
                kind,
                is_char,
                can_be_none,
                ..
            } => SomeValue::Str {
                kind: *kind,
                is_char: *is_char,
                can_be_none: *can_be_none,
                konst: None,
            },
            SomeValue::Type { classdef, .. } => SomeValue::Type {
                classdef: *classdef,
                konst: None,
            },
            SomeValue::Tuple(items) => {
                SomeValue::Tuple(items.iter().map(|i| i.without_const()).collect())
            }
            SomeValue::Optional(inner) => SomeValue::Optional(Box::new(inner.without_const())),
            SomeValue::TupleOrNone(items) => {
                SomeValue::TupleOrNone(items.iter().map(|i| i.without_const()).collect())
            }
            other => other.clone(),
        }
    }

    /// The same annotation with `None` excluded (after an `is not None`
    /// test); `Impossible` if it could only be `None`.
    pub fn nonnone(&self) -> SomeValue {
        match self {
            SomeValue::None_ => SomeValue::Impossible,
            SomeValue::Str {
                kind,
                is_char,
                konst,
                ..
            } => SomeValue::Str {
                kind: *kind,
                is_char: *is_char,
                can_be_none: false,
                konst: konst.clone(),
            },
            SomeValue::Instance { classdef, .. } => SomeValue::Instance {
                classdef: *classdef,
                can_be_none: false,
            },
            SomeValue::Pbc { descs, .. } => SomeValue::Pbc {
                descs: descs.clone(),
                can_be_none: false,
            },
            SomeValue::TupleOrNone(items) => SomeValue::Tuple(items.clone()),
            SomeValue::Optional(inner) => (**inner).clone(),
            other => other.clone(),
        }
    }

    /// The same annotation with `None` added, if it can hold `None`.
    pub fn noneable(&self) -> Option<SomeValue> {
        Some(match self {
            SomeValue::None_ => SomeValue::None_,
            SomeValue::Str { kind, is_char, .. } => SomeValue::Str {
                kind: *kind,
                is_char: *is_char,
                can_be_none: true,
                konst: None,
            },
            SomeValue::Instance { classdef, .. } => SomeValue::Instance {
                classdef: *classdef,
                can_be_none: true,
            },
            SomeValue::Pbc { descs, .. } => SomeValue::Pbc {
                descs: descs.clone(),
                can_be_none: true,
            },
            SomeValue::Tuple(items) | SomeValue::TupleOrNone(items) => {
                SomeValue::TupleOrNone(items.clone())
            }
            SomeValue::Integer { .. } | SomeValue::Float { .. } | SomeValue::Bool { .. } => {
                SomeValue::Optional(Box::new(self.without_const()))
            }
            SomeValue::Optional(_) => self.clone(),
            _ => return None,
        })
    }
}

/// Whether two constant objects are the same value (same type, equal).
pub fn same_const(a: &PyObj, b: &PyObj) -> bool {
    if a == b {
        return true;
    }
    Python::attach(|py| {
        let (x, y) = (a.bind(py), b.bind(py));
        if !x.get_type().is(y.get_type()) {
            return false;
        }
        if let (Ok(p), Ok(q)) = (x.extract::<f64>(), y.extract::<f64>()) {
            if x.is_instance_of::<pyo3::types::PyFloat>() {
                return p.to_bits() == q.to_bits();
            }
        }
        x.eq(y).unwrap_or(false)
    })
}

fn union_const(a: &Option<PyObj>, b: &Option<PyObj>) -> Option<PyObj> {
    match (a, b) {
        (Some(x), Some(y)) if same_const(x, y) => Some(x.clone()),
        _ => None,
    }
}

/// Unites two integer kinds (unsignedness is contagious, as in RPython,
/// but only when the signed side is known non-negative).
fn union_int(k1: IntKind, n1: bool, k2: IntKind, n2: bool) -> Result<IntKind, UnionError> {
    if k1 == k2 {
        return Ok(k1);
    }
    let err = || UnionError {
        message: format!(
            "{} and {} are integers of different kinds",
            k1.name(),
            k2.name()
        ),
    };
    match (k1.unsigned(), k2.unsigned()) {
        (false, false) | (true, true) => {
            // the long-long kinds win over the word kinds (same width here)
            Ok(
                if matches!(k1, IntKind::SignedLongLong | IntKind::UnsignedLongLong) {
                    k1
                } else {
                    k2
                },
            )
        }
        (true, false) if k2 == IntKind::Signed => {
            if n2 {
                Ok(k1)
            } else {
                Err(UnionError {
                    message: format!(
                        "RPython cannot prove that these integers are of the same signedness ({} and int)",
                        k1.name()
                    ),
                })
            }
        }
        (false, true) if k1 == IntKind::Signed => {
            if n1 {
                Ok(k2)
            } else {
                Err(UnionError {
                    message: format!(
                        "RPython cannot prove that these integers are of the same signedness (int and {})",
                        k2.name()
                    ),
                })
            }
        }
        _ => Err(err()),
    }
}

/// Unions that need no shared state (everything except containers and
/// class definitions, which [`crate::Annotator::union`] handles).
/// Returns `None` when the pair needs the annotator.
pub fn union_simple(a: &SomeValue, b: &SomeValue) -> Option<Result<SomeValue, UnionError>> {
    use SomeValue::*;
    if a == b {
        return Some(Ok(a.clone()));
    }
    Some(Ok(match (a, b) {
        (Impossible, x) | (x, Impossible) => x.clone(),
        (
            Integer {
                kind: k1,
                nonneg: n1,
                konst: c1,
                bool_too: b1,
            },
            Integer {
                kind: k2,
                nonneg: n2,
                konst: c2,
                bool_too: b2,
            },
        ) => {
            let kind = match union_int(*k1, *n1, *k2, *n2) {
                Ok(k) => k,
                Err(e) => return Some(Err(e)),
            };
            Integer {
                kind,
                nonneg: *n1 && *n2,
                konst: union_const(c1, c2),
                // (only a machine word shows a bool it holds as a bool)
                bool_too: (*b1 || *b2) && kind == IntKind::Signed,
            }
        }
        (
            Bool {
                konst: c1,
                knowntypedata: k1,
            },
            Bool {
                konst: c2,
                knowntypedata: k2,
            },
        ) => match (k1, k2) {
            // two sets of narrowing facts merge per variable (needs the annotator)
            (Some(x), Some(y)) if x != y => return None,
            _ => Bool {
                konst: if c1 == c2 { *c1 } else { None },
                knowntypedata: if k1 == k2 { k1.clone() } else { None },
            },
        },
        (Bool { konst, .. }, Integer { kind, nonneg, .. })
        | (Integer { kind, nonneg, .. }, Bool { konst, .. }) => {
            let _ = konst;
            if *kind != IntKind::Signed {
                // (only a machine word shows a bool it holds as a bool)
                Integer {
                    kind: *kind,
                    nonneg: *nonneg || kind.unsigned(),
                    konst: None,
                    bool_too: false,
                }
            } else if kind.unsigned() {
                Integer {
                    kind: *kind,
                    nonneg: true,
                    konst: None,
                    bool_too: false,
                }
            } else {
                // (shows as a bool where it is one)
                Integer {
                    kind: *kind,
                    nonneg: *nonneg,
                    konst: None,
                    bool_too: true,
                }
            }
        }
        (
            Float {
                konst: c1,
                int_too: i1,
            },
            Float {
                konst: c2,
                int_too: i2,
            },
        ) => Float {
            konst: union_const(c1, c2),
            int_too: *i1 || *i2,
        },
        // an int that meets a float: a number of either kind (RPython
        // makes it a float, which shows `0` as `0.0`; only a signed int:
        // an unsigned one does not unite with a signed one, so the union
        // stays associative)
        (
            Integer {
                kind: IntKind::Signed,
                ..
            }
            | Bool { .. },
            Float { .. },
        )
        | (
            Float { .. },
            Integer {
                kind: IntKind::Signed,
                ..
            }
            | Bool { .. },
        ) => SomeValue::number(),
        (
            Str {
                kind: k1,
                is_char: ch1,
                can_be_none: n1,
                konst: c1,
            },
            Str {
                kind: k2,
                is_char: ch2,
                can_be_none: n2,
                konst: c2,
            },
        ) if k1 == k2 => Str {
            kind: *k1,
            is_char: *ch1 && *ch2,
            can_be_none: *n1 || *n2,
            konst: union_const(c1, c2),
        },
        (Optional(x), Optional(y)) => match union_simple(x, y)? {
            Ok(u) => Optional(Box::new(u.without_const())),
            Err(e) => return Some(Err(e)),
        },
        (Optional(x), y) | (y, Optional(x)) if !matches!(y, None_) => match union_simple(x, y)? {
            Ok(u) => match u.noneable() {
                Some(n) => n,
                None => {
                    return Some(Err(UnionError {
                        message: format!("cannot unite {} and {}", describe(a), describe(b)),
                    }))
                }
            },
            Err(e) => return Some(Err(e)),
        },
        (None_, x) | (x, None_) => match x.noneable() {
            Some(n) => n,
            None => {
                return Some(Err(UnionError {
                    message: format!(
                        "{} and None: this kind of value cannot be None in RPython",
                        describe(x)
                    ),
                }))
            }
        },
        (
            Pbc {
                descs: d1,
                can_be_none: n1,
            },
            Pbc {
                descs: d2,
                can_be_none: n2,
            },
        ) => {
            let mut descs = (**d1).clone();
            descs.extend(d2.iter().copied());
            Pbc {
                descs: Arc::new(descs),
                can_be_none: *n1 || *n2,
            }
        }
        (
            Builtin {
                name: n1,
                s_self: s1,
            },
            Builtin {
                name: n2,
                s_self: s2,
            },
        ) if n1 == n2 && s1.is_none() && s2.is_none() => a.clone(),
        (Slice(x), Slice(y)) => {
            let mut parts = Vec::with_capacity(3);
            for (p, q) in x.iter().zip(y) {
                match union_simple(p, q) {
                    Some(Ok(s)) => parts.push(s),
                    other => return other,
                }
            }
            Slice(parts)
        }
        (
            Type {
                classdef: c1,
                konst: k1,
            },
            Type {
                classdef: c2,
                konst: k2,
            },
        ) if c1 == c2 => Type {
            classdef: *c1,
            konst: union_const(k1, k2),
        },
        (Tuple(_) | TupleOrNone(_), Tuple(_) | TupleOrNone(_))
        | (Tuple(_) | TupleOrNone(_), List(_))
        | (List(_), Tuple(_) | TupleOrNone(_))
        | (List(_), List(_))
        | (Dict(_), Dict(_))
        | (Set(_), Set(_))
        | (Generator(_), Generator(_))
        | (Instance { .. }, Instance { .. })
        | (Iterator { .. }, Iterator { .. })
        | (Type { .. }, Type { .. })
        | (Builtin { .. }, Builtin { .. }) => return None,
        _ => {
            return Some(Err(UnionError {
                message: format!("cannot unite {} and {}", describe(a), describe(b)),
            }))
        }
    }))
}

/// A short description in Python terms ("int", "str or None", "list").
pub fn describe(s: &SomeValue) -> String {
    use SomeValue::*;
    let base = match s {
        Impossible => "no value".to_string(),
        Integer { kind, nonneg, .. } => {
            if *nonneg && *kind == IntKind::Signed {
                "int (non-negative)".into()
            } else {
                kind.name().into()
            }
        }
        Bool { .. } => "bool".into(),
        Float { int_too: true, .. } => "int or float".into(),
        Float { .. } => "float".into(),
        Str {
            kind: StrKind::Str,
            is_char,
            ..
        } => if *is_char {
            "str (one character)"
        } else {
            "str"
        }
        .into(),
        Str {
            kind: StrKind::Bytes,
            is_char,
            ..
        } => if *is_char {
            "bytes (one byte)"
        } else {
            "bytes"
        }
        .into(),
        None_ => "None".into(),
        Tuple(items) => format!(
            "tuple({})",
            items.iter().map(describe).collect::<Vec<_>>().join(", ")
        ),
        TupleOrNone(items) => format!(
            "tuple({})",
            items.iter().map(describe).collect::<Vec<_>>().join(", ")
        ),
        Optional(inner) => describe(inner),
        List(_) => "list".into(),
        Dict(_) => "dict".into(),
        Set(_) => "set".into(),
        Instance { .. } => "instance".into(),
        Pbc { .. } => "prebuilt constant".into(),
        Iterator { .. } => "iterator".into(),
        Generator(_) => "generator".into(),
        Builtin { name, s_self } => {
            if s_self.is_some() {
                format!("method {name}")
            } else {
                format!("built-in {name}")
            }
        }
        Type { .. } => "class".into(),
        Slice(_) => "slice".into(),
        LowLevelType(t) => format!("low-level type {t}"),
        Ptr(t) => format!("low-level {t}"),
        InteriorPtr { parent, field } => format!("array {field} inside {parent}"),
    };
    if s.can_be_none() && !matches!(s, None_) {
        format!("{base} or None")
    } else {
        base
    }
}

impl fmt::Display for SomeValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&describe(self))
    }
}
