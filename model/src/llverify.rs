//! The verifier of low-level graphs: the type rules every graph must obey
//! once rtyped, checked after rtyping and after every transform, so that
//! the executors (the llinterp, genc, native) can rely on them instead of
//! each checking again.
//!
//! On top of the structural invariants of [`crate::verify::checkgraph`]
//! (SSI form, exits), it checks that every variable and constant has a
//! low-level type, that every operation is in the table of
//! [`crate::lloperation`] and is applied to operands of the types its
//! pattern and its own rule require (a field that exists, a pointer cast
//! between related structs, `same_as` between equal types...), that links
//! pass values of the types their target blocks take, that exit switches
//! switch on something switchable, and that constants are values of their
//! types (prebuilt pointers into the prebuilt heap, function pointers to
//! functions of the program with the same type).
//!
//! Constants of low-level graphs are Python objects ([`crate::llconst`]),
//! hence the `Python` token.

use std::fmt;

use pyo3::prelude::*;

use crate::extfunc::{ExtFunc, ExtTy};
use crate::graph::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, LinkId, SourceLocation, VarId,
};
use crate::llconst::{self, LlPtrConst};
use crate::lloperation::{LlOp, TyPat};
use crate::lltype::{
    LlType, LlValue, Primitive, TypeDef, BOOL, CHAR, FLOAT, SIGNED, SIGNED_LONGLONG, UNICHAR,
    UNSIGNED, UNSIGNED_LONGLONG, VOID,
};
use crate::operation::OpName;
use crate::program::LlProgram;

/// Where in a function a rule is broken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The function as a whole (its type, its start or return block), or
    /// the program's tables.
    Function,
    /// A block's input arguments.
    Block(BlockId),
    /// Operation `index` of `block`.
    Op {
        /// The block.
        block: BlockId,
        /// The operation's index in it.
        index: usize,
        /// The operation's name.
        opname: &'static str,
    },
    /// A block's exit switch and links.
    Exits(BlockId),
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Function => f.write_str("the function"),
            Site::Block(b) => write!(f, "{b}"),
            Site::Op {
                block,
                index,
                opname,
            } => write!(f, "{block}, op {index} ({opname})"),
            Site::Exits(b) => write!(f, "{b}, exits"),
        }
    }
}

/// A broken type rule: the function, where in it, why, and the source
/// line when the operation has one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("function `{function}`, {site}: {message}{}", .location.as_ref().map(|l| format!(" (at {l})")).unwrap_or_default())]
pub struct LlVerifyError {
    /// The function's name (`LlFunction::name`), or `<program>`.
    pub function: String,
    /// Where in the function.
    pub site: Site,
    /// What is wrong.
    pub message: String,
    /// The source line of the operation, when known.
    pub location: Option<Box<SourceLocation>>,
}

/// Checks every function of `program`, its entry and its built-in
/// exception classes.
pub fn verify_program(py: Python<'_>, program: &LlProgram) -> Result<(), LlVerifyError> {
    let program_error = |message: String| LlVerifyError {
        function: "<program>".into(),
        site: Site::Function,
        message,
        location: None,
    };
    if program.entry >= program.functions.len() && !program.functions.is_empty() {
        return Err(program_error(format!(
            "the entry is function number {}, which does not exist",
            program.entry
        )));
    }
    let mut names: Vec<&String> = program.exceptions.keys().collect();
    names.sort();
    for name in names {
        let cls = &program.exceptions[name];
        if program.heap.object_at(cls.vtable.obj).is_none() {
            return Err(program_error(format!(
                "exception {name}: the vtable is not in the prebuilt heap"
            )));
        }
        if !cls.instance.starts_with(program.objmodel.object) {
            return Err(program_error(format!(
                "exception {name}: instances are {}, which does not start with object",
                cls.instance
            )));
        }
        if cls.instance.is_varsize() {
            return Err(program_error(format!(
                "exception {name}: instances are varsize"
            )));
        }
    }
    for index in 0..program.functions.len() {
        verify_function(py, program, index)?;
    }
    Ok(())
}

