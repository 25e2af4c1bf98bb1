//! GC roots for a precise collector (PyPy's shadow-stack GC transform):
//! every GC pointer a function still needs after an operation that can
//! collect is pushed on the shadow stack before the operation and popped
//! after it, so the collector sees every live object.
//!
//! The pass runs on graphs already through the exception transform, so a
//! pending exception is tested after the pop.  The collector does not move
//! objects yet; a moving one will need the popped values reloaded, which
//! `gc_pop_roots` lists for that reason.

use std::collections::BTreeSet;
use std::sync::Arc;

use pyo3::prelude::*;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::TypeDef;
use rpy3_model::program::LlProgram;
use rpy3_model::{ExitSwitch, FunctionGraph, Hlvalue, VarId};

use crate::util::{op, void_var};
use crate::{CallGraph, PrepError};

/// Whether a variable holds a pointer to a GC object.
pub fn is_gc_var(g: &FunctionGraph, v: VarId) -> bool {
    g.vars[v]
        .concretetype
        .and_then(|t| match t.def() {
            TypeDef::Ptr(target) => Some(target.is_gc()),
            _ => None,
        })
        .unwrap_or(false)
}

/// Inserts the pushes and pops in every function of `program`.
pub fn insert_roots(
    py: Python<'_>,
    program: &mut LlProgram,
    calls: &CallGraph,
) -> Result<(), PrepError> {
    let snapshot = program.clone();
    for f in program.functions.iter_mut() {
        let g = Arc::make_mut(&mut f.graph);
        for b in g.iterblocks() {
            // liveness inside the block, backwards from its exits (in SSI
            // form, everything a block reads is defined in it)
            let mut live = BTreeSet::new();
            let block = &g.blocks[b];
            if let ExitSwitch::Value(Hlvalue::Variable(v)) = &block.exitswitch {
                live.insert(*v);
            }
            for &l in &block.exits {
                for h in &g.links[l].args {
                    if let Hlvalue::Variable(v) = h {
                        live.insert(*v);
                    }
                }
            }
            let mut roots_at: Vec<(usize, Vec<VarId>)> = Vec::new();
            for (i, o) in block.operations.iter().enumerate().rev() {
                live.remove(&o.result);
                if calls.op_can_collect(py, &snapshot, g, o) {
                    let roots: Vec<VarId> =
                        live.iter().copied().filter(|&v| is_gc_var(g, v)).collect();
                    if !roots.is_empty() {
                        roots_at.push((i, roots));
                    }
                }
                for a in &o.args {
                    if let Hlvalue::Variable(v) = a {
                        live.insert(*v);
                    }
                }
            }
            if roots_at.is_empty() {
                continue;
            }
            let ops = std::mem::take(&mut g.blocks[b].operations);
            let mut out = Vec::with_capacity(ops.len() + 2 * roots_at.len());
            let mut pending = roots_at.into_iter().rev().peekable();
            for (i, o) in ops.into_iter().enumerate() {
                match pending.next_if(|(at, _)| *at == i) {
                    Some((_, roots)) => {
                        let args: Vec<Hlvalue> = roots.into_iter().map(Hlvalue::Variable).collect();
                        let line = o.lineno;
                        out.push(op(LlOp::GcPushRoots, args.clone(), void_var(g), line));
                        out.push(o);
                        out.push(op(LlOp::GcPopRoots, args, void_var(g), line));
                    }
                    None => out.push(o),
                }
            }
            g.blocks[b].operations = out;
        }
    }
    Ok(())
}
