//! Lowering one annotated graph: every high-level operation becomes
//! low-level operations on representations, every link converts the
//! values it carries to the representations its target expects.
//!
//! `ops` lowers arithmetic, comparisons and identity; `calls` lowers
//! calls, instantiation, attributes and built-in functions.

mod builtins;
mod calls;
mod copying;
mod dicts;
mod exceptions;
mod external;
mod iters;
mod lists;
mod lldialect;
mod llhelpers;
mod methodsets;
mod numbers;
mod overflow;
mod ops;
mod strings;

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::{ClassDefId, GraphId, SomeValue};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, BOOL, SIGNED, UNSIGNED, VOID};
use rpy3_model::{
    BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, SpaceOperation, VarId,
};

use crate::helpers::{type_const, value_const};
use crate::repr::{Repr, SeqKind};
use crate::{RTypeError, RTyper};

/// Lowers annotated graph `g` into a low-level graph.
pub fn lower_graph(
    rt: &mut RTyper<'_>,
    py: Python<'_>,
    g: GraphId,
) -> Result<FunctionGraph, RTypeError> {
    let ann = rt.ann;
    let src = ann.graphs[g].graph.clone();
    let mut graph = (*src).clone();
    // types of the variables the annotator bound
    for (v, s) in ann.graphs[g].bindings.iter() {
        if let Some(s) = s {
            let r = rt.getrepr(s)?;
            rt.ensure_types(&r);
            graph.vars[v].concretetype = Some(r.lowleveltype(rt));
        }
    }
    let ret_var = src.blocks[src.returnblock].inputargs[0];
    let ret_repr = rt.getrepr(&ann.binding(g, ret_var))?;
    graph.vars[ret_var].concretetype = Some(ret_repr.lowleveltype(rt));
    let ex = src.blocks[src.exceptblock].inputargs.clone();
    graph.vars[ex[0]].concretetype = Some(rt.objmodel.vtable_ptr);
    let base_exc = rt.exception_classdef("BaseException");
    graph.vars[ex[1]].concretetype = Some(rt.classes.instance_ptr(base_exc));
    // variables of blocks never reached keep no type; they are pruned below
    let blocks = src.iterblocks();
    let mut truncated: Vec<BlockId> = Vec::new();
    let mut last_op_start: Vec<(BlockId, usize, bool)> = Vec::new();
    let mut needs_helpers = false;
    let wrapping = overflow::wrapping_results(rt, py, g).map(std::sync::Arc::new);
    for &b in &blocks {
        if b == src.returnblock || b == src.exceptblock || !ann.is_annotated(g, b) {
            continue;
        }
        let mut cx = Cx::new(rt, py, g, b, &mut graph);
        cx.wrapping = wrapping.clone();
        let ops = src.blocks[b].operations.clone();
        let mut cut = false;
        let mut prev_start = 0;
        for (i, op) in ops.iter().enumerate() {
            if i + 1 == ops.len() {
                // `ovfcheck(x * y)`: the raising operation is the multiplication
                let ovf = i > 0 && is_ovfchecked(&ops[i - 1], Some(op));
                last_op_start.push((b, if ovf { prev_start } else { cx.ops.len() }, false));
            }
            prev_start = cx.ops.len();
            cx.index = i;
            cx.raising_at = None;
            cx.lineno = op.lineno;
            match cx.lower_op(op, ops.get(i + 1)) {
                Ok(()) => {}
                // a helper the annotator has not made yet: keep lowering
                // to collect every helper this graph needs in one pass
                Err(e) if e.retry => needs_helpers = true,
                // (an error after a skipped operation may be its
                // consequence: the next pass tells)
                Err(_) if needs_helpers => return Err(RTypeError::retry()),
                Err(mut e) => {
                    if e.location.is_none() {
                        e.location = Some(rpy3_model::SourceLocation {
                            filename: src.source.filename.clone(),
                            lineno: op.lineno,
                            function: Some(src.source.qualname.clone()),
                        });
                    }
                    return Err(e);
                }
            }
            if let (Some(k), true) = (cx.raising_at, i + 1 == ops.len()) {
                if let Some(last) = last_op_start.last_mut() {
                    *last = (b, k, true);
                }
            }
            if ann.binding(g, op.result).is_impossible()
                && op.opname.desc().canraise.contains(&"Exception")
            {
                // a call that never returns: the rest of the block is dead
                cut = i + 1 < ops.len();
                break;
            }
        }
        let new_ops = std::mem::take(&mut cx.ops);
        graph.blocks[b].operations = new_ops;
        if cut {
            truncated.push(b);
        }
    }
    if needs_helpers {
        return Err(RTypeError::retry());
    }
    fix_links(rt, py, g, &src, &mut graph, &blocks, &truncated)?;
    for (b, start, exact) in last_op_start {
        let (b, start) = if exact {
            (b, start)
        } else {
            split_raising_chain(&mut graph, b, start)
        };
        move_after_raising(&mut graph, b, start, exact);
    }
    graph.compact();
    rpy3_model::checkgraph(&graph).map_err(|e| {
        RTypeError::new(format!(
            "internal error: the low-level graph does not verify: {e}"
        ))
    })?;
    Ok(graph)
}

/// Whether low-level operation `op` can raise; with `incidental` false,
/// allocations and array accesses do not count (their MemoryError and
/// bounds checks are no exception the program means to catch).
fn can_raise(op: &SpaceOperation, incidental: bool) -> bool {
    match op.opname {
        OpName::Ll(l) => {
            !l.desc().canraise.is_empty()
                && (incidental
                    || !matches!(
                        l,
                        LlOp::Malloc
                            | LlOp::MallocVarsize
                            | LlOp::Getarrayitem
                            | LlOp::Setarrayitem
                            | LlOp::Getinteriorfield
                            | LlOp::Setinteriorfield
                    ))
        }
        _ => false,
    }
}

/// When the last high-level operation of block `b` (its low-level
/// operations start at `start`) became several operations that can raise
/// (`s.partition(sep)` calls a helper per part), each must have the
/// block's exception exits: the block is split after each but the last,
/// the exception links copied onto every piece.  Returns the last piece
/// and where the operation's low-level operations start in it.
fn split_raising_chain(
    graph: &mut FunctionGraph,
    mut b: BlockId,
    mut start: usize,
) -> (BlockId, usize) {
    loop {
        if graph.blocks[b].exitswitch != ExitSwitch::LastException {
            return (b, start);
        }
        let ops = &graph.blocks[b].operations;
        let raisers: Vec<usize> = (start..ops.len())
            .filter(|&i| can_raise(&ops[i], false))
            .collect();
        if raisers.len() < 2 {
            return (b, start);
        }
        let tail: Vec<SpaceOperation> = graph.blocks[b].operations.split_off(raisers[0] + 1);
        let exits = graph.blocks[b].exits.clone();
        let normal = exits[0];
        let defined_in_tail: std::collections::HashSet<VarId> =
            tail.iter().map(|o| o.result).collect();
        let mut needed: Vec<VarId> = Vec::new();
        let mut note = |h: &Hlvalue, skip: &[Option<VarId>]| {
            if let Hlvalue::Variable(v) = h {
                if !defined_in_tail.contains(v) && !needed.contains(v) && !skip.contains(&Some(*v))
                {
                    needed.push(*v);
                }
            }
        };
        for o in &tail {
            for a in &o.args {
                note(a, &[]);
            }
        }
        for &l in &exits {
            let link = &graph.links[l];
            let skip = [link.last_exception, link.last_exc_value];
            for a in &link.args {
                note(a, &skip);
            }
        }
        let mut rename = std::collections::HashMap::new();
        let mut inputs = Vec::new();
        for &v in &needed {
            let nv = graph.copy_var(v);
            graph.vars[nv].concretetype = graph.vars[v].concretetype;
            rename.insert(v, nv);
            inputs.push(nv);
        }
        let map = |h: &Hlvalue, rename: &std::collections::HashMap<VarId, VarId>| match h {
            Hlvalue::Variable(v) => Hlvalue::Variable(*rename.get(v).unwrap_or(v)),
            c => c.clone(),
        };
        let tail: Vec<SpaceOperation> = tail
            .into_iter()
            .map(|o| SpaceOperation {
                args: o.args.iter().map(|a| map(a, &rename)).collect(),
                ..o
            })
            .collect();
        let mut links = Vec::new();
        for &l in &exits {
            let old = graph.links[l].clone();
            let mut r = rename.clone();
            let mut fresh = |v: Option<VarId>, graph: &mut FunctionGraph| {
                v.map(|v| {
                    let nv = graph.copy_var(v);
                    graph.vars[nv].concretetype = graph.vars[v].concretetype;
                    r.insert(v, nv);
                    nv
                })
            };
            let last_exception = fresh(old.last_exception, graph);
            let last_exc_value = fresh(old.last_exc_value, graph);
            let mut link = Link::new(old.args.iter().map(|a| map(a, &r)).collect(), old.target);
            link.exitcase = old.exitcase.clone();
            link.last_exception = last_exception;
            link.last_exc_value = last_exc_value;
            link.lineno = old.lineno;
            links.push(link);
        }
        let nb = graph.new_block(inputs);
        graph.blocks[nb].operations = tail;
        graph.closeblock(nb, ExitSwitch::LastException, links);
        let link = &mut graph.links[normal];
        link.target = nb;
        link.args = needed.into_iter().map(Hlvalue::Variable).collect();
        b = nb;
        start = 0;
    }
}

