//! Abstract frame states: what the flow space knows about a frame at an
//! instruction boundary, and how two states merge at a join point.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString};
use rpy3_model::{Constant, FunctionGraph, Hlvalue, PyObj, VarId};

/// One slot of the abstract frame (a local or a stack entry).
#[derive(Clone, Debug)]
pub enum FrameValue {
    /// An unbound local.
    Undefined,
    /// The `NULL` CPython pushes before a callable.
    Null,
    /// An ordinary value.
    Val(Hlvalue),
    /// A local assigned on some paths into the block only: its value (the
    /// undefined-local marker on the other paths) and a bool saying
    /// whether it is bound; reading it checks the flag, raising
    /// `UnboundLocalError` as Python does.
    MaybeVal { value: Hlvalue, bound: Hlvalue },
    /// An exception being handled or re-raised: its class and instance.
    Exc { etype: Hlvalue, evalue: Hlvalue },
    /// The cell of a local slot, pushed by `LOAD_CLOSURE`.
    Cell(usize),
    /// The closure tuple built from cells.
    Cells(Vec<usize>),
    /// A nested function capturing local variables of this frame (a
    /// comprehension body, a nested `def`): the function object and the
    /// captured slots, whose values at call time a call passes as extra
    /// keyword arguments (so the function sees later assignments, as it
    /// would through real cells).  `defaults`: the values of default
    /// arguments computed at run time (`lambda x, i=i: ...`), which the
    /// function (made without them) is always passed.
    Closure {
        func: PyObj,
        slots: Vec<usize>,
        defaults: Vec<Hlvalue>,
    },
    /// The NULL `LOAD_METHOD` pushes below a method named `sort`, holding
    /// the object it was read from (so that `obj.sort(key=closure)` can
    /// become a call of a sorting helper on `obj`).
    SortReceiver(Hlvalue),
    /// An iterator over an `unrolling_iterable` (`rpy3.rlib.unroll`): its
    /// items (a tuple) and the index of the next, so that each turn of the
    /// loop is flowed with its item as a constant.
    Unroller { items: PyObj, index: usize },
}

impl FrameValue {
    /// Visits every operand in a fixed order.
    fn operands(&self, out: &mut Vec<Hlvalue>) {
        match self {
            FrameValue::Undefined
            | FrameValue::Null
            | FrameValue::Cell(_)
            | FrameValue::Cells(_)
            | FrameValue::Unroller { .. } => {}
            FrameValue::Closure { defaults, .. } => out.extend(defaults.iter().cloned()),
            FrameValue::Val(h) | FrameValue::SortReceiver(h) => out.push(h.clone()),
            FrameValue::MaybeVal { value, bound } => {
                out.push(value.clone());
                out.push(bound.clone());
            }
            FrameValue::Exc { etype, evalue } => {
                out.push(etype.clone());
                out.push(evalue.clone());
            }
        }
    }

    fn map(&self, f: &mut dyn FnMut(&Hlvalue) -> Hlvalue) -> FrameValue {
        match self {
            FrameValue::Undefined => FrameValue::Undefined,
            FrameValue::Null => FrameValue::Null,
            FrameValue::Val(h) => FrameValue::Val(f(h)),
            FrameValue::SortReceiver(h) => FrameValue::SortReceiver(f(h)),
            FrameValue::Closure {
                func,
                slots,
                defaults,
            } => FrameValue::Closure {
                func: func.clone(),
                slots: slots.clone(),
                defaults: defaults.iter().map(|d| f(d)).collect(),
            },
            FrameValue::MaybeVal { value, bound } => FrameValue::MaybeVal {
                value: f(value),
                bound: f(bound),
            },
            FrameValue::Exc { etype, evalue } => FrameValue::Exc {
                etype: f(etype),
                evalue: f(evalue),
            },
            other => other.clone(),
        }
    }
}

/// The abstract state of a frame at an instruction boundary.
#[derive(Clone, Debug)]
pub struct FrameState {
    /// Local slots (`localsplus`).
    pub locals: Vec<FrameValue>,
    /// The value stack.
    pub stack: Vec<FrameValue>,
    /// The exception currently being handled (`sys.exc_info()`), or a
    /// `Val(None)`.
    pub exc_info: FrameValue,
    /// Keyword names set by `KW_NAMES` for the next call.
    pub kwnames: Option<PyObj>,
    /// Offset of the next instruction.
    pub next_offset: u32,
}

