//! Function bodies: a prepared graph as one C function.  Variables are
//! locals `vN`, blocks are labels `bN`, a link assigns the target's input
//! variables then jumps; operations of the low-level table are C
//! expressions or calls of the runtime.

use std::collections::HashSet;
use std::fmt::Write;

use pyo3::prelude::*;
use rpy3_model::extfunc::{ExtFunc, ExtTy};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, TypeDef, BOOL, CHAR, UNICHAR};
use rpy3_model::program::LlProgram;
use rpy3_model::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, LinkId, OpName, SpaceOperation};
use rpy3_prep::Database;

use crate::data::{value_expr, TypeIds};
use crate::types::{field_name, is_value, Types};
use crate::GencError;

/// What the generated code uses of the optional parts of the runtime.
#[derive(Default, Debug)]
pub struct Uses {
    /// The Unicode database tables.
    pub unicodedb: bool,
}

/// Functions of at most this many operations (after preparation) are
/// always inlined.
pub const INLINE_OPS: usize = 40;

/// The C name of function `index`.
pub fn func_name(index: u32) -> String {
    format!("f{index}")
}

/// The runtime function implementing `op` on its operands as they are,
/// for the operations that are one call.
pub fn runtime_call(op: LlOp) -> Option<&'static str> {
    use LlOp::*;
    Some(match op {
        IntFloordiv => "rpy_int_floordiv",
        IntMod => "rpy_int_mod",
        IntFloordivOvf => "rpy_int_floordiv_ovf",
        IntModOvf => "rpy_int_mod_ovf",
        IntLshift => "rpy_int_lshift",
        IntRshift => "rpy_int_rshift",
        IntLshiftOvf => "rpy_int_lshift_ovf",
        IntAddOvf => "rpy_int_add_ovf",
        IntSubOvf => "rpy_int_sub_ovf",
        IntMulOvf => "rpy_int_mul_ovf",
        IntNegOvf => "rpy_int_neg_ovf",
        IntAbsOvf => "rpy_int_abs_ovf",
        IntPow => "rpy_int_pow",
        IntTruediv => "rpy_int_truediv",
        UintFloordiv => "rpy_uint_floordiv",
        UintMod => "rpy_uint_mod",
        UintLshift => "rpy_uint_lshift",
        UintRshift => "rpy_uint_rshift",
        FloatTruediv => "rpy_float_truediv",
        FloatFloordiv => "rpy_float_floordiv",
        FloatMod => "rpy_float_mod",
        FloatPow => "rpy_float_pow",
        FloatSqrt => "rpy_float_sqrt",
        FloatExp => "rpy_float_exp",
        FloatExpm1 => "rpy_float_expm1",
        FloatLog => "rpy_float_log",
        FloatLog2 => "rpy_float_log2",
        FloatLog10 => "rpy_float_log10",
        FloatLog1p => "rpy_float_log1p",
        FloatSin => "rpy_float_sin",
        FloatCos => "rpy_float_cos",
        FloatTan => "rpy_float_tan",
        FloatAsin => "rpy_float_asin",
        FloatAcos => "rpy_float_acos",
        FloatAtan => "rpy_float_atan",
        FloatSinh => "rpy_float_sinh",
        FloatCosh => "rpy_float_cosh",
        FloatTanh => "rpy_float_tanh",
        FloatAsinh => "rpy_float_asinh",
        FloatAcosh => "rpy_float_acosh",
        FloatAtanh => "rpy_float_atanh",
        FloatFloor => "rpy_float_floor",
        FloatCeil => "rpy_float_ceil",
        FloatTrunc => "rpy_float_trunc",
        FloatRound => "rpy_float_round",
        FloatRoundDigits => "rpy_float_round_digits",
        FloatAtan2 => "rpy_float_atan2",
        FloatFmod => "rpy_float_fmod",
        FloatMathPow => "rpy_float_math_pow",
        FloatHypot => "rpy_float_hypot",
        FloatCopysign => "rpy_float_copysign",
        FloatFrexpExp => "rpy_float_frexp_exp",
        FloatLdexp => "rpy_float_ldexp",
        CastFloatToInt => "rpy_cast_float_to_int",
        CastFloatToUint => "rpy_cast_float_to_uint",
        CastIntToChar => "rpy_cast_int_to_char",
        CastIntToUnichar => "rpy_cast_int_to_unichar",
        FloatFormatChar => "rpy_float_format_char",
        UnicharProps => "rpy_unichar_props",
        UnicharUpper => "rpy_unichar_upper",
        UnicharLower => "rpy_unichar_lower",
        UnicharTitle => "rpy_unichar_title",
        UnicharCasefold => "rpy_unichar_casefold",
        _ => return None,
    })
}