/// Checks function number `index` of `program`: its graph, and its type
/// against its start and return blocks.
pub fn verify_function(
    py: Python<'_>,
    program: &LlProgram,
    index: usize,
) -> Result<(), LlVerifyError> {
    let f = &program.functions[index];
    let mut v = Verifier::new(py, program, &f.graph, &f.name);
    v.check_signature(f.ty)?;
    v.check_graph()
}

/// Checks `graph` (called `name` in messages) in the context of `program`
/// (a graph a transform made before adding it to the program).
pub fn verify_graph(
    py: Python<'_>,
    program: &LlProgram,
    graph: &FunctionGraph,
    name: &str,
) -> Result<(), LlVerifyError> {
    Verifier::new(py, program, graph, name).check_graph()
}

struct Verifier<'a, 'py> {
    py: Python<'py>,
    program: &'a LlProgram,
    graph: &'a FunctionGraph,
    name: &'a str,
    site: Site,
    lineno: u32,
}

/// Whether a value of type `t` fits in a variable (not a struct, array,
/// function or opaque type, which only pointers reach).
fn is_value_type(t: LlType) -> bool {
    matches!(t.def(), TypeDef::Primitive(_) | TypeDef::Ptr(_))
}

/// Whether type `t` matches pattern `pat` of the operation table.
pub fn pattern_ok(pat: TyPat, t: LlType) -> bool {
    match pat {
        TyPat::Signed => t == SIGNED,
        TyPat::Unsigned => t == UNSIGNED,
        TyPat::LongLong => t == SIGNED_LONGLONG,
        TyPat::ULongLong => t == UNSIGNED_LONGLONG,
        TyPat::Float => t == FLOAT,
        TyPat::Bool => t == BOOL,
        TyPat::Char => t == CHAR,
        TyPat::UniChar => t == UNICHAR,
        TyPat::Void => t == VOID,
        TyPat::Ptr => t
            .target()
            .is_some_and(|x| !matches!(x.def(), TypeDef::Func { .. })),
        TyPat::FuncPtr => t
            .target()
            .is_some_and(|x| matches!(x.def(), TypeDef::Func { .. })),
        TyPat::Any | TyPat::Rest => true,
    }
}

/// Two types for a message: printed with their identity when their
/// printed forms are the same (two structs both called `list`).
fn two_types(got: LlType, want: LlType) -> (String, String) {
    let (g, w) = (got.to_string(), want.to_string());
    if g == w {
        (format!("{got:?}"), format!("{want:?}"))
    } else {
        (g, w)
    }
}

impl<'a, 'py> Verifier<'a, 'py> {
    fn new(
        py: Python<'py>,
        program: &'a LlProgram,
        graph: &'a FunctionGraph,
        name: &'a str,
    ) -> Self {
        Verifier {
            py,
            program,
            graph,
            name,
            site: Site::Function,
            lineno: 0,
        }
    }

    fn err(&self, message: impl Into<String>) -> LlVerifyError {
        let location = (self.lineno != 0).then(|| {
            Box::new(SourceLocation {
                filename: self.graph.source.filename.clone(),
                lineno: self.lineno,
                function: Some(self.graph.source.qualname.clone()).filter(|q| !q.is_empty()),
            })
        });
        LlVerifyError {
            function: self.name.to_string(),
            site: self.site.clone(),
            message: message.into(),
            location,
        }
    }

    fn expect(&self, what: &str, got: LlType, want: LlType) -> Result<(), LlVerifyError> {
        if got != want {
            let (g, w) = two_types(got, want);
            return Err(self.err(format!("{what} is {g}, expected {w}")));
        }
        Ok(())
    }

    fn var_type(&self, v: VarId) -> Result<LlType, LlVerifyError> {
        match self.graph.vars.get(v) {
            None => Err(self.err(format!("{v} is not a variable of the graph"))),
            Some(d) => d
                .concretetype
                .ok_or_else(|| self.err(format!("{v} has no concretetype"))),
        }
    }