impl FrameState {
    fn slots(&self) -> impl Iterator<Item = &FrameValue> {
        self.locals
            .iter()
            .chain(self.stack.iter())
            .chain(std::iter::once(&self.exc_info))
    }

    /// Every operand of the state, in a fixed order.
    fn operands(&self) -> Vec<Hlvalue> {
        let mut out = Vec::new();
        for s in self.slots() {
            s.operands(&mut out);
        }
        out
    }

    /// The variables of the state, in a fixed order (the input arguments
    /// of a block starting in this state).
    pub fn getvariables(&self) -> Vec<VarId> {
        self.operands().iter().filter_map(|h| h.as_var()).collect()
    }

    /// The values this state gives to the variables of `target`, a state
    /// with the same shape that is at least as general (a slot undefined in
    /// `target` passes nothing).
    pub fn getoutputargs(&self, target: &FrameState) -> Vec<Hlvalue> {
        let mut out = Vec::new();
        for (mine, theirs) in self.slots().zip(target.slots()) {
            let (mut m, mut t) = (Vec::new(), Vec::new());
            mine.operands(&mut m);
            theirs.operands(&mut t);
            if t.is_empty() {
                continue;
            }
            if let FrameValue::MaybeVal { value, bound } = theirs {
                // entering a block where the local may be unbound
                let (v, b) = match mine {
                    FrameValue::Undefined => (undefined_local(), bool_const(false)),
                    FrameValue::Val(h) => (h.clone(), bool_const(true)),
                    FrameValue::MaybeVal { value, bound } => (value.clone(), bound.clone()),
                    _ => unreachable!("the shapes of the two states match"),
                };
                if value.as_var().is_some() {
                    out.push(v);
                }
                if bound.as_var().is_some() {
                    out.push(b);
                }
                continue;
            }
            debug_assert_eq!(m.len(), t.len());
            out.extend(
                m.into_iter()
                    .zip(t)
                    .filter(|(_, t)| t.as_var().is_some())
                    .map(|(m, _)| m),
            );
        }
        out
    }

