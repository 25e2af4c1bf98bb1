//! Built-in functions, methods of built-in types, and the `rpy3.rlib`
//! primitives (PyPy's `builtin.py` and the method parts of `unaryop.py`).

use pyo3::prelude::*;

use crate::description::CallArgs;
use crate::error::AnnotatorError;
use crate::itemdef::ItemKind;
use crate::model::{describe, IntKind, IterVariant, SomeValue, StrKind};
use crate::Annotator;

/// `(module, attribute, name)` of every built-in the annotator knows.
const BUILTINS: &[(&str, &str, &str)] = &[
    ("builtins", "len", "len"),
    ("builtins", "range", "range"),
    ("builtins", "min", "min"),
    ("builtins", "max", "max"),
    ("builtins", "abs", "abs"),
    ("builtins", "isinstance", "isinstance"),
    ("builtins", "callable", "callable"),
    ("builtins", "hasattr", "hasattr"),
    ("builtins", "int", "int"),
    ("builtins", "float", "float"),
    ("builtins", "str", "str"),
    ("builtins", "bytes", "bytes"),
    ("builtins", "bytearray", "bytearray"),
    ("builtins", "bool", "bool"),
    ("builtins", "chr", "chr"),
    ("builtins", "ord", "ord"),
    ("builtins", "hash", "hash"),
    ("builtins", "id", "id"),
    ("builtins", "enumerate", "enumerate"),
    ("builtins", "zip", "zip"),
    ("builtins", "reversed", "reversed"),
    ("builtins", "sorted", "sorted"),
    ("builtins", "sum", "sum"),
    ("builtins", "any", "any"),
    ("builtins", "all", "all"),
    ("builtins", "print", "print"),
    ("builtins", "iter", "iter"),
    ("builtins", "next", "next"),
    ("builtins", "list", "list"),
    ("builtins", "dict", "dict"),
    ("builtins", "set", "set"),
    ("builtins", "frozenset", "frozenset"),
    ("builtins", "tuple", "tuple"),
    ("builtins", "divmod", "divmod"),
    ("builtins", "round", "round"),
    ("builtins", "pow", "pow"),
    ("builtins", "repr", "repr"),
    ("builtins", "hex", "hex"),
    ("builtins", "oct", "oct"),
    ("builtins", "bin", "bin"),
    ("builtins", "super", "super"),
    ("builtins", "object", "object"),
    ("posix", "write", "os.write"),
    ("posix", "read", "os.read"),
    ("posix", "open", "os.open"),
    ("posix", "close", "os.close"),
    ("os", "getenv", "os.getenv"),
    ("time", "time", "time.time"),
    ("time", "perf_counter", "time.perf_counter"),
    ("time", "monotonic", "time.monotonic"),
    ("time", "process_time", "time.process_time"),
    ("time", "sleep", "time.sleep"),
    ("sys", "exit", "sys.exit"),
    ("sys", "setrecursionlimit", "sys.setrecursionlimit"),
    ("math", "sqrt", "math.sqrt"),
    ("math", "floor", "math.floor"),
    ("math", "ceil", "math.ceil"),
    ("math", "fabs", "math.fabs"),
    ("math", "exp", "math.exp"),
    ("math", "log", "math.log"),
    ("math", "sin", "math.sin"),
    ("math", "cos", "math.cos"),
    ("math", "tan", "math.tan"),
    ("math", "atan", "math.atan"),
    ("math", "atan2", "math.atan2"),
    ("math", "pow", "math.pow"),
    ("math", "fmod", "math.fmod"),
    ("math", "isnan", "math.isnan"),
    ("math", "isinf", "math.isinf"),
    ("math", "hypot", "math.hypot"),
    ("math", "copysign", "math.copysign"),
    ("math", "log10", "math.log10"),
    ("math", "log2", "math.log2"),
    ("math", "log1p", "math.log1p"),
    ("math", "expm1", "math.expm1"),
    ("math", "asin", "math.asin"),
    ("math", "acos", "math.acos"),
    ("math", "sinh", "math.sinh"),
    ("math", "cosh", "math.cosh"),
    ("math", "tanh", "math.tanh"),
    ("math", "asinh", "math.asinh"),
    ("math", "acosh", "math.acosh"),
    ("math", "atanh", "math.atanh"),
    ("math", "degrees", "math.degrees"),
    ("math", "radians", "math.radians"),
    ("math", "isfinite", "math.isfinite"),
    ("math", "trunc", "math.trunc"),
    ("math", "frexp", "math.frexp"),
    ("math", "ldexp", "math.ldexp"),
    ("math", "modf", "math.modf"),
    ("math", "erf", "math.erf"),
    ("math", "erfc", "math.erfc"),
    ("math", "gamma", "math.gamma"),
    ("math", "lgamma", "math.lgamma"),
    ("math", "gcd", "math.gcd"),
    ("math", "lcm", "math.lcm"),
    ("math", "factorial", "math.factorial"),
    ("math", "comb", "math.comb"),
    ("math", "perm", "math.perm"),
    ("math", "isclose", "math.isclose"),
    ("math", "fsum", "math.fsum"),
    ("math", "isqrt", "math.isqrt"),
    ("rpy3.rlib.rarithmetic", "intmask", "intmask"),
    ("rpy3.rlib.rarithmetic", "ovfcheck", "ovfcheck"),
    ("rpy3.rlib.rarithmetic", "widen", "widen"),
    ("rpy3.rlib.rarithmetic", "r_uint", "r_uint"),
    ("rpy3.rlib.rarithmetic", "r_ulonglong", "r_ulonglong"),
    ("rpy3.rlib.rarithmetic", "r_longlong", "r_longlong"),
    ("rpy3.rlib.rarithmetic", "r_int", "r_int"),
    (
        "rpy3.rlib.objectmodel",
        "we_are_translated",
        "we_are_translated",
    ),
    ("rpy3.rlib.objectmodel", "compute_hash", "compute_hash"),
    ("rpy3.rlib.objectmodel", "instantiate", "instantiate"),
    ("rpy3.rlib.objectmodel", "copy_instance", "copy_instance"),
    ("rpy3.rlib.objectmodel", "deepcopy_fields", "deepcopy_fields"),
    ("rpy3.rlib.objectmodel", "deepcopy_items", "deepcopy_items"),
    ("rpy3.rlib.objectmodel", "is_fixed_tuple", "is_fixed_tuple"),
    ("rpy3.rlib.objectmodel", "is_atomic", "is_atomic"),
    ("rpy3.rlib.objectmodel", "r_dict", "r_dict"),
    ("rpy3.rlib.rcollections", "defaultdict", "defaultdict"),
    ("rpy3.rlib.rcollections", "deque", "deque"),
    ("rpy3.rlib.rcollections", "deque_bounded", "deque_bounded"),
    ("rpy3.rlib.rcollections", "counter", "counter"),
    ("rpy3.rlib.rcollections", "ordered_dict", "ordered_dict"),
    ("rpy3.rlib.rstring", "StringBuilder", "StringBuilder"),
    ("rpy3.rlib.rstring", "BytesBuilder", "BytesBuilder"),
    ("rpy3.lltype", "malloc", "ll.malloc"),
    ("rpy3.lltype", "nullptr", "ll.nullptr"),
    ("rpy3.lltype", "typeOf", "ll.typeOf"),
    ("rpy3.lltype", "str_to_float", "ll.str_to_float"),
    ("rpy3.lltype", "cast_pointer", "ll.cast_pointer"),
    ("rpy3.lltype", "unichar_upper", "ll.unichar_upper"),
    ("rpy3.lltype", "unichar_lower", "ll.unichar_lower"),
    ("rpy3.lltype", "unichar_title", "ll.unichar_title"),
    ("rpy3.lltype", "unichar_casefold", "ll.unichar_casefold"),
    ("rpy3.lltype", "unichar_props", "ll.unichar_props"),
    ("rpy3.lltype", "float_format_char", "ll.float_format_char"),
];

