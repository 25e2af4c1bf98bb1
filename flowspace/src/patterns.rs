//! The `match` statement's instructions and `yield from`, expressed with
//! ordinary operations: `isinstance()` of the subject, `len()`, `in`,
//! `getitem`, `getattr` and `next()`, so every later stage already knows
//! them.  Which patterns can match is decided by forking on those
//! operations, as for any `if`.

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use rpy3_model::{Hlvalue, OpName};

use crate::bytecode::{Instr, Op};
use crate::context::{FlowContext, FlowResult, Signal};

/// Built-in classes whose class pattern with one positional sub-pattern
/// matches the subject itself (CPython's `Py_TPFLAGS_MATCH_SELF`).
const MATCH_SELF: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

impl<'py> FlowContext<'py> {
    /// `isinstance(subject, (C, ...))` for built-in classes `C`.
    pub(crate) fn isinstance_of_builtins(
        &mut self,
        subject: Hlvalue,
        classes: &[&'static str],
    ) -> FlowResult<Hlvalue> {
        let mut objs = Vec::with_capacity(classes.len());
        for c in classes {
            objs.push(self.builtin(c)?.bind(self.py).clone());
        }
        let cls = if objs.len() == 1 {
            objs.pop().expect("one class")
        } else {
            PyTuple::new(self.py, objs)
                .map_err(|e| self.pyerr("class tuple", e))?
                .into_any()
        };
        let cls = self.constant(&cls);
        self.isinstance(subject, cls)
    }

    /// `isinstance(subject, cls)`, computed now when both are constants.
    fn isinstance(&mut self, subject: Hlvalue, cls: Hlvalue) -> FlowResult<Hlvalue> {
        let isinstance = self.builtin("isinstance")?;
        if let (Hlvalue::Constant(s), Hlvalue::Constant(c)) = (&subject, &cls) {
            let r = isinstance
                .bind(self.py)
                .call1((s.value.bind(self.py), c.value.bind(self.py)))
                .and_then(|r| r.is_truthy())
                .map_err(|e| self.pyerr("class pattern", e))?;
            return Ok(self.const_bool(r));
        }
        let f = self.constant(isinstance.bind(self.py));
        self.do_op(OpName::SimpleCall, vec![f, subject, cls])
    }

    /// `MATCH_KEYS`: the tuple of the subject's values for `keys` if it
    /// has them all, else None.
    pub(crate) fn match_keys(&mut self, subject: Hlvalue, keys: Hlvalue) -> FlowResult<Hlvalue> {
        let keys: Vec<Hlvalue> = match &keys {
            Hlvalue::Constant(c) => {
                let items = c
                    .value
                    .bind(self.py)
                    .try_iter()
                    .and_then(|it| it.collect::<PyResult<Vec<_>>>())
                    .map_err(|e| self.pyerr("mapping pattern keys", e))?;
                items.iter().map(|k| self.constant(k)).collect()
            }
            Hlvalue::Variable(_) => {
                return Err(self.error(
                    "a mapping pattern whose keys are not all literals or constants \
                     (the keys of a mapping pattern must be known when translating)",
                ))
            }
        };
        let mut values = Vec::with_capacity(keys.len());
        for key in keys {
            let has = self.do_op(OpName::Contains, vec![subject.clone(), key.clone()])?;
            let b = self.do_op(OpName::Bool, vec![has])?;
            if !self.guessbool(b)? {
                return Ok(self.const_none());
            }
            values.push(self.do_op(OpName::Getitem, vec![subject.clone(), key])?);
        }
        self.do_op(OpName::Newtuple, values)
    }

    /// `MATCH_CLASS`: the tuple of the attributes the class pattern names
    /// (`count` positional ones through `__match_args__`, then `names`) if
    /// the subject is an instance of `cls`, else None.
    pub(crate) fn match_class(
        &mut self,
        subject: Hlvalue,
        cls: Hlvalue,
        names: Hlvalue,
        count: usize,
    ) -> FlowResult<Hlvalue> {
        let Hlvalue::Constant(c) = &cls else {
            return Err(self.error(
                "a class pattern whose class is not a constant (the class must be known when translating)",
            ));
        };
        let cls_obj = c.value.bind(self.py).clone();
        if !cls_obj.is_instance_of::<pyo3::types::PyType>() {
            return Err(self.raise_builtin("TypeError", "called match pattern must be a class")?);
        }
        let kw: Vec<String> = match &names {
            Hlvalue::Constant(n) => n
                .value
                .bind(self.py)
                .extract()
                .map_err(|e| self.pyerr("class pattern keywords", e))?,
            Hlvalue::Variable(_) => {
                return Err(
                    self.error("class pattern keywords are not constant (malformed bytecode)")
                )
            }
        };
        let matches_self = MATCH_SELF.iter().any(|n| {
            self.builtins
                .getattr(*n)
                .map(|b| b.is(&cls_obj))
                .unwrap_or(false)
        });
        let is = self.isinstance(subject.clone(), cls)?;
        let b = self.do_op(OpName::Bool, vec![is])?;
        if !self.guessbool(b)? {
            return Ok(self.const_none());
        }
        // the attribute names, known from the class alone; where CPython
        // raises TypeError (once the subject is an instance), so does the
        // graph
        let positional = match self.class_pattern_attrs(&cls_obj, matches_self, count, &kw) {
            Ok(p) => p,
            Err(why) => return Err(self.raise_builtin("TypeError", &why)?),
        };
        let mut attrs = Vec::with_capacity(positional.len() + kw.len());
        for p in positional {
            match p {
                None => attrs.push(subject.clone()),
                Some(name) => {
                    let n = self.const_str(&name);
                    attrs.push(self.do_op(OpName::Getattr, vec![subject.clone(), n])?);
                }
            }
        }
        for name in &kw {
            let n = self.const_str(name);
            attrs.push(self.do_op(OpName::Getattr, vec![subject.clone(), n])?);
        }
        self.do_op(OpName::Newtuple, attrs)
    }

    /// The attributes a class pattern reads for its `count` positional
    /// sub-patterns (None: the subject itself), or why CPython raises
    /// TypeError.
    fn class_pattern_attrs(
        &self,
        cls_obj: &Bound<'py, PyAny>,
        matches_self: bool,
        count: usize,
        kw: &[String],
    ) -> Result<Vec<Option<String>>, String> {
        let class_name = cls_obj
            .getattr("__qualname__")
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        let mut positional: Vec<Option<String>> = Vec::new();
        if count > 0 && matches_self {
            if count > 1 {
                return Err(format!(
                    "{class_name}() accepts 1 positional sub-pattern ({count} given)"
                ));
            }
            positional.push(None);
        } else if count > 0 {
            let args = cls_obj.getattr("__match_args__").map_err(|_| {
                format!("{class_name}() accepts 0 positional sub-patterns ({count} given)")
            })?;
            let args: Vec<Bound<'_, PyAny>> = args
                .cast::<PyTuple>()
                .map_err(|_| format!("{class_name}.__match_args__ must be a tuple"))?
                .iter()
                .collect();
            if count > args.len() {
                return Err(format!(
                    "{class_name}() accepts {} positional sub-patterns ({count} given)",
                    args.len()
                ));
            }
            for a in &args[..count] {
                let s = a
                    .cast::<PyString>()
                    .map_err(|_| format!("{class_name}.__match_args__ holds a non-string"))?;
                positional.push(Some(s.to_string()));
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for n in positional.iter().flatten().chain(kw.iter()) {
            if seen.contains(&n.as_str()) {
                return Err(format!(
                    "{class_name}() got multiple sub-patterns for attribute '{n}'"
                ));
            }
            seen.push(n);
        }
        Ok(positional)
    }

    /// `SEND` of `yield from`: the next item of the delegate iterator, or,
    /// once it is exhausted, the result of the `yield from` expression and
    /// a jump past the loop.  Values sent into a generator do not exist in
    /// RPython, so what is sent is always None and is dropped.
    pub(crate) fn yield_from_step(&mut self, instr: &Instr) -> FlowResult<u32> {
        self.pop()?;
        let it = self.as_value(self.peek(1)?.clone())?;
        match self.do_op_forced(OpName::Next, vec![it], &["StopIteration"]) {
            Ok(v) => {
                self.pushval(v);
                Ok(instr.next_offset)
            }
            Err(Signal::Raise { etype, evalue }) => {
                let stop = self.builtin("StopIteration")?;
                if !matches!(&etype, Hlvalue::Constant(c) if c.value == stop) {
                    return Err(Signal::Raise { etype, evalue });
                }
                // the delegate, read again: the exception path has a
                // block (and variables) of its own
                let it = self.popvalue()?;
                let unused = matches!(
                    self.code.instr_at(instr.target),
                    Some(i) if i.op == Op::PopTop
                );
                let result = if unused {
                    self.const_none()
                } else {
                    self.do_op(OpName::YieldFromResult, vec![it, evalue])?
                };
                self.pushval(result);
                Ok(instr.target)
            }
            Err(other) => Err(other),
        }
    }
}
