//! Operations of low-level helpers written in the ll dialect: fields,
//! items and lengths through low-level pointers, `malloc`, `nullptr`,
//! `cast_pointer`.

use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, TypeDef, BOOL, SIGNED, VOID};
use rpy3_model::{Hlvalue, OpName, SpaceOperation};

use super::{name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// Lowers `op` if it works on low-level pointers; false otherwise.
    pub(super) fn lower_ll(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        if op.opname == H::Getattr && matches!(self.s(&op.args[0]), SomeValue::LowLevelType(_)) {
            // a type of a helper (`typeOf(l).TO`): known from the annotation
            let v = value_const(self.py, LlValue::Void, VOID)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let r0 = match op.args.first() {
            Some(a) if op.opname != H::SimpleCall => self.repr_of(a)?,
            _ => return self.lower_ll_call(op),
        };
        let (ptr_t, interior) = match &r0 {
            Repr::LlPtr(t) => (*t, None),
            Repr::Interior(t, f) => (*t, Some(f.clone())),
            _ => return Ok(false),
        };
        let want = self.result_repr(op)?;
        let p = self.input(&op.args[0], &r0)?;
        let v = match (op.opname, &interior) {
            (H::Getattr | H::Setattr, None) => {
                let attr: String = match &op.args[1] {
                    Hlvalue::Constant(c) => {
                        pyo3::prelude::PyAnyMethods::extract(c.value.bind(self.py))
                            .map_err(|_| RTypeError::new("field name"))?
                    }
                    _ => return Err(RTypeError::new("field name is not a constant")),
                };
                let target = ptr_t
                    .target()
                    .ok_or_else(|| RTypeError::new("not a pointer"))?;
                let (path, ft) = rpy3_annotator::lldialect::find_field(target, &attr)
                    .ok_or_else(|| RTypeError::new(format!("{target} has no field '{attr}'")))?;
                let mut p = p;
                if let Some(owner) = path.last() {
                    let pt = LlType::ptr(*owner).map_err(|e| RTypeError::new(e.to_string()))?;
                    p = self.emit(LlOp::CastPointer, vec![type_const(self.py, pt)?, p], pt);
                }
                if op.opname == H::Setattr {
                    let fr = self.field_repr(ft)?;
                    let v = self.input(&op.args[2], &fr)?;
                    self.emit(LlOp::Setfield, vec![p, name(self.py, &attr), v], VOID);
                    value_const(self.py, LlValue::Void, VOID)?
                } else if matches!(ft.def(), TypeDef::Array { gc: false, .. }) {
                    // the interior array is represented by its struct pointer
                    p
                } else {
                    let v = self.emit(LlOp::Getfield, vec![p, name(self.py, &attr)], ft);
                    let fr = self.field_repr(ft)?;
                    self.convert(v, &fr, &want)?
                }
            }
            (H::Getitem, _) | (H::Setitem, _) => {
                let i = self.input(
                    &op.args[1],
                    &Repr::Int(rpy3_annotator::model::IntKind::Signed),
                )?;
                let item = match &interior {
                    None => ptr_t.target().and_then(|t| t.varsize_item()),
                    Some(f) => ptr_t
                        .target()
                        .and_then(|t| t.field_type(f))
                        .and_then(|a| a.varsize_item()),
                }
                .ok_or_else(|| RTypeError::new("indexing a pointer that is not to an array"))?;
                let ir = self.field_repr(item)?;
                if op.opname == H::Setitem {
                    let v = self.input(&op.args[2], &ir)?;
                    match &interior {
                        None => self.emit(LlOp::Setarrayitem, vec![p, i, v], VOID),
                        Some(f) => self.emit(
                            LlOp::Setinteriorfield,
                            vec![p, name(self.py, f), i, v],
                            VOID,
                        ),
                    };
                    value_const(self.py, LlValue::Void, VOID)?
                } else {
                    let v = match &interior {
                        None => self.emit(LlOp::Getarrayitem, vec![p, i], item),
                        Some(f) => {
                            self.emit(LlOp::Getinteriorfield, vec![p, name(self.py, f), i], item)
                        }
                    };
                    self.convert(v, &ir, &want)?
                }
            }
            (H::Len, _) => match &interior {
                None => self.emit(LlOp::Getarraysize, vec![p], SIGNED),
                Some(f) => self.emit(
                    LlOp::Getinteriorarraysize,
                    vec![p, name(self.py, f)],
                    SIGNED,
                ),
            },
            (H::Bool, None) => self.emit(LlOp::PtrNonzero, vec![p], BOOL),
            (H::Is_ | H::Eq | H::Ne, None) => {
                let q = self.input(&op.args[1], &r0)?;
                self.emit(
                    if op.opname == H::Ne {
                        LlOp::PtrNe
                    } else {
                        LlOp::PtrEq
                    },
                    vec![p, q],
                    BOOL,
                )
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "the operation {} on low-level pointers",
                    op.opname
                )))
            }
        };
        self.finish(op.result, v);
        Ok(true)
    }

    /// The repr of values of a field or item type.
    fn field_repr(&self, t: LlType) -> Result<Repr, RTypeError> {
        let s = self
            .rt
            .ann
            .ll_annotation(t)
            .map_err(|e| RTypeError::new(e.message))?;
        self.rt.getrepr(&s)
    }

    /// `malloc`, `nullptr`, `cast_pointer`.
    fn lower_ll_call(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        if op.opname != OpName::SimpleCall {
            return Ok(false);
        }
        if let Repr::LlPtr(fp) = self.repr_of(&op.args[0])? {
            // a call through a function pointer
            let Some(TypeDef::Func { args, result }) = fp.target().map(|t| t.def()) else {
                return Err(RTypeError::new(
                    "calling a pointer that is not to a function",
                ));
            };
            let mut all = vec![self.input(&op.args[0], &Repr::LlPtr(fp))?];
            for (a, t) in op.args[1..].iter().zip(args) {
                let r = self.field_repr(t)?;
                all.push(self.input(a, &r)?);
            }
            all.push(value_const(self.py, LlValue::Void, VOID)?);
            let v = self.emit(LlOp::IndirectCall, all, result);
            let rr = self.field_repr(result)?;
            let want = self.result_repr(op)?;
            let v = self.convert(v, &rr, &want)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let SomeValue::Builtin {
            name: builtin,
            s_self: None,
        } = self.s(&op.args[0])
        else {
            return Ok(false);
        };
        if !builtin.starts_with("ll.") {
            return Ok(false);
        }
        let ll_type = |cx: &Self, h: &Hlvalue| -> Result<LlType, RTypeError> {
            match cx.s(h) {
                SomeValue::LowLevelType(t) => Ok(t),
                _ => match h {
                    Hlvalue::Variable(v) => match cx.rt.ann.binding(cx.g, *v) {
                        SomeValue::LowLevelType(t) => Ok(t),
                        _ => Err(RTypeError::new("not a low-level type")),
                    },
                    _ => Err(RTypeError::new("not a low-level type")),
                },
            }
        };
        let want = self.result_repr(op)?;
        let rt_ty = want.lowleveltype(self.rt);
        let v = match builtin {
            "ll.malloc" => {
                let t =
                    ll_type(self, &op.args[1]).or_else(|_| self.rt_lltype_const(&op.args[1]))?;
                let tc = type_const(self.py, t)?;
                if op.args.len() == 3 {
                    let n = self.input(
                        &op.args[2],
                        &Repr::Int(rpy3_annotator::model::IntKind::Signed),
                    )?;
                    self.emit(LlOp::MallocVarsize, vec![tc, n], rt_ty)
                } else {
                    self.emit(LlOp::Malloc, vec![tc], rt_ty)
                }
            }
            "ll.nullptr" => value_const(self.py, LlValue::Ptr(None), rt_ty)?,
            "ll.typeOf" => value_const(self.py, LlValue::Void, VOID)?,
            "ll.str_to_float" => {
                let r = self.repr_of(&op.args[1])?;
                let p = self.input(&op.args[1], &r)?;
                let v = self.emit(LlOp::StrToFloat, vec![p], rpy3_model::lltype::FLOAT);
                self.convert(v, &Repr::Float, &want)?
            }
            "ll.cast_pointer" => {
                let r = self.repr_of(&op.args[2])?;
                let p = self.input(&op.args[2], &r)?;
                self.emit(
                    LlOp::CastPointer,
                    vec![type_const(self.py, rt_ty)?, p],
                    rt_ty,
                )
            }
            "ll.float_format_char" => {
                let int = Repr::Int(rpy3_annotator::model::IntKind::Signed);
                let x = self.input(&op.args[1], &Repr::Float)?;
                let spec = self.input(&op.args[2], &int)?;
                let k = self.input(&op.args[3], &int)?;
                let r = self.emit(
                    LlOp::FloatFormatChar,
                    vec![x, spec, k],
                    rpy3_model::lltype::SIGNED,
                );
                self.convert(r, &int, &want)?
            }
            "ll.unichar_props" => {
                let c = self.input(&op.args[1], &Repr::UniChar)?;
                let r = self.emit(LlOp::UnicharProps, vec![c], rpy3_model::lltype::SIGNED);
                self.convert(r, &Repr::Int(rpy3_annotator::model::IntKind::Signed), &want)?
            }
            "ll.unichar_upper"
            | "ll.unichar_lower"
            | "ll.unichar_title"
            | "ll.unichar_casefold" => {
                let c = self.input(&op.args[1], &Repr::UniChar)?;
                let k = self.input(
                    &op.args[2],
                    &Repr::Int(rpy3_annotator::model::IntKind::Signed),
                )?;
                let llop = match builtin {
                    "ll.unichar_upper" => LlOp::UnicharUpper,
                    "ll.unichar_title" => LlOp::UnicharTitle,
                    "ll.unichar_casefold" => LlOp::UnicharCasefold,
                    _ => LlOp::UnicharLower,
                };
                let r = self.emit(llop, vec![c, k], rpy3_model::lltype::SIGNED);
                self.convert(r, &Repr::Int(rpy3_annotator::model::IntKind::Signed), &want)?
            }
            _ => return Ok(false),
        };
        self.finish(op.result, v);
        Ok(true)
    }

    /// The low-level type of a constant `rpy3.lltype` type object.
    fn rt_lltype_const(&self, h: &Hlvalue) -> Result<LlType, RTypeError> {
        match h {
            Hlvalue::Constant(c) => {
                let obj = c.value.bind(self.py);
                let key = match pyo3::prelude::PyAnyMethods::getattr(obj, "_ident") {
                    Ok(ident) => rpy3_model::PyObj::new(&ident),
                    Err(_) => c.value.clone(),
                };
                self.rt
                    .ann
                    .ll_types
                    .get(&key)
                    .copied()
                    .ok_or_else(|| RTypeError::new("unknown low-level type constant"))
            }
            _ => Err(RTypeError::new("malloc of a variable type")),
        }
    }
}
