//! Low-level helper graphs built directly (isinstance checks, method
//! dispatchers; range helpers are in `lower/llhelpers.rs`), and a small
//! builder for low-level graphs.

use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, SIGNED, VOID};
use rpy3_model::{
    llconst, BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, SpaceOperation,
    VarId,
};

use rpy3_annotator::ClassDefId;
use rpy3_model::lltype::TypeDef;

use crate::{RTypeError, RTyper};

/// Builds a low-level graph block by block.
pub struct GraphBuilder {
    /// The graph.
    pub graph: FunctionGraph,
}

impl GraphBuilder {
    /// A graph taking arguments of `args` types and returning `result`;
    /// the start block's input variables are returned.
    pub fn new(
        rt: &RTyper<'_>,
        name: &str,
        args: &[LlType],
        result: LlType,
    ) -> (GraphBuilder, Vec<VarId>) {
        let names: Vec<String> = (0..args.len()).map(|i| format!("a{i}")).collect();
        let mut graph = FunctionGraph::new(name, names);
        for (i, &t) in args.iter().enumerate() {
            let v = graph.blocks[graph.startblock].inputargs[i];
            graph.vars[v].concretetype = Some(t);
        }
        let rv = graph.blocks[graph.returnblock].inputargs[0];
        graph.vars[rv].concretetype = Some(result);
        let ex = graph.blocks[graph.exceptblock].inputargs.clone();
        graph.vars[ex[0]].concretetype = Some(rt.objmodel.vtable_ptr);
        graph.vars[ex[1]].concretetype = Some(rt.objmodel.object_ptr);
        let inputs = graph.blocks[graph.startblock].inputargs.clone();
        (GraphBuilder { graph }, inputs)
    }

    /// A fresh typed variable.
    pub fn var(&mut self, ty: LlType) -> VarId {
        let v = self.graph.new_var("");
        self.graph.vars[v].concretetype = Some(ty);
        v
    }

    /// A new block with typed input variables.
    pub fn block(&mut self, inputs: &[LlType]) -> (BlockId, Vec<VarId>) {
        let vars: Vec<VarId> = inputs.iter().map(|&t| self.var(t)).collect();
        (self.graph.new_block(vars.clone()), vars)
    }

    /// Appends `result = op(args)` to `block`.
    pub fn op(&mut self, block: BlockId, op: LlOp, args: Vec<Hlvalue>, result: LlType) -> VarId {
        let r = self.var(result);
        self.graph.blocks[block].operations.push(SpaceOperation {
            opname: OpName::Ll(op),
            args,
            result: r,
            lineno: 0,
        });
        r
    }

    /// Ends `block` with a jump.
    pub fn goto(&mut self, block: BlockId, target: BlockId, args: Vec<Hlvalue>) {
        self.graph
            .closeblock(block, ExitSwitch::None, vec![Link::new(args, target)]);
    }

    /// Ends `block` with a two-way branch on a bool variable.
    pub fn branch(
        &mut self,
        py: Python<'_>,
        block: BlockId,
        cond: VarId,
        if_false: (BlockId, Vec<Hlvalue>),
        if_true: (BlockId, Vec<Hlvalue>),
    ) {
        let f = llconst::primitive_constant(py, LlValue::Bool(false), BOOL).expect("bool constant");
        let t = llconst::primitive_constant(py, LlValue::Bool(true), BOOL).expect("bool constant");
        self.graph.closeblock(
            block,
            ExitSwitch::Value(Hlvalue::Variable(cond)),
            vec![
                Link::new(if_false.1, if_false.0).with_exitcase(f),
                Link::new(if_true.1, if_true.0).with_exitcase(t),
            ],
        );
    }

    /// Ends `block` returning `value`.
    pub fn ret(&mut self, block: BlockId, value: Hlvalue) {
        let r = self.graph.returnblock;
        self.goto(block, r, vec![value]);
    }