/// The name of a built-in the annotator knows, if `obj` is one.
pub fn builtin_name(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<&'static str> {
    use std::collections::{HashMap, HashSet};
    use std::sync::{Mutex, OnceLock};
    /// The objects of the modules seen so far, by address (each module's
    /// entries are added once it has been imported; the objects stay
    /// alive with their modules).
    struct Known {
        by_addr: HashMap<usize, (&'static str, rpy3_model::PyObj)>,
        scanned: HashSet<&'static str>,
        modules: usize,
        /// `len(sys.modules)` at the last scan: rescan only after imports.
        seen_len: usize,
    }
    static KNOWN: OnceLock<Mutex<Known>> = OnceLock::new();
    let known = KNOWN.get_or_init(|| {
        let modules = BUILTINS.iter().map(|b| b.0).collect::<HashSet<_>>().len();
        Mutex::new(Known {
            by_addr: HashMap::new(),
            scanned: HashSet::new(),
            modules,
            seen_len: 0,
        })
    });
    let mut known = known.lock().unwrap_or_else(|p| p.into_inner());
    // Only modules already imported: a program's constants never include
    // a function of a module nobody imported.
    let modules = py.import("sys").ok()?.getattr("modules").ok()?;
    let now = modules.len().unwrap_or(0);
    if known.scanned.len() < known.modules && now != known.seen_len {
        // a module another thread is still importing is in sys.modules
        // without all its attributes: it is scanned again at the next call
        let mut incomplete = HashSet::new();
        for &(module, attr, name) in BUILTINS {
            if known.scanned.contains(module) {
                continue;
            }
            let Ok(m) = modules.get_item(module) else {
                continue;
            };
            match m.getattr(attr) {
                Ok(v) => {
                    known
                        .by_addr
                        .insert(v.as_ptr() as usize, (name, rpy3_model::PyObj::new(&v)));
                }
                Err(_) => {
                    incomplete.insert(module);
                }
            }
        }
        for &(module, _, _) in BUILTINS {
            if modules.get_item(module).is_ok() && !incomplete.contains(module) {
                known.scanned.insert(module);
            }
        }
        if incomplete.is_empty() {
            known.seen_len = now;
        }
    }
    if let Some((name, _)) = known.by_addr.get(&(obj.as_ptr() as usize)) {
        return Some(*name);
    }
    drop(known);
    classmethod_builtin_name(py, obj)
}

/// `dict.fromkeys`: a class method of a built-in type (a new bound method
/// object at each access, so it is recognised by its receiver and name).
fn classmethod_builtin_name(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<&'static str> {
    let tyname = obj.get_type().name().ok()?.to_string();
    if tyname != "builtin_function_or_method" {
        return None;
    }
    let recv = obj.getattr("__self__").ok()?;
    let name: String = obj.getattr("__name__").ok()?.extract().ok()?;
    let dict_type = py.import("builtins").ok()?.getattr("dict").ok()?;
    if name == "fromkeys" && dict_type.is(&recv) {
        return Some("dict.fromkeys");
    }
    let bytes_type = py.import("builtins").ok()?.getattr("bytes").ok()?;
    (name == "fromhex" && bytes_type.is(&recv)).then_some("bytes.fromhex")
}

/// The annotation of a prebuilt object of a built-in kind that is neither
/// a plain value nor a known built-in function: a slice object, or a
/// method of a built-in type bound to a constant (`", ".join`).
pub fn immutable_builtin_value(
    ann: &mut Annotator,
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
) -> Result<Option<SomeValue>, AnnotatorError> {
    if let Ok(sl) = obj.cast::<pyo3::types::PySlice>() {
        let mut parts = Vec::with_capacity(3);
        for a in ["start", "stop", "step"] {
            let x = sl.getattr(a).map_err(|e| ann.error(format!("{e}")))?;
            let s = ann.immutablevalue(py, &x)?;
            if !matches!(
                s,
                SomeValue::None_ | SomeValue::Integer { .. } | SomeValue::Bool { .. }
            ) {
                return Err(ann.error(format!(
                    "slice bound must be an int or None, got {}",
                    describe(&s)
                )));
            }
            parts.push(s);
        }
        return Ok(Some(SomeValue::Slice(parts)));
    }
    let tyname = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    if let Some(w) = unbound_method_wrapper(py, obj) {
        // str.lower as a value: a function calling the method
        return ann.immutablevalue(py, &w).map(Some);
    }
    if tyname == "builtin_function_or_method" {
        if let Ok(recv) = obj.getattr("__self__") {
            if let Some(world) = super::external::world_object(py, &recv) {
                let name: String = obj
                    .getattr("__name__")
                    .and_then(|n| n.extract())
                    .map_err(|e| ann.error(format!("{e}")))?;
                let s_self = SomeValue::Builtin {
                    name: world,
                    s_self: None,
                };
                return method(ann, py, &s_self, &name).map(Some);
            }
            if recv.is_instance_of::<pyo3::types::PyString>()
                || recv.is_instance_of::<pyo3::types::PyBytes>()
                || (recv.is_instance_of::<pyo3::types::PyInt>()
                    && !recv.is_instance_of::<pyo3::types::PyBool>())
                || recv.is_instance_of::<pyo3::types::PyFloat>()
            {
                let name: String = obj
                    .getattr("__name__")
                    .and_then(|n| n.extract())
                    .map_err(|e| ann.error(format!("{e}")))?;
                let s_self = ann.immutablevalue(py, &recv)?;
                return method(ann, py, &s_self, &name).map(Some);
            }
        }
    }
    Ok(None)
}

/// A slot of a built-in's positional arguments filled from its keywords.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeywordSlot {
    /// The keyword argument at this index.
    Keyword(usize),
    /// The parameter's default (a Python literal), before a later keyword.
    Default(&'static str),
}

/// The parameters after the first `skip` of the built-ins (and methods of
/// strings) that accept them by keyword, with the defaults (Python
/// literals) of the optional ones.
fn keyword_params(
    name: &str,
    method_of_str: bool,
) -> Option<&'static [(&'static str, &'static str)]> {
    Some(match (name, method_of_str) {
        ("enumerate", false) => &[("iterable", ""), ("start", "0")],
        ("int", false) => &[("x", ""), ("base", "10")],
        ("round", false) => &[("number", ""), ("ndigits", "None")],
        ("sum", false) => &[("iterable", ""), ("start", "0")],
        ("popitem", false) => &[("last", "True")],
        ("move_to_end", false) => &[("key", ""), ("last", "True")],
        ("split" | "rsplit", true) => &[("sep", "None"), ("maxsplit", "-1")],
        ("splitlines", true) => &[("keepends", "False")],
        ("expandtabs", true) => &[("tabsize", "8")],
        ("encode" | "decode", true) => &[("encoding", "'utf-8'"), ("errors", "'strict'")],
        _ => return None,
    })
}

/// How the keyword arguments `keywords` of a call of built-in `name` with
/// `npos` positional arguments become positional ones: `None` when the
/// built-in takes no keywords this way; an error message for an unknown or
/// repeated keyword.
pub fn keyword_slots(
    name: &str,
    method_of_str: bool,
    npos: usize,
    keywords: &[String],
) -> Option<Result<Vec<KeywordSlot>, String>> {
    if keywords.is_empty() {
        return None;
    }
    let params = keyword_params(name, method_of_str)?;
    let mut used = vec![false; keywords.len()];
    let mut slots = Vec::new();
    for (i, (p, default)) in params.iter().enumerate().skip(npos) {
        let _ = i;
        match keywords.iter().position(|k| k == p) {
            Some(k) => {
                used[k] = true;
                slots.push(KeywordSlot::Keyword(k));
            }
            None if default.is_empty() => {
                return Some(Err(format!("{name}() missing the argument '{p}'")));
            }
            None => slots.push(KeywordSlot::Default(default)),
        }
    }
    if let Some(k) = used.iter().position(|u| !u) {
        return Some(Err(format!(
            "{name}() got an unexpected (or repeated) keyword argument '{}'",
            keywords[k]
        )));
    }
    // the defaults after the last keyword are left out
    while matches!(slots.last(), Some(KeywordSlot::Default(_))) {
        slots.pop();
    }
    Some(Ok(slots))
}

/// A method of a Counter or an OrderedDict: the function `helper` of
/// `rpy3.rlib.rcollections` called with the dict and `a`, recorded as a
/// special call for the rtyper (the bound method, the call's argument 0,
/// carries the dict).
fn dict_method_by_helper(
    ann: &mut Annotator,
    py: Python<'_>,
    helper: &str,
    s_self: &SomeValue,
    a: &[SomeValue],
) -> Result<SomeValue, AnnotatorError> {
    let f = py
        .import("rpy3.rlib.rcollections")
        .and_then(|m| m.getattr(helper))
        .map_err(|e| ann.error(format!("rpy3.rlib.rcollections: {e}")))?;
    let s_method = ann.immutablevalue(py, &f)?;
    let mut pos = vec![s_self.clone()];
    pos.extend(a.iter().cloned());
    let result = super::call(ann, py, &s_method, CallArgs::positional(pos))?;
    if let Some(at) = ann.current_position() {
        let mut args = vec![0];
        args.extend(ann.current_call_value_indices(a.len()));
        ann.special_calls.insert(
            at,
            super::special::SpecialCall {
                method: helper.into(),
                s_method,
                receiver: 0,
                args,
                negate: false,
            },
        );
    }
    Ok(result)
}

/// `args` with the keywords a built-in accepts moved into place.
fn with_keywords_positional(
    ann: &mut Annotator,
    py: Python<'_>,
    name: &str,
    method_of_str: bool,
    mut args: CallArgs,
) -> Result<CallArgs, AnnotatorError> {
    let names: Vec<String> = args.keywords.iter().map(|(k, _)| k.clone()).collect();
    let npos = args.flat_positional().map(|p| p.len()).unwrap_or(0);
    let Some(slots) = keyword_slots(name, method_of_str, npos, &names) else {
        return Ok(args);
    };
    let slots = slots.map_err(|e| ann.error(e))?;
    let mut positional = args
        .flat_positional()
        .ok_or_else(|| ann.error(format!("{name}(*args) with a non-tuple")))?;
    for s in slots {
        positional.push(match s {
            KeywordSlot::Keyword(k) => args.keywords[k].1.clone(),
            KeywordSlot::Default(lit) => {
                let v = py
                    .eval(&std::ffi::CString::new(lit).expect("a literal"), None, None)
                    .map_err(|e| ann.error(format!("{e}")))?;
                ann.immutablevalue(py, &v)?
            }
        });
    }
    args.positional = positional;
    args.star = None;
    args.keywords.clear();
    Ok(args)
}

/// The function standing for an unbound method of `str` or `bytes`
/// (`str.lower`), if `obj` is one (`rpy3.hlbuiltins.method_wrapper`).
pub fn unbound_method_wrapper<'py>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
) -> Option<Bound<'py, PyAny>> {
    let tyname = obj.get_type().name().ok()?.to_string();
    if tyname != "method_descriptor" {
        return None;
    }
    let owner = obj.getattr("__objclass__").ok()?;
    let builtins = py.import("builtins").ok()?;
    let of_str = ["str", "bytes"]
        .iter()
        .any(|t| builtins.getattr(*t).map(|t| t.is(&owner)).unwrap_or(false));
    if !of_str {
        return None;
    }
    py.import("rpy3.hlbuiltins")
        .and_then(|m| m.getattr("method_wrapper"))
        .and_then(|f| f.call1((obj,)))
        .ok()
}

fn int_kind(s: &SomeValue) -> Option<IntKind> {
    match s {
        SomeValue::Integer { kind, .. } => Some(*kind),
        SomeValue::Bool { .. } => Some(IntKind::Signed),
        _ => None,
    }
}

fn arity(
    ann: &Annotator,
    name: &str,
    args: &[SomeValue],
    min: usize,
    max: usize,
) -> Result<(), AnnotatorError> {
    if args.len() < min || args.len() > max {
        return Err(ann.error(format!("{name}() called with {} arguments", args.len())));
    }
    Ok(())
}

