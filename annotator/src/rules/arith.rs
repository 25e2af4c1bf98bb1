//! Arithmetic and comparisons on numbers, strings, tuples and lists.

use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::{OpName, SpaceOperation};

use crate::error::AnnotatorError;
use crate::itemdef::ItemKind;
use crate::model::{describe, IntKind, KnownTypeData, SomeValue, StrKind};
use crate::Annotator;

fn int_parts(s: &SomeValue) -> Option<(IntKind, bool)> {
    match s {
        SomeValue::Integer { kind, nonneg, .. } => Some((*kind, *nonneg)),
        SomeValue::Bool { .. } => Some((IntKind::Signed, true)),
        _ => None,
    }
}

fn is_number(s: &SomeValue) -> bool {
    matches!(
        s,
        SomeValue::Integer { .. } | SomeValue::Bool { .. } | SomeValue::Float { .. }
    )
}

/// Unary `-x`, `+x`, `~x`, `abs(x)`.
pub fn unary(ann: &Annotator, op: OpName, s: &SomeValue) -> Result<SomeValue, AnnotatorError> {
    match (op, s) {
        // (a number of either kind keeps its kind)
        (_, SomeValue::Float { int_too, .. }) if op != OpName::Invert => Ok(SomeValue::Float {
            konst: None,
            int_too: *int_too,
        }),
        (OpName::Abs, x) if int_parts(x).is_some() => {
            let (kind, _) = int_parts(x).expect("checked");
            Ok(SomeValue::Integer {
                kind,
                nonneg: true,
                konst: None,
                bool_too: false,
            })
        }
        (OpName::Pos, x) if int_parts(x).is_some() => {
            let (kind, nonneg) = int_parts(x).expect("checked");
            Ok(SomeValue::Integer {
                kind,
                nonneg,
                konst: None,
                bool_too: false,
            })
        }
        (_, x) if int_parts(x).is_some() => {
            let (kind, _) = int_parts(x).expect("checked");
            Ok(SomeValue::Integer {
                kind,
                nonneg: kind.unsigned(),
                konst: None,
                bool_too: false,
            })
        }
        (_, other) => Err(ann.error(format!(
            "unsupported operand type for {}: {}",
            op,
            describe(other)
        ))),
    }
}

fn base(op: OpName) -> OpName {
    use OpName::*;
    match op {
        InplaceAdd => Add,
        InplaceSub => Sub,
        InplaceMul => Mul,
        InplaceTruediv => Truediv,
        InplaceFloordiv => Floordiv,
        InplaceMod => Mod,
        InplacePow => Pow,
        InplaceLshift => Lshift,
        InplaceRshift => Rshift,
        InplaceAnd => And_,
        InplaceOr => Or_,
        InplaceXor => Xor,
        InplaceMatmul => Matmul,
        other => other,
    }
}