    /// Ends `block` raising a new instance of a built-in exception.
    pub fn raise_builtin(
        &mut self,
        rt: &RTyper<'_>,
        py: Python<'_>,
        block: BlockId,
        name: &str,
    ) -> Result<(), RTypeError> {
        let c = rt.exception_classdef(name);
        let vt = rt.classes.vtable(c);
        let st = rt.classes.structs[&c];
        let tc = llconst::type_constant(py, st).map_err(|e| RTypeError::new(e.to_string()))?;
        let inst = self.op(
            block,
            LlOp::Malloc,
            vec![Hlvalue::Constant(tc)],
            rt.classes.ptrs[&c],
        );
        let otc = llconst::type_constant(py, rt.objmodel.object_ptr)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        let obj = self.op(
            block,
            LlOp::CastPointer,
            vec![Hlvalue::Constant(otc), Hlvalue::Variable(inst)],
            rt.objmodel.object_ptr,
        );
        let vtc = llconst::ptr_constant(py, Some(vt), rt.objmodel.vtable_ptr)
            .map_err(|e| RTypeError::new(e.to_string()))?;
        self.op(
            block,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(obj),
                Hlvalue::Constant(llconst::name_constant(py, "typeptr")),
                Hlvalue::Constant(vtc.clone()),
            ],
            VOID,
        );
        let e = self.graph.exceptblock;
        // the instance as the except block takes it
        let ev = self.graph.blocks[e].inputargs[1];
        let mut inst = obj;
        if let Some(t) = self.graph.vars[ev].concretetype {
            if t != rt.objmodel.object_ptr {
                let tc =
                    llconst::type_constant(py, t).map_err(|e| RTypeError::new(e.to_string()))?;
                inst = self.op(
                    block,
                    LlOp::CastPointer,
                    vec![Hlvalue::Constant(tc), Hlvalue::Variable(obj)],
                    t,
                );
            }
        }
        self.goto(
            block,
            e,
            vec![Hlvalue::Constant(vtc), Hlvalue::Variable(inst)],
        );
        Ok(())
    }
}

fn name(py: Python<'_>, n: &str) -> Hlvalue {
    Hlvalue::Constant(llconst::name_constant(py, n))
}

fn var(v: VarId) -> Hlvalue {
    Hlvalue::Variable(v)
}

