//! Generators (PyPy's generator transform, done on the low-level graph):
//! calling a generator function allocates a frame struct holding its
//! arguments and a resume state; `next()` runs the body's graph turned
//! into a state machine.  Each `yield` saves the variables still live
//! into the frame, sets the state and returns the value; the entry block
//! dispatches on the state to the start or to the point after a yield;
//! reaching the end sets the state to finished and raises StopIteration.

use std::collections::{HashMap, HashSet};

use pyo3::prelude::*;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, SIGNED, VOID};
use rpy3_model::{
    llconst, BlockId, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, SpaceOperation, VarId,
};

use crate::helpers::GraphBuilder;
use crate::{RTypeError, RTyper};

/// The state of a generator that finished.
const DONE: i64 = -1;

fn err(e: impl std::fmt::Display) -> RTypeError {
    RTypeError::new(e.to_string())
}

fn int(py: Python<'_>, v: i64) -> Result<Hlvalue, RTypeError> {
    Ok(Hlvalue::Constant(
        llconst::primitive_constant(py, LlValue::Int(v), SIGNED).map_err(err)?,
    ))
}

fn field(py: Python<'_>, name: &str) -> Hlvalue {
    Hlvalue::Constant(llconst::name_constant(py, name))
}

fn push(graph: &mut FunctionGraph, b: BlockId, op: LlOp, args: Vec<Hlvalue>, ty: LlType) -> VarId {
    let r = graph.new_var("");
    graph.vars[r].concretetype = Some(ty);
    graph.blocks[b].operations.push(SpaceOperation {
        opname: OpName::Ll(op),
        args,
        result: r,
        lineno: 0,
    });
    r
}

/// The function creating a generator's frame from the arguments.
/// `header`: for a generator function of a family (`Repr::GeneratorSet`),
/// the `genbase` struct its frame starts with and the function index of
/// its `gnext` adapter, stored in the new frame.
pub(crate) fn creation_graph(
    rt: &RTyper<'_>,
    py: Python<'_>,
    name: &str,
    args: &[LlType],
    frame: LlType,
    header: Option<(LlType, usize)>,
) -> Result<FunctionGraph, RTypeError> {
    let pf = LlType::ptr(frame).map_err(err)?;
    let (mut b, inputs) = GraphBuilder::new(rt, name, args, pf);
    let s = b.graph.startblock;
    let tc = llconst::type_constant(py, frame).map_err(err)?;
    let f = b.op(s, LlOp::Malloc, vec![Hlvalue::Constant(tc)], pf);
    if let Some((base, adapter)) = header {
        let pbase = LlType::ptr(base).map_err(err)?;
        let bt = llconst::type_constant(py, pbase).map_err(err)?;
        let h = b.op(s, LlOp::CastPointer, vec![Hlvalue::Constant(bt), Hlvalue::Variable(f)], pbase);
        let fc = llconst::func_constant(py, rt.func_ref(adapter), rt.func_name(adapter))
            .map_err(err)?;
        b.op(
            s,
            LlOp::Setfield,
            vec![Hlvalue::Variable(h), field(py, "gnext"), Hlvalue::Constant(fc)],
            VOID,
        );
    }
    for (j, v) in inputs.iter().enumerate() {
        b.op(
            s,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(f),
                field(py, &format!("a{j}")),
                Hlvalue::Variable(*v),
            ],
            VOID,
        );
    }
    b.op(
        s,
        LlOp::Setfield,
        vec![Hlvalue::Variable(f), field(py, "state"), int(py, 0)?],
        VOID,
    );
    b.ret(s, Hlvalue::Variable(f));
    Ok(b.graph)
}

