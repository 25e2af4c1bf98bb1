//! Constant folding of pure operations on immutable constants.

use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyInt, PyTuple};
use rpy3_model::OpName;

/// Whether a constant can be relied on not to change at run time: values
/// of immutable built-in types, classes, modules, functions, and objects
/// whose `_freeze_()` returns True.  Lists, dicts, sets and ordinary
/// instances are prebuilt data that the program may mutate.
pub fn foldable(py: Python<'_>, obj: &Bound<'_, PyAny>) -> bool {
    let _ = py;
    if obj.is_none() {
        return true;
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t.iter().all(|i| foldable(py, &i));
    }
    if obj.is_instance_of::<PyFrozenSet>() {
        return true;
    }
    let ty = obj.get_type();
    let tyname = ty.name().map(|n| n.to_string()).unwrap_or_default();
    let module = ty.module().map(|m| m.to_string()).unwrap_or_default();
    if module == "builtins" {
        return matches!(
            tyname.as_str(),
            "int"
                | "bool"
                | "float"
                | "complex"
                | "str"
                | "bytes"
                | "type"
                | "module"
                | "function"
                | "builtin_function_or_method"
                | "method_descriptor"
                | "wrapper_descriptor"
                | "classmethod_descriptor"
                | "getset_descriptor"
                | "member_descriptor"
                | "range"
                | "slice"
                | "ellipsis"
                | "NoneType"
                | "code"
                | "staticmethod"
                | "classmethod"
        ) || (tyname == "method"
            && obj
                .getattr("__self__")
                .map(|s| foldable(py, &s))
                .unwrap_or(false));
    }
    if obj.is_instance_of::<pyo3::types::PyType>() {
        return true;
    }
    if let Ok(freeze) = obj.getattr("_freeze_") {
        return freeze.call0().and_then(|r| r.is_truthy()).unwrap_or(false);
    }
    false
}

/// Evaluates `opname` on constant arguments; `None` when the operation
/// raises or gives a value that must not become a constant (an integer
/// outside the machine word, which only makes sense after `intmask`).
pub fn fold<'py>(
    py: Python<'py>,
    opname: OpName,
    args: &[Bound<'py, PyAny>],
) -> Option<Bound<'py, PyAny>> {
    let result = match opname {
        OpName::Newtuple => PyTuple::new(py, args).ok()?.into_any(),
        OpName::Getslice => {
            let slice = py
                .import("builtins")
                .ok()?
                .getattr("slice")
                .ok()?
                .call1((&args[1], &args[2]))
                .ok()?;
            args[0].get_item(slice).ok()?
        }
        _ => {
            let path = opname.desc().pyfunc?;
            let (module, attr) = path.rsplit_once('.')?;
            let func = py.import(module).ok()?.getattr(attr).ok()?;
            func.call1(PyTuple::new(py, args).ok()?).ok()?
        }
    };
    if result.is_exact_instance_of::<PyInt>() && result.extract::<i64>().is_err() {
        return None;
    }
    Some(result)
}
