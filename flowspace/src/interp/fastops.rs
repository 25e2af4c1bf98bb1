//! The hottest operations implemented by direct calls to CPython's
//! abstract object API, skipping the call of their `pyfunc`.  Each one is
//! exactly what its `pyfunc` does (`operator.add` is `PyNumber_Add`,
//! `operator.lt` is `PyObject_RichCompare(.., Py_LT)`, ...), only without
//! the call overhead; every other operation goes through its `pyfunc`.

use pyo3::exceptions::PyStopIteration;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBool;
use rpy3_model::OpName;

type Binary = unsafe extern "C" fn(*mut ffi::PyObject, *mut ffi::PyObject) -> *mut ffi::PyObject;

fn binary_fn(op: OpName) -> Option<Binary> {
    Some(match op {
        OpName::Add => ffi::PyNumber_Add,
        OpName::Sub => ffi::PyNumber_Subtract,
        OpName::Mul => ffi::PyNumber_Multiply,
        OpName::Floordiv => ffi::PyNumber_FloorDivide,
        OpName::Truediv => ffi::PyNumber_TrueDivide,
        OpName::Mod => ffi::PyNumber_Remainder,
        OpName::And_ => ffi::PyNumber_And,
        OpName::Or_ => ffi::PyNumber_Or,
        OpName::Xor => ffi::PyNumber_Xor,
        OpName::Lshift => ffi::PyNumber_Lshift,
        OpName::Rshift => ffi::PyNumber_Rshift,
        OpName::InplaceAdd => ffi::PyNumber_InPlaceAdd,
        OpName::InplaceSub => ffi::PyNumber_InPlaceSubtract,
        OpName::InplaceMul => ffi::PyNumber_InPlaceMultiply,
        OpName::InplaceFloordiv => ffi::PyNumber_InPlaceFloorDivide,
        OpName::InplaceTruediv => ffi::PyNumber_InPlaceTrueDivide,
        OpName::InplaceMod => ffi::PyNumber_InPlaceRemainder,
        OpName::InplaceAnd => ffi::PyNumber_InPlaceAnd,
        OpName::InplaceOr => ffi::PyNumber_InPlaceOr,
        OpName::InplaceXor => ffi::PyNumber_InPlaceXor,
        OpName::InplaceLshift => ffi::PyNumber_InPlaceLshift,
        OpName::InplaceRshift => ffi::PyNumber_InPlaceRshift,
        OpName::Getattr => ffi::PyObject_GetAttr,
        OpName::Getitem => ffi::PyObject_GetItem,
        _ => return None,
    })
}

fn compare_op(op: OpName) -> Option<std::os::raw::c_int> {
    Some(match op {
        OpName::Lt => ffi::Py_LT,
        OpName::Le => ffi::Py_LE,
        OpName::Eq => ffi::Py_EQ,
        OpName::Ne => ffi::Py_NE,
        OpName::Gt => ffi::Py_GT,
        OpName::Ge => ffi::Py_GE,
        _ => return None,
    })
}

fn owned<'py>(py: Python<'py>, ptr: *mut ffi::PyObject) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `ptr` is the result of an abstract-API call: a new reference,
    // or NULL with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(py, ptr) }
}

fn status<'py>(py: Python<'py>, rc: std::os::raw::c_int) -> PyResult<Bound<'py, PyAny>> {
    if rc < 0 {
        Err(PyErr::fetch(py))
    } else {
        Ok(py.None().into_bound(py))
    }
}

fn truth<'py>(py: Python<'py>, rc: std::os::raw::c_int) -> PyResult<Bound<'py, PyAny>> {
    if rc < 0 {
        Err(PyErr::fetch(py))
    } else {
        Ok(PyBool::new(py, rc != 0).to_owned().into_any())
    }
}

/// Runs `op` directly when it has a fast path; `None` means "use the
/// operation's `pyfunc`".
#[inline]
pub(crate) fn try_fast<'py>(
    py: Python<'py>,
    op: OpName,
    args: &[&Bound<'py, PyAny>],
) -> Option<PyResult<Bound<'py, PyAny>>> {
    // SAFETY (all calls below): the arguments are live objects borrowed for
    // the duration of the call, as the abstract API requires.
    match (args, op) {
        ([a, b], _) => {
            if let Some(f) = binary_fn(op) {
                return Some(owned(py, unsafe { f(a.as_ptr(), b.as_ptr()) }));
            }
            if let Some(cmp) = compare_op(op) {
                return Some(owned(py, unsafe {
                    ffi::PyObject_RichCompare(a.as_ptr(), b.as_ptr(), cmp)
                }));
            }
            match op {
                OpName::Is_ => Some(Ok(PyBool::new(py, a.is(*b)).to_owned().into_any())),
                OpName::Contains => Some(truth(py, unsafe {
                    ffi::PySequence_Contains(a.as_ptr(), b.as_ptr())
                })),
                _ => None,
            }
        }
        ([a], OpName::Bool) => Some(truth(py, unsafe { ffi::PyObject_IsTrue(a.as_ptr()) })),
        ([a], OpName::Neg) => Some(owned(py, unsafe { ffi::PyNumber_Negative(a.as_ptr()) })),
        ([a], OpName::Type) => Some(Ok(a.get_type().into_any())),
        ([a], OpName::Iter) => Some(owned(py, unsafe { ffi::PyObject_GetIter(a.as_ptr()) })),
        ([a], OpName::Len) => {
            let n = unsafe { ffi::PyObject_Size(a.as_ptr()) };
            if n < 0 {
                Some(Err(PyErr::fetch(py)))
            } else {
                Some(
                    n.into_pyobject(py)
                        .map(|i| i.into_any())
                        .map_err(|e| match e {}),
                )
            }
        }
        ([a], OpName::Next) => {
            if unsafe { ffi::PyIter_Check(a.as_ptr()) } == 0 {
                return None; // builtins.next raises the TypeError
            }
            // PyIter_Send, unlike PyIter_Next, keeps what a generator
            // returned (the value of `yield from`)
            let none = py.None();
            let mut item: *mut ffi::PyObject = std::ptr::null_mut();
            match unsafe { ffi::PyIter_Send(a.as_ptr(), none.as_ptr(), &mut item) } {
                ffi::PySendResult::PYGEN_NEXT => Some(owned(py, item)),
                ffi::PySendResult::PYGEN_RETURN => {
                    let value = owned(py, item)
                        .map(|v| v.unbind())
                        .unwrap_or_else(|_| py.None());
                    Some(Err(if value.is_none(py) {
                        PyStopIteration::new_err(())
                    } else {
                        PyStopIteration::new_err((value,))
                    }))
                }
                ffi::PySendResult::PYGEN_ERROR => Some(Err(
                    PyErr::take(py).unwrap_or_else(|| PyStopIteration::new_err(()))
                )),
            }
        }
        ([a, b, c], OpName::Setattr) => Some(status(py, unsafe {
            ffi::PyObject_SetAttr(a.as_ptr(), b.as_ptr(), c.as_ptr())
        })),
        ([a, b, c], OpName::Setitem) => Some(status(py, unsafe {
            ffi::PyObject_SetItem(a.as_ptr(), b.as_ptr(), c.as_ptr())
        })),
        _ => None,
    }
}
