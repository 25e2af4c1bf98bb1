//! Tests (`gen.rs`) as low-level graphs of one `LlProgram`: the object
//! model and the built-in exception classes, then per test its helpers
//! and its entry.  Every local lives in the frame the blocks pass along
//! (each block takes the whole frame as input arguments), so the lowering
//! of a statement only ever rewrites one slot of it.

use std::collections::HashMap;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{
    FuncRef, Heap, LlType, LlValue, Ptr, BOOL, FLOAT, SIGNED, UNSIGNED, VOID,
};
use rpy3_model::program::{LlExceptionClass, LlFunction, LlProgram, ObjectModel};
use rpy3_model::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
};

use super::gen::{Cond, Field, Func, Stmt, Test, Ty, Val, ARRAY_LEN, NF, NI};

/// The built-in exception classes: (name, parent).
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
    ("OSError", Some("Exception")),
    ("RecursionError", Some("Exception")),
];

/// The names of the fields of an entry's result, in order.
pub fn result_fields() -> Vec<String> {
    let mut names: Vec<String> = (0..NI).map(|k| format!("i{k}")).collect();
    names.extend((0..NF).map(|k| format!("f{k}")));
    names.push("sfi".into());
    names.push("sff".into());
    names.extend((0..ARRAY_LEN).map(|k| format!("a{k}")));
    names
}

/// The program's types and classes.
struct Cx {
    om: ObjectModel,
    /// `GcStruct s { fi: Signed, ff: Float }` and its pointer.
    s: LlType,
    ps: LlType,
    /// `GcArray(Signed)` and its pointer.
    arr: LlType,
    parr: LlType,
    /// The entry's result: a struct the case printers show as a tuple.
    res: LlType,
    pres: LlType,
    helper_ty: LlType,
    entry_ty: LlType,
    exceptions: HashMap<String, LlExceptionClass>,
}

/// A program with the object model, the exception classes (subclass
/// ranges in preorder) and no functions.
fn base(cx_types: &ObjectModel) -> Result<(Heap, HashMap<String, LlExceptionClass>), String> {
    let om = cx_types;
    let mut heap = Heap::new();
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
    let e = |e: rpy3_model::lltype::HeapError| e.to_string();
    let t = |e: rpy3_model::lltype::TypeError| e.to_string();
    let mut exceptions = HashMap::new();
    for (name, _) in EXCEPTIONS {
        let (lo, hi) = ranges[*name];
        let vt = heap.malloc(om.vtable, 0).map_err(e)?;
        let s = heap.malloc(om.name_array, name.len()).map_err(e)?;
        for (i, ch) in name.bytes().enumerate() {
            heap.set_item(&s, i as i64, 0, LlValue::Char(ch))
                .map_err(e)?;
        }
        heap.set_slot(&vt, 0, LlValue::Int(lo));
        heap.set_slot(&vt, 1, LlValue::Int(hi));
        heap.set_slot(&vt, 2, LlValue::Ptr(Some(s)));
        let instance =
            LlType::new_struct(name, vec![("super".into(), om.object)], true).map_err(t)?;
        exceptions.insert(
            name.to_string(),
            LlExceptionClass {
                vtable: vt,
                instance,
            },
        );
    }
    Ok((heap, exceptions))
}

