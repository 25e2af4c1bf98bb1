//! One prepared graph as one Cranelift function: graph blocks become
//! Cranelift blocks, a block's input variables its parameters, a link a
//! jump passing the link's values; every operation of the low-level table
//! is a few instructions or a call of the runtime, as in genc's
//! `funcs.rs` (the same runtime functions where genc calls one, so the
//! semantics are the runtime's own).

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, BlockArg, FuncRef, GlobalValue, InstBuilder, MemFlagsData, Signature, Type,
    Value,
};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::{DataId, FuncId, Linkage, Module};
use pyo3::prelude::*;
use rpy3_model::extfunc::{ExtFunc, ExtTy};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, TypeDef, BOOL, VOID};
use rpy3_model::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, LinkId, OpName, SpaceOperation};

use crate::layout::clif_type;
use crate::{Codegen, NativeError};

/// The runtime's `enum rpy_builtin_exc`.
const RPY_INDEX_ERROR: i64 = 3;
const RPY_RECURSION_ERROR: i64 = 6;

/// The trap after `rpy_fatal` (which never returns).
const UNREACHABLE: cranelift_codegen::ir::TrapCode =
    cranelift_codegen::ir::TrapCode::unwrap_user(1);

/// Every operation native implements (a test checks the table): the
/// runtime calls genc makes too, and the arms of [`FnLower::op`].
pub fn implemented(op: LlOp) -> bool {
    use LlOp::*;
    rpy3_genc::funcs::runtime_call(op).is_some()
        || matches!(
            op,
            IntAdd
                | UintAdd
                | IntSub
                | UintSub
                | IntMul
                | UintMul
                | IntAnd
                | UintAnd
                | IntOr
                | UintOr
                | IntXor
                | UintXor
                | FloatAdd
                | FloatSub
                | FloatMul
                | IntLt
                | IntLe
                | IntGt
                | IntGe
                | UintLt
                | CharLt
                | UnicharLt
                | UintLe
                | CharLe
                | UnicharLe
                | UintGt
                | CharGt
                | UnicharGt
                | UintGe
                | CharGe
                | UnicharGe
                | IntEq
                | UintEq
                | CharEq
                | UnicharEq
                | PtrEq
                | IntNe
                | UintNe
                | CharNe
                | UnicharNe
                | PtrNe
                | FloatLt
                | FloatLe
                | FloatGt
                | FloatGe
                | FloatEq
                | FloatNe
                | IntNeg
                | UintNeg
                | FloatNeg
                | IntAbs
                | FloatAbs
                | IntInvert
                | UintInvert
                | IntIsTrue
                | UintIsTrue
                | FloatIsTrue
                | FloatIsnan
                | FloatIsinf
                | FloatIsfinite
                | BoolNot
                | SameAs
                | CastIntToUint
                | CastUintToInt
                | CastIntToLonglong
                | CastLonglongToInt
                | CastBoolToInt
                | CastBoolToUint
                | CastCharToInt
                | CastUnicharToInt
                | CastBoolToFloat
                | CastIntToFloat
                | CastUintToFloat
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

/// Adds the parameter or result of type `ty`, extended as the C ABI
/// wants narrow unsigned values.
pub fn abi_param(ty: Type) -> AbiParam {
    if ty.bits() < 32 || ty == types::I32 {
        AbiParam::new(ty).uext()
    } else {
        AbiParam::new(ty)
    }
}

/// A signature of `args` to `result` (Void ones left out).
pub fn signature(cg: &Codegen<'_>, args: &[LlType], result: LlType) -> Signature {
    let mut sig = Signature::new(cg.call_conv);
    for a in args {
        if let Some(t) = clif_type(*a) {
            sig.params.push(abi_param(t));
        }
    }
    if let Some(t) = clif_type(result) {
        sig.returns.push(abi_param(t));
    }
    sig
}

/// The signature of a program function, from its graph.
pub fn graph_signature(cg: &Codegen<'_>, g: &FunctionGraph) -> Result<Signature, NativeError> {
    let mut args = Vec::new();
    for &v in &g.blocks[g.startblock].inputargs {
        args.push(
            g.vars[v].concretetype.ok_or_else(|| {
                NativeError::new(format!("{}: a parameter without a type", g.name))
            })?,
        );
    }
    let ret = *g.blocks[g.returnblock]
        .inputargs
        .first()
        .ok_or_else(|| NativeError::new(format!("{}: a return block without input", g.name)))?;
    let rt = g.vars[ret]
        .concretetype
        .ok_or_else(|| NativeError::new(format!("{}: no result type", g.name)))?;
    Ok(signature(cg, &args, rt))
}

/// The lowering of one function.
pub struct FnLower<'a, 'b, 'py, 'p> {
    pub py: Python<'py>,
    pub cg: &'a mut Codegen<'p>,
    pub b: FunctionBuilder<'b>,
    pub g: &'a FunctionGraph,
    pub index: usize,
    /// Count the function's frames against the recursion limit.
    pub counted: Option<i64>,
    blocks: HashMap<BlockId, cranelift_codegen::ir::Block>,
    vals: HashMap<u32, Value>,
    frefs: HashMap<FuncId, FuncRef>,
    gvs: HashMap<DataId, GlobalValue>,
}

impl<'a, 'b, 'py, 'p> FnLower<'a, 'b, 'py, 'p> {
    pub fn new(
        py: Python<'py>,
        cg: &'a mut Codegen<'p>,
        b: FunctionBuilder<'b>,
        g: &'a FunctionGraph,
        index: usize,
        counted: Option<i64>,
    ) -> Self {
        FnLower {
            py,
            cg,
            b,
            g,
            index,
            counted,
            blocks: HashMap::new(),
            vals: HashMap::new(),
            frefs: HashMap::new(),
            gvs: HashMap::new(),
        }
    }

    fn err(&self, msg: impl Into<String>) -> NativeError {
        NativeError::new(format!("{}: {}", self.g.name, msg.into()))
    }

    fn ty(&self, h: &Hlvalue) -> Result<LlType, NativeError> {
        match h {
            Hlvalue::Variable(v) => self.g.vars[*v].concretetype,
            Hlvalue::Constant(c) => c.concretetype,
        }
        .ok_or_else(|| self.err("a value without a low-level type"))
    }

    fn fref(&mut self, id: FuncId) -> FuncRef {
        if let Some(&f) = self.frefs.get(&id) {
            return f;
        }
        let f = self.cg.module.declare_func_in_func(id, self.b.func);
        self.frefs.insert(id, f);
        f
    }

    fn gv(&mut self, id: DataId) -> GlobalValue {
        if let Some(&g) = self.gvs.get(&id) {
            return g;
        }
        let g = self.cg.module.declare_data_in_func(id, self.b.func);
        self.gvs.insert(id, g);
        g
    }

    /// The address of a data symbol.
    fn data_addr(&mut self, id: DataId) -> Value {
        let gv = self.gv(id);
        self.b.ins().symbol_value(types::I64, gv)
    }

    /// The address of a global of the runtime.
    fn global_addr(&mut self, name: &str) -> Result<Value, NativeError> {
        let id = self.cg.global(name)?;
        Ok(self.data_addr(id))
    }

    fn load(&mut self, ty: Type, addr: Value, off: u64) -> Value {
        self.b
            .ins()
            .load(ty, MemFlagsData::trusted(), addr, off as i32)
    }

    fn store(&mut self, v: Value, addr: Value, off: u64) {
        self.b
            .ins()
            .store(MemFlagsData::trusted(), v, addr, off as i32);
    }

    /// Calls the runtime function `name` with `sig`.
    fn call_runtime(
        &mut self,
        name: &str,
        sig: Signature,
        args: &[Value],
    ) -> Result<Option<Value>, NativeError> {
        let id = self.cg.import(name, sig)?;
        let f = self.fref(id);
        let inst = self.b.ins().call(f, args);
        Ok(self.b.inst_results(inst).first().copied())
    }

    fn raise_builtin(&mut self, which: i64) -> Result<(), NativeError> {
        let mut sig = Signature::new(self.cg.call_conv);
        sig.params.push(AbiParam::new(types::I32));
        let w = self.b.ins().iconst(types::I32, which);
        self.call_runtime("rpy_raise_builtin", sig, &[w])?;
        Ok(())
    }

    fn fatal(&mut self, msg: &str) -> Result<(), NativeError> {
        let id = self.cg.c_string(msg)?;
        let p = self.data_addr(id);
        let mut sig = Signature::new(self.cg.call_conv);
        sig.params.push(AbiParam::new(types::I64));
        self.call_runtime("rpy_fatal", sig, &[p])?;
        Ok(())
    }

    /// The value of `h` (None for a Void one).
    fn val(&mut self, h: &Hlvalue) -> Result<Option<Value>, NativeError> {
        let t = self.ty(h)?;
        let Some(ct) = clif_type(t) else {
            return Ok(None);
        };
        match h {
            Hlvalue::Variable(v) => self
                .vals
                .get(&v.as_u32())
                .copied()
                .map(Some)
                .ok_or_else(|| self.err(format!("{v} used before its definition"))),
            Hlvalue::Constant(c) => {
                let v = llconst::ll_value(self.py, c).map_err(|e| self.err(e))?;
                self.constant(v, ct).map(Some)
            }
        }
    }

    /// The value of `h`, which must not be Void.
    fn val1(&mut self, h: &Hlvalue) -> Result<Value, NativeError> {
        self.val(h)?
            .ok_or_else(|| self.err("a Void value where a value is needed"))
    }

    fn constant(&mut self, v: LlValue, ct: Type) -> Result<Value, NativeError> {
        let ins = |b: &mut FunctionBuilder<'_>, x: i64| b.ins().iconst(ct, x);
        Ok(match v {
            LlValue::Void => ins(&mut self.b, 0),
            LlValue::Bool(x) => ins(&mut self.b, x as i64),
            LlValue::Int(x) => ins(&mut self.b, x),
            LlValue::UInt(x) => ins(&mut self.b, x as i64),
            LlValue::Char(x) => ins(&mut self.b, x as i64),
            LlValue::UniChar(x) => ins(&mut self.b, x as i64),
            LlValue::Float(x) => self.b.ins().f64const(x),
            LlValue::Ptr(None) => ins(&mut self.b, 0),
            LlValue::Ptr(Some(p)) => {
                let (id, off) = self.cg.prebuilt(&p)?;
                let a = self.data_addr(id);
                if off == 0 {
                    a
                } else {
                    self.b.ins().iadd_imm_s(a, off as i64)
                }
            }
            LlValue::Func(f) => {
                let id = *self
                    .cg
                    .func_ids
                    .get(f.index as usize)
                    .ok_or_else(|| self.err(format!("no function #{}", f.index)))?;
                let r = self.fref(id);
                self.b.ins().func_addr(types::I64, r)
            }
        })
    }

    fn zero(&mut self, ct: Type) -> Value {
        if ct == types::F64 {
            self.b.ins().f64const(0.0)
        } else {
            self.b.ins().iconst(ct, 0)
        }
    }

    /// The whole function.
    pub fn lower(mut self) -> Result<(), NativeError> {
        let g = self.g;
        let blocks = g.iterblocks();
        for &bid in blocks.iter().chain([&g.returnblock]) {
            if self.blocks.contains_key(&bid) {
                continue;
            }
            let cb = self.b.create_block();
            for &v in &g.blocks[bid].inputargs {
                let t = g.vars[v]
                    .concretetype
                    .ok_or_else(|| self.err(format!("{v} has no type")))?;
                if let Some(ct) = clif_type(t) {
                    self.b.append_block_param(cb, ct);
                }
            }
            self.blocks.insert(bid, cb);
        }
        // the entry: the recursion count, then the start block
        let entry = self.b.create_block();
        self.b.append_block_params_for_function_params(entry);
        self.b.switch_to_block(entry);
        let params: Vec<Value> = self.b.block_params(entry).to_vec();
        if self.counted.is_some() {
            // the limit is the glue's rpy_recursion_limit (what
            // sys.setrecursionlimit sets), initially the one counted
            let depth = self.global_addr("rpy_depth")?;
            let d = self.load(types::I64, depth, 0);
            let d1 = self.b.ins().iadd_imm_s(d, 1);
            self.store(d1, depth, 0);
            let limit_addr = self.global_addr("rpy_recursion_limit")?;
            let limit = self.load(types::I64, limit_addr, 0);
            let over = self.b.ins().icmp(IntCC::SignedGreaterThan, d1, limit);
            let bad = self.b.create_block();
            let ok = self.b.create_block();
            self.b.ins().brif(over, bad, &[], ok, &[]);
            self.b.switch_to_block(bad);
            self.store(d, depth, 0);
            self.raise_builtin(RPY_RECURSION_ERROR)?;
            let rets: Vec<Type> = self
                .b
                .func
                .signature
                .returns
                .iter()
                .map(|p| p.value_type)
                .collect();
            let zeros: Vec<Value> = rets.into_iter().map(|t| self.zero(t)).collect();
            self.b.ins().return_(&zeros);
            self.b.switch_to_block(ok);
        }
        let start = self.blocks[&g.startblock];
        let args: Vec<BlockArg> = params.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(start, &args);
        for &bid in &blocks {
            if bid == g.returnblock || bid == g.exceptblock {
                continue;
            }
            self.block(bid)?;
        }
        // the return block
        let rb = self.blocks[&g.returnblock];
        self.b.switch_to_block(rb);
        let rv: Vec<Value> = self.b.block_params(rb).to_vec();
        if self.counted.is_some() {
            let depth = self.global_addr("rpy_depth")?;
            let d = self.load(types::I64, depth, 0);
            let d1 = self.b.ins().iadd_imm_s(d, -1);
            self.store(d1, depth, 0);
        }
        self.b.ins().return_(&rv);
        self.b.seal_all_blocks();
        let config = self.cg.module.isa().frontend_config();
        self.b.finalize(config);
        Ok(())
    }

    fn block(&mut self, bid: BlockId) -> Result<(), NativeError> {
        let g = self.g;
        let cb = self.blocks[&bid];
        self.b.switch_to_block(cb);
        let params: Vec<Value> = self.b.block_params(cb).to_vec();
        let mut pi = params.into_iter();
        for &v in &g.blocks[bid].inputargs {
            let t = g.vars[v].concretetype.unwrap_or(VOID);
            if clif_type(t).is_some() {
                let p = pi
                    .next()
                    .ok_or_else(|| self.err("block parameters out of step"))?;
                self.vals.insert(v.as_u32(), p);
            }
        }
        for op in &g.blocks[bid].operations {
            self.op(op)?;
        }
        let block = &g.blocks[bid];
        match &block.exitswitch {
            ExitSwitch::None => match block.exits.as_slice() {
                [l] => {
                    let (target, args) = self.link(*l)?;
                    self.b.ins().jump(target, &args);
                }
                [] => {
                    self.fatal("a block without exits")?;
                    self.b.ins().trap(UNREACHABLE);
                }
                _ => return Err(self.err("a block with several exits and no switch")),
            },
            ExitSwitch::LastException => {
                return Err(self.err("a block still switching on an exception after preparation"))
            }
            ExitSwitch::Value(h) => self.switch(h, &block.exits)?,
        }
        Ok(())
    }

    /// The target block of link `l` and the values it passes.
    fn link(
        &mut self,
        l: LinkId,
    ) -> Result<(cranelift_codegen::ir::Block, Vec<BlockArg>), NativeError> {
        let g = self.g;
        let link = &g.links[l];
        let target = &g.blocks[link.target];
        if link.args.len() != target.inputargs.len() {
            return Err(self.err("a link carries the wrong number of values"));
        }
        if link.target == g.exceptblock {
            return Err(self.err("a link to the except block after preparation"));
        }
        let mut args = Vec::new();
        for (a, &v) in link.args.iter().zip(&target.inputargs) {
            let t = g.vars[v]
                .concretetype
                .ok_or_else(|| self.err("an input without a type"))?;
            if clif_type(t).is_none() {
                continue;
            }
            args.push(BlockArg::Value(self.val1(a)?));
        }
        let cb = *self
            .blocks
            .get(&link.target)
            .ok_or_else(|| self.err("a link to a block not in the graph"))?;
        Ok((cb, args))
    }

    fn switch(&mut self, h: &Hlvalue, exits: &[LinkId]) -> Result<(), NativeError> {
        let py = self.py;
        let g = self.g;
        let t = self.ty(h)?;
        let value = self.val1(h)?;
        let ct = clif_type(t).ok_or_else(|| self.err("a switch on a Void value"))?;
        let mut default = None;
        let mut cases = Vec::new();
        for (i, &l) in exits.iter().enumerate() {
            let c = g.links[l]
                .exitcase
                .clone()
                .ok_or_else(|| self.err("a switch exit has no case"))?;
            let is_default = t != BOOL
                && c.value
                    .bind(py)
                    .extract::<String>()
                    .is_ok_and(|s| s == "default");
            if is_default && i + 1 == exits.len() {
                default = Some(l);
                continue;
            }
            let typed = rpy3_model::Constant::typed(c.value.clone(), t);
            let v = llconst::ll_value(py, &typed).map_err(|e| self.err(e))?;
            let k = match v {
                LlValue::Int(i) => i,
                LlValue::UInt(u) => u as i64,
                LlValue::Char(c) => c as i64,
                LlValue::UniChar(c) => c as i64,
                LlValue::Bool(b) => b as i64,
                other => return Err(self.err(format!("cannot switch on {other:?}"))),
            };
            cases.push((k, l));
        }
        if t == BOOL && cases.len() == 2 && default.is_none() {
            let (Some(&(_, lf)), Some(&(_, lt))) = (
                cases.iter().find(|(k, _)| *k == 0),
                cases.iter().find(|(k, _)| *k == 1),
            ) else {
                return Err(self.err("a Bool switch needs a False and a True exit"));
            };
            let (tb, ta) = self.link(lt)?;
            let (fb, fa) = self.link(lf)?;
            self.b.ins().brif(value, tb, &ta, fb, &fa);
            return Ok(());
        }
        let _ = ct;
        for (k, l) in cases {
            let hit = self.b.ins().icmp_imm_s(IntCC::Equal, value, k);
            let (tb, ta) = self.link(l)?;
            let next = self.b.create_block();
            self.b.ins().brif(hit, tb, &ta, next, &[]);
            self.b.switch_to_block(next);
        }
        match default {
            Some(l) => {
                let (tb, ta) = self.link(l)?;
                self.b.ins().jump(tb, &ta);
            }
            None => {
                self.fatal("no case of a switch matched")?;
                self.b.ins().trap(UNREACHABLE);
            }
        }
        Ok(())
    }

    fn name_arg(&self, h: &Hlvalue) -> Result<String, NativeError> {
        h.as_const()
            .and_then(|c| llconst::name_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a field name"))
    }

    fn type_arg(&self, h: &Hlvalue) -> Result<LlType, NativeError> {
        let t = h
            .as_const()
            .and_then(|c| llconst::type_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a type"))?;
        Ok(t.target().unwrap_or(t))
    }

    fn struct_of(&self, h: &Hlvalue) -> Result<LlType, NativeError> {
        self.ty(h)?
            .target()
            .ok_or_else(|| self.err("expected a pointer"))
    }

    fn field_offset(&mut self, t: LlType, name: &str) -> Result<u64, NativeError> {
        let l = self.cg.layout(t)?;
        l.fields
            .get(name)
            .copied()
            .ok_or_else(|| self.err(format!("{t} has no field {name} in memory")))
    }

    fn varsize(&mut self, t: LlType) -> Result<(u64, u64, u64), NativeError> {
        self.cg
            .layout(t)?
            .varsize
            .ok_or_else(|| self.err(format!("{t} is not varsize")))
    }

    /// Branches to `fail` unless `idx < len` (unsigned), then continues
    /// in a new block.
    fn bounds_check(&mut self, idx: Value, len: Value, fail: cranelift_codegen::ir::Block) {
        let bad = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, idx, len);
        let ok = self.b.create_block();
        self.b.ins().brif(bad, fail, &[], ok, &[]);
        self.b.switch_to_block(ok);
    }

    /// `addr + idx * size + off`.
    fn item_addr(&mut self, addr: Value, idx: Value, size: u64, off: u64) -> Value {
        let scaled = if size == 1 {
            idx
        } else {
            self.b.ins().imul_imm_s(idx, size as i64)
        };
        let a = self.b.ins().iadd(addr, scaled);
        if off == 0 {
            a
        } else {
            self.b.ins().iadd_imm_s(a, off as i64)
        }
    }

    fn define(&mut self, op: &SpaceOperation, v: Option<Value>) -> Result<(), NativeError> {
        let rt = self.g.vars[op.result].concretetype.unwrap_or(VOID);
        match (clif_type(rt), v) {
            (None, _) => Ok(()),
            (Some(ct), Some(v)) => {
                let vt = self.b.func.dfg.value_type(v);
                let v = if vt == ct {
                    v
                } else if vt.is_int() && ct.is_int() && vt.bits() < ct.bits() {
                    self.b.ins().uextend(ct, v)
                } else if vt.is_int() && ct.is_int() {
                    self.b.ins().ireduce(ct, v)
                } else {
                    return Err(self.err(format!("{} gives {vt}, not {ct}", op.opname)));
                };
                self.vals.insert(op.result.as_u32(), v);
                Ok(())
            }
            (Some(_), None) => Err(self.err(format!("{} gives no value", op.opname))),
        }
    }

    /// A guarded access: `access` branches to the block it is given
    /// (raising `IndexError`) on a failed bounds check; the result (if
    /// any) joins both paths.
    fn checked<F>(
        &mut self,
        op: &SpaceOperation,
        needs_check: bool,
        access: F,
    ) -> Result<(), NativeError>
    where
        F: FnOnce(&mut Self, cranelift_codegen::ir::Block) -> Result<Option<Value>, NativeError>,
    {
        let fail = self.b.create_block();
        if !needs_check {
            let v = access(self, fail)?;
            return self.define(op, v);
        }
        let rt = self.g.vars[op.result].concretetype.unwrap_or(VOID);
        let ct = clif_type(rt);
        let join = self.b.create_block();
        if let Some(ct) = ct {
            self.b.append_block_param(join, ct);
        }
        let v = access(self, fail)?;
        let args: Vec<BlockArg> = match (ct, v) {
            (Some(_), Some(v)) => vec![BlockArg::Value(v)],
            (Some(_), None) => return Err(self.err("an access gives no value")),
            _ => vec![],
        };
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(fail);
        self.raise_builtin(RPY_INDEX_ERROR)?;
        let zargs: Vec<BlockArg> = match ct {
            Some(ct) => vec![BlockArg::Value(self.zero(ct))],
            None => vec![],
        };
        self.b.ins().jump(join, &zargs);
        self.b.switch_to_block(join);
        let r = self.b.block_params(join).first().copied();
        self.define(op, r)
    }

    fn op(&mut self, op: &SpaceOperation) -> Result<(), NativeError> {
        let OpName::Ll(o) = op.opname else {
            return Err(self.err(format!(
                "high-level operation {:?} after rtyping",
                op.opname
            )));
        };
        let args = &op.args;
        // the verifier checked the arity; a graph that skipped it gets an
        // error here, not an index out of bounds below
        let fixed = o
            .desc()
            .args
            .iter()
            .filter(|p| **p != rpy3_model::lloperation::TyPat::Rest)
            .count();
        let needs = match o {
            LlOp::IndirectCall | LlOp::Setinteriorfield => fixed.max(2),
            _ => fixed,
        };
        if args.len() < needs {
            return Err(self.err(format!("{o} with {} arguments", args.len())));
        }
        let rt = self.g.vars[op.result].concretetype.unwrap_or(VOID);
        use LlOp::*;
        if let Some(f) = rpy3_genc::funcs::runtime_call(o) {
            if matches!(
                o,
                UnicharProps | UnicharUpper | UnicharLower | UnicharTitle | UnicharCasefold
            ) {
                self.cg.uses_unicodedb = true;
            }
            let mut tys = Vec::new();
            let mut vs = Vec::new();
            for h in args {
                let t = self.ty(h)?;
                if let Some(v) = self.val(h)? {
                    tys.push(t);
                    vs.push(v);
                }
            }
            let sig = signature(self.cg, &tys, rt);
            if let Some(r) = self.fast_path(o, f, sig.clone(), &vs)? {
                return self.define(op, Some(r));
            }
            let r = self.call_runtime(f, sig, &vs)?;
            return self.define(op, r);
        }
        let r = match o {
            IntAdd | UintAdd => self.bin(args, |b, x, y| b.ins().iadd(x, y))?,
            IntSub | UintSub => self.bin(args, |b, x, y| b.ins().isub(x, y))?,
            IntMul | UintMul => self.bin(args, |b, x, y| b.ins().imul(x, y))?,
            IntAnd | UintAnd => self.bin(args, |b, x, y| b.ins().band(x, y))?,
            IntOr | UintOr => self.bin(args, |b, x, y| b.ins().bor(x, y))?,
            IntXor | UintXor => self.bin(args, |b, x, y| b.ins().bxor(x, y))?,
            FloatAdd => self.bin(args, |b, x, y| b.ins().fadd(x, y))?,
            FloatSub => self.bin(args, |b, x, y| b.ins().fsub(x, y))?,
            FloatMul => self.bin(args, |b, x, y| b.ins().fmul(x, y))?,
            IntLt => self.icmp(args, IntCC::SignedLessThan)?,
            IntLe => self.icmp(args, IntCC::SignedLessThanOrEqual)?,
            IntGt => self.icmp(args, IntCC::SignedGreaterThan)?,
            IntGe => self.icmp(args, IntCC::SignedGreaterThanOrEqual)?,
            UintLt | CharLt | UnicharLt => self.icmp(args, IntCC::UnsignedLessThan)?,
            UintLe | CharLe | UnicharLe => self.icmp(args, IntCC::UnsignedLessThanOrEqual)?,
            UintGt | CharGt | UnicharGt => self.icmp(args, IntCC::UnsignedGreaterThan)?,
            UintGe | CharGe | UnicharGe => self.icmp(args, IntCC::UnsignedGreaterThanOrEqual)?,
            IntEq | UintEq | CharEq | UnicharEq | PtrEq => self.icmp(args, IntCC::Equal)?,
            IntNe | UintNe | CharNe | UnicharNe | PtrNe => self.icmp(args, IntCC::NotEqual)?,
            FloatLt => self.fcmp(args, FloatCC::LessThan)?,
            FloatLe => self.fcmp(args, FloatCC::LessThanOrEqual)?,
            FloatGt => self.fcmp(args, FloatCC::GreaterThan)?,
            FloatGe => self.fcmp(args, FloatCC::GreaterThanOrEqual)?,
            FloatEq => self.fcmp(args, FloatCC::Equal)?,
            FloatNe => self.fcmp(args, FloatCC::NotEqual)?,
            IntNeg | UintNeg => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().ineg(x))
            }
            FloatNeg => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().fneg(x))
            }
            IntAbs => {
                let x = self.val1(&args[0])?;
                let n = self.b.ins().ineg(x);
                let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                Some(self.b.ins().select(neg, n, x))
            }
            FloatAbs => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().fabs(x))
            }
            IntInvert | UintInvert => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().bnot(x))
            }
            IntIsTrue | UintIsTrue => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0))
            }
            FloatIsTrue => {
                let x = self.val1(&args[0])?;
                let z = self.b.ins().f64const(0.0);
                Some(self.b.ins().fcmp(FloatCC::NotEqual, x, z))
            }
            FloatIsnan => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().fcmp(FloatCC::Unordered, x, x))
            }
            FloatIsinf | FloatIsfinite => {
                let x = self.val1(&args[0])?;
                let a = self.b.ins().fabs(x);
                let inf = self.b.ins().f64const(f64::INFINITY);
                let cc = if o == FloatIsinf {
                    FloatCC::Equal
                } else {
                    FloatCC::LessThan
                };
                Some(self.b.ins().fcmp(cc, a, inf))
            }
            BoolNot => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().icmp_imm_s(IntCC::Equal, x, 0))
            }
            SameAs | CastIntToUint | CastUintToInt | CastIntToLonglong | CastLonglongToInt => {
                self.val(&args[0])?
            }
            CastBoolToInt | CastBoolToUint | CastCharToInt | CastUnicharToInt => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().uextend(types::I64, x))
            }
            CastBoolToFloat => {
                let x = self.val1(&args[0])?;
                let w = self.b.ins().uextend(types::I64, x);
                Some(self.b.ins().fcvt_from_uint(types::F64, w))
            }
            CastIntToFloat => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().fcvt_from_sint(types::F64, x))
            }
            CastUintToFloat => {
                let x = self.val1(&args[0])?;
                Some(self.b.ins().fcvt_from_uint(types::F64, x))
            }
            Malloc | MallocVarsize => {
                let t = self.type_arg(&args[0])?;
                if !t.is_gc() {
                    return Err(self.err(format!("malloc of the non-GC type {t}")));
                }
                self.cg.layout(t)?;
                let tid = self.cg.tids.id(t) as i64;
                let tidv = self.b.ins().iconst(types::I32, tid);
                let mut sig = Signature::new(self.cg.call_conv);
                sig.params.push(AbiParam::new(types::I32));
                sig.returns.push(AbiParam::new(types::I64));
                if o == MallocVarsize {
                    sig.params.push(AbiParam::new(types::I64));
                    let n = self.val1(&args[1])?;
                    self.call_runtime("rpy_gc_malloc_varsize", sig, &[tidv, n])?
                } else if rpy3_prep::callgraph::is_exception_instance(self.cg.program(), t) {
                    self.call_runtime("rpy_gc_malloc_nocollect", sig, &[tidv])?
                } else {
                    self.malloc_fixed(t, tidv, sig)?
                }
            }
            Getfield => {
                let st = self.struct_of(&args[0])?;
                let name = self.name_arg(&args[1])?;
                match clif_type(rt) {
                    None => None,
                    Some(ct) => {
                        let off = self.field_offset(st, &name)?;
                        let p = self.val1(&args[0])?;
                        Some(self.load(ct, p, off))
                    }
                }
            }
            Setfield => {
                let st = self.struct_of(&args[0])?;
                let name = self.name_arg(&args[1])?;
                if let Some(v) = self.val(&args[2])? {
                    let off = self.field_offset(st, &name)?;
                    let p = self.val1(&args[0])?;
                    self.store(v, p, off);
                }
                None
            }
            Getsubstruct => {
                let st = self.struct_of(&args[0])?;
                let name = self.name_arg(&args[1])?;
                let off = self.field_offset(st, &name)?;
                let p = self.val1(&args[0])?;
                Some(self.b.ins().iadd_imm_s(p, off as i64))
            }
            Getarrayitem | Setarrayitem => {
                let at = self.struct_of(&args[0])?;
                let item = at
                    .varsize_item()
                    .ok_or_else(|| self.err("getarrayitem of a non-array"))?;
                let (lofs, iofs, isize) = self.varsize(at)?;
                let p = self.val1(&args[0])?;
                let idx = self.val1(&args[1])?;
                let len = self.load(types::I64, p, lofs);
                let value = if o == Setarrayitem {
                    self.val(&args[2])?
                } else {
                    None
                };
                let it = clif_type(item).filter(|_| {
                    !matches!(item.def(), TypeDef::Struct { .. } | TypeDef::Opaque { .. })
                });
                return self.checked(op, true, move |s, fail| {
                    s.bounds_check(idx, len, fail);
                    let Some(ct) = it else {
                        return Ok(None);
                    };
                    let a = s.item_addr(p, idx, isize, iofs);
                    if o == Getarrayitem {
                        Ok(Some(s.load(ct, a, 0)))
                    } else {
                        if let Some(v) = value {
                            s.store(v, a, 0);
                        }
                        Ok(None)
                    }
                });
            }
            Getarraysize => {
                let at = self.struct_of(&args[0])?;
                let (lofs, _, _) = self.varsize(at)?;
                let p = self.val1(&args[0])?;
                Some(self.load(types::I64, p, lofs))
            }
            Getinteriorfield | Setinteriorfield | Getinteriorarraysize => {
                let end = if o == Setinteriorfield {
                    args.len() - 1
                } else {
                    args.len()
                };
                return self.interior(op, o, end);
            }
            CastPointer => self.val(&args[1])?,
            PtrIszero | PtrNonzero => {
                let x = self.val1(&args[0])?;
                let cc = if o == PtrIszero {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                Some(self.b.ins().icmp_imm_s(cc, x, 0))
            }
            GcIdentityHash | GcId => self.val(&args[0])?,
            StrToFloat => {
                let x = self.val1(&args[0])?;
                let mut sig = Signature::new(self.cg.call_conv);
                sig.params.push(AbiParam::new(types::I64));
                sig.returns.push(AbiParam::new(types::F64));
                self.call_runtime("rpy_str_to_float", sig, &[x])?
            }
            DirectCall | IndirectCall => self.call(op, o)?,
            ExternalCall => self.external(op)?,
            DebugAssert => {
                let msg = args[1]
                    .as_const()
                    .and_then(|c| llconst::name_of_constant(self.py, c))
                    .unwrap_or_default();
                let c = self.val1(&args[0])?;
                let bad = self.b.create_block();
                let ok = self.b.create_block();
                self.b.ins().brif(c, ok, &[], bad, &[]);
                self.b.switch_to_block(bad);
                self.fatal(&format!("debug_assert failed: {msg}"))?;
                self.b.ins().jump(ok, &[]);
                self.b.switch_to_block(ok);
                None
            }
            KeepAlive => None,
            ExcOccurred => {
                let a = self.global_addr("rpy_exc_type")?;
                let t = self.load(types::I64, a, 0);
                Some(self.b.ins().icmp_imm_s(IntCC::NotEqual, t, 0))
            }
            ExcFetchType | ExcFetchValue => {
                let name = if o == ExcFetchType {
                    "rpy_exc_type"
                } else {
                    "rpy_exc_value"
                };
                let a = self.global_addr(name)?;
                Some(self.load(types::I64, a, 0))
            }
            ExcClear => {
                let z = self.b.ins().iconst(types::I64, 0);
                let a = self.global_addr("rpy_exc_type")?;
                self.store(z, a, 0);
                let a = self.global_addr("rpy_exc_value")?;
                self.store(z, a, 0);
                None
            }
            ExcRaise => {
                let t = self.val1(&args[0])?;
                let v = self.val1(&args[1])?;
                let a = self.global_addr("rpy_exc_type")?;
                self.store(t, a, 0);
                let a = self.global_addr("rpy_exc_value")?;
                self.store(v, a, 0);
                None
            }
            GcPushRoots | GcPopRoots => {
                let a = self.global_addr("rpy_ss_top")?;
                let top = self.load(types::I64, a, 0);
                if o == GcPushRoots {
                    let mut i = 0u64;
                    for h in args {
                        if let Some(v) = self.val(h)? {
                            self.store(v, top, 8 * i);
                            i += 1;
                        }
                    }
                    let t1 = self.b.ins().iadd_imm_s(top, 8 * i as i64);
                    self.store(t1, a, 0);
                } else {
                    let mut n = 0i64;
                    for h in args {
                        if clif_type(self.ty(h)?).is_some() {
                            n += 1;
                        }
                    }
                    let t1 = self.b.ins().iadd_imm_s(top, -8 * n);
                    self.store(t1, a, 0);
                }
                None
            }
            StackCheck => {
                let sig = Signature::new(self.cg.call_conv);
                self.call_runtime("rpy_stack_check", sig, &[])?;
                None
            }
            other => return Err(self.err(format!("operation {other} is not implemented"))),
        };
        self.define(op, r)
    }

    /// The common case of some runtime operations inline, as genc has
    /// them (`x // y` and `x % y` for `x >= 0` and `y > 0`, `x / y` for
    /// `y != 0.0`, `sqrt(x)` for `x >= 0.0`); the runtime call otherwise.
    fn fast_path(
        &mut self,
        o: LlOp,
        f: &str,
        sig: Signature,
        vs: &[Value],
    ) -> Result<Option<Value>, NativeError> {
        use LlOp::*;
        let ok = match (o, vs) {
            (IntFloordiv | IntMod, [x, y]) => {
                let a = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, *x, 0);
                let c = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThan, *y, 0);
                self.b.ins().band(a, c)
            }
            (FloatTruediv, [_, y]) => {
                let z = self.b.ins().f64const(0.0);
                self.b.ins().fcmp(FloatCC::NotEqual, *y, z)
            }
            (FloatSqrt, [x]) => {
                let z = self.b.ins().f64const(0.0);
                self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, *x, z)
            }
            _ => return Ok(None),
        };
        let ty = match o {
            IntFloordiv | IntMod => types::I64,
            _ => types::F64,
        };
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, ty);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let v = match (o, vs) {
            (IntFloordiv, [x, y]) => self.b.ins().udiv(*x, *y),
            (IntMod, [x, y]) => self.b.ins().urem(*x, *y),
            (FloatTruediv, [x, y]) => self.b.ins().fdiv(*x, *y),
            (_, [x, ..]) => self.b.ins().sqrt(*x),
            _ => return Err(self.err("a fast path without operands")),
        };
        self.b.ins().jump(join, &[BlockArg::Value(v)]);
        self.b.switch_to_block(slow);
        let r = self
            .call_runtime(f, sig, vs)?
            .ok_or_else(|| self.err(format!("{f} gives no value")))?;
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(join);
        Ok(self.b.block_params(join).first().copied())
    }

    /// A fixed-size GC object: the runtime's inline fast path (a free slot
    /// of the object's size class, `rpy_gc_malloc_inline` in `rpy3.h`),
    /// else `rpy_gc_malloc`; always the call under `RPY_GC_STRESS`.
    fn malloc_fixed(
        &mut self,
        t: LlType,
        tidv: Value,
        sig: Signature,
    ) -> Result<Option<Value>, NativeError> {
        // RPY_SMALL_MAX, and the size of struct rpy_freeslot
        const SMALL_MAX: u64 = 512;
        const FREESLOT: u64 = 16;
        let size = self.cg.layout(t)?.size;
        if self.cg.gc_stress || !(FREESLOT..=SMALL_MAX).contains(&size) {
            return self.call_runtime("rpy_gc_malloc", sig, &[tidv]);
        }
        let class = size.div_ceil(16) - 1;
        let free = self.global_addr("rpy_free")?;
        let f = self.load(types::I64, free, 8 * class);
        let since_addr = self.global_addr("rpy_allocated_since")?;
        let since = self.load(types::I64, since_addr, 0);
        let thr_addr = self.global_addr("rpy_threshold")?;
        let thr = self.load(types::I64, thr_addr, 0);
        let has = self.b.ins().icmp_imm_s(IntCC::NotEqual, f, 0);
        let under = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, since, thr);
        let ok = self.b.ins().band(has, under);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, types::I64);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let next = self.load(types::I64, f, 8);
        self.store(next, free, 8 * class);
        self.store(tidv, f, 0);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.store(zero, f, 8);
        let since1 = self.b.ins().iadd_imm_s(since, size as i64);
        self.store(since1, since_addr, 0);
        self.b.ins().jump(join, &[BlockArg::Value(f)]);
        self.b.switch_to_block(slow);
        let r = self
            .call_runtime("rpy_gc_malloc", sig, &[tidv])?
            .ok_or_else(|| self.err("rpy_gc_malloc gives no value"))?;
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(join);
        Ok(self.b.block_params(join).first().copied())
    }

    fn bin(
        &mut self,
        args: &[Hlvalue],
        f: impl FnOnce(&mut FunctionBuilder<'_>, Value, Value) -> Value,
    ) -> Result<Option<Value>, NativeError> {
        let x = self.val1(&args[0])?;
        let y = self.val1(&args[1])?;
        Ok(Some(f(&mut self.b, x, y)))
    }

    fn icmp(&mut self, args: &[Hlvalue], cc: IntCC) -> Result<Option<Value>, NativeError> {
        self.bin(args, |b, x, y| b.ins().icmp(cc, x, y))
    }

    fn fcmp(&mut self, args: &[Hlvalue], cc: FloatCC) -> Result<Option<Value>, NativeError> {
        self.bin(args, |b, x, y| b.ins().fcmp(cc, x, y))
    }

    fn interior(&mut self, op: &SpaceOperation, o: LlOp, end: usize) -> Result<(), NativeError> {
        let args = &op.args;
        let steps: Vec<Hlvalue> = args[1..end].to_vec();
        let cur = self.struct_of(&args[0])?;
        let addr = self.val1(&args[0])?;
        let value = if o == LlOp::Setinteriorfield {
            self.val(&args[args.len() - 1])?
        } else {
            None
        };
        let needs_check = steps
            .iter()
            .any(|h| h.as_const().is_none() || self.ty(h).ok() != Some(VOID));
        self.checked(op, needs_check, move |s, fail| {
            s.interior_access(o, cur, addr, &steps, value, fail)
        })
    }

    /// Walks an interior path, checking each index as it is reached.
    fn interior_access(
        &mut self,
        o: LlOp,
        mut cur: LlType,
        mut addr: Value,
        steps: &[Hlvalue],
        value: Option<Value>,
        fail: cranelift_codegen::ir::Block,
    ) -> Result<Option<Value>, NativeError> {
        // the address is that of an inlined array's length word
        let mut at_length = false;
        let mut i = 0;
        while i < steps.len() {
            match cur.def() {
                TypeDef::Struct { .. } => {
                    let name = self.name_arg(&steps[i])?;
                    let ft = cur
                        .field_type(&name)
                        .ok_or_else(|| self.err(format!("{cur} has no field {name}")))?;
                    if let TypeDef::Array { item, .. } = ft.def() {
                        let (lofs, iofs, isize) = self.varsize(cur)?;
                        if i + 1 < steps.len() {
                            let idx = self.val1(&steps[i + 1])?;
                            let len = self.load(types::I64, addr, lofs);
                            self.bounds_check(idx, len, fail);
                            addr = self.item_addr(addr, idx, isize, iofs);
                            cur = item;
                            i += 2;
                            continue;
                        }
                        addr = self.b.ins().iadd_imm_s(addr, lofs as i64);
                        at_length = true;
                        cur = ft;
                        i += 1;
                        continue;
                    }
                    let off = self.field_offset(cur, &name)?;
                    if off != 0 {
                        addr = self.b.ins().iadd_imm_s(addr, off as i64);
                    }
                    cur = ft;
                }
                TypeDef::Array { item, .. } => {
                    let (lofs, iofs, isize) = self.varsize(cur)?;
                    let idx = self.val1(&steps[i])?;
                    let len = self.load(types::I64, addr, lofs);
                    self.bounds_check(idx, len, fail);
                    addr = self.item_addr(addr, idx, isize, iofs);
                    cur = item;
                }
                _ => return Err(self.err(format!("cannot step into a {cur}"))),
            }
            i += 1;
        }
        match o {
            LlOp::Getinteriorarraysize => {
                let ofs = if at_length {
                    0
                } else if matches!(cur.def(), TypeDef::Array { .. }) {
                    self.varsize(cur)?.0
                } else {
                    return Err(self.err("getinteriorarraysize of a non-array"));
                };
                Ok(Some(self.load(types::I64, addr, ofs)))
            }
            LlOp::Getinteriorfield => Ok(clif_type(cur).map(|ct| self.load(ct, addr, 0))),
            _ => {
                if let Some(v) = value {
                    self.store(v, addr, 0);
                }
                Ok(None)
            }
        }
    }

    fn call(&mut self, op: &SpaceOperation, o: LlOp) -> Result<Option<Value>, NativeError> {
        let args = &op.args;
        let n = if o == LlOp::IndirectCall {
            args.len() - 1
        } else {
            args.len()
        };
        let mut vs = Vec::new();
        for h in &args[1..n] {
            if let Some(v) = self.val(h)? {
                vs.push(v);
            }
        }
        let direct = match args[0].as_const().map(|c| llconst::ll_value(self.py, c)) {
            Some(Ok(LlValue::Func(f))) => Some(f.index as usize),
            _ => None,
        };
        let inst = match direct {
            Some(i) => {
                let id = *self
                    .cg
                    .func_ids
                    .get(i)
                    .ok_or_else(|| self.err(format!("no function #{i}")))?;
                let f = self.fref(id);
                self.b.ins().call(f, &vs)
            }
            None => {
                let ft = self.struct_of(&args[0])?;
                let TypeDef::Func { args: fa, result } = ft.def() else {
                    return Err(self.err("an indirect call of a non-function"));
                };
                let sig = signature(self.cg, &fa, result);
                let sref = self.b.import_signature(sig);
                let callee = self.val1(&args[0])?;
                self.b.ins().call_indirect(sref, callee, &vs)
            }
        };
        Ok(self.b.inst_results(inst).first().copied())
    }

    fn external(&mut self, op: &SpaceOperation) -> Result<Option<Value>, NativeError> {
        let name = self.name_arg(&op.args[0])?;
        let f = ExtFunc::from_name(&name)
            .ok_or_else(|| self.err(format!("unknown external function {name}")))?;
        let desc = f.desc();
        if desc.args.len() != op.args.len() - 1 {
            return Err(self.err(format!("{name} takes {} arguments", desc.args.len())));
        }
        let mut sig = Signature::new(self.cg.call_conv);
        let mut vs = Vec::new();
        for (t, h) in desc.args.iter().zip(&op.args[1..]) {
            let v = self.val1(h)?;
            sig.params.push(abi_param(ext_type(*t)?));
            vs.push(v);
        }
        if desc.result != ExtTy::Void {
            sig.returns.push(abi_param(ext_type(desc.result)?));
        }
        let r = self.call_runtime(&format!("rpy_ext_{name}"), sig, &vs)?;
        let rt = self.g.vars[op.result].concretetype.unwrap_or(VOID);
        Ok(if clif_type(rt).is_some() { r } else { None })
    }
}