/// Binary arithmetic (and in-place forms).
pub fn binary(
    ann: &mut Annotator,
    py: Python<'_>,
    op: OpName,
    a: &SomeValue,
    b: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    use OpName::*;
    let inplace = base(op) != op;
    let op = base(op);
    let err = |ann: &Annotator| {
        ann.error(format!(
            "unsupported operand types for {}: {} and {}",
            op,
            describe(a),
            describe(b)
        ))
    };
    // integers (bools count as integers, except bool & | ^ bool)
    if let (Some((k1, n1)), Some((k2, n2))) = (int_parts(a), int_parts(b)) {
        if matches!(a, SomeValue::Bool { .. })
            && matches!(b, SomeValue::Bool { .. })
            && matches!(op, And_ | Or_ | Xor)
        {
            return Ok(SomeValue::bool());
        }
        let kind = if k1.unsigned() {
            k1
        } else if k2.unsigned() {
            k2
        } else if k1 == IntKind::SignedLongLong || k2 == IntKind::SignedLongLong {
            IntKind::SignedLongLong
        } else {
            IntKind::Signed
        };
        let nonneg = kind.unsigned()
            || match op {
                Add | Mul | Floordiv | Pow => n1 && n2,
                Mod => n2,
                And_ => n1 || n2,
                Or_ | Xor => n1 && n2,
                Rshift => n1,
                _ => false,
            };
        // an int to a negative constant power is a float, as in CPython
        let negative_power = op == Pow
            && kind == IntKind::Signed
            && b.konst().is_some_and(|k| {
                Python::attach(|py| k.bind(py).extract::<i64>().is_ok_and(|e| e < 0))
            });
        return Ok(match op {
            Truediv => SomeValue::float(),
            Pow if negative_power => SomeValue::float(),
            Divmod => SomeValue::Tuple(vec![
                SomeValue::Integer {
                    kind,
                    nonneg,
                    konst: None,
                    bool_too: false,
                },
                SomeValue::Integer {
                    kind,
                    nonneg: n2,
                    konst: None,
                    bool_too: false,
                },
            ]),
            Matmul => return Err(err(ann)),
            _ => SomeValue::Integer {
                kind,
                nonneg,
                konst: None,
                bool_too: false,
            },
        });
    }
    if is_number(a) && is_number(b) {
        // at least one float: a float, or a number of either kind when
        // both may be ints (an int with a number that is an int at run
        // time adds, divides and shows as an int)
        let r = SomeValue::Float {
            konst: None,
            int_too: a.may_be_int() && b.may_be_int(),
        };
        return match op {
            Truediv => Ok(SomeValue::float()),
            Add | Sub | Mul | Floordiv | Mod | Pow => Ok(r),
            Divmod => Ok(SomeValue::Tuple(vec![r.clone(), r])),
            _ => Err(err(ann)),
        };
    }
    match (op, a, b) {
        (Add, SomeValue::Str { kind: k1, .. }, SomeValue::Str { kind: k2, .. }) if k1 == k2 => {
            Ok(SomeValue::Str {
                kind: *k1,
                is_char: false,
                can_be_none: false,
                konst: None,
            })
        }
        (Mul, SomeValue::Str { kind, .. }, n) | (Mul, n, SomeValue::Str { kind, .. })
            if int_parts(n).is_some() =>
        {
            Ok(SomeValue::Str {
                kind: *kind,
                is_char: false,
                can_be_none: false,
                konst: None,
            })
        }
        (Mod, SomeValue::Str { kind, konst, .. }, values) => {
            if let Some(fmt) = konst.as_ref().and_then(|k| k.bind(py).extract::<String>().ok()) {
                super::special::format_methods(ann, py, &fmt, values)?;
            }
            Ok(SomeValue::Str {
                kind: *kind,
                is_char: false,
                can_be_none: false,
                konst: None,
            })
        }
        (Add, SomeValue::Tuple(x), SomeValue::Tuple(y)) => {
            let mut items = x.clone();
            items.extend(y.iter().cloned());
            Ok(SomeValue::Tuple(items))
        }
        (Mul, SomeValue::Tuple(x), n) | (Mul, n, SomeValue::Tuple(x))
            if int_parts(n).is_some() =>
        {
            // (a negative count gives the empty tuple)
            let count = n
                .konst()
                .and_then(|k| k.bind(py).extract::<i64>().ok())
                .or(match n {
                    SomeValue::Bool { konst: Some(b), .. } => Some(*b as i64),
                    _ => None,
                })
                .map(|t| t.max(0) as usize);
            match count {
                Some(times) => Ok(SomeValue::Tuple(
                    x.iter().cloned().cycle().take(x.len() * times).collect(),
                )),
                None => Err(ann.error("multiplying a tuple by a non-constant is not RPython")),
            }
        }
        (
            Add,
            SomeValue::List(id),
            SomeValue::Str {
                kind: kind @ StrKind::Str,
                ..
            },
        ) if inplace && !ann.itemdefs.get(*id).tuple => {
            // lst += s extends the list with the string's characters
            let ch = SomeValue::Str {
                kind: *kind,
                is_char: true,
                can_be_none: false,
                konst: None,
            };
            ann.generalize_item(*id, &ch, &SomeValue::Impossible)?;
            ann.itemdefs.get_mut(*id).resized = true;
            Ok(SomeValue::List(*id))
        }
        (
            Add,
            SomeValue::List(id),
            SomeValue::Str {
                kind: StrKind::Bytes,
                ..
            },
        ) if (inplace || ann.itemdefs.get(*id).bytearray) && !ann.itemdefs.get(*id).tuple => {
            // lst += b extends the list with the bytes' ints; a bytearray
            // + bytes is a new bytearray
            ann.generalize_item(*id, &SomeValue::nonneg_int(), &SomeValue::Impossible)?;
            if inplace {
                ann.itemdefs.get_mut(*id).resized = true;
            }
            Ok(SomeValue::List(*id))
        }
        (Add, SomeValue::List(id), SomeValue::Tuple(t))
            if inplace && !ann.itemdefs.get(*id).tuple =>
        {
            // lst += tup extends the list with the tuple's items
            for item in t {
                ann.generalize_item(*id, item, &SomeValue::Impossible)?;
            }
            ann.itemdefs.get_mut(*id).resized = true;
            Ok(SomeValue::List(*id))
        }
        (Add, SomeValue::Tuple(t), l @ SomeValue::List(id))
        | (Add, l @ SomeValue::List(id), SomeValue::Tuple(t))
            if ann.itemdefs.get(*id).tuple =>
        {
            // a tuple of known length and one of any length: one of any
            // length (the fixed one converted)
            let _ = l;
            let fixed = ann.var_tuple(t.iter()).map_err(|e| ann.error(e.message))?;
            let both = ann
                .merge_itemdefs(*id, fixed)
                .map_err(|e| ann.error(e.message))?;
            ann.read_item(both);
            Ok(SomeValue::List(both))
        }
        (Add, SomeValue::List(x), SomeValue::List(y)) => {
            // a tuple is immutable: `t += u` makes a new tuple
            let inplace = inplace && !ann.itemdefs.get(*x).tuple;
            if inplace {
                let (item, _) = ann.read_item(*y);
                ann.generalize_item(*x, &item, &SomeValue::Impossible)?;
                ann.itemdefs.get_mut(*x).resized = true;
                return Ok(SomeValue::List(*x));
            }
            // the operands and the result agree on their item type for
            // good (PyPy's `offspring`), so one helper copies either
            let both = ann
                .merge_itemdefs(*x, *y)
                .map_err(|e| ann.error(e.message))?;
            ann.read_item(both);
            Ok(SomeValue::List(both))
        }
        (Mul, SomeValue::List(x), n) | (Mul, n, SomeValue::List(x)) if int_parts(n).is_some() => {
            let inplace = inplace && !ann.itemdefs.get(*x).tuple;
            if inplace {
                ann.itemdefs.get_mut(*x).resized = true;
                return Ok(SomeValue::List(*x));
            }
            // the result's item type is the operand's, for good (PyPy's
            // `offspring`)
            ann.read_item(*x);
            Ok(SomeValue::List(*x))
        }
        (Or_, SomeValue::Dict(x), SomeValue::Dict(y)) => {
            // d1 | d2: the keys of both, the values of d2 winning
            let (k1, v1) = ann.read_item(*x);
            let (k2, v2) = ann.read_item(*y);
            let k = ann.union(&k1, &k2).map_err(|e| ann.error(e.message))?;
            let v = ann.union(&v1, &v2).map_err(|e| ann.error(e.message))?;
            if inplace {
                ann.generalize_item(*x, &k, &v)?;
                ann.itemdefs.get_mut(*x).resized = true;
                return Ok(SomeValue::Dict(*x));
            }
            let custom = ann.itemdefs.get(*x).custom.clone();
            let new = ann.new_container(ItemKind::Dict, k, v);
            ann.itemdefs.get_mut(new).custom = custom;
            Ok(SomeValue::Dict(new))
        }
        (Sub | And_ | Or_ | Xor, SomeValue::Set(x), SomeValue::Set(y)) => {
            let (i1, _) = ann.read_item(*x);
            let (i2, _) = ann.read_item(*y);
            let item = ann.union(&i1, &i2).map_err(|e| ann.error(e.message))?;
            if inplace {
                ann.generalize_item(*x, &item, &SomeValue::Impossible)?;
                return Ok(SomeValue::Set(*x));
            }
            // (of the type of the left operand, as in CPython)
            let frozen = ann.itemdefs.get(*x).frozen;
            let new = ann.new_container(ItemKind::Set, item, SomeValue::Impossible);
            ann.itemdefs.get_mut(new).frozen = frozen;
            Ok(SomeValue::Set(new))
        }
        _ => Err(err(ann)),
    }
}