/// A call of a built-in (or of a method bound to `s_self`).
pub fn call(
    ann: &mut Annotator,
    py: Python<'_>,
    name: &str,
    s_self: Option<&SomeValue>,
    args: CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    let args = if s_self.is_none() {
        super::special::iterable_arguments(ann, py, name, args)?
    } else {
        args
    };
    if let Some(s_self) = s_self {
        if let SomeValue::Builtin {
            name: receiver,
            s_self: None,
        } = s_self
        {
            if super::external::methods(receiver).is_some() {
                return super::external::call_method(ann, receiver, name, &args);
            }
        }
        let of_str = matches!(s_self, SomeValue::Str { .. });
        let args = with_keywords_positional(ann, py, name, of_str, args)?;
        return call_method(ann, py, name, s_self, args);
    }
    if let Some(result) = super::external::call(ann, name, &args) {
        return result;
    }
    let args = with_keywords_positional(ann, py, name, false, args)?;
    if !args.keywords.is_empty() && !matches!(name, "sorted" | "min" | "max" | "math.isclose") {
        return Err(ann.error(format!(
            "{name}() does not take keyword arguments in RPython"
        )));
    }
    for (k, v) in &args.keywords {
        match (name, k.as_str()) {
            ("sorted", "reverse") => {}
            ("min" | "max", "default") => {}
            ("math.isclose", "rel_tol" | "abs_tol") => {}
            ("sorted" | "min" | "max", "key") => {
                // the key function is called on the items
                let Some(first) = args.positional.first() else {
                    continue;
                };
                let item = if args.positional.len() > 1 && name != "sorted" {
                    // min(a, b, ..., key=f): on each argument
                    let mut u = SomeValue::Impossible;
                    for x in &args.positional {
                        u = ann
                            .union(&u, &x.without_const())
                            .map_err(|e| ann.error(format!("{name}(): {}", e.message)))?;
                    }
                    u
                } else {
                    let it = super::containers::iter(ann, first)?;
                    super::containers::next(ann, &it)?
                };
                if !item.is_impossible() {
                    super::call(ann, py, v, CallArgs::positional(vec![item]))?;
                }
            }
            _ => {
                return Err(ann.error(format!(
                    "{name}() does not take the keyword argument '{k}' in RPython"
                )))
            }
        }
    }
    let Some(a) = args.flat_positional() else {
        return Err(ann.error(format!("{name}(*args) with a non-tuple")));
    };
    let a = a.as_slice();
    let min_args = match name {
        "isinstance" | "divmod" | "pow" | "math.isclose" | "math.ldexp" | "math.comb" => 2,
        "len" | "range" | "abs" | "sum" | "any" | "all" | "iter" | "next" | "round"
        | "enumerate" | "min" | "max" | "chr" | "ord" | "hex" | "oct" | "bin"
        | "math.factorial" | "math.perm" | "math.fsum" | "math.isqrt" | "dict.fromkeys"
        | "bytes.fromhex" => 1,
        _ => 0,
    };
    if a.len() < min_args {
        return Err(ann.error(format!("{name}() called with {} arguments", a.len())));
    }
    use SomeValue as S;
    Ok(match name {
        "len" => {
            arity(ann, name, a, 1, 1)?;
            super::containers::len(ann, py, &a[0])?
        }
        "range" => {
            arity(ann, name, a, 1, 3)?;
            for x in a {
                if int_kind(x).is_none() {
                    return Err(ann.error(format!("range() of {}", describe(x))));
                }
            }
            let nonneg_start =
                a.len() == 1 || matches!(a[0], S::Integer { nonneg: true, .. } | S::Bool { .. });
            let step_pos = a.len() < 3
                || a[2]
                    .konst()
                    .and_then(|k| k.bind(py).extract::<i64>().ok())
                    .map(|s| s > 0)
                    .unwrap_or(false);
            let item = S::Integer {
                kind: IntKind::Signed,
                nonneg: nonneg_start && step_pos,
                konst: None,
                bool_too: false,
            };
            let step = if a.len() < 3 {
                Some(1)
            } else {
                a[2].konst().and_then(|k| k.bind(py).extract::<i64>().ok())
            };
            let id = ann.new_container(ItemKind::List, item, S::Impossible);
            // a step of zero raises ValueError when the range is built
            ann.itemdefs.get_mut(id).range_step = Some(step.filter(|&s| s != 0));
            S::List(id)
        }
        "min" | "max" => {
            let items = if a.len() == 1 {
                {
                    let it = super::containers::iter(ann, &a[0])?;
                    vec![super::containers::next(ann, &it)?]
                }
            } else {
                a.to_vec()
            };
            let mut u = S::Impossible;
            for i in &items {
                u = ann
                    .union(&u, &i.without_const())
                    .map_err(|e| ann.error(format!("{name}(): {}", e.message)))?;
            }
            if let (S::Integer { kind, bool_too, .. }, true) = (
                &u,
                name == "max"
                    && items
                        .iter()
                        .any(|i| matches!(i, S::Integer { nonneg: true, .. })),
            ) {
                u = S::Integer {
                    kind: *kind,
                    nonneg: true,
                    konst: None,
                    bool_too: *bool_too,
                };
            }
            if let Some((_, d)) = args.keywords.iter().find(|(k, _)| k == "default") {
                u = ann
                    .union(&u, &d.without_const())
                    .map_err(|e| ann.error(format!("{name}(): {}", e.message)))?;
            }
            u
        }
        "abs" => {
            arity(ann, name, a, 1, 1)?;
            super::arith::unary(ann, rpy3_model::OpName::Abs, &a[0])?
        }
        "isinstance" => {
            arity(ann, name, a, 2, 2)?;
            isinstance(ann, py, &a[0], &a[1])?.0
        }
        "hasattr" => {
            // decided by the annotation: class-level attributes (methods,
            // class attributes) of every class the value can be, or an
            // attribute no class has
            arity(ann, name, a, 2, 2)?;
            let Some(attr) = a[1].konst().and_then(|k| k.bind(py).extract::<String>().ok()) else {
                return Err(ann.error("hasattr() with an attribute name that is not a constant str"));
            };
            match hasattr_decided(ann, py, &a[0], &attr)? {
                Ok(k) => S::Bool {
                    konst: Some(k),
                    knowntypedata: None,
                },
                // some classes have it: a test of the instance's class
                Err(classes) => {
                    if let Some(pos) = ann.current_position() {
                        ann.hasattr_classes.insert(pos, classes);
                    }
                    S::bool()
                }
            }
        }
        "callable" => {
            // decided by the annotation
            arity(ann, name, a, 1, 1)?;
            let k = match &a[0] {
                S::Pbc {
                    can_be_none: false,
                    ..
                }
                | S::Builtin { .. }
                | S::Type { .. } => Some(true),
                S::Instance {
                    classdef,
                    can_be_none: false,
                } => {
                    let c = *classdef;
                    Some(super::special::defines(ann, py, c, "__call__"))
                }
                S::Integer { .. }
                | S::Float { .. }
                | S::Bool { .. }
                | S::Str {
                    can_be_none: false,
                    ..
                }
                | S::None_
                | S::Tuple(_)
                | S::List(_)
                | S::Dict(_)
                | S::Set(_) => Some(false),
                _ => None,
            };
            match k {
                Some(k) => S::Bool {
                    konst: Some(k),
                    knowntypedata: None,
                },
                None => return Err(ann.error(format!("callable() of {}", describe(&a[0])))),
            }
        }
        "int" => {
            arity(ann, name, a, 0, 2)?;
            match a.first() {
                None
                | Some(S::Integer { .. } | S::Bool { .. } | S::Float { .. } | S::Str { .. }) => {
                    S::int()
                }
                Some(other) => return Err(ann.error(format!("int() of {}", describe(other)))),
            }
        }
        "float" => {
            arity(ann, name, a, 0, 1)?;
            S::float()
        }
        "str" | "repr" => {
            arity(ann, name, a, 0, 1)?;
            S::str()
        }
        "bytes" => S::Str {
            kind: StrKind::Bytes,
            is_char: false,
            can_be_none: false,
            konst: None,
        },
        "bool" => {
            arity(ann, name, a, 0, 1)?;
            S::bool()
        }
        "chr" => {
            arity(ann, name, a, 1, 1)?;
            S::char()
        }
        "ord" => {
            arity(ann, name, a, 1, 1)?;
            S::nonneg_int()
        }
        "hash" | "compute_hash" => S::int(),
        // PyPy's builtin_id: the identity of an object that has one
        "id" => {
            arity(ann, name, a, 1, 1)?;
            match &a[0] {
                S::Instance { .. } | S::List(_) | S::Dict(_) | S::Set(_) => S::nonneg_int(),
                other => {
                    return Err(ann.error(format!(
                        "id() of {} is not RPython (only instances, lists, dicts and sets \
                         have an identity)",
                        describe(other)
                    )))
                }
            }
        }
        "enumerate" => {
            arity(ann, name, a, 1, 2)?;
            let variant = match a.get(1) {
                None | Some(S::Integer { nonneg: true, .. } | S::Bool { .. }) => {
                    IterVariant::Enumerate
                }
                Some(S::Integer {
                    kind: IntKind::Signed,
                    ..
                }) => IterVariant::EnumerateSigned,
                Some(other) => {
                    return Err(
                        ann.error(format!("enumerate() with a start of {}", describe(other)))
                    )
                }
            };
            let it = super::containers::iter(ann, &a[0])?;
            S::Iterator {
                over: Box::new(it),
                variant,
            }
        }
        "zip" => {
            let mut its = Vec::new();
            for x in a {
                its.push(super::containers::iter(ann, x)?);
            }
            S::Iterator {
                over: Box::new(S::Tuple(its)),
                variant: IterVariant::Zip,
            }
        }
        "reversed" => {
            arity(ann, name, a, 1, 1)?;
            let it = super::containers::iter(ann, &a[0])?;
            match &a[0] {
                // a sequence read backwards
                S::List(_)
                | S::Str {
                    can_be_none: false, ..
                } => S::Iterator {
                    over: Box::new(a[0].without_const()),
                    variant: IterVariant::Reversed,
                },
                // a tuple, a dict's keys: a list of them read backwards
                S::Tuple(_) | S::Dict(_) => {
                    let item = super::containers::next(ann, &it)?;
                    let id = ann.new_container(ItemKind::List, item.without_const(), S::Impossible);
                    S::Iterator {
                        over: Box::new(S::List(id)),
                        variant: IterVariant::Reversed,
                    }
                }
                S::Set(_) | S::Iterator { .. } | S::Generator(_) => {
                    return Err(ann.error(format!(
                        "reversed() of {}, which is not a sequence",
                        describe(&a[0])
                    )))
                }
                _ => S::Iterator {
                    over: Box::new(it),
                    variant: IterVariant::Items,
                },
            }
        }
        "sorted" | "list" => {
            let item = match a.first() {
                Some(x) => {
                    let it = super::containers::iter(ann, x)?;
                    super::containers::next(ann, &it)?
                }
                None => S::Impossible,
            };
            S::List(ann.new_container(ItemKind::List, item.without_const(), S::Impossible))
        }
        // a frozenset is a set the program never mutates (CPython has no
        // method to mutate one)
        "set" | "frozenset" => {
            arity(ann, name, a, 0, 1)?;
            let item = match a.first() {
                Some(x) => {
                    let it = super::containers::iter(ann, x)?;
                    super::containers::next(ann, &it)?
                }
                None => S::Impossible,
            };
            let id = ann.new_container(ItemKind::Set, item.without_const(), S::Impossible);
            ann.itemdefs.get_mut(id).frozen = name == "frozenset";
            S::Set(id)
        }
        "dict" => {
            arity(ann, name, a, 0, 1)?;
            let (k, v) = match a.first() {
                None => (S::Impossible, S::Impossible),
                Some(S::Dict(other)) => ann.read_item(*other),
                Some(x) => pairs_of(ann, x, "dict()")?,
            };
            S::Dict(ann.new_container(ItemKind::Dict, k.without_const(), v.without_const()))
        }
        "bytes.fromhex" => {
            arity(ann, name, a, 1, 1)?;
            if !matches!(a[0], S::Str { kind: StrKind::Str, can_be_none: false, .. }) {
                return Err(ann.error(format!(
                    "bytes.fromhex() takes a str, not {}",
                    describe(&a[0])
                )));
            }
            S::Str {
                kind: StrKind::Bytes,
                is_char: false,
                can_be_none: false,
                konst: None,
            }
        }
        "dict.fromkeys" => {
            arity(ann, name, a, 1, 2)?;
            let it = super::containers::iter(ann, &a[0])?;
            let k = super::containers::next(ann, &it)?;
            let v = a.get(1).cloned().unwrap_or(S::None_);
            S::Dict(ann.new_container(ItemKind::Dict, k.without_const(), v.without_const()))
        }
        "bytearray" => {
            // a list of byte values (PyPy's rbytearray is one too)
            arity(ann, name, a, 0, 1)?;
            let byte = S::Integer {
                kind: IntKind::Signed,
                nonneg: true,
                konst: None,
                bool_too: false,
            };
            match a.first() {
                None => {}
                Some(n) if int_kind(n).is_some() => {}
                Some(
                    x @ S::Str {
                        kind: StrKind::Str, ..
                    },
                ) => {
                    return Err(ann.error(format!(
                        "bytearray() of {} (encode it to bytes first)",
                        describe(x)
                    )))
                }
                Some(x) => {
                    let it = super::containers::iter(ann, x)?;
                    let item = super::containers::next(ann, &it)?;
                    if !item.is_impossible() && int_kind(&item).is_none() {
                        return Err(ann.error(format!("bytearray() of {} items", describe(&item))));
                    }
                }
            }
            let id = ann.new_container(ItemKind::List, byte, S::Impossible);
            let d = ann.itemdefs.get_mut(id);
            d.bytearray = true;
            d.mutated = true;
            d.resized = true;
            S::List(id)
        }
        "defaultdict" => {
            // defaultdict(missing): see rpy3.rlib.rcollections
            arity(ann, name, a, 1, 1)?;
            let id = ann.new_container(ItemKind::Dict, S::Impossible, S::Impossible);
            ann.itemdefs.get_mut(id).default_missing = Some(a[0].clone());
            S::Dict(id)
        }
        "ordered_dict" => {
            arity(ann, name, a, 0, 0)?;
            let id = ann.new_container(ItemKind::Dict, S::Impossible, S::Impossible);
            ann.itemdefs.get_mut(id).ordered = true;
            S::Dict(id)
        }
        "counter" => {
            // collections.Counter(): a dict of counts whose missing keys
            // read as 0 (see rpy3.rlib.rcollections)
            arity(ann, name, a, 0, 0)?;
            let missing = py
                .import("rpy3.rlib.rcollections")
                .and_then(|m| m.getattr("counter_missing"))
                .map_err(|e| ann.error(format!("rpy3.rlib.rcollections: {e}")))?;
            let s_missing = ann.immutablevalue(py, &missing)?;
            let id = ann.new_container(ItemKind::Dict, S::Impossible, S::Impossible);
            let d = ann.itemdefs.get_mut(id);
            d.default_missing = Some(s_missing);
            d.counter = true;
            S::Dict(id)
        }
        "deque_bounded" => {
            arity(ann, name, a, 2, 2)?;
            let Some(bound) = a[1].konst().and_then(|k| k.bind(py).extract::<i64>().ok()) else {
                return Err(ann.error("deque() with a maxlen that is not a constant"));
            };
            let it = super::containers::iter(ann, &a[0])?;
            let item = super::containers::next(ann, &it)?;
            let id = ann.new_container(ItemKind::List, item.without_const(), S::Impossible);
            let d = ann.itemdefs.get_mut(id);
            d.deque = true;
            d.mutated = true;
            d.resized = true;
            d.maxlen = Some(bound);
            S::List(id)
        }
        "deque" => {
            arity(ann, name, a, 0, 1)?;
            let item = match a.first() {
                Some(x) => {
                    let it = super::containers::iter(ann, x)?;
                    super::containers::next(ann, &it)?
                }
                None => S::Impossible,
            };
            let id = ann.new_container(ItemKind::List, item.without_const(), S::Impossible);
            let d = ann.itemdefs.get_mut(id);
            d.deque = true;
            d.mutated = true;
            d.resized = true;
            S::List(id)
        }
        "r_dict" => {
            arity(ann, name, a, 2, 2)?;
            let id = ann.new_container(ItemKind::Dict, S::Impossible, S::Impossible);
            ann.itemdefs.get_mut(id).custom = Some((a[0].clone(), a[1].clone()));
            S::Dict(id)
        }
        "tuple" => match a.first() {
            Some(t @ S::Tuple(_)) => t.clone(),
            Some(t) if ann.is_var_tuple(t) => t.clone(),
            None => S::Tuple(Vec::new()),
            Some(other) => {
                // the items of any iterable: a tuple whose length is known
                // at run time only
                let it = super::containers::iter(ann, other)?;
                let item = super::containers::next(ann, &it)?;
                let id = ann
                    .var_tuple(std::iter::once(&item))
                    .map_err(|e| ann.error(e.message))?;
                S::List(id)
            }
        },
        "sum" => {
            let it = super::containers::iter(ann, &a[0])?;
            let mut item = super::containers::next(ann, &it)?;
            // the start (0 when omitted) takes part in the sum: floats
            // summed from an int are a number of either kind (the sum of
            // no floats is the int 0)
            let start = a.get(1).cloned().unwrap_or_else(S::int);
            item = match (&item, &start) {
                (S::Float { .. }, _) | (_, S::Float { .. }) => S::Float {
                    konst: None,
                    int_too: start.may_be_int(),
                },
                (S::Impossible, x) => x.without_const(),
                (x, _) => x.clone(),
            };
            match item {
                S::Float { .. } => item,
                S::Impossible => S::int(),
                x if int_kind(&x).is_some() => S::int(),
                x => return Err(ann.error(format!("sum() of {}", describe(&x)))),
            }
        }
        "any" | "all" => {
            let it = super::containers::iter(ann, &a[0])?;
            let _ = super::containers::next(ann, &it)?;
            S::bool()
        }
        "iter" => super::containers::iter(ann, &a[0])?,
        "next" => {
            let item = super::containers::next(ann, &a[0])?;
            match a.get(1) {
                // next(it, default) gives the default at the end
                Some(d) => ann
                    .union(&item, &d.without_const())
                    .map_err(|e| ann.error(format!("next() with a default: {}", e.message)))?,
                None => item,
            }
        }
        "divmod" => {
            arity(ann, name, a, 2, 2)?;
            super::arith::binary(ann, py, rpy3_model::OpName::Divmod, &a[0], &a[1])?
        }
        "pow" => {
            arity(ann, name, a, 2, 3)?;
            let r = super::arith::binary(ann, py, rpy3_model::OpName::Pow, &a[0], &a[1])?;
            if let Some(m) = a.get(2) {
                if int_kind(&r).is_none() || int_kind(m).is_none() {
                    return Err(ann.error("pow() with a modulus of something that is not an int"));
                }
                super::arith::binary(ann, py, rpy3_model::OpName::Mod, &r, m)?
            } else {
                r
            }
        }
        "round" => {
            arity(ann, name, a, 1, 2)?;
            let ndigits = a.get(1).filter(|n| !matches!(n, S::None_));
            if let Some(n) = ndigits {
                if int_kind(n).is_none() {
                    return Err(ann.error(format!("round() with ndigits of {}", describe(n))));
                }
            }
            match (&a[0], ndigits) {
                (S::Float { .. }, None) => S::int(),
                (S::Float { int_too, .. }, Some(_)) => S::Float {
                    konst: None,
                    int_too: *int_too,
                },
                (x, _) if int_kind(x).is_some() => S::int(),
                (x, _) => return Err(ann.error(format!("round() of {}", describe(x)))),
            }
        }
        "math.floor" | "math.ceil" | "math.trunc" => S::int(),
        "hex" | "oct" | "bin" => {
            arity(ann, name, a, 1, 1)?;
            if int_kind(&a[0]).is_none() {
                return Err(ann.error(format!("{name}() of {}", describe(&a[0]))));
            }
            S::str()
        }
        "math.gcd" | "math.lcm" | "math.factorial" | "math.comb" | "math.perm" | "math.isqrt" => {
            let max = match name {
                "math.factorial" | "math.isqrt" => 1,
                "math.comb" => 2,
                "math.perm" => 2,
                _ => usize::MAX,
            };
            arity(ann, name, a, 0, max)?;
            for x in a {
                if int_kind(x).is_none() {
                    return Err(ann.error(format!("{name}() of {}", describe(x))));
                }
            }
            S::nonneg_int()
        }
        "math.isclose" => {
            arity(ann, name, a, 2, 2)?;
            S::bool()
        }
        "math.fsum" => {
            arity(ann, name, a, 1, 1)?;
            let it = super::containers::iter(ann, &a[0])?;
            let item = super::containers::next(ann, &it)?;
            if !matches!(
                item,
                S::Float { .. } | S::Integer { .. } | S::Bool { .. } | S::Impossible
            ) {
                return Err(ann.error(format!("math.fsum() of {} items", describe(&item))));
            }
            S::float()
        }
        "math.isnan" | "math.isinf" | "math.isfinite" => S::bool(),
        "math.frexp" => S::Tuple(vec![S::float(), S::int()]),
        "math.modf" => S::Tuple(vec![S::float(), S::float()]),
        n if n.starts_with("math.") => S::float(),
        "intmask" => S::int(),
        "ovfcheck" => match a.first() {
            Some(x) if int_kind(x).is_some() => x.without_const(),
            _ => return Err(ann.error("ovfcheck() of something that is not an int")),
        },
        "widen" => match a.first() {
            Some(S::Integer { kind, .. }) if kind.unsigned() => S::Integer {
                kind: *kind,
                nonneg: true,
                konst: None,
                bool_too: false,
            },
            _ => S::int(),
        },
        "r_uint" | "r_ulonglong" => S::Integer {
            kind: IntKind::Unsigned,
            nonneg: true,
            konst: None,
            bool_too: false,
        },
        "r_longlong" => S::Integer {
            kind: IntKind::SignedLongLong,
            nonneg: false,
            konst: None,
            bool_too: false,
        },
        "r_int" => S::int(),
        "we_are_translated" => S::Bool {
            konst: Some(true),
            knowntypedata: None,
        },
        // copy.copy() of an instance: one of the same class (any class
        // at or below the argument's), never None
        "copy_instance" => match a.first() {
            Some(S::Instance { classdef, .. }) => S::Instance {
                classdef: *classdef,
                can_be_none: false,
            },
            Some(other) => {
                return Err(ann.error(format!(
                    "copy_instance() of {}: an instance is needed",
                    describe(other)
                )))
            }
            None => return Err(ann.error("copy_instance() needs an instance")),
        },
        // `deepcopy_fields(x, fn, memo)`: every field f of x becomes
        // fn(f, memo), for every class x can be an instance of
        "deepcopy_fields" => {
            arity(ann, name, a, 3, 3)?;
            let S::Instance { classdef, .. } = &a[0] else {
                return Err(ann.error(format!(
                    "deepcopy_fields() of {}: an instance is needed",
                    describe(&a[0])
                )));
            };
            let c = *classdef;
            if let Some(pos) = ann.position() {
                // reflowed when a class gains an attribute or a subclass
                ann.field_walkers.insert(pos);
                ann.classdefs[c].method_readers.insert(pos);
            }
            for (owner, attr) in ann.instance_fields(c) {
                if let Some(pos) = ann.position() {
                    if let Some(at) = ann.classdefs[owner].attrs.get_mut(&attr) {
                        at.readers.insert(pos);
                    }
                }
                let s_attr = ann.classdefs[owner].attrs[&attr].s_value.clone();
                if s_attr.is_impossible() {
                    continue;
                }
                let r = super::call(
                    ann,
                    py,
                    &a[1],
                    CallArgs::positional(vec![s_attr, a[2].clone()]),
                )?;
                if !r.is_impossible() {
                    ann.set_attr(py, owner, &attr, &r)?;
                }
            }
            S::None_
        }
        // `deepcopy_items(t, fn, memo)`: the tuple of fn(item, memo)
        "deepcopy_items" => {
            arity(ann, name, a, 3, 3)?;
            let S::Tuple(items) = &a[0] else {
                return Err(ann.error(format!(
                    "deepcopy_items() of {}: a tuple of a known length is needed",
                    describe(&a[0])
                )));
            };
            let mut out = Vec::new();
            for item in items.clone() {
                let r = super::call(
                    ann,
                    py,
                    &a[1],
                    CallArgs::positional(vec![item.without_const(), a[2].clone()]),
                )?;
                out.push(r);
            }
            if out.iter().any(|r| r.is_impossible()) {
                S::Impossible
            } else {
                S::Tuple(out)
            }
        }
        "is_atomic" => {
            arity(ann, name, a, 1, 1)?;
            let atomic = match &a[0] {
                S::Integer { .. } | S::Bool { .. } | S::Float { .. } | S::Str { .. } => true,
                S::None_ | S::Optional(_) | S::Type { .. } => true,
                S::Pbc { descs, .. } => descs
                    .iter()
                    .all(|d| matches!(ann.descs[*d], crate::Desc::Function(_) | crate::Desc::Class { .. })),
                _ => false,
            };
            S::Bool {
                konst: Some(atomic),
                knowntypedata: None,
            }
        }
        "is_fixed_tuple" => {
            arity(ann, name, a, 1, 1)?;
            S::Bool {
                konst: Some(matches!(a[0], S::Tuple(_))),
                knowntypedata: None,
            }
        }
        "instantiate" => match a.first().and_then(|c| c_const(ann, c)) {
            Some(cls) => {
                let cdef = ann.getclassdef(py, cls.bind(py))?;
                S::Instance {
                    classdef: cdef,
                    can_be_none: false,
                }
            }
            None => {
                return Err(ann.error("instantiate() of something that is not a constant class"))
            }
        },
        "ll.malloc" | "ll.nullptr" => match a.first() {
            Some(S::LowLevelType(t)) => {
                if name == "ll.malloc" && t.is_varsize() != (a.len() == 2) {
                    return Err(ann.error(format!(
                        "malloc({t}) needs a length exactly when the type is varsize"
                    )));
                }
                S::Ptr(rpy3_model::lltype::LlType::ptr(*t).map_err(|e| ann.error(e.to_string()))?)
            }
            _ => {
                return Err(ann.error(format!(
                    "{name}() of something that is not a low-level type"
                )))
            }
        },
        "ll.str_to_float" => match a {
            [S::Ptr(_)] => S::float(),
            _ => return Err(ann.error("str_to_float() of something that is not a string pointer")),
        },
        "ll.typeOf" => match a {
            [S::Ptr(t)] => S::LowLevelType(*t),
            _ => return Err(ann.error("typeOf() of something that is not a low-level pointer")),
        },
        "ll.cast_pointer" => match (a.first(), a.get(1)) {
            (Some(S::LowLevelType(pt)), Some(S::Ptr(_))) if pt.target().is_some() => S::Ptr(*pt),
            _ => return Err(ann.error("cast_pointer(PTRTYPE, ptr) with bad arguments")),
        },
        "ll.float_format_char" => match a {
            [S::Float { .. } | S::Integer { .. }, S::Integer { .. }, S::Integer { .. }] => S::int(),
            _ => return Err(ann.error("float_format_char(x, spec, k) takes a float and two ints")),
        },
        "ll.unichar_props" => match (a.first(), a.len()) {
            (Some(S::Str { is_char: true, .. }), 1) => S::int(),
            _ => return Err(ann.error("unichar_props(c) takes a character")),
        },
        "ll.unichar_upper" | "ll.unichar_lower" | "ll.unichar_title" | "ll.unichar_casefold" => {
            match (a.first(), a.get(1), a.len()) {
                (
                    Some(S::Str { is_char: true, .. }),
                    Some(S::Integer { .. } | S::Bool { .. }),
                    2,
                ) => S::int(),
                _ => {
                    return Err(ann.error(format!(
                        "{}(c, k) takes a character and an index",
                        &name[3..]
                    )))
                }
            }
        }
        "StringBuilder" => S::Builtin {
            name: "StringBuilder",
            s_self: Some(Box::new(S::str())),
        },
        "BytesBuilder" => S::Builtin {
            name: "BytesBuilder",
            s_self: Some(Box::new(S::Str {
                kind: StrKind::Bytes,
                is_char: false,
                can_be_none: false,
                konst: None,
            })),
        },
        "super" => return Err(ann.error("super() is not supported by the annotator yet")),
        "object" => return Err(ann.error("object() is not RPython")),
        other => return Err(ann.error(format!("the built-in {other}() is not supported"))),
    })
}