    fn ty(&self, h: &Hlvalue) -> Result<LlType, LlVerifyError> {
        match h {
            Hlvalue::Variable(v) => self.var_type(*v),
            Hlvalue::Constant(c) => self.const_type(c),
        }
    }

    /// The type of a constant, after checking that its value is one of
    /// that type.
    fn const_type(&self, c: &Constant) -> Result<LlType, LlVerifyError> {
        let ty = c
            .concretetype
            .ok_or_else(|| self.err("a constant has no concretetype"))?;
        let v = llconst::ll_value(self.py, c).map_err(|e| self.err(e))?;
        self.check_value(&v, ty)?;
        Ok(ty)
    }

    /// Prebuilt pointers point into the prebuilt heap, at an object of a
    /// type the pointer type allows; function pointers name functions of
    /// the program of their type.
    fn check_value(&self, v: &LlValue, ty: LlType) -> Result<(), LlVerifyError> {
        match v {
            LlValue::Ptr(Some(p)) => {
                if self.program.heap.object_at(p.obj).is_none() {
                    return Err(self.err(format!(
                        "constant pointer to object #{} outside the prebuilt heap",
                        p.obj
                    )));
                }
                if !ty.accepts(v) {
                    return Err(self.err(format!("constant pointer to a {} used as a {ty}", p.ty)));
                }
                Ok(())
            }
            LlValue::Func(f) => match self.program.functions.get(f.index as usize) {
                None => Err(self.err(format!(
                    "constant pointer to function number {} which does not exist",
                    f.index
                ))),
                Some(func) if func.ty != f.ty => Err(self.err(format!(
                    "constant function pointer to `{}` of type {}, but the function is {}",
                    func.name, f.ty, func.ty
                ))),
                Some(_) => Ok(()),
            },
            _ => Ok(()),
        }
    }