/// The program of `tests`, and for each case the function it calls and
/// its arguments: `(test index, function index, args)`.
pub fn build(py: Python<'_>, tests: &[Test]) -> Result<(LlProgram, Vec<Case>), String> {
    let t = |e: rpy3_model::lltype::TypeError| e.to_string();
    let om = ObjectModel::new().map_err(t)?;
    let (heap, exceptions) = base(&om)?;
    let s = LlType::new_struct(
        "lowlevel_s",
        vec![("fi".into(), SIGNED), ("ff".into(), FLOAT)],
        true,
    )
    .map_err(t)?;
    let arr = LlType::array(SIGNED, true).map_err(t)?;
    let fields = result_fields()
        .into_iter()
        .map(|n| {
            let ty = if n.starts_with('f') || n == "sff" {
                FLOAT
            } else {
                SIGNED
            };
            (n, ty)
        })
        .collect();
    let res = LlType::new_struct("tuple_lowlevel", fields, true).map_err(t)?;
    let pres = LlType::ptr(res).map_err(t)?;
    let cx = Cx {
        om,
        s,
        ps: LlType::ptr(s).map_err(t)?,
        arr,
        parr: LlType::ptr(arr).map_err(t)?,
        res,
        pres,
        helper_ty: LlType::func(vec![SIGNED, SIGNED, FLOAT], SIGNED),
        entry_ty: LlType::func(vec![SIGNED, SIGNED, FLOAT], pres),
        exceptions: exceptions.clone(),
    };
    let mut functions = Vec::new();
    let mut cases = Vec::new();
    for (ti, test) in tests.iter().enumerate() {
        let first = functions.len();
        for (k, h) in test.helpers.iter().enumerate() {
            let name = format!("t{ti}_h{k}");
            let g = lower_func(py, &cx, &name, h, first, false)?;
            functions.push(LlFunction {
                name,
                graph: Arc::new(g),
                ty: cx.helper_ty,
            });
        }
        let name = format!("t{ti}_entry");
        let g = lower_func(py, &cx, &name, &test.entry, first, true)?;
        functions.push(LlFunction {
            name,
            graph: Arc::new(g),
            ty: cx.entry_ty,
        });
        for &(a, b, x) in &test.cases {
            cases.push(Case {
                test: ti,
                func: functions.len() - 1,
                args: vec![LlValue::Int(a), LlValue::Int(b), LlValue::Float(x)],
            });
        }
    }
    Ok((
        LlProgram {
            functions,
            heap,
            objmodel: om,
            exceptions,
            entry: 0,
        },
        cases,
    ))
}

/// One call of an entry.
#[derive(Clone, Debug)]
pub struct Case {
    /// The test it belongs to.
    pub test: usize,
    /// The entry function's index.
    pub func: usize,
    pub args: Vec<LlValue>,
}

struct Lower<'a, 'py> {
    py: Python<'py>,
    cx: &'a Cx,
    g: FunctionGraph,
    cur: BlockId,
    /// The frame: `NI` ints, `NF` floats, the struct, the array, then a
    /// counter per enclosing loop.
    state: Vec<Hlvalue>,
    types: Vec<LlType>,
    /// The index of the test's first helper.
    first_helper: usize,
}

fn int_c(py: Python<'_>, i: i64) -> Hlvalue {
    Constant::typed(PyObj::new(PyInt::new(py, i).as_any()), SIGNED).into()
}

fn float_c(py: Python<'_>, x: f64) -> Hlvalue {
    Constant::typed(PyObj::new(PyFloat::new(py, x).as_any()), FLOAT).into()
}

fn bool_case(py: Python<'_>, b: bool) -> Constant {
    Constant::new(PyObj::new(PyBool::new(py, b).to_owned().as_any()))
}

