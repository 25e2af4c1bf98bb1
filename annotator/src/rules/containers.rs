//! Items, slices, lengths and iteration of containers and strings.

use pyo3::prelude::*;

use crate::error::AnnotatorError;
use crate::model::{describe, IterVariant, SomeValue, StrKind};
use crate::Annotator;

fn is_int(s: &SomeValue) -> bool {
    matches!(s, SomeValue::Integer { .. } | SomeValue::Bool { .. })
}

fn char_of(kind: StrKind) -> SomeValue {
    match kind {
        StrKind::Str => SomeValue::char(),
        StrKind::Bytes => SomeValue::nonneg_int(),
    }
}

/// `item in container`.
pub fn contains(
    ann: &mut Annotator,
    container: &SomeValue,
    item: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    match container {
        SomeValue::List(id) | SomeValue::Set(id) | SomeValue::Dict(id) => {
            // as in PyPy, the item (key) looked for generalises the items
            // (keys): the comparison works on one representation
            let _ = ann.read_item(*id);
            ann.generalize_item(*id, &item.without_const(), &SomeValue::Impossible)?;
            Ok(SomeValue::bool())
        }
        SomeValue::Str { kind: k1, .. } => match item {
            SomeValue::Str { kind: k2, .. } if k1 == k2 => Ok(SomeValue::bool()),
            _ if *k1 == StrKind::Bytes && is_int(item) => Ok(SomeValue::bool()),
            _ => Err(ann.error(format!(
                "'in' of {} in {}",
                describe(item),
                describe(container)
            ))),
        },
        SomeValue::Tuple(_) => Ok(SomeValue::bool()),
        other => Err(ann.error(format!("'in' is not supported on {}", describe(other)))),
    }
}

/// `len(x)`.
/// The item type of a low-level array pointer or interior array.
fn ll_item(ann: &Annotator, s: &SomeValue) -> Option<rpy3_model::lltype::LlType> {
    let _ = ann;
    match s {
        SomeValue::Ptr(pt) => pt.target().and_then(|t| match t.def() {
            rpy3_model::lltype::TypeDef::Array { item, .. } => Some(item),
            _ => None,
        }),
        SomeValue::InteriorPtr { parent, field } => parent
            .target()
            .and_then(|t| t.field_type(field))
            .and_then(|a| a.varsize_item()),
        _ => None,
    }
}

pub fn len(
    ann: &mut Annotator,
    py: Python<'_>,
    s: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    if ll_item(ann, s).is_some() {
        return Ok(SomeValue::nonneg_int());
    }
    match s {
        SomeValue::Tuple(items) => {
            let n = pyo3::types::PyInt::new(py, items.len() as i64).into_any();
            ann.immutablevalue(py, &n)
        }
        SomeValue::Str { konst: Some(k), .. } => {
            let n = k.bind(py).len().unwrap_or(0);
            let n = pyo3::types::PyInt::new(py, n as i64).into_any();
            ann.immutablevalue(py, &n)
        }
        SomeValue::Str {
            can_be_none: false, ..
        } => Ok(SomeValue::nonneg_int()),
        SomeValue::List(id) | SomeValue::Dict(id) | SomeValue::Set(id) => {
            let _ = ann.read_item(*id);
            Ok(SomeValue::nonneg_int())
        }
        other => Err(ann.error(format!("len() of {}", describe(other)))),
    }
}

/// `slice(start, stop, step)` (`x[a:b:c]`).
pub fn newslice(ann: &mut Annotator, args: &[SomeValue]) -> Result<SomeValue, AnnotatorError> {
    if args.len() != 3 {
        return Err(ann.error(format!(
            "internal error: newslice with {} arguments",
            args.len()
        )));
    }
    for a in args {
        check_bound(ann, a)?;
    }
    Ok(SomeValue::Slice(args.to_vec()))
}

/// The constant value of a slice bound (`None` as `Some(None)`); `None`
/// when the bound is not a constant.
fn const_bound(py: Python<'_>, s: &SomeValue) -> Option<Option<i64>> {
    match s {
        SomeValue::None_ => Some(None),
        SomeValue::Bool { konst: Some(b), .. } => Some(Some(*b as i64)),
        _ => s
            .konst()
            .and_then(|k| k.bind(py).extract::<i64>().ok())
            .map(Some),
    }
}