impl RTyper<'_> {
    /// Registers a helper graph as a function of the program.
    pub fn add_helper(&mut self, key: &'static str, graph: FunctionGraph, ty: LlType) -> usize {
        let idx = self.funcs.len();
        self.funcs.push((graph.name.clone(), ty));
        self.graphs.push(Some(Arc::new(graph)));
        self.helpers.insert(key, idx);
        idx
    }

    /// `ll_issubclass(cls, of)`: the vtable `cls` is `of` or below it.
    fn subclass_test(
        &self,
        py: Python<'_>,
        b: &mut GraphBuilder,
        block: BlockId,
        cls: VarId,
        of: VarId,
    ) -> VarId {
        let id = b.op(
            block,
            LlOp::Getfield,
            vec![var(cls), name(py, "subclassrange_min")],
            SIGNED,
        );
        let lo = b.op(
            block,
            LlOp::Getfield,
            vec![var(of), name(py, "subclassrange_min")],
            SIGNED,
        );
        let hi = b.op(
            block,
            LlOp::Getfield,
            vec![var(of), name(py, "subclassrange_max")],
            SIGNED,
        );
        let above = b.op(block, LlOp::IntLe, vec![var(lo), var(id)], BOOL);
        let below = b.op(block, LlOp::IntLt, vec![var(id), var(hi)], BOOL);
        let a = b.op(block, LlOp::CastBoolToInt, vec![var(above)], SIGNED);
        let c = b.op(block, LlOp::CastBoolToInt, vec![var(below)], SIGNED);
        let both = b.op(block, LlOp::IntAnd, vec![var(a), var(c)], SIGNED);
        b.op(block, LlOp::IntIsTrue, vec![var(both)], BOOL)
    }

    /// The helper `ll_issubclass(cls: Ptr(vtable), of: Ptr(vtable)) -> Bool`.
    pub fn helper_issubclass(&mut self, py: Python<'_>) -> usize {
        if let Some(&i) = self.helpers.get("ll_issubclass") {
            return i;
        }
        let vt = self.objmodel.vtable_ptr;
        let (mut b, args) = GraphBuilder::new(self, "ll_issubclass", &[vt, vt], BOOL);
        let start = b.graph.startblock;
        let r = self.subclass_test(py, &mut b, start, args[0], args[1]);
        b.ret(start, var(r));
        self.add_helper("ll_issubclass", b.graph, LlType::func(vec![vt, vt], BOOL))
    }

    /// The helper `ll_isinstance(obj: Ptr(object), of: Ptr(vtable)) -> Bool`
    /// (false for the null pointer).
    pub fn helper_isinstance(&mut self, py: Python<'_>) -> usize {
        if let Some(&i) = self.helpers.get("ll_isinstance") {
            return i;
        }
        let (op, vt) = (self.objmodel.object_ptr, self.objmodel.vtable_ptr);
        let (mut b, args) = GraphBuilder::new(self, "ll_isinstance", &[op, vt], BOOL);
        let start = b.graph.startblock;
        let nz = b.op(start, LlOp::PtrNonzero, vec![var(args[0])], BOOL);
        let (check, cargs) = b.block(&[op, vt]);
        let f = Hlvalue::Constant(
            llconst::primitive_constant(py, LlValue::Bool(false), BOOL).expect("bool"),
        );
        let ret = b.graph.returnblock;
        b.branch(
            py,
            start,
            nz,
            (ret, vec![f]),
            (check, vec![var(args[0]), var(args[1])]),
        );
        let t = b.op(
            check,
            LlOp::Getfield,
            vec![var(cargs[0]), name(py, "typeptr")],
            vt,
        );
        let r = self.subclass_test(py, &mut b, check, t, cargs[1]);
        b.ret(check, var(r));
        self.add_helper("ll_isinstance", b.graph, LlType::func(vec![op, vt], BOOL))
    }
}

