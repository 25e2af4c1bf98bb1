//! Property tests: the lattice laws on random annotations, independence of
//! the result from the order blocks are processed in, and bindings that
//! only ever generalise.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use pyo3::prelude::*;
use quickcheck::{Arbitrary, Gen, QuickCheck};
use rpy3_annotator::itemdef::ItemKind;
use rpy3_annotator::model::{IntKind, StrKind};
use rpy3_annotator::{Annotator, Order, SomeValue};

/// A recipe for an annotation (annotations hold live constants, so they
/// are built inside the interpreter).
#[derive(Clone, Debug)]
enum Shape {
    Impossible,
    Int {
        kind: u8,
        nonneg: bool,
        konst: Option<i8>,
    },
    Bool(Option<bool>),
    /// A float constant (or none), and whether ints are among the values.
    Float(Option<i8>, bool),
    Str {
        bytes: bool,
        is_char: bool,
        can_be_none: bool,
    },
    None,
    Tuple(Vec<Shape>),
    List(Box<Shape>),
}

impl Shape {
    fn gen_depth(g: &mut Gen, depth: usize) -> Shape {
        let choices = if depth == 0 { 6 } else { 8 };
        match u8::arbitrary(g) % choices {
            0 => Shape::Impossible,
            1 => {
                let konst = if bool::arbitrary(g) {
                    Some(i8::arbitrary(g))
                } else {
                    None
                };
                let nonneg = konst
                    .map(|k| k >= 0 && bool::arbitrary(g))
                    .unwrap_or_else(|| bool::arbitrary(g));
                Shape::Int {
                    kind: u8::arbitrary(g) % 3,
                    nonneg,
                    konst,
                }
            }
            2 => Shape::Bool(Option::<bool>::arbitrary(g)),
            3 => {
                let k = Option::<i8>::arbitrary(g);
                Shape::Float(k, k.is_none() && bool::arbitrary(g))
            }
            4 => Shape::Str {
                bytes: bool::arbitrary(g),
                is_char: bool::arbitrary(g),
                can_be_none: bool::arbitrary(g),
            },
            5 => Shape::None,
            6 => {
                let n = usize::arbitrary(g) % 3;
                Shape::Tuple((0..n).map(|_| Shape::gen_depth(g, depth - 1)).collect())
            }
            _ => Shape::List(Box::new(Shape::gen_depth(g, depth - 1))),
        }
    }

    fn build(&self, ann: &mut Annotator, py: Python<'_>) -> SomeValue {
        match self {
            Shape::Impossible => SomeValue::Impossible,
            Shape::Int {
                kind,
                nonneg,
                konst,
            } => {
                let kind =
                    [IntKind::Signed, IntKind::Unsigned, IntKind::SignedLongLong][*kind as usize];
                let nonneg = *nonneg || kind.unsigned();
                let konst = konst
                    .filter(|k| !kind.unsigned() || *k >= 0)
                    .filter(|k| !nonneg || *k >= 0);
                let konst = konst.map(|k| {
                    rpy3_model::PyObj::new(&pyo3::types::PyInt::new(py, k as i64).into_any())
                });
                SomeValue::Integer {
                    kind,
                    nonneg,
                    konst: if kind == IntKind::Signed { konst } else { None },
                    bool_too: false,
                }
            }
            Shape::Bool(k) => SomeValue::Bool {
                konst: *k,
                knowntypedata: None,
            },
            Shape::Float(k, int_too) => SomeValue::Float {
                konst: k.map(|k| {
                    rpy3_model::PyObj::new(
                        &pyo3::types::PyFloat::new(py, k as f64 / 2.0).into_any(),
                    )
                }),
                int_too: *int_too,
            },
            Shape::Str {
                bytes,
                is_char,
                can_be_none,
            } => SomeValue::Str {
                kind: if *bytes { StrKind::Bytes } else { StrKind::Str },
                is_char: *is_char,
                can_be_none: *can_be_none,
                konst: None,
            },
            Shape::None => SomeValue::None_,
            Shape::Tuple(items) => {
                SomeValue::Tuple(items.iter().map(|i| i.build(ann, py)).collect())
            }
            Shape::List(item) => {
                let item = item.build(ann, py);
                SomeValue::List(ann.new_container(ItemKind::List, item, SomeValue::Impossible))
            }
        }
    }
}