/// The items of a tuple sliced with constant bounds.
fn slice_tuple(
    ann: &Annotator,
    py: Python<'_>,
    items: &[SomeValue],
    parts: &[&SomeValue],
) -> Result<SomeValue, AnnotatorError> {
    let mut bounds = Vec::new();
    for p in parts {
        match const_bound(py, p) {
            Some(b) => bounds.push(b),
            None => {
                return Err(ann.error("slicing a tuple with non-constant bounds is not RPython"))
            }
        }
    }
    let step = bounds.get(2).copied().flatten();
    if step == Some(0) {
        return Err(ann.error("slice step cannot be zero"));
    }
    // let Python compute which indices the slice selects
    let r = (|| -> PyResult<Vec<usize>> {
        let builtins = py.import("builtins")?;
        let slice = builtins
            .getattr("slice")?
            .call1((bounds[0], bounds[1], step))?;
        let range = builtins.getattr("range")?.call1((items.len(),))?;
        range
            .get_item(slice)?
            .try_iter()?
            .map(|i| i.and_then(|i| i.extract::<usize>()))
            .collect()
    })()
    .map_err(|e| ann.error(format!("{e}")))?;
    Ok(SomeValue::Tuple(
        r.into_iter().map(|i| items[i].clone()).collect(),
    ))
}

/// Why `item` would change kind as a member of union `s` (a bool among
/// ints, an int among floats), recursively through tuples; None if not.
pub(crate) fn number_kind_change(item: &SomeValue, s: &SomeValue) -> Option<String> {
    match (item, s) {
        (SomeValue::Bool { .. }, SomeValue::Integer { .. } | SomeValue::Float { .. })
        | (SomeValue::Integer { .. }, SomeValue::Float { int_too: false, .. }) => Some(format!(
            "{} and {} items",
            describe(&item.without_const()),
            describe(s)
        )),
        (SomeValue::Tuple(a), SomeValue::Tuple(b)) => {
            a.iter().zip(b).find_map(|(x, y)| number_kind_change(x, y))
        }
        _ => None,
    }
}

/// A slice of list `id`: a new list of its items (a tuple of a tuple).
fn slice_list(ann: &mut Annotator, id: crate::ids::ItemDefId) -> crate::ids::ItemDefId {
    let (item, _) = ann.read_item(id);
    let tuple = ann.itemdefs.get(id).tuple;
    let new = ann.new_container(crate::itemdef::ItemKind::List, item, SomeValue::Impossible);
    ann.itemdefs.get_mut(new).tuple = tuple;
    new
}

/// `container[key]`.
pub fn getitem(
    ann: &mut Annotator,
    py: Python<'_>,
    c: &SomeValue,
    key: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    if let Some(item) = ll_item(ann, c) {
        return ann.ll_annotation(item);
    }
    if let SomeValue::Slice(parts) = key {
        return match c {
            SomeValue::List(id) => Ok(SomeValue::List(slice_list(ann, *id))),
            SomeValue::Str {
                kind,
                can_be_none: false,
                ..
            } => Ok(super::arith::string(*kind)),
            SomeValue::Tuple(items) => {
                slice_tuple(ann, py, items, &parts.iter().collect::<Vec<_>>())
            }
            other => Err(ann.error(format!("cannot slice {}", describe(other)))),
        };
    }
    match c {
        SomeValue::List(id) if is_int(key) => Ok(ann.read_item(*id).0),
        SomeValue::Dict(id) => {
            let (_, v) = ann.read_item(*id);
            ann.generalize_item(*id, &key.without_const(), &SomeValue::Impossible)?;
            if let Some(missing) = ann.itemdefs.get(*id).default_missing.clone() {
                // a defaultdict: a missing key is filled by missing(d, key)
                let args = crate::description::CallArgs::positional(vec![
                    SomeValue::Dict(*id),
                    key.without_const(),
                ]);
                let filled = super::call(ann, py, &missing, args)?;
                let (_, v) = ann.read_item(*id);
                return ann
                    .union(&v, &filled)
                    .map_err(|e| ann.error(format!("defaultdict: {}", e.message)));
            }
            Ok(v)
        }
        SomeValue::Str {
            kind,
            can_be_none: false,
            ..
        } if is_int(key) => Ok(char_of(*kind)),
        SomeValue::Tuple(items) => {
            let Some(k) = key
                .konst()
                .and_then(|k| k.bind(py).extract::<i64>().ok())
                .or(match key {
                    SomeValue::Bool { konst: Some(b), .. } => Some(*b as i64),
                    _ => None,
                })
            else {
                // a variable index: the items must have one type (PyPy's
                // rtuple allows it then), and the result is their union
                if !is_int(key) {
                    return Err(ann.error(format!("cannot index a tuple with {}", describe(key))));
                }
                if items.is_empty() {
                    return Err(ann.error("indexing an empty tuple with a non-constant index"));
                }
                let why = "indexing a tuple with a non-constant index needs items of one type";
                let mut s = items[0].without_const();
                for it in &items[1..] {
                    s = ann
                        .union(&s, &it.without_const())
                        .map_err(|e| ann.error(format!("{why}: {}", e.message)))?;
                }
                // a bool or an int would change kind (CPython keeps it)
                for it in items {
                    if let Some(m) = number_kind_change(it, &s) {
                        return Err(ann.error(format!("{why}: {m}")));
                    }
                }
                return Ok(s);
            };
            let n = items.len() as i64;
            let i = if k < 0 { k + n } else { k };
            if i < 0 || i >= n {
                return Err(ann.error(format!("tuple index {k} out of range")));
            }
            Ok(items[i as usize].clone())
        }
        other => Err(ann.error(format!(
            "cannot index {} with {}",
            describe(other),
            describe(key)
        ))),
    }
}

