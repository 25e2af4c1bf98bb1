//! Built-in functions called from the program (`range`, `intmask`,
//! `int`, `min`, `isinstance`, ...).

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, BOOL, FLOAT, SIGNED, UNICHAR, UNSIGNED, VOID};
use rpy3_model::{Hlvalue, SpaceOperation};

use super::{int_op, name, Cx};
use crate::helpers::{type_const, value_const};
use crate::repr::Repr;
use crate::RTypeError;

/// The helpers of the built-in functions on numbers.
pub const RBUILTIN: &str = "rpy3.lltypesystem.rbuiltin";

impl Cx<'_, '_, '_, '_> {
    pub(super) fn builtin_call(
        &mut self,
        builtin: &str,
        args: &[Hlvalue],
        op: &SpaceOperation,
    ) -> Result<Hlvalue, RTypeError> {
        let want = self.result_repr(op)?;
        let t = want.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        if args.is_empty() && matches!(builtin, "int" | "float" | "bool" | "str" | "bytes") {
            // int(), float(), ...: the zero of the type
            let zero = self
                .py
                .import("builtins")
                .and_then(|b| b.getattr(builtin)?.call0())
                .map_err(|e| RTypeError::new(e.to_string()))?;
            let v = self.rt.convert_const(self.py, &want, &zero)?;
            return value_const(self.py, v, t);
        }
        Ok(match builtin {
            "range" => {
                let (range_struct, pr, _, _) = self.rt.range_types();
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let one = value_const(self.py, LlValue::Int(1), SIGNED)?;
                let (start, stop, step) = match args.len() {
                    1 => (zero, self.input(&args[0], &int)?, one),
                    2 => (
                        self.input(&args[0], &int)?,
                        self.input(&args[1], &int)?,
                        one,
                    ),
                    3 => (
                        self.input(&args[0], &int)?,
                        self.input(&args[1], &int)?,
                        self.input(&args[2], &int)?,
                    ),
                    n => return Err(RTypeError::new(format!("range() with {n} arguments"))),
                };
                // a step that may be zero: the helper raises ValueError
                let nonzero_step = args.len() < 3
                    || self
                        .s(&args[2])
                        .konst()
                        .and_then(|k| k.bind(self.py).extract::<i64>().ok())
                        .is_some_and(|k| k != 0);
                let p = if nonzero_step {
                    let tc = type_const(self.py, range_struct)?;
                    let p = self.emit(LlOp::Malloc, vec![tc], pr);
                    for (f, v) in [("start", start), ("stop", stop), ("step", step)] {
                        self.emit(LlOp::Setfield, vec![p.clone(), name(self.py, f), v], VOID);
                    }
                    p
                } else {
                    let helper = self.rt.helper_range_new(self.py)?;
                    let f = self.func_const(helper)?;
                    self.emit(LlOp::DirectCall, vec![f, start, stop, step], pr)
                };
                match &want {
                    // the list met lists that are not ranges (it is passed
                    // where a sliced list goes): its items, made now
                    Repr::List(item, _) if **item == int => self.convert(p, &Repr::Range, &want)?,
                    Repr::Range => p,
                    other => {
                        return Err(RTypeError::new(format!(
                            "internal error: range() as a {other:?}"
                        )))
                    }
                }
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
            "widen" | "ovfcheck" => self.input(&args[0], &want)?,
            "float" if matches!(self.repr_of(&args[0])?, Repr::Str | Repr::UniChar) => {
                let s = self.input(&args[0], &Repr::Str)?;
                let v = self.call_str_helper("ll_str2float", vec![s], FLOAT)?;
                self.convert(v, &Repr::Float, &want)?
            }
            "float" => self.input(&args[0], &Repr::Float)?,
            "int" => {
                let r = self.repr_of(&args[0])?;
                match r {
                    Repr::Float => {
                        let x = self.input(&args[0], &r)?;
                        self.check_float_to_int(x.clone())?;
                        self.emit(LlOp::CastFloatToInt, vec![x], SIGNED)
                    }
                    Repr::Number => {
                        let x = self.input(&args[0], &r)?;
                        self.number_helper("ll_num_int", vec![(x, r)])?.0
                    }
                    Repr::Str | Repr::UniChar if args.len() == 1 => {
                        let x = self.input(&args[0], &Repr::Str)?;
                        self.call_str_helper("ll_str2int", vec![x], SIGNED)?
                    }
                    // int(b'42'): the same parse, of the bytes
                    Repr::Bytes if args.len() == 1 => {
                        let x = self.input(&args[0], &Repr::Bytes)?;
                        self.in_bytes_mode(|cx| cx.call_str_helper("ll_str2int", vec![x], SIGNED))?
                    }
                    Repr::Str | Repr::UniChar if args.len() == 2 => {
                        let x = self.input(&args[0], &Repr::Str)?;
                        let base = self.input(&args[1], &int)?;
                        self.call_str_helper("ll_str2int_base", vec![x, base], SIGNED)?
                    }
                    _ if args.len() == 2 => {
                        return Err(RTypeError::unsupported("int(x, base) of a non-string"))
                    }
                    _ => self.input(&args[0], &int)?,
                }
            }
            "bool" => {
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                match r {
                    Repr::Bool => x,
                    Repr::Int(k) => {
                        self.emit(int_op(k, LlOp::IntIsTrue, LlOp::UintIsTrue), vec![x], BOOL)
                    }
                    Repr::Float => self.emit(LlOp::FloatIsTrue, vec![x], BOOL),
                    Repr::IntBool => self.convert(x, &r, &Repr::Bool)?,
                    Repr::Number => {
                        let f = self.convert(x, &r, &Repr::Float)?;
                        self.emit(LlOp::FloatIsTrue, vec![f], BOOL)
                    }
                    Repr::Instance(_) => self.emit(LlOp::PtrNonzero, vec![x], BOOL),
                    _ => return Err(RTypeError::unsupported("bool() of this value")),
                }
            }
            "abs" => {
                let x = self.input(&args[0], &want)?;
                match want {
                    Repr::Float => self.emit(LlOp::FloatAbs, vec![x], t),
                    Repr::Number => self.number_unary(x, rpy3_model::OpName::Abs)?,
                    Repr::Int(k) if !k.unsigned() => self.emit(LlOp::IntAbs, vec![x], t),
                    _ => x,
                }
            }
            "min" | "max" if args.len() >= 2 => {
                // CPython keeps the first of equal items: an item replaces
                // the current one only when strictly smaller (larger)
                if matches!(want, Repr::Number | Repr::IntBool) {
                    let largest = value_const(self.py, LlValue::Bool(builtin == "max"), BOOL)?;
                    let mut cur = self.input(&args[0], &want)?;
                    for a in &args[1..] {
                        let x = self.input(a, &want)?;
                        let anns = vec![
                            (cur, SomeValue::Ptr(t)),
                            (x, SomeValue::Ptr(t)),
                            (largest.clone(), SomeValue::bool()),
                        ];
                        cur = self
                            .call_helper_in(super::numbers::RNUMBER, "ll_num_pick", anns)?
                            .0;
                    }
                    return Ok(cur);
                }
                let lt = match &want {
                    Repr::Int(k) => int_op(*k, LlOp::IntLt, LlOp::UintLt),
                    Repr::Float => LlOp::FloatLt,
                    _ => {
                        // any other items: the first extreme of a list of them
                        let s_res = self.rt.ann.binding(self.g, op.result).without_const();
                        self.rt
                            .list_items
                            .borrow_mut()
                            .entry(want.clone())
                            .or_insert(s_res);
                        let mut vals = Vec::new();
                        for a in args {
                            vals.push(self.input(a, &want)?);
                        }
                        let l = self.new_list(&want, vals)?;
                        let lt = self.item_function("hl_lt", &want)?;
                        let lr = Repr::list_of(want.clone());
                        let la = (l, SomeValue::Ptr(lr.lowleveltype(self.rt)));
                        let largest = value_const(self.py, LlValue::Bool(builtin == "max"), BOOL)?;
                        let (v, _) = self.call_list_helper(
                            "ll_extreme",
                            vec![la, lt, (largest, SomeValue::bool())],
                        )?;
                        return Ok(v);
                    }
                };
                let mut cur = self.input(&args[0], &want)?;
                for a in &args[1..] {
                    let x = self.input(a, &want)?;
                    let cond = if builtin == "min" {
                        self.emit(lt, vec![x.clone(), cur.clone()], BOOL)
                    } else {
                        self.emit(lt, vec![cur.clone(), x.clone()], BOOL)
                    };
                    cur = self.select(cond, x, cur, &want)?;
                }
                cur
            }
            "pow" if args.len() == 2 && want == Repr::Number => {
                let x = self.input(&args[0], &want)?;
                let y = self.input(&args[1], &want)?;
                let args = vec![(x, Repr::Number), (y, Repr::Number)];
                self.number_helper("ll_num_pow", args)?.0
            }
            "pow" if args.len() == 2 => {
                let x = self.input(&args[0], &want)?;
                let y = self.input(&args[1], &want)?;
                let llop = match &want {
                    Repr::Int(k) if !k.unsigned() => LlOp::IntPow,
                    Repr::Float => LlOp::FloatPow,
                    _ => return Err(RTypeError::unsupported("pow() of these values")),
                };
                self.emit(llop, vec![x, y], t)
            }
            "pow" if args.len() == 3 => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push((self.input(a, &int)?, SomeValue::int()));
                }
                let (v, _) = self.call_helper_in(RBUILTIN, "ll_pow_mod", vals)?;
                self.convert(v, &int, &want)?
            }
            // tuple() and tuple(t) of a tuple (the annotator refuses the rest)
            "tuple" => match args.first() {
                None => {
                    let Repr::Tuple(items) = want.clone() else {
                        return Err(RTypeError::new("tuple() is not a tuple"));
                    };
                    self.new_tuple(&items, Vec::new())?
                }
                Some(_) if matches!(want, Repr::List(..)) => {
                    // a tuple of a length known at run time: a new list of
                    // the items
                    self.list_builtin("list", args, &[], &want)?
                        .ok_or_else(|| RTypeError::new("tuple() of an unknown iterable"))?
                }
                Some(a) => {
                    let r = self.repr_of(a)?;
                    let x = self.input(a, &r)?;
                    self.convert(x, &r, &want)?
                }
            },
            "id" => {
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                if r.lowleveltype(self.rt).target().is_none() {
                    return Err(RTypeError::unsupported(&format!("id() of {r:?}")));
                }
                let v = self.emit(LlOp::GcId, vec![x], SIGNED);
                self.convert(v, &int, &want)?
            }
            "hex" | "oct" | "bin" => {
                let spec = match builtin {
                    "hex" => "#x",
                    "oct" => "#o",
                    _ => "#b",
                };
                if matches!(self.repr_of(&args[0])?, Repr::Int(k) if k.unsigned()) {
                    let x = self.input(&args[0], &Repr::Int(IntKind::Unsigned))?;
                    let v = self.format_uint_with(x, spec)?;
                    return self.convert(v, &Repr::Str, &want);
                }
                let x = self.input(&args[0], &int)?;
                let st = Repr::Str.lowleveltype(self.rt);
                let p = self.rt.prebuilt_string(spec)?;
                let spec = value_const(self.py, LlValue::Ptr(Some(p)), st)?;
                let v = self.call_str_helper("ll_format_int", vec![x, spec], st)?;
                self.convert(v, &Repr::Str, &want)?
            }
            "divmod" if args.len() == 2 => self.divmod_values(&args[0], &args[1], op)?,
            "round" => {
                let r = self.repr_of(&args[0])?;
                let ndigits = args
                    .get(1)
                    .filter(|n| !matches!(self.s(n), SomeValue::None_));
                match (&r, ndigits) {
                    (Repr::Float, None) => {
                        let x = self.input(&args[0], &r)?;
                        let v = self.emit(LlOp::FloatRound, vec![x], FLOAT);
                        self.check_float_to_int(v.clone())?;
                        let v = self.emit(LlOp::CastFloatToInt, vec![v], SIGNED);
                        self.convert(v, &int, &want)?
                    }
                    (Repr::Float, Some(n)) => {
                        let x = self.input(&args[0], &r)?;
                        let n = self.input(n, &int)?;
                        self.emit(LlOp::FloatRoundDigits, vec![x, n], FLOAT)
                    }
                    (Repr::Number, None) => {
                        let x = self.input(&args[0], &r)?;
                        let v = self.number_helper("ll_num_round", vec![(x, r)])?.0;
                        self.convert(v, &int, &want)?
                    }
                    (Repr::Number, Some(n)) => {
                        let x = self.input(&args[0], &r)?;
                        let n = self.input(n, &int)?;
                        let v = self
                            .number_helper("ll_num_round_digits", vec![(x, r), (n, int)])?
                            .0;
                        self.convert(v, &Repr::Number, &want)?
                    }
                    (Repr::Int(_) | Repr::Bool | Repr::IntBool, None) => {
                        self.input(&args[0], &want)?
                    }
                    (Repr::Int(IntKind::Signed) | Repr::Bool | Repr::IntBool, Some(n)) => {
                        let x = self.input(&args[0], &int)?;
                        let n = self.input(n, &int)?;
                        let args = vec![(x, SomeValue::int()), (n, SomeValue::int())];
                        let (v, _) = self.call_helper_in(RBUILTIN, "ll_int_round_digits", args)?;
                        self.convert(v, &int, &want)?
                    }
                    _ => return Err(RTypeError::unsupported("round() of these values")),
                }
            }
            "bytes.fromhex" => {
                let x = self.input(&args[0], &Repr::Str)?;
                let st = Repr::Str.lowleveltype(self.rt);
                let (v, _) = self.call_helper_in(
                    crate::RSTR,
                    "ll_bytes_fromhex",
                    vec![(x, SomeValue::Ptr(st))],
                )?;
                self.convert(v, &Repr::Bytes, &want)?
            }
            "chr" => {
                let x = self.input(&args[0], &int)?;
                self.check_chr(x.clone())?;
                let c = self.emit(LlOp::CastIntToUnichar, vec![x], UNICHAR);
                self.convert(c, &Repr::UniChar, &want)?
            }
            "ord" => {
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                let v = match r {
                    Repr::UniChar => self.emit(LlOp::CastUnicharToInt, vec![x], SIGNED),
                    Repr::Char => self.emit(LlOp::CastCharToInt, vec![x], SIGNED),
                    Repr::Str => self.call_str_helper("ll_str_ord", vec![x], SIGNED)?,
                    other => return Err(RTypeError::unsupported(&format!("ord() of {other:?}"))),
                };
                self.convert(v, &int, &want)?
            }
            "reversed" if self.repr_of(&args[0])? == Repr::Range => {
                let helper = self.rt.helper_range_reversed(self.py)?;
                let f = self.func_const(helper)?;
                let r = self.input(&args[0], &Repr::Range)?;
                self.emit(LlOp::DirectCall, vec![f, r], t)
            }
            m if m.starts_with("math.") => self.math_call(m, args, &want)?,
            // (the annotator decided it)
            "hasattr" if !super::is_constant(&self.rt.ann.binding(self.g, op.result)) => {
                // some of the instance's classes have the attribute: a test
                // of its class against them
                let classes = self
                    .rt
                    .ann
                    .hasattr_classes
                    .get(&(self.g, self.block, self.index))
                    .cloned()
                    .ok_or_else(|| RTypeError::new("hasattr() without its classes"))?;
                let r = self.repr_of(&args[0])?;
                let x = self.input(&args[0], &r)?;
                let obj = self.object_ptr_of(x)?;
                let classes: Vec<Bound<'_, PyAny>> =
                    classes.iter().map(|c| c.bind(self.py).clone()).collect();
                let v = self.isinstance_any(obj, &classes)?;
                self.convert(v, &Repr::Bool, &want)?
            }
            "callable" | "hasattr" => {
                let s_res = self.rt.ann.binding(self.g, op.result);
                super::constant_of(self.rt, self.py, &s_res, &want)?
            }
            "isinstance" if self.repr_of(&args[0])? == Repr::IntBool => {
                // an int that may be a bool (the annotator decided `int`):
                // a bool by its tag
                let x = self.input(&args[0], &Repr::IntBool)?;
                self.emit(
                    LlOp::Getfield,
                    vec![x, super::name(self.py, "isbool")],
                    BOOL,
                )
            }
            "isinstance" if self.repr_of(&args[0])? == Repr::Number => {
                // a number of either kind (the annotator decided the other
                // cases): an int, or a float, by its tag
                let Hlvalue::Constant(c) = &args[1] else {
                    return Err(RTypeError::unsupported(
                        "isinstance() with a variable class",
                    ));
                };
                let int_type = self
                    .py
                    .import("builtins")
                    .and_then(|b| b.getattr("int"))
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                let cls = c.value.bind(self.py);
                let of_int = match cls.cast::<pyo3::types::PyTuple>() {
                    Ok(t) => t.iter().any(|k| k.is(&int_type)),
                    Err(_) => cls.is(&int_type),
                };
                let x = self.input(&args[0], &Repr::Number)?;
                let isint = self.emit(LlOp::Getfield, vec![x, super::name(self.py, "isint")], BOOL);
                if of_int {
                    isint
                } else {
                    self.emit(LlOp::BoolNot, vec![isint], BOOL)
                }
            }
            "isinstance" => {
                let r = self.repr_of(&args[0])?;
                let Repr::Instance(_) = r else {
                    return Err(RTypeError::unsupported("isinstance() of a non-instance"));
                };
                let x = self.input(&args[0], &r)?;
                let obj = self.object_ptr_of(x)?;
                let single_class = match self.s(&args[1]) {
                    SomeValue::Pbc {
                        descs,
                        can_be_none: false,
                    } if descs.len() == 1 => descs
                        .iter()
                        .next()
                        .and_then(|d| self.rt.ann.desc_object(*d)),
                    _ => None,
                };
                let cls = match &args[1] {
                    Hlvalue::Constant(c) => c.value.clone(),
                    // a variable that can only hold one class
                    _ if single_class.is_some() => single_class.expect("checked"),
                    v if self.repr_of(v)? == Repr::Class => {
                        // a variable holding one of several classes: its vtable
                        let vt = self.input(v, &Repr::Class)?;
                        let helper = self.rt.helper_isinstance(self.py);
                        let f = self.func_const(helper)?;
                        return Ok(self.emit(LlOp::DirectCall, vec![f, obj, vt], BOOL));
                    }
                    _ => {
                        return Err(RTypeError::unsupported(
                            "isinstance() with a variable class",
                        ))
                    }
                };
                let classes: Vec<Bound<'_, PyAny>> =
                    match cls.bind(self.py).cast::<pyo3::types::PyTuple>() {
                        Ok(t) => t.iter().collect(),
                        Err(_) => vec![cls.bind(self.py).clone()],
                    };
                self.isinstance_any(obj, &classes)?
            }
            other => return Err(RTypeError::unsupported(&format!("the built-in {other}()"))),
        })
    }

    /// Whether the instance `obj` (an object pointer) is an instance of
    /// one of `classes`.
    fn isinstance_any(
        &mut self,
        obj: Hlvalue,
        classes: &[Bound<'_, PyAny>],
    ) -> Result<Hlvalue, RTypeError> {
        let mut acc: Option<Hlvalue> = None;
        for k in classes {
            if k.is_instance_of::<pyo3::types::PyTuple>() {
                return Err(RTypeError::unsupported(
                    "isinstance() with nested tuples of classes",
                ));
            }
            let c = self.rt.classdef_of_class(self.py, &k)?;
            let vt = value_const(
                self.py,
                LlValue::Ptr(Some(self.rt.classes.vtable(c))),
                self.rt.objmodel.vtable_ptr,
            )?;
            let helper = self.rt.helper_isinstance(self.py);
            let f = self.func_const(helper)?;
            let b = self.emit(LlOp::DirectCall, vec![f, obj.clone(), vt], BOOL);
            acc = Some(match acc {
                None => b,
                Some(prev) => {
                    let x = self.emit(LlOp::CastBoolToInt, vec![prev], SIGNED);
                    let y = self.emit(LlOp::CastBoolToInt, vec![b], SIGNED);
                    let o = self.emit(LlOp::IntOr, vec![x, y], SIGNED);
                    self.emit(LlOp::IntIsTrue, vec![o], BOOL)
                }
            });
        }
        Ok(match acc {
            Some(v) => v,
            None => value_const(self.py, LlValue::Bool(false), BOOL)?,
        })
    }

    /// A function of the `math` module.
    fn math_call(&mut self, m: &str, args: &[Hlvalue], want: &Repr) -> Result<Hlvalue, RTypeError> {
        let fl = Repr::Float;
        let int = Repr::Int(IntKind::Signed);
        let unary = |op: LlOp| Some(op);
        let one = match m {
            "math.sqrt" => unary(LlOp::FloatSqrt),
            "math.exp" => unary(LlOp::FloatExp),
            "math.expm1" => unary(LlOp::FloatExpm1),
            "math.log" if args.len() == 1 => unary(LlOp::FloatLog),
            "math.log2" => unary(LlOp::FloatLog2),
            "math.log10" => unary(LlOp::FloatLog10),
            "math.log1p" => unary(LlOp::FloatLog1p),
            "math.sin" => unary(LlOp::FloatSin),
            "math.cos" => unary(LlOp::FloatCos),
            "math.tan" => unary(LlOp::FloatTan),
            "math.asin" => unary(LlOp::FloatAsin),
            "math.acos" => unary(LlOp::FloatAcos),
            "math.atan" => unary(LlOp::FloatAtan),
            "math.sinh" => unary(LlOp::FloatSinh),
            "math.cosh" => unary(LlOp::FloatCosh),
            "math.tanh" => unary(LlOp::FloatTanh),
            "math.asinh" => unary(LlOp::FloatAsinh),
            "math.acosh" => unary(LlOp::FloatAcosh),
            "math.atanh" => unary(LlOp::FloatAtanh),
            "math.fabs" => unary(LlOp::FloatAbs),
            _ => None,
        };
        if let Some(op) = one {
            let x = self.input(&args[0], &fl)?;
            let in_helper = self.rt.ann.graphs[self.g]
                .graph
                .func
                .as_ref()
                .is_some_and(|f| f.bind(self.py).hasattr("_rpy3_bare_math_").unwrap_or(false));
            let messages = m != "math.fabs" && !in_helper && {
                let ve = self.rt.exception_classdef("ValueError");
                let oe = self.rt.exception_classdef("OverflowError");
                self.keeps_message(ve) || self.keeps_message(oe)
            };
            let v = if messages {
                // errors with CPython's messages ("math domain error"):
                // the operation in a helper that catches and re-raises
                let f = self
                    .py
                    .import(RBUILTIN)
                    .and_then(|b| b.getattr("MATH_WITH_MESSAGES")?.get_item(m))
                    .map_err(|e| RTypeError::new(format!("helper for {m}: {e}")))?;
                let idx = self.rt.helper_for(self.py, &f, vec![SomeValue::float()])?;
                let fc = self.func_const(idx)?;
                self.emit(LlOp::DirectCall, vec![fc, x], FLOAT)
            } else {
                self.emit(op, vec![x], FLOAT)
            };
            return self.convert(v, &fl, want);
        }
        let two = match m {
            "math.atan2" => Some(LlOp::FloatAtan2),
            "math.fmod" => Some(LlOp::FloatFmod),
            "math.pow" => Some(LlOp::FloatMathPow),
            "math.hypot" => Some(LlOp::FloatHypot),
            "math.copysign" => Some(LlOp::FloatCopysign),
            _ => None,
        };
        if let Some(op) = two {
            if args.len() != 2 {
                return Err(RTypeError::unsupported(&format!(
                    "{m}() with {} arguments",
                    args.len()
                )));
            }
            let x = self.input(&args[0], &fl)?;
            let y = self.input(&args[1], &fl)?;
            let v = self.emit(op, vec![x, y], FLOAT);
            return self.convert(v, &fl, want);
        }
        Ok(match m {
            "math.log" if args.len() == 2 => {
                let x = self.input(&args[0], &fl)?;
                let b = self.input(&args[1], &fl)?;
                let lx = self.emit(LlOp::FloatLog, vec![x], FLOAT);
                let lb = self.emit(LlOp::FloatLog, vec![b], FLOAT);
                self.emit(LlOp::FloatTruediv, vec![lx, lb], FLOAT)
            }
            "math.floor" | "math.ceil" | "math.trunc" => {
                let r = self.repr_of(&args[0])?;
                if matches!(r, Repr::Int(_) | Repr::Bool) {
                    return self.input(&args[0], want);
                }
                let x = self.input(&args[0], &fl)?;
                let op = match m {
                    "math.floor" => LlOp::FloatFloor,
                    "math.ceil" => LlOp::FloatCeil,
                    _ => LlOp::FloatTrunc,
                };
                let v = self.emit(op, vec![x], FLOAT);
                self.check_float_to_int(v.clone())?;
                let v = self.emit(LlOp::CastFloatToInt, vec![v], SIGNED);
                self.convert(v, &int, want)?
            }
            "math.frexp" => {
                let x = self.input(&args[0], &fl)?;
                let e = self.emit(LlOp::FloatFrexpExp, vec![x.clone()], SIGNED);
                let minus_e = self.emit(LlOp::IntNeg, vec![e.clone()], SIGNED);
                let m = self.emit(LlOp::FloatLdexp, vec![x, minus_e], FLOAT);
                let reprs = [fl.clone(), int.clone()];
                self.rt.ensure_types(&Repr::Tuple(reprs.to_vec()));
                let t = self.new_tuple(&reprs, vec![m, e])?;
                self.convert(t, &Repr::Tuple(reprs.to_vec()), want)?
            }
            "math.ldexp" => {
                let x = self.input(&args[0], &fl)?;
                let n = self.input(&args[1], &int)?;
                let v = self.emit(LlOp::FloatLdexp, vec![x, n], FLOAT);
                self.convert(v, &fl, want)?
            }
            "math.modf" => {
                let x = self.input(&args[0], &fl)?;
                let (v, _) =
                    self.call_helper_in(RBUILTIN, "ll_modf", vec![(x, SomeValue::float())])?;
                let reprs = vec![fl.clone(), fl.clone()];
                self.convert(v, &Repr::Tuple(reprs), want)?
            }
            "math.gcd" | "math.lcm" => {
                // gcd() is 0 and gcd(a) is gcd(a, 0); lcm() is 1 and lcm(a)
                // is lcm(a, 1)
                let (helper, unit) = if m == "math.gcd" {
                    ("ll_gcd", 0)
                } else {
                    ("ll_lcm", 1)
                };
                let mut acc = value_const(self.py, LlValue::Int(unit), SIGNED)?;
                for a in args {
                    let x = self.input(a, &int)?;
                    let vals = vec![(acc, SomeValue::int()), (x, SomeValue::int())];
                    acc = self.call_helper_in(RBUILTIN, helper, vals)?.0;
                }
                self.convert(acc, &int, want)?
            }
            "math.isqrt" => {
                let x = self.input(&args[0], &int)?;
                let (v, _) =
                    self.call_helper_in(RBUILTIN, "ll_isqrt", vec![(x, SomeValue::int())])?;
                self.convert(v, &int, want)?
            }
            "math.factorial" | "math.comb" | "math.perm" => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push((self.input(a, &int)?, SomeValue::int()));
                }
                if m == "math.perm" && vals.len() == 1 {
                    // perm(n) is factorial(n)
                    vals.truncate(1);
                }
                let helper = match (m, vals.len()) {
                    ("math.comb", 2) => "ll_comb",
                    ("math.perm", 2) => "ll_perm",
                    (_, 1) => "ll_factorial",
                    _ => {
                        return Err(RTypeError::new(format!(
                            "{m}() with {} arguments",
                            vals.len()
                        )))
                    }
                };
                let (v, _) = self.call_helper_in(RBUILTIN, helper, vals)?;
                self.convert(v, &int, want)?
            }
            "math.isclose" => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push((self.input(a, &fl)?, SomeValue::float()));
                }
                // the defaults of rel_tol and abs_tol (keywords come as
                // positional arguments: see `lower/calls.rs`)
                for d in [1e-09, 0.0].into_iter().skip(vals.len().saturating_sub(2)) {
                    vals.push((
                        value_const(self.py, LlValue::Float(d), FLOAT)?,
                        SomeValue::float(),
                    ));
                }
                let (v, _) = self.call_helper_in(RBUILTIN, "ll_isclose", vals)?;
                self.convert(v, &Repr::Bool, want)?
            }
            "math.isnan" | "math.isinf" | "math.isfinite" => {
                let x = self.input(&args[0], &fl)?;
                let op = match m {
                    "math.isnan" => LlOp::FloatIsnan,
                    "math.isinf" => LlOp::FloatIsinf,
                    _ => LlOp::FloatIsfinite,
                };
                self.emit(op, vec![x], BOOL)
            }
            "math.degrees" | "math.radians" => {
                let x = self.input(&args[0], &fl)?;
                let pi = std::f64::consts::PI;
                let k = if m == "math.degrees" {
                    180.0 / pi
                } else {
                    pi / 180.0
                };
                let k = value_const(self.py, LlValue::Float(k), FLOAT)?;
                self.emit(LlOp::FloatMul, vec![x, k], FLOAT)
            }
            other => return Err(RTypeError::unsupported(&format!("the built-in {other}()"))),
        })
    }

    /// `if cond then a else b` without branching: `b + (a - b) * cond` on
    /// the integer or float representation.
    fn select(
        &mut self,
        cond: Hlvalue,
        a: Hlvalue,
        b: Hlvalue,
        r: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
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
            Repr::Float => {
                let helper = self.rt.helper_select(self.py, t)?;
                let f = self.func_const(helper)?;
                self.emit(LlOp::DirectCall, vec![f, cond, a, b], t)
            }
            _ => return Err(RTypeError::unsupported("min/max of these values")),
        })
    }
}