impl Arbitrary for Shape {
    fn arbitrary(g: &mut Gen) -> Shape {
        Shape::gen_depth(g, 2)
    }
}

/// `Some(canonical text)` of the union of the shapes, built in a fresh
/// annotator, or `None` if they do not unite.
fn union_of(shapes: &[&Shape]) -> Option<String> {
    Python::attach(|py| {
        let mut ann = Annotator::new();
        let values: Vec<SomeValue> = shapes.iter().map(|s| s.build(&mut ann, py)).collect();
        let mut acc = SomeValue::Impossible;
        for v in &values {
            acc = ann.union(&acc, v).ok()?;
        }
        Some(ann.canonical(&acc))
    })
}

fn canonical(s: &Shape) -> String {
    Python::attach(|py| {
        let mut ann = Annotator::new();
        let v = s.build(&mut ann, py);
        ann.canonical(&v)
    })
}

#[test]
fn union_is_idempotent() {
    fn prop(a: Shape) -> bool {
        union_of(&[&a, &a]) == Some(canonical(&a))
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Shape) -> bool);
}

#[test]
fn union_is_commutative() {
    fn prop(a: Shape, b: Shape) -> bool {
        union_of(&[&a, &b]) == union_of(&[&b, &a])
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape) -> bool);
}

#[test]
fn union_is_associative() {
    fn prop(a: Shape, b: Shape, c: Shape) -> bool {
        let left = Python::attach(|py| {
            let mut ann = Annotator::new();
            let (x, y, z) = (
                a.build(&mut ann, py),
                b.build(&mut ann, py),
                c.build(&mut ann, py),
            );
            let xy = ann.union(&x, &y).ok()?;
            let r = ann.union(&xy, &z).ok()?;
            Some(ann.canonical(&r))
        });
        let right = Python::attach(|py| {
            let mut ann = Annotator::new();
            let (x, y, z) = (
                a.build(&mut ann, py),
                b.build(&mut ann, py),
                c.build(&mut ann, py),
            );
            let yz = ann.union(&y, &z).ok()?;
            let r = ann.union(&x, &yz).ok()?;
            Some(ann.canonical(&r))
        });
        left == right
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape, Shape) -> bool);
}

#[test]
fn union_is_an_upper_bound() {
    fn prop(a: Shape, b: Shape) -> bool {
        Python::attach(|py| {
            let mut ann = Annotator::new();
            let (x, y) = (a.build(&mut ann, py), b.build(&mut ann, py));
            let Ok(u) = ann.union(&x, &y) else {
                return true;
            };
            let ux = ann.union(&u, &x).map(|r| ann.canonical(&r));
            let uy = ann.union(&u, &y).map(|r| ann.canonical(&r));
            let cu = ann.canonical(&u);
            ux.as_ref() == Ok(&cu)
                && uy.as_ref() == Ok(&cu)
                && union_of(&[&Shape::Impossible, &a]) == Some(canonical(&a))
        })
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape) -> bool);
}

/// Annotates every corpus case function in FIFO order and in three
/// shuffled orders: the canonical results are identical.
#[test]
fn result_does_not_depend_on_block_order() {
    let functions = common::corpus_functions();
    assert!(functions.len() > 300);
    let mut compared = 0;
    Python::attach(|py| {
        for (label, func, args) in &functions {
            let run =
                |order: Order| -> Result<std::collections::BTreeMap<String, Vec<String>>, String> {
                    let mut ann = Annotator::new();
                    ann.set_order(order);
                    let sargs = common::arg_annotations(&mut ann, py, args.bind(py));
                    ann.annotate(py, func.bind(py), sargs)
                        .map_err(|e| e.message)?;
                    Ok(ann.canonical_dump())
                };
            let base = run(Order::Fifo);
            for seed in [1u64, 7, 1234567] {
                let other = run(Order::Shuffled(seed));
                match (&base, &other) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{label}: different results with seed {seed}"),
                    (Err(_), Err(_)) => {}
                    _ => panic!("{label}: annotation succeeds in one order only (seed {seed}): {:?} vs {:?}", base.as_ref().err(), other.as_ref().err()),
                }
            }
            compared += 1;
        }
    });
    assert!(compared > 300);
}