    /// A copy of the state with every variable replaced by a fresh one of
    /// `graph`, named after the local it sits in.
    pub fn copy_fresh(&self, graph: &mut FunctionGraph, localnames: &[String]) -> FrameState {
        let fresh = |h: &Hlvalue, hint: &str, graph: &mut FunctionGraph| match h {
            Hlvalue::Variable(_) => Hlvalue::Variable(graph.new_var(hint)),
            c => c.clone(),
        };
        let locals = self
            .locals
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let hint = localnames.get(i).map(String::as_str).unwrap_or("");
                let hint = if hint.starts_with('.') { "" } else { hint };
                v.map(&mut |h| fresh(h, hint, graph))
            })
            .collect();
        let stack = self
            .stack
            .iter()
            .map(|v| v.map(&mut |h| fresh(h, "", graph)))
            .collect();
        let exc_info = self.exc_info.map(&mut |h| fresh(h, "", graph));
        FrameState {
            locals,
            stack,
            exc_info,
            kwnames: self.kwnames.clone(),
            next_offset: self.next_offset,
        }
    }

    /// True when `self` and `other` have the same shape and the same
    /// constants where `self` has constants, with variables anywhere else
    /// in both (so a link from `other` to a block in state `self` carries
    /// everything).
    pub fn matches(&self, py: Python<'_>, other: &FrameState) -> bool {
        if !self.same_shape(other) {
            return false;
        }
        self.operands()
            .iter()
            .zip(other.operands())
            .all(|(a, b)| match (a, &b) {
                (Hlvalue::Variable(_), Hlvalue::Variable(_)) => true,
                (Hlvalue::Constant(x), Hlvalue::Constant(y)) => const_equal(py, x, y),
                _ => false,
            })
    }

    fn same_shape(&self, other: &FrameState) -> bool {
        if self.locals.len() != other.locals.len()
            || self.stack.len() != other.stack.len()
            || self.next_offset != other.next_offset
            || self.kwnames != other.kwnames
        {
            return false;
        }
        self.slots().zip(other.slots()).all(|(a, b)| match (a, b) {
            (FrameValue::Undefined, FrameValue::Undefined)
            | (FrameValue::Null, FrameValue::Null) => true,
            (FrameValue::Val(_), FrameValue::Val(_))
            | (FrameValue::SortReceiver(_), FrameValue::SortReceiver(_))
            | (FrameValue::MaybeVal { .. }, FrameValue::MaybeVal { .. })
            | (FrameValue::Exc { .. }, FrameValue::Exc { .. }) => true,
            (FrameValue::Cell(x), FrameValue::Cell(y)) => x == y,
            (FrameValue::Cells(x), FrameValue::Cells(y)) => x == y,
            (
                FrameValue::Unroller { items: a, index: i },
                FrameValue::Unroller { items: b, index: j },
            ) => a == b && i == j,
            (
                FrameValue::Closure {
                    func: f,
                    slots: x,
                    defaults: d,
                },
                FrameValue::Closure {
                    func: g,
                    slots: y,
                    defaults: e,
                },
            ) => f == g && x == y && d.len() == e.len(),
            _ => false,
        })
    }

    /// The most precise state that both `self` and `other` fit in, or
    /// `None` when they cannot be merged (different stack shapes).  New
    /// variables are placeholders: the block created for the union gets
    /// fresh ones through [`FrameState::copy_fresh`].
    pub fn union(
        &self,
        py: Python<'_>,
        other: &FrameState,
        graph: &mut FunctionGraph,
    ) -> Option<FrameState> {
        if self.locals.len() != other.locals.len()
            || self.stack.len() != other.stack.len()
            || self.next_offset != other.next_offset
            || self.kwnames != other.kwnames
        {
            return None;
        }
        let union_hl = |a: &Hlvalue, b: &Hlvalue, graph: &mut FunctionGraph| -> Hlvalue {
            match (a, b) {
                (Hlvalue::Constant(x), Hlvalue::Constant(y)) if const_equal(py, x, y) => a.clone(),
                _ => Hlvalue::Variable(graph.new_var("")),
            }
        };
        let union_fv = |a: &FrameValue,
                        b: &FrameValue,
                        graph: &mut FunctionGraph|
         -> Option<FrameValue> {
            Some(match (a, b) {
                (FrameValue::Undefined, FrameValue::Undefined) => FrameValue::Undefined,
                // a local assigned on some paths only
                (
                    FrameValue::Undefined | FrameValue::Val(_) | FrameValue::MaybeVal { .. },
                    FrameValue::Undefined | FrameValue::Val(_) | FrameValue::MaybeVal { .. },
                ) if matches!(a, FrameValue::Undefined | FrameValue::MaybeVal { .. })
                    || matches!(b, FrameValue::Undefined | FrameValue::MaybeVal { .. }) =>
                {
                    FrameValue::MaybeVal {
                        value: Hlvalue::Variable(graph.new_var("")),
                        bound: Hlvalue::Variable(graph.new_var("")),
                    }
                }
                (FrameValue::Undefined, _) | (_, FrameValue::Undefined) => FrameValue::Undefined,
                (FrameValue::Null, FrameValue::Null) => FrameValue::Null,
                (FrameValue::Val(x), FrameValue::Val(y)) => FrameValue::Val(union_hl(x, y, graph)),
                (FrameValue::SortReceiver(x), FrameValue::SortReceiver(y)) => {
                    FrameValue::SortReceiver(union_hl(x, y, graph))
                }
                (FrameValue::Cell(x), FrameValue::Cell(y)) if x == y => FrameValue::Cell(*x),
                (
                    FrameValue::Exc {
                        etype: t1,
                        evalue: v1,
                    },
                    FrameValue::Exc {
                        etype: t2,
                        evalue: v2,
                    },
                ) => FrameValue::Exc {
                    etype: union_hl(t1, t2, graph),
                    evalue: union_hl(v1, v2, graph),
                },
                (FrameValue::Cells(x), FrameValue::Cells(y)) if x == y => {
                    FrameValue::Cells(x.clone())
                }
                // each turn of an unrolled loop is a block of its own
                (
                    FrameValue::Unroller { items: a, index: i },
                    FrameValue::Unroller { items: b, index: j },
                ) if a == b && i == j => FrameValue::Unroller {
                    items: a.clone(),
                    index: *i,
                },
                (
                    FrameValue::Closure {
                        func: f,
                        slots: x,
                        defaults: d,
                    },
                    FrameValue::Closure {
                        func: g,
                        slots: y,
                        defaults: e,
                    },
                ) if f == g && x == y && d.len() == e.len() => FrameValue::Closure {
                    func: f.clone(),
                    slots: x.clone(),
                    defaults: d.iter().zip(e).map(|(a, b)| union_hl(a, b, graph)).collect(),
                },
                _ => return None,
            })
        };
        let mut locals = Vec::with_capacity(self.locals.len());
        for (a, b) in self.locals.iter().zip(&other.locals) {
            locals.push(union_fv(a, b, graph)?);
        }
        let mut stack = Vec::with_capacity(self.stack.len());
        for (a, b) in self.stack.iter().zip(&other.stack) {
            // An undefined value cannot sit on the stack: a mismatch there
            // means different shapes.
            if matches!(a, FrameValue::Undefined) != matches!(b, FrameValue::Undefined) {
                return None;
            }
            stack.push(union_fv(a, b, graph)?);
        }
        let exc_info = union_fv(&self.exc_info, &other.exc_info, graph)?;
        Some(FrameState {
            locals,
            stack,
            exc_info,
            kwnames: self.kwnames.clone(),
            next_offset: self.next_offset,
        })
    }
}

