//! Calls, nested functions, and the built-ins that become operations.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use rpy3_model::{Hlvalue, OpName, PyObj};

use crate::context::{FlowContext, FlowResult};
use crate::framestate::FrameValue;

/// Attribute marking a function created by the flow space for a nested
/// code object that captures variables: its free variables are passed as
/// extra keyword-only arguments instead of through cells.
pub const CLOSURE_MARK: &str = "_rpy3_closure_";

/// Nested functions created while flowing, one per (code, defaults), so
/// re-flowing the same `MAKE_FUNCTION` gives the same function object.
fn nested_functions() -> &'static Mutex<HashMap<(usize, usize), PyObj>> {
    static CACHE: OnceLock<Mutex<HashMap<(usize, usize), PyObj>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A call that calls its closure arguments before it returns.
#[derive(Clone)]
enum Eager {
    Sorted,
    Min,
    Max,
    /// `obj.sort(...)`
    Sort(Hlvalue),
}

/// Built-in functions that are operations when called with positional
/// arguments only, with the argument counts for which they are.
const BUILTIN_OPS: &[(&str, OpName, usize)] = &[
    ("len", OpName::Len, 1),
    ("abs", OpName::Abs, 1),
    ("hash", OpName::Hash, 1),
    ("iter", OpName::Iter, 1),
    ("next", OpName::Next, 1),
    ("repr", OpName::Repr, 1),
    ("str", OpName::Str, 1),
    ("ascii", OpName::Ascii, 1),
    ("type", OpName::Type, 1),
    ("bool", OpName::Bool, 1),
    ("getattr", OpName::Getattr, 2),
    ("setattr", OpName::Setattr, 3),
    ("delattr", OpName::Delattr, 2),
    ("divmod", OpName::Divmod, 2),
    ("format", OpName::Format, 2),
    ("issubclass", OpName::Issubtype, 2),
];

/// Built-ins whose use makes a function not RPython.
const FORBIDDEN: &[&str] = &[
    "locals",
    "globals",
    "vars",
    "eval",
    "exec",
    "compile",
    "__import__",
    "input",
    "open",
];

impl<'py> FlowContext<'py> {
    fn builtin_is(&self, h: &Hlvalue, name: &str) -> bool {
        match h {
            Hlvalue::Constant(c) => self
                .builtins
                .getattr(name)
                .map(|b| b.is(c.value.bind(self.py)))
                .unwrap_or(false),
            _ => false,
        }
    }

