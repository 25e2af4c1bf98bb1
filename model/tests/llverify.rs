//! The verifier of low-level graphs accepts well-typed programs and
//! rejects each kind of ill-typed graph with a message naming the
//! function, the block, the operation and the rule.

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{FuncRef, Heap, LlType, CHAR, FLOAT, SIGNED, UNICHAR, VOID};
use rpy3_model::llverify::{verify_function, verify_program, LlVerifyError, Site};
use rpy3_model::program::{LlFunction, LlProgram, ObjectModel};
use rpy3_model::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
    VarId,
};

fn program() -> LlProgram {
    LlProgram {
        functions: Vec::new(),
        heap: Heap::new(),
        objmodel: ObjectModel::new().unwrap(),
        exceptions: HashMap::new(),
        entry: 0,
    }
}

/// A graph of type `params -> result` being built.
struct Builder {
    g: FunctionGraph,
}

impl Builder {
    fn new(name: &str, params: &[LlType], result: LlType, om: &ObjectModel) -> Builder {
        let names = (0..params.len()).map(|i| format!("a{i}")).collect();
        let mut g = FunctionGraph::new(name, names);
        g.source.filename = "prog.py".into();
        g.source.qualname = name.into();
        for (i, &t) in params.iter().enumerate() {
            let a = g.blocks[g.startblock].inputargs[i];
            g.vars[a].concretetype = Some(t);
        }
        let r = g.blocks[g.returnblock].inputargs[0];
        g.vars[r].concretetype = Some(result);
        let e = g.blocks[g.exceptblock].inputargs.clone();
        g.vars[e[0]].concretetype = Some(om.vtable_ptr);
        g.vars[e[1]].concretetype = Some(om.object_ptr);
        Builder { g }
    }

    fn arg(&self, i: usize) -> VarId {
        self.g.blocks[self.g.startblock].inputargs[i]
    }

    fn op(&mut self, block: BlockId, op: LlOp, args: Vec<Hlvalue>, ty: LlType) -> VarId {
        let r = self.g.new_var("");
        self.g.vars[r].concretetype = Some(ty);
        let lineno = 10 + self.g.blocks[block].operations.len() as u32;
        self.g.blocks[block].operations.push(SpaceOperation {
            opname: OpName::Ll(op),
            args,
            result: r,
            lineno,
        });
        r
    }

    fn goto(&mut self, from: BlockId, to: BlockId, args: Vec<Hlvalue>) {
        self.g
            .closeblock(from, ExitSwitch::None, vec![Link::new(args, to)]);
    }

    /// The graph returning `value` from the start block, added to `p`.
    fn returning(mut self, p: &mut LlProgram, value: Hlvalue) -> usize {
        let (start, ret) = (self.g.startblock, self.g.returnblock);
        self.goto(start, ret, vec![value]);
        self.finish(p)
    }

    fn finish(self, p: &mut LlProgram) -> usize {
        let g = self.g;
        let args = g.blocks[g.startblock]
            .inputargs
            .iter()
            .map(|&v| g.vars[v].concretetype.unwrap())
            .collect();
        let rv = g.blocks[g.returnblock].inputargs[0];
        let ty = LlType::func(args, g.vars[rv].concretetype.unwrap());
        p.functions.push(LlFunction {
            name: g.name.clone(),
            graph: Arc::new(g),
            ty,
        });
        p.functions.len() - 1
    }
}

fn v(x: VarId) -> Hlvalue {
    Hlvalue::Variable(x)
}

fn int(py: Python<'_>, i: i64) -> Hlvalue {
    Constant::typed(PyObj::new(PyInt::new(py, i).as_any()), SIGNED).into()
}

fn name(py: Python<'_>, n: &str) -> Hlvalue {
    llconst::name_constant(py, n).into()
}

fn ty(py: Python<'_>, t: LlType) -> Hlvalue {
    llconst::type_constant(py, t).unwrap().into()
}

fn rejected(py: Python<'_>, p: &LlProgram) -> LlVerifyError {
    verify_program(py, p).expect_err("the program should not verify")
}

/// `rpy_string` and `rpy_bytes`: the same layout, different types.
fn string_types() -> (LlType, LlType) {
    let make = |name: &str| {
        let chars = LlType::array(UNICHAR, false).unwrap();
        let s = LlType::new_struct(
            name,
            vec![("hash".into(), SIGNED), ("chars".into(), chars)],
            true,
        )
        .unwrap();
        LlType::ptr(s).unwrap()
    };
    (make("rpy_string"), make("rpy_bytes"))
}

