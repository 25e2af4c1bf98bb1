//! Hand-built low-level programs for the llinterp tests and benchmark: a
//! program skeleton with the object model and the built-in exception
//! classes, a small graph builder, and the benchmark functions written as
//! the rtyper would lower them.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{FuncRef, Heap, LlType, LlValue, Ptr, BOOL, CHAR, SIGNED, UNICHAR, VOID};
use rpy3_model::program::{LlExceptionClass, LlFunction, LlProgram, ObjectModel};
use rpy3_model::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
    VarId,
};

/// The built-in exception hierarchy: (name, parent).
const EXCEPTIONS: &[(&str, Option<&str>)] = &[
    ("Exception", None),
    ("ArithmeticError", Some("Exception")),
    ("ZeroDivisionError", Some("ArithmeticError")),
    ("OverflowError", Some("ArithmeticError")),
    ("LookupError", Some("Exception")),
    ("IndexError", Some("LookupError")),
    ("KeyError", Some("LookupError")),
    ("ValueError", Some("Exception")),
    ("MemoryError", Some("Exception")),
];

/// A program with the object model, vtables for the built-in exceptions
/// (subclass ranges numbered in preorder) and no functions yet.
pub fn base_program() -> LlProgram {
    let objmodel = ObjectModel::new().unwrap();
    let mut heap = Heap::new();
    // preorder numbering: a class's range covers its subclasses
    fn number(name: &str, next: &mut i64, out: &mut HashMap<String, (i64, i64)>) {
        let lo = *next;
        *next += 1;
        for (child, parent) in EXCEPTIONS {
            if *parent == Some(name) {
                number(child, next, out);
            }
        }
        out.insert(name.to_string(), (lo, *next));
    }
    let mut ranges = HashMap::new();
    number("Exception", &mut 0, &mut ranges);
    let mut exceptions = HashMap::new();
    for (name, _) in EXCEPTIONS {
        let (lo, hi) = ranges[*name];
        let vt = heap.malloc(objmodel.vtable, 0).unwrap();
        let s = heap.malloc(objmodel.name_array, name.len()).unwrap();
        for (i, ch) in name.bytes().enumerate() {
            heap.set_item(&s, i as i64, 0, LlValue::Char(ch)).unwrap();
        }
        heap.set_slot(&vt, 0, LlValue::Int(lo));
        heap.set_slot(&vt, 1, LlValue::Int(hi));
        heap.set_slot(&vt, 2, LlValue::Ptr(Some(s)));
        let instance =
            LlType::new_struct(name, vec![("super".into(), objmodel.object)], true).unwrap();
        exceptions.insert(
            name.to_string(),
            LlExceptionClass {
                vtable: vt,
                instance,
            },
        );
    }
    LlProgram {
        functions: Vec::new(),
        heap,
        objmodel,
        exceptions,
        entry: 0,
    }
}

/// The vtable of a built-in exception class.
pub fn vtable(p: &LlProgram, name: &str) -> Ptr {
    p.exceptions[name].vtable
}

/// A reference to function number `index` of type `args -> result`.
pub fn funcref(index: usize, args: &[LlType], result: LlType) -> FuncRef {
    FuncRef {
        index: index as u32,
        ty: LlType::func(args.to_vec(), result),
    }
}

/// Adds a function; returns its index.
pub fn add_function(
    p: &mut LlProgram,
    name: &str,
    g: FunctionGraph,
    args: &[LlType],
    result: LlType,
) -> usize {
    p.functions.push(LlFunction {
        name: name.into(),
        graph: Arc::new(g),
        ty: LlType::func(args.to_vec(), result),
    });
    p.functions.len() - 1
}

pub fn int(py: Python<'_>, i: i64) -> Hlvalue {
    Constant::typed(PyObj::new(PyInt::new(py, i).as_any()), SIGNED).into()
}

pub fn boolean(py: Python<'_>, b: bool) -> Hlvalue {
    Constant::typed(PyObj::new(PyBool::new(py, b).to_owned().as_any()), BOOL).into()
}

pub fn float(py: Python<'_>, x: f64) -> Hlvalue {
    Constant::typed(
        PyObj::new(PyFloat::new(py, x).as_any()),
        rpy3_model::lltype::FLOAT,
    )
    .into()
}