impl RTyper<'_> {
    /// Whether function `f`'s graph never returns (its result was never
    /// annotated: it always raises).
    fn never_returns(&self, f: usize) -> bool {
        self.func_of_graph
            .iter()
            .find(|(_, &i)| i == f)
            .map(|(&g, _)| self.ann.return_annotation(g).is_impossible())
            .unwrap_or(false)
    }

    /// Whether the methods of `cases` (class, function) take the same
    /// arguments after `self` and give results one dispatcher can return
    /// (else the call goes through a generated Python dispatcher).
    pub fn methods_share_a_type(&self, cases: &[(ClassDefId, usize)]) -> bool {
        let funcs: Vec<usize> = cases.iter().map(|&(_, f)| f).collect();
        if !self.defaults_agree(&funcs) {
            // one call fills each method's own defaults
            return false;
        }
        self.same_low_level_types(cases)
    }

    /// Whether the functions of graphs `funcs` (indices) have the same
    /// default values: a call through one pointer binds the arguments it
    /// omits once, from one of them.
    pub fn defaults_agree(&self, funcs: &[usize]) -> bool {
        let graphs: Vec<rpy3_annotator::GraphId> = funcs
            .iter()
            .filter_map(|f| {
                self.func_of_graph
                    .iter()
                    .find(|(_, &i)| i == *f)
                    .map(|(g, _)| *g)
            })
            .collect();
        let Some(&g0) = graphs.first() else {
            return true;
        };
        let same = |a: &[rpy3_model::Constant], b: &[rpy3_model::Constant]| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| rpy3_annotator::model::same_const(&x.value, &y.value))
        };
        let first = &self.ann.graphs[g0].graph;
        graphs.iter().all(|&g| {
            let graph = &self.ann.graphs[g].graph;
            same(&graph.defaults, &first.defaults)
                && graph.kwdefaults.len() == first.kwdefaults.len()
                && graph.kwdefaults.iter().all(|(n, c)| {
                    first
                        .kwdefaults
                        .iter()
                        .any(|(m, d)| m == n && same(std::slice::from_ref(c), std::slice::from_ref(d)))
                })
        })
    }

    /// Whether the functions of `cases` have the same low-level type.
    fn same_low_level_types(&self, cases: &[(ClassDefId, usize)]) -> bool {
        let Some(&(_, f0)) = cases.first() else {
            return true;
        };
        let TypeDef::Func {
            args: first_args,
            mut result,
        } = self.funcs[f0].1.def()
        else {
            return false;
        };
        for &(_, f) in cases {
            if let TypeDef::Func { result: r, .. } = self.funcs[f].1.def() {
                if result == VOID && r != VOID {
                    result = r;
                }
            }
        }
        cases.iter().all(|&(_, f)| match self.funcs[f].1.def() {
            TypeDef::Func { args, result: r } => {
                args.len() == first_args.len()
                    && args[1..] == first_args[1..]
                    // results differ only as pointers (cast to the
                    // first's); checked both ways, so the answer does not
                    // depend on the order of the cases
                    && (r == result
                        || r == VOID
                        || (r.target().is_some() && result.target().is_some()))
                    && !(r == VOID
                        && result != VOID
                        && !self.never_returns(f)
                        && result.target().is_none())
            }
            _ => false,
        })
    }

    /// When the methods of `cases` return instances of different classes
    /// (`Int.add` an `Int`, `Func.add` a `CombinedFunc`): the class their
    /// dispatcher returns, the closest common base of those classes.
    pub fn dispatch_result_class(&self, cases: &[(ClassDefId, usize)]) -> Option<ClassDefId> {
        let mut classes = Vec::new();
        for &(_, f) in cases {
            let TypeDef::Func { result: r, .. } = self.funcs[f].1.def() else {
                return None;
            };
            if r == VOID {
                continue;
            }
            let c = self
                .classes
                .ptrs
                .iter()
                .find(|(_, &p)| p == r)
                .map(|(&c, _)| c)?;
            if !classes.contains(&c) {
                classes.push(c);
            }
        }
        if classes.len() < 2 {
            return None;
        }
        let ancestors = |c: ClassDefId| {
            let mut out = Vec::new();
            let mut k = Some(c);
            while let Some(x) = k {
                out.push(x);
                k = self.ann.classdefs[x].base;
            }
            out
        };
        let mut common = ancestors(classes[0]);
        for &c in &classes[1..] {
            let a = ancestors(c);
            common.retain(|x| a.contains(x));
        }
        common.first().copied()
    }

    /// When the methods of `cases` are generator functions of one family
    /// (`Repr::GeneratorSet`): the family, whose header their dispatcher
    /// returns.
    pub fn dispatch_result_generators(
        &self,
        cases: &[(ClassDefId, usize)],
    ) -> Option<rpy3_annotator::ItemDefId> {
        let mut root = None;
        for &(_, f) in cases {
            let g = self
                .func_of_graph
                .iter()
                .find(|(_, &i)| i == f)
                .map(|(&g, _)| g)?;
            let id = self.ann.graphs[g].generator?;
            let r = self.ann.itemdefs.find(id);
            if root.is_some_and(|x| x != r) || self.generator_family(id).len() < 2 {
                return None;
            }
            root = Some(r);
        }
        root
    }

    /// Whether every class at or below `base` finds one of the methods of
    /// `cases`: some case's class is `base` or above it.
    pub fn family_covers(&self, base: ClassDefId, cases: &[(ClassDefId, usize)]) -> bool {
        let mut k = Some(base);
        while let Some(x) = k {
            if cases.iter().any(|&(c, _)| c == x) {
                return true;
            }
            k = self.ann.classdefs[x].base;
        }
        false
    }

    /// A dispatcher calling, for a receiver of class `base`, the function
    /// of the most specific case its class is a subclass of: `cases` are
    /// `(class, function index)`.  Arguments after the receiver pass
    /// through; the first case gives their types and the result type.
    pub fn method_dispatcher(
        &mut self,
        py: Python<'_>,
        base: ClassDefId,
        mut cases: Vec<(ClassDefId, usize)>,
    ) -> Result<usize, RTypeError> {
        // most specific classes first
        let depth = |rt: &RTyper<'_>, c: ClassDefId| {
            let mut d = 0;
            let mut k = Some(c);
            while let Some(x) = k {
                d += 1;
                k = rt.ann.classdefs[x].base;
            }
            d
        };
        cases.sort_by_key(|&(c, f)| (std::cmp::Reverse(depth(self, c)), c, f));
        let key = format!("dispatch:{base:?}:{cases:?}");
        if let Some(&i) = self.dispatchers.get(&key) {
            return Ok(i);
        }
        let (first_args, mut result) = match self.funcs[cases[0].1].1.def() {
            TypeDef::Func { args, result } => (args, result),
            _ => {
                return Err(RTypeError::new(
                    "internal error: function without a function type",
                ))
            }
        };
        if !self.family_covers(base, &cases) {
            // (the call site sends such a family through rpy3._dispatch,
            // which raises AttributeError for the classes without it)
            return Err(RTypeError::new(
                "internal error: a dispatcher for methods some classes lack",
            ));
        }
        if !self.methods_share_a_type(&cases) {
            return Err(RTypeError::unsupported(
                "overriding methods with different argument or result types",
            ));
        }
        // a case without a result (a method that only raises, as an
        // abstract base method does, or returns None) takes the others'
        for &(_, f) in &cases {
            if let TypeDef::Func { result: r, .. } = self.funcs[f].1.def() {
                if result == VOID && r != VOID {
                    result = r;
                }
            }
        }
        // instances of different classes: their common base
        if let Some(c) = self.dispatch_result_class(&cases) {
            result = self.classes.instance_ptr(c);
        }
        // generators of different functions: their frames' header
        if let Some(root) = self.dispatch_result_generators(&cases) {
            result = LlType::ptr(self.genbase_struct(root)).map_err(|e| RTypeError::new(e.to_string()))?;
        }
        let base_ptr = self.classes.instance_ptr(base);
        let mut arg_types = vec![base_ptr];
        arg_types.extend(first_args[1..].iter().copied());
        let (mut b, args) = GraphBuilder::new(
            self,
            &format!("dispatch_{}", self.funcs[cases[0].1].0),
            &arg_types,
            result,
        );
        let issub = self.helper_issubclass(py);
        let issub_c = Hlvalue::Constant(
            llconst::func_constant(py, self.func_ref(issub), "ll_issubclass")
                .map_err(|e| RTypeError::new(e.to_string()))?,
        );
        let start = b.graph.startblock;
        let op_t = self.objmodel.object_ptr;
        let obj = b.op(
            start,
            LlOp::CastPointer,
            vec![type_const(py, op_t)?, var(args[0])],
            op_t,
        );
        let t = b.op(
            start,
            LlOp::Getfield,
            vec![var(obj), name(py, "typeptr")],
            self.objmodel.vtable_ptr,
        );
        let mut pass: Vec<Hlvalue> = args.iter().map(|&v| var(v)).collect();
        pass.push(var(t));
        let mut types = arg_types.clone();
        types.push(self.objmodel.vtable_ptr);
        let (mut check, mut cvars) = b.block(&types);
        b.goto(start, check, pass);
        for (i, &(c, f)) in cases.iter().enumerate() {
            let (call, kvars) = b.block(&arg_types);
            let fwd: Vec<Hlvalue> = cvars[..arg_types.len()].iter().map(|&v| var(v)).collect();
            if i + 1 == cases.len() {
                // the last (most general) case takes everything left
                b.goto(check, call, fwd);
            } else {
                let vt = Hlvalue::Constant(
                    llconst::ptr_constant(
                        py,
                        Some(self.classes.vtable(c)),
                        self.objmodel.vtable_ptr,
                    )
                    .map_err(|e| RTypeError::new(e.to_string()))?,
                );
                let ok = b.op(
                    check,
                    LlOp::DirectCall,
                    vec![issub_c.clone(), var(cvars[arg_types.len()]), vt],
                    BOOL,
                );
                let (next, nvars) = b.block(&types);
                let all: Vec<Hlvalue> = cvars.iter().map(|&v| var(v)).collect();
                b.branch(py, check, ok, (next, all), (call, fwd));
                check = next;
                cvars = nvars;
            }
            let (fargs, fres) = match self.funcs[f].1.def() {
                TypeDef::Func { args, result } => (args, result),
                _ => unreachable!("checked above"),
            };
            let me = b.op(
                call,
                LlOp::CastPointer,
                vec![type_const(py, fargs[0])?, var(kvars[0])],
                fargs[0],
            );
            let mut cargs = vec![Hlvalue::Constant(
                llconst::func_constant(py, self.func_ref(f), &self.funcs[f].0.clone())
                    .map_err(|e| RTypeError::new(e.to_string()))?,
            )];
            cargs.push(var(me));
            cargs.extend(kvars[1..].iter().map(|&v| var(v)));
            let mut r = b.op(call, LlOp::DirectCall, cargs, fres);
            if fres == VOID && result != VOID {
                // None (a null pointer), or a value never used after a
                // method that always raises
                let zero = zero_value(result);
                b.ret(call, value_const(py, zero, result)?);
                continue;
            }
            if fres != result {
                r = b.op(
                    call,
                    LlOp::CastPointer,
                    vec![type_const(py, result)?, var(r)],
                    result,
                );
            }
            b.ret(call, var(r));
        }
        let ty = LlType::func(arg_types, result);
        let idx = self.add_helper("dispatch", b.graph, ty);
        self.dispatchers.insert(key, idx);
        Ok(idx)
    }
}