/// The C operator of a binary operation on primitives.
fn binop(op: LlOp) -> Option<&'static str> {
    use LlOp::*;
    Some(match op {
        IntAdd | UintAdd | FloatAdd => "+",
        IntSub | UintSub | FloatSub => "-",
        IntMul | UintMul | FloatMul => "*",
        IntAnd | UintAnd => "&",
        IntOr | UintOr => "|",
        IntXor | UintXor => "^",
        IntLt | UintLt | FloatLt | CharLt | UnicharLt => "<",
        IntLe | UintLe | FloatLe | CharLe | UnicharLe => "<=",
        IntEq | UintEq | FloatEq | CharEq | UnicharEq | PtrEq => "==",
        IntNe | UintNe | FloatNe | CharNe | UnicharNe | PtrNe => "!=",
        IntGt | UintGt | FloatGt | CharGt | UnicharGt => ">",
        IntGe | UintGe | FloatGe | CharGe | UnicharGe => ">=",
        _ => return None,
    })
}

/// Every operation genc implements (a test checks the table).
pub fn implemented(op: LlOp) -> bool {
    use LlOp::*;
    runtime_call(op).is_some()
        || binop(op).is_some()
        || matches!(
            op,
            IntNeg
                | IntAbs
                | IntInvert
                | IntIsTrue
                | UintNeg
                | UintInvert
                | UintIsTrue
                | FloatNeg
                | FloatAbs
                | FloatIsTrue
                | FloatIsnan
                | FloatIsinf
                | FloatIsfinite
                | BoolNot
                | SameAs
                | CastBoolToInt
                | CastBoolToUint
                | CastBoolToFloat
                | CastIntToFloat
                | CastUintToFloat
                | CastIntToUint
                | CastUintToInt
                | CastIntToLonglong
                | CastLonglongToInt
                | CastCharToInt
                | CastUnicharToInt
                | Malloc
                | MallocVarsize
                | Getfield
                | Setfield
                | Getsubstruct
                | Getarrayitem
                | Setarrayitem
                | Getarraysize
                | Getinteriorfield
                | Setinteriorfield
                | Getinteriorarraysize
                | CastPointer
                | PtrIszero
                | PtrNonzero
                | GcIdentityHash
                | GcId
                | StrToFloat
                | DirectCall
                | IndirectCall
                | ExternalCall
                | DebugAssert
                | KeepAlive
                | ExcOccurred
                | ExcFetchType
                | ExcFetchValue
                | ExcClear
                | ExcRaise
                | GcPushRoots
                | GcPopRoots
                | StackCheck
        )
}

/// An interior access: the C lvalue, the bounds checks it needs (index,
/// length) and the type reached.
type Interior = (String, Vec<(String, String)>, LlType);

/// The generator of one function.
pub struct FuncGen<'a, 'py> {
    pub py: Python<'py>,
    pub program: &'a LlProgram,
    pub db: &'a Database,
    pub types: &'a mut Types,
    pub tids: &'a mut TypeIds,
    pub uses: &'a mut Uses,
    pub g: &'a FunctionGraph,
    pub index: usize,
    /// The function lies on a cycle of the call graph.
    pub recursive: bool,
    /// The function is defined in another object file (the native
    /// backend's): its prototype is a plain external declaration.
    pub external: bool,
    body: String,
    labels: HashSet<BlockId>,
}

