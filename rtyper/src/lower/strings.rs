//! `str` operations, as calls of the low-level string helpers of
//! `rpy3.lltypesystem.rstr` (written in the ll dialect).

use rpy3_annotator::model::IntKind;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, BOOL, SIGNED, UNICHAR};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::Cx;
use crate::helpers::value_const;
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// A call of a method of `str` (`s.upper()`): the receiver is the
    /// bound method's value.
    pub(super) fn str_method(
        &mut self,
        method: &str,
        receiver: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let sp = Repr::Str;
        let st = sp.lowleveltype(self.rt);
        let me = self.input(receiver, &sp)?;
        let int = Repr::Int(IntKind::Signed);
        // the helper, its result type and its arguments after the receiver:
        // strings, then start/end (or count) integers with their defaults
        let (helper, ty, n_str, defaults): (&str, _, usize, &[i64]) = match method {
            "upper" => ("ll_upper", st, 0, &[]),
            "lower" => ("ll_lower", st, 0, &[]),
            "isdigit" => ("ll_isdigit", BOOL, 0, &[]),
            "isdecimal" => ("ll_isdecimal", BOOL, 0, &[]),
            "isnumeric" => ("ll_isnumeric", BOOL, 0, &[]),
            "isalpha" => ("ll_isalpha", BOOL, 0, &[]),
            "isalnum" => ("ll_isalnum", BOOL, 0, &[]),
            "isspace" => ("ll_isspace", BOOL, 0, &[]),
            "isprintable" => ("ll_isprintable", BOOL, 0, &[]),
            "isupper" => ("ll_isupper", BOOL, 0, &[]),
            "islower" => ("ll_islower", BOOL, 0, &[]),
            "find" => ("ll_find", SIGNED, 1, &[0, i64::MAX]),
            "rfind" => ("ll_rfind", SIGNED, 1, &[0, i64::MAX]),
            "index" => ("ll_index", SIGNED, 1, &[0, i64::MAX]),
            "rindex" => ("ll_rindex", SIGNED, 1, &[0, i64::MAX]),
            "count" => ("ll_count", SIGNED, 1, &[0, i64::MAX]),
            "startswith" => ("ll_startswith", BOOL, 1, &[0, i64::MAX]),
            "endswith" => ("ll_endswith", BOOL, 1, &[0, i64::MAX]),
            "replace" => ("ll_replace", st, 2, &[-1]),
            "strip" | "lstrip" | "rstrip" if args.len() <= 1 => {
                let chars = match args.first() {
                    Some(a) => self.input(a, &sp)?,
                    None => value_const(self.py, LlValue::Ptr(None), st)?,
                };
                let left = value_const(self.py, LlValue::Bool(method != "rstrip"), BOOL)?;
                let right = value_const(self.py, LlValue::Bool(method != "lstrip"), BOOL)?;
                let v = self.call_str_helper("ll_strip", vec![me, chars, left, right], st)?;
                return self.convert(v, &Repr::Str, want);
            }
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "the str method {other}() in the rtyper"
                )))
            }
        };
        if args.len() < n_str || args.len() > n_str + defaults.len() {
            return Err(RTypeError::new(format!(
                "str.{method}() takes {n_str} to {} arguments, not {}",
                n_str + defaults.len(),
                args.len()
            )));
        }
        let mut all = vec![me];
        for a in &args[..n_str] {
            if matches!(self.s(a), rpy3_annotator::model::SomeValue::Tuple(_)) {
                return Err(RTypeError::unsupported(&format!(
                    "a tuple argument of str.{method}()"
                )));
            }
            all.push(self.input(a, &sp)?);
        }
        for (k, d) in defaults.iter().enumerate() {
            all.push(match args.get(n_str + k) {
                Some(a) => self.input(a, &int)?,
                None => value_const(self.py, LlValue::Int(*d), SIGNED)?,
            });
        }
        let v = self.call_str_helper(helper, all, ty)?;
        let have = if ty == st {
            Repr::Str
        } else if ty == BOOL {
            Repr::Bool
        } else {
            Repr::Int(IntKind::Signed)
        };
        self.convert(v, &have, want)
    }

    /// Calls string helper `name`; its result has type `ty`.
    pub(super) fn call_str_helper(
        &mut self,
        name: &str,
        args: Vec<Hlvalue>,
        ty: rpy3_model::lltype::LlType,
    ) -> Result<Hlvalue, RTypeError> {
        let f = self.rt.str_helper(self.py, name)?;
        let mut all = vec![self.func_const(f)?];
        all.extend(args);
        Ok(self.emit(LlOp::DirectCall, all, ty))
    }

    /// Lowers `op` if it works on strings; false otherwise.
    pub(super) fn lower_str(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        let handled = matches!(
            op.opname,
            H::Len
                | H::Getitem
                | H::Add
                | H::InplaceAdd
                | H::Mul
                | H::InplaceMul
                | H::Eq
                | H::Ne
                | H::Lt
                | H::Le
                | H::Gt
                | H::Ge
                | H::Contains
                | H::Getslice
                | H::Bool
                | H::Str
                | H::Is_
                | H::Iter
                | H::Next
                | H::Repr
                | H::Format
        ) || (op.opname == H::Getattr && self.repr_of(&op.args[0])? == Repr::Str);
        if self.rt.str_ptr.is_none() || !handled {
            return Ok(false);
        }
        let mut reprs = Vec::new();
        for a in &op.args {
            reprs.push(self.repr_of(a)?);
        }
        let want = self.result_repr(op)?;
        if op.opname == H::Len && reprs[0] == Repr::UniChar {
            // a character is a string of length 1
            let one = value_const(self.py, LlValue::Int(1), SIGNED)?;
            let v = self.convert(one, &Repr::Int(IntKind::Signed), &want)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let any_str =
            reprs.contains(&Repr::Str) || reprs.contains(&Repr::StrIter) || want == Repr::Str;
        if !any_str {
            return Ok(false);
        }
        let sp = Repr::Str;
        let st = sp.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        let v = match op.opname {
            H::Len => {
                let s = self.input(&op.args[0], &sp)?;
                self.call_str_helper("ll_strlen", vec![s], SIGNED)?
            }
            H::Getitem if reprs[0] == Repr::Str => {
                let s = self.input(&op.args[0], &sp)?;
                let i = self.input(&op.args[1], &int)?;
                let c = self.call_str_helper("ll_stritem", vec![s, i], UNICHAR)?;
                self.convert(c, &Repr::UniChar, &want)?
            }
            H::Add | H::InplaceAdd if want == Repr::Str => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                self.call_str_helper("ll_strconcat", vec![a, b], st)?
            }
            H::Mul | H::InplaceMul if want == Repr::Str => {
                let (s, n) = if reprs[0] == Repr::Str || reprs[0] == Repr::UniChar {
                    (0, 1)
                } else {
                    (1, 0)
                };
                let a = self.input(&op.args[s], &sp)?;
                let k = self.input(&op.args[n], &int)?;
                self.call_str_helper("ll_strmul", vec![a, k], st)?
            }
            H::Eq | H::Ne => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                let eq = self.call_str_helper("ll_streq", vec![a, b], BOOL)?;
                if op.opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![eq], BOOL)
                } else {
                    eq
                }
            }
            H::Lt | H::Le | H::Gt | H::Ge => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                let c = self.call_str_helper("ll_strcmp", vec![a, b], SIGNED)?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let cmp = match op.opname {
                    H::Lt => LlOp::IntLt,
                    H::Le => LlOp::IntLe,
                    H::Gt => LlOp::IntGt,
                    _ => LlOp::IntGe,
                };
                self.emit(cmp, vec![c, zero], BOOL)
            }
            H::Contains if reprs[0] == Repr::Str => {
                let s = self.input(&op.args[0], &sp)?;
                if reprs[1] == Repr::UniChar {
                    let c = self.input(&op.args[1], &Repr::UniChar)?;
                    self.call_str_helper("ll_contains_char", vec![s, c], BOOL)?
                } else {
                    let sub = self.input(&op.args[1], &sp)?;
                    self.call_str_helper("ll_contains", vec![s, sub], BOOL)?
                }
            }
            H::Getslice => {
                let s = self.input(&op.args[0], &sp)?;
                let mut bounds = Vec::new();
                for (k, default) in [(1usize, 0i64), (2, i64::MAX)] {
                    if matches!(self.s(&op.args[k]), rpy3_annotator::SomeValue::None_) {
                        bounds.push(value_const(self.py, LlValue::Int(default), SIGNED)?);
                    } else {
                        bounds.push(self.input(&op.args[k], &int)?);
                    }
                }
                self.call_str_helper(
                    "ll_strslice",
                    vec![s, bounds[0].clone(), bounds[1].clone()],
                    st,
                )?
            }
            H::Bool => {
                let s = self.input(&op.args[0], &sp)?;
                self.call_str_helper("ll_str_is_true", vec![s], BOOL)?
            }
            H::Format => {
                let spec = self.input(&op.args[1], &sp)?;
                let (helper, r) = match &reprs[0] {
                    Repr::Int(k) if !k.unsigned() => ("ll_format_int", int.clone()),
                    Repr::Bool => ("ll_format_bool", Repr::Bool),
                    Repr::Float => ("ll_format_float", Repr::Float),
                    Repr::Str | Repr::UniChar => ("ll_format_str", Repr::Str),
                    other => {
                        return Err(RTypeError::unsupported(&format!("format() of {other:?}")))
                    }
                };
                let v = self.input(&op.args[0], &r)?;
                self.call_str_helper(helper, vec![v, spec], st)?
            }
            H::Str | H::Repr if reprs[0] == Repr::Float => {
                let x = self.input(&op.args[0], &Repr::Float)?;
                self.call_str_helper("ll_float_repr", vec![x], st)?
            }
            H::Str | H::Repr if reprs[0] == Repr::Bool => {
                let b = self.input(&op.args[0], &Repr::Bool)?;
                self.call_str_helper("ll_bool2str", vec![b], st)?
            }
            H::Str => match &reprs[0] {
                Repr::Str => self.input(&op.args[0], &sp)?,
                Repr::UniChar => self.input(&op.args[0], &sp)?,
                Repr::Int(k) if !k.unsigned() => {
                    let i = self.input(&op.args[0], &int)?;
                    self.call_str_helper("ll_int2str", vec![i], st)?
                }
                other => return Err(RTypeError::unsupported(&format!("str() of {other:?}"))),
            },
            H::Iter => {
                let s = self.input(&op.args[0], &sp)?;
                let t = Repr::StrIter.lowleveltype(self.rt);
                self.call_str_helper("ll_striter", vec![s], t)?
            }
            H::Next => {
                let it = self.input(&op.args[0], &Repr::StrIter)?;
                let c = self.call_str_helper("ll_strnext", vec![it], UNICHAR)?;
                self.convert(c, &Repr::UniChar, &want)?
            }
            H::Getattr => {
                // a bound method of a string is the string
                self.input(&op.args[0], &sp)?
            }
            H::Repr if matches!(reprs[0], Repr::Str | Repr::UniChar) => {
                let s = self.input(&op.args[0], &sp)?;
                self.call_str_helper("ll_str_repr", vec![s], st)?
            }
            H::Repr => match &reprs[0] {
                Repr::Int(k) if !k.unsigned() => {
                    let i = self.input(&op.args[0], &int)?;
                    self.call_str_helper("ll_int2str", vec![i], st)?
                }
                other => return Err(RTypeError::unsupported(&format!("repr() of {other:?}"))),
            },
            H::Is_ => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                self.emit(LlOp::PtrEq, vec![a, b], BOOL)
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "the string operation {}",
                    op.opname
                )))
            }
        };
        self.finish(op.result, v);
        Ok(true)
    }
}
