//! Small graph-building helpers of the passes.

use pyo3::prelude::*;
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, TypeDef, BOOL, VOID};
use rpy3_model::{Constant, FunctionGraph, Hlvalue, OpName, SpaceOperation, VarId};

use crate::PrepError;

/// The low-level type of a value of `g`.
pub(crate) fn type_of(g: &FunctionGraph, h: &Hlvalue) -> Option<LlType> {
    match h {
        Hlvalue::Variable(v) => g.vars[*v].concretetype,
        Hlvalue::Constant(c) => c.concretetype,
    }
}

/// A fresh variable of type `ty`.
pub(crate) fn new_var(g: &mut FunctionGraph, hint: &str, ty: LlType) -> VarId {
    let v = g.new_var(hint);
    g.vars[v].concretetype = Some(ty);
    v
}

/// A fresh variable like `v` (same hint and type).
pub(crate) fn copy_var(g: &mut FunctionGraph, v: VarId) -> VarId {
    let ty = g.vars[v].concretetype;
    let n = g.copy_var(v);
    g.vars[n].concretetype = ty;
    n
}

/// `result = op(args)`.
pub(crate) fn op(op: LlOp, args: Vec<Hlvalue>, result: VarId, lineno: u32) -> SpaceOperation {
    SpaceOperation {
        opname: OpName::Ll(op),
        args,
        result,
        lineno,
    }
}

/// The zero of a type, as a constant (what a function returns when it
/// leaves with an exception pending).
pub(crate) fn zero_constant(py: Python<'_>, ty: LlType, func: &str) -> Result<Constant, PrepError> {
    let err = |e: PyErr| PrepError::new(func, format!("cannot make the zero of {ty}: {e}"));
    match ty.def() {
        TypeDef::Ptr(_) => llconst::ptr_constant(py, None, ty).map_err(err),
        TypeDef::Primitive(_) => {
            llconst::primitive_constant(py, ty.default_value(), ty).map_err(err)
        }
        _ => Err(PrepError::new(
            func,
            format!("a function returning {ty} cannot be left with an exception"),
        )),
    }
}

/// A `Bool` constant (a link's exitcase in a two-way switch).
pub(crate) fn bool_constant(py: Python<'_>, b: bool) -> Constant {
    llconst::primitive_constant(py, LlValue::Bool(b), BOOL).expect("a bool constant")
}

/// A `Void` constant holding a field name.
pub(crate) fn name_constant(py: Python<'_>, name: &str) -> Hlvalue {
    Hlvalue::Constant(llconst::name_constant(py, name))
}

/// A fresh `Void` result variable.
pub(crate) fn void_var(g: &mut FunctionGraph) -> VarId {
    new_var(g, "v", VOID)
}

/// The variables an operation, a switch or links of `g` read.
pub(crate) fn uses(h: &Hlvalue, out: &mut Vec<VarId>) {
    if let Hlvalue::Variable(v) = h {
        out.push(*v);
    }
}