impl<'a, 'py> FuncGen<'a, 'py> {
    /// A generator for function `index` of `program`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        py: Python<'py>,
        program: &'a LlProgram,
        db: &'a Database,
        types: &'a mut Types,
        tids: &'a mut TypeIds,
        uses: &'a mut Uses,
        index: usize,
    ) -> Self {
        FuncGen {
            py,
            program,
            db,
            types,
            tids,
            uses,
            g: &program.functions[index].graph,
            index,
            recursive: true,
            external: false,
            body: String::new(),
            labels: HashSet::new(),
        }
    }

    fn err(&self, msg: impl Into<String>) -> GencError {
        GencError::new(format!(
            "{}: {}",
            self.program.functions[self.index].name,
            msg.into()
        ))
    }

    fn ty(&self, h: &Hlvalue) -> Result<LlType, GencError> {
        match h {
            Hlvalue::Variable(v) => self.g.vars[*v].concretetype,
            Hlvalue::Constant(c) => c.concretetype,
        }
        .ok_or_else(|| self.err("a value without a low-level type"))
    }

    /// The C expression of a value.
    fn val(&mut self, h: &Hlvalue) -> Result<String, GencError> {
        match h {
            Hlvalue::Variable(v) => Ok(format!("v{}", v.as_u32())),
            Hlvalue::Constant(c) => {
                let t = self.ty(h)?;
                let v = llconst::ll_value(self.py, c).map_err(|e| self.err(e))?;
                value_expr(
                    self.db,
                    &self.program.heap,
                    self.types,
                    &|i| func_name(i),
                    v,
                    t,
                )
            }
        }
    }

    /// The prototype: `R fN(T0 v0, ...)`.
    pub fn prototype(&mut self) -> Result<String, GencError> {
        let g = self.g;
        let ret = g.blocks[g.returnblock].inputargs[0];
        let rt = g.vars[ret]
            .concretetype
            .ok_or_else(|| self.err("no result type"))?;
        let r = self.types.ctype(rt)?;
        let mut params = Vec::new();
        for &v in &g.blocks[g.startblock].inputargs {
            let t = g.vars[v]
                .concretetype
                .ok_or_else(|| self.err("a parameter without a type"))?;
            if is_value(t) {
                params.push(format!(
                    "{} v{} __attribute__((unused))",
                    self.types.ctype(t)?,
                    v.as_u32()
                ));
            }
        }
        if params.is_empty() {
            params.push("void".into());
        }
        // small functions are inlined, as RPython's backendopt would
        let size: usize = g
            .iterblocks()
            .iter()
            .map(|&b| g.blocks[b].operations.len())
            .sum();
        let recursive = self.recursive;
        let inline = if self.external {
            ""
        } else if !recursive && size <= INLINE_OPS {
            "static inline __attribute__((always_inline)) "
        } else {
            "static "
        };
        Ok(format!(
            "{inline}{r} {}({})",
            func_name(self.index as u32),
            params.join(", ")
        ))
    }

    /// The whole definition.
    pub fn definition(mut self) -> Result<String, GencError> {
        let g = self.g;
        let proto = self.prototype()?;
        let blocks = g.iterblocks();
        // locals: every variable but the parameters
        let params: HashSet<_> = g.blocks[g.startblock].inputargs.iter().copied().collect();
        let mut locals = String::new();
        let mut declared = HashSet::new();
        for &b in blocks.iter().chain([&g.returnblock]) {
            for v in g.blocks[b].getvariables() {
                if params.contains(&v) || !declared.insert(v) {
                    continue;
                }
                let t = g.vars[v]
                    .concretetype
                    .ok_or_else(|| self.err(format!("{v} has no type")))?;
                if is_value(t) {
                    let c = self.types.ctype(t)?;
                    let _ = writeln!(
                        locals,
                        "    {c} v{} __attribute__((unused)) = 0;",
                        v.as_u32()
                    );
                }
            }
        }
        for &b in &blocks {
            if b == g.returnblock || b == g.exceptblock {
                continue;
            }
            self.block(b)?;
        }
        // the return block
        let _ = writeln!(self.body, "  b{}:", g.returnblock.as_u32());
        let rv = g.blocks[g.returnblock].inputargs[0];
        let rt = g.vars[rv].concretetype.unwrap_or(rpy3_model::lltype::VOID);
        if is_value(rt) {
            let _ = writeln!(self.body, "    return v{};", rv.as_u32());
        } else {
            self.body.push_str("    return;\n");
        }
        self.labels.insert(g.returnblock);
        // functions of the program (not rpy3's helpers) count towards the
        // recursion limit of CPython when the build sets one
        let counted = counts_recursion(self.py, g);
        let mut text = format!("{proto} {{ /* {} */\n{locals}", g.name.replace("*/", "* /"));
        if counted {
            let zero = if is_value(rt) { "0" } else { "" };
            let _ = writeln!(text, "    RPY_ENTER({zero});");
            self.body = self
                .body
                .replace("    return ", "    RPY_LEAVE();\n    return ");
            self.body = self
                .body
                .replace("    return;", "    RPY_LEAVE();\n    return;");
        }
        // labels nobody jumps to are dropped (-Wunused-label)
        for line in self.body.lines() {
            if let Some(l) = line.strip_prefix("  b").and_then(|x| x.strip_suffix(':')) {
                let used = l
                    .parse::<u32>()
                    .is_ok_and(|n| self.labels.contains(&BlockId::from_u32(n)));
                if !used {
                    continue;
                }
            }
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("}\n");
        Ok(text)
    }

    fn block(&mut self, b: BlockId) -> Result<(), GencError> {
        let g = self.g;
        let _ = writeln!(self.body, "  b{}:", b.as_u32());
        if b == g.startblock {
            // loops may come back to the start block
        }
        for op in &g.blocks[b].operations {
            self.op(op)?;
        }
        let block = &g.blocks[b];
        match &block.exitswitch {
            ExitSwitch::None => match block.exits.as_slice() {
                [l] => self.link(*l, "    ")?,
                [] => self
                    .body
                    .push_str("    rpy_fatal(\"a block without exits\");\n"),
                _ => return Err(self.err("a block with several exits and no switch")),
            },
            ExitSwitch::LastException => {
                return Err(self.err("a block still switching on an exception after preparation"))
            }
            ExitSwitch::Value(h) => self.switch(h, &block.exits)?,
        }
        Ok(())
    }

    fn link(&mut self, l: LinkId, indent: &str) -> Result<(), GencError> {
        let g = self.g;
        let link = &g.links[l];
        let target = &g.blocks[link.target];
        if link.args.len() != target.inputargs.len() {
            return Err(self.err(format!(
                "a link carries {} values into a block taking {}",
                link.args.len(),
                target.inputargs.len()
            )));
        }
        let mut moves = Vec::new();
        for (a, &v) in link.args.iter().zip(&target.inputargs) {
            let t = g.vars[v]
                .concretetype
                .ok_or_else(|| self.err("an input without a type"))?;
            if !is_value(t) || a.as_var() == Some(v) {
                continue;
            }
            let e = self.val(a)?;
            moves.push((v, e, self.types.ctype(t)?));
        }
        let targets: HashSet<String> = moves
            .iter()
            .map(|(v, _, _)| format!("v{}", v.as_u32()))
            .collect();
        let overlap = moves.iter().any(|(_, e, _)| targets.contains(e));
        if overlap {
            let _ = writeln!(self.body, "{indent}{{");
            for (i, (_, e, c)) in moves.iter().enumerate() {
                let _ = writeln!(self.body, "{indent}    {c} t{i} = {e};");
            }
            for (i, (v, _, _)) in moves.iter().enumerate() {
                let _ = writeln!(self.body, "{indent}    v{} = t{i};", v.as_u32());
            }
            let _ = writeln!(self.body, "{indent}}}");
        } else {
            for (v, e, _) in &moves {
                let _ = writeln!(self.body, "{indent}v{} = {e};", v.as_u32());
            }
        }
        let _ = writeln!(self.body, "{indent}goto b{};", link.target.as_u32());
        self.labels.insert(link.target);
        Ok(())
    }

    fn switch(&mut self, h: &Hlvalue, exits: &[LinkId]) -> Result<(), GencError> {
        let py = self.py;
        let g = self.g;
        let t = self.ty(h)?;
        let value = self.val(h)?;
        if t == BOOL && exits.len() == 2 {
            let mut targets = [None, None];
            for &l in exits {
                let c = g.links[l]
                    .exitcase
                    .as_ref()
                    .ok_or_else(|| self.err("a switch exit has no case"))?;
                let b: bool = c
                    .value
                    .bind(py)
                    .extract()
                    .map_err(|_| self.err("a Bool switch case is not a bool"))?;
                targets[b as usize] = Some(l);
            }
            let (Some(f), Some(t)) = (targets[0], targets[1]) else {
                return Err(self.err("a Bool switch needs a False and a True exit"));
            };
            let _ = writeln!(self.body, "    if ({value}) {{");
            self.link(t, "        ")?;
            self.body.push_str("    }\n");
            self.link(f, "    ")?;
            return Ok(());
        }
        let _ = writeln!(self.body, "    switch ({value}) {{");
        let mut has_default = false;
        for (i, &l) in exits.iter().enumerate() {
            let c = g.links[l]
                .exitcase
                .clone()
                .ok_or_else(|| self.err("a switch exit has no case"))?;
            let is_default = c
                .value
                .bind(py)
                .extract::<String>()
                .is_ok_and(|s| s == "default");
            if is_default && i + 1 == exits.len() && t != CHAR && t != UNICHAR {
                self.body.push_str("    default:\n");
                has_default = true;
            } else {
                let typed = rpy3_model::Constant::typed(c.value.clone(), t);
                let v = llconst::ll_value(py, &typed).map_err(|e| self.err(e))?;
                let e = match v {
                    LlValue::Int(i) => crate::data::int_literal(i),
                    LlValue::UInt(u) => format!("{u}ULL"),
                    LlValue::Char(c) => c.to_string(),
                    LlValue::UniChar(c) => format!("{c}u"),
                    LlValue::Bool(b) => (b as u8).to_string(),
                    other => return Err(self.err(format!("cannot switch on {other:?}"))),
                };
                let _ = writeln!(self.body, "    case {e}:");
            }
            self.link(l, "        ")?;
        }
        if !has_default {
            self.body
                .push_str("    default:\n        rpy_fatal(\"no case of a switch matched\");\n");
        }
        self.body.push_str("    }\n");
        Ok(())
    }

    /// `dst = ` for the result, or nothing for a `Void` one.
    fn assign(&mut self, op: &SpaceOperation) -> Result<String, GencError> {
        let t = self.g.vars[op.result]
            .concretetype
            .ok_or_else(|| self.err("a result without a type"))?;
        Ok(if is_value(t) {
            format!("v{} = ", op.result.as_u32())
        } else {
            String::new()
        })
    }

    fn struct_of(&self, h: &Hlvalue) -> Result<LlType, GencError> {
        self.ty(h)?
            .target()
            .ok_or_else(|| self.err("expected a pointer"))
    }

    fn name_arg(&self, h: &Hlvalue) -> Result<String, GencError> {
        h.as_const()
            .and_then(|c| llconst::name_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a field name"))
    }

    fn type_arg(&self, h: &Hlvalue) -> Result<LlType, GencError> {
        let t = h
            .as_const()
            .and_then(|c| llconst::type_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a type"))?;
        Ok(t.target().unwrap_or(t))
    }

    /// The member path of an interior path (`->...`) and the bounds
    /// checks it needs (index, length lvalue).
    fn interior(&mut self, ptr: &Hlvalue, steps: &[Hlvalue]) -> Result<Interior, GencError> {
        let mut cur = self.struct_of(ptr)?;
        let mut path = format!("(*{})", self.val(ptr)?);
        let mut checks = Vec::new();
        let mut i = 0;
        while i < steps.len() {
            match cur.def() {
                TypeDef::Struct { .. } => {
                    let name = self.name_arg(&steps[i])?;
                    let ft = cur
                        .field_type(&name)
                        .ok_or_else(|| self.err(format!("{cur} has no field {name}")))?;
                    let f = field_name(&name);
                    if let TypeDef::Array { item, .. } = ft.def() {
                        if i + 1 < steps.len() {
                            let idx = self.val(&steps[i + 1])?;
                            checks.push((idx.clone(), format!("{path}.{f}_length")));
                            path = format!("{path}.{f}_items[{idx}]");
                            cur = item;
                            i += 2;
                            continue;
                        }
                        // the path ends at the array: its length
                        path = format!("{path}.{f}");
                        cur = ft;
                        i += 1;
                        continue;
                    }
                    path = format!("{path}.{f}");
                    cur = ft;
                }
                TypeDef::Array { item, .. } => {
                    let idx = self.val(&steps[i])?;
                    checks.push((idx.clone(), format!("{path}.length")));
                    path = format!("{path}.items[{idx}]");
                    cur = item;
                }
                _ => return Err(self.err(format!("cannot step into a {cur}"))),
            }
            i += 1;
        }
        Ok((path, checks, cur))
    }

    fn bounds(checks: &[(String, String)]) -> String {
        checks
            .iter()
            .map(|(i, len)| format!("(rpy_Unsigned)({i}) >= (rpy_Unsigned)({len})"))
            .collect::<Vec<_>>()
            .join(" || ")
    }

    fn op(&mut self, op: &SpaceOperation) -> Result<(), GencError> {
        let OpName::Ll(o) = op.opname else {
            return Err(self.err(format!(
                "high-level operation {:?} after rtyping",
                op.opname
            )));
        };
        let d = self.assign(op)?;
        let args = &op.args;
        let rt = self.g.vars[op.result]
            .concretetype
            .unwrap_or(rpy3_model::lltype::VOID);
        let rc = if is_value(rt) {
            self.types.ctype(rt)?
        } else {
            "void".into()
        };
        let mut a = Vec::new();
        for h in args {
            let t = self.ty(h)?;
            a.push(if is_value(t) {
                self.val(h)?
            } else {
                String::new()
            });
        }
        use LlOp::*;
        // the common cases of some runtime operations, inline
        let fast = match o {
            IntFloordiv => Some(format!("({1} > 0 && {0} >= 0) ? {0} / {1}", a[0], a[1])),
            IntMod => Some(format!("({1} > 0 && {0} >= 0) ? {0} % {1}", a[0], a[1])),
            FloatTruediv => Some(format!("{1} != 0.0 ? {0} / {1}", a[0], a[1])),
            FloatSqrt => Some(format!("{0} >= 0.0 ? sqrt({0})", a[0])),
            _ => None,
        };
        // checked + - *: the compiler's overflow test inline, the runtime
        // function (which raises) only on overflow
        let builtin = match o {
            IntAddOvf => Some("__builtin_add_overflow"),
            IntSubOvf => Some("__builtin_sub_overflow"),
            IntMulOvf => Some("__builtin_mul_overflow"),
            _ => None,
        };
        if let (Some(b), Some(f)) = (builtin, runtime_call(o)) {
            let dest = format!("v{}", op.result.as_u32());
            let line = format!(
                "if (__builtin_expect({b}({0}, {1}, &{dest}), 0)) {dest} = {f}({0}, {1});",
                a[0], a[1]
            );
            let _ = writeln!(self.body, "    {line}");
            return Ok(());
        }
        let line = if let (Some(f), Some(fast)) = (runtime_call(o), fast) {
            format!("{d}{fast} : {f}({});", a.join(", "))
        } else if let Some(f) = runtime_call(o) {
            if matches!(
                o,
                UnicharProps | UnicharUpper | UnicharLower | UnicharTitle | UnicharCasefold
            ) {
                self.uses.unicodedb = true;
            }
            format!("{d}{f}({});", a.join(", "))
        } else if let Some(sym) = binop(o) {
            format!("{d}{} {sym} {};", a[0], a[1])
        } else {
            match o {
                // the operand parenthesised: a negative constant after a
                // unary minus would read as `--`, the decrement operator
                IntNeg | UintNeg | FloatNeg => format!("{d}-({});", a[0]),
                IntAbs => format!("{d}({0}) < 0 ? -({0}) : ({0});", a[0]),
                FloatAbs => format!("{d}fabs({});", a[0]),
                IntInvert | UintInvert => format!("{d}~({});", a[0]),
                IntIsTrue | UintIsTrue | FloatIsTrue => format!("{d}{} != 0;", a[0]),
                FloatIsnan => format!("{d}isnan({});", a[0]),
                FloatIsinf => format!("{d}isinf({});", a[0]),
                FloatIsfinite => format!("{d}isfinite({});", a[0]),
                BoolNot => format!("{d}!({});", a[0]),
                SameAs | CastBoolToInt | CastBoolToUint | CastBoolToFloat | CastIntToFloat
                | CastUintToFloat | CastIntToUint | CastUintToInt | CastIntToLonglong
                | CastLonglongToInt | CastCharToInt | CastUnicharToInt => {
                    if d.is_empty() {
                        String::new()
                    } else {
                        format!("{d}({rc}){};", a[0])
                    }
                }
                Malloc | MallocVarsize => {
                    let t = self.type_arg(&args[0])?;
                    self.types.aggregate(t)?;
                    if t.is_gc() {
                        let tid = self.tids.id(t);
                        if o == Malloc
                            && rpy3_prep::callgraph::is_exception_instance(self.program, t)
                        {
                            format!("{d}({rc})rpy_gc_malloc_nocollect({tid});")
                        } else if o == Malloc {
                            format!(
                                "{d}({rc})rpy_gc_malloc_inline({tid}, sizeof(struct t{}));",
                                t.index()
                            )
                        } else {
                            format!("{d}({rc})rpy_gc_malloc_varsize({tid}, {});", a[1])
                        }
                    } else {
                        return Err(self.err(format!("malloc of the non-GC type {t}")));
                    }
                }
                Getfield => {
                    let name = self.name_arg(&args[1])?;
                    if d.is_empty() {
                        String::new()
                    } else {
                        format!("{d}{}->{};", a[0], field_name(&name))
                    }
                }
                Setfield => {
                    let name = self.name_arg(&args[1])?;
                    let t = self.ty(&args[2])?;
                    if is_value(t) {
                        format!("{}->{} = {};", a[0], field_name(&name), a[2])
                    } else {
                        String::new()
                    }
                }
                Getsubstruct => {
                    let name = self.name_arg(&args[1])?;
                    format!("{d}&{}->{};", a[0], field_name(&name))
                }
                Getarrayitem | Setarrayitem => {
                    let item_t = self
                        .struct_of(&args[0])?
                        .varsize_item()
                        .ok_or_else(|| self.err("getarrayitem of a non-array"))?;
                    let check = format!(
                        "(rpy_Unsigned)({}) >= (rpy_Unsigned)({}->length)",
                        a[1], a[0]
                    );
                    let access = if !is_value(item_t) {
                        String::new()
                    } else if o == Getarrayitem {
                        format!("{d}{}->items[{}];", a[0], a[1])
                    } else {
                        format!("{}->items[{}] = {};", a[0], a[1], a[2])
                    };
                    format!("if ({check}) rpy_raise_builtin(RPY_IndexError); else {{ {access} }}")
                }
                Getarraysize => format!("{d}{}->length;", a[0]),
                Getinteriorfield | Setinteriorfield | Getinteriorarraysize => {
                    let end = if o == Setinteriorfield {
                        args.len() - 1
                    } else {
                        args.len()
                    };
                    let (path, checks, cur) = self.interior(&args[0], &args[1..end])?;
                    let access = match o {
                        Getinteriorarraysize => {
                            if matches!(cur.def(), TypeDef::Array { .. }) {
                                if path.ends_with(')') || path.ends_with(']') {
                                    format!("{d}{path}.length;")
                                } else {
                                    format!("{d}{path}_length;")
                                }
                            } else {
                                return Err(self.err("getinteriorarraysize of a non-array"));
                            }
                        }
                        Getinteriorfield => {
                            if is_value(cur) {
                                format!("{d}{path};")
                            } else {
                                String::new()
                            }
                        }
                        _ => {
                            if is_value(cur) {
                                format!("{path} = {};", a[args.len() - 1])
                            } else {
                                String::new()
                            }
                        }
                    };
                    if checks.is_empty() {
                        access
                    } else {
                        format!(
                            "if ({}) rpy_raise_builtin(RPY_IndexError); else {{ {access} }}",
                            Self::bounds(&checks)
                        )
                    }
                }
                CastPointer => format!("{d}({rc}){};", a[1]),
                PtrIszero => format!("{d}{} == NULL;", a[0]),
                PtrNonzero => format!("{d}{} != NULL;", a[0]),
                GcIdentityHash | GcId => format!("{d}(rpy_Signed)(uintptr_t){};", a[0]),
                StrToFloat => format!("{d}rpy_str_to_float((struct rpy_string *){});", a[0]),
                DirectCall | IndirectCall => {
                    let n = if o == IndirectCall {
                        args.len() - 1
                    } else {
                        args.len()
                    };
                    let mut call_args = Vec::new();
                    for (h, e) in args[1..n].iter().zip(&a[1..n]) {
                        if is_value(self.ty(h)?) {
                            call_args.push(e.clone());
                        }
                    }
                    let callee = match args[0].as_const().map(|c| llconst::ll_value(self.py, c)) {
                        Some(Ok(LlValue::Func(f))) => func_name(f.index),
                        _ => format!("({})", a[0]),
                    };
                    format!("{d}{callee}({});", call_args.join(", "))
                }
                ExternalCall => self.external(op, &d, &rc, &a)?,
                DebugAssert => {
                    let msg = args[1]
                        .as_const()
                        .and_then(|c| llconst::name_of_constant(self.py, c))
                        .unwrap_or_default();
                    format!(
                        "if (!({})) rpy_fatal({});",
                        a[0],
                        c_string(&format!("debug_assert failed: {msg}"))
                    )
                }
                KeepAlive => String::new(),
                ExcOccurred => format!("{d}__builtin_expect(rpy_exc_type != NULL, 0);"),
                ExcFetchType => format!("{d}({rc})rpy_exc_type;"),
                ExcFetchValue => format!("{d}({rc})rpy_exc_value;"),
                ExcClear => "rpy_exc_type = NULL; rpy_exc_value = NULL;".into(),
                ExcRaise => format!("rpy_exc_type = {}; rpy_exc_value = {};", a[0], a[1]),
                GcPushRoots => {
                    let mut s = String::new();
                    for (i, e) in a.iter().enumerate() {
                        let _ = write!(s, "rpy_ss_top[{i}] = (void *){e}; ");
                    }
                    let _ = write!(s, "rpy_ss_top += {};", a.len());
                    s
                }
                GcPopRoots => format!("rpy_ss_top -= {};", a.len()),
                StackCheck => "rpy_stack_check();".into(),
                other => return Err(self.err(format!("operation {other} is not implemented"))),
            }
        };
        if !line.is_empty() {
            let _ = writeln!(self.body, "    {line}");
        }
        Ok(())
    }

    fn external(
        &mut self,
        op: &SpaceOperation,
        d: &str,
        rc: &str,
        a: &[String],
    ) -> Result<String, GencError> {
        let name = self.name_arg(&op.args[0])?;
        let f = ExtFunc::from_name(&name)
            .ok_or_else(|| self.err(format!("unknown external function {name}")))?;
        let desc = f.desc();
        if desc.args.len() != op.args.len() - 1 {
            return Err(self.err(format!("{name} takes {} arguments", desc.args.len())));
        }
        let mut call_args = Vec::new();
        for (t, e) in desc.args.iter().zip(&a[1..]) {
            call_args.push(match t {
                ExtTy::Str | ExtTy::Bytes => format!("(struct rpy_string *){e}"),
                _ => e.clone(),
            });
        }
        let call = format!("rpy_ext_{name}({})", call_args.join(", "));
        Ok(if d.is_empty() || desc.result == ExtTy::Void {
            format!("{call};")
        } else {
            format!("{d}({rc}){call};")
        })
    }
}

/// Whether calls of `g` count towards the recursion limit of CPython
/// (when the build sets one): the program's own functions, not rpy3's
/// helpers.
pub fn counts_recursion(py: Python<'_>, g: &FunctionGraph) -> bool {
    g.func.as_ref().is_some_and(|func| {
        func.bind(py)
            .getattr("__module__")
            .and_then(|m| m.extract::<String>())
            .map(|m| m != "rpy3" && !m.starts_with("rpy3."))
            .unwrap_or(true)
    })
}

/// A C string literal.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}