    fn void_type(&self, h: &Hlvalue) -> Result<LlType, LlVerifyError> {
        h.as_const()
            .and_then(|c| llconst::type_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a Void constant holding a type"))
    }

    fn void_name(&self, h: &Hlvalue) -> Result<String, LlVerifyError> {
        h.as_const()
            .and_then(|c| llconst::name_of_constant(self.py, c))
            .ok_or_else(|| self.err("expected a Void constant holding a field name"))
    }

    fn ptr_target(&self, t: LlType, what: &str) -> Result<LlType, LlVerifyError> {
        t.target()
            .ok_or_else(|| self.err(format!("{what} is {t}, not a pointer")))
    }

    /// The type of field `name` of struct `s`.
    fn field(&self, s: LlType, name: &str) -> Result<LlType, LlVerifyError> {
        if !matches!(s.def(), TypeDef::Struct { .. }) {
            return Err(self.err(format!("{s} is not a struct")));
        }
        s.field_type(name)
            .ok_or_else(|| self.err(format!("{s} has no field `{name}`")))
    }

    fn array_item(&self, t: LlType) -> Result<LlType, LlVerifyError> {
        match t.def() {
            TypeDef::Array { item, .. } => Ok(item),
            _ => Err(self.err(format!("{t} is not an array"))),
        }
    }

    fn ptr_to(&self, t: LlType) -> Result<LlType, LlVerifyError> {
        LlType::ptr(t).map_err(|e| self.err(e.to_string()))
    }

    /// The function type `ty` against the start block's parameters and
    /// the return block's argument.
    fn check_signature(&mut self, ty: LlType) -> Result<(), LlVerifyError> {
        self.site = Site::Function;
        let g = self.graph;
        let TypeDef::Func { args, result } = ty.def() else {
            return Err(self.err(format!("the function's type {ty} is not a function type")));
        };
        let start = g
            .blocks
            .get(g.startblock)
            .ok_or_else(|| self.err("no start block"))?;
        if start.inputargs.len() != args.len() {
            return Err(self.err(format!(
                "the start block takes {} arguments but the function type has {}",
                start.inputargs.len(),
                args.len()
            )));
        }
        for (&v, &t) in start.inputargs.iter().zip(&args) {
            let vt = self.var_type(v)?;
            if vt != t {
                let (a, b) = two_types(vt, t);
                return Err(self.err(format!(
                    "parameter {v} is {a} but the function type says {b}"
                )));
            }
        }
        let ret = g
            .blocks
            .get(g.returnblock)
            .ok_or_else(|| self.err("no return block"))?;
        match ret.inputargs.as_slice() {
            [v] => {
                let vt = self.var_type(*v)?;
                if vt != result {
                    let (a, b) = two_types(vt, result);
                    return Err(self.err(format!(
                        "the return block takes {a} but the function returns {b}"
                    )));
                }
            }
            _ => return Err(self.err("the return block must take one argument")),
        }
        Ok(())
    }

    fn check_graph(&mut self) -> Result<(), LlVerifyError> {
        let g = self.graph;
        self.site = Site::Function;
        for special in [g.startblock, g.returnblock, g.exceptblock] {
            if g.blocks.get(special).is_none() {
                return Err(self.err(format!("{special} is not a block of the graph")));
            }
        }
        // the structural checks index the arenas: refuse dangling ids first
        for (bid, block) in g.blocks.iter() {
            for &l in &block.exits {
                let ok = g
                    .links
                    .get(l)
                    .is_some_and(|link| g.blocks.get(link.target).is_some());
                if !ok {
                    self.site = Site::Exits(bid);
                    return Err(self.err(format!("{l} is not a link to a block of the graph")));
                }
            }
        }
        crate::verify::checkgraph(g).map_err(|e| {
            // checkgraph names its block as printed (`block3`)
            let block = e
                .block
                .strip_prefix("block")
                .and_then(|n| n.parse().ok())
                .map(BlockId::from_u32);
            LlVerifyError {
                function: self.name.to_string(),
                site: block.map_or(Site::Function, Site::Block),
                message: e.message,
                location: None,
            }
        })?;
        for b in g.iterblocks() {
            self.check_block(b)?;
        }
        Ok(())
    }

    fn check_block(&mut self, b: BlockId) -> Result<(), LlVerifyError> {
        let g = self.graph;
        let block = &g.blocks[b];
        self.site = Site::Block(b);
        self.lineno = 0;
        for &v in &block.inputargs {
            self.var_type(v)?;
        }
        for (i, op) in block.operations.iter().enumerate() {
            self.lineno = op.lineno;
            let OpName::Ll(llop) = op.opname else {
                self.site = Site::Op {
                    block: b,
                    index: i,
                    opname: op.opname.name(),
                };
                return Err(self.err(format!(
                    "high-level operation `{}` in a low-level graph",
                    op.opname.name()
                )));
            };
            self.site = Site::Op {
                block: b,
                index: i,
                opname: llop.name(),
            };
            self.check_op(llop, &op.args, op.result)?;
        }
        self.site = Site::Exits(b);
        self.lineno = 0;
        if b == g.exceptblock {
            for &v in &block.inputargs {
                let t = self.var_type(v)?;
                self.ptr_target(t, &format!("the raised {v}"))?;
            }
        }
        match &block.exitswitch {
            ExitSwitch::None => {}
            ExitSwitch::Value(h) => self.check_switch(h, &block.exits)?,
            ExitSwitch::LastException => self.check_catch(&block.exits)?,
        }
        for &l in &block.exits {
            self.check_link(l)?;
        }
        Ok(())
    }

    fn check_link(&self, l: LinkId) -> Result<(), LlVerifyError> {
        let g = self.graph;
        let link = &g.links[l];
        let target = &g.blocks[link.target];
        for (a, &t) in link.args.iter().zip(&target.inputargs) {
            let (at, tt) = (self.ty(a)?, self.var_type(t)?);
            if at != tt {
                let (x, y) = two_types(at, tt);
                return Err(self.err(format!(
                    "{l} passes {x} to {t} of {} of type {y}",
                    link.target
                )));
            }
        }
        Ok(())
    }

    fn check_switch(&self, h: &Hlvalue, exits: &[LinkId]) -> Result<(), LlVerifyError> {
        let py = self.py;
        let g = self.graph;
        let t = self.ty(h)?;
        let case_of = |l: LinkId| {
            g.links[l]
                .exitcase
                .clone()
                .ok_or_else(|| self.err("a switch exit has no exitcase"))
        };
        if t == BOOL && exits.len() == 2 {
            let mut seen = [false, false];
            for &l in exits {
                let b: bool = case_of(l)?
                    .value
                    .bind(py)
                    .extract()
                    .map_err(|_| self.err("a Bool switch case is not a bool"))?;
                seen[b as usize] = true;
            }
            if seen != [true, true] {
                return Err(self.err("a Bool switch needs a False and a True exit"));
            }
            return Ok(());
        }
        if !matches!(t.primitive(), Some(p) if p != Primitive::Void && p != Primitive::Float) {
            return Err(self.err(format!("cannot switch on a {t}")));
        }
        for (i, &l) in exits.iter().enumerate() {
            let c = case_of(l)?;
            let is_default = c
                .value
                .bind(py)
                .extract::<String>()
                .is_ok_and(|s| s == "default");
            if is_default && i + 1 == exits.len() && t != CHAR && t != UNICHAR {
                continue;
            }
            let typed = Constant::typed(c.value.clone(), t);
            llconst::ll_value(py, &typed).map_err(|e| self.err(format!("switch case: {e}")))?;
        }
        Ok(())
    }

    fn check_catch(&self, exits: &[LinkId]) -> Result<(), LlVerifyError> {
        let g = self.graph;
        let objmodel = &self.program.objmodel;
        for &l in &exits[1..] {
            let link = &g.links[l];
            let case = link
                .exitcase
                .as_ref()
                .ok_or_else(|| self.err("an exception exit has no exception class"))?;
            let vtable = case
                .value
                .bind(self.py)
                .cast::<LlPtrConst>()
                .ok()
                .and_then(|p| p.get().ptr)
                .ok_or_else(|| self.err("an exception exit's case is not a vtable pointer"))?;
            let is_vtable = self
                .program
                .heap
                .object_at(vtable.obj)
                .is_some_and(|o| o.ty.starts_with(objmodel.vtable));
            if !is_vtable {
                return Err(self.err(format!(
                    "the case of exception exit {l} is not a vtable of the prebuilt heap"
                )));
            }
            for v in [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
            {
                let t = self.var_type(v)?;
                if t.target().is_none() {
                    return Err(self.err(format!("exception variable {v} is {t}, not a pointer")));
                }
            }
        }
        Ok(())
    }

    /// The arguments and result against the table's patterns.
    fn check_patterns(
        &self,
        op: LlOp,
        args: &[Hlvalue],
        result: VarId,
    ) -> Result<(), LlVerifyError> {
        let d = op.desc();
        let variadic = d.args.last() == Some(&TyPat::Rest);
        let fixed = if variadic {
            d.args.len() - 1
        } else {
            d.args.len()
        };
        if (variadic && args.len() < fixed) || (!variadic && args.len() != fixed) {
            return Err(self.err(format!("takes {} arguments, got {}", fixed, args.len())));
        }
        for a in args {
            self.ty(a)?;
        }
        for (i, (a, &pat)) in args.iter().zip(d.args).enumerate() {
            let t = self.ty(a)?;
            // pointer comparisons accept function pointers too
            let ok = pattern_ok(pat, t)
                || (pat == TyPat::Ptr
                    && matches!(
                        op,
                        LlOp::PtrEq | LlOp::PtrNe | LlOp::PtrIszero | LlOp::PtrNonzero
                    )
                    && t.target().is_some());
            if !ok {
                return Err(self.err(format!("argument {i} is {t}, expected {pat:?}")));
            }
        }
        let rt = self.var_type(result)?;
        if !pattern_ok(d.result, rt) {
            return Err(self.err(format!("result is {rt}, expected {:?}", d.result)));
        }
        Ok(())
    }

    /// One operation: the table's patterns, then the operation's own rule.
    fn check_op(&self, op: LlOp, args: &[Hlvalue], result: VarId) -> Result<(), LlVerifyError> {
        use LlOp::*;
        self.check_patterns(op, args, result)?;
        let rt = self.var_type(result)?;
        match op {
            SameAs => self.expect("the result", rt, self.ty(&args[0])?)?,
            Malloc | MallocVarsize => {
                let t = self.void_type(&args[0])?;
                if !matches!(t.def(), TypeDef::Struct { .. } | TypeDef::Array { .. }) {
                    return Err(self.err(format!("cannot allocate a {t}")));
                }
                if t.is_varsize() != (op == MallocVarsize) {
                    return Err(self.err(format!(
                        "{t} is {}varsize: use {}",
                        if t.is_varsize() { "" } else { "not " },
                        if t.is_varsize() {
                            "malloc_varsize"
                        } else {
                            "malloc"
                        }
                    )));
                }
                self.expect("the result", rt, self.ptr_to(t)?)?;
            }
            Getfield | Setfield => {
                let s = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
                let name = self.void_name(&args[1])?;
                let ft = self.field(s, &name)?;
                if !is_value_type(ft) {
                    return Err(self.err(format!("field `{name}` is a {ft}: use getsubstruct")));
                }
                if op == Setfield {
                    self.expect("the stored value", self.ty(&args[2])?, ft)?;
                    self.expect("the result", rt, VOID)?;
                } else {
                    self.expect("the result", rt, ft)?;
                }
            }
            Getsubstruct => {
                let s = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
                let name = self.void_name(&args[1])?;
                let ft = self.field(s, &name)?;
                if is_value_type(ft) {
                    return Err(self.err(format!("field `{name}` is a {ft}: use getfield")));
                }
                self.expect("the result", rt, self.ptr_to(ft)?)?;
            }
            Getarrayitem | Setarrayitem | Getarraysize => {
                let arr = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
                let item = self.array_item(arr)?;
                match op {
                    Getarraysize => {}
                    _ if !is_value_type(item) => {
                        return Err(self.err(format!("items are {item}: use getinteriorfield")))
                    }
                    Getarrayitem => self.expect("the result", rt, item)?,
                    _ => {
                        self.expect("the stored value", self.ty(&args[2])?, item)?;
                        self.expect("the result", rt, VOID)?;
                    }
                }
            }
            Getinteriorfield | Setinteriorfield | Getinteriorarraysize => {
                self.check_interior(op, args, rt)?
            }
            CastPointer => {
                let mut t = self.void_type(&args[0])?;
                if let Some(x) = t.target() {
                    t = x;
                }
                let from = self.ptr_target(self.ty(&args[1])?, "the pointer")?;
                self.expect("the result", rt, self.ptr_to(t)?)?;
                if !t.starts_with(from) && !from.starts_with(t) {
                    let (a, b) = two_types(from, t);
                    return Err(self.err(format!(
                        "cannot cast a pointer to {a} to a pointer to {b}: neither struct starts with the other"
                    )));
                }
            }
            PtrEq | PtrNe => {
                let (t0, t1) = (self.ty(&args[0])?, self.ty(&args[1])?);
                self.expect("the second pointer", t1, t0)?;
            }
            DirectCall | IndirectCall => self.check_call(op, args, rt)?,
            ExternalCall => self.check_external(args, rt)?,
            KeepAlive => self.expect("the result", rt, VOID)?,
            _ => {}
        }
        Ok(())
    }

    fn check_interior(&self, op: LlOp, args: &[Hlvalue], rt: LlType) -> Result<(), LlVerifyError> {
        let mut cur = self.ptr_target(self.ty(&args[0])?, "the pointer")?;
        let path_end = if op == LlOp::Setinteriorfield {
            args.len() - 1
        } else {
            args.len()
        };
        if path_end <= 1 {
            return Err(self.err("an interior path needs at least one step"));
        }
        for h in &args[1..path_end] {
            match cur.def() {
                TypeDef::Struct { .. } => {
                    let name = self.void_name(h)?;
                    cur = self.field(cur, &name)?;
                }
                TypeDef::Array { item, .. } => {
                    self.expect("an array index", self.ty(h)?, SIGNED)?;
                    cur = item;
                }
                _ => return Err(self.err(format!("cannot step into a {cur}"))),
            }
        }
        match op {
            LlOp::Getinteriorarraysize => {
                self.array_item(cur)?;
            }
            _ if !is_value_type(cur) => {
                return Err(self.err(format!("the path ends at a {cur}, not a value")))
            }
            LlOp::Getinteriorfield => self.expect("the result", rt, cur)?,
            _ => {
                self.expect("the stored value", self.ty(&args[args.len() - 1])?, cur)?;
                self.expect("the result", rt, VOID)?;
            }
        }
        Ok(())
    }

    fn check_call(&self, op: LlOp, args: &[Hlvalue], rt: LlType) -> Result<(), LlVerifyError> {
        let ft = self.ptr_target(self.ty(&args[0])?, "the function pointer")?;
        let TypeDef::Func {
            args: params,
            result,
        } = ft.def()
        else {
            return Err(self.err(format!("{ft} is not a function type")));
        };
        let mut actual = &args[1..];
        if op == LlOp::IndirectCall {
            // the last argument lists the graphs that may be called (or None)
            match actual.split_last() {
                Some((last, rest)) if self.ty(last)? == VOID => actual = rest,
                _ => {
                    return Err(
                        self.err("indirect_call needs a final Void argument (the list of graphs)")
                    )
                }
            }
        }
        if actual.len() != params.len() {
            return Err(self.err(format!(
                "the function takes {} arguments, got {}",
                params.len(),
                actual.len()
            )));
        }
        for (i, (a, &t)) in actual.iter().zip(&params).enumerate() {
            self.expect(&format!("argument {i}"), self.ty(a)?, t)?;
        }
        self.expect("the result", rt, result)
    }

    fn check_external(&self, args: &[Hlvalue], rt: LlType) -> Result<(), LlVerifyError> {
        let name = args
            .first()
            .and_then(|a| a.as_const())
            .and_then(|c| llconst::name_of_constant(self.py, c))
            .ok_or_else(|| self.err("external_call needs the function's name first"))?;
        let func = ExtFunc::from_name(&name)
            .ok_or_else(|| self.err(format!("no external function named '{name}'")))?;
        let desc = func.desc();
        let actual = &args[1..];
        if actual.len() != desc.args.len() {
            return Err(self.err(format!(
                "{name} takes {} arguments, got {}",
                desc.args.len(),
                actual.len()
            )));
        }
        for (i, (a, &want)) in actual.iter().zip(desc.args).enumerate() {
            self.expect_ext(&format!("argument {i} of {name}"), self.ty(a)?, want)?;
        }
        self.expect_ext(&format!("the result of {name}"), rt, desc.result)
    }

    /// Checks that `t` is the low-level type `want` of the external table
    /// stands for.
    fn expect_ext(&self, what: &str, t: LlType, want: ExtTy) -> Result<(), LlVerifyError> {
        if ext_type_ok(t, want) {
            Ok(())
        } else {
            Err(self.err(format!("{what} is {t}, not {want:?}")))
        }
    }
}

/// Whether `t` is the low-level type an argument or result type of the
/// external-function table stands for.
pub fn ext_type_ok(t: LlType, want: ExtTy) -> bool {
    match want {
        ExtTy::Signed => t == SIGNED,
        ExtTy::Float => t == FLOAT,
        ExtTy::Bool => t == BOOL,
        ExtTy::Void => t == VOID,
        ExtTy::Str | ExtTy::Bytes => {
            let name = if want == ExtTy::Str {
                "rpy_string"
            } else {
                "rpy_bytes"
            };
            matches!(
                t.target().map(|s| s.def()),
                Some(TypeDef::Struct { name: n, .. }) if n == name
            )
        }
    }
}