/// The Cranelift type of an external function's argument or result.
pub fn ext_type(t: ExtTy) -> Result<Type, NativeError> {
    Ok(match t {
        ExtTy::Signed | ExtTy::Str | ExtTy::Bytes => types::I64,
        ExtTy::Float => types::F64,
        ExtTy::Bool => types::I8,
        ExtTy::Void => return Err(NativeError::new("a Void argument of an external function")),
    })
}

/// Declares the program's function `index` (`fN`, as genc names it).
pub fn declare(cg: &mut Codegen<'_>, index: usize, sig: &Signature) -> Result<FuncId, NativeError> {
    cg.module
        .declare_function(
            &rpy3_genc::funcs::func_name(index as u32),
            Linkage::Export,
            sig,
        )
        .map_err(|e| NativeError::new(format!("declaring f{index}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rpy3_model::extfunc::ALL_EXT_FUNCS;
    use rpy3_model::lloperation::ALL_LL_OPS;

    #[test]
    fn every_operation_of_the_table_is_implemented() {
        let missing: Vec<_> = ALL_LL_OPS.iter().filter(|&&o| !implemented(o)).collect();
        assert!(missing.is_empty(), "not implemented: {missing:?}");
    }

    #[test]
    fn every_external_function_has_a_signature() {
        for f in ALL_EXT_FUNCS {
            let d = f.desc();
            for a in d.args {
                assert!(ext_type(*a).is_ok(), "{}", d.name);
            }
            assert!(d.result == ExtTy::Void || ext_type(d.result).is_ok());
        }
    }
}