/// Turns the lowered body `lg` of a generator (with `yield_` operations
/// left in it) into its `next(frame) -> item` function, and defines the
/// frame struct `frame` (a forward reference until now).
/// `header`: the `genbase` struct the frame starts with, for a generator
/// function of a family.
pub(crate) fn next_graph(
    rt: &RTyper<'_>,
    py: Python<'_>,
    mut lg: FunctionGraph,
    frame: LlType,
    item: LlType,
    header: Option<LlType>,
) -> Result<FunctionGraph, RTypeError> {
    let pf = LlType::ptr(frame).map_err(err)?;
    let (ret, exc) = (lg.returnblock, lg.exceptblock);
    let orig_start = lg.startblock;
    let params: Vec<VarId> = lg.blocks[orig_start].inputargs.clone();
    let mut fields: Vec<(String, LlType)> = Vec::new();
    if let Some(base) = header {
        fields.push(("super".into(), base));
    }
    let first_param = fields.len() + 1;
    fields.push(("state".into(), SIGNED));
    for (j, v) in params.iter().enumerate() {
        fields.push((format!("a{j}"), lg.vars[*v].concretetype.unwrap_or(VOID)));
    }
    // every block gets the frame as a last input argument
    let blocks = lg.iterblocks();
    let mut frame_of: HashMap<BlockId, VarId> = HashMap::new();
    for &b in &blocks {
        if b == ret || b == exc {
            continue;
        }
        let fv = lg.new_var("frame");
        lg.vars[fv].concretetype = Some(pf);
        lg.blocks[b].inputargs.push(fv);
        frame_of.insert(b, fv);
    }
    // the end of the body: finished, the returned value kept in the frame
    // (the value of a `yield from` delegating to it), StopIteration
    let rv = lg.blocks[ret].inputargs[0];
    let returned = lg.vars[rv].concretetype.unwrap_or(VOID);
    let fin_frame = lg.new_var("frame");
    lg.vars[fin_frame].concretetype = Some(pf);
    let fin_value = lg.new_var("result");
    lg.vars[fin_value].concretetype = Some(returned);
    let fin = lg.new_block(vec![fin_value, fin_frame]);
    frame_of.insert(fin, fin_frame);
    for l in lg.iterlinks() {
        let (Some(prev), target) = (lg.links[l].prevblock, lg.links[l].target) else {
            continue;
        };
        let fv = frame_of[&prev];
        if target == ret {
            lg.links[l].target = fin;
            lg.links[l].args.push(Hlvalue::Variable(fv));
        } else if target != exc {
            lg.links[l].args.push(Hlvalue::Variable(fv));
        }
    }
    if returned != VOID {
        fields.push(("result".into(), returned));
        push(
            &mut lg,
            fin,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(fin_frame),
                field(py, "result"),
                Hlvalue::Variable(fin_value),
            ],
            VOID,
        );
    }
    push(
        &mut lg,
        fin,
        LlOp::Setfield,
        vec![
            Hlvalue::Variable(fin_frame),
            field(py, "state"),
            int(py, DONE)?,
        ],
        VOID,
    );
    lg.vars[rv].concretetype = Some(item);
    let mut gb = GraphBuilder { graph: lg };
    gb.raise_builtin(rt, py, fin, "StopIteration")?;
    let mut lg = gb.graph;
    // split the blocks at each yield
    let mut resumes: Vec<(BlockId, Vec<VarId>)> = Vec::new();
    // the blocks to search: the body's, then the resume blocks made here
    // (not reachable from the start until the entry dispatch exists)
    let mut candidates: Vec<BlockId> = lg.iterblocks();
    loop {
        let found = candidates.iter().copied().find_map(|b| {
            lg.blocks[b]
                .operations
                .iter()
                .position(|o| o.opname == OpName::Yield)
                .map(|k| (b, k))
        });
        let Some((b, k)) = found else { break };
        let i = resumes.len() + 1;
        let fv = frame_of[&b];
        let tail = lg.blocks[b].operations.split_off(k + 1);
        let yop = lg.blocks[b].operations.pop().expect("the yield");
        let exits = std::mem::take(&mut lg.blocks[b].exits);
        let exitswitch = std::mem::replace(&mut lg.blocks[b].exitswitch, ExitSwitch::None);
        // the variables the rest of the block uses, defined before it
        let defined: HashSet<VarId> = tail.iter().map(|o| o.result).collect();
        let mut live: Vec<VarId> = Vec::new();
        let note = |h: &Hlvalue, live: &mut Vec<VarId>| {
            if let Hlvalue::Variable(v) = h {
                if !defined.contains(v) && !live.contains(v) {
                    live.push(*v);
                }
            }
        };
        for o in &tail {
            for a in &o.args {
                note(a, &mut live);
            }
        }
        if let ExitSwitch::Value(h) = &exitswitch {
            note(h, &mut live);
        }
        for &l in &exits {
            for a in &lg.links[l].args {
                note(a, &mut live);
            }
        }
        live.retain(|v| *v != fv && *v != yop.result);
        // the resume block: the saved variables and the frame
        let mut rename: HashMap<VarId, VarId> = HashMap::new();
        let mut inputs = Vec::new();
        for &v in &live {
            let nv = lg.copy_var(v);
            lg.vars[nv].concretetype = lg.vars[v].concretetype;
            rename.insert(v, nv);
            inputs.push(nv);
        }
        let nfv = lg.new_var("frame");
        lg.vars[nfv].concretetype = Some(pf);
        rename.insert(fv, nfv);
        inputs.push(nfv);
        let map = |h: &Hlvalue| match h {
            Hlvalue::Variable(v) => Hlvalue::Variable(*rename.get(v).unwrap_or(v)),
            c => c.clone(),
        };
        let mut r_ops: Vec<SpaceOperation> = Vec::new();
        if tail
            .iter()
            .any(|o| o.args.contains(&Hlvalue::Variable(yop.result)))
        {
            // what `yield` evaluates to: None
            r_ops.push(SpaceOperation {
                opname: OpName::Ll(LlOp::SameAs),
                args: vec![Hlvalue::Constant(
                    llconst::primitive_constant(py, LlValue::Void, VOID).map_err(err)?,
                )],
                result: yop.result,
                lineno: yop.lineno,
            });
        }
        r_ops.extend(tail.into_iter().map(|o| SpaceOperation {
            args: o.args.iter().map(map).collect(),
            ..o
        }));
        let r = lg.new_block(inputs);
        lg.blocks[r].operations = r_ops;
        lg.blocks[r].exitswitch = match exitswitch {
            ExitSwitch::Value(h) => ExitSwitch::Value(map(&h)),
            other => other,
        };
        for &l in &exits {
            let args = lg.links[l].args.iter().map(map).collect();
            lg.links[l].args = args;
            lg.links[l].prevblock = Some(r);
        }
        lg.blocks[r].exits = exits;
        frame_of.insert(r, nfv);
        candidates.push(r);
        // the yielding block saves the live variables and returns the value
        let mut types = Vec::new();
        for (j, &v) in live.iter().enumerate() {
            let t = lg.vars[v].concretetype.unwrap_or(VOID);
            let name = format!("y{i}_{j}");
            fields.push((name.clone(), t));
            types.push(v);
            push(
                &mut lg,
                b,
                LlOp::Setfield,
                vec![
                    Hlvalue::Variable(fv),
                    field(py, &name),
                    Hlvalue::Variable(v),
                ],
                VOID,
            );
        }
        push(
            &mut lg,
            b,
            LlOp::Setfield,
            vec![
                Hlvalue::Variable(fv),
                field(py, "state"),
                int(py, i as i64)?,
            ],
            VOID,
        );
        let value = yop.args[0].clone();
        lg.closeblock(b, ExitSwitch::None, vec![Link::new(vec![value], ret)]);
        resumes.push((r, types));
    }
    // the entry: dispatch on the state
    let entry_frame = lg.new_var("frame");
    lg.vars[entry_frame].concretetype = Some(pf);
    let entry = lg.new_block(vec![entry_frame]);
    let st = push(
        &mut lg,
        entry,
        LlOp::Getfield,
        vec![Hlvalue::Variable(entry_frame), field(py, "state")],
        SIGNED,
    );
    let mut targets: Vec<(BlockId, Vec<(String, LlType)>)> = Vec::new();
    targets.push((
        orig_start,
        fields[first_param..first_param + params.len()].to_vec(),
    ));
    for (i, (r, saved)) in resumes.iter().enumerate() {
        let names = saved
            .iter()
            .enumerate()
            .map(|(j, v)| {
                (
                    format!("y{}_{j}", i + 1),
                    lg.vars[*v].concretetype.unwrap_or(VOID),
                )
            })
            .collect();
        targets.push((*r, names));
    }
    let mut test = entry;
    let mut test_frame = entry_frame;
    let mut test_state = st;
    for (case, (target, loads)) in targets.into_iter().enumerate() {
        let eq = push(
            &mut lg,
            test,
            LlOp::IntEq,
            vec![Hlvalue::Variable(test_state), int(py, case as i64)?],
            BOOL,
        );
        // the case: load the saved values and go on
        let cf = lg.new_var("frame");
        lg.vars[cf].concretetype = Some(pf);
        let cb = lg.new_block(vec![cf]);
        let mut args = Vec::new();
        for (name, t) in loads {
            let v = push(
                &mut lg,
                cb,
                LlOp::Getfield,
                vec![Hlvalue::Variable(cf), field(py, &name)],
                t,
            );
            args.push(Hlvalue::Variable(v));
        }
        args.push(Hlvalue::Variable(cf));
        lg.closeblock(cb, ExitSwitch::None, vec![Link::new(args, target)]);
        // the next test
        let nf = lg.new_var("frame");
        lg.vars[nf].concretetype = Some(pf);
        let ns = lg.new_var("state");
        lg.vars[ns].concretetype = Some(SIGNED);
        let nb = lg.new_block(vec![nf, ns]);
        let f = llconst::primitive_constant(py, LlValue::Bool(false), BOOL).map_err(err)?;
        let t = llconst::primitive_constant(py, LlValue::Bool(true), BOOL).map_err(err)?;
        lg.closeblock(
            test,
            ExitSwitch::Value(Hlvalue::Variable(eq)),
            vec![
                Link::new(
                    vec![Hlvalue::Variable(test_frame), Hlvalue::Variable(test_state)],
                    nb,
                )
                .with_exitcase(f),
                Link::new(vec![Hlvalue::Variable(test_frame)], cb).with_exitcase(t),
            ],
        );
        test = nb;
        test_frame = nf;
        test_state = ns;
    }
    // no case: finished (or running again after an escaped exception)
    let mut gb = GraphBuilder { graph: lg };
    gb.raise_builtin(rt, py, test, "StopIteration")?;
    let mut lg = gb.graph;
    lg.startblock = entry;
    lg.is_generator = false;
    lg.signature = rpy3_model::Signature {
        argnames: vec!["frame".into()],
        varargname: None,
        kwonlyargnames: Vec::new(),
        kwargname: None,
    };
    lg.defaults.clear();
    lg.kwdefaults.clear();
    lg.compact();
    match frame.def() {
        // defined by an earlier rtyping pass
        rpy3_model::lltype::TypeDef::Struct { fields: have, .. } if have == fields => {}
        _ => frame
            .become_("generator", fields)
            .map_err(|e| RTypeError::new(format!("internal error: a generator frame: {e}")))?,
    }
    rpy3_model::checkgraph(&lg).map_err(|e| {
        RTypeError::new(format!(
            "internal error: the generator graph does not verify: {e}"
        ))
    })?;
    Ok(lg)
}