/// Instances of two sibling classes `A` and `B` below `object`.
fn sibling_classes(om: &ObjectModel) -> (LlType, LlType) {
    let make = |name: &str| {
        let s = LlType::new_struct(
            name,
            vec![("super".into(), om.object), ("inst_x".into(), SIGNED)],
            true,
        )
        .unwrap();
        LlType::ptr(s).unwrap()
    };
    (make("A"), make("B"))
}

#[test]
fn well_typed_programs_verify() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        // add(x, y) = x + y
        let mut b = Builder::new("add", &[SIGNED, SIGNED], SIGNED, &om);
        let (x, y) = (b.arg(0), b.arg(1));
        let start = b.g.startblock;
        let r = b.op(start, LlOp::IntAdd, vec![v(x), v(y)], SIGNED);
        let add = b.returning(&mut p, v(r));
        // up(a) = cast_pointer(object, a); a call of add
        let (pa, _) = sibling_classes(&om);
        let mut b = Builder::new("up", &[pa], om.object_ptr, &om);
        let a = b.arg(0);
        let start = b.g.startblock;
        let f = FuncRef {
            index: add as u32,
            ty: p.functions[add].ty,
        };
        let fc: Hlvalue = llconst::func_constant(py, f, "add").unwrap().into();
        b.op(
            start,
            LlOp::DirectCall,
            vec![fc, int(py, 1), int(py, 2)],
            SIGNED,
        );
        let o = b.op(
            start,
            LlOp::CastPointer,
            vec![ty(py, om.object_ptr), v(a)],
            om.object_ptr,
        );
        b.returning(&mut p, v(o));
        verify_program(py, &p).unwrap();
    });
}

#[test]
fn an_operand_of_the_wrong_type() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        let mut b = Builder::new("f", &[SIGNED, FLOAT], SIGNED, &om);
        let (x, y) = (b.arg(0), b.arg(1));
        let start = b.g.startblock;
        let r = b.op(start, LlOp::IntAdd, vec![v(x), v(y)], SIGNED);
        b.returning(&mut p, v(r));
        let e = rejected(py, &p);
        assert_eq!(
            e.to_string(),
            "function `f`, block0, op 0 (int_add): argument 1 is Float, expected Signed \
             (at prog.py:10 (in function f))"
        );
        assert_eq!(
            e.site,
            Site::Op {
                block: BlockId::from_u32(0),
                index: 0,
                opname: "int_add"
            }
        );
    });
}

#[test]
fn same_as_between_bytes_and_str() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        let (pstr, pbytes) = string_types();
        let mut b = Builder::new("f", &[pbytes], pstr, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::SameAs, vec![v(x)], pstr);
        b.returning(&mut p, v(r));
        assert_eq!(
            rejected(py, &p).to_string(),
            "function `f`, block0, op 0 (same_as): the result is Ptr(GcStruct(rpy_string)), \
             expected Ptr(GcStruct(rpy_bytes)) (at prog.py:10 (in function f))"
        );
    });
}

#[test]
fn same_as_between_two_structs_of_one_name_shows_their_identity() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        let make = || {
            let s = LlType::new_struct("list", vec![("length".into(), SIGNED)], true).unwrap();
            LlType::ptr(s).unwrap()
        };
        let (l1, l2) = (make(), make());
        let mut b = Builder::new("f", &[l1], l2, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::SameAs, vec![v(x)], l2);
        b.returning(&mut p, v(r));
        let msg = rejected(py, &p).message;
        assert!(
            msg.starts_with("the result is Ptr(GcStruct(list)#")
                && msg.contains(", expected Ptr(GcStruct(list)#"),
            "{msg}"
        );
    });
}

#[test]
fn cast_pointer_between_sibling_classes() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        let (pa, pb) = sibling_classes(&om);
        let mut b = Builder::new("f", &[pa], pb, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::CastPointer, vec![ty(py, pb), v(x)], pb);
        b.returning(&mut p, v(r));
        assert_eq!(
            rejected(py, &p).to_string(),
            "function `f`, block0, op 0 (cast_pointer): cannot cast a pointer to GcStruct(A) \
             to a pointer to GcStruct(B): neither struct starts with the other \
             (at prog.py:10 (in function f))"
        );
    });
}

#[test]
fn a_link_passing_the_wrong_type() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        let b = Builder::new("f", &[FLOAT], SIGNED, &om);
        let x = b.arg(0);
        b.returning(&mut p, v(x));
        let e = rejected(py, &p);
        assert_eq!(e.site, Site::Exits(BlockId::from_u32(0)));
        assert_eq!(
            e.to_string(),
            "function `f`, block0, exits: link0 passes Float to v1 of block1 of type Signed"
        );
    });
}

