//! The order of the lattice without side effects (`leq`) and the meet
//! (greatest lower bound) used for narrowing: what a variable can hold when
//! two facts about it are both true.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::model::{union_simple, IntKind, SomeValue};
use crate::Annotator;

impl Annotator {
    /// Whether `s` may be None, containers included (their definition
    /// says so).
    pub fn may_be_none(&self, s: &SomeValue) -> bool {
        match s {
            SomeValue::List(id) | SomeValue::Dict(id) | SomeValue::Set(id) => {
                self.itemdefs.get(*id).can_be_none
            }
            other => other.can_be_none(),
        }
    }

    /// Whether every value of `a` is a value of `b` (`a ⊑ b`).  Containers
    /// are below each other only when they share their definition.
    pub fn leq(&self, a: &SomeValue, b: &SomeValue) -> bool {
        use SomeValue::*;
        let (a, b) = (self.normalize(a), self.normalize(b));
        if a == b || a.is_impossible() {
            return true;
        }
        match (&a, &b) {
            (None_, x) => self.may_be_none(x),
            (Optional(x), Optional(y)) => self.leq(x, y),
            (x, Optional(y)) => self.leq(x, y),
            // a tuple of known length is one of the tuples of a length
            // known at run time when its items are
            (Tuple(x) | TupleOrNone(x), List(id)) if self.itemdefs.get(*id).tuple => {
                let d = self.itemdefs.get(*id);
                (matches!(a, Tuple(_)) || d.can_be_none) && x.iter().all(|p| self.leq(p, &d.item))
            }
            (Tuple(x), Tuple(y) | TupleOrNone(y)) | (TupleOrNone(x), TupleOrNone(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.leq(p, q))
            }
            (List(_), List(_))
            | (Dict(_), Dict(_))
            | (Set(_), Set(_))
            | (Generator(_), Generator(_)) => false,
            (
                Instance {
                    classdef: c1,
                    can_be_none: n1,
                },
                Instance {
                    classdef: c2,
                    can_be_none: n2,
                },
            ) => self.is_subclass(*c1, *c2) && (!n1 || *n2),
            (
                Type {
                    classdef: c1,
                    konst: k1,
                },
                Type {
                    classdef: c2,
                    konst: k2,
                },
            ) => {
                let classes = match (c1, c2) {
                    (_, None) => true,
                    (Some(x), Some(y)) => self.is_subclass(*x, *y),
                    (None, Some(_)) => false,
                };
                classes && (k2.is_none() || k1 == k2)
            }
            (
                Iterator {
                    over: o1,
                    variant: v1,
                },
                Iterator {
                    over: o2,
                    variant: v2,
                },
            ) => v1 == v2 && self.leq(o1, o2),
            (
                Builtin {
                    name: n1,
                    s_self: Some(s1),
                },
                Builtin {
                    name: n2,
                    s_self: Some(s2),
                },
            ) => n1 == n2 && self.leq(s1, s2),
            (Slice(x), Slice(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| self.leq(p, q))
            }
            // constants compare by value, not by object
            _ => match union_simple(&a, &b) {
                Some(Ok(u)) => self.canonical(&u) == self.canonical(&b),
                _ => false,
            },
        }
    }