/// The keys and values of an iterable of pairs (`dict(pairs)`).
fn pairs_of(
    ann: &mut Annotator,
    x: &SomeValue,
    what: &str,
) -> Result<(SomeValue, SomeValue), AnnotatorError> {
    let it = super::containers::iter(ann, x)?;
    match super::containers::next(ann, &it)? {
        SomeValue::Tuple(kv) if kv.len() == 2 => Ok((kv[0].clone(), kv[1].clone())),
        SomeValue::Impossible => Ok((SomeValue::Impossible, SomeValue::Impossible)),
        other => Err(ann.error(format!(
            "{what} of items that are {}, not pairs",
            describe(&other)
        ))),
    }
}

fn c_const(ann: &Annotator, s: &SomeValue) -> Option<rpy3_model::PyObj> {
    match s {
        SomeValue::Pbc {
            descs,
            can_be_none: false,
        } if descs.len() == 1 => ann.desc_object(*descs.iter().next()?),
        _ => None,
    }
}

/// `isinstance(x, C)`: constant when the annotation decides, else a bool
/// that narrows `x` to instances of `C` when true.
pub(super) fn isinstance(
    ann: &mut Annotator,
    py: Python<'_>,
    x: &SomeValue,
    c: &SomeValue,
) -> Result<(SomeValue, Option<SomeValue>), AnnotatorError> {
    // a variable holding one of several classes: the result is known only
    // when it is the same for each of them, and narrows nothing
    if let SomeValue::Pbc { descs, can_be_none } = c {
        if descs.len() > 1 || *can_be_none {
            let mut outcomes = Vec::new();
            for d in descs.iter().copied().collect::<Vec<_>>() {
                let one = SomeValue::Pbc {
                    descs: std::sync::Arc::new(std::iter::once(d).collect()),
                    can_be_none: false,
                };
                let (r, _) = isinstance(ann, py, x, &one)?;
                outcomes.push(match r {
                    SomeValue::Bool { konst, .. } => konst,
                    _ => None,
                });
            }
            let konst = match outcomes.first() {
                Some(Some(k)) if outcomes.iter().all(|o| *o == Some(*k)) => Some(*k),
                _ => None,
            };
            return Ok((
                SomeValue::Bool {
                    konst,
                    knowntypedata: None,
                },
                None,
            ));
        }
    }
    let classes: Vec<Bound<'_, PyAny>> = match c {
        SomeValue::Pbc { descs, .. } => descs
            .iter()
            .filter_map(|d| ann.desc_object(*d))
            .map(|o| o.bind(py).clone())
            .collect(),
        SomeValue::Builtin { name, s_self: None } => {
            let t = py
                .import("builtins")
                .and_then(|b| b.getattr(*name))
                .map_err(|e| ann.error(format!("{e}")))?;
            vec![t]
        }
        SomeValue::Tuple(items) => {
            let mut out = Vec::new();
            for i in items {
                match i {
                    SomeValue::Pbc { descs, .. } => out.extend(
                        descs
                            .iter()
                            .filter_map(|d| ann.desc_object(*d))
                            .map(|o| o.bind(py).clone()),
                    ),
                    SomeValue::Builtin { name, s_self: None } => out.push(
                        py.import("builtins")
                            .and_then(|b| b.getattr(*name))
                            .map_err(|e| ann.error(format!("{e}")))?,
                    ),
                    _ => return Err(ann.error("isinstance() with something that is not a class")),
                }
            }
            out
        }
        _ => return Err(ann.error("isinstance() with something that is not a constant class")),
    };
    let builtins = py
        .import("builtins")
        .map_err(|e| ann.error(format!("{e}")))?;
    let is_builtin_type =
        |t: &Bound<'_, PyAny>, n: &str| builtins.getattr(n).map(|b| b.is(t)).unwrap_or(false);
    // a number of either kind: decided at run time, an int or a float
    // where it holds
    if let SomeValue::Float { int_too: true, .. } = x {
        let int = classes.iter().any(|t| is_builtin_type(t, "int"));
        let float = classes.iter().any(|t| is_builtin_type(t, "float"));
        return Ok(match (int, float) {
            (true, true) | (false, false) => (
                SomeValue::Bool {
                    konst: Some(int),
                    knowntypedata: None,
                },
                None,
            ),
            (true, false) => (SomeValue::bool(), Some(SomeValue::int())),
            (false, true) => (SomeValue::bool(), Some(SomeValue::float())),
        });
    }
    // an int that may be a bool: a bool by its tag, at run time
    if let SomeValue::Integer {
        kind: IntKind::Signed,
        bool_too: true,
        konst: None,
        ..
    } = x
    {
        if !classes.iter().any(|t| is_builtin_type(t, "int"))
            && classes.iter().any(|t| is_builtin_type(t, "bool"))
        {
            return Ok((SomeValue::bool(), Some(SomeValue::bool())));
        }
    }
    // values of built-in types: decided by the annotation
    let konst = match x {
        SomeValue::Integer { .. } => Some(classes.iter().any(|t| is_builtin_type(t, "int"))),
        SomeValue::Bool { .. } => Some(
            classes
                .iter()
                .any(|t| is_builtin_type(t, "int") || is_builtin_type(t, "bool")),
        ),
        SomeValue::Float { .. } => Some(classes.iter().any(|t| is_builtin_type(t, "float"))),
        SomeValue::Str {
            kind: StrKind::Str,
            can_be_none: false,
            ..
        } => Some(classes.iter().any(|t| is_builtin_type(t, "str"))),
        SomeValue::Str {
            kind: StrKind::Bytes,
            can_be_none: false,
            ..
        } => Some(classes.iter().any(|t| is_builtin_type(t, "bytes"))),
        SomeValue::None_ => Some(false),
        SomeValue::List(id) => {
            // lists with a flag are other built-in types
            let d = ann.itemdefs.get(*id);
            let (ty, module) = if d.tuple {
                ("tuple", None)
            } else if d.bytearray {
                ("bytearray", None)
            } else if d.deque {
                ("deque", Some("collections"))
            } else {
                ("list", None)
            };
            let of_type = |t: &Bound<'_, PyAny>| match module {
                None => is_builtin_type(t, ty),
                Some(m) => py
                    .import(m)
                    .and_then(|m| m.getattr(ty))
                    .map(|b| b.is(t))
                    .unwrap_or(false),
            };
            Some(classes.iter().any(of_type))
        }
        SomeValue::Dict(_) => Some(classes.iter().any(|t| is_builtin_type(t, "dict"))),
        SomeValue::Tuple(_) => Some(classes.iter().any(|t| is_builtin_type(t, "tuple"))),
        SomeValue::Set(_) => Some(classes.iter().any(|t| is_builtin_type(t, "set"))),
        // generators and iterators are no class a program names
        SomeValue::Generator(_) | SomeValue::Iterator { .. } => Some(false),
        // the stand-in of a namedtuple (rpy3.stdlib.namedtuples) is one
        SomeValue::Instance { classdef, .. }
            if classes.iter().any(|t| is_builtin_type(t, "tuple"))
                && ann.classdefs[*classdef]
                    .cls
                    .bind(py)
                    .hasattr("_rpy3_namedtuple_")
                    .unwrap_or(false) =>
        {
            Some(true)
        }
        // an instance of a program class is no list, dict, str...
        SomeValue::Instance { .. }
            if classes.iter().all(|t| {
                [
                    "int",
                    "bool",
                    "float",
                    "str",
                    "bytes",
                    "list",
                    "tuple",
                    "dict",
                    "set",
                    "frozenset",
                    "bytearray",
                ]
                .iter()
                .any(|n| is_builtin_type(t, n))
            }) =>
        {
            Some(false)
        }
        _ => None,
    };
    if konst.is_some() {
        return Ok((
            SomeValue::Bool {
                konst,
                knowntypedata: None,
            },
            None,
        ));
    }
    let SomeValue::Instance { classdef: xc, .. } = x else {
        return Ok((SomeValue::bool(), None));
    };
    let mut cdefs = Vec::new();
    for t in &classes {
        if t.is_instance_of::<pyo3::types::PyType>() {
            cdefs.push(ann.getclassdef(py, t)?);
        }
    }
    if cdefs.iter().any(|c| ann.is_subclass(*xc, *c)) && !x.can_be_none() {
        return Ok((
            SomeValue::Bool {
                konst: Some(true),
                knowntypedata: None,
            },
            None,
        ));
    }
    // narrow to the classes below x's class
    let mut narrowed: Option<crate::ids::ClassDefId> = None;
    for c in &cdefs {
        let c = if ann.is_subclass(*xc, *c) { *xc } else { *c };
        if ann.is_subclass(c, *xc) {
            narrowed = Some(match narrowed {
                None => c,
                Some(n) => ann.common_base(n, c).unwrap_or(n),
            });
        }
    }
    Ok((
        SomeValue::Bool {
            konst: if narrowed.is_none() && !cdefs.is_empty() {
                Some(false)
            } else {
                None
            },
            knowntypedata: None,
        },
        narrowed.map(|n| SomeValue::Instance {
            classdef: n,
            can_be_none: false,
        }),
    ))
}

