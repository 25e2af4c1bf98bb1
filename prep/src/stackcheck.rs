//! Stack checks: every function on a cycle of the call graph starts with
//! a `stack_check`, which raises `RecursionError` when the machine stack is
//! nearly exhausted, so runaway recursion never crashes a program (RPython
//! does the same with `stack_check` on the cycles of its call graph).

use pyo3::prelude::*;
use rpy3_model::lloperation::LlOp;
use rpy3_model::program::LlProgram;
use rpy3_model::{ExitSwitch, Hlvalue, Link};

use crate::util::{copy_var, op, void_var};
use crate::{CallGraph, PrepError};

/// Inserts the checks: a new start block holding the check, then a jump to
/// the old start block (which loops may enter again).
pub fn insert_stack_checks(
    _py: Python<'_>,
    program: &mut LlProgram,
    calls: &CallGraph,
) -> Result<(), PrepError> {
    for (i, f) in program.functions.iter_mut().enumerate() {
        if !calls.recursive.get(i).copied().unwrap_or(false) {
            continue;
        }
        let g = std::sync::Arc::make_mut(&mut f.graph);
        let old = g.startblock;
        let params: Vec<_> = g.blocks[old].inputargs.clone();
        let fresh: Vec<_> = params.iter().map(|&v| copy_var(g, v)).collect();
        let start = g.new_block(fresh.clone());
        let r = void_var(g);
        let line = g.source.firstlineno;
        g.blocks[start]
            .operations
            .push(op(LlOp::StackCheck, vec![], r, line));
        let args = fresh.into_iter().map(Hlvalue::Variable).collect();
        g.closeblock(start, ExitSwitch::None, vec![Link::new(args, old)]);
        g.startblock = start;
    }
    Ok(())
}
