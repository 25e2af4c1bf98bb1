//! The llinterp on hand-built low-level programs: loops, heap structures,
//! arrays, exceptions across calls, recursion, overflow, and the load-time
//! type checker.

mod common;

use common::*;
use pyo3::prelude::*;
use rpy3_llinterp::{check_program, Fault, LlError, LlInterp, LlOutcome};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, Ptr, BOOL, CHAR, FLOAT, SIGNED, VOID};
use rpy3_model::program::LlProgram;

fn raised_name(r: Result<LlValue, LlOutcome>) -> String {
    match r {
        Err(LlOutcome::Raised { class_name, .. }) => class_name,
        other => panic!("expected a low-level exception, got {other:?}"),
    }
}

fn load(py: Python<'_>, p: &LlProgram) -> LlInterp {
    LlInterp::new(py, p).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn int_loop_runs() {
    Python::attach(|py| {
        let mut p = base_program();
        let f = int_loop(py, &mut p);
        let mut it = load(py, &p);
        for n in [0, 1, 10, 1000] {
            assert_eq!(
                it.call(f, vec![LlValue::Int(n)]),
                Ok(LlValue::Int(int_loop_expected(n)))
            );
        }
    });
}

#[test]
fn linked_list_of_gc_structs() {
    Python::attach(|py| {
        let mut p = base_program();
        let f = linked_list(py, &mut p);
        let mut it = load(py, &p);
        let before = it.heap_len();
        assert_eq!(
            it.call(f, vec![LlValue::Int(100)]),
            Ok(LlValue::Int(linked_list_expected(100)))
        );
        assert_eq!(it.heap_len(), before + 100);
        // the heap persists across calls until reset
        it.reset_heap();
        assert_eq!(it.heap_len(), before);
        assert_eq!(it.call(f, vec![LlValue::Int(0)]), Ok(LlValue::Int(0)));
    });
}

#[test]
fn objects_allocated_by_calls_survive_flushing() {
    Python::attach(|py| {
        // build(n) returns the head of a list of n nodes
        let mut p = base_program();
        let om = p.objmodel;
        let (node, pnode) = node_type(&om);
        let mut b = GraphBuilder::new("pair", &[SIGNED], pnode, &om);
        let x = b.arg(0);
        let start = b.start();
        let tail = b.op(start, LlOp::Malloc, vec![ty(py, node)], pnode);
        b.op(
            start,
            LlOp::Setfield,
            vec![v(tail), name(py, "inst_v"), v(x)],
            VOID,
        );
        let head = b.op(start, LlOp::Malloc, vec![ty(py, node)], pnode);
        b.op(
            start,
            LlOp::Setfield,
            vec![v(head), name(py, "inst_nxt"), v(tail)],
            VOID,
        );
        let ret = b.ret();
        b.goto(start, ret, vec![v(head)]);
        let f = add_function(&mut p, "pair", b.finish(), &[SIGNED], pnode);
        let mut it = load(py, &p);
        let Ok(LlValue::Ptr(Some(h1))) = it.call(f, vec![LlValue::Int(5)]) else {
            panic!()
        };
        let next = |it: &LlInterp, h| it.read_slot(&h, 2);
        let Some(LlValue::Ptr(Some(t1))) = next(&it, h1) else {
            panic!()
        };
        assert_eq!(it.read_slot(&t1, 1), Some(LlValue::Int(5)));
        // flushing into the persistent heap keeps object numbers
        let heap = it.heap().clone();
        assert_eq!(heap.get_slot(&t1, 1), LlValue::Int(5));
        let Ok(LlValue::Ptr(Some(h2))) = it.call(f, vec![LlValue::Int(6)]) else {
            panic!()
        };
        assert_ne!(h1.obj, h2.obj);
        let Some(LlValue::Ptr(Some(t2))) = next(&it, h2) else {
            panic!()
        };
        assert_eq!(it.read_slot(&t2, 1), Some(LlValue::Int(6)));
        assert_eq!(it.read_slot(&t1, 1), Some(LlValue::Int(5)));
        assert_eq!(it.read_slot(&t1, 99), None);
    });
}

/// `f(n, i)`: an array of n ints `a[k] = k * 10`, returns `a[i]`, or -1
/// when indexing raises IndexError (`catch` true) — else the IndexError
/// escapes.
fn array_program(py: Python<'_>, catch: bool) -> (LlProgram, usize) {
    let mut p = base_program();
    let om = p.objmodel;
    let arr = LlType::array(SIGNED, true).unwrap();
    let parr = LlType::ptr(arr).unwrap();
    let mut b = GraphBuilder::new("array", &[SIGNED, SIGNED], SIGNED, &om);
    let (n, i) = (b.arg(0), b.arg(1));
    let (fill, fl) = b.block(&[parr, SIGNED, SIGNED, SIGNED]);
    let (set, st) = b.block(&[parr, SIGNED, SIGNED, SIGNED]);
    let (read, rd) = b.block(&[parr, SIGNED]);
    let start = b.start();
    let a = b.op(start, LlOp::MallocVarsize, vec![ty(py, arr), v(n)], parr);
    b.goto(start, fill, vec![v(a), int(py, 0), v(n), v(i)]);
    let c = b.op(fill, LlOp::IntLt, vec![v(fl[1]), v(fl[2])], BOOL);
    let args = |x: &[rpy3_model::VarId]| x.iter().map(|&y| v(y)).collect::<Vec<_>>();
    b.branch(
        py,
        fill,
        c,
        (set, args(&fl)),
        (read, vec![v(fl[0]), v(fl[3])]),
    );
    let ten = b.op(set, LlOp::IntMul, vec![v(st[1]), int(py, 10)], SIGNED);
    b.op(
        set,
        LlOp::Setarrayitem,
        vec![v(st[0]), v(st[1]), v(ten)],
        VOID,
    );
    let k = b.op(set, LlOp::IntAdd, vec![v(st[1]), int(py, 1)], SIGNED);
    b.goto(set, fill, vec![v(st[0]), v(k), v(st[2]), v(st[3])]);
    let size = b.op(read, LlOp::Getarraysize, vec![v(rd[0])], SIGNED);
    let _ = size;
    let item = b.op(read, LlOp::Getarrayitem, vec![v(rd[0]), v(rd[1])], SIGNED);
    let ret = b.ret();
    if catch {
        let vt = vtable(&p, "IndexError");
        b.catch(
            py,
            read,
            (ret, vec![v(item)]),
            vec![(vt, ret, vec![int(py, -1)], None)],
            &om,
        );
    } else {
        b.goto(read, ret, vec![v(item)]);
    }
    let f = add_function(&mut p, "array", b.finish(), &[SIGNED, SIGNED], SIGNED);
    (p, f)
}

#[test]
fn array_index_error_caught_by_exception_link() {
    Python::attach(|py| {
        let (p, f) = array_program(py, true);
        let mut it = load(py, &p);
        let call = |it: &mut LlInterp, n, i| it.call(f, vec![LlValue::Int(n), LlValue::Int(i)]);
        assert_eq!(call(&mut it, 5, 3), Ok(LlValue::Int(30)));
        assert_eq!(call(&mut it, 5, 5), Ok(LlValue::Int(-1)));
        assert_eq!(call(&mut it, 5, -1), Ok(LlValue::Int(-1)));
        assert_eq!(call(&mut it, 0, 0), Ok(LlValue::Int(-1)));
    });
}

#[test]
fn array_index_error_escapes_without_handler() {
    Python::attach(|py| {
        let (p, f) = array_program(py, false);
        let mut it = load(py, &p);
        assert_eq!(
            raised_name(it.call(f, vec![LlValue::Int(2), LlValue::Int(7)])),
            "IndexError"
        );
        assert_eq!(
            it.call(f, vec![LlValue::Int(2), LlValue::Int(1)]),
            Ok(LlValue::Int(10))
        );
    });
}

/// `div(x, y) = x // y`; `safe(x, y)` calls it, catching ValueError (no
/// match) then ArithmeticError (matches ZeroDivisionError) and returning
/// the caught class's subclassrange_min... as -1 / -2.
fn division_program(py: Python<'_>) -> (LlProgram, usize, usize) {
    let mut p = base_program();
    let om = p.objmodel;
    let mut b = GraphBuilder::new("div", &[SIGNED, SIGNED], SIGNED, &om);
    let (x, y) = (b.arg(0), b.arg(1));
    let start = b.start();
    let q = b.op(start, LlOp::IntFloordiv, vec![v(x), v(y)], SIGNED);
    let ret = b.ret();
    b.goto(start, ret, vec![v(q)]);
    let div = add_function(&mut p, "div", b.finish(), &[SIGNED, SIGNED], SIGNED);

    let mut b = GraphBuilder::new("safe", &[SIGNED, SIGNED], SIGNED, &om);
    let (x, y) = (b.arg(0), b.arg(1));
    let start = b.start();
    let r = b.op(
        start,
        LlOp::DirectCall,
        vec![
            func(py, funcref(div, &[SIGNED, SIGNED], SIGNED), "div"),
            v(x),
            v(y),
        ],
        SIGNED,
    );
    let ret = b.ret();
    // the handler block receives the exception class and reads its name length
    let (handler, hv) = b.block(&[om.vtable_ptr]);
    let et = b.exc_vars(&om);
    let lo = b.op(
        handler,
        LlOp::Getfield,
        vec![v(hv[0]), name(py, "subclassrange_min")],
        SIGNED,
    );
    let neg = b.op(handler, LlOp::IntNeg, vec![v(lo)], SIGNED);
    b.goto(handler, ret, vec![v(neg)]);
    let handlers = vec![
        (vtable(&p, "ValueError"), ret, vec![int(py, -100)], None),
        (
            vtable(&p, "ArithmeticError"),
            handler,
            vec![v(et.0)],
            Some(et),
        ),
    ];
    b.catch(py, start, (ret, vec![v(r)]), handlers, &om);
    let safe = add_function(&mut p, "safe", b.finish(), &[SIGNED, SIGNED], SIGNED);
    (p, div, safe)
}

#[test]
fn zero_division_in_callee_caught_in_caller() {
    Python::attach(|py| {
        let (p, div, safe) = division_program(py);
        let mut it = load(py, &p);
        assert_eq!(
            it.call(safe, vec![LlValue::Int(-7), LlValue::Int(2)]),
            Ok(LlValue::Int(-4))
        );
        let zde = vtable(&p, "ZeroDivisionError");
        let LlValue::Int(lo) = it.heap().get_slot(&zde, 0) else {
            panic!()
        };
        assert_eq!(
            it.call(safe, vec![LlValue::Int(1), LlValue::Int(0)]),
            Ok(LlValue::Int(-lo))
        );
        match it.call(div, vec![LlValue::Int(1), LlValue::Int(0)]) {
            Err(LlOutcome::Raised {
                etype,
                evalue,
                class_name,
            }) => {
                assert_eq!(class_name, "ZeroDivisionError");
                assert_eq!(etype, zde);
                // the instance's typeptr is the vtable
                let LlValue::Ptr(Some(tp)) = it.heap().get_slot(&evalue, 0) else {
                    panic!()
                };
                assert_eq!((tp.obj, tp.offset), (zde.obj, zde.offset));
                assert_eq!(it.class_name(&etype), "ZeroDivisionError");
            }
            other => panic!("{other:?}"),
        }
    });
}

/// `rec(n) = 0 if n == 0 else 1 + rec(n - 1)`.
fn recursive_program(py: Python<'_>) -> (LlProgram, usize) {
    let mut p = base_program();
    let om = p.objmodel;
    let me = funcref(0, &[SIGNED], SIGNED);
    let mut b = GraphBuilder::new("rec", &[SIGNED], SIGNED, &om);
    let n = b.arg(0);
    let start = b.start();
    let (more, mv) = b.block(&[SIGNED]);
    let z = b.op(start, LlOp::IntEq, vec![v(n), int(py, 0)], BOOL);
    let ret = b.ret();
    b.branch(py, start, z, (ret, vec![int(py, 0)]), (more, vec![v(n)]));
    let m = b.op(more, LlOp::IntSub, vec![v(mv[0]), int(py, 1)], SIGNED);
    let r = b.op(
        more,
        LlOp::DirectCall,
        vec![func(py, me, "rec"), v(m)],
        SIGNED,
    );
    let s = b.op(more, LlOp::IntAdd, vec![v(r), int(py, 1)], SIGNED);
    b.goto(more, ret, vec![v(s)]);
    let f = add_function(&mut p, "rec", b.finish(), &[SIGNED], SIGNED);
    (p, f)
}

#[test]
fn recursion_limit_is_an_error() {
    Python::attach(|py| {
        let (p, f) = recursive_program(py);
        let mut it = load(py, &p);
        assert_eq!(it.call(f, vec![LlValue::Int(9000)]), Ok(LlValue::Int(9000)));
        match it.call(f, vec![LlValue::Int(20_000)]) {
            Err(LlOutcome::Error(LlError::RecursionLimit { limit: 10_000, .. })) => {}
            other => panic!("{other:?}"),
        }
        // a negative argument never ends: still an error, not a crash
        assert!(matches!(
            it.call(f, vec![LlValue::Int(-1)]),
            Err(LlOutcome::Error(LlError::RecursionLimit { .. }))
        ));
        it.set_recursion_limit(100_000);
        assert_eq!(
            it.call(f, vec![LlValue::Int(50_000)]),
            Ok(LlValue::Int(50_000))
        );
        it.set_recursion_limit(10);
        assert!(it.call(f, vec![LlValue::Int(11)]).is_err());
        assert_eq!(it.call(f, vec![LlValue::Int(10)]), Ok(LlValue::Int(10)));
    });
}

/// A function applying one operation to its arguments.
fn one_op(py: Python<'_>, op: LlOp, params: &[LlType], result: LlType) -> (LlProgram, usize) {
    let _ = py;
    let mut p = base_program();
    let om = p.objmodel;
    let mut b = GraphBuilder::new(op.name(), params, result, &om);
    let args = (0..params.len()).map(|i| v(b.arg(i))).collect();
    let start = b.start();
    let r = b.op(start, op, args, result);
    let ret = b.ret();
    b.goto(start, ret, vec![v(r)]);
    let f = add_function(&mut p, op.name(), b.finish(), params, result);
    (p, f)
}

#[test]
fn overflow_operations() {
    Python::attach(|py| {
        let big = i64::MAX;
        let cases: &[(LlOp, &[i64], Result<i64, &str>)] = &[
            (LlOp::IntAddOvf, &[big, 1], Err("OverflowError")),
            (LlOp::IntAddOvf, &[big - 1, 1], Ok(big)),
            (LlOp::IntAdd, &[big, 1], Ok(i64::MIN)),
            (LlOp::IntSubOvf, &[i64::MIN, 1], Err("OverflowError")),
            (LlOp::IntMulOvf, &[1 << 32, 1 << 31], Err("OverflowError")),
            (LlOp::IntMulOvf, &[-(1 << 32), 1 << 31], Ok(i64::MIN)),
            (LlOp::IntMul, &[1 << 32, 1 << 32], Ok(0)),
            (LlOp::IntNegOvf, &[i64::MIN], Err("OverflowError")),
            (LlOp::IntAbsOvf, &[i64::MIN], Err("OverflowError")),
            (LlOp::IntAbs, &[-5], Ok(5)),
            (LlOp::IntFloordivOvf, &[i64::MIN, -1], Err("OverflowError")),
            (LlOp::IntFloordivOvf, &[7, 0], Err("ZeroDivisionError")),
            (LlOp::IntFloordiv, &[-7, 2], Ok(-4)),
            (LlOp::IntMod, &[-7, 2], Ok(1)),
            (LlOp::IntMod, &[7, -2], Ok(-1)),
            (LlOp::IntMod, &[7, 0], Err("ZeroDivisionError")),
            (LlOp::IntLshiftOvf, &[1, 63], Err("OverflowError")),
            (LlOp::IntLshiftOvf, &[3, 4], Ok(48)),
            (LlOp::IntLshift, &[1, -1], Err("ValueError")),
            (LlOp::IntRshift, &[-16, 2], Ok(-4)),
            (LlOp::IntPow, &[3, 5], Ok(243)),
        ];
        for &(op, args, expected) in cases {
            let params = vec![SIGNED; args.len()];
            let (p, f) = one_op(py, op, &params, SIGNED);
            let mut it = load(py, &p);
            let r = it.call(f, args.iter().map(|&a| LlValue::Int(a)).collect());
            match expected {
                Ok(x) => assert_eq!(r, Ok(LlValue::Int(x)), "{op} {args:?}"),
                Err(name) => assert_eq!(raised_name(r), name, "{op} {args:?}"),
            }
        }
        let (p, f) = one_op(py, LlOp::CastFloatToInt, &[FLOAT], SIGNED);
        let mut it = load(py, &p);
        assert_eq!(
            raised_name(it.call(f, vec![LlValue::Float(1e19)])),
            "OverflowError"
        );
        assert_eq!(
            raised_name(it.call(f, vec![LlValue::Float(f64::NAN)])),
            "ValueError"
        );
        assert_eq!(it.call(f, vec![LlValue::Float(-3.7)]), Ok(LlValue::Int(-3)));
        let (p, f) = one_op(py, LlOp::FloatMod, &[FLOAT, FLOAT], FLOAT);
        let mut it = load(py, &p);
        assert_eq!(
            it.call(f, vec![LlValue::Float(-1.0), LlValue::Float(3.0)]),
            Ok(LlValue::Float(2.0))
        );
        assert_eq!(
            raised_name(it.call(f, vec![LlValue::Float(1.0), LlValue::Float(0.0)])),
            "ZeroDivisionError"
        );
    });
}

#[test]
fn user_raise_through_except_block_and_overflow_caught() {
    Python::attach(|py| {
        // f(x): try: return x +ovf 1 except OverflowError as e: raise e's class again via the except block
        let mut p = base_program();
        let om = p.objmodel;
        let mut b = GraphBuilder::new("f", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let r = b.op(start, LlOp::IntAddOvf, vec![v(x), int(py, 1)], SIGNED);
        let (ret, exc) = (b.ret(), b.exc());
        let ev = b.exc_vars(&om);
        let handlers = vec![(
            vtable(&p, "Exception"),
            exc,
            vec![v(ev.0), v(ev.1)],
            Some(ev),
        )];
        b.catch(py, start, (ret, vec![v(r)]), handlers, &om);
        let f = add_function(&mut p, "f", b.finish(), &[SIGNED], SIGNED);
        let mut it = load(py, &p);
        assert_eq!(
            raised_name(it.call(f, vec![LlValue::Int(i64::MAX)])),
            "OverflowError"
        );
        assert_eq!(it.call(f, vec![LlValue::Int(1)]), Ok(LlValue::Int(2)));
    });
}

#[test]
fn parallel_link_moves_swap() {
    Python::attach(|py| {
        // f(n): a, b = 0, 1; repeat n times: a, b = b, a (a self-loop swapping)
        let mut p = base_program();
        let om = p.objmodel;
        let mut b = GraphBuilder::new("swap", &[SIGNED], SIGNED, &om);
        let n = b.arg(0);
        let (lp, l) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let start = b.start();
        b.goto(start, lp, vec![int(py, 0), int(py, 1), v(n)]);
        let c = b.op(lp, LlOp::IntGt, vec![v(l[2]), int(py, 0)], BOOL);
        let (dec, d) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let ret = b.ret();
        b.branch(
            py,
            lp,
            c,
            (dec, vec![v(l[0]), v(l[1]), v(l[2])]),
            (ret, vec![v(l[0])]),
        );
        let m = b.op(dec, LlOp::IntSub, vec![v(d[2]), int(py, 1)], SIGNED);
        // a direct self-loop on `dec` would need a swap of its own inputs:
        // go back to lp passing (b, a)
        b.goto(dec, lp, vec![v(d[1]), v(d[0]), v(m)]);
        let f = add_function(&mut p, "swap", b.finish(), &[SIGNED], SIGNED);
        let mut it = load(py, &p);
        assert_eq!(it.call(f, vec![LlValue::Int(3)]), Ok(LlValue::Int(1)));
        assert_eq!(it.call(f, vec![LlValue::Int(4)]), Ok(LlValue::Int(0)));

        // a true self-loop swapping its own input registers
        let mut p = base_program();
        let mut b = GraphBuilder::new("swap2", &[SIGNED], SIGNED, &om);
        let n = b.arg(0);
        let (lp, l) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let (body, bd) = b.block(&[SIGNED, SIGNED, SIGNED]);
        let start = b.start();
        b.goto(start, lp, vec![int(py, 10), int(py, 20), v(n)]);
        let c = b.op(lp, LlOp::IntGt, vec![v(l[2]), int(py, 0)], BOOL);
        let m = b.op(lp, LlOp::IntSub, vec![v(l[2]), int(py, 1)], SIGNED);
        let ret = b.ret();
        b.branch(
            py,
            lp,
            c,
            (lp, vec![v(l[1]), v(l[0]), v(m)]),
            (body, vec![v(l[0]), v(l[1]), v(l[2])]),
        );
        let s = b.op(body, LlOp::IntMul, vec![v(bd[0]), int(py, 100)], SIGNED);
        let s = b.op(body, LlOp::IntAdd, vec![v(s), v(bd[1])], SIGNED);
        b.goto(body, ret, vec![v(s)]);
        let f = add_function(&mut p, "swap2", b.finish(), &[SIGNED], SIGNED);
        let mut it = load(py, &p);
        assert_eq!(it.call(f, vec![LlValue::Int(1)]), Ok(LlValue::Int(2010)));
        assert_eq!(it.call(f, vec![LlValue::Int(2)]), Ok(LlValue::Int(1020)));
    });
}

#[test]
fn varsize_struct_interior_fields() {
    Python::attach(|py| {
        // STR { hash: Signed, chars: Array(Char) }; s = malloc_varsize(STR, 3);
        // s.chars[i] = 'a' + i; return len(s.chars) * 1000 + ord(s.chars[2])
        let mut p = base_program();
        let om = p.objmodel;
        let chars = LlType::array(CHAR, false).unwrap();
        let st = LlType::new_struct(
            "STR",
            vec![("hash".into(), SIGNED), ("chars".into(), chars)],
            true,
        )
        .unwrap();
        let pst = LlType::ptr(st).unwrap();
        let mut b = GraphBuilder::new("strs", &[], SIGNED, &om);
        let start = b.start();
        let s = b.op(
            start,
            LlOp::MallocVarsize,
            vec![ty(py, st), int(py, 3)],
            pst,
        );
        for (i, ch) in ['a', 'b', 'c'].into_iter().enumerate() {
            b.op(
                start,
                LlOp::Setinteriorfield,
                vec![v(s), name(py, "chars"), int(py, i as i64), chr(py, ch)],
                VOID,
            );
        }
        let n = b.op(
            start,
            LlOp::Getinteriorarraysize,
            vec![v(s), name(py, "chars")],
            SIGNED,
        );
        let c = b.op(
            start,
            LlOp::Getinteriorfield,
            vec![v(s), name(py, "chars"), int(py, 2)],
            CHAR,
        );
        let o = b.op(start, LlOp::CastCharToInt, vec![v(c)], SIGNED);
        let k = b.op(start, LlOp::IntMul, vec![v(n), int(py, 1000)], SIGNED);
        let r = b.op(start, LlOp::IntAdd, vec![v(k), v(o)], SIGNED);
        // the inlined array through getsubstruct
        let pchars = LlType::ptr(chars).unwrap();
        let arr = b.op(
            start,
            LlOp::Getsubstruct,
            vec![v(s), name(py, "chars")],
            pchars,
        );
        let c0 = b.op(start, LlOp::Getarrayitem, vec![v(arr), int(py, 0)], CHAR);
        let o0 = b.op(start, LlOp::CastCharToInt, vec![v(c0)], SIGNED);
        let r = b.op(start, LlOp::IntAdd, vec![v(r), v(o0)], SIGNED);
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let f = add_function(&mut p, "strs", b.finish(), &[], SIGNED);
        let mut it = load(py, &p);
        assert_eq!(it.call(f, vec![]), Ok(LlValue::Int(3000 + 99 + 97)));
    });
}

#[test]
fn null_dereference_is_an_error() {
    Python::attach(|py| {
        let mut p = base_program();
        let om = p.objmodel;
        let (_, pnode) = node_type(&om);
        let mut b = GraphBuilder::new("deref", &[pnode], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let r = b.op(
            start,
            LlOp::Getfield,
            vec![v(x), name(py, "inst_v")],
            SIGNED,
        );
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let f = add_function(&mut p, "deref", b.finish(), &[pnode], SIGNED);
        let mut it = load(py, &p);
        match it.call(f, vec![LlValue::Ptr(None)]) {
            Err(LlOutcome::Error(LlError::Runtime {
                graph,
                at,
                fault: Fault::Null(_),
            })) => {
                assert_eq!(graph, "deref");
                assert!(at.contains("getfield"), "{at}");
            }
            other => panic!("{other:?}"),
        }
        // wrong arguments from outside
        assert!(matches!(
            it.call(f, vec![LlValue::Int(1)]),
            Err(LlOutcome::Error(LlError::BadCall(_)))
        ));
        assert!(matches!(
            it.call(f, vec![]),
            Err(LlOutcome::Error(LlError::BadCall(_)))
        ));
        assert!(matches!(
            it.call(99, vec![]),
            Err(LlOutcome::Error(LlError::BadCall(_)))
        ));
    });
}

fn malformed(p: &LlProgram) -> String {
    match check_program(p) {
        Err(e @ LlError::Malformed { .. }) => e.to_string(),
        other => panic!("expected a malformed-program error, got {other:?}"),
    }
}

#[test]
fn type_checker_names_graph_and_operation() {
    Python::attach(|py| {
        // int_add on a Float
        let (mut p, _) = one_op(py, LlOp::IntAdd, &[SIGNED, FLOAT], SIGNED);
        let msg = malformed(&p);
        assert!(
            msg.contains("graph `int_add`")
                && msg.contains("op 0 (int_add)")
                && msg.contains("argument 1 is Float"),
            "{msg}"
        );
        // a variable without a concretetype
        let (q, _) = one_op(py, LlOp::IntAdd, &[SIGNED, SIGNED], SIGNED);
        let mut g = (*q.functions[0].graph).clone();
        let r = g.blocks[g.startblock].operations[0].result;
        g.vars[r].concretetype = None;
        p.functions[0].graph = std::sync::Arc::new(g);
        p.functions[0].ty = q.functions[0].ty;
        assert!(
            malformed(&p).contains("has no concretetype"),
            "{}",
            malformed(&p)
        );
        // a wrong result type
        let (p, _) = one_op(py, LlOp::IntLt, &[SIGNED, SIGNED], SIGNED);
        assert!(
            malformed(&p).contains("result is Signed, expected Bool"),
            "{}",
            malformed(&p)
        );
        // a high-level operation
        let (mut p, _) = one_op(py, LlOp::IntNeg, &[SIGNED], SIGNED);
        let mut g = (*p.functions[0].graph).clone();
        let sb = g.startblock;
        g.blocks[sb].operations[0].opname = rpy3_model::OpName::Neg;
        p.functions[0].graph = std::sync::Arc::new(g);
        assert!(
            malformed(&p).contains("high-level operation `neg`"),
            "{}",
            malformed(&p)
        );
        // an unknown field
        let mut p = base_program();
        let om = p.objmodel;
        let (_, pnode) = node_type(&om);
        let mut b = GraphBuilder::new("bad", &[pnode], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let r = b.op(start, LlOp::Getfield, vec![v(x), name(py, "nope")], SIGNED);
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        add_function(&mut p, "bad", b.finish(), &[pnode], SIGNED);
        assert!(
            malformed(&p).contains("has no field `nope`"),
            "{}",
            malformed(&p)
        );
        // the benchmark programs check
        let mut p = base_program();
        int_loop(py, &mut p);
        linked_list(py, &mut p);
        check_program(&p).unwrap();
    });
}

#[test]
fn indirect_call_and_wrong_downcast() {
    Python::attach(|py| {
        let mut p = base_program();
        let om = p.objmodel;
        // double(x) = x * 2; apply(f, x) = indirect_call(f, x, None)
        let mut b = GraphBuilder::new("double", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let r = b.op(start, LlOp::IntMul, vec![v(x), int(py, 2)], SIGNED);
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let double = add_function(&mut p, "double", b.finish(), &[SIGNED], SIGNED);
        let fref = funcref(double, &[SIGNED], SIGNED);
        let fptr = LlType::ptr(fref.ty).unwrap();
        let mut b = GraphBuilder::new("apply", &[SIGNED], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let f = b.op(start, LlOp::SameAs, vec![func(py, fref, "double")], fptr);
        let r = b.op(
            start,
            LlOp::IndirectCall,
            vec![v(f), v(x), void(py)],
            SIGNED,
        );
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let apply = add_function(&mut p, "apply", b.finish(), &[SIGNED], SIGNED);

        // downcast an `object` that is an exception instance to Node
        let (node, pnode) = node_type(&om);
        let mut b = GraphBuilder::new("downcast", &[om.object_ptr], SIGNED, &om);
        let o = b.arg(0);
        let start = b.start();
        let n = b.op(start, LlOp::CastPointer, vec![ty(py, pnode), v(o)], pnode);
        let r = b.op(
            start,
            LlOp::Getfield,
            vec![v(n), name(py, "inst_v")],
            SIGNED,
        );
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let down = add_function(&mut p, "downcast", b.finish(), &[om.object_ptr], SIGNED);
        let exc_instance = p.exceptions["ValueError"].instance;
        let _ = node;

        let mut it = load(py, &p);
        assert_eq!(it.call(apply, vec![LlValue::Int(21)]), Ok(LlValue::Int(42)));
        // make an instance of ValueError in the heap via a raising op is
        // not needed: allocate one in the program heap instead
        let mut p2 = p.clone();
        let inst = p2.heap.malloc(exc_instance, 0).unwrap();
        let mut it2 = load(py, &p2);
        match it2.call(down, vec![LlValue::Ptr(Some(inst))]) {
            Err(LlOutcome::Error(LlError::Runtime {
                fault: Fault::Cast(_),
                ..
            })) => {}
            other => panic!("{other:?}"),
        }
    });
}

#[test]
fn retyped_variables_give_errors_not_panics() {
    Python::attach(|py| {
        let mut p = base_program();
        int_loop(py, &mut p);
        linked_list(py, &mut p);
        let (q, _) = array_program(py, true);
        p.functions.extend(q.functions.iter().cloned());
        let mut refused = 0;
        for fi in 0..p.functions.len() {
            let nvars = p.functions[fi].graph.vars.len();
            for k in 0..nvars {
                for bad in [FLOAT, BOOL, VOID] {
                    let mut q = p.clone();
                    let mut g = (*q.functions[fi].graph).clone();
                    let var = g.vars.keys().nth(k).unwrap();
                    if g.vars[var].concretetype == Some(bad) {
                        continue;
                    }
                    g.vars[var].concretetype = Some(bad);
                    q.functions[fi].graph = std::sync::Arc::new(g);
                    if check_program(&q).is_err() {
                        refused += 1;
                    }
                }
            }
        }
        assert!(refused > 50, "{refused}");
    });
}

#[test]
fn collected_objects_are_refused() {
    Python::attach(|py| {
        let mut p = base_program();
        let list = linked_list(py, &mut p);
        let om = p.objmodel;
        let (node, pnode) = node_type(&om);
        let mut b = GraphBuilder::new("deref", &[pnode], SIGNED, &om);
        let x = b.arg(0);
        let start = b.start();
        let r = b.op(
            start,
            LlOp::Getfield,
            vec![v(x), name(py, "inst_v")],
            SIGNED,
        );
        let ret = b.ret();
        b.goto(start, ret, vec![v(r)]);
        let deref = add_function(&mut p, "deref", b.finish(), &[pnode], SIGNED);
        let mut it = load(py, &p);
        it.set_gc_stress(true);
        let first = it.heap_len() as u32;
        assert_eq!(
            it.call(list, vec![LlValue::Int(10)]),
            Ok(LlValue::Int(linked_list_expected(10)))
        );
        // the next call's first allocation collects the ten nodes
        assert_eq!(
            it.call(list, vec![LlValue::Int(1)]),
            Ok(LlValue::Int(linked_list_expected(1)))
        );
        assert!(it.collections() >= 11);
        let stale = Ptr {
            obj: first,
            offset: 0,
            item: 0,
            ty: node,
        };
        assert_eq!(it.object(first).map(|o| o.ty), None);
        match it.call(deref, vec![LlValue::Ptr(Some(stale))]) {
            Err(LlOutcome::Error(LlError::Runtime {
                fault: Fault::BadPointer(msg),
                ..
            })) => assert!(msg.contains("freed"), "{msg}"),
            other => panic!("{other:?}"),
        }
        // a number never allocated
        let wild = Ptr {
            obj: first + 1000,
            ..stale
        };
        match it.call(deref, vec![LlValue::Ptr(Some(wild))]) {
            Err(LlOutcome::Error(LlError::Runtime {
                fault: Fault::BadPointer(msg),
                ..
            })) => assert!(msg.contains("valid slot"), "{msg}"),
            other => panic!("{other:?}"),
        }
    });
}

#[test]
fn garbage_is_collected_between_and_during_calls() {
    Python::attach(|py| {
        let mut p = base_program();
        let list = linked_list(py, &mut p);
        let mut it = load(py, &p);
        let before = it.heap_len();
        for _ in 0..5 {
            assert_eq!(
                it.call(list, vec![LlValue::Int(50_000)]),
                Ok(LlValue::Int(linked_list_expected(50_000)))
            );
        }
        // 250 000 nodes allocated, at most 50 000 alive at once
        assert!(it.collections() > 0);
        assert!(it.heap_len() - before < 150_000, "{}", it.heap_len());
    });
}