/// `container[key] = value`.
pub fn setitem(
    ann: &mut Annotator,
    c: &SomeValue,
    key: &SomeValue,
    value: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    if ll_item(ann, c).is_some() {
        return Ok(SomeValue::None_);
    }
    if let SomeValue::Slice(_) = key {
        return match (c, value) {
            (
                SomeValue::List(id),
                SomeValue::List(_)
                | SomeValue::Tuple(_)
                | SomeValue::Str {
                    can_be_none: false, ..
                },
            ) => {
                if let SomeValue::List(_) = value {
                    // as PyPy's listdef.agree(): the two lists share one
                    // item definition (so one representation)
                    ann.union(c, value).map_err(|e| ann.error(e.message))?;
                }
                let it = iter(ann, value)?;
                let item = next(ann, &it)?;
                ann.generalize_item(*id, &item.without_const(), &SomeValue::Impossible)?;
                let d = ann.itemdefs.get_mut(*id);
                d.mutated = true;
                d.resized = true;
                Ok(SomeValue::None_)
            }
            _ => Err(ann.error(format!(
                "cannot assign {} to a slice of {}",
                describe(value),
                describe(c)
            ))),
        };
    }
    match c {
        SomeValue::List(id) if is_int(key) => {
            ann.generalize_item(*id, &value.without_const(), &SomeValue::Impossible)?;
            ann.itemdefs.get_mut(*id).mutated = true;
            Ok(SomeValue::None_)
        }
        SomeValue::Dict(id) => {
            ann.generalize_item(*id, &key.without_const(), &value.without_const())?;
            ann.itemdefs.get_mut(*id).mutated = true;
            Ok(SomeValue::None_)
        }
        other => Err(ann.error(format!("cannot store an item into {}", describe(other)))),
    }
}

/// `del container[key]`.
pub fn delitem(
    ann: &mut Annotator,
    c: &SomeValue,
    key: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    if let SomeValue::Slice(_) = key {
        return delslice(ann, c);
    }
    match c {
        SomeValue::List(id) if is_int(key) => {
            ann.itemdefs.get_mut(*id).resized = true;
            Ok(SomeValue::None_)
        }
        SomeValue::Dict(id) => {
            let _ = ann.read_item(*id);
            ann.generalize_item(*id, &key.without_const(), &SomeValue::Impossible)?;
            Ok(SomeValue::None_)
        }
        other => Err(ann.error(format!("cannot delete an item of {}", describe(other)))),
    }
}

fn check_bound(ann: &Annotator, s: &SomeValue) -> Result<(), AnnotatorError> {
    if matches!(s, SomeValue::None_) || is_int(s) {
        Ok(())
    } else {
        Err(ann.error(format!(
            "slice bound must be an int or None, got {}",
            describe(s)
        )))
    }
}

/// `container[start:stop]`.
pub fn getslice(
    ann: &mut Annotator,
    c: &SomeValue,
    start: &SomeValue,
    stop: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    check_bound(ann, start)?;
    check_bound(ann, stop)?;
    match c {
        SomeValue::List(id) => Ok(SomeValue::List(slice_list(ann, *id))),
        SomeValue::Str {
            kind,
            can_be_none: false,
            ..
        } => Ok(super::arith::string(*kind)),
        SomeValue::Tuple(items) => Python::attach(|py| slice_tuple(ann, py, items, &[start, stop])),
        other => Err(ann.error(format!("cannot slice {}", describe(other)))),
    }
}