/// In a block ending with a raising operation, the low-level operation
/// that raises must come last (PyPy's `exception_is_here`): the operations
/// the last high-level operation emitted after its last raising one move
/// to a new block on the normal exit.  When `exact`, the operation at
/// `start` is the raising one.
fn move_after_raising(graph: &mut FunctionGraph, b: BlockId, start: usize, exact: bool) {
    if graph.blocks[b].exitswitch != ExitSwitch::LastException {
        return;
    }
    let ops = &graph.blocks[b].operations;
    // the last operation that can raise, not counting allocations and
    // array accesses when another can: `d.popitem()` raises in its
    // helper, then reads the entry and builds the result tuple
    let raising = |i: usize, incidental: bool| can_raise(&ops[i], incidental);
    let found = if exact {
        Some(start)
    } else {
        (start..ops.len())
            .rev()
            .find(|&i| raising(i, false))
            .or_else(|| (start..ops.len()).rev().find(|&i| raising(i, true)))
    };
    let Some(k) = found else {
        return;
    };
    if k + 1 == ops.len() {
        return;
    }
    let tail: Vec<SpaceOperation> = graph.blocks[b].operations.split_off(k + 1);
    let normal = graph.blocks[b].exits[0];
    let defined_in_tail: std::collections::HashSet<VarId> = tail.iter().map(|o| o.result).collect();
    // variables of `b` the tail and the normal link use
    let mut needed: Vec<VarId> = Vec::new();
    let note = |h: &Hlvalue, needed: &mut Vec<VarId>| {
        if let Hlvalue::Variable(v) = h {
            if !defined_in_tail.contains(v) && !needed.contains(v) {
                needed.push(*v);
            }
        }
    };
    for o in &tail {
        for a in &o.args {
            note(a, &mut needed);
        }
    }
    for a in &graph.links[normal].args {
        note(a, &mut needed);
    }
    let mut rename = std::collections::HashMap::new();
    let mut inputs = Vec::new();
    for &v in &needed {
        let nv = graph.copy_var(v);
        graph.vars[nv].concretetype = graph.vars[v].concretetype;
        rename.insert(v, nv);
        inputs.push(nv);
    }
    let map = |h: &Hlvalue| match h {
        Hlvalue::Variable(v) => Hlvalue::Variable(*rename.get(v).unwrap_or(v)),
        c => c.clone(),
    };
    let tail: Vec<SpaceOperation> = tail
        .into_iter()
        .map(|o| SpaceOperation {
            args: o.args.iter().map(map).collect(),
            ..o
        })
        .collect();
    let link_args: Vec<Hlvalue> = graph.links[normal].args.iter().map(map).collect();
    let target = graph.links[normal].target;
    let nb = graph.new_block(inputs);
    graph.blocks[nb].operations = tail;
    graph.closeblock(nb, ExitSwitch::None, vec![Link::new(link_args, target)]);
    let link = &mut graph.links[normal];
    link.target = nb;
    link.args = needed.into_iter().map(Hlvalue::Variable).collect();
}

/// The representation a link must deliver to input argument `v` of `target`.
fn target_repr(
    rt: &RTyper<'_>,
    g: GraphId,
    src: &FunctionGraph,
    target: BlockId,
    i: usize,
) -> Result<Repr, RTypeError> {
    if target == src.exceptblock {
        return Ok(if i == 0 {
            Repr::Class
        } else {
            Repr::Instance(rt.exception_classdef("BaseException"))
        });
    }
    let v = src.blocks[target].inputargs[i];
    rt.getrepr(&rt.ann.binding(g, v))
}

fn fix_links(
    rt: &mut RTyper<'_>,
    py: Python<'_>,
    g: GraphId,
    src: &FunctionGraph,
    graph: &mut FunctionGraph,
    blocks: &[BlockId],
    truncated: &[BlockId],
) -> Result<(), RTypeError> {
    let ann = rt.ann;
    let reached =
        |b: BlockId| b == src.returnblock || b == src.exceptblock || ann.is_annotated(g, b);
    let mut unreachable: Option<BlockId> = None;
    for &b in blocks {
        if b == src.returnblock || b == src.exceptblock || !ann.is_annotated(g, b) {
            continue;
        }
        if truncated.contains(&b) {
            // ends after a call that never returns
            let target = unreachable_block(rt, py, graph, &mut unreachable)?;
            graph.closeblock(b, ExitSwitch::None, vec![Link::new(vec![], target)]);
            continue;
        }
        let exits = graph.blocks[b].exits.clone();
        let mut kept = Vec::new();
        for (k, &l) in exits.iter().enumerate() {
            let target = graph.links[l].target;
            if !reached(target) || !ann.is_link_followed(g, l) {
                let is_normal_of_raising =
                    graph.blocks[b].exitswitch == ExitSwitch::LastException && k == 0;
                if is_normal_of_raising {
                    let u = unreachable_block(rt, py, graph, &mut unreachable)?;
                    let link = &mut graph.links[l];
                    link.target = u;
                    link.args.clear();
                    kept.push(l);
                }
                continue;
            }
            // exception links: typed extra variables and a vtable exit case
            let mut exc_class: Option<ClassDefId> = None;
            if let (Some(et), Some(ev), Some(case)) = (
                graph.links[l].last_exception,
                graph.links[l].last_exc_value,
                graph.links[l].exitcase.clone(),
            ) {
                let c = rt.classdef_of_class(py, case.value.bind(py))?;
                exc_class = Some(c);
                graph.vars[et].concretetype = Some(rt.objmodel.vtable_ptr);
                graph.vars[ev].concretetype = Some(rt.classes.instance_ptr(c));
                let vt = rt.classes.vtable(c);
                let cst = rpy3_model::llconst::ptr_constant(py, Some(vt), rt.objmodel.vtable_ptr)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                graph.links[l].exitcase = Some(cst);
            } else if let Some(case) = graph.links[l].exitcase.clone() {
                let b_ = case.value.bind(py).is_truthy().unwrap_or(false);
                let cst = rpy3_model::llconst::primitive_constant(py, LlValue::Bool(b_), BOOL)
                    .map_err(|e| RTypeError::new(e.to_string()))?;
                graph.links[l].exitcase = Some(cst);
            }
            convert_link_args(rt, py, g, src, graph, b, l, exc_class)?;
            kept.push(l);
        }
        if kept.is_empty() && !exits.is_empty() {
            // every exit carries a value that cannot exist: the block is
            // reached only in appearance
            let u = unreachable_block(rt, py, graph, &mut unreachable)?;
            graph.blocks[b].exitswitch = ExitSwitch::None;
            let l = exits[0];
            let link = &mut graph.links[l];
            link.target = u;
            link.args.clear();
            link.exitcase = None;
            link.last_exception = None;
            link.last_exc_value = None;
            kept.push(l);
        }
        graph.blocks[b].exits = kept.clone();
        match graph.blocks[b].exitswitch.clone() {
            ExitSwitch::Value(_) if kept.len() == 1 => {
                graph.blocks[b].exitswitch = ExitSwitch::None;
                graph.links[kept[0]].exitcase = None;
            }
            ExitSwitch::Value(Hlvalue::Constant(c)) => {
                let cst = Hlvalue::Constant(
                    rpy3_model::llconst::primitive_constant(
                        py,
                        LlValue::Bool(c.value.bind(py).is_truthy().unwrap_or(false)),
                        BOOL,
                    )
                    .map_err(|e| RTypeError::new(e.to_string()))?,
                );
                graph.blocks[b].exitswitch = ExitSwitch::Value(cst);
            }
            ExitSwitch::LastException if kept.len() == 1 => {
                graph.blocks[b].exitswitch = ExitSwitch::None;
            }
            _ => {}
        }
    }
    Ok(())
}

/// A block that is never reached at run time (after a call that always
/// raises): it returns a zero value so the graph stays well formed.
fn unreachable_block(
    rt: &RTyper<'_>,
    py: Python<'_>,
    graph: &mut FunctionGraph,
    cache: &mut Option<BlockId>,
) -> Result<BlockId, RTypeError> {
    if let Some(b) = cache {
        return Ok(*b);
    }
    let rv = graph.blocks[graph.returnblock].inputargs[0];
    let ty = graph.vars[rv].concretetype.unwrap_or(VOID);
    let zero = match ty.default_value() {
        LlValue::Ptr(_) => value_const(py, LlValue::Ptr(None), ty)?,
        v => value_const(py, v, ty)?,
    };
    let b = graph.new_block(vec![]);
    let _ = rt;
    let ret = graph.returnblock;
    graph.closeblock(b, ExitSwitch::None, vec![Link::new(vec![zero], ret)]);
    *cache = Some(b);
    Ok(b)
}