    /// `CALL argc`: the stack holds `[NULL or callable, callable or self, args...]`.
    pub(crate) fn call(&mut self, argc: usize) -> FlowResult<()> {
        let mut args = Vec::with_capacity(argc + 1);
        for _ in 0..argc {
            args.push(self.pop()?);
        }
        args.reverse();
        let second = self.pop()?;
        let first = self.pop()?;
        let sort_receiver = match &first {
            FrameValue::SortReceiver(obj) => Some(obj.clone()),
            _ => None,
        };
        let callee = match first {
            FrameValue::Null | FrameValue::SortReceiver(_) => second,
            f => {
                args.insert(0, second);
                f
            }
        };
        let kwnames: Vec<String> = match self.kwnames.take() {
            Some(t) => t
                .bind(self.py)
                .extract()
                .map_err(|e| self.pyerr("keyword names", e))?,
            None => Vec::new(),
        };
        // a consumer that calls a closure argument before returning (a sort
        // key) sees the captured values of the moment, whatever follows
        let eager = match sort_receiver {
            Some(obj) => Some(Eager::Sort(obj)),
            None => self.eager_consumer(&callee),
        };
        if let Some(kind) = eager.clone() {
            if let Some(result) = self.keyed_call(kind, &args, &kwnames)? {
                self.pushval(result);
                return Ok(());
            }
        }
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            values.push(match a {
                FrameValue::Closure {
                    func,
                    slots,
                    defaults,
                } if eager.is_some() => self.closure_value(&func, &slots, &defaults, true)?,
                a => self.as_value(a)?,
            });
        }
        let npos = values.len() - kwnames.len();
        let result = match callee {
            FrameValue::Closure {
                func,
                slots,
                defaults,
            } => {
                let names = self.closure_names(&func)?;
                let own_name = func
                    .bind(self.py)
                    .getattr("__code__")
                    .and_then(|c| c.getattr("co_name"))
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                let mut cells = Vec::with_capacity(slots.len());
                for (slot, free) in slots.into_iter().zip(&names) {
                    let name = self.code.localsplus.get(slot).cloned().unwrap_or_default();
                    match self.locals.get(slot).cloned() {
                        Some(FrameValue::Undefined) | None => {
                            return Err(self.error(format!(
                                "a nested function reads '{name}', which is not assigned when it is called"
                            )));
                        }
                        // the function itself (a recursive nested function):
                        // its graph binds its own name to itself, so the
                        // value passed is not read
                        Some(FrameValue::Closure { func: f2, .. })
                            if *free == own_name && f2.bind(self.py).is(func.bind(self.py)) =>
                        {
                            cells.push(self.const_none());
                        }
                        // another nested function: passed as a closure value
                        Some(FrameValue::Closure {
                            func: f2,
                            slots: s2,
                            defaults: d2,
                        }) => {
                            let v = self.captured_closure(&name, &f2, &s2, &d2)?;
                            cells.push(v);
                        }
                        Some(_) if *free == own_name => {
                            return Err(self.error(format!(
                                "the nested function '{own_name}' reads its own name, which no \
                                 longer holds it when it is called; rpy3 supports a nested \
                                 function calling itself only while its name holds it"
                            )));
                        }
                        Some(v) => cells.push(self.as_value(v)?),
                    }
                }
                let mut kw = kwnames;
                // the defaults computed at run time, for the parameters
                // the call does not give
                let given: Vec<String> = kw.clone();
                for (p, d) in self.defaulted_params(&func, defaults.len())?.into_iter().zip(defaults) {
                    let (index, name) = p;
                    if index >= npos && !given.contains(&name) {
                        kw.push(name);
                        values.push(d);
                    }
                }
                kw.extend(names);
                values.extend(cells);
                self.call_args(
                    Hlvalue::Constant(rpy3_model::Constant::new(func)),
                    npos,
                    &kw,
                    false,
                    false,
                    values,
                )?
            }
            other => {
                let f = self.as_value(other)?;
                self.call_value(f, npos, &kwnames, values)?
            }
        };
        self.pushval(result);
        Ok(())
    }

    /// A nested function capturing the variables in `slots`, used as a
    /// value: an instance of the class `rpy3._closures` makes for it,
    /// holding the variables' current values.  Refused when a variable
    /// could change while the value lives (Python's closures would see the
    /// change), unless `eager` (the consumer calls it at once).
    pub(crate) fn closure_value(
        &mut self,
        func: &PyObj,
        slots: &[usize],
        defaults: &[Hlvalue],
        eager: bool,
    ) -> FlowResult<Hlvalue> {
        let py = self.py;
        let name = func
            .bind(py)
            .getattr("__qualname__")
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        let module = py
            .import("rpy3._closures")
            .map_err(|e| self.pyerr("rpy3._closures", e))?;
        if !eager {
            let outer = self
                .graph
                .func
                .as_ref()
                .and_then(|f| f.bind(py).getattr("__code__").ok());
            let inner = func.bind(py).getattr("__code__").ok();
            if let (Some(outer), Some(inner)) = (outer, inner) {
                let problem = module
                    .call_method1("capture_problem", (outer, inner, self.cur_offset))
                    .map_err(|e| self.pyerr("rpy3._closures", e))?;
                if !problem.is_none() {
                    return Err(self.error(format!(
                        "the nested function '{name}' is used as a value, but {problem}; \
                         rpy3 copies the values a closure captures, so it would not see \
                         the change (pass the value as a default argument instead)"
                    )));
                }
            }
        }
        let cls = module
            .call_method1("closure_class", (func.bind(py), defaults.len()))
            .map_err(|e| self.error(format!("the nested function '{name}' used as a value: {e}")))?;
        let mut args = vec![self.constant(&cls)];
        for &slot in slots {
            match self.locals.get(slot).cloned() {
                Some(FrameValue::Undefined) | None => {
                    let var = self.code.localsplus.get(slot).cloned().unwrap_or_default();
                    return Err(self.error(format!(
                        "the nested function '{name}' captures '{var}', which is not assigned yet"
                    )));
                }
                Some(FrameValue::Closure {
                    func: f2,
                    slots: s2,
                    defaults: d2,
                }) => {
                    let var = self.code.localsplus.get(slot).cloned().unwrap_or_default();
                    let v = self.captured_closure(&var, &f2, &s2, &d2)?;
                    args.push(v);
                }
                Some(v) => {
                    let v = self.as_value(v)?;
                    args.push(v);
                }
            }
        }
        args.extend(defaults.iter().cloned());
        self.do_op(OpName::SimpleCall, args)
    }

    /// A nested function that another captures (`cell` in `[cell(i) for i
    /// in ...]`, a helper called by a recursive helper): a closure value
    /// (see [`FlowContext::closure_value`]).  Nested functions capturing
    /// each other in a cycle are refused.
    fn captured_closure(
        &mut self,
        var: &str,
        func: &PyObj,
        slots: &[usize],
        defaults: &[Hlvalue],
    ) -> FlowResult<Hlvalue> {
        if self
            .converting_closures
            .iter()
            .any(|f| f.bind(self.py).is(func.bind(self.py)))
        {
            return Err(self.error(format!(
                "nested functions that capture each other ('{var}' among them) are not \
                 supported by rpy3; make one of them a module-level function"
            )));
        }
        self.converting_closures.push(func.clone());
        let v = self.closure_value(func, slots, defaults, false);
        self.converting_closures.pop();
        v
    }

    /// The calls that call a closure argument before they return:
    /// `sorted`, `min` and `max` (a `.sort` method is known by the
    /// `SortReceiver` below it).
    fn eager_consumer(&self, callee: &FrameValue) -> Option<Eager> {
        let FrameValue::Val(h) = callee else {
            return None;
        };
        if self.builtin_is(h, "sorted") {
            return Some(Eager::Sorted);
        }
        if self.builtin_is(h, "min") {
            return Some(Eager::Min);
        }
        if self.builtin_is(h, "max") {
            return Some(Eager::Max);
        }
        None
    }

    /// `sorted(it, key=f)`, `min`/`max(..., key=f)` and `xs.sort(key=f)`
    /// where `f` is a closure: calls of the RPython helpers of
    /// `rpy3.hlbuiltins` that call `f` (an instance with `__call__`) on
    /// each item.  `None` when the key is no closure.
    fn keyed_call(
        &mut self,
        kind: Eager,
        args: &[FrameValue],
        kwnames: &[String],
    ) -> FlowResult<Option<Hlvalue>> {
        let npos = args.len() - kwnames.len();
        let mut closure = None;
        let mut method = None;
        for (k, a) in kwnames.iter().zip(&args[npos..]) {
            if k == "key" {
                match a {
                    FrameValue::Closure {
                        func,
                        slots,
                        defaults,
                    } => closure = Some((func.clone(), slots.clone(), defaults.clone())),
                    FrameValue::Val(h @ Hlvalue::Variable(v)) if self.attr_reads.contains_key(v) => {
                        method = Some(h.clone())
                    }
                    _ => {}
                }
            }
        }
        if closure.is_none() && method.is_none() {
            return Ok(None);
        }
        let allowed: &[&str] = match kind {
            Eager::Sorted | Eager::Sort(_) => &["key", "reverse"],
            Eager::Min | Eager::Max => &["key", "default"],
        };
        if let Some(k) = kwnames.iter().find(|k| !allowed.contains(&k.as_str())) {
            return Err(self.error(format!("a keyword argument '{k}' with a closure as the key")));
        }
        let key = match (closure, method) {
            (Some((func, slots, defaults)), _) => self.closure_value(&func, &slots, &defaults, true)?,
            (None, Some(method)) => {
                // `key=obj.name` (`max(d, key=d.get)`): an instance whose
                // __call__ calls the bound method it holds, made for this
                // call site
                let offset = self.cur_offset;
                let cls = self
                    .py
                    .import("rpy3.hlbuiltins")
                    .and_then(|m| {
                        m.getattr("method_key_class")?
                            .call1((self.code.object.bind(self.py), offset))
                    })
                    .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
                let cls = self.constant(&cls);
                self.do_op(OpName::SimpleCall, vec![cls, method])?
            }
            (None, None) => unreachable!("checked above"),
        };
        let mut kw: HashMap<&str, Hlvalue> = HashMap::new();
        for (k, a) in kwnames.iter().zip(&args[npos..]) {
            if k != "key" {
                let v = self.as_value(a.clone())?;
                kw.insert(k.as_str(), v);
            }
        }
        let mut pos = Vec::with_capacity(npos);
        for a in &args[..npos] {
            pos.push(self.as_value(a.clone())?);
        }
        let helper = |ctx: &mut Self, name: &str| -> FlowResult<Hlvalue> {
            let f = ctx
                .py
                .import("rpy3.hlbuiltins")
                .and_then(|m| m.getattr(name))
                .map_err(|e| ctx.pyerr("rpy3.hlbuiltins", e))?;
            Ok(ctx.constant(&f))
        };
        let reverse = match kw.remove("reverse") {
            Some(r) => r,
            None => self.const_bool(false),
        };
        Ok(Some(match kind {
            Eager::Sorted => {
                if pos.len() != 1 {
                    return Err(self.error("sorted() takes one iterable"));
                }
                let list = self.builtin("list")?;
                let list = self.constant(list.bind(self.py));
                let l = self.do_op(OpName::SimpleCall, vec![list, pos[0].clone()])?;
                let f = helper(self, "rpy_sort_by_key")?;
                self.do_op(OpName::SimpleCall, vec![f, l.clone(), key, reverse])?;
                l
            }
            Eager::Sort(obj) => {
                if !pos.is_empty() {
                    return Err(self.error("sort() takes no positional arguments"));
                }
                let f = helper(self, "rpy_sort_by_key")?;
                self.do_op(OpName::SimpleCall, vec![f, obj, key, reverse])?;
                self.const_none()
            }
            Eager::Min | Eager::Max => {
                let items = match pos.len() {
                    0 => return Err(self.error("min()/max() expects at least one argument")),
                    1 => pos[0].clone(),
                    _ => self.do_op(OpName::Newlist, pos)?,
                };
                let which = matches!(kind, Eager::Max);
                let which = self.const_bool(which);
                match kw.remove("default") {
                    Some(d) => {
                        let f = helper(self, "rpy_extreme_key_default")?;
                        self.do_op(OpName::SimpleCall, vec![f, items, key, which, d])?
                    }
                    None => {
                        let f = helper(self, "rpy_extreme_key")?;
                        self.do_op(OpName::SimpleCall, vec![f, items, key, which])?
                    }
                }
            }
        }))
    }

    /// The last `n` positional parameters of `func` (index, name): those a
    /// default computed at run time stands for.
    fn defaulted_params(&self, func: &PyObj, n: usize) -> FlowResult<Vec<(usize, String)>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let code = func
            .bind(self.py)
            .getattr("__code__")
            .map_err(|e| self.pyerr("nested function", e))?;
        let argc: usize = code
            .getattr("co_argcount")
            .and_then(|a| a.extract())
            .map_err(|e| self.pyerr("nested function", e))?;
        let names: Vec<String> = code
            .getattr("co_varnames")
            .and_then(|a| a.extract())
            .map_err(|e| self.pyerr("nested function", e))?;
        Ok((argc.saturating_sub(n)..argc).map(|i| (i, names[i].clone())).collect())
    }

    fn closure_names(&self, func: &PyObj) -> FlowResult<Vec<String>> {
        func.bind(self.py)
            .getattr("__code__")
            .and_then(|c| c.getattr("co_freevars"))
            .and_then(|f| f.extract())
            .map_err(|e| self.pyerr("closure", e))
    }

    fn call_value(
        &mut self,
        f: Hlvalue,
        npos: usize,
        kwnames: &[String],
        mut values: Vec<Hlvalue>,
    ) -> FlowResult<Hlvalue> {
        let f = self.stdlib_replacement(f)?;
        let f = self.renamed_builtin(f)?;
        if let Some(v) = self.format_with_accessors(&f, npos, kwnames, &values)? {
            return Ok(v);
        }
        if let Some(v) = self.collections_call(&f, npos, kwnames, &values)? {
            return Ok(v);
        }
        if let Some(v) = self.itertools_call(&f, npos, kwnames, &values)? {
            return Ok(v);
        }
        if (self.builtin_is(&f, "isinstance") || self.builtin_is(&f, "issubclass"))
            && values.len() == 2
        {
            // a class that only renames list, dict or set is that type at
            // run time: its instances cannot be told apart
            let module = crate::opcodes::optional_module(self.py, "rpy3._renamed")
                .map_err(|e| self.pyerr("rpy3._renamed", e))?;
            if let (Hlvalue::Constant(c), Some(module)) = (&values[1], module) {
                let renamed = module
                    .getattr("mentions_renamed")
                    .and_then(|m| m.call1((c.value.bind(self.py),)))
                    .and_then(|r| r.is_truthy())
                    .map_err(|e| self.pyerr("rpy3._renamed", e))?;
                if renamed {
                    return Err(self.error(
                        "isinstance() with a class that only renames a built-in container \
                         type: rpy3 makes its instances of that type, so they cannot be told apart",
                    ));
                }
            }
        }
        if self.builtin_is(&f, "dict") && npos == 0 && !kwnames.is_empty() {
            // dict(a=1, b=2): a dict of those str keys
            let d = self.do_op(OpName::Newdict, vec![])?;
            for (k, v) in kwnames.iter().zip(values) {
                let key = self.const_str(k);
                self.do_op(OpName::Setitem, vec![d.clone(), key, v])?;
            }
            return Ok(d);
        }
        if self.builtin_is(&f, "print") {
            // print() writes str() of each argument: the conversions are
            // operations of their own (an instance's __str__ is a call)
            for v in values.iter_mut().take(npos) {
                let is_str = matches!(v, Hlvalue::Constant(c)
                    if c.value.bind(self.py).is_instance_of::<pyo3::types::PyString>());
                if !is_str {
                    *v = self.do_op(OpName::Str, vec![v.clone()])?;
                }
            }
        }
        if let Hlvalue::Constant(c) = &f {
            let obj = c.value.bind(self.py).clone();
            for name in FORBIDDEN {
                if self.builtin_is(&f, name) {
                    return Err(self.error(format!("calling the built-in {name}() is not RPython")));
                }
            }
            if kwnames.is_empty() {
                if let Some(v) = self.map_or_filter(&f, &values)? {
                    return Ok(v);
                }
                for &(name, op, arity) in BUILTIN_OPS {
                    if values.len() == arity && self.builtin_is(&f, name) {
                        return self.do_op(op, values);
                    }
                }
                if self.builtin_is(&f, "format") && values.len() == 1 {
                    let empty = self.const_str("");
                    return self.do_op(OpName::Format, vec![values[0].clone(), empty]);
                }
                if self.builtin_is(&f, "super") && values.is_empty() {
                    return self.zero_arg_super(f);
                }
                if let Some(v) = self.fold_intmask(&obj, &values) {
                    return Ok(v);
                }
            }
            if obj.hasattr("_not_rpython_").unwrap_or(false)
                && obj
                    .getattr("_not_rpython_")
                    .and_then(|v| v.is_truthy())
                    .unwrap_or(false)
            {
                let name = obj
                    .getattr("__qualname__")
                    .map(|n| n.to_string())
                    .unwrap_or_default();
                return Err(self.error(format!("call to '{name}', which is marked @not_rpython")));
            }
        }
        if kwnames.is_empty() {
            let mut all = vec![f];
            all.extend(values);
            return self.do_op(OpName::SimpleCall, all);
        }
        self.call_args(f, npos, kwnames, false, false, values)
    }

    /// A function or class of the standard library that `rpy3.stdlib`
    /// replaces by RPython code (`random`, `heapq`, `bisect`) becomes that
    /// code; any other callee is kept.
    /// `"{0.x} {1[2]}".format(a, b)`: the attributes and items a
    /// constant format string's fields name are read by operations of
    /// their own (`getattr`, `getitem`), and the call formats those values
    /// through a format string with plain numbered fields.  `None` when
    /// the call is not such a call or no field has an accessor.
    fn format_with_accessors(
        &mut self,
        f: &Hlvalue,
        npos: usize,
        kwnames: &[String],
        values: &[Hlvalue],
    ) -> FlowResult<Option<Hlvalue>> {
        let Hlvalue::Constant(c) = f else {
            return Ok(None);
        };
        let fmt: String = {
            let obj = c.value.bind(self.py);
            let is_format = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                == "builtin_function_or_method"
                && obj.getattr("__name__").map(|n| n.to_string()).unwrap_or_default() == "format";
            match obj.getattr("__self__") {
                Ok(recv) if is_format && recv.is_exact_instance_of::<pyo3::types::PyString>() => {
                    recv.extract().map_err(|e| self.pyerr("str.format", e))?
                }
                _ => return Ok(None),
            }
        };
        let Some(fields) = format_fields(&fmt) else {
            return Ok(None);
        };
        if !fields.iter().any(|fl| !fl.accessors.is_empty()) {
            return Ok(None);
        }
        // (each field's argument: positional by number or in order, or a keyword)
        let mut auto = 0usize;
        let mut manual = false;
        let mut args = Vec::with_capacity(fields.len());
        for fl in &fields {
            let arg = if fl.arg.is_empty() {
                if manual {
                    return Err(self.error(format!(
                        "the format string {fmt:?}: cannot switch from manual field \
                         specification to automatic field numbering"
                    )));
                }
                auto += 1;
                (auto - 1 < npos).then(|| values[auto - 1].clone())
            } else if let Ok(i) = fl.arg.parse::<usize>() {
                if auto > 0 {
                    return Err(self.error(format!(
                        "the format string {fmt:?}: cannot switch from automatic field \
                         numbering to manual field specification"
                    )));
                }
                manual = true;
                (i < npos).then(|| values[i].clone())
            } else {
                kwnames
                    .iter()
                    .position(|k| *k == fl.arg)
                    .map(|k| values[npos + k].clone())
            };
            let Some(mut v) = arg else {
                return Err(self.error(format!(
                    "the format string {fmt:?}: no argument for the field '{}'",
                    fl.arg
                )));
            };
            for acc in &fl.accessors {
                v = match acc {
                    Accessor::Attr(name) => {
                        let n = self.const_str(name);
                        self.do_op(OpName::Getattr, vec![v, n])?
                    }
                    Accessor::Item(key) => {
                        let k = match key.parse::<i64>() {
                            Ok(i) if key.bytes().all(|b| b.is_ascii_digit()) => self.const_int(i),
                            _ => self.const_str(key),
                        };
                        self.do_op(OpName::Getitem, vec![v, k])?
                    }
                };
            }
            args.push(v);
        }
        // the format with field k standing for args[k]
        let mut plain = String::new();
        let mut k = 0usize;
        for piece in format_pieces(&fmt) {
            match piece {
                FormatPiece::Text(t) => plain.push_str(&t),
                FormatPiece::FieldStart => {
                    plain.push_str(&format!("{{{k}"));
                    k += 1;
                }
            }
        }
        let method = pyo3::types::PyString::new(self.py, &plain)
            .getattr("format")
            .map_err(|e| self.pyerr("str.format", e))?;
        let mut all = vec![self.constant(&method)];
        all.extend(args);
        self.do_op(OpName::SimpleCall, all).map(Some)
    }

    fn stdlib_replacement(&mut self, f: Hlvalue) -> FlowResult<Hlvalue> {
        let Hlvalue::Constant(c) = &f else {
            return Ok(f);
        };
        let obj = c.value.bind(self.py);
        let module = crate::opcodes::optional_module(self.py, "rpy3.stdlib")
            .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
        let Some(module) = module else {
            return Ok(f);
        };
        let found = module
            .getattr("call_replacement")
            .and_then(|r| r.call1((obj,)))
            .map_err(|e| self.pyerr("rpy3.stdlib", e))?;
        Ok(if found.is_none() {
            f
        } else {
            self.constant(&found)
        })
    }

    /// A class that only renames list, dict or set (`rpy3._renamed`):
    /// calling it is calling that type.
    fn renamed_builtin(&mut self, f: Hlvalue) -> FlowResult<Hlvalue> {
        let Hlvalue::Constant(c) = &f else {
            return Ok(f);
        };
        let module = crate::opcodes::optional_module(self.py, "rpy3._renamed")
            .map_err(|e| self.pyerr("rpy3._renamed", e))?;
        let Some(module) = module else {
            return Ok(f);
        };
        let base = module
            .getattr("renamed_builtin")
            .and_then(|r| r.call1((c.value.bind(self.py),)))
            .map_err(|e| self.pyerr("rpy3._renamed", e))?;
        Ok(if base.is_none() {
            f
        } else {
            self.constant(&base)
        })
    }

    /// `collections.defaultdict(factory)` and `collections.deque(xs)`: calls
    /// of `rpy3.rlib.rcollections` (a defaultdict carries the function
    /// filling its missing keys, made for its constant factory).
    fn collections_call(
        &mut self,
        f: &Hlvalue,
        npos: usize,
        kwnames: &[String],
        values: &[Hlvalue],
    ) -> FlowResult<Option<Hlvalue>> {
        let Hlvalue::Constant(c) = f else {
            return Ok(None);
        };
        let py = self.py;
        let obj = c.value.bind(py);
        let Ok(collections) = py.import("collections") else {
            return Ok(None);
        };
        let is = |name: &str| collections.getattr(name).is_ok_and(|o| o.is(obj));
        let (is_dd, is_deque, is_counter, is_od) = (
            is("defaultdict"),
            is("deque"),
            is("Counter"),
            is("OrderedDict"),
        );
        if !is_dd && !is_deque && !is_counter && !is_od {
            return Ok(None);
        }
        let module = crate::opcodes::optional_module(py, "rpy3.rlib.rcollections")
            .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?
            .ok_or_else(|| self.error("collections needs the rpy3 package"))?;
        if is_deque && (kwnames == ["maxlen"] || (kwnames.is_empty() && values.len() == 2)) {
            // deque(iterable, maxlen): the bound a constant (None: none)
            let bound = values.last().cloned().expect("a maxlen");
            let bound = match &bound {
                Hlvalue::Constant(c) if c.value.bind(py).is_none() => None,
                Hlvalue::Constant(c) if c.value.bind(py).extract::<i64>().is_ok_and(|n| n >= 0) => {
                    Some(bound.clone())
                }
                _ => {
                    return Err(self.error(
                        "deque() with a maxlen that is not a constant non-negative int",
                    ))
                }
            };
            let items = if values.len() == 2 {
                values[0].clone()
            } else {
                let empty = pyo3::types::PyTuple::empty(py);
                self.constant(empty.as_any())
            };
            let Some(bound) = bound else {
                let func = module
                    .getattr("deque")
                    .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
                let call = vec![self.constant(&func), items];
                return self.do_op(OpName::SimpleCall, call).map(Some);
            };
            let func = module
                .getattr("deque_bounded")
                .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
            let call = vec![self.constant(&func), items, bound];
            return self.do_op(OpName::SimpleCall, call).map(Some);
        }
        if !kwnames.is_empty() || npos != values.len() {
            let what = if is_dd {
                "defaultdict() with keyword arguments"
            } else if is_counter {
                "Counter() with keyword arguments"
            } else if is_od {
                "OrderedDict() with keyword arguments"
            } else {
                "deque() with keyword arguments (maxlen)"
            };
            return Err(self.error(format!("{what} is not supported")));
        }
        if is_od {
            // OrderedDict(items): a new one, then its items
            if !kwnames.is_empty() || values.len() > 1 {
                return Err(self.error(
                    "OrderedDict() with keyword arguments or several arguments is not supported",
                ));
            }
            let func = module
                .getattr("ordered_dict")
                .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
            let d = self.do_op(OpName::SimpleCall, vec![self.constant(&func)])?;
            if let Some(items) = values.first() {
                let update = module
                    .getattr("update_from")
                    .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
                let call = vec![self.constant(&update), d.clone(), items.clone()];
                self.do_op(OpName::SimpleCall, call)?;
            }
            return Ok(Some(d));
        }
        if is_counter {
            // Counter(items): a new Counter, then its update by the items
            if !kwnames.is_empty() || values.len() > 1 {
                return Err(self.error(
                    "Counter() with keyword arguments or several arguments is not supported",
                ));
            }
            let func = module
                .getattr("counter")
                .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
            let c = self.do_op(OpName::SimpleCall, vec![self.constant(&func)])?;
            if let Some(items) = values.first() {
                let update = module
                    .getattr("counter_update")
                    .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
                let call = vec![self.constant(&update), c.clone(), items.clone()];
                self.do_op(OpName::SimpleCall, call)?;
            }
            return Ok(Some(c));
        }
        if is_deque {
            if values.len() > 1 {
                return Err(self.error("deque() with maxlen is not supported"));
            }
            let func = module
                .getattr("deque")
                .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
            let mut all = vec![self.constant(&func)];
            all.extend(values.iter().cloned());
            return self.do_op(OpName::SimpleCall, all).map(Some);
        }
        // defaultdict(factory=None, items=...): the factory a constant
        // (None: missing keys raise KeyError, as in a dict)
        let factory = match values.first() {
            None => py.None().into_bound(py),
            Some(Hlvalue::Constant(c)) => c.value.bind(py).clone(),
            Some(_) => {
                return Err(self.error(
                    "defaultdict() with a factory that is not a constant (a function, \
                     a class or a built-in type)",
                ))
            }
        };
        if values.len() > 2 {
            return Err(self.error(format!(
                "defaultdict() takes at most 2 arguments ({} given)",
                values.len()
            )));
        }
        let missing = module
            .getattr("missing_for")
            .and_then(|m| m.call1((factory,)))
            .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
        let func = module
            .getattr("defaultdict")
            .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
        let all = vec![self.constant(&func), self.constant(&missing)];
        let d = self.do_op(OpName::SimpleCall, all)?;
        if let Some(items) = values.get(1) {
            // its initial items: a mapping or pairs, as dict.update takes
            let update = module
                .getattr("update_from")
                .map_err(|e| self.pyerr("rpy3.rlib.rcollections", e))?;
            let call = vec![self.constant(&update), d.clone(), items.clone()];
            self.do_op(OpName::SimpleCall, call)?;
        }
        Ok(Some(d))
    }

    /// A call of a function of `itertools`: the generator function of
    /// `rpy3.stdlib.itertools` made for the call's constant shape (how
    /// many iterables, a constant `r` or `repeat`).
    fn itertools_call(
        &mut self,
        f: &Hlvalue,
        npos: usize,
        kwnames: &[String],
        values: &[Hlvalue],
    ) -> FlowResult<Option<Hlvalue>> {
        let Hlvalue::Constant(c) = f else {
            return Ok(None);
        };
        let py = self.py;
        let obj = c.value.bind(py);
        let from_itertools = obj
            .getattr("__module__")
            .is_ok_and(|m| m.to_string() == "itertools");
        if !from_itertools || npos + kwnames.len() != values.len() {
            return Ok(None);
        }
        let module = crate::opcodes::optional_module(py, "rpy3.stdlib.itertools")
            .map_err(|e| self.pyerr("rpy3.stdlib.itertools", e))?;
        let Some(module) = module else {
            return Ok(None);
        };
        let not_constant = module
            .getattr("NOT_CONSTANT")
            .map_err(|e| self.pyerr("rpy3.stdlib.itertools", e))?;
        let consts: Vec<Bound<'_, PyAny>> = values
            .iter()
            .map(|v| match v {
                Hlvalue::Constant(c) => c.value.bind(py).clone(),
                Hlvalue::Variable(_) => not_constant.clone(),
            })
            .collect();
        let found = module.getattr("call_for").and_then(|cf| {
            cf.call1((
                obj,
                pyo3::types::PyList::new(py, consts)?,
                pyo3::types::PyTuple::new(py, kwnames)?,
            ))
        });
        let found = match found {
            Ok(r) => r,
            Err(e) => {
                let unsupported = module
                    .getattr("Unsupported")
                    .is_ok_and(|u| e.get_type(py).is(&u));
                if unsupported {
                    return Err(self.error(e.value(py).to_string()));
                }
                return Err(self.pyerr("rpy3.stdlib.itertools", e));
            }
        };
        if found.is_none() {
            return Ok(None);
        }
        let (func, keep): (Bound<'_, PyAny>, Vec<i64>) = found
            .extract()
            .map_err(|e: PyErr| self.pyerr("rpy3.stdlib.itertools", e))?;
        let mut all = vec![self.constant(&func)];
        for i in keep {
            // (-1: None, the default of an argument the call leaves out)
            let v = if i < 0 {
                self.const_none()
            } else {
                values
                    .get(i as usize)
                    .cloned()
                    .ok_or_else(|| self.error("internal error: itertools argument"))?
            };
            all.push(v);
        }
        self.do_op(OpName::SimpleCall, all).map(Some)
    }

    /// `intmask(c)` of a constant: CPython's compiler folds constant
    /// arithmetic (`intmask(10 * 2**62)` loads one constant outside the
    /// machine word), so the call is folded here and the constant never
    /// reaches the annotator.
    fn fold_intmask(&self, f: &Bound<'_, PyAny>, values: &[Hlvalue]) -> Option<Hlvalue> {
        let [Hlvalue::Constant(arg)] = values else {
            return None;
        };
        let arg = arg.value.bind(self.py);
        if !arg.is_exact_instance_of::<pyo3::types::PyInt>() {
            return None;
        }
        let intmask = self
            .py
            .import("rpy3.rlib.rarithmetic")
            .and_then(|m| m.getattr("intmask"))
            .ok()?;
        if !f.is(&intmask) {
            return None;
        }
        let v = intmask.call1((arg,)).ok()?;
        Some(self.constant(&v))
    }

    /// `map(f, xs)`, `map(f, xs, ys)`, `filter(f, xs)`, `filter(None, xs)`:
    /// calls of the generator functions of `rpy3.hlbuiltins`.
    fn map_or_filter(&mut self, f: &Hlvalue, values: &[Hlvalue]) -> FlowResult<Option<Hlvalue>> {
        let is_none =
            |h: &Hlvalue| matches!(h, Hlvalue::Constant(c) if c.value.bind(self.py).is_none());
        let (helper, args) = if self.builtin_is(f, "map") && values.len() == 2 {
            ("rpy_map", values.to_vec())
        } else if self.builtin_is(f, "map") && values.len() == 3 {
            ("rpy_map2", values.to_vec())
        } else if self.builtin_is(f, "filter") && values.len() == 2 && is_none(&values[0]) {
            ("rpy_filter_true", values[1..].to_vec())
        } else if self.builtin_is(f, "filter") && values.len() == 2 {
            ("rpy_filter", values.to_vec())
        } else if self.builtin_is(f, "map") {
            return Err(self.error(format!(
                "map() with {} iterables is not supported (one or two)",
                values.len().saturating_sub(1)
            )));
        } else if self.builtin_is(f, "filter") {
            return Err(self.error(format!(
                "filter() takes 2 arguments ({} given)",
                values.len()
            )));
        } else {
            return Ok(None);
        };
        let module = self
            .py
            .import("rpy3.hlbuiltins")
            .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
        let func = module
            .getattr(helper)
            .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
        let mut all = vec![self.constant(&func)];
        let mut args = args;
        if let Some(Hlvalue::Constant(c)) = args.first() {
            // a built-in applied (map(str, xs)): a function calling it
            let obj = c.value.bind(self.py);
            let is_builtin = obj
                .getattr("__module__")
                .and_then(|m| m.extract::<String>())
                .map(|m| m == "builtins")
                .unwrap_or(false)
                && !obj.is_none()
                && helper != "rpy_filter_true";
            if is_builtin {
                let w = module
                    .getattr("key_wrapper")
                    .and_then(|k| k.call1((obj,)))
                    .map_err(|e| self.pyerr("rpy3.hlbuiltins", e))?;
                args[0] = self.constant(&w);
            }
        }
        all.extend(args);
        self.do_op(OpName::SimpleCall, all).map(Some)
    }

    /// Records `call_args(f, shape, values...)`.
    pub(crate) fn call_args(
        &mut self,
        f: Hlvalue,
        npos: usize,
        kwnames: &[String],
        has_star: bool,
        has_starstar: bool,
        values: Vec<Hlvalue>,
    ) -> FlowResult<Hlvalue> {
        let names = PyTuple::new(self.py, kwnames).map_err(|e| self.pyerr("call shape", e))?;
        let shape = PyTuple::new(
            self.py,
            [
                pyo3::types::PyInt::new(self.py, npos as i64).into_any(),
                names.into_any(),
                pyo3::types::PyBool::new(self.py, has_star)
                    .to_owned()
                    .into_any(),
                pyo3::types::PyBool::new(self.py, has_starstar)
                    .to_owned()
                    .into_any(),
            ],
        )
        .map_err(|e| self.pyerr("call shape", e))?;
        let mut all = vec![f, self.constant(&shape.into_any())];
        all.extend(values);
        self.do_op(OpName::CallArgs, all)
    }

    /// `super()` inside a method: `super(__class__, <first argument>)`.
    fn zero_arg_super(&mut self, f: Hlvalue) -> FlowResult<Hlvalue> {
        let class_slot = self.code.localsplus.iter().position(|n| n == "__class__");
        let cls = match class_slot.and_then(|i| self.locals.get(i).cloned()) {
            Some(FrameValue::Val(h)) => h,
            _ => return Err(self.error("super() without arguments outside of a method")),
        };
        if self.code.argcount == 0 {
            return Err(self.error("super() without arguments in a function without arguments"));
        }
        let selfv = match self.locals.first().cloned() {
            Some(FrameValue::Val(h)) => h,
            _ => {
                return Err(
                    self.error("super() without arguments after the first argument was deleted")
                )
            }
        };
        self.do_op(OpName::SimpleCall, vec![f, cls, selfv])
    }

    /// `CALL_FUNCTION_EX flags`: `f(*args)` or `f(*args, **kwargs)`.
    pub(crate) fn call_function_ex(&mut self, flags: u32) -> FlowResult<()> {
        let kwargs = if flags & 1 != 0 {
            Some(self.popvalue()?)
        } else {
            None
        };
        let args = self.popvalue()?;
        let callee = self.pop()?;
        if let FrameValue::Null | FrameValue::SortReceiver(_) = self.peek(1)? {
            self.pop()?;
        }
        let f = self.as_value(callee)?;
        if kwargs.is_none() {
            // `chain(*its)`: over the iterables in turn
            if let Hlvalue::Constant(c) = &f {
                if let Some(m) = crate::opcodes::optional_module(self.py, "rpy3.stdlib.itertools")
                    .map_err(|e| self.pyerr("rpy3.stdlib.itertools", e))?
                {
                    let g = m
                        .getattr("star_call_for")
                        .and_then(|g| g.call1((c.value.bind(self.py),)))
                        .map_err(|e| self.pyerr("rpy3.stdlib.itertools", e))?;
                    if !g.is_none() {
                        let g = self.constant(&g);
                        let r = self.do_op(OpName::SimpleCall, vec![g, args])?;
                        self.pushval(r);
                        return Ok(());
                    }
                }
            }
        }
        let mut values = vec![args];
        let has_kw = kwargs.is_some();
        values.extend(kwargs);
        let r = self.call_args(f, 0, &[], true, has_kw, values)?;
        self.pushval(r);
        Ok(())
    }

    /// `f(*args, k=v, ...)`: the keyword dict literal (constant keys, the
    /// values on the stack) becomes keyword arguments of `call_args`.
    pub(crate) fn call_function_ex_kw(&mut self, instr: &crate::bytecode::Instr) -> FlowResult<()> {
        let n = instr.arg as usize;
        let (keys, values): (Vec<String>, Vec<Hlvalue>) =
            if instr.op == crate::bytecode::Op::CallFunctionExKwPairs {
                let pairs = self.popvalues(2 * n)?;
                let mut keys = Vec::with_capacity(n);
                let mut values = Vec::with_capacity(n);
                for kv in pairs.chunks(2) {
                    match &kv[0] {
                        Hlvalue::Constant(c) => match c.value.bind(self.py).extract::<String>() {
                            Ok(k) => keys.push(k),
                            Err(_) => {
                                return Err(self.error("**kwargs with a key that is not a string"))
                            }
                        },
                        _ => return Err(self.error("**kwargs with a key that is not a constant")),
                    }
                    values.push(kv[1].clone());
                }
                (keys, values)
            } else {
                let keys = match &instr.argval {
                    Some(k) => k
                        .bind(self.py)
                        .extract()
                        .map_err(|e| self.pyerr("keyword names", e))?,
                    None => return Err(self.error("keyword dict without constant keys")),
                };
                (keys, self.popvalues(n)?)
            };
        let args = self.popvalue()?;
        let callee = self.pop()?;
        if let FrameValue::Null | FrameValue::SortReceiver(_) = self.peek(1)? {
            self.pop()?;
        }
        let f = self.as_value(callee)?;
        let mut all = vec![];
        all.extend(values);
        all.push(args);
        // positional values come first in call_args: none here; keywords,
        // then the star tuple.
        let r = self.call_args(f, 0, &keys, true, false, all)?;
        self.pushval(r);
        Ok(())
    }

    /// `MAKE_FUNCTION flags`: creates the nested function now when its
    /// defaults are constants; a function capturing variables becomes a
    /// `Closure` value that can only be called.
    pub(crate) fn make_function(&mut self, flags: u32) -> FlowResult<()> {
        let code = self.popvalue()?;
        let cells = if flags & 0x08 != 0 {
            match self.pop()? {
                FrameValue::Cells(c) => Some(c),
                _ => return Err(self.error("closure of a nested function is not a tuple of cells")),
            }
        } else {
            None
        };
        if flags & 0x04 != 0 {
            self.pop()?; // annotations: ignored
        }
        if flags & 0x02 != 0 {
            return Err(self.error("nested functions with keyword-only defaults are not supported"));
        }
        // constant defaults are the function's own; defaults computed at
        // run time are passed by every call instead
        let mut runtime_defaults = Vec::new();
        let defaults = if flags & 0x01 != 0 {
            match self.popvalue()? {
                Hlvalue::Constant(c) => Some(c.value),
                v => {
                    runtime_defaults = self.tuple_items(&v).ok_or_else(|| {
                        self.error("the default arguments of a nested function are no tuple")
                    })?;
                    None
                }
            }
        } else {
            None
        };
        let Hlvalue::Constant(code) = code else {
            return Err(self.error("MAKE_FUNCTION of a non-constant code object"));
        };
        let key = (
            code.value.addr(),
            defaults.as_ref().map(|d| d.addr()).unwrap_or(0),
        );
        let cached = nested_functions()
            .lock()
            .map(|m| m.get(&key).cloned())
            .unwrap_or(None);
        let func = match cached {
            Some(f) => f,
            None => {
                let f = self.create_function(
                    &code.value,
                    defaults.as_ref(),
                    cells.as_ref().map(|c| c.len()),
                )?;
                if let Ok(mut m) = nested_functions().lock() {
                    m.insert(key, f.clone());
                }
                f
            }
        };
        match cells {
            None if runtime_defaults.is_empty() => {
                let c = self.constant(func.bind(self.py));
                self.pushval(c);
            }
            slots => self.push(FrameValue::Closure {
                func,
                slots: slots.unwrap_or_default(),
                defaults: runtime_defaults,
            }),
        }
        Ok(())
    }

    /// The items of the tuple `v` built by a `newtuple` operation of this
    /// graph (`BUILD_TUPLE` of the defaults, just before).
    fn tuple_items(&self, v: &Hlvalue) -> Option<Vec<Hlvalue>> {
        let Hlvalue::Variable(var) = v else {
            return None;
        };
        for (_, block) in self.graph.blocks.iter() {
            for op in &block.operations {
                if op.result == *var {
                    return (op.opname == OpName::Newtuple).then(|| op.args.clone());
                }
            }
        }
        None
    }

    fn create_function(
        &self,
        code: &PyObj,
        defaults: Option<&PyObj>,
        ncells: Option<usize>,
    ) -> FlowResult<PyObj> {
        let py = self.py;
        let build = || -> PyResult<PyObj> {
            let types = py.import("types")?;
            let code = code.bind(py);
            let name = code.getattr("co_name")?;
            let closure = match ncells {
                Some(n) => {
                    let cell_type = types.getattr("CellType")?;
                    let cells: Vec<Bound<'_, PyAny>> =
                        (0..n).map(|_| cell_type.call0()).collect::<PyResult<_>>()?;
                    PyTuple::new(py, cells)?.into_any()
                }
                None => py.None().into_bound(py),
            };
            let defaults = match defaults {
                Some(d) => d.bind(py).clone(),
                None => py.None().into_bound(py),
            };
            let kwargs = PyDict::new(py);
            kwargs.set_item("closure", closure)?;
            let f = types
                .getattr("FunctionType")?
                .call((code, self.globals.clone(), name, defaults), Some(&kwargs))?;
            f.setattr("__qualname__", code.getattr("co_qualname")?)?;
            if ncells.is_some() {
                f.setattr(CLOSURE_MARK, true)?;
            }
            Ok(PyObj::new(&f))
        };
        build().map_err(|e| self.pyerr("creating a nested function", e))
    }
}

