//! Numbers whose kind is known at run time only (`Repr::Number`: an int
//! that met a float, `return 0` in a function that also returns floats,
//! `s = 0` summing floats).  The value is a pointer to a `number` box
//! `{isint, i, f}`; `f` is always the value as a float, so the conversion
//! to a float reads it, and operations whose result is such a number call
//! the helpers of `rpy3.lltypesystem.rnumber`, which give an int for two
//! ints and a float otherwise, as CPython does.

use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, FLOAT, SIGNED, VOID};
use rpy3_model::{Hlvalue, OpName, SpaceOperation};

use super::{name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::Repr;
use crate::RTypeError;

/// The module of the helpers.
pub const RNUMBER: &str = "rpy3.lltypesystem.rnumber";

impl Cx<'_, '_, '_, '_> {
    /// Calls helper `helper` of `rnumber` on number boxes and ints.
    pub(super) fn number_helper(
        &mut self,
        helper: &str,
        args: Vec<(Hlvalue, Repr)>,
    ) -> Result<(Hlvalue, LlType), RTypeError> {
        let mut anns = Vec::new();
        for (v, r) in args {
            let a = match r {
                Repr::Number | Repr::IntBool => SomeValue::Ptr(self.rt.number_ptr()),
                Repr::Int(_) => SomeValue::int(),
                Repr::Str => SomeValue::Ptr(Repr::Str.lowleveltype(self.rt)),
                other => {
                    return Err(RTypeError::new(format!(
                        "internal error: a number helper given {other:?}"
                    )))
                }
            };
            anns.push((v, a));
        }
        self.call_helper_in(RNUMBER, helper, anns)
    }

    /// A new number box of an int, a bool or a float `v` of repr `have`.
    pub(super) fn box_number(&mut self, v: Hlvalue, have: &Repr) -> Result<Hlvalue, RTypeError> {
        let (isint, i, f) = match have {
            Repr::Float => (false, value_const(self.py, LlValue::Int(0), SIGNED)?, v),
            Repr::Int(_) | Repr::Bool => {
                let i = self.convert(v, have, &Repr::Int(rpy3_annotator::model::IntKind::Signed))?;
                let f = self.emit(LlOp::CastIntToFloat, vec![i.clone()], FLOAT);
                (true, i, f)
            }
            other => return Err(RTypeError::new(format!("cannot convert {other:?} to a number"))),
        };
        let st = self.rt.number_struct();
        let b = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], self.rt.number_ptr());
        let isbool = value_const(self.py, LlValue::Bool(*have == Repr::Bool), BOOL)?;
        let isint = value_const(self.py, LlValue::Bool(isint), BOOL)?;
        for (field, x) in [("isint", isint), ("isbool", isbool), ("i", i), ("f", f)] {
            self.emit(
                LlOp::Setfield,
                vec![b.clone(), name(self.py, field), x],
                VOID,
            );
        }
        Ok(b)
    }

    /// A number box as a float (its `f`) or, where the annotator knows it
    /// is an int (`isinstance(x, int)`), as an int.
    pub(super) fn unbox_number(&mut self, v: Hlvalue, want: &Repr) -> Result<Hlvalue, RTypeError> {
        match want {
            Repr::Float => Ok(self.emit(LlOp::Getfield, vec![v, name(self.py, "f")], FLOAT)),
            Repr::Int(rpy3_annotator::model::IntKind::Signed) => {
                Ok(self.number_helper("ll_num_as_int", vec![(v, Repr::Number)])?.0)
            }
            _ => {
                let f = self.emit(LlOp::Getfield, vec![v, name(self.py, "f")], FLOAT);
                self.convert(f, &Repr::Float, want)
            }
        }
    }

    /// An int that may be a bool (`Repr::IntBool`) as an int, a bool or a
    /// float: its `i` (its `f` for a float).
    pub(super) fn unbox_intbool(&mut self, v: Hlvalue, want: &Repr) -> Result<Hlvalue, RTypeError> {
        if *want == Repr::Float {
            return Ok(self.emit(LlOp::Getfield, vec![v, name(self.py, "f")], FLOAT));
        }
        let i = self.emit(LlOp::Getfield, vec![v, name(self.py, "i")], SIGNED);
        self.convert(i, &Repr::Int(rpy3_annotator::model::IntKind::Signed), want)
    }

    /// An arithmetic operation whose result is a number of either kind.
    pub(super) fn number_arith(
        &mut self,
        op: &SpaceOperation,
        base: OpName,
    ) -> Result<(), RTypeError> {
        let helper = match base {
            OpName::Add => "ll_num_add",
            OpName::Sub => "ll_num_sub",
            OpName::Mul => "ll_num_mul",
            OpName::Floordiv => "ll_num_floordiv",
            OpName::Mod => "ll_num_mod",
            OpName::Pow => "ll_num_pow",
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "{} on an int or a float",
                    op.opname
                )))
            }
        };
        let a = self.input(&op.args[0], &Repr::Number)?;
        let b = self.input(&op.args[1], &Repr::Number)?;
        let (v, _) = self.number_helper(helper, vec![(a, Repr::Number), (b, Repr::Number)])?;
        self.finish(op.result, v);
        Ok(())
    }

    /// `-x`, `+x` or `abs(x)` of a number of either kind.
    pub(super) fn number_unary(&mut self, x: Hlvalue, base: OpName) -> Result<Hlvalue, RTypeError> {
        Ok(match base {
            OpName::Pos => x,
            OpName::Neg => self.number_helper("ll_num_neg", vec![(x, Repr::Number)])?.0,
            OpName::Abs => self.number_helper("ll_num_abs", vec![(x, Repr::Number)])?.0,
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "{other} on an int or a float"
                )))
            }
        })
    }

    /// `str(x)` (and `repr(x)`) of a number of either kind.
    pub(super) fn number_text(&mut self, x: Hlvalue) -> Result<Hlvalue, RTypeError> {
        Ok(self.number_helper("ll_num_str", vec![(x, Repr::Number)])?.0)
    }

    /// `format(x, spec)` of a number of either kind: as an int or as a
    /// float, by its kind at run time.
    pub(super) fn number_format(&mut self, x: Hlvalue, spec: Hlvalue) -> Result<Hlvalue, RTypeError> {
        Ok(self
            .number_helper("ll_num_format", vec![(x, Repr::Number), (spec, Repr::Str)])?
            .0)
    }
}