fn lower_func(
    py: Python<'_>,
    cx: &Cx,
    name: &str,
    f: &Func,
    first_helper: usize,
    is_entry: bool,
) -> Result<FunctionGraph, String> {
    let mut g = FunctionGraph::new(name, vec!["i0".into(), "i1".into(), "f0".into()]);
    g.source.qualname = name.into();
    g.source.filename = "<lowlevel fuzz>".into();
    let params = g.blocks[g.startblock].inputargs.clone();
    for (&v, t) in params.iter().zip([SIGNED, SIGNED, FLOAT]) {
        g.vars[v].concretetype = Some(t);
    }
    let r = g.blocks[g.returnblock].inputargs[0];
    g.vars[r].concretetype = Some(if is_entry { cx.pres } else { SIGNED });
    let e = g.blocks[g.exceptblock].inputargs.clone();
    g.vars[e[0]].concretetype = Some(cx.om.vtable_ptr);
    g.vars[e[1]].concretetype = Some(cx.om.object_ptr);
    let start = g.startblock;
    let mut l = Lower {
        py,
        cx,
        g,
        cur: start,
        state: Vec::new(),
        types: Vec::new(),
        first_helper,
    };
    let tc = |t: LlType| -> Result<Hlvalue, String> {
        Ok(llconst::type_constant(py, t)
            .map_err(|e| e.to_string())?
            .into())
    };
    let s = l.op(LlOp::Malloc, vec![tc(cx.s)?], cx.ps);
    let a = l.op(
        LlOp::MallocVarsize,
        vec![tc(cx.arr)?, int_c(py, ARRAY_LEN as i64)],
        cx.parr,
    );
    l.op(
        LlOp::Setfield,
        vec![s.into(), name_c(py, "fi"), int_c(py, 0)],
        VOID,
    );
    l.op(
        LlOp::Setfield,
        vec![s.into(), name_c(py, "ff"), float_c(py, 0.0)],
        VOID,
    );
    for k in 0..ARRAY_LEN as i64 {
        l.op(
            LlOp::Setarrayitem,
            vec![a.into(), int_c(py, k), int_c(py, k)],
            VOID,
        );
    }
    l.state = vec![params[0].into(), params[1].into()];
    l.state.extend(f.init_ints.iter().map(|&i| int_c(py, i)));
    l.state.push(params[2].into());
    l.state
        .extend(f.init_floats.iter().map(|&x| float_c(py, x)));
    l.state.push(s.into());
    l.state.push(a.into());
    l.types = vec![SIGNED; NI];
    l.types.extend([FLOAT; NF]);
    l.types.push(cx.ps);
    l.types.push(cx.parr);
    l.body(&f.body)?;
    let ret = l.g.returnblock;
    let value = if is_entry {
        let t = l.op(LlOp::Malloc, vec![tc(cx.res)?], cx.pres);
        let mut values: Vec<Hlvalue> = l.state[..NI + NF].to_vec();
        let (sv, av) = (l.state[NI + NF].clone(), l.state[NI + NF + 1].clone());
        values.push(
            l.op(LlOp::Getfield, vec![sv.clone(), name_c(py, "fi")], SIGNED)
                .into(),
        );
        values.push(
            l.op(LlOp::Getfield, vec![sv, name_c(py, "ff")], FLOAT)
                .into(),
        );
        for k in 0..ARRAY_LEN as i64 {
            values.push(
                l.op(LlOp::Getarrayitem, vec![av.clone(), int_c(py, k)], SIGNED)
                    .into(),
            );
        }
        for (fname, v) in result_fields().iter().zip(values) {
            l.op(LlOp::Setfield, vec![t.into(), name_c(py, fname), v], VOID);
        }
        Hlvalue::from(t)
    } else {
        l.state[0].clone()
    };
    let cur = l.cur;
    l.g.closeblock(cur, ExitSwitch::None, vec![Link::new(vec![value], ret)]);
    rpy3_model::checkgraph(&l.g).map_err(|e| format!("{name}: {e}"))?;
    Ok(l.g)
}

fn name_c(py: Python<'_>, n: &str) -> Hlvalue {
    llconst::name_constant(py, n).into()
}

impl Lower<'_, '_> {
    fn op(&mut self, op: LlOp, args: Vec<Hlvalue>, t: LlType) -> rpy3_model::VarId {
        let result = self.g.new_var("");
        self.g.vars[result].concretetype = Some(t);
        let cur = self.cur;
        self.g.blocks[cur].operations.push(SpaceOperation {
            opname: OpName::Ll(op),
            args,
            result,
            lineno: 0,
        });
        result
    }

    /// A block taking a frame of `types`.
    fn block_of(&mut self, types: &[LlType]) -> BlockId {
        let args = types
            .iter()
            .map(|&t| {
                let v = self.g.new_var("");
                self.g.vars[v].concretetype = Some(t);
                v
            })
            .collect();
        self.g.new_block(args)
    }