/// Whether two annotations may be compared in RPython.
fn comparable(ann: &Annotator, a: &SomeValue, b: &SomeValue) -> bool {
    use SomeValue::*;
    let vartuple = |id: &crate::ids::ItemDefId| ann.itemdefs.get(*id).tuple;
    match (a, b) {
        (x, y) if is_number(x) && is_number(y) => true,
        (Optional(x), y) | (y, Optional(x)) => comparable(ann, x, y),
        (Str { kind: k1, .. }, Str { kind: k2, .. }) => k1 == k2,
        (None_, _) | (_, None_) => true,
        (Tuple(x) | TupleOrNone(x), Tuple(y) | TupleOrNone(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| comparable(ann, p, q))
        }
        // a tuple of known length and one of any length
        (Tuple(_) | TupleOrNone(_), List(id)) | (List(id), Tuple(_) | TupleOrNone(_)) => {
            vartuple(id)
        }
        // a list and a tuple are never equal (and cannot be ordered)
        (List(x), List(y)) if vartuple(x) != vartuple(y) => false,
        // bytes and a bytearray compare their bytes
        (Str { kind: StrKind::Bytes, .. }, List(id)) | (List(id), Str { kind: StrKind::Bytes, .. }) => {
            ann.itemdefs.get(*id).bytearray
        }
        (List(_), List(_)) | (Dict(_), Dict(_)) | (Set(_), Set(_)) => true,
        (Instance { .. }, Instance { .. })
        | (Pbc { .. }, Pbc { .. })
        | (Type { .. }, Type { .. })
        // type(x) == A
        | (Type { .. }, Pbc { .. })
        | (Pbc { .. }, Type { .. }) => true,
        (Ptr(_), Ptr(_)) => true,
        _ => false,
    }
}

