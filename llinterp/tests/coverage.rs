//! Every operation of the low-level table is implemented: each one is
//! executed once in a generated graph.  A new operation in the table fails
//! this test until it has a sample here (and compiles only once the
//! llinterp's exhaustive matches handle it).

mod common;

use common::*;
use pyo3::prelude::*;
use rpy3_llinterp::{implemented, LlInterp, LlOutcome};
use rpy3_model::lloperation::{LlOp, TyPat, ALL_LL_OPS};
use rpy3_model::lltype::{
    LlType, LlValue, BOOL, CHAR, FLOAT, SIGNED, SIGNED_LONGLONG, UNICHAR, UNSIGNED,
    UNSIGNED_LONGLONG, VOID,
};
use rpy3_model::program::LlProgram;
use rpy3_model::Hlvalue;

/// The type and a sample value for a primitive pattern.
fn sample(pat: TyPat) -> Option<(LlType, LlValue)> {
    Some(match pat {
        TyPat::Signed => (SIGNED, LlValue::Int(3)),
        TyPat::Unsigned => (UNSIGNED, LlValue::UInt(3)),
        TyPat::LongLong => (SIGNED_LONGLONG, LlValue::Int(3)),
        TyPat::ULongLong => (UNSIGNED_LONGLONG, LlValue::UInt(3)),
        TyPat::Float => (FLOAT, LlValue::Float(1.5)),
        TyPat::Bool => (BOOL, LlValue::Bool(true)),
        TyPat::Char => (CHAR, LlValue::Char(b'a')),
        TyPat::UniChar => (UNICHAR, LlValue::UniChar(0x263A)),
        _ => return None,
    })
}