    fn block(&mut self) -> BlockId {
        let types = self.types.clone();
        self.block_of(&types)
    }

    /// Continues in `b`, whose input arguments are the frame.
    fn enter(&mut self, b: BlockId) {
        self.cur = b;
        self.state = self.g.blocks[b]
            .inputargs
            .iter()
            .map(|&v| v.into())
            .collect();
    }

    fn goto(&mut self, to: BlockId) {
        let cur = self.cur;
        self.g.closeblock(
            cur,
            ExitSwitch::None,
            vec![Link::new(self.state.clone(), to)],
        );
    }

    fn slot(d: (Ty, usize)) -> usize {
        match d.0 {
            Ty::Int => d.1,
            Ty::Float => NI + d.1,
        }
    }

    fn val(&self, v: &Val) -> Hlvalue {
        match v {
            Val::Local(t, k) => self.state[Self::slot((*t, *k))].clone(),
            Val::Int(i) => int_c(self.py, *i),
            Val::Float(x) => float_c(self.py, *x),
        }
    }

    /// An index into the array: `v & 7`.
    fn index(&mut self, v: &Val) -> Hlvalue {
        match v {
            Val::Int(i) => int_c(self.py, i & (ARRAY_LEN as i64 - 1)),
            _ => {
                let x = self.val(v);
                self.op(
                    LlOp::IntAnd,
                    vec![x, int_c(self.py, ARRAY_LEN as i64 - 1)],
                    SIGNED,
                )
                .into()
            }
        }
    }

    fn cond(&mut self, c: &Cond) -> rpy3_model::VarId {
        let args = c.args.iter().map(|a| self.val(a)).collect();
        self.op(c.op, args, BOOL)
    }

    fn vtable(&self, class: &str) -> Result<(Ptr, Hlvalue), String> {
        let cls = self
            .cx
            .exceptions
            .get(class)
            .ok_or_else(|| format!("no exception class {class}"))?;
        let c = llconst::ptr_constant(self.py, Some(cls.vtable), self.cx.om.vtable_ptr)
            .map_err(|e| e.to_string())?;
        Ok((cls.vtable, c.into()))
    }

    /// Ends the block with the raising operation just added: the normal
    /// exit sets slot `dst` to its result, the exit of `catch` to the
    /// fallback; both go on in one block.
    fn guard(
        &mut self,
        dst: usize,
        result: rpy3_model::VarId,
        catch: &Option<super::gen::Catch>,
    ) -> Result<(), String> {
        let Some(c) = catch else {
            self.state[dst] = result.into();
            return Ok(());
        };
        let join = self.block();
        let mut normal = self.state.clone();
        normal[dst] = result.into();
        let mut caught = self.state.clone();
        caught[dst] = self.val(&c.fallback);
        let (_, case) = self.vtable(c.class)?;
        let Hlvalue::Constant(case) = case else {
            unreachable!("vtable() makes a constant")
        };
        let cur = self.cur;
        self.g.closeblock(
            cur,
            ExitSwitch::LastException,
            vec![
                Link::new(normal, join),
                Link::new(caught, join).with_exitcase(case),
            ],
        );
        self.enter(join);
        Ok(())
    }