pub fn chr(py: Python<'_>, c: char) -> Hlvalue {
    Constant::typed(PyObj::new(PyString::new(py, &c.to_string()).as_any()), CHAR).into()
}

pub fn unichar(py: Python<'_>, c: char) -> Hlvalue {
    Constant::typed(
        PyObj::new(PyString::new(py, &c.to_string()).as_any()),
        UNICHAR,
    )
    .into()
}

pub fn ty(py: Python<'_>, t: LlType) -> Hlvalue {
    llconst::type_constant(py, t).unwrap().into()
}

pub fn name(py: Python<'_>, n: &str) -> Hlvalue {
    llconst::name_constant(py, n).into()
}

pub fn func(py: Python<'_>, f: FuncRef, n: &str) -> Hlvalue {
    llconst::func_constant(py, f, n).unwrap().into()
}

pub fn null(py: Python<'_>, ptr_ty: LlType) -> Hlvalue {
    llconst::ptr_constant(py, None, ptr_ty).unwrap().into()
}

pub fn void(py: Python<'_>) -> Hlvalue {
    Constant::typed(PyObj::new(&py.None().into_bound(py)), VOID).into()
}

pub fn v(x: VarId) -> Hlvalue {
    Hlvalue::Variable(x)
}

/// An exception exit: the class's vtable, the target block, the link's
/// arguments and the (class, instance) variables the link defines.
pub type Handler = (Ptr, BlockId, Vec<Hlvalue>, Option<(VarId, VarId)>);

/// Builds one low-level graph.
pub struct GraphBuilder {
    pub g: FunctionGraph,
}

impl GraphBuilder {
    /// A graph taking `params`, returning `result`, raising through an
    /// except block typed with the object model.
    pub fn new(name: &str, params: &[LlType], result: LlType, om: &ObjectModel) -> GraphBuilder {
        let names = (0..params.len()).map(|i| format!("a{i}")).collect();
        let mut g = FunctionGraph::new(name, names);
        for (i, &t) in params.iter().enumerate() {
            let a = g.blocks[g.startblock].inputargs[i];
            g.vars[a].concretetype = Some(t);
        }
        let r = g.blocks[g.returnblock].inputargs[0];
        g.vars[r].concretetype = Some(result);
        let e = g.blocks[g.exceptblock].inputargs.clone();
        g.vars[e[0]].concretetype = Some(om.vtable_ptr);
        g.vars[e[1]].concretetype = Some(om.object_ptr);
        GraphBuilder { g }
    }

    pub fn start(&self) -> BlockId {
        self.g.startblock
    }

    pub fn ret(&self) -> BlockId {
        self.g.returnblock
    }

    pub fn exc(&self) -> BlockId {
        self.g.exceptblock
    }

    pub fn arg(&self, i: usize) -> VarId {
        self.g.blocks[self.g.startblock].inputargs[i]
    }

    pub fn var(&mut self, t: LlType) -> VarId {
        let v = self.g.new_var("");
        self.g.vars[v].concretetype = Some(t);
        v
    }

    /// A block taking arguments of the given types.
    pub fn block(&mut self, tys: &[LlType]) -> (BlockId, Vec<VarId>) {
        let args: Vec<VarId> = tys.iter().map(|&t| self.var(t)).collect();
        (self.g.new_block(args.clone()), args)
    }

    /// Appends `result = op(args)` to `b`.
    pub fn op(&mut self, b: BlockId, op: LlOp, args: Vec<Hlvalue>, t: LlType) -> VarId {
        let result = self.var(t);
        self.g.blocks[b].operations.push(SpaceOperation {
            opname: OpName::Ll(op),
            args,
            result,
            lineno: 0,
        });
        result
    }

    pub fn goto(&mut self, from: BlockId, to: BlockId, args: Vec<Hlvalue>) {
        self.g
            .closeblock(from, ExitSwitch::None, vec![Link::new(args, to)]);
    }