/// `obj.name` where `obj` is a value of a built-in type: a bound method.
pub fn method(
    ann: &mut Annotator,
    py: Python<'_>,
    obj: &SomeValue,
    name: &str,
) -> Result<SomeValue, AnnotatorError> {
    let _ = py;
    if let (
        SomeValue::Builtin {
            name: "dict",
            s_self: None,
        },
        "fromkeys",
    ) = (obj, name)
    {
        return Ok(SomeValue::Builtin {
            name: "dict.fromkeys",
            s_self: None,
        });
    }
    if let (
        SomeValue::Builtin {
            name: "bytes",
            s_self: None,
        },
        "fromhex",
    ) = (obj, name)
    {
        return Ok(SomeValue::Builtin {
            name: "bytes.fromhex",
            s_self: None,
        });
    }
    if let (
        SomeValue::Builtin {
            name: "object",
            s_self: None,
        },
        "__new__",
    ) = (obj, name)
    {
        // `Cls.__new__(Cls)` (object's): an instance not initialised, as
        // RPython's instantiate()
        return Ok(SomeValue::Builtin {
            name: "instantiate",
            s_self: None,
        });
    }
    let table: &[&'static str] = match obj {
        SomeValue::Str { .. } => &[
            "join",
            "split",
            "rsplit",
            "strip",
            "lstrip",
            "rstrip",
            "lower",
            "upper",
            "startswith",
            "endswith",
            "find",
            "rfind",
            "index",
            "rindex",
            "count",
            "replace",
            "isdigit",
            "isalpha",
            "isspace",
            "isalnum",
            "isupper",
            "islower",
            "ljust",
            "rjust",
            "center",
            "zfill",
            "splitlines",
            "encode",
            "decode",
            "title",
            "capitalize",
            "swapcase",
            "partition",
            "rpartition",
            "format",
            "removeprefix",
            "removesuffix",
            "casefold",
            "expandtabs",
            "isdecimal",
            "isnumeric",
            "istitle",
            "isprintable",
            "isidentifier",
            "isascii",
            "hex",
            "translate",
        ],
        SomeValue::List(id) if ann.itemdefs.get(*id).tuple => &["index", "count"],
        // a bytearray has bytes' methods that make a str too
        SomeValue::List(id)
            if ann.itemdefs.get(*id).bytearray && matches!(name, "hex" | "decode") =>
        {
            &["hex", "decode"]
        }
        SomeValue::List(_) => &[
            "append",
            "extend",
            "pop",
            "insert",
            "remove",
            "index",
            "count",
            "reverse",
            "sort",
            "copy",
            "clear",
            "appendleft",
            "popleft",
            "extendleft",
            "rotate",
        ],
        SomeValue::Dict(id) if ann.itemdefs.get(*id).ordered => &[
            "get",
            "keys",
            "values",
            "items",
            "pop",
            "setdefault",
            "update",
            "clear",
            "copy",
            "popitem",
            "move_to_end",
        ],
        SomeValue::Dict(id) if ann.itemdefs.get(*id).counter => &[
            "get",
            "keys",
            "values",
            "items",
            "pop",
            "setdefault",
            "update",
            "clear",
            "copy",
            "popitem",
            "most_common",
            "elements",
            "total",
            "subtract",
        ],
        SomeValue::Dict(_) => &[
            "get",
            "keys",
            "values",
            "items",
            "pop",
            "setdefault",
            "update",
            "clear",
            "copy",
            "popitem",
        ],
        SomeValue::Set(_) => &[
            "add",
            "remove",
            "discard",
            "update",
            "clear",
            "copy",
            "union",
            "intersection",
            "difference",
            "issubset",
            "pop",
            "symmetric_difference",
            "issuperset",
            "isdisjoint",
            "difference_update",
            "intersection_update",
            "symmetric_difference_update",
        ],
        SomeValue::Builtin {
            name: "StringBuilder" | "BytesBuilder",
            ..
        } => &[
            "append",
            "append_slice",
            "append_multiple_char",
            "append_char",
            "getlength",
            "build",
        ],
        SomeValue::Builtin {
            name: world,
            s_self: None,
        } if super::external::methods(world).is_some() => {
            super::external::methods(world).unwrap_or_default()
        }
        SomeValue::Integer { .. } => &["bit_length", "bit_count", "to_bytes"],
        SomeValue::Float { .. } => &["is_integer"],
        other => {
            return Err(ann.error(format!(
                "{} has no attribute '{name}' in RPython",
                describe(other)
            )))
        }
    };
    match table.iter().find(|&&m| m == name) {
        Some(&m) => {
            let s_self = match obj {
                SomeValue::Builtin { name: b, s_self } => SomeValue::Builtin {
                    name: b,
                    s_self: s_self.clone(),
                },
                other => other.clone(),
            };
            Ok(SomeValue::Builtin {
                name: m,
                s_self: Some(Box::new(s_self)),
            })
        }
        None => Err(ann.error(format!(
            "{} has no method '{name}' in RPython",
            describe(obj)
        ))),
    }
}