    fn body(&mut self, body: &[Stmt]) -> Result<(), String> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        let py = self.py;
        match s {
            Stmt::Op {
                dst,
                op,
                args,
                catch,
            } => {
                let mut a: Vec<Hlvalue> = args.iter().map(|v| self.val(v)).collect();
                if matches!(op, LlOp::IntLshift | LlOp::IntRshift | LlOp::IntLshiftOvf) {
                    // counts in 0..64, where every backend defines shifts
                    a[1] = match args[1] {
                        Val::Int(i) => int_c(py, i & 63),
                        _ => self
                            .op(LlOp::IntAnd, vec![a[1].clone(), int_c(py, 63)], SIGNED)
                            .into(),
                    };
                }
                let t = match dst.0 {
                    Ty::Int => SIGNED,
                    Ty::Float => FLOAT,
                };
                let r = self.op(*op, a, t);
                self.guard(Self::slot(*dst), r, catch)?;
            }
            Stmt::Call {
                dst,
                func,
                args,
                catch,
            } => {
                let index = self.first_helper + func;
                let fc = llconst::func_constant(
                    py,
                    FuncRef {
                        index: index as u32,
                        ty: self.cx.helper_ty,
                    },
                    &format!("h{func}"),
                )
                .map_err(|e| e.to_string())?;
                let mut a = vec![fc.into()];
                a.extend(args.iter().map(|v| self.val(v)));
                let r = self.op(LlOp::DirectCall, a, SIGNED);
                self.guard(*dst, r, catch)?;
            }
            Stmt::If { cond, then, els } => {
                let c = self.cond(cond);
                let (t, e, join) = (self.block(), self.block(), self.block());
                let cur = self.cur;
                self.g.closeblock(
                    cur,
                    ExitSwitch::Value(c.into()),
                    vec![
                        Link::new(self.state.clone(), e).with_exitcase(bool_case(py, false)),
                        Link::new(self.state.clone(), t).with_exitcase(bool_case(py, true)),
                    ],
                );
                self.enter(t);
                self.body(then)?;
                self.goto(join);
                self.enter(e);
                self.body(els)?;
                self.goto(join);
                self.enter(join);
            }
            Stmt::Loop { trips, body } => {
                let outer = self.types.clone();
                self.state.push(int_c(py, 0));
                self.types.push(SIGNED);
                let header = self.block();
                self.goto(header);
                self.enter(header);
                let counter = self.state.last().cloned().expect("the counter was pushed");
                let c = self.op(
                    LlOp::IntLt,
                    vec![counter, int_c(py, i64::from(*trips))],
                    BOOL,
                );
                let inner = self.block();
                let exit = self.block_of(&outer);
                let n = outer.len();
                let cur = self.cur;
                self.g.closeblock(
                    cur,
                    ExitSwitch::Value(c.into()),
                    vec![
                        Link::new(self.state[..n].to_vec(), exit)
                            .with_exitcase(bool_case(py, false)),
                        Link::new(self.state.clone(), inner).with_exitcase(bool_case(py, true)),
                    ],
                );
                self.enter(inner);
                self.body(body)?;
                let counter = self.state.last().cloned().expect("the counter is kept");
                let next = self.op(LlOp::IntAdd, vec![counter, int_c(py, 1)], SIGNED);
                *self.state.last_mut().expect("the counter is kept") = next.into();
                self.goto(header);
                self.types = outer;
                self.enter(exit);
            }
            Stmt::RaiseIf { cond, class } => {
                let c = self.cond(cond);
                let raise = self.g.new_block(Vec::new());
                let go_on = self.block();
                let cur = self.cur;
                self.g.closeblock(
                    cur,
                    ExitSwitch::Value(c.into()),
                    vec![
                        Link::new(self.state.clone(), go_on).with_exitcase(bool_case(py, false)),
                        Link::new(Vec::new(), raise).with_exitcase(bool_case(py, true)),
                    ],
                );
                self.cur = raise;
                let instance = self.cx.exceptions[*class].instance;
                let pinst = LlType::ptr(instance).map_err(|e| e.to_string())?;
                let tc: Hlvalue = llconst::type_constant(py, instance)
                    .map_err(|e| e.to_string())?
                    .into();
                let e = self.op(LlOp::Malloc, vec![tc], pinst);
                let up: Hlvalue = llconst::type_constant(py, self.cx.om.object_ptr)
                    .map_err(|e| e.to_string())?
                    .into();
                let o = self.op(LlOp::CastPointer, vec![up, e.into()], self.cx.om.object_ptr);
                let (_, vt) = self.vtable(class)?;
                self.op(
                    LlOp::Setfield,
                    vec![o.into(), name_c(py, "typeptr"), vt.clone()],
                    VOID,
                );
                let except = self.g.exceptblock;
                self.g.closeblock(
                    raise,
                    ExitSwitch::None,
                    vec![Link::new(vec![vt, o.into()], except)],
                );
                self.enter(go_on);
            }
            Stmt::SetField(f, v) => {
                let (sv, x) = (self.state[NI + NF].clone(), self.val(v));
                self.op(LlOp::Setfield, vec![sv, name_c(py, f.name()), x], VOID);
            }
            Stmt::GetField(d, f) => {
                let sv = self.state[NI + NF].clone();
                let t = match f {
                    Field::I => SIGNED,
                    Field::F => FLOAT,
                };
                let r = self.op(LlOp::Getfield, vec![sv, name_c(py, f.name())], t);
                self.state[Self::slot(*d)] = r.into();
            }
            Stmt::SetItem(i, v) => {
                let idx = self.index(i);
                let (av, x) = (self.state[NI + NF + 1].clone(), self.val(v));
                self.op(LlOp::Setarrayitem, vec![av, idx, x], VOID);
            }
            Stmt::Uint { dst, op, args } => {
                let shift = matches!(op, LlOp::UintLshift | LlOp::UintRshift);
                let mut a = Vec::new();
                for (k, v) in args.iter().enumerate() {
                    let x = self.val(v);
                    a.push(if shift && k == 1 {
                        self.op(LlOp::IntAnd, vec![x, int_c(py, 63)], SIGNED).into()
                    } else {
                        self.op(LlOp::CastIntToUint, vec![x], UNSIGNED).into()
                    });
                }
                let compare = op.desc().result == rpy3_model::lloperation::TyPat::Bool;
                let r = if compare {
                    let b = self.op(*op, a, BOOL);
                    self.op(LlOp::CastBoolToInt, vec![b.into()], SIGNED)
                } else {
                    let u = self.op(*op, a, UNSIGNED);
                    self.op(LlOp::CastUintToInt, vec![u.into()], SIGNED)
                };
                self.state[*dst] = r.into();
            }
            Stmt::Realloc { array } => {
                let slot = NI + NF + usize::from(*array);
                let old = self.state[slot].clone();
                let fresh = if *array {
                    let tc = llconst::type_constant(py, self.cx.arr).map_err(|e| e.to_string())?;
                    let a = self.op(
                        LlOp::MallocVarsize,
                        vec![tc.into(), int_c(py, ARRAY_LEN as i64)],
                        self.cx.parr,
                    );
                    for k in 0..ARRAY_LEN as i64 {
                        let x =
                            self.op(LlOp::Getarrayitem, vec![old.clone(), int_c(py, k)], SIGNED);
                        self.op(
                            LlOp::Setarrayitem,
                            vec![a.into(), int_c(py, k), x.into()],
                            VOID,
                        );
                    }
                    a
                } else {
                    let tc = llconst::type_constant(py, self.cx.s).map_err(|e| e.to_string())?;
                    let p = self.op(LlOp::Malloc, vec![tc.into()], self.cx.ps);
                    for (f, t) in [(Field::I, SIGNED), (Field::F, FLOAT)] {
                        let x = self.op(LlOp::Getfield, vec![old.clone(), name_c(py, f.name())], t);
                        self.op(
                            LlOp::Setfield,
                            vec![p.into(), name_c(py, f.name()), x.into()],
                            VOID,
                        );
                    }
                    p
                };
                self.state[slot] = fresh.into();
            }
            Stmt::GetItem(d, i) => {
                let idx = self.index(i);
                let av = self.state[NI + NF + 1].clone();
                let r = self.op(LlOp::Getarrayitem, vec![av, idx], SIGNED);
                self.state[*d] = r.into();
            }
        }
        Ok(())
    }
}