    /// `if cond: iftrue else: iffalse`.
    pub fn branch(
        &mut self,
        py: Python<'_>,
        from: BlockId,
        cond: VarId,
        iftrue: (BlockId, Vec<Hlvalue>),
        iffalse: (BlockId, Vec<Hlvalue>),
    ) {
        let case = |b: bool| Constant::new(PyObj::new(PyBool::new(py, b).to_owned().as_any()));
        let f = Link::new(iffalse.1, iffalse.0).with_exitcase(case(false));
        let t = Link::new(iftrue.1, iftrue.0).with_exitcase(case(true));
        self.g
            .closeblock(from, ExitSwitch::Value(v(cond)), vec![f, t]);
    }

    /// Variables for an exception link (class, instance).
    pub fn exc_vars(&mut self, om: &ObjectModel) -> (VarId, VarId) {
        (self.var(om.vtable_ptr), self.var(om.object_ptr))
    }

    /// Closes a raising block: a normal exit and exception exits
    /// `(vtable, target, args, (etype, evalue) defined by the link)`.
    pub fn catch(
        &mut self,
        py: Python<'_>,
        from: BlockId,
        normal: (BlockId, Vec<Hlvalue>),
        handlers: Vec<Handler>,
        om: &ObjectModel,
    ) {
        let mut links = vec![Link::new(normal.1, normal.0)];
        for (vt, target, args, vars) in handlers {
            let case = llconst::ptr_constant(py, Some(vt), om.vtable_ptr).unwrap();
            let mut l = Link::new(args, target).with_exitcase(case);
            if let Some((et, ev)) = vars {
                l.last_exception = Some(et);
                l.last_exc_value = Some(ev);
            }
            links.push(l);
        }
        self.g.closeblock(from, ExitSwitch::LastException, links);
    }

    pub fn finish(self) -> FunctionGraph {
        rpy3_model::checkgraph(&self.g).unwrap();
        self.g
    }
}

/// `int_loop(n)`: `while i < n: total += i * i % 7; i += 1`.
pub fn int_loop(py: Python<'_>, p: &mut LlProgram) -> usize {
    let om = p.objmodel;
    let mut b = GraphBuilder::new("int_loop", &[SIGNED], SIGNED, &om);
    let n = b.arg(0);
    let (header, h) = b.block(&[SIGNED, SIGNED, SIGNED]);
    let (body, bd) = b.block(&[SIGNED, SIGNED, SIGNED]);
    let start = b.start();
    b.goto(start, header, vec![int(py, 0), int(py, 0), v(n)]);
    let c = b.op(header, LlOp::IntLt, vec![v(h[0]), v(h[2])], BOOL);
    let ret = b.ret();
    b.branch(
        py,
        header,
        c,
        (body, vec![v(h[0]), v(h[1]), v(h[2])]),
        (ret, vec![v(h[1])]),
    );
    let sq = b.op(body, LlOp::IntMul, vec![v(bd[0]), v(bd[0])], SIGNED);
    let m = b.op(body, LlOp::IntMod, vec![v(sq), int(py, 7)], SIGNED);
    let t = b.op(body, LlOp::IntAdd, vec![v(bd[1]), v(m)], SIGNED);
    let i = b.op(body, LlOp::IntAdd, vec![v(bd[0]), int(py, 1)], SIGNED);
    b.goto(body, header, vec![v(i), v(t), v(bd[2])]);
    add_function(p, "int_loop", b.finish(), &[SIGNED], SIGNED)
}

/// The `Node` instance type of `linked_list`: `object` + `v` + `nxt`.
pub fn node_type(om: &ObjectModel) -> (LlType, LlType) {
    let node = LlType::forward(true);
    let pnode = LlType::ptr(node).unwrap();
    node.become_(
        "Node",
        vec![
            ("super".into(), om.object),
            ("inst_v".into(), SIGNED),
            ("inst_nxt".into(), pnode),
        ],
    )
    .unwrap();
    (node, pnode)
}