#[allow(clippy::too_many_arguments)]
fn convert_link_args(
    rt: &mut RTyper<'_>,
    py: Python<'_>,
    g: GraphId,
    src: &FunctionGraph,
    graph: &mut FunctionGraph,
    block: BlockId,
    l: rpy3_model::LinkId,
    exc_class: Option<ClassDefId>,
) -> Result<(), RTypeError> {
    let target = graph.links[l].target;
    let args = graph.links[l].args.clone();
    let (le, lv) = (graph.links[l].last_exception, graph.links[l].last_exc_value);
    let mut new_args = Vec::with_capacity(args.len());
    let mut conversions: Vec<(VarId, Repr, Repr, usize)> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let want = target_repr(rt, g, src, target, i)?;
        match a {
            Hlvalue::Constant(c) => {
                let v = rt.convert_const(py, &want, c.value.bind(py))?;
                new_args.push(value_const(py, v, want.lowleveltype(rt))?);
            }
            Hlvalue::Variable(v) => {
                let have = if Some(*v) == le {
                    Repr::Class
                } else if Some(*v) == lv {
                    Repr::Instance(exc_class.expect("exception link"))
                } else {
                    rt.getrepr(&rt.ann.binding(g, *v))?
                };
                if have.lowleveltype(rt) == want.lowleveltype(rt) {
                    new_args.push(a.clone());
                } else if have == Repr::Void {
                    let s = rt.ann.binding(g, *v);
                    new_args.push(constant_of(rt, py, &s, &want)?);
                } else {
                    conversions.push((*v, have, want, i));
                    new_args.push(a.clone());
                }
            }
        }
    }
    if conversions.is_empty() {
        graph.links[l].args = new_args;
        return Ok(());
    }
    // a new block on the link performs the conversions
    let mut inputs = Vec::new();
    let mut inner_args = Vec::new();
    let mut mapping = std::collections::HashMap::new();
    for a in &new_args {
        if let Hlvalue::Variable(v) = a {
            if !mapping.contains_key(v) {
                let nv = graph.copy_var(*v);
                graph.vars[nv].concretetype = graph.vars[*v].concretetype;
                mapping.insert(*v, nv);
                inputs.push(*v);
            }
        }
    }
    let nb = graph.new_block(inputs.iter().map(|v| mapping[v]).collect());
    let mut cx = Cx::new(rt, py, g, nb, graph);
    for (i, a) in new_args.iter().enumerate() {
        let mapped = match a {
            Hlvalue::Variable(v) => Hlvalue::Variable(mapping[v]),
            c => c.clone(),
        };
        if let Some((v, have, want, _)) = conversions.iter().find(|(_, _, _, k)| *k == i) {
            if matches!(want, Repr::MethodSet(_)) && !matches!(have, Repr::MethodSet(_)) {
                let s = cx.rt.ann.binding(g, *v);
                inner_args.push(cx.to_method_set(mapped, &s, have)?);
                continue;
            }
            let s = cx.rt.ann.binding(g, *v);
            inner_args.push(cx.convert_known(mapped, &s, have, want)?);
        } else {
            inner_args.push(mapped);
        }
    }
    let ops = std::mem::take(&mut cx.ops);
    graph.blocks[nb].operations = ops;
    graph.closeblock(nb, ExitSwitch::None, vec![Link::new(inner_args, target)]);
    let link = &mut graph.links[l];
    link.args = inputs.iter().map(|v| Hlvalue::Variable(*v)).collect();
    link.target = nb;
    let _ = block;
    Ok(())
}

/// The constant an annotation stands for, in representation `want`.
pub(super) fn constant_of(
    rt: &mut RTyper<'_>,
    py: Python<'_>,
    s: &SomeValue,
    want: &Repr,
) -> Result<Hlvalue, RTypeError> {
    let ty = want.lowleveltype(rt);
    if *want == Repr::Void {
        return value_const(py, LlValue::Void, VOID);
    }
    match s {
        // a value that never exists (the result of a call that never
        // returns) flows only along links never taken: any value of the
        // type does, as PyPy's ImpossibleRepr converts to the default
        SomeValue::Impossible => value_const(py, ty.default_value(), ty),
        SomeValue::None_ => value_const(py, LlValue::Ptr(None), ty),
        SomeValue::Bool { konst: Some(b), .. } => {
            let obj = pyo3::types::PyBool::new(py, *b).to_owned().into_any();
            let v = rt.convert_const(py, want, &obj)?;
            value_const(py, v, ty)
        }
        SomeValue::Type { konst: Some(k), .. } => {
            let v = rt.convert_const(py, want, k.bind(py))?;
            value_const(py, v, ty)
        }
        SomeValue::Pbc { descs, .. } if descs.len() == 1 => {
            let d = *descs.iter().next().expect("one");
            match rt.ann.desc_object(d) {
                Some(o) => {
                    let v = rt.convert_const(py, want, o.bind(py))?;
                    value_const(py, v, ty)
                }
                None => Err(RTypeError::unsupported("a bound method as a value")),
            }
        }
        other => match other.konst() {
            Some(k) => {
                let v = rt.convert_const(py, want, k.bind(py))?;
                value_const(py, v, ty)
            }
            None => Err(RTypeError::new(format!(
                "no constant for {}",
                rpy3_annotator::describe(other)
            ))),
        },
    }
}

/// Lowering state for one block.
pub(super) struct Cx<'r, 'a, 'py, 'g> {
    rt: &'r mut RTyper<'a>,
    py: Python<'py>,
    g: GraphId,
    block: BlockId,
    ops: Vec<SpaceOperation>,
    graph: &'g mut FunctionGraph,
    index: usize,
    lineno: u32,
    /// Low-level values standing in for high-level arguments (the items
    /// of a `*args` tuple), with their representations.
    lowered: std::collections::HashMap<VarId, Repr>,
    /// The index in `ops` of the low-level operation that raises for the
    /// high-level one being lowered, when a lowering names it (the reads
    /// after `next()` of a dict iterator cannot raise).
    raising_at: Option<usize>,
    /// Set while lowering an operation on bytes: the string helpers are
    /// called in their copies for `rpy_bytes`.
    bytes_mode: bool,
    /// The width a `%*d` directive being lowered takes from its values
    /// (its specification holds [`STAR_WIDTH`] in its place).
    star_width: Option<Hlvalue>,
    /// The specification, made when run, of a `str.format()` field whose
    /// spec holds fields (`{:{w}}`; the spec is `DYNAMIC_SPEC`).
    dynamic_spec: Option<Hlvalue>,
    /// The key functions of the `r_dict` the operation being lowered works
    /// on (eq, hash), if it is one.
    custom_keys: Option<(SomeValue, SomeValue)>,
    /// The annotation of the callee of the call being lowered, when it is
    /// not its first argument's (a special method of an instance).
    callee_override: Option<SomeValue>,
    /// Annotations of variables this lowering made that the annotator
    /// never saw (what `__iter__` returns for a built-in's argument).
    synthetic: std::collections::HashMap<VarId, SomeValue>,
    /// In a graph of the program, the int results that may wrap (only
    /// masks see them); the other `+ - * <<` on ints are checked for
    /// overflow (see `overflow.rs`).  None: every one wraps.
    wrapping: Option<std::sync::Arc<std::collections::HashSet<VarId>>>,
}

impl<'r, 'a, 'py, 'g> Cx<'r, 'a, 'py, 'g> {
    /// A lowering context appending to `block` of `graph` (a graph being
    /// rtyped from the annotated graph `g`, or a helper made for it).
    pub(super) fn new(
        rt: &'r mut RTyper<'a>,
        py: Python<'py>,
        g: GraphId,
        block: BlockId,
        graph: &'g mut FunctionGraph,
    ) -> Self {
        Cx {
            rt,
            py,
            g,
            block,
            ops: Vec::new(),
            graph,
            index: 0,
            lineno: 0,
            lowered: std::collections::HashMap::new(),
            raising_at: None,
            bytes_mode: false,
            star_width: None,
            dynamic_spec: None,
            custom_keys: None,
            callee_override: None,
            synthetic: std::collections::HashMap::new(),
            wrapping: None,
        }
    }
}

pub(super) fn int_op(kind: IntKind, signed: LlOp, unsigned: LlOp) -> LlOp {
    if kind.unsigned() {
        unsigned
    } else {
        signed
    }
}