/// The zero (null) value of a low-level type.
fn zero_value(t: LlType) -> LlValue {
    use rpy3_model::lltype::{FLOAT, UNICHAR, UNSIGNED, UNSIGNED_LONGLONG};
    match t {
        t if t == BOOL => LlValue::Bool(false),
        t if t == FLOAT => LlValue::Float(0.0),
        t if t == UNSIGNED || t == UNSIGNED_LONGLONG => LlValue::UInt(0),
        t if t == UNICHAR => LlValue::UniChar(0),
        t if t == rpy3_model::lltype::CHAR => LlValue::Char(0),
        t if t.target().is_some() => LlValue::Ptr(None),
        _ => LlValue::Int(0),
    }
}

/// A typed `Void` constant naming a type.
pub fn type_const(py: Python<'_>, t: LlType) -> Result<Hlvalue, RTypeError> {
    llconst::type_constant(py, t)
        .map(Hlvalue::Constant)
        .map_err(|e| RTypeError::new(e.to_string()))
}

/// A typed constant.
pub fn value_const(py: Python<'_>, v: LlValue, t: LlType) -> Result<Hlvalue, RTypeError> {
    let c: Constant = match v {
        LlValue::Ptr(p) => llconst::ptr_constant(py, p, t),
        LlValue::Func(f) => llconst::func_constant(py, f, "?"),
        other => llconst::primitive_constant(py, other, t),
    }
    .map_err(|e| RTypeError::new(e.to_string()))?;
    Ok(Hlvalue::Constant(c))
}
