//! Built-in functions called from the program (`range`, `intmask`,
//! `int`, `min`, `isinstance`, ...).

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, BOOL, SIGNED, UNSIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::{int_op, name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    pub(super) fn builtin_call(&mut self, builtin: &str, args: &[Hlvalue], op: &SpaceOperation) -> Result<Hlvalue, RTypeError> {
        let want = self.result_repr(op)?;
        let t = want.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        Ok(match builtin {
            "range" => {
                let (_, pr, st, _) = self.rt.range_types();
                let _ = st;
                let range_struct = self.rt.range_types().0;
                let tc = type_const(self.py, range_struct)?;
                let p = self.emit(LlOp::Malloc, vec![tc], pr);
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let one = value_const(self.py, LlValue::Int(1), SIGNED)?;
                let (start, stop, step) = match args.len() {
                    1 => (zero, self.input(&args[0], &int)?, one),
                    2 => (self.input(&args[0], &int)?, self.input(&args[1], &int)?, one),
                    _ => (self.input(&args[0], &int)?, self.input(&args[1], &int)?, self.input(&args[2], &int)?),
                };
                for (f, v) in [("start", start), ("stop", stop), ("step", step)] {
                    self.emit(LlOp::Setfield, vec![p.clone(), name(self.py, f), v], VOID);
                }
                p
            }
            "intmask" | "r_int" | "r_longlong" => {
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                match r {
                    Repr::Int(k) if k.unsigned() => self.emit(LlOp::CastUintToInt, vec![x], SIGNED),
                    _ => self.input(&args[0], &int)?,
                }
            }
            "r_uint" | "r_ulonglong" => self.input(&args[0], &Repr::Int(IntKind::Unsigned))?,
            "widen" | "ovfcheck" => {
                self.input(&args[0], &want)?
            }
            "float" => self.input(&args[0], &Repr::Float)?,
            "int" => {
                let r = self.repr_of(&args[0])?;
                match r {
                    Repr::Float => {
                        let x = self.input(&args[0], &r)?;
                        self.emit(LlOp::CastFloatToInt, vec![x], SIGNED)
                    }
                    _ => self.input(&args[0], &int)?,
                }
            }
            "bool" => {
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                match r {
                    Repr::Bool => x,
                    Repr::Int(k) => self.emit(int_op(k, LlOp::IntIsTrue, LlOp::UintIsTrue), vec![x], BOOL),
                    Repr::Float => self.emit(LlOp::FloatIsTrue, vec![x], BOOL),
                    Repr::Instance(_) => self.emit(LlOp::PtrNonzero, vec![x], BOOL),
                    _ => return Err(RTypeError::unsupported("bool() of this value")),
                }
            }
            "abs" => {
                let x = self.input(&args[0], &want)?;
                match want {
                    Repr::Float => self.emit(LlOp::FloatAbs, vec![x], t),
                    Repr::Int(k) if !k.unsigned() => self.emit(LlOp::IntAbs, vec![x], t),
                    _ => x,
                }
            }
            "min" | "max" if args.len() == 2 => {
                let a = self.input(&args[0], &want)?;
                let b = self.input(&args[1], &want)?;
                // min(a, b) = b if b < a else a, without branches: via a helper
                // would be nicer; here: select through arithmetic on bools
                let lt = match &want {
                    Repr::Int(k) => int_op(*k, LlOp::IntLt, LlOp::UintLt),
                    Repr::Float => LlOp::FloatLt,
                    _ => return Err(RTypeError::unsupported("min/max of these values")),
                };
                let cond = if builtin == "min" { self.emit(lt, vec![b.clone(), a.clone()], BOOL) } else { self.emit(lt, vec![a.clone(), b.clone()], BOOL) };
                self.select(cond, b, a, &want)?
            }
            "isinstance" => {
                let r = self.repr_of(&args[0])?;
                let Repr::Instance(_) = r else { return Err(RTypeError::unsupported("isinstance() of a non-instance")) };
                let x = self.input(&args[0], &r)?;
                let obj = self.object_ptr_of(x)?;
                let cls = match &args[1] {
                    Hlvalue::Constant(c) => c.value.clone(),
                    _ => return Err(RTypeError::unsupported("isinstance() with a variable class")),
                };
                if cls.bind(self.py).is_instance_of::<pyo3::types::PyTuple>() {
                    return Err(RTypeError::unsupported("isinstance() with a tuple of classes"));
                }
                let c = self.rt.classdef_of_class(self.py, cls.bind(self.py))?;
                let vt = value_const(self.py, LlValue::Ptr(Some(self.rt.classes.vtable(c))), self.rt.objmodel.vtable_ptr)?;
                let helper = self.rt.helper_isinstance(self.py);
                let f = self.func_const(helper)?;
                self.emit(LlOp::DirectCall, vec![f, obj, vt], BOOL)
            }
            other => return Err(RTypeError::unsupported(&format!("the built-in {other}()"))),
        })
    }

    /// `if cond then a else b` without branching: `b + (a - b) * cond` on
    /// the integer or float representation.
    fn select(&mut self, cond: Hlvalue, a: Hlvalue, b: Hlvalue, r: &Repr) -> Result<Hlvalue, RTypeError> {
        let t = r.lowleveltype(self.rt);
        Ok(match r {
            Repr::Int(k) if !k.unsigned() => {
                let c = self.emit(LlOp::CastBoolToInt, vec![cond], SIGNED);
                let d = self.emit(LlOp::IntSub, vec![a, b.clone()], t);
                let m = self.emit(LlOp::IntMul, vec![d, c], t);
                self.emit(LlOp::IntAdd, vec![b, m], t)
            }
            Repr::Int(_) => {
                let c = self.emit(LlOp::CastBoolToUint, vec![cond], UNSIGNED);
                let d = self.emit(LlOp::UintSub, vec![a, b.clone()], t);
                let m = self.emit(LlOp::UintMul, vec![d, c], t);
                self.emit(LlOp::UintAdd, vec![b, m], t)
            }
            _ => return Err(RTypeError::unsupported("min/max of floats")),
        })
    }
}