/// `linked_list(n)` as the rtyper lowers it: `Node(i, head)` mallocs an
/// instance, sets its typeptr and calls `Node.__init__`; the walk reads
/// fields until the null pointer.  Returns the index of `linked_list`.
pub fn linked_list(py: Python<'_>, p: &mut LlProgram) -> usize {
    let om = p.objmodel;
    let (node, pnode) = node_type(&om);
    // a prebuilt vtable for Node
    let vt = p.heap.malloc(om.vtable, 0).unwrap();
    p.heap.set_slot(&vt, 0, LlValue::Int(1000));
    p.heap.set_slot(&vt, 1, LlValue::Int(1001));
    let vt_const: Hlvalue = llconst::ptr_constant(py, Some(vt), om.vtable_ptr)
        .unwrap()
        .into();

    // Node.__init__(self, v, nxt)
    let init_args = [pnode, SIGNED, pnode];
    let mut b = GraphBuilder::new("Node.__init__", &init_args, VOID, &om);
    let (s, x, nxt) = (b.arg(0), b.arg(1), b.arg(2));
    let start = b.start();
    b.op(
        start,
        LlOp::Setfield,
        vec![v(s), name(py, "inst_v"), v(x)],
        VOID,
    );
    b.op(
        start,
        LlOp::Setfield,
        vec![v(s), name(py, "inst_nxt"), v(nxt)],
        VOID,
    );
    let ret = b.ret();
    b.goto(start, ret, vec![void(py)]);
    let init = add_function(p, "Node.__init__", b.finish(), &init_args, VOID);
    let init_ref = funcref(init, &init_args, VOID);

    let mut b = GraphBuilder::new("linked_list", &[SIGNED], SIGNED, &om);
    let n = b.arg(0);
    let (build, bl) = b.block(&[SIGNED, pnode, SIGNED]);
    let (mk, mkv) = b.block(&[SIGNED, pnode, SIGNED]);
    let (walk_head, wh) = b.block(&[pnode, SIGNED]);
    let (walk, wk) = b.block(&[pnode, SIGNED]);
    let start = b.start();
    b.goto(start, build, vec![int(py, 0), null(py, pnode), v(n)]);
    let c = b.op(build, LlOp::IntLt, vec![v(bl[0]), v(bl[2])], BOOL);
    b.branch(
        py,
        build,
        c,
        (mk, vec![v(bl[0]), v(bl[1]), v(bl[2])]),
        (walk_head, vec![v(bl[1]), int(py, 0)]),
    );
    let obj = b.op(mk, LlOp::Malloc, vec![ty(py, node)], pnode);
    let up = b.op(
        mk,
        LlOp::CastPointer,
        vec![ty(py, om.object_ptr), v(obj)],
        om.object_ptr,
    );
    b.op(
        mk,
        LlOp::Setfield,
        vec![v(up), name(py, "typeptr"), vt_const],
        VOID,
    );
    b.op(
        mk,
        LlOp::DirectCall,
        vec![
            func(py, init_ref, "Node.__init__"),
            v(obj),
            v(mkv[0]),
            v(mkv[1]),
        ],
        VOID,
    );
    let i = b.op(mk, LlOp::IntAdd, vec![v(mkv[0]), int(py, 1)], SIGNED);
    b.goto(mk, build, vec![v(i), v(obj), v(mkv[2])]);
    let z = b.op(walk_head, LlOp::PtrNonzero, vec![v(wh[0])], BOOL);
    let ret = b.ret();
    b.branch(
        py,
        walk_head,
        z,
        (walk, vec![v(wh[0]), v(wh[1])]),
        (ret, vec![v(wh[1])]),
    );
    let x = b.op(
        walk,
        LlOp::Getfield,
        vec![v(wk[0]), name(py, "inst_v")],
        SIGNED,
    );
    let s2 = b.op(walk, LlOp::IntAdd, vec![v(wk[1]), v(x)], SIGNED);
    let nx = b.op(
        walk,
        LlOp::Getfield,
        vec![v(wk[0]), name(py, "inst_nxt")],
        pnode,
    );
    b.goto(walk, walk_head, vec![v(nx), v(s2)]);
    add_function(p, "linked_list", b.finish(), &[SIGNED], SIGNED)
}

/// The reference results.
pub fn int_loop_expected(n: i64) -> i64 {
    (0..n).map(|i| i * i % 7).sum()
}

pub fn linked_list_expected(n: i64) -> i64 {
    (0..n).sum()
}