impl Cx<'_, '_, '_, '_> {
    pub(super) fn s(&self, h: &Hlvalue) -> SomeValue {
        match h {
            Hlvalue::Variable(v) => match self.synthetic.get(v) {
                Some(s) => s.clone(),
                None => self.rt.ann.binding(self.g, *v),
            },
            Hlvalue::Constant(c) => {
                // (a namedtuple, an Enum member: their stand-ins)
                if let Some(r) =
                    rpy3_annotator::description::stdlib_replacement(self.py, c.value.bind(self.py))
                {
                    if !r.is(c.value.bind(self.py)) {
                        return self.s(&Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(&r))));
                    }
                }
                if rpy3_annotator::description::is_builtin_base_init(c.value.bind(self.py)) {
                    return SomeValue::Builtin {
                        name: "base_init",
                        s_self: None,
                    };
                }
                if let Some(name) = rpy3_annotator::builtin_name(self.py, c.value.bind(self.py)) {
                    return SomeValue::Builtin { name, s_self: None };
                }
                if let Some(name) = rpy3_annotator::world_object(self.py, c.value.bind(self.py)) {
                    return SomeValue::Builtin { name, s_self: None };
                }
                if let Some(s) =
                    rpy3_annotator::description::prebuilt_builder(self.py, c.value.bind(self.py))
                {
                    return s;
                }
                if rpy3_annotator::description::is_base_exception_str(self.py, c.value.bind(self.py)) {
                    return SomeValue::Builtin {
                        name: "exception_message",
                        s_self: None,
                    };
                }
                // `Cls.__new__` (object's): instantiate(), as the annotator
                if self
                    .py
                    .import("builtins")
                    .and_then(|b| b.getattr("object")?.getattr("__new__"))
                    .is_ok_and(|n| n.is(c.value.bind(self.py)))
                {
                    return SomeValue::Builtin {
                        name: "instantiate",
                        s_self: None,
                    };
                }
                if let Some(d) = self.rt.ann.lookup_desc(&c.value) {
                    return self.rt.ann.pbc(d);
                }
                // a method bound to a prebuilt instance (`m = r.meth` at
                // module level): the annotator's method desc
                {
                    let obj = c.value.bind(self.py);
                    if let (Ok(func), Ok(me)) = (obj.getattr("__func__"), obj.getattr("__self__")) {
                        let fd = self.rt.ann.lookup_desc(&rpy3_model::PyObj::new(&func));
                        let cd = self.rt.classdef_of_class(self.py, me.get_type().as_any()).ok();
                        if let (Some(fd), Some(cd)) = (fd, cd) {
                            let found = self.rt.ann.descs.iter().find_map(|(id, d)| match d {
                                rpy3_annotator::description::Desc::Method {
                                    func, selfclassdef, ..
                                } if *func == fd && self.rt.ann.is_subclass(cd, *selfclassdef) => {
                                    Some(id)
                                }
                                _ => None,
                            });
                            if let Some(id) = found {
                                return self.rt.ann.pbc(id);
                            }
                        }
                    }
                }
                // a method of a prebuilt list, dict or set (`get = D.get`)
                {
                    let obj = c.value.bind(self.py);
                    if let (Ok(me), Ok(name)) = (
                        obj.getattr("__self__"),
                        obj.getattr("__name__").and_then(|n| n.extract::<String>()),
                    ) {
                        if let Some(s_self) = self.rt.ann.prebuilt_container(&rpy3_model::PyObj::new(&me)) {
                            if let Some(name) = rpy3_annotator::static_method_name(&s_self, &name) {
                                return SomeValue::Builtin {
                                    name,
                                    s_self: Some(Box::new(s_self)),
                                };
                            }
                        }
                    }
                }
                // a method bound to a constant number ((2.5).is_integer)
                {
                    let obj = c.value.bind(self.py);
                    if let (Ok(me), Ok(name)) = (
                        obj.getattr("__self__"),
                        obj.getattr("__name__").and_then(|n| n.extract::<String>()),
                    ) {
                        let recv = if me.is_instance_of::<pyo3::types::PyFloat>() {
                            Some(SomeValue::float())
                        } else if me.is_instance_of::<pyo3::types::PyInt>()
                            && !me.is_instance_of::<pyo3::types::PyBool>()
                        {
                            Some(SomeValue::int())
                        } else {
                            None
                        };
                        let name = match name.as_str() {
                            "bit_length" => Some("bit_length"),
                            "bit_count" => Some("bit_count"),
                            "is_integer" => Some("is_integer"),
                            _ => None,
                        };
                        if let (Some(recv), Some(name)) = (recv, name) {
                            return SomeValue::Builtin {
                                name,
                                s_self: Some(Box::new(recv)),
                            };
                        }
                    }
                }
                // str.lower as a value: the function standing for it
                if let Some(w) =
                    rpy3_annotator::unbound_method_wrapper(self.py, c.value.bind(self.py))
                {
                    if let Some(d) = self.rt.ann.lookup_desc(&rpy3_model::PyObj::new(&w)) {
                        return self.rt.ann.pbc(d);
                    }
                }
                // a prebuilt list, dict or set: its container annotation
                if let Some(s) = self.rt.ann.prebuilt_container(&c.value) {
                    return s;
                }
                let obj = c.value.bind(self.py);
                // a bound method folded into a constant (a classmethod, a
                // method of a frozen object)
                if let (Ok(func), Ok(me)) = (obj.getattr("__func__"), obj.getattr("__self__")) {
                    let fd = self.rt.ann.lookup_desc(&rpy3_model::PyObj::new(&func));
                    let md = self.rt.ann.lookup_desc(&rpy3_model::PyObj::new(&me));
                    if let (Some(fd), Some(md)) = (fd, md) {
                        for (id, d) in self.rt.ann.descs.iter() {
                            if let rpy3_annotator::description::Desc::MethodOfFrozen {
                                func,
                                frozen,
                            } = d
                            {
                                if *func == fd && *frozen == md {
                                    return self.rt.ann.pbc(id);
                                }
                            }
                        }
                    }
                }
                // a tuple: its items seen as constants here (functions,
                // classes and frozen objects among them are their descs)
                if let Ok(t) = obj.cast::<pyo3::types::PyTuple>() {
                    return SomeValue::Tuple(
                        t.iter()
                            .map(|i| {
                                self.s(&Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(
                                    &i,
                                ))))
                            })
                            .collect(),
                    );
                }
                if !obj.is_none() && !obj.is_instance_of::<pyo3::types::PyType>() {
                    if let Ok(cdef) = self.rt.classdef_of_class(self.py, obj.get_type().as_any()) {
                        return SomeValue::Instance {
                            classdef: cdef,
                            can_be_none: false,
                        };
                    }
                }
                const_annotation(self.py, c)
            }
        }
    }

    pub(super) fn repr_of(&self, h: &Hlvalue) -> Result<Repr, RTypeError> {
        let r = self.rt.getrepr(&self.s(h))?;
        Ok(r)
    }

    pub(super) fn emit(&mut self, op: LlOp, args: Vec<Hlvalue>, ty: LlType) -> Hlvalue {
        let r = self.graph.new_var("");
        self.graph.vars[r].concretetype = Some(ty);
        self.ops.push(SpaceOperation {
            opname: OpName::Ll(op),
            args,
            result: r,
            lineno: self.lineno,
        });
        Hlvalue::Variable(r)
    }

    /// Defines the high-level operation's result as `value`.
    pub(super) fn finish(&mut self, result: VarId, value: Hlvalue) {
        if let Hlvalue::Variable(v) = &value {
            if let Some(last) = self.ops.last_mut() {
                // only a fresh variable of this lowering may be renamed: a
                // high-level variable (`bool(x)` of a bool x) keeps its definition
                let fresh = v.as_u32() as usize >= self.rt.ann.graphs[self.g].graph.vars.len();
                if fresh
                    && last.result == *v
                    && self.graph.vars[*v].concretetype == self.graph.vars[result].concretetype
                {
                    last.result = result;
                    return;
                }
            }
        }
        let ty = self.graph.vars[result].concretetype.unwrap_or(VOID);
        self.graph.vars[result].concretetype = Some(ty);
        self.ops.push(SpaceOperation {
            opname: OpName::Ll(LlOp::SameAs),
            args: vec![value],
            result,
            lineno: self.lineno,
        });
    }

    /// Operand `h` in representation `want`.
    pub(super) fn input(&mut self, h: &Hlvalue, want: &Repr) -> Result<Hlvalue, RTypeError> {
        match h {
            Hlvalue::Constant(c) => {
                let v = self
                    .rt
                    .convert_const(self.py, want, c.value.bind(self.py))?;
                value_const(self.py, v, want.lowleveltype(self.rt))
            }
            Hlvalue::Variable(v) => {
                if let Some(have) = self.lowered.get(v).cloned() {
                    return self.convert(h.clone(), &have, want);
                }
                let s = self.rt.ann.binding(self.g, *v);
                let have = self.rt.getrepr(&s)?;
                if have == Repr::Void && *want != Repr::Void {
                    return constant_of(self.rt, self.py, &s, want);
                }
                if matches!(want, Repr::MethodSet(_)) && !matches!(have, Repr::MethodSet(_)) {
                    return self.to_method_set(h.clone(), &s, &have);
                }
                self.convert_known(h.clone(), &s, &have, want)
            }
        }
    }

    /// Converts a value between representations.
    pub(super) fn convert(
        &mut self,
        v: Hlvalue,
        have: &Repr,
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let (ht, wt) = (have.lowleveltype(self.rt), want.lowleveltype(self.rt));
        if ht == wt {
            return Ok(v);
        }
        Ok(match (have, want) {
            (_, Repr::Void) => value_const(self.py, LlValue::Void, VOID)?,
            // the result of a call that never returns where a number is
            // expected: never used, the zero of the type
            (Repr::Void, Repr::Int(_) | Repr::Bool | Repr::Float) => {
                value_const(self.py, wt.default_value(), wt)?
            }
            // an int, bool or float where a number of either kind is
            // expected: a new box; a box where a float (or, narrowed, an
            // int) is: its value
            (Repr::Int(_) | Repr::Bool | Repr::Float, Repr::Number) => self.box_number(v, have)?,
            (Repr::Number, w) => self.unbox_number(v, w)?,
            // a bool or an int where an int that may be a bool is expected:
            // a new box; such a box where an int (bool, float) is: its int
            (Repr::Int(_) | Repr::Bool, Repr::IntBool) => self.box_number(v, have)?,
            (Repr::IntBool, w) => self.unbox_intbool(v, w)?,
            // a range where a list of ints is expected: its items, made now
            (Repr::Range, Repr::List(item, _)) if **item == Repr::Int(IntKind::Signed) =>
            {
                let zero = value_const(self.py, LlValue::Int(0), rpy3_model::lltype::SIGNED)?;
                let l = self.new_list_of_length(item, zero)?;
                let mut hargs = vec![(l.clone(), SomeValue::Ptr(wt))];
                for f in ["start", "stop", "step"] {
                    let x = self.emit(
                        LlOp::Getfield,
                        vec![v.clone(), name(self.py, f)],
                        rpy3_model::lltype::SIGNED,
                    );
                    hargs.push((x, SomeValue::int()));
                }
                self.call_list_helper("ll_extend_range", hargs)?;
                l
            }
            // a generator of one of a family: its frame's header
            (Repr::Generator(_), Repr::GeneratorSet(_)) => {
                self.emit(LlOp::CastPointer, vec![type_const(self.py, wt)?, v], wt)
            }
            // an int, float or bool where a complex is expected: a new one
            (Repr::Int(_) | Repr::Bool | Repr::Float, Repr::Instance(c))
                if self.rt.ann.is_number_class(*c) =>
            {
                // (its fields set here: `__init__` takes the same values)
                let f = self.convert(v, have, &Repr::Float)?;
                let zero = value_const(self.py, LlValue::Float(0.0), rpy3_model::lltype::FLOAT)?;
                let c = *c;
                let st = self.rt.classes.structs[&c];
                let pt = self.rt.classes.ptrs[&c];
                let p = self.emit(
                    LlOp::Malloc,
                    vec![crate::helpers::type_const(self.py, st)?],
                    pt,
                );
                let obj = self.object_ptr_of(p.clone())?;
                let vt = self.rt.classes.vtable(c);
                let vtc =
                    value_const(self.py, LlValue::Ptr(Some(vt)), self.rt.objmodel.vtable_ptr)?;
                self.emit(
                    LlOp::Setfield,
                    vec![obj, name(self.py, "typeptr"), vtc],
                    VOID,
                );
                for (attr, value) in [("real", f), ("imag", zero)] {
                    let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
                    let owner = self.rt.classes.owner_of(c, attr, &base_of).ok_or_else(|| {
                        RTypeError::new(format!("a number class without the field '{attr}'"))
                    })?;
                    let fp = self.field_ptr(p.clone(), c, owner)?;
                    self.emit(
                        LlOp::Setfield,
                        vec![fp, name(self.py, &crate::classes::field_name(attr)), value],
                        VOID,
                    );
                }
                p
            }
            // a length as a truth value (`__len__` standing for `__bool__`)
            (Repr::Int(k @ (IntKind::Signed | IntKind::Unsigned)), Repr::Bool) => {
                let op = if k.unsigned() {
                    LlOp::UintIsTrue
                } else {
                    LlOp::IntIsTrue
                };
                self.emit(op, vec![v], BOOL)
            }
            (Repr::Bool, Repr::Int(k)) => {
                if k.unsigned() {
                    self.emit(LlOp::CastBoolToUint, vec![v], UNSIGNED)
                } else {
                    self.emit(LlOp::CastBoolToInt, vec![v], SIGNED)
                }
            }
            (Repr::Bool, Repr::Float) => self.emit(LlOp::CastBoolToFloat, vec![v], wt),
            (Repr::Int(k), Repr::Float) => {
                if k.unsigned() {
                    self.emit(LlOp::CastUintToFloat, vec![v], wt)
                } else {
                    self.emit(LlOp::CastIntToFloat, vec![v], wt)
                }
            }
            (Repr::Int(a), Repr::Int(b)) if !a.unsigned() && b.unsigned() => {
                self.emit(LlOp::CastIntToUint, vec![v], wt)
            }
            (Repr::Int(a), Repr::Int(b)) if a.unsigned() && !b.unsigned() => {
                self.emit(LlOp::CastUintToInt, vec![v], wt)
            }
            (Repr::Str, Repr::UniChar) => {
                // a string the annotator knows has one character
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                self.call_str_helper("ll_stritem", vec![v, zero], wt)?
            }
            (Repr::UniChar, Repr::Str) => {
                let st = want.lowleveltype(self.rt);
                self.call_str_helper("ll_char2str", vec![v], st)?
            }
            (Repr::Instance(_), Repr::Instance(_)) => {
                let t = type_const(self.py, wt)?;
                self.emit(LlOp::CastPointer, vec![t, v], wt)
            }
            (Repr::Tuple(a), Repr::Tuple(b)) => {
                self.rt.ensure_types(want);
                self.convert_tuple(v, a, b)?
            }
            // a tuple of known length becoming one of a length known at
            // run time only: a list of its items
            (Repr::Tuple(items), Repr::List(w, kind)) => {
                self.rt.ensure_types(have);
                let want_items = vec![(**w).clone(); items.len()];
                let vals = self.tuple_items_as(&v, items, &want_items)?;
                let l = self.new_list(w, vals)?;
                self.convert_seq(l, w, *kind)?
            }
            // an int, float or bool that may be None, where its value is
            // needed: TypeError when it is None
            (Repr::Optional(inner), w) if !matches!(w, Repr::Optional(_)) => {
                let pt = have.lowleveltype(self.rt);
                let (x, _) = self.call_helper_in(
                    builtins::RBUILTIN,
                    "ll_unbox_optional",
                    vec![(v, SomeValue::Ptr(pt))],
                )?;
                self.convert(x, inner, w)?
            }
            // a value that may be None elsewhere: boxed
            (h, Repr::Optional(inner)) if !matches!(h, Repr::Optional(_)) => {
                let x = self.convert(v, h, inner)?;
                let st = self.rt.optional_struct(inner);
                let pt = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
                let b = self.emit(LlOp::Malloc, vec![type_const(self.py, st)?], pt);
                self.emit(
                    LlOp::Setfield,
                    vec![b.clone(), name(self.py, "value"), x],
                    rpy3_model::lltype::VOID,
                );
                b
            }
            // a list whose item type is Void was never given an item (the
            // annotator saw no store): it is empty, and a copy of it, as a
            // slice or a product makes, is an empty list of any type
            (Repr::List(item, _), Repr::List(w, kind)) if **item == Repr::Void => {
                let l = self.new_list(w, Vec::new())?;
                self.convert_seq(l, w, *kind)?
            }
            // a list and a tuple of the same items: a copy
            (Repr::List(item, k1), Repr::List(w, k2)) if item == w && k1 != k2 => {
                let lr = Repr::List(item.clone(), *k1);
                self.convert_seq_from(v, &lr, *k2)?
            }
            _ => {
                return Err(RTypeError::new(format!(
                    "cannot convert {have:?} to {want:?}"
                )))
            }
        })
    }

    /// Plain list `l` of items of repr `item` as a sequence of `kind` (a
    /// copy when it is a tuple).
    pub(super) fn convert_seq(
        &mut self,
        l: Hlvalue,
        item: &Repr,
        kind: SeqKind,
    ) -> Result<Hlvalue, RTypeError> {
        match kind {
            SeqKind::List => Ok(l),
            SeqKind::Tuple => self.convert_seq_from(l, &Repr::list_of(item.clone()), kind),
        }
    }

    /// Sequence `l` (of repr `lr`) copied into a new sequence of `kind`.
    fn convert_seq_from(
        &mut self,
        l: Hlvalue,
        lr: &Repr,
        kind: SeqKind,
    ) -> Result<Hlvalue, RTypeError> {
        let Repr::List(item, _) = lr else {
            return Err(RTypeError::new("a sequence conversion of a non-list"));
        };
        let lt = lr.lowleveltype(self.rt);
        let n = self.emit(
            LlOp::Getfield,
            vec![l.clone(), name(self.py, "length")],
            rpy3_model::lltype::SIGNED,
        );
        let r = self.new_seq_of_length(item, kind, n)?;
        let rt = Repr::List(item.clone(), kind).lowleveltype(self.rt);
        let args = vec![(r.clone(), SomeValue::Ptr(rt)), (l, SomeValue::Ptr(lt))];
        self.call_list_helper("ll_copy_into", args)?;
        Ok(r)
    }

    /// The class (vtable) of instance `h` of repr `r`: `type(h)`.
    pub(super) fn class_of_instance(&mut self, h: &Hlvalue, r: &Repr) -> Result<Hlvalue, RTypeError> {
        let x = self.input(h, r)?;
        let obj = self.object_ptr_of(x)?;
        Ok(self.emit(
            LlOp::Getfield,
            vec![obj, name(self.py, "typeptr")],
            self.rt.objmodel.vtable_ptr,
        ))
    }

    pub(super) fn result_repr(&self, op: &SpaceOperation) -> Result<Repr, RTypeError> {
        if let Some(r) = self.lowered.get(&op.result) {
            return Ok(r.clone());
        }
        self.rt.getrepr(&self.rt.ann.binding(self.g, op.result))
    }

    fn lower_op(
        &mut self,
        op: &SpaceOperation,
        next: Option<&SpaceOperation>,
    ) -> Result<(), RTypeError> {
        use rpy3_model::OpName as H;
        if let Some(sc) = self
            .rt
            .ann
            .special_calls
            .get(&(self.g, self.block, self.index))
            .cloned()
        {
            return self.special_call(op, &sc);
        }
        if let Some(holder) = self
            .rt
            .ann
            .class_attr_holders
            .get(&(self.g, self.block, self.index))
            .filter(|h| !matches!(&op.args[0], Hlvalue::Constant(c) if c.value.bind(self.py).is(h.bind(self.py))))
            .cloned()
        {
            // an assigned class attribute through a class value: the
            // attribute of the instance holding it
            let mut on_holder = op.clone();
            on_holder.args[0] = Hlvalue::Constant(rpy3_model::Constant::new(holder));
            return self.lower_op(&on_holder, next);
        }
        if op.opname == H::Format && {
            let anns: Vec<SomeValue> = op.args.iter().map(|a| self.s(a)).collect();
            rpy3_annotator::is_plain_format(&self.rt.ann, self.py, op.opname, &anns)
        } {
            // format(x, '') is str(x) (as the annotator saw it)
            let mut as_str = op.clone();
            as_str.opname = H::Str;
            as_str.args.truncate(1);
            return self.lower_op(&as_str, next);
        }
        if !op.args.is_empty()
            && rpy3_annotator::unboxes_optional(op.opname, &self.s(&op.args[0]))
            && op
                .args
                .iter()
                .any(|a| matches!(self.s(a), SomeValue::Optional(_)))
        {
            // the values of operands that may be None (the annotator saw
            // the values): unboxed, TypeError for None
            let mut unboxed = op.clone();
            for a in unboxed.args.iter_mut() {
                let s = self.s(a);
                if let SomeValue::Optional(inner) = &s {
                    let r = self.rt.getrepr(inner)?;
                    let x = self.input(a, &r)?;
                    let Hlvalue::Variable(xv) = x else {
                        return Err(RTypeError::new("an unboxed constant"));
                    };
                    self.synthetic.insert(xv, (**inner).clone());
                    self.lowered.insert(xv, r);
                    *a = Hlvalue::Variable(xv);
                }
            }
            return self.lower_op(&unboxed, next);
        }
        if !op.args.is_empty()
            && (rpy3_annotator::unboxes_optional(op.opname, &self.s(&op.args[0]))
                || matches!(op.opname, H::Eq | H::Ne | H::Bool | H::Hash))
            && op.args.iter().any(|a| is_int_or_bool(&self.s(a)))
        {
            // an int that may be a bool computes as an int (only showing
            // and testing its type tell a bool): the operands' ints
            let mut ints = op.clone();
            for a in ints.args.iter_mut() {
                if is_int_or_bool(&self.s(a)) {
                    let r = Repr::Int(IntKind::Signed);
                    let x = self.input(a, &r)?;
                    let Hlvalue::Variable(xv) = x else {
                        return Err(RTypeError::new("an int of a constant"));
                    };
                    self.synthetic.insert(xv, SomeValue::int());
                    self.lowered.insert(xv, r);
                    *a = Hlvalue::Variable(xv);
                }
            }
            return self.lower_op(&ints, next);
        }
        let s_result = self.rt.ann.binding(self.g, op.result);
        // a pure operation whose result the annotator knows is that constant
        let desc = op.opname.desc();
        if desc.pure && desc.canraise.is_empty() && is_constant(&s_result) {
            let r = self.result_repr(op)?;
            let c = constant_of(self.rt, self.py, &s_result, &r)?;
            self.finish(op.result, c);
            return Ok(());
        }
        if self.lower_ll(op)?
            || self.lower_iter(op)?
            || self.lower_list(op)?
            || self.lower_dict(op)?
            || self.lower_str(op)?
        {
            return Ok(());
        }
        match op.opname {
            H::Add
            | H::Sub
            | H::Mul
            | H::Floordiv
            | H::Mod
            | H::Truediv
            | H::Pow
            | H::Lshift
            | H::Rshift
            | H::And_
            | H::Or_
            | H::Xor
            | H::InplaceAdd
            | H::InplaceSub
            | H::InplaceMul
            | H::InplaceFloordiv
            | H::InplaceMod
            | H::InplaceTruediv
            | H::InplacePow
            | H::InplaceLshift
            | H::InplaceRshift
            | H::InplaceAnd
            | H::InplaceOr
            | H::InplaceXor
            | H::AddOvf
            | H::SubOvf
            | H::MulOvf
            | H::FloordivOvf
            | H::ModOvf
            | H::LshiftOvf => self.arith(op, next),
            H::Divmod => self.divmod(op),
            H::Neg | H::Pos | H::Invert | H::Abs | H::NegOvf | H::AbsOvf => {
                let r = self.result_repr(op)?;
                let a = self.input(&op.args[0], &r)?;
                let t = r.lowleveltype(self.rt);
                let v = match (
                    &r,
                    match op.opname {
                        H::NegOvf => H::Neg,
                        H::AbsOvf => H::Abs,
                        o => o,
                    },
                ) {
                    (_, H::Pos) => a,
                    (Repr::Int(k), H::Neg) => {
                        let ovf =
                            is_ovfchecked(op, next) || matches!(op.opname, H::NegOvf | H::AbsOvf);
                        self.emit(
                            if ovf {
                                LlOp::IntNegOvf
                            } else {
                                int_op(*k, LlOp::IntNeg, LlOp::UintNeg)
                            },
                            vec![a],
                            t,
                        )
                    }
                    (Repr::Int(k), H::Invert) => {
                        self.emit(int_op(*k, LlOp::IntInvert, LlOp::UintInvert), vec![a], t)
                    }
                    (Repr::Int(k), H::Abs) if !k.unsigned() => {
                        let ovf =
                            is_ovfchecked(op, next) || matches!(op.opname, H::NegOvf | H::AbsOvf);
                        self.emit(if ovf { LlOp::IntAbsOvf } else { LlOp::IntAbs }, vec![a], t)
                    }
                    (Repr::Int(_), H::Abs) => a,
                    (Repr::Number, base) => self.number_unary(a, base)?,
                    (Repr::Float, H::Neg) => self.emit(LlOp::FloatNeg, vec![a], t),
                    (Repr::Float, H::Abs) => self.emit(LlOp::FloatAbs, vec![a], t),
                    _ => return Err(RTypeError::unsupported(&format!("{} on {r:?}", op.opname))),
                };
                self.finish(op.result, v);
                Ok(())
            }
            H::Lt | H::Le | H::Eq | H::Ne | H::Gt | H::Ge => self.compare(op),
            H::Yield => {
                // kept for the generator transform, the value in item repr
                let id = self.rt.ann.graphs[self.g]
                    .generator
                    .ok_or_else(|| RTypeError::new("yield outside a generator"))?;
                let item = self.rt.getrepr(&self.rt.ann.itemdefs.get(id).item)?;
                let v = self.input(&op.args[0], &item)?;
                let r = self.graph.new_var("");
                self.graph.vars[r].concretetype = Some(VOID);
                self.ops.push(SpaceOperation {
                    opname: H::Yield,
                    args: vec![v],
                    result: r,
                    lineno: self.lineno,
                });
                self.finish(op.result, Hlvalue::Variable(r));
                Ok(())
            }
            H::Unpackable => {
                // a sequence as it is; anything else as the list of its
                // items (the annotator said which)
                let want = self.result_repr(op)?;
                let have = self.repr_of(&op.args[0])?;
                let v = if have == want {
                    self.input(&op.args[0], &have)?
                } else {
                    let Repr::List(item, SeqKind::List) = &want else {
                        return Err(RTypeError::unsupported(&format!(
                            "unpacking a {have:?} as a {want:?}"
                        )));
                    };
                    self.iterable_as_list(&op.args[0], item)?
                };
                self.finish(op.result, v);
                Ok(())
            }
            H::YieldFromResult => {
                // what a generator returned is kept in its frame; other
                // iterators give None
                let want = self.result_repr(op)?;
                if let Repr::GeneratorSet(root) = self.repr_of(&op.args[0])? {
                    // what one of several generator functions returned:
                    // only None is known without its frame
                    let family = self.rt.generator_family(root);
                    if family
                        .iter()
                        .all(|g| matches!(self.rt.ann.return_annotation(*g), SomeValue::None_ | SomeValue::Impossible))
                    {
                        let none = SomeValue::None_;
                        let c = constant_of(self.rt, self.py, &none, &want)?;
                        self.finish(op.result, c);
                        return Ok(());
                    }
                    return Err(RTypeError::unsupported(
                        "the value returned by one of several generator functions (yield from)",
                    ));
                }
                let Repr::Generator(g) = self.repr_of(&op.args[0])? else {
                    let c = constant_of(self.rt, self.py, &s_result, &want)?;
                    self.finish(op.result, c);
                    return Ok(());
                };
                let s_returned = self.rt.ann.return_annotation(g);
                let have = self.rt.getrepr(&s_returned)?;
                if have == Repr::Void {
                    let c = constant_of(self.rt, self.py, &s_returned, &want)?;
                    self.finish(op.result, c);
                    return Ok(());
                }
                let frame = self.input(&op.args[0], &Repr::Generator(g))?;
                let name = Hlvalue::Constant(rpy3_model::llconst::name_constant(self.py, "result"));
                let t = have.lowleveltype(self.rt);
                let v = self.emit(LlOp::Getfield, vec![frame, name], t);
                let v = self.convert(v, &have, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Bool => {
                let a = self.repr_of(&op.args[0])?;
                let x = self.input(&op.args[0], &a)?;
                let v = match &a {
                    Repr::Bool => x,
                    Repr::Int(k) => {
                        self.emit(int_op(*k, LlOp::IntIsTrue, LlOp::UintIsTrue), vec![x], BOOL)
                    }
                    Repr::Float => self.emit(LlOp::FloatIsTrue, vec![x], BOOL),
                    Repr::Number => {
                        let f = self.unbox_number(x, &Repr::Float)?;
                        self.emit(LlOp::FloatIsTrue, vec![f], BOOL)
                    }
                    // (a function or None: whether it is not None)
                    Repr::Instance(_) | Repr::Class | Repr::FuncPtr(_) | Repr::MethodSet(_) => {
                        self.emit(LlOp::PtrNonzero, vec![x], BOOL)
                    }
                    // one of several functions or None (-1)
                    Repr::FuncSet(_) => {
                        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                        self.emit(LlOp::IntGe, vec![x, zero], BOOL)
                    }
                    Repr::Range => self.range_is_true(x)?,
                    // a one-character string is never empty
                    Repr::UniChar | Repr::Char => value_const(self.py, LlValue::Bool(true), BOOL)?,
                    // a tuple is true when not empty (and not None)
                    Repr::Tuple(items) if items.is_empty() => {
                        value_const(self.py, LlValue::Bool(false), BOOL)?
                    }
                    Repr::Tuple(_) => match self.s(&op.args[0]) {
                        SomeValue::TupleOrNone(_) => self.emit(LlOp::PtrNonzero, vec![x], BOOL),
                        _ => value_const(self.py, LlValue::Bool(true), BOOL)?,
                    },
                    Repr::Optional(_) => {
                        let pt = a.lowleveltype(self.rt);
                        self.call_helper_in(
                            builtins::RBUILTIN,
                            "ll_optional_is_true",
                            vec![(x, SomeValue::Ptr(pt))],
                        )?
                        .0
                    }
                    _ => return Err(RTypeError::unsupported(&format!("truth value of {a:?}"))),
                };
                self.finish(op.result, v);
                Ok(())
            }
            H::Is_ => self.is_(op),
            H::Len => self.len_(op),
            H::Contains => self.contains(op),
            H::SimpleCall | H::CallArgs => self.call(op),
            H::Getslice if self.repr_of(&op.args[0])? == Repr::Range => {
                // a slice of a range (`first, *mid, last = range(n)`): of
                // the list of its items
                let int = Repr::Int(IntKind::Signed);
                let l = self.iterable_as_list(&op.args[0], &int)?;
                let lr = Repr::list_of(int);
                let mut args = vec![(l, SomeValue::Ptr(lr.lowleveltype(self.rt)))];
                args.extend(self.bounds_args(&op.args[1], &op.args[2])?);
                let (v, _) = self.call_list_helper("ll_slice_step", args)?;
                let want = self.result_repr(op)?;
                let v = self.convert(v, &lr, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Getattr
                if self.repr_of(&op.args[0])? == Repr::Range
                    && matches!(
                        self.s(&op.args[1]).konst().and_then(|k| k.bind(self.py).extract::<String>().ok()).as_deref(),
                        Some("start" | "stop" | "step")
                    ) =>
            {
                // a range's bounds and step: its fields
                let attr: String = self
                    .s(&op.args[1])
                    .konst()
                    .and_then(|k| k.bind(self.py).extract().ok())
                    .unwrap_or_default();
                let r = self.input(&op.args[0], &Repr::Range)?;
                let v = self.emit(LlOp::Getfield, vec![r, name(self.py, &attr)], SIGNED);
                let want = self.result_repr(op)?;
                let v = self.convert(v, &Repr::Int(IntKind::Signed), &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Getattr => self.getattr(op),
            H::Setattr => self.setattr(op),
            H::Newtuple => {
                let Repr::Tuple(items) = self.result_repr(op)? else {
                    return Err(RTypeError::new("newtuple of a non-tuple"));
                };
                let mut vals = Vec::new();
                for (a, r) in op.args.iter().zip(items.iter()) {
                    vals.push(self.input(a, r)?);
                }
                let t = self.new_tuple(&items, vals)?;
                self.finish(op.result, t);
                Ok(())
            }
            H::Getitem => {
                let tr = self.repr_of(&op.args[0])?;
                if tr == Repr::Range {
                    return self.range_getitem(op);
                }
                let Repr::Tuple(items) = tr.clone() else {
                    return Err(RTypeError::unsupported(
                        "indexing containers (the containers issue)",
                    ));
                };
                let konst = match &op.args[1] {
                    Hlvalue::Constant(c) => Some(c.value.clone()),
                    Hlvalue::Variable(v) => self.rt.ann.binding(self.g, *v).konst().cloned(),
                };
                if let Some(k) = konst.as_ref().filter(|k| k.bind(self.py).is_instance_of::<pyo3::types::PySlice>()) {
                    // a constant slice (with a step): the tuple of the items
                    // it picks
                    let picked: Vec<usize> = self
                        .py
                        .import("builtins")
                        .and_then(|b| b.getattr("range"))
                        .and_then(|r| {
                            let (start, stop, step): (isize, isize, isize) = k
                                .bind(self.py)
                                .call_method1("indices", (items.len(),))?
                                .extract()?;
                            r.call1((start, stop, step))?.try_iter()?.map(|i| i?.extract()).collect()
                        })
                        .map_err(|e| RTypeError::new(format!("a tuple slice: {e}")))?;
                    let t = self.tuple_input(&op.args[0], &tr)?;
                    let Repr::Tuple(want_items) = self.result_repr(op)? else {
                        return Err(RTypeError::new("a tuple slice that is not a tuple"));
                    };
                    if want_items.len() != picked.len() {
                        return Err(RTypeError::new("a tuple slice of another length"));
                    }
                    let mut vals = Vec::new();
                    for (&i, w) in picked.iter().zip(want_items.iter()) {
                        let v = self.emit(
                            LlOp::Getfield,
                            vec![t.clone(), name(self.py, &format!("item{i}"))],
                            items[i].lowleveltype(self.rt),
                        );
                        vals.push(self.convert(v, &items[i], w)?);
                    }
                    let v = self.new_tuple(&want_items, vals)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
                let idx: i64 = match &op.args[1] {
                    Hlvalue::Constant(c) => c
                        .value
                        .bind(self.py)
                        .extract()
                        .map_err(|_| RTypeError::new("tuple index"))?,
                    Hlvalue::Variable(v) => match self.rt.ann.binding(self.g, *v).konst() {
                        Some(k) => k
                            .bind(self.py)
                            .extract()
                            .map_err(|_| RTypeError::new("tuple index"))?,
                        None => return self.tuple_getitem_var(op, &tr),
                    },
                };
                let i = if idx < 0 {
                    idx + items.len() as i64
                } else {
                    idx
                } as usize;
                let t = self.tuple_input(&op.args[0], &tr)?;
                let v = self.emit(
                    LlOp::Getfield,
                    vec![t, name(self.py, &format!("item{i}"))],
                    items[i].lowleveltype(self.rt),
                );
                let want = self.result_repr(op)?;
                let v = self.convert(v, &items[i], &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Iter => {
                let want = self.result_repr(op)?;
                let (it, ir) = self.iter_of_as(&op.args[0], Some(&want))?;
                let v = self.convert(it, &ir, &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Next => {
                let r = self.repr_of(&op.args[0])?;
                if r != Repr::RangeIter {
                    return Err(RTypeError::unsupported(
                        "iterating over containers (the containers issue)",
                    ));
                }
                let helper = self.rt.helper_range_next(self.py)?;
                let it = self.input(&op.args[0], &r)?;
                let f = self.func_const(helper)?;
                let v = self.emit(LlOp::DirectCall, vec![f, it], SIGNED);
                let want = self.result_repr(op)?;
                let v = self.convert(v, &Repr::Int(IntKind::Signed), &want)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Type => {
                let s_res = self.rt.ann.binding(self.g, op.result);
                if let SomeValue::Type { konst: Some(_), .. } = s_res {
                    // the type of a value of a built-in type: a constant
                    let want = self.result_repr(op)?;
                    let v = constant_of(self.rt, self.py, &s_res, &want)?;
                    self.finish(op.result, v);
                    return Ok(());
                }
                let r = self.repr_of(&op.args[0])?;
                let Repr::Instance(_) = r else {
                    return Err(RTypeError::unsupported("type() of a non-instance"));
                };
                let v = self.class_of_instance(&op.args[0], &r)?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Issubtype => {
                let t = self.input(&op.args[0], &Repr::Class)?;
                let helper = self.rt.helper_issubclass(self.py);
                let f = self.func_const(helper)?;
                // `except (A, B)`: a tuple of classes matches if any does
                let classes: Vec<Hlvalue> = match &op.args[1] {
                    Hlvalue::Constant(c)
                        if c.value
                            .bind(self.py)
                            .is_instance_of::<pyo3::types::PyTuple>() =>
                    {
                        c.value
                            .bind(self.py)
                            .try_iter()
                            .map_err(|e| RTypeError::new(e.to_string()))?
                            .map(|i| {
                                i.map(|i| {
                                    Hlvalue::Constant(Constant::new(rpy3_model::PyObj::new(&i)))
                                })
                            })
                            .collect::<PyResult<_>>()
                            .map_err(|e| RTypeError::new(e.to_string()))?
                    }
                    other => vec![other.clone()],
                };
                let mut acc: Option<Hlvalue> = None;
                for cls in classes {
                    let c = self.input(&cls, &Repr::Class)?;
                    let one = self.emit(LlOp::DirectCall, vec![f.clone(), t.clone(), c], BOOL);
                    acc = Some(match acc {
                        None => one,
                        Some(prev) => {
                            let a = self.emit(LlOp::CastBoolToInt, vec![prev], SIGNED);
                            let b = self.emit(LlOp::CastBoolToInt, vec![one], SIGNED);
                            let o = self.emit(LlOp::IntOr, vec![a, b], SIGNED);
                            self.emit(LlOp::IntIsTrue, vec![o], BOOL)
                        }
                    });
                }
                let v = acc.ok_or_else(|| RTypeError::new("except with an empty tuple"))?;
                self.finish(op.result, v);
                Ok(())
            }
            H::Getslice if matches!(self.repr_of(&op.args[0])?, Repr::Tuple(_)) => {
                // a slice of a tuple with constant bounds: a new tuple
                let Repr::Tuple(items) = self.repr_of(&op.args[0])? else {
                    unreachable!("checked")
                };
                let n = items.len() as i64;
                let bound = |cx: &Self, h: &Hlvalue, default: i64| -> Result<i64, RTypeError> {
                    let s = cx.s(h);
                    if matches!(s, SomeValue::None_) {
                        return Ok(default);
                    }
                    let k = s
                        .konst()
                        .and_then(|k| k.bind(cx.py).extract::<i64>().ok())
                        .ok_or_else(|| {
                            RTypeError::unsupported("slicing a tuple with variable bounds")
                        })?;
                    Ok(if k < 0 { (k + n).max(0) } else { k.min(n) })
                };
                let start = bound(self, &op.args[1], 0)?;
                let stop = bound(self, &op.args[2], n)?.max(start);
                let want = self.result_repr(op)?;
                let Repr::Tuple(out) = want.clone() else {
                    return Err(RTypeError::new("slice of a tuple is not a tuple"));
                };
                let t = self.tuple_input(&op.args[0], &Repr::Tuple(items.clone()))?;
                let mut vals = Vec::new();
                for (j, i) in (start..stop).enumerate() {
                    let r = &items[i as usize];
                    let v = self.emit(
                        LlOp::Getfield,
                        vec![t.clone(), name(self.py, &format!("item{i}"))],
                        r.lowleveltype(self.rt),
                    );
                    vals.push(self.convert(v, r, &out[j])?);
                }
                let v = self.new_tuple(&out, vals)?;
                self.finish(op.result, v);
                Ok(())
            }
            other => Err(RTypeError::unsupported(&format!("the operation {other}"))),
        }
    }

    pub(super) fn func_const(&self, index: usize) -> Result<Hlvalue, RTypeError> {
        let f = self.rt.func_ref(index);
        let c = rpy3_model::llconst::func_constant(self.py, f, self.rt.func_name(index))
            .map_err(|e| RTypeError::new(e.to_string()))?;
        Ok(Hlvalue::Constant(c))
    }

    pub(super) fn object_ptr_of(&mut self, x: Hlvalue) -> Result<Hlvalue, RTypeError> {
        let ot = self.rt.objmodel.object_ptr;
        let tc = type_const(self.py, ot)?;
        Ok(self.emit(LlOp::CastPointer, vec![tc, x], ot))
    }

    pub(super) fn new_tuple(
        &mut self,
        items: &[Repr],
        vals: Vec<Hlvalue>,
    ) -> Result<Hlvalue, RTypeError> {
        let st = self.rt.tuple_struct(items);
        let pt = LlType::ptr(st).map_err(|e| RTypeError::new(e.to_string()))?;
        let tc = type_const(self.py, st)?;
        let p = self.emit(LlOp::Malloc, vec![tc], pt);
        for (i, v) in vals.into_iter().enumerate() {
            self.emit(
                LlOp::Setfield,
                vec![p.clone(), name(self.py, &format!("item{i}")), v],
                VOID,
            );
        }
        Ok(p)
    }
}

/// Whether an annotation stands for a single known value.
pub(super) fn is_constant(s: &SomeValue) -> bool {
    matches!(
        s,
        SomeValue::Bool { konst: Some(_), .. }
            | SomeValue::None_
            | SomeValue::Integer { konst: Some(_), .. }
            | SomeValue::Float { konst: Some(_), .. }
            | SomeValue::Str {
                konst: Some(_),
                is_char: true,
                ..
            }
    )
}

/// Whether `op` is immediately checked by `ovfcheck()` (PyPy's
/// `transform_ovfcheck`: the operation becomes its `_ovf` variant).
pub(super) fn is_ovfchecked(op: &SpaceOperation, next: Option<&SpaceOperation>) -> bool {
    let Some(n) = next else { return false };
    if n.opname != rpy3_model::OpName::SimpleCall
        || n.args.len() != 2
        || n.args[1].as_var() != Some(op.result)
    {
        return false;
    }
    match &n.args[0] {
        Hlvalue::Constant(c) => Python::attach(|py| {
            c.value
                .bind(py)
                .getattr("__name__")
                .map(|n| n.to_string() == "ovfcheck")
                .unwrap_or(false)
                && c.value
                    .bind(py)
                    .getattr("__module__")
                    .map(|m| m.to_string().starts_with("rpy3.rlib"))
                    .unwrap_or(false)
        }),
        _ => false,
    }
}

/// A light annotation of a flow-graph constant (for choosing reprs).
pub(super) fn const_annotation(py: Python<'_>, c: &Constant) -> SomeValue {
    let o = c.value.bind(py);
    let k = Some(rpy3_model::PyObj::new(o));
    if o.is_none() {
        SomeValue::None_
    } else if o.is_instance_of::<pyo3::types::PySlice>() {
        let parts = ["start", "stop", "step"]
            .iter()
            .map(|a| match o.getattr(*a) {
                Ok(part) => const_annotation(py, &Constant::new(rpy3_model::PyObj::new(&part))),
                Err(_) => SomeValue::None_,
            })
            .collect();
        SomeValue::Slice(parts)
    } else if o.is_instance_of::<pyo3::types::PyBool>() {
        SomeValue::Bool {
            konst: o.is_truthy().ok(),
            knowntypedata: None,
        }
    } else if o.is_instance_of::<pyo3::types::PyInt>() {
        let tyname = o
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let kind = if tyname == "r_uint" || tyname == "r_ulonglong" {
            IntKind::Unsigned
        } else {
            IntKind::Signed
        };
        SomeValue::Integer {
            kind,
            nonneg: false,
            konst: k,
            bool_too: false,
        }
    } else if o.is_instance_of::<pyo3::types::PyFloat>() {
        SomeValue::Float {
            konst: k,
            int_too: false,
        }
    } else if let Ok(s) = o.cast::<pyo3::types::PyString>() {
        SomeValue::Str {
            kind: rpy3_annotator::model::StrKind::Str,
            is_char: s.len().map(|n| n == 1).unwrap_or(false),
            can_be_none: false,
            konst: k,
        }
    } else if let Ok(b) = o.cast::<pyo3::types::PyBytes>() {
        SomeValue::Str {
            kind: rpy3_annotator::model::StrKind::Bytes,
            is_char: b.as_bytes().len() == 1,
            can_be_none: false,
            konst: k,
        }
    } else if let Ok(t) = o.cast::<pyo3::types::PyTuple>() {
        SomeValue::Tuple(
            t.iter()
                .map(|i| const_annotation(py, &Constant::new(rpy3_model::PyObj::new(&i))))
                .collect(),
        )
    } else {
        // functions, classes and other prebuilt constants carry no value
        SomeValue::None_
    }
}

pub(super) fn name(py: Python<'_>, n: &str) -> Hlvalue {
    Hlvalue::Constant(rpy3_model::llconst::name_constant(py, n))
}

/// An int some of whose values are bools (`Repr::IntBool`).
fn is_int_or_bool(s: &SomeValue) -> bool {
    matches!(
        s,
        SomeValue::Integer {
            kind: IntKind::Signed,
            bool_too: true,
            konst: None,
            ..
        }
    )
}
