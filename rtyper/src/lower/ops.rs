//! Arithmetic, comparisons and identity.

use rpy3_annotator::model::IntKind;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{BOOL, SIGNED};
use rpy3_model::SpaceOperation;

use super::{int_op, is_ovfchecked, name, Cx};
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    pub(super) fn arith(&mut self, op: &SpaceOperation, next: Option<&SpaceOperation>) -> Result<(), RTypeError> {
        use rpy3_model::OpName as H;
        let r = self.result_repr(op)?;
        let base = match op.opname {
            H::InplaceAdd => H::Add,
            H::InplaceSub => H::Sub,
            H::InplaceMul => H::Mul,
            H::InplaceFloordiv => H::Floordiv,
            H::InplaceMod => H::Mod,
            H::InplaceTruediv => H::Truediv,
            H::InplacePow => H::Pow,
            H::InplaceLshift => H::Lshift,
            H::InplaceRshift => H::Rshift,
            H::InplaceAnd => H::And_,
            H::InplaceOr => H::Or_,
            H::InplaceXor => H::Xor,
            o => o,
        };
        let t = r.lowleveltype(self.rt);
        let ovf = is_ovfchecked(op, next);
        match &r {
            Repr::Int(k) => {
                let shift = matches!(base, H::Lshift | H::Rshift);
                let a = self.input(&op.args[0], &r)?;
                let b = if shift { self.input(&op.args[1], &Repr::Int(IntKind::Signed))? } else { self.input(&op.args[1], &r)? };
                let u = k.unsigned();
                let llop = match (base, u, ovf) {
                    (H::Add, false, true) => LlOp::IntAddOvf,
                    (H::Sub, false, true) => LlOp::IntSubOvf,
                    (H::Mul, false, true) => LlOp::IntMulOvf,
                    (H::Floordiv, false, true) => LlOp::IntFloordivOvf,
                    (H::Mod, false, true) => LlOp::IntModOvf,
                    (H::Lshift, false, true) => LlOp::IntLshiftOvf,
                    (H::Add, _, _) => int_op(*k, LlOp::IntAdd, LlOp::UintAdd),
                    (H::Sub, _, _) => int_op(*k, LlOp::IntSub, LlOp::UintSub),
                    (H::Mul, _, _) => int_op(*k, LlOp::IntMul, LlOp::UintMul),
                    (H::Floordiv, _, _) => int_op(*k, LlOp::IntFloordiv, LlOp::UintFloordiv),
                    (H::Mod, _, _) => int_op(*k, LlOp::IntMod, LlOp::UintMod),
                    (H::And_, _, _) => int_op(*k, LlOp::IntAnd, LlOp::UintAnd),
                    (H::Or_, _, _) => int_op(*k, LlOp::IntOr, LlOp::UintOr),
                    (H::Xor, _, _) => int_op(*k, LlOp::IntXor, LlOp::UintXor),
                    (H::Lshift, _, _) => int_op(*k, LlOp::IntLshift, LlOp::UintLshift),
                    (H::Rshift, _, _) => int_op(*k, LlOp::IntRshift, LlOp::UintRshift),
                    (H::Pow, false, _) => LlOp::IntPow,
                    _ => return Err(RTypeError::unsupported(&format!("{} on {r:?}", op.opname))),
                };
                let v = self.emit(llop, vec![a, b], t);
                self.finish(op.result, v);
            }
            Repr::Float => {
                let a = self.input(&op.args[0], &r)?;
                let b = self.input(&op.args[1], &r)?;
                let llop = match base {
                    H::Add => LlOp::FloatAdd,
                    H::Sub => LlOp::FloatSub,
                    H::Mul => LlOp::FloatMul,
                    H::Truediv => LlOp::FloatTruediv,
                    H::Floordiv => LlOp::FloatFloordiv,
                    H::Mod => LlOp::FloatMod,
                    H::Pow => LlOp::FloatPow,
                    _ => return Err(RTypeError::unsupported(&format!("{} on floats", op.opname))),
                };
                let v = self.emit(llop, vec![a, b], t);
                self.finish(op.result, v);
            }
            Repr::Bool => {
                let ir = Repr::Int(IntKind::Signed);
                let a = self.input(&op.args[0], &ir)?;
                let b = self.input(&op.args[1], &ir)?;
                let llop = match base {
                    H::And_ => LlOp::IntAnd,
                    H::Or_ => LlOp::IntOr,
                    H::Xor => LlOp::IntXor,
                    _ => return Err(RTypeError::unsupported(&format!("{} on bools", op.opname))),
                };
                let v = self.emit(llop, vec![a, b], SIGNED);
                let v = self.emit(LlOp::IntIsTrue, vec![v], BOOL);
                self.finish(op.result, v);
            }
            Repr::Tuple(items) if base == H::Add => {
                let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
                let (Repr::Tuple(ia), Repr::Tuple(ib)) = (ra.clone(), rb.clone()) else {
                    return Err(RTypeError::unsupported("adding these values"));
                };
                let a = self.input(&op.args[0], &ra)?;
                let b = self.input(&op.args[1], &rb)?;
                let mut vals = Vec::new();
                for (src, its) in [(a, ia), (b, ib)] {
                    for (i, ir) in its.iter().enumerate() {
                        let v = self.emit(LlOp::Getfield, vec![src.clone(), name(self.py, &format!("item{i}"))], ir.lowleveltype(self.rt));
                        let want = items[vals.len()].clone();
                        vals.push(self.convert(v, ir, &want)?);
                    }
                }
                let tup = self.new_tuple(items, vals)?;
                self.finish(op.result, tup);
            }
            _ => return Err(RTypeError::unsupported(&format!("{} giving {r:?} (strings and containers are the containers issue)", op.opname))),
        }
        Ok(())
    }

    pub(super) fn compare(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        use rpy3_model::OpName as H;
        let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
        let common = match (&ra, &rb) {
            (Repr::Float, _) | (_, Repr::Float) => Repr::Float,
            (Repr::Int(a), Repr::Int(b)) if a.unsigned() || b.unsigned() => Repr::Int(IntKind::Unsigned),
            (Repr::Int(_) | Repr::Bool, Repr::Int(_) | Repr::Bool) => Repr::Int(IntKind::Signed),
            (Repr::UniChar, Repr::UniChar) => Repr::UniChar,
            (Repr::Char, Repr::Char) => Repr::Char,
            (Repr::Instance(_), Repr::Instance(_)) | (Repr::Instance(_), Repr::Void) | (Repr::Void, Repr::Instance(_))
                if matches!(op.opname, H::Eq | H::Ne) =>
            {
                return self.identity(op, op.opname == H::Ne);
            }
            _ => return Err(RTypeError::unsupported(&format!("comparing {ra:?} and {rb:?}"))),
        };
        let a = self.input(&op.args[0], &common)?;
        let b = self.input(&op.args[1], &common)?;
        let pick = |i: usize| -> LlOp {
            let table: [[LlOp; 6]; 5] = [
                [LlOp::IntLt, LlOp::IntLe, LlOp::IntEq, LlOp::IntNe, LlOp::IntGt, LlOp::IntGe],
                [LlOp::UintLt, LlOp::UintLe, LlOp::UintEq, LlOp::UintNe, LlOp::UintGt, LlOp::UintGe],
                [LlOp::FloatLt, LlOp::FloatLe, LlOp::FloatEq, LlOp::FloatNe, LlOp::FloatGt, LlOp::FloatGe],
                [LlOp::UnicharLt, LlOp::UnicharLe, LlOp::UnicharEq, LlOp::UnicharNe, LlOp::UnicharGt, LlOp::UnicharGe],
                [LlOp::CharLt, LlOp::CharLe, LlOp::CharEq, LlOp::CharNe, LlOp::CharGt, LlOp::CharGe],
            ];
            let row = match &common {
                Repr::Int(IntKind::Signed) => 0,
                Repr::Int(_) => 1,
                Repr::Float => 2,
                Repr::UniChar => 3,
                _ => 4,
            };
            table[row][i]
        };
        let i = match op.opname {
            H::Lt => 0,
            H::Le => 1,
            H::Eq => 2,
            H::Ne => 3,
            H::Gt => 4,
            _ => 5,
        };
        let v = self.emit(pick(i), vec![a, b], BOOL);
        self.finish(op.result, v);
        Ok(())
    }

    /// `is` / `==` on instances and None: pointer identity.
    pub(super) fn identity(&mut self, op: &SpaceOperation, negate: bool) -> Result<(), RTypeError> {
        let (ra, rb) = (self.repr_of(&op.args[0])?, self.repr_of(&op.args[1])?);
        let v = match (&ra, &rb) {
            (Repr::Instance(_), Repr::Void) | (Repr::Void, Repr::Instance(_)) => {
                let (h, r) = if ra == Repr::Void { (&op.args[1], &rb) } else { (&op.args[0], &ra) };
                let x = self.input(h, r)?;
                self.emit(if negate { LlOp::PtrNonzero } else { LlOp::PtrIszero }, vec![x], BOOL)
            }
            (Repr::Instance(_) | Repr::Class, Repr::Instance(_) | Repr::Class) => {
                let a = self.input(&op.args[0], &ra)?;
                let b = self.input(&op.args[1], &rb)?;
                let (a, b) = if matches!(ra, Repr::Instance(_)) { (self.object_ptr_of(a)?, self.object_ptr_of(b)?) } else { (a, b) };
                self.emit(if negate { LlOp::PtrNe } else { LlOp::PtrEq }, vec![a, b], BOOL)
            }
            (Repr::Int(_) | Repr::Bool, Repr::Int(_) | Repr::Bool) => {
                let ir = Repr::Int(IntKind::Signed);
                let a = self.input(&op.args[0], &ir)?;
                let b = self.input(&op.args[1], &ir)?;
                self.emit(if negate { LlOp::IntNe } else { LlOp::IntEq }, vec![a, b], BOOL)
            }
            _ => return Err(RTypeError::unsupported(&format!("identity of {ra:?} and {rb:?}"))),
        };
        self.finish(op.result, v);
        Ok(())
    }

    pub(super) fn is_(&mut self, op: &SpaceOperation) -> Result<(), RTypeError> {
        self.identity(op, false)
    }

}