fn call_method(
    ann: &mut Annotator,
    py: Python<'_>,
    name: &str,
    s_self: &SomeValue,
    args: CallArgs,
) -> Result<SomeValue, AnnotatorError> {
    use SomeValue as S;
    let Some(a) = args.flat_positional() else {
        return Err(ann.error(format!("{name}(*args) with a non-tuple")));
    };
    let kw = &args.keywords;
    let min_args = match name {
        "insert" => 2,
        "join"
        | "append"
        | "appendleft"
        | "extendleft"
        | "extend"
        | "setdefault"
        | "add"
        | "update"
        | "symmetric_difference_update"
        | "issubset"
        | "issuperset"
        | "isdisjoint"
        | "remove"
        | "discard"
        | "index"
        | "count"
        | "startswith"
        | "endswith"
        | "replace"
        | "append_slice"
        | "append_multiple_char"
        | "append_char"
        | "get" => 1,
        _ => 0,
    };
    if a.len() < min_args && !matches!(s_self, S::Integer { .. } | S::Float { .. }) {
        return Err(ann.error(format!("{name}() called with {} arguments", a.len())));
    }
    let strk = |s: &SomeValue| match s {
        S::Str { kind, .. } => *kind,
        _ => StrKind::Str,
    };
    match s_self {
        S::Str { kind, .. } => {
            let kind = *kind;
            let string = super::arith::string(kind);
            Ok(match name {
                "join" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let item = super::containers::next(ann, &it)?;
                    if !matches!(item, S::Str { .. } | S::Impossible)
                        || (matches!(item, S::Str { .. }) && strk(&item) != kind)
                    {
                        return Err(ann.error(format!("join() of {} items", describe(&item))));
                    }
                    string
                }
                "split" | "rsplit" | "splitlines" => {
                    let id = ann.new_container(ItemKind::List, string, S::Impossible);
                    S::List(id)
                }
                "partition" | "rpartition" => {
                    S::Tuple(vec![string.clone(), string.clone(), string])
                }
                "startswith" | "endswith" | "isdigit" | "isalpha" | "isspace" | "isalnum"
                | "isupper" | "islower" | "isdecimal" | "isnumeric" | "istitle" | "isprintable"
                | "isidentifier" | "isascii" => S::bool(),
                "format" => {
                    if kind != StrKind::Str {
                        return Err(ann.error("bytes has no method 'format'"));
                    }
                    for x in a.iter().chain(kw.iter().map(|(_, v)| v)) {
                        if !matches!(
                            x,
                            S::Integer { .. }
                                | S::Bool { .. }
                                | S::Float { .. }
                                | S::Str { .. }
                                | S::None_
                                | S::Instance { .. }
                                | S::List(_)
                                | S::Dict(_)
                                | S::Set(_)
                                | S::Tuple(_)
                        ) {
                            return Err(ann.error(format!("str.format() of {}", describe(x))));
                        }
                    }
                    let shown: Vec<SomeValue> = a.iter().chain(kw.iter().map(|(_, v)| v)).cloned().collect();
                    super::special::str_format_methods(ann, py, &shown)?;
                    string
                }
                "hex" => S::str(),
                "find" | "rfind" | "index" | "rindex" => S::int(),
                "count" => S::nonneg_int(),
                "encode" => S::Str {
                    kind: StrKind::Bytes,
                    is_char: false,
                    can_be_none: false,
                    konst: None,
                },
                "decode" => S::str(),
                // a byte stays one byte; a character may not ('ß'.upper() is 'SS')
                "lower" | "upper" | "swapcase" => match s_self {
                    S::Str {
                        is_char: true,
                        kind: StrKind::Bytes,
                        ..
                    } => S::Str {
                        kind,
                        is_char: true,
                        can_be_none: false,
                        konst: None,
                    },
                    _ => string,
                },
                _ => string,
            })
        }
        S::List(id) => {
            let id = *id;
            if matches!(name, "appendleft" | "popleft" | "extendleft" | "rotate")
                && !ann.itemdefs.get(id).deque
            {
                return Err(ann.error(format!("'list' object has no attribute '{name}'")));
            }
            Ok(match name {
                "appendleft" => {
                    ann.generalize_item(id, &a[0].without_const(), &S::Impossible)?;
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "popleft" => {
                    ann.itemdefs.get_mut(id).resized = true;
                    ann.read_item(id).0
                }
                "extendleft" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let item = super::containers::next(ann, &it)?;
                    ann.generalize_item(id, &item.without_const(), &S::Impossible)?;
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                // (a bytearray's, as of the bytes it holds)
                "hex" | "decode" => S::str(),
                "rotate" => {
                    if let Some(n) = a.first() {
                        if !matches!(n, S::Integer { .. } | S::Bool { .. }) {
                            return Err(ann.error(format!("rotate() of {}", describe(n))));
                        }
                    }
                    S::None_
                }
                "append" => {
                    ann.generalize_item(id, &a[0].without_const(), &S::Impossible)?;
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "insert" => {
                    ann.generalize_item(id, &a[1].without_const(), &S::Impossible)?;
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "extend" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let item = super::containers::next(ann, &it)?;
                    ann.generalize_item(id, &item.without_const(), &S::Impossible)?;
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "pop" => {
                    ann.itemdefs.get_mut(id).resized = true;
                    ann.read_item(id).0
                }
                "remove" | "clear" => {
                    if let Some(x) = a.first() {
                        ann.generalize_item(id, &x.without_const(), &S::Impossible)?;
                    }
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "reverse" | "sort" => {
                    for (k, v) in kw {
                        match (name, k.as_str()) {
                            ("sort", "reverse") => {}
                            ("sort", "key") => {
                                let (item, _) = ann.read_item(id);
                                if !item.is_impossible() {
                                    super::call(ann, py, v, CallArgs::positional(vec![item]))?;
                                }
                            }
                            _ => {
                                return Err(ann.error(format!(
                                    "{name}() does not take the keyword argument '{k}' in RPython"
                                )))
                            }
                        }
                    }
                    ann.itemdefs.get_mut(id).mutated = true;
                    S::None_
                }
                "index" | "count" => {
                    // the item looked for generalises the items (as in PyPy)
                    if let Some(x) = a.first() {
                        ann.generalize_item(id, &x.without_const(), &S::Impossible)?;
                    }
                    S::nonneg_int()
                }
                "copy" => {
                    let (item, _) = ann.read_item(id);
                    S::List(ann.new_container(ItemKind::List, item, S::Impossible))
                }
                _ => return Err(ann.error(format!("list.{name}() is not supported"))),
            })
        }
        S::Dict(id)
            if ann.itemdefs.get(*id).counter
                && matches!(name, "most_common" | "elements" | "total" | "update" | "subtract") =>
        {
            // the methods of a Counter: functions of rpy3.rlib.rcollections,
            // called instead (a special call for the rtyper)
            let helper = match (name, a.len()) {
                ("most_common", 0) => "counter_most_common_all",
                ("most_common", 1) => "counter_most_common",
                ("elements", 0) => "counter_elements",
                ("total", 0) => "counter_total",
                ("update", 1) => "counter_update",
                ("subtract", 1) => "counter_subtract",
                _ => {
                    return Err(ann.error(format!(
                        "Counter.{name}() with {} arguments is not supported",
                        a.len()
                    )))
                }
            };
            dict_method_by_helper(ann, py, helper, s_self, &a)
        }
        S::Dict(id)
            if ann.itemdefs.get(*id).ordered
                && (name == "move_to_end" || (name == "popitem" && !a.is_empty())) =>
        {
            let helper = if name == "popitem" {
                "od_popitem"
            } else {
                "od_move_to_end"
            };
            dict_method_by_helper(ann, py, helper, s_self, &a)
        }
        S::Dict(id) => {
            let id = *id;
            Ok(match name {
                "get" => {
                    if let Some(k) = a.first() {
                        ann.generalize_item(id, &k.without_const(), &S::Impossible)?;
                    }
                    let (_, v) = ann.read_item(id);
                    match a.get(1) {
                        Some(d) => ann
                            .union(&v, &d.without_const())
                            .map_err(|e| ann.error(format!("dict.get(): {}", e.message)))?,
                        None => ann
                            .union(&v, &S::None_)
                            .map_err(|e| ann.error(format!("dict.get(): {}", e.message)))?,
                    }
                }
                "keys" | "values" | "items" => {
                    let (k, v) = ann.read_item(id);
                    let item = match name {
                        "keys" => k,
                        "values" => v,
                        _ => S::Tuple(vec![k, v]),
                    };
                    S::List(ann.new_container(ItemKind::List, item, S::Impossible))
                }
                "pop" => {
                    if let Some(k) = a.first() {
                        ann.generalize_item(id, &k.without_const(), &S::Impossible)?;
                    }
                    let (_, v) = ann.read_item(id);
                    ann.itemdefs.get_mut(id).resized = true;
                    match a.get(1) {
                        Some(d) => ann
                            .union(&v, &d.without_const())
                            .map_err(|e| ann.error(format!("dict.pop(): {}", e.message)))?,
                        None => v,
                    }
                }
                "setdefault" => {
                    ann.generalize_item(
                        id,
                        &a[0].without_const(),
                        &a.get(1).cloned().unwrap_or(S::None_).without_const(),
                    )?;
                    ann.read_item(id).1
                }
                "update" => {
                    match a.first() {
                        Some(S::Dict(other)) => {
                            // both dicts end with the same item types (PyPy
                            // unifies their dictdefs), so the update helper
                            // takes one low-level type
                            let (k, v) = ann.read_item(*other);
                            ann.generalize_item(id, &k, &v)?;
                            let (k, v) = ann.read_item(id);
                            ann.generalize_item(*other, &k, &v)?;
                        }
                        Some(x) => {
                            let (k, v) = pairs_of(ann, x, "dict.update()")?;
                            ann.generalize_item(id, &k.without_const(), &v.without_const())?;
                        }
                        None => {}
                    }
                    ann.itemdefs.get_mut(id).resized = true;
                    S::None_
                }
                "clear" => S::None_,
                "copy" => {
                    // the copy of an r_dict is one, with the same functions
                    let (k, v) = ann.read_item(id);
                    let custom = ann.itemdefs.get(id).custom.clone();
                    let new = ann.new_container(ItemKind::Dict, k, v);
                    ann.itemdefs.get_mut(new).custom = custom;
                    S::Dict(new)
                }
                "popitem" => {
                    let (k, v) = ann.read_item(id);
                    S::Tuple(vec![k, v])
                }
                _ => return Err(ann.error(format!("dict.{name}() is not supported"))),
            })
        }
        S::Set(id) => {
            let id = *id;
            Ok(match name {
                "add" => {
                    ann.generalize_item(id, &a[0].without_const(), &S::Impossible)?;
                    S::None_
                }
                "update" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let item = super::containers::next(ann, &it)?;
                    ann.generalize_item(id, &item.without_const(), &S::Impossible)?;
                    S::None_
                }
                "remove" | "discard" | "clear" => {
                    if let Some(x) = a.first() {
                        ann.generalize_item(id, &x.without_const(), &S::Impossible)?;
                    }
                    S::None_
                }
                "difference_update" | "intersection_update" => {
                    for x in &a {
                        let it = super::containers::iter(ann, x)?;
                        let _ = super::containers::next(ann, &it)?;
                    }
                    S::None_
                }
                "symmetric_difference_update" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let item = super::containers::next(ann, &it)?;
                    ann.generalize_item(id, &item.without_const(), &S::Impossible)?;
                    S::None_
                }
                "issubset" | "issuperset" | "isdisjoint" => {
                    let it = super::containers::iter(ann, &a[0])?;
                    let _ = super::containers::next(ann, &it)?;
                    S::bool()
                }
                "pop" => ann.read_item(id).0,
                "copy" | "intersection" | "difference" => {
                    for x in &a {
                        let it = super::containers::iter(ann, x)?;
                        let _ = super::containers::next(ann, &it)?;
                    }
                    let (item, _) = ann.read_item(id);
                    let frozen = ann.itemdefs.get(id).frozen;
                    let new = ann.new_container(ItemKind::Set, item, S::Impossible);
                    ann.itemdefs.get_mut(new).frozen = frozen;
                    S::Set(new)
                }
                "union" | "symmetric_difference" => {
                    let (mut item, _) = ann.read_item(id);
                    for x in &a {
                        let it = super::containers::iter(ann, x)?;
                        let other = super::containers::next(ann, &it)?;
                        item = ann
                            .union(&item, &other.without_const())
                            .map_err(|e| ann.error(format!("set.{name}(): {}", e.message)))?;
                    }
                    let frozen = ann.itemdefs.get(id).frozen;
                    let new = ann.new_container(ItemKind::Set, item, S::Impossible);
                    ann.itemdefs.get_mut(new).frozen = frozen;
                    S::Set(new)
                }
                _ => return Err(ann.error(format!("set.{name}() is not supported"))),
            })
        }
        S::Builtin {
            name: "StringBuilder" | "BytesBuilder",
            s_self: Some(inner),
        } => Ok(match name {
            "append" | "append_slice" | "append_multiple_char" | "append_char" => S::None_,
            "getlength" => S::nonneg_int(),
            "build" => super::arith::string(strk(inner)),
            _ => return Err(ann.error(format!("builder.{name}() is not supported"))),
        }),
        S::Integer { .. } => Ok(S::nonneg_int()),
        S::Float { .. } => Ok(S::bool()),
        other => {
            let _ = py;
            Err(ann.error(format!("cannot call method {name} of {}", describe(other))))
        }
    }
}

/// Classes of the rlib and built-in types called as constructors, handled
/// like built-in functions.
pub fn call_class_builtin(
    ann: &mut Annotator,
    py: Python<'_>,
    cls: &Bound<'_, PyAny>,
    args: &CallArgs,
) -> Result<Option<SomeValue>, AnnotatorError> {
    match builtin_name(py, cls) {
        Some(name) => Ok(Some(call(ann, py, name, None, args.clone())?)),
        None => Ok(None),
    }
}


/// `hasattr(x, attr)` as the annotation of `x` decides it: for a constant
/// (module, class, frozen object) Python's answer; for an instance,
/// whether every class it can be has `attr` at class level (a method, a
/// class attribute), or none has it at all; when only some classes have
/// it, those classes (`Err`), for a test of the instance's class.  An
/// attribute that instances hold is set at run time, perhaps on some
/// paths only: refused.
#[allow(clippy::type_complexity)]
fn hasattr_decided(
    ann: &mut Annotator,
    py: Python<'_>,
    x: &SomeValue,
    attr: &str,
) -> Result<Result<bool, Vec<rpy3_model::PyObj>>, AnnotatorError> {
    use SomeValue as S;
    if let Some(k) = x.konst().cloned().or_else(|| match x {
        S::Pbc { descs, can_be_none: false } if descs.len() == 1 => {
            ann.desc_object(*descs.iter().next().expect("one"))
        }
        _ => None,
    }) {
        return k
            .bind(py)
            .hasattr(attr)
            .map(Ok)
            .map_err(|e| ann.error(format!("hasattr(): {e}")));
    }
    let S::Instance { classdef, .. } = x else {
        return Err(ann.error(format!(
            "hasattr() of {}: rpy3 decides hasattr() when translating, from the classes of instances",
            describe(x)
        )));
    };
    let c = *classdef;
    // (decided again when a class gains an attribute or a subclass)
    if let Some(pos) = ann.current_position() {
        ann.field_walkers.insert((pos.0, pos.1));
        ann.classdefs[c].method_readers.insert((pos.0, pos.1));
    }
    let mut owners = Vec::new();
    let mut k = Some(c);
    while let Some(x) = k {
        owners.push(x);
        k = ann.classdefs[x].base;
    }
    owners.extend(ann.subtree(c));
    if owners.iter().any(|&o| ann.classdefs[o].attrs.contains_key(attr)) {
        return Err(ann.error(format!(
            "hasattr() of the instance attribute '{attr}': whether an instance holds it is known at \
             run time only (give the class a default, `{attr} = None`, and test the value)"
        )));
    }
    let subs = ann.subtree(c);
    let has: Vec<bool> = subs
        .iter()
        .map(|&k| {
            let cls = ann.classdefs[k].cls.clone();
            let cls = cls.bind(py);
            // (object's own attributes, `__init__`, `__eq__`..., count too)
            cls.hasattr(attr).unwrap_or(false)
        })
        .collect();
    if has.iter().all(|&h| h) {
        Ok(Ok(true))
    } else if has.iter().all(|&h| !h) {
        Ok(Ok(false))
    } else {
        Ok(Err(subs
            .iter()
            .zip(has)
            .filter(|(_, h)| *h)
            .map(|(&k, _)| ann.classdefs[k].cls.clone())
            .collect()))
    }
}