/// Whether two constants are interchangeable: the same object, or equal
/// immutable values of exactly the same type (so `1`, `1.0` and `True`
/// stay apart, and `0.0` and `-0.0` too).
pub fn const_equal(py: Python<'_>, a: &Constant, b: &Constant) -> bool {
    if a.value == b.value {
        return true;
    }
    let (x, y) = (a.value.bind(py), b.value.bind(py));
    if !x.get_type().is(y.get_type()) {
        return false;
    }
    if x.is_instance_of::<PyFloat>() {
        let (Ok(p), Ok(q)) = (x.extract::<f64>(), y.extract::<f64>()) else {
            return false;
        };
        return p.to_bits() == q.to_bits();
    }
    if let (Ok(t1), Ok(t2)) = (
        x.cast::<pyo3::types::PyTuple>(),
        y.cast::<pyo3::types::PyTuple>(),
    ) {
        // tuples of interchangeable constants (folded `(A, B)`) are equal
        return t1.len() == t2.len()
            && t1.iter().zip(t2.iter()).all(|(p, q)| {
                const_equal(
                    py,
                    &Constant::new(PyObj::new(&p)),
                    &Constant::new(PyObj::new(&q)),
                )
            });
    }
    // a method of a constant read twice (`"{}".format` on two paths):
    // the same method of equal constants
    let tyname = x.get_type().name().map(|n| n.to_string()).unwrap_or_default();
    if tyname == "builtin_function_or_method" || tyname == "method" {
        fn part<'py>(o: &Bound<'py, PyAny>, attr: &str) -> Option<Bound<'py, PyAny>> {
            o.getattr(attr).ok()
        }
        let same_func = match tyname.as_str() {
            "method" => match (part(x, "__func__"), part(y, "__func__")) {
                (Some(f), Some(g)) => f.is(&g),
                _ => false,
            },
            _ => match (part(x, "__name__"), part(y, "__name__")) {
                (Some(f), Some(g)) => f.eq(&g).unwrap_or(false),
                _ => false,
            },
        };
        let (Some(s1), Some(s2)) = (part(x, "__self__"), part(y, "__self__")) else {
            return false;
        };
        return same_func
            && (s1.is(&s2)
                || const_equal(
                    py,
                    &Constant::new(PyObj::new(&s1)),
                    &Constant::new(PyObj::new(&s2)),
                ));
    }
    let simple = x.is_instance_of::<PyInt>()
        || x.is_instance_of::<PyBool>()
        || x.is_instance_of::<PyString>()
        || x.is_instance_of::<PyBytes>();
    simple && x.eq(y).unwrap_or(false)
}

/// The value a link gives to a local that is assigned on some paths into
/// a block but not on the one it comes from (Python would raise
/// `UnboundLocalError` on reading it there).  The annotator sees it as no
/// value at all and the rtyper as the zero of the local's type.
pub fn undefined_local() -> Hlvalue {
    Python::attach(|py| Hlvalue::Constant(Constant::new(crate::undefined_local_object(py))))
}

fn bool_const(b: bool) -> Hlvalue {
    Python::attach(|py| {
        let v = pyo3::types::PyBool::new(py, b).to_owned().into_any();
        Hlvalue::Constant(Constant::new(PyObj::new(&v)))
    })
}