/// An attribute or item a `str.format` field reads from its argument.
enum Accessor {
    Attr(String),
    Item(String),
}

/// A replacement field of a format string: its argument (empty for the
/// next automatic one, digits, or a keyword) and what it reads from it.
struct FormatField {
    arg: String,
    accessors: Vec<Accessor>,
}

/// A format string cut where fields start: the text around them keeps
/// each field's conversion and spec, the field name taken out.
enum FormatPiece {
    Text(String),
    FieldStart,
}

/// Splits a format string into text and field starts (the field name
/// removed), in the order CPython reads the fields, nested spec fields
/// included.  The field names are [`format_fields`]'s.
fn format_pieces(fmt: &str) -> Vec<FormatPiece> {
    let mut out = Vec::new();
    scan_format(fmt, &mut |p| out.push(p), &mut |_| {});
    out
}

/// The fields of a format string in the order CPython reads them (a
/// field's nested spec fields after it), or `None` when it is malformed.
fn format_fields(fmt: &str) -> Option<Vec<FormatField>> {
    let mut fields = Vec::new();
    let mut ok = true;
    scan_format(fmt, &mut |_| {}, &mut |f| match f {
        Some(f) => fields.push(f),
        None => ok = false,
    });
    ok.then_some(fields)
}

fn scan_format(
    fmt: &str,
    piece: &mut dyn FnMut(FormatPiece),
    field: &mut dyn FnMut(Option<FormatField>),
) {
    let chars: Vec<char> = fmt.chars().collect();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '{' || c == '}') && chars.get(i + 1) == Some(&c) {
            text.push(c);
            text.push(c);
            i += 2;
            continue;
        }
        if c != '{' {
            text.push(c);
            i += 1;
            continue;
        }
        piece(FormatPiece::Text(std::mem::take(&mut text)));
        piece(FormatPiece::FieldStart);
        // the field name: up to '!' or ':' outside brackets, or the end
        i += 1;
        let mut name = String::new();
        let mut in_bracket = false;
        while i < chars.len() {
            let x = chars[i];
            if !in_bracket && matches!(x, '!' | ':' | '}') {
                break;
            }
            if x == '[' {
                in_bracket = true;
            } else if x == ']' {
                in_bracket = false;
            }
            name.push(x);
            i += 1;
        }
        field(parse_field_name(&name));
        // the conversion and spec, whose nested fields come next
        let mut depth = 1;
        while i < chars.len() {
            let x = chars[i];
            if x == '{' {
                depth += 1;
                if depth == 2 {
                    piece(FormatPiece::Text(std::mem::take(&mut text)));
                    piece(FormatPiece::FieldStart);
                    let mut inner = String::new();
                    i += 1;
                    while i < chars.len() && chars[i] != '}' {
                        inner.push(chars[i]);
                        i += 1;
                    }
                    field(parse_field_name(&inner));
                    depth -= 1;
                    text.push('}');
                    i += 1;
                    continue;
                }
            } else if x == '}' {
                depth -= 1;
                if depth == 0 {
                    text.push('}');
                    i += 1;
                    break;
                }
            }
            text.push(x);
            i += 1;
        }
    }
    piece(FormatPiece::Text(text));
}

/// `arg(.attr|[key])*`, or `None` when malformed.
fn parse_field_name(name: &str) -> Option<FormatField> {
    let end = name.find(['.', '[']).unwrap_or(name.len());
    let arg = name[..end].to_string();
    let mut accessors = Vec::new();
    let mut rest = &name[end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let e = r.find(['.', '[']).unwrap_or(r.len());
            if e == 0 {
                return None;
            }
            accessors.push(Accessor::Attr(r[..e].to_string()));
            rest = &r[e..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let e = r.find(']')?;
            if e == 0 {
                return None;
            }
            accessors.push(Accessor::Item(r[..e].to_string()));
            rest = &r[e + 1..];
        } else {
            return None;
        }
    }
    Some(FormatField { arg, accessors })
}