/// A program whose function 0.. ends with a function (the last one) that
/// executes `op` once, and the arguments to call it with.
fn program_for(py: Python<'_>, op: LlOp) -> Option<(LlProgram, usize, Vec<LlValue>)> {
    let mut p = base_program();
    let om = p.objmodel;
    let d = op.desc();
    // primitive operations: parameters from the patterns
    if d.args
        .iter()
        .chain([&d.result])
        .all(|&t| sample(t).is_some())
    {
        let (params, mut values): (Vec<LlType>, Vec<LlValue>) =
            d.args.iter().map(|&t| sample(t).unwrap()).unzip();
        if matches!(op, LlOp::FloatAsin | LlOp::FloatAcos | LlOp::FloatAtanh) {
            // inside the functions' domain
            values[0] = LlValue::Float(0.5);
        }
        let (rt, _) = sample(d.result).unwrap();
        let mut b = GraphBuilder::new(op.name(), &params, rt, &om);
        let args = (0..params.len()).map(|i| v(b.arg(i))).collect();
        let start = b.start();
        let r = b.op(start, op, args, rt);
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let f = add_function(&mut p, op.name(), b.finish(), &params, rt);
        return Some((p, f, values));
    }
    // the rest: a graph building what the operation needs
    let (node, pnode) = node_type(&om);
    let arr = LlType::array(SIGNED, true).unwrap();
    let parr = LlType::ptr(arr).unwrap();
    let pts = LlType::array(
        LlType::new_struct(
            "Point",
            vec![("x".into(), SIGNED), ("y".into(), SIGNED)],
            false,
        )
        .unwrap(),
        true,
    )
    .unwrap();
    let ppts = LlType::ptr(pts).unwrap();
    let ident = funcref(0, &[SIGNED], SIGNED);
    let mut b = GraphBuilder::new("ident", &[SIGNED], SIGNED, &om);
    let (start, ret, x) = (b.start(), b.ret(), b.arg(0));
    b.goto(start, ret, vec![v(x)]);
    add_function(&mut p, "ident", b.finish(), &[SIGNED], SIGNED);

    let mut b = GraphBuilder::new(op.name(), &[], SIGNED, &om);
    let s = b.start();
    let node_obj = b.op(s, LlOp::Malloc, vec![ty(py, node)], pnode);
    let a = b.op(s, LlOp::MallocVarsize, vec![ty(py, arr), int(py, 4)], parr);
    let ps = b.op(s, LlOp::MallocVarsize, vec![ty(py, pts), int(py, 2)], ppts);
    let result: Hlvalue = match op {
        LlOp::SameAs => v(b.op(s, op, vec![int(py, 5)], SIGNED)),
        LlOp::Malloc | LlOp::MallocVarsize => int(py, 0),
        LlOp::Getfield => v(b.op(s, op, vec![v(node_obj), name(py, "inst_v")], SIGNED)),
        LlOp::Setfield => {
            b.op(
                s,
                op,
                vec![v(node_obj), name(py, "inst_v"), int(py, 7)],
                VOID,
            );
            v(b.op(
                s,
                LlOp::Getfield,
                vec![v(node_obj), name(py, "inst_v")],
                SIGNED,
            ))
        }
        LlOp::Getsubstruct => {
            let sup = b.op(s, op, vec![v(node_obj), name(py, "super")], om.object_ptr);
            let z = b.op(s, LlOp::PtrNonzero, vec![v(sup)], BOOL);
            v(b.op(s, LlOp::CastBoolToInt, vec![v(z)], SIGNED))
        }
        LlOp::Getarrayitem => v(b.op(s, op, vec![v(a), int(py, 3)], SIGNED)),
        LlOp::Setarrayitem => {
            b.op(s, op, vec![v(a), int(py, 3), int(py, 9)], VOID);
            v(b.op(s, LlOp::Getarrayitem, vec![v(a), int(py, 3)], SIGNED))
        }
        LlOp::Getarraysize => v(b.op(s, op, vec![v(a)], SIGNED)),
        LlOp::Getinteriorfield => v(b.op(s, op, vec![v(ps), int(py, 1), name(py, "y")], SIGNED)),
        LlOp::Setinteriorfield => {
            b.op(
                s,
                op,
                vec![v(ps), int(py, 1), name(py, "y"), int(py, 11)],
                VOID,
            );
            v(b.op(
                s,
                LlOp::Getinteriorfield,
                vec![v(ps), int(py, 1), name(py, "y")],
                SIGNED,
            ))
        }
        LlOp::StrToFloat => {
            // "2.5" in a string struct: 2.5, as an int 2
            let chars = LlType::array(UNICHAR, false).unwrap();
            let st = LlType::new_struct(
                "rpy_string",
                vec![("hash".into(), SIGNED), ("chars".into(), chars)],
                true,
            )
            .unwrap();
            let pst = LlType::ptr(st).unwrap();
            let sv = b.op(s, LlOp::MallocVarsize, vec![ty(py, st), int(py, 3)], pst);
            for (i, c) in "2.5".chars().enumerate() {
                b.op(
                    s,
                    LlOp::Setinteriorfield,
                    vec![v(sv), name(py, "chars"), int(py, i as i64), unichar(py, c)],
                    VOID,
                );
            }
            let x = b.op(s, op, vec![v(sv)], FLOAT);
            v(b.op(s, LlOp::CastFloatToInt, vec![v(x)], SIGNED))
        }
        LlOp::Getinteriorarraysize => {
            // a varsize struct: the path names its array
            let chars = LlType::array(CHAR, false).unwrap();
            let st = LlType::new_struct(
                "STR",
                vec![("hash".into(), SIGNED), ("chars".into(), chars)],
                true,
            )
            .unwrap();
            let pst = LlType::ptr(st).unwrap();
            let sv = b.op(s, LlOp::MallocVarsize, vec![ty(py, st), int(py, 5)], pst);
            v(b.op(s, op, vec![v(sv), name(py, "chars")], SIGNED))
        }
        LlOp::CastPointer => {
            let up = b.op(
                s,
                op,
                vec![ty(py, om.object_ptr), v(node_obj)],
                om.object_ptr,
            );
            let down = b.op(s, op, vec![ty(py, pnode), v(up)], pnode);
            v(b.op(s, LlOp::Getfield, vec![v(down), name(py, "inst_v")], SIGNED))
        }
        LlOp::PtrEq | LlOp::PtrNe => {
            let r = b.op(s, op, vec![v(node_obj), null(py, pnode)], BOOL);
            v(b.op(s, LlOp::CastBoolToInt, vec![v(r)], SIGNED))
        }
        LlOp::PtrIszero | LlOp::PtrNonzero => {
            let r = b.op(s, op, vec![v(a)], BOOL);
            v(b.op(s, LlOp::CastBoolToInt, vec![v(r)], SIGNED))
        }
        LlOp::GcIdentityHash | LlOp::GcId => {
            // stable for one object
            let h1 = b.op(s, op, vec![v(a)], SIGNED);
            let h2 = b.op(s, op, vec![v(a)], SIGNED);
            let r = b.op(s, LlOp::IntEq, vec![v(h1), v(h2)], BOOL);
            v(b.op(s, LlOp::CastBoolToInt, vec![v(r)], SIGNED))
        }
        LlOp::DirectCall => v(b.op(s, op, vec![func(py, ident, "ident"), int(py, 4)], SIGNED)),
        LlOp::IndirectCall => {
            let fptr = LlType::ptr(ident.ty).unwrap();
            let fv = b.op(s, LlOp::SameAs, vec![func(py, ident, "ident")], fptr);
            v(b.op(s, op, vec![v(fv), int(py, 4), void(py)], SIGNED))
        }
        LlOp::ExternalCall => {
            // the clock (each external function is exercised by
            // testsuite/tests/external.rs against a captured world)
            let t = b.op(s, op, vec![name(py, "time_monotonic")], FLOAT);
            v(b.op(s, LlOp::CastFloatToInt, vec![v(t)], SIGNED))
        }
        LlOp::DebugAssert => {
            b.op(s, op, vec![boolean(py, true), name(py, "must hold")], VOID);
            int(py, 1)
        }
        LlOp::KeepAlive => {
            b.op(s, op, vec![v(node_obj)], VOID);
            int(py, 1)
        }
        _ => return None,
    };
    let ret = b.ret();
    b.goto(s, ret, vec![result]);
    let f = add_function(&mut p, op.name(), b.finish(), &[], SIGNED);
    Some((p, f, vec![]))
}

#[test]
fn every_operation_of_the_table_is_implemented() {
    Python::attach(|py| {
        let mut missing = Vec::new();
        // operations of prepared graphs are the compiled backends' (the
        // llinterp runs graphs before preparation)
        for &op in ALL_LL_OPS.iter().filter(|op| !op.desc().prepared) {
            assert!(implemented(op), "{op} has no lowering");
            let Some((p, f, args)) = program_for(py, op) else {
                missing.push(format!("{op}: no sample graph"));
                continue;
            };
            let mut it = match LlInterp::new(py, &p) {
                Ok(it) => it,
                Err(e) => {
                    missing.push(format!("{op}: {e}"));
                    continue;
                }
            };
            match it.call(f, args) {
                Ok(_) => {}
                Err(LlOutcome::Raised { class_name, .. }) => {
                    missing.push(format!("{op}: raised {class_name}"))
                }
                Err(LlOutcome::Exit(status)) => missing.push(format!("{op}: exit {status}")),
                Err(LlOutcome::Error(e)) => missing.push(format!("{op}: {e}")),
            }
        }
        assert!(
            missing.is_empty(),
            "operations not implemented:\n{}",
            missing.join("\n")
        );
    });
}