/// `<`, `<=`, `==`, `!=`, `>`, `>=`: a bool, narrowing non-negativity.
pub fn compare(
    ann: &mut Annotator,
    py: Python<'_>,
    op: &SpaceOperation,
    a: &SomeValue,
    b: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    use OpName::*;
    // a value that is never None, compared with None: never equal
    if matches!(op.opname, Eq | Ne) {
        let never_none = |x: &SomeValue| !matches!(x, SomeValue::None_) && !ann.may_be_none(x);
        if (matches!(a, SomeValue::None_) && never_none(b))
            || (matches!(b, SomeValue::None_) && never_none(a))
        {
            if let SomeValue::List(id) | SomeValue::Dict(id) | SomeValue::Set(id) =
                if matches!(a, SomeValue::None_) { b } else { a }
            {
                // reflowed if the container later may be None
                ann.read_item(*id);
            }
            return Ok(SomeValue::Bool {
                konst: Some(op.opname == Ne),
                knowntypedata: None,
            });
        }
    }
    let special: &[&str] = match op.opname {
        Eq | Ne => &["__eq__", "__ne__"],
        _ => &["__lt__", "__le__", "__gt__", "__ge__"],
    };
    let what = match op.opname {
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        _ => ">=",
    };
    ann.refuse_special_methods(py, a, special, what)?;
    ann.refuse_special_methods(py, b, special, what)?;
    if !comparable(ann, a, b) {
        if matches!(op.opname, Eq | Ne) {
            // different kinds are never equal
            return Ok(SomeValue::Bool {
                konst: Some(op.opname == Ne),
                knowntypedata: None,
            });
        }
        // (a tuple of any length is a list to `describe`)
        let what = |s: &SomeValue| match s {
            SomeValue::List(id) if ann.itemdefs.get(*id).tuple => "tuple of any length".to_string(),
            other => describe(other),
        };
        return Err(ann.error(format!(
            "cannot compare {} and {} with {}",
            what(a),
            what(b),
            op.opname
        )));
    }
    if let (Some(x), Some(y)) = (a.konst(), b.konst()) {
        // two constants: the comparison is decided (PyPy folds it too), so
        // only the branch taken is flowed
        let cop = match op.opname {
            Lt => pyo3::basic::CompareOp::Lt,
            Le => pyo3::basic::CompareOp::Le,
            Eq => pyo3::basic::CompareOp::Eq,
            Ne => pyo3::basic::CompareOp::Ne,
            Gt => pyo3::basic::CompareOp::Gt,
            _ => pyo3::basic::CompareOp::Ge,
        };
        if let Ok(r) = x
            .bind(py)
            .rich_compare(y.bind(py), cop)
            .and_then(|r| r.is_truthy())
        {
            return Ok(SomeValue::Bool {
                konst: Some(r),
                knowntypedata: None,
            });
        }
    }
    if let (SomeValue::List(x), SomeValue::List(y))
    | (SomeValue::Set(x), SomeValue::Set(y))
    | (SomeValue::Dict(x), SomeValue::Dict(y)) = (a, b)
    {
        // comparing containers compares their items
        let _ = ann.merge_itemdefs(*x, *y);
    }
    let mut facts = Vec::new();
    // As in PyPy, facts about non-negativity are only deduced when both
    // sides are signed: comparing with an unsigned value converts the
    // other side to unsigned in RPython.
    let signed = |s: &SomeValue| match s {
        SomeValue::Integer { kind, .. } => !kind.unsigned(),
        SomeValue::Bool { .. } => true,
        _ => false,
    };
    if !(signed(a) && signed(b)) {
        return Ok(SomeValue::bool());
    }
    let nonneg = |s: &SomeValue| {
        matches!(
            s,
            SomeValue::Integer { nonneg: true, .. } | SomeValue::Bool { .. }
        )
    };
    // a non-negative value compared with the constant 0
    if nonneg(a) && b.konst().and_then(|k| k.bind(py).extract::<i64>().ok()) == Some(0) {
        match op.opname {
            Lt => {
                return Ok(SomeValue::Bool {
                    konst: Some(false),
                    knowntypedata: None,
                })
            }
            Ge => {
                return Ok(SomeValue::Bool {
                    konst: Some(true),
                    knowntypedata: None,
                })
            }
            _ => {}
        }
    }
    let as_nonneg = |s: &SomeValue| match s {
        SomeValue::Integer { kind, bool_too, .. } => Some(SomeValue::Integer {
            kind: *kind,
            nonneg: true,
            konst: None,
            bool_too: *bool_too,
        }),
        _ => None,
    };
    let va = op.args[0].as_var();
    let vb = op.args[1].as_var();
    match op.opname {
        Gt | Ge | Eq if nonneg(b) => {
            if let (Some(v), Some(n)) = (va, as_nonneg(a)) {
                facts.push((v, Some(n), None));
            }
        }
        _ => {}
    }
    match op.opname {
        Lt | Le | Eq if nonneg(a) => {
            if let (Some(v), Some(n)) = (vb, as_nonneg(b)) {
                facts.push((v, Some(n), None));
            }
        }
        _ => {}
    }
    Ok(SomeValue::Bool {
        konst: None,
        knowntypedata: if facts.is_empty() {
            None
        } else {
            Some(Arc::new(KnownTypeData { facts }))
        },
    })
}

/// A str annotation of the given kind.
pub fn string(kind: StrKind) -> SomeValue {
    SomeValue::Str {
        kind,
        is_char: false,
        can_be_none: false,
        konst: None,
    }
}
