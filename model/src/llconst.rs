//! Low-level constants as Python objects (PyPy keeps low-level values as
//! Python objects in `Constant`s; so do we): primitives are Python ints,
//! floats, bools and one-character strs; types, pointers and function
//! pointers are the small wrapper classes below.  Executors convert each
//! constant once, with [`ll_value`], when they load a graph.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use crate::graph::Constant;
use crate::lltype::{FuncRef, LlType, LlValue, Primitive, Ptr, TypeDef};
use crate::pyobj::PyObj;

/// A low-level type as a constant (the `Void` argument of `malloc`,
/// `cast_pointer`).
#[pyclass(frozen, module = "rpy3.lltype", name = "LowLevelType")]
pub struct LlTypeConst {
    /// The type.
    pub ty: LlType,
}

#[pymethods]
impl LlTypeConst {
    fn __repr__(&self) -> String {
        self.ty.to_string()
    }
}

/// A pointer to a prebuilt heap object (or null).
#[pyclass(frozen, module = "rpy3.lltype", name = "PrebuiltPtr")]
pub struct LlPtrConst {
    /// The pointer.
    pub ptr: Option<Ptr>,
    /// The pointer type.
    pub ty: LlType,
}

#[pymethods]
impl LlPtrConst {
    fn __repr__(&self) -> String {
        match &self.ptr {
            None => format!("<null {}>", self.ty),
            Some(p) => format!("<{} #{}>", self.ty, p.obj),
        }
    }
}

/// A pointer to a function of the program.
#[pyclass(frozen, module = "rpy3.lltype", name = "FuncPtr")]
pub struct LlFuncConst {
    /// The function.
    pub func: FuncRef,
    /// Its name, for printing.
    pub name: String,
}

#[pymethods]
impl LlFuncConst {
    fn __repr__(&self) -> String {
        format!("<* fn {}>", self.name)
    }
}

fn wrap<T: pyo3::PyClass + Into<pyo3::PyClassInitializer<T>>>(
    py: Python<'_>,
    v: T,
) -> PyResult<PyObj> {
    Ok(PyObj::new(Bound::new(py, v)?.as_any()))
}

/// A `Void` constant holding a type.
pub fn type_constant(py: Python<'_>, ty: LlType) -> PyResult<Constant> {
    Ok(Constant::typed(
        wrap(py, LlTypeConst { ty })?,
        crate::lltype::VOID,
    ))
}

/// A `Void` constant holding a name (a field name).
pub fn name_constant(py: Python<'_>, name: &str) -> Constant {
    Constant::typed(
        PyObj::new(PyString::new(py, name).as_any()),
        crate::lltype::VOID,
    )
}

/// A pointer constant.
pub fn ptr_constant(py: Python<'_>, ptr: Option<Ptr>, ty: LlType) -> PyResult<Constant> {
    Ok(Constant::typed(wrap(py, LlPtrConst { ptr, ty })?, ty))
}

/// A function pointer constant.
pub fn func_constant(py: Python<'_>, func: FuncRef, name: &str) -> PyResult<Constant> {
    let ty =
        LlType::ptr(func.ty).map_err(|e| pyo3::exceptions::PyTypeError::new_err(e.to_string()))?;
    Ok(Constant::typed(
        wrap(
            py,
            LlFuncConst {
                func,
                name: name.to_string(),
            },
        )?,
        ty,
    ))
}

/// A primitive constant of type `ty`.
pub fn primitive_constant(py: Python<'_>, v: LlValue, ty: LlType) -> PyResult<Constant> {
    let obj: Bound<'_, PyAny> = match v {
        LlValue::Void => py.None().into_bound(py),
        LlValue::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
        LlValue::Int(i) => PyInt::new(py, i).into_any(),
        LlValue::UInt(u) => u.into_pyobject(py)?.into_any(),
        LlValue::Float(f) => PyFloat::new(py, f).into_any(),
        LlValue::Char(c) => PyString::new(py, &(c as char).to_string()).into_any(),
        LlValue::UniChar(c) => {
            let ch = char::from_u32(c)
                .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("bad code point"))?;
            PyString::new(py, &ch.to_string()).into_any()
        }
        LlValue::Ptr(_) | LlValue::Func(_) => {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "not a primitive value",
            ));
        }
    };
    Ok(Constant::typed(PyObj::new(&obj), ty))
}

/// The low-level value of a typed constant.
pub fn ll_value(py: Python<'_>, c: &Constant) -> Result<LlValue, String> {
    let ty = c
        .concretetype
        .ok_or_else(|| "constant without a low-level type".to_string())?;
    let obj = c.value.bind(py);
    let bad = || {
        format!(
            "constant {} is not a value of type {ty}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        )
    };
    match ty.def() {
        TypeDef::Primitive(p) => Ok(match p {
            Primitive::Void => LlValue::Void,
            Primitive::Bool => LlValue::Bool(obj.extract::<bool>().map_err(|_| bad())?),
            Primitive::Signed | Primitive::SignedLongLong => {
                // ints wrap to the machine word, as translated code does
                let v: i128 = obj.extract().map_err(|_| bad())?;
                LlValue::Int(v as i64)
            }
            Primitive::Unsigned | Primitive::UnsignedLongLong => {
                let v: i128 = obj.extract().map_err(|_| bad())?;
                LlValue::UInt(v as u64)
            }
            Primitive::Float => LlValue::Float(obj.extract::<f64>().map_err(|_| bad())?),
            Primitive::Char => {
                let s: String = obj.extract().map_err(|_| bad())?;
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(ch), None) if (ch as u32) < 256 => LlValue::Char(ch as u32 as u8),
                    _ => return Err(bad()),
                }
            }
            Primitive::UniChar => {
                let s: String = obj.extract().map_err(|_| bad())?;
                let mut it = s.chars();
                match (it.next(), it.next()) {
                    (Some(ch), None) => LlValue::UniChar(ch as u32),
                    _ => return Err(bad()),
                }
            }
        }),
        TypeDef::Ptr(target) => {
            if let Ok(p) = obj.cast::<LlPtrConst>() {
                return Ok(LlValue::Ptr(p.get().ptr));
            }
            if let Ok(f) = obj.cast::<LlFuncConst>() {
                if matches!(target.def(), TypeDef::Func { .. }) {
                    return Ok(LlValue::Func(f.get().func));
                }
            }
            if obj.is_none() {
                return Ok(LlValue::Ptr(None));
            }
            Err(bad())
        }
        _ => Err(bad()),
    }
}

/// The type held by a `Void` type constant.
pub fn type_of_constant(py: Python<'_>, c: &Constant) -> Option<LlType> {
    c.value
        .bind(py)
        .cast::<LlTypeConst>()
        .ok()
        .map(|t| t.get().ty)
}

/// The name held by a `Void` name constant.
pub fn name_of_constant(py: Python<'_>, c: &Constant) -> Option<String> {
    c.value.bind(py).extract().ok()
}