/// `container[start:stop] = value`.
pub fn setslice(
    ann: &mut Annotator,
    c: &SomeValue,
    value: &SomeValue,
) -> Result<SomeValue, AnnotatorError> {
    match (c, value) {
        (SomeValue::List(id), SomeValue::List(_)) => {
            // as PyPy's listdef.agree(): one item definition for both
            ann.union(c, value).map_err(|e| ann.error(e.message))?;
            let d = ann.itemdefs.get_mut(*id);
            d.mutated = true;
            d.resized = true;
            Ok(SomeValue::None_)
        }
        _ => Err(ann.error(format!(
            "cannot assign {} to a slice of {}",
            describe(value),
            describe(c)
        ))),
    }
}

/// `del container[start:stop]`.
pub fn delslice(ann: &mut Annotator, c: &SomeValue) -> Result<SomeValue, AnnotatorError> {
    match c {
        SomeValue::List(id) => {
            ann.itemdefs.get_mut(*id).resized = true;
            Ok(SomeValue::None_)
        }
        other => Err(ann.error(format!("cannot delete a slice of {}", describe(other)))),
    }
}

/// `iter(x)`.
pub fn iter(ann: &mut Annotator, s: &SomeValue) -> Result<SomeValue, AnnotatorError> {
    match s {
        SomeValue::List(_)
        | SomeValue::Dict(_)
        | SomeValue::Set(_)
        | SomeValue::Str {
            can_be_none: false, ..
        }
        | SomeValue::Tuple(_) => {
            if let SomeValue::Tuple(items) = s {
                // iterating a tuple: its items must unite
                let mut u = SomeValue::Impossible;
                for i in items {
                    u = ann
                        .union(&u, i)
                        .map_err(|e| ann.error(format!("iterating over a tuple: {}", e.message)))?;
                }
            }
            Ok(SomeValue::Iterator {
                over: Box::new(s.clone()),
                variant: IterVariant::Items,
            })
        }
        SomeValue::Iterator { .. } | SomeValue::Generator(_) => Ok(s.clone()),
        other => Err(ann.error(format!("cannot iterate over {}", describe(other)))),
    }
}

/// What iterating over `over` in the given way yields.
pub fn iter_item(
    ann: &mut Annotator,
    over: &SomeValue,
    variant: IterVariant,
) -> Result<SomeValue, AnnotatorError> {
    let base = match over {
        SomeValue::List(id) | SomeValue::Set(id) => ann.read_item(*id).0,
        SomeValue::Dict(id) => {
            let (k, v) = ann.read_item(*id);
            match variant {
                IterVariant::Values => return Ok(v),
                IterVariant::Pairs => return Ok(SomeValue::Tuple(vec![k, v])),
                _ => k,
            }
        }
        SomeValue::Str { kind, .. } => char_of(*kind),
        SomeValue::Tuple(items) if variant != IterVariant::Zip => {
            let mut u = SomeValue::Impossible;
            for i in items {
                u = ann
                    .union(&u, &i.without_const())
                    .map_err(|e| ann.error(e.message))?;
            }
            u
        }
        SomeValue::Tuple(iterables) => {
            let mut items = Vec::new();
            for it in iterables.clone() {
                items.push(iter_item(ann, &it, IterVariant::Items)?);
            }
            return Ok(SomeValue::Tuple(items));
        }
        SomeValue::Iterator { over, variant: v } => iter_item(ann, over, *v)?,
        SomeValue::Generator(id) => ann.read_item(*id).0,
        other => return Err(ann.error(format!("cannot iterate over {}", describe(other)))),
    };
    Ok(match variant {
        IterVariant::Enumerate => SomeValue::Tuple(vec![SomeValue::nonneg_int(), base]),
        IterVariant::EnumerateSigned => SomeValue::Tuple(vec![SomeValue::int(), base]),
        _ => base,
    })
}

/// `next(it)`.
pub fn next(ann: &mut Annotator, s: &SomeValue) -> Result<SomeValue, AnnotatorError> {
    match s {
        SomeValue::Iterator { over, variant } => {
            let (over, variant) = (over.as_ref().clone(), *variant);
            iter_item(ann, &over, variant)
        }
        SomeValue::Generator(id) => Ok(ann.read_item(*id).0),
        other => Err(ann.error(format!("next() of {}", describe(other)))),
    }
}