#[test]
fn fields_arrays_and_constants() {
    Python::attach(|py| {
        let om = ObjectModel::new().unwrap();
        let (pa, _) = sibling_classes(&om);
        // a field the struct does not have
        let mut p = program();
        let mut b = Builder::new("f", &[pa], SIGNED, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::Getfield, vec![v(x), name(py, "nope")], SIGNED);
        b.returning(&mut p, v(r));
        assert_eq!(rejected(py, &p).message, "GcStruct(A) has no field `nope`");
        // getarrayitem on a struct
        let mut p = program();
        let mut b = Builder::new("f", &[pa], SIGNED, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::Getarrayitem, vec![v(x), int(py, 0)], SIGNED);
        b.returning(&mut p, v(r));
        assert_eq!(rejected(py, &p).message, "GcStruct(A) is not an array");
        // a constant that is not a value of its type
        let mut p = program();
        let b = Builder::new("f", &[], SIGNED, &om);
        let bad = Constant::typed(PyObj::new(PyFloat::new(py, 1.5).as_any()), CHAR);
        b.returning(&mut p, bad.into());
        assert_eq!(
            rejected(py, &p).message,
            "constant 1.5 is not a value of type Char"
        );
        // a function pointer of another type than its function's
        let mut p = program();
        let b = Builder::new("g", &[], VOID, &om);
        let none = Constant::typed(PyObj::new(&py.None().into_bound(py)), VOID);
        b.returning(&mut p, none.into());
        let wrong = FuncRef {
            index: 0,
            ty: LlType::func(vec![SIGNED], VOID),
        };
        let mut b = Builder::new("f", &[], VOID, &om);
        let start = b.g.startblock;
        let fc: Hlvalue = llconst::func_constant(py, wrong, "g").unwrap().into();
        let r = b.op(start, LlOp::DirectCall, vec![fc, int(py, 1)], VOID);
        b.returning(&mut p, v(r));
        assert_eq!(
            rejected(py, &p).message,
            "constant function pointer to `g` of type Func(Signed) -> Void, \
             but the function is Func() -> Void"
        );
    });
}

#[test]
fn structural_invariants_come_first() {
    Python::attach(|py| {
        // a variable used in a block that does not define it
        let mut p = program();
        let om = p.objmodel;
        let mut b = Builder::new("f", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let mid = b.g.new_block(vec![]);
        b.goto(start, mid, vec![]);
        let ret = b.g.returnblock;
        b.goto(mid, ret, vec![v(x)]);
        b.finish(&mut p);
        let e = rejected(py, &p);
        assert_eq!(e.site, Site::Block(mid));
        assert_eq!(
            e.to_string(),
            "function `f`, block3: a link uses v0, which is not defined before it in this block"
        );
    });
}

#[test]
fn switches_and_signatures() {
    Python::attach(|py| {
        let mut p = program();
        let om = p.objmodel;
        // a switch on a Float
        let mut b = Builder::new("f", &[FLOAT], SIGNED, &om);
        let x = b.arg(0);
        let (start, ret) = (b.g.startblock, b.g.returnblock);
        let case = |i: i64| Constant::new(PyObj::new(PyInt::new(py, i).as_any()));
        b.g.closeblock(
            start,
            ExitSwitch::Value(v(x)),
            vec![
                Link::new(vec![int(py, 0)], ret).with_exitcase(case(0)),
                Link::new(vec![int(py, 1)], ret).with_exitcase(case(1)),
            ],
        );
        b.finish(&mut p);
        assert_eq!(rejected(py, &p).message, "cannot switch on a Float");
        // a function type that disagrees with the graph
        let mut p = program();
        let b = Builder::new("f", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let i = b.returning(&mut p, v(x));
        p.functions[i].ty = LlType::func(vec![FLOAT], SIGNED);
        let e = verify_function(py, &p, i).unwrap_err();
        assert_eq!(e.site, Site::Function);
        assert_eq!(
            e.message,
            "parameter v0 is Signed but the function type says Float"
        );
        // a high-level operation left over
        let mut p = program();
        let mut b = Builder::new("f", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let start = b.g.startblock;
        let r = b.op(start, LlOp::IntNeg, vec![v(x)], SIGNED);
        b.g.blocks[start].operations[0].opname = OpName::Neg;
        b.returning(&mut p, v(r));
        assert_eq!(
            rejected(py, &p).message,
            "high-level operation `neg` in a low-level graph"
        );
    });
}