/// Every change of a binding during annotation generalises it.
#[test]
fn bindings_only_generalise() {
    let functions = common::corpus_functions();
    Python::attach(|py| {
        for (label, func, args) in &functions {
            let changes: Rc<RefCell<Vec<(SomeValue, SomeValue)>>> = Rc::default();
            let mut ann = Annotator::new();
            let sink = changes.clone();
            ann.on_bind = Some(Box::new(move |_, _, old, new| {
                sink.borrow_mut().push((old.clone(), new.clone()))
            }));
            let sargs = common::arg_annotations(&mut ann, py, args.bind(py));
            if ann.annotate(py, func.bind(py), sargs).is_err() {
                continue;
            }
            ann.on_bind = None;
            for (old, new) in changes.borrow().iter() {
                let joined = ann.union(old, new).unwrap_or_else(|e| {
                    panic!(
                        "{label}: {} and {} do not unite: {}",
                        ann.canonical(old),
                        ann.canonical(new),
                        e.message
                    )
                });
                assert_eq!(
                    ann.canonical(&joined),
                    ann.canonical(new),
                    "{label}: a binding went from {} to {}",
                    ann.canonical(old),
                    ann.canonical(new)
                );
            }
        }
    });
}

/// Runs `f` on annotations built from the shapes in one fresh annotator.
fn with_values<R>(shapes: &[&Shape], f: impl FnOnce(&mut Annotator, &[SomeValue]) -> R) -> R {
    Python::attach(|py| {
        let mut ann = Annotator::new();
        let values: Vec<SomeValue> = shapes.iter().map(|s| s.build(&mut ann, py)).collect();
        f(&mut ann, &values)
    })
}

#[test]
fn meet_is_commutative_and_idempotent() {
    fn prop(a: Shape, b: Shape) -> bool {
        with_values(&[&a, &b], |ann, v| {
            let ab = ann.meet(&v[0], &v[1]);
            let ba = ann.meet(&v[1], &v[0]);
            let aa = ann.meet(&v[0], &v[0]);
            ann.canonical(&ab) == ann.canonical(&ba) && ann.canonical(&aa) == ann.canonical(&v[0])
        })
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape) -> bool);
}

#[test]
fn meet_is_a_lower_bound_and_absorbs_union() {
    fn prop(a: Shape, b: Shape) -> bool {
        with_values(&[&a, &b], |ann, v| {
            let m = ann.meet(&v[0], &v[1]);
            if !(ann.leq(&m, &v[0]) && ann.leq(&m, &v[1])) {
                eprintln!(
                    "not a lower bound: {} ∧ {} = {}",
                    ann.canonical(&v[0]),
                    ann.canonical(&v[1]),
                    ann.canonical(&m)
                );
                return false;
            }
            // absorption: a ∧ (a ∨ b) = a and a ∨ (a ∧ b) = a
            let Ok(u) = ann.union(&v[0], &v[1]) else {
                return true;
            };
            let a_meet_u = ann.meet(&v[0], &u);
            let a_join_m = ann.union(&v[0], &m).map(|x| ann.canonical(&x));
            let ok = ann.canonical(&a_meet_u) == ann.canonical(&v[0])
                && a_join_m == Ok(ann.canonical(&v[0]));
            if !ok {
                eprintln!(
                    "absorption fails: a={} b={} a∨b={} a∧(a∨b)={} a∨(a∧b)={:?}",
                    ann.canonical(&v[0]),
                    ann.canonical(&v[1]),
                    ann.canonical(&u),
                    ann.canonical(&a_meet_u),
                    a_join_m
                );
            }
            ok
        })
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape) -> bool);
}

#[test]
fn leq_agrees_with_union() {
    fn prop(a: Shape, b: Shape) -> bool {
        with_values(&[&a, &b], |ann, v| {
            let leq = ann.leq(&v[0], &v[1]);
            let Ok(u) = ann.union(&v[0], &v[1]) else {
                return !leq;
            };
            // after the union merged containers, a ⊑ b iff a ∨ b = b
            leq <= (ann.canonical(&u) == ann.canonical(&v[1]))
        })
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Shape, Shape) -> bool);
}