    /// The greatest lower bound of two annotations: the values both can
    /// hold (`Impossible` if none).
    pub fn meet(&self, a: &SomeValue, b: &SomeValue) -> SomeValue {
        use SomeValue::*;
        if self.leq(a, b) {
            return self.normalize(a);
        }
        if self.leq(b, a) {
            return self.normalize(b);
        }
        let both_none = self.may_be_none(a) && self.may_be_none(b);
        let none_or_impossible = || if both_none { None_ } else { Impossible };
        let konst = |k1: &Option<rpy3_model::PyObj>,
                     k2: &Option<rpy3_model::PyObj>|
         -> Result<Option<rpy3_model::PyObj>, ()> {
            match (k1, k2) {
                (Some(x), Some(y)) => {
                    if crate::model::same_const(x, y) {
                        Ok(Some(x.clone()))
                    } else {
                        Err(())
                    }
                }
                (Some(x), None) | (None, Some(x)) => Ok(Some(x.clone())),
                (None, None) => Ok(None),
            }
        };
        if let (Optional(x), y) | (y, Optional(x)) = (a, b) {
            // the value part meets; None only when both may be None
            let y = match y {
                Optional(inner) => &**inner,
                None_ => return None_,
                other => other,
            };
            let m = self.meet(x, y);
            return match (m.is_impossible(), both_none) {
                (true, true) => None_,
                (false, true) => m.noneable().unwrap_or(m),
                (_, false) => m,
            };
        }
        match (a, b) {
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
            ) if k1 == k2 => match konst(c1, c2) {
                Ok(c) => Integer {
                    kind: *k1,
                    nonneg: *n1 || *n2,
                    konst: c,
                    bool_too: *b1 && *b2,
                },
                Err(()) => Impossible,
            },
            (Bool { konst: c1, .. }, Bool { konst: c2, .. }) => match (c1, c2) {
                (Some(x), Some(y)) if x != y => Impossible,
                _ => Bool {
                    konst: c1.or(*c2),
                    knowntypedata: None,
                },
            },
            // a plain machine int holds no bool (one that does is an int
            // that may be a bool)
            (Bool { .. }, Integer { kind: IntKind::Signed, bool_too: false, .. })
            | (Integer { kind: IntKind::Signed, bool_too: false, .. }, Bool { .. }) => Impossible,
            (Bool { konst, .. }, Integer { konst: ik, .. })
            | (Integer { konst: ik, .. }, Bool { konst, .. }) => {
                let int_value = ik.as_ref().map(|k| {
                    pyo3::Python::attach(|py| {
                        use pyo3::prelude::*;
                        k.bind(py).extract::<i64>().ok()
                    })
                });
                match (int_value, konst) {
                    (None, k) => Bool {
                        konst: *k,
                        knowntypedata: None,
                    },
                    // a constant int is not the constant bool of the same
                    // value (their union is a non-constant int): no bool is
                    // below it
                    _ => Impossible,
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
            ) => match konst(c1, c2) {
                Ok(c) => Float {
                    konst: c,
                    int_too: *i1 && *i2,
                },
                Err(()) => Impossible,
            },
            // the ints among the numbers of either kind
            (
                Float { int_too: true, .. },
                x @ Integer {
                    kind: IntKind::Signed,
                    ..
                },
            )
            | (
                x @ Integer {
                    kind: IntKind::Signed,
                    ..
                },
                Float { int_too: true, .. },
            ) => x.clone(),
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
            ) if k1 == k2 => match konst(c1, c2) {
                Ok(c) => Str {
                    kind: *k1,
                    is_char: *ch1 || *ch2,
                    can_be_none: *n1 && *n2,
                    konst: c,
                },
                Err(()) => none_or_impossible(),
            },
            (Tuple(x) | TupleOrNone(x), Tuple(y) | TupleOrNone(y)) if x.len() == y.len() => {
                let both_none = matches!(a, TupleOrNone(_)) && matches!(b, TupleOrNone(_));
                let items: Vec<SomeValue> = x.iter().zip(y).map(|(p, q)| self.meet(p, q)).collect();
                if items.iter().any(|i| i.is_impossible()) {
                    none_or_impossible()
                } else if both_none {
                    TupleOrNone(items)
                } else {
                    Tuple(items)
                }
            }
            (Tuple(x) | TupleOrNone(x), List(id)) | (List(id), Tuple(x) | TupleOrNone(x))
                if self.itemdefs.get(*id).tuple =>
            {
                // the tuples of this length among those of any length
                let item = self.itemdefs.get(*id).item.clone();
                let items: Vec<SomeValue> = x.iter().map(|p| self.meet(p, &item)).collect();
                if items.iter().any(|i| i.is_impossible()) {
                    none_or_impossible()
                } else if both_none {
                    TupleOrNone(items)
                } else {
                    Tuple(items)
                }
            }
            (
                Instance {
                    classdef: c1,
                    can_be_none: n1,
                },
                Instance {
                    classdef: c2,
                    can_be_none: n2,
                },
            ) => {
                if self.is_subclass(*c1, *c2) {
                    Instance {
                        classdef: *c1,
                        can_be_none: *n1 && *n2,
                    }
                } else if self.is_subclass(*c2, *c1) {
                    Instance {
                        classdef: *c2,
                        can_be_none: *n1 && *n2,
                    }
                } else {
                    none_or_impossible()
                }
            }
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
                let common: BTreeSet<_> = d1.intersection(d2).copied().collect();
                match (common.is_empty(), *n1 && *n2) {
                    (true, true) => None_,
                    (true, false) => Impossible,
                    (false, none) => Pbc {
                        descs: Arc::new(common),
                        can_be_none: none,
                    },
                }
            }
            _ => none_or_impossible(),
        }
    }
}
