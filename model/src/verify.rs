//! The graph verifier (PyPy's `checkgraph`): every invariant of the model,
//! checked after every pass in tests and debug builds.

use std::collections::HashSet;

use cranelift_entity::EntitySet;

use crate::graph::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, VarId};

/// A broken invariant, naming the graph and block where it was found.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("graph {graph}: {block}: {message}")]
pub struct VerifyError {
    /// The graph's name.
    pub graph: String,
    /// The block, printed as its id.
    pub block: String,
    /// What is wrong.
    pub message: String,
}

/// Checks every invariant of `graph`.
pub fn checkgraph(graph: &FunctionGraph) -> Result<(), VerifyError> {
    let err = |block: BlockId, message: String| VerifyError {
        graph: graph.name.clone(),
        block: block.to_string(),
        message,
    };
    for (special, nargs, what) in [
        (graph.returnblock, 1, "returnblock"),
        (graph.exceptblock, 2, "exceptblock"),
    ] {
        let b = &graph.blocks[special];
        if b.inputargs.len() != nargs {
            return Err(err(
                special,
                format!("{what} must have {nargs} input argument(s)"),
            ));
        }
        if !b.operations.is_empty() || !b.exits.is_empty() || b.exitswitch != ExitSwitch::None {
            return Err(err(
                special,
                format!("{what} must have no operations and no exits"),
            ));
        }
    }
    if graph.signature.num_inputargs() != 0
        && graph.blocks[graph.startblock].inputargs.len() != graph.signature.num_inputargs()
    {
        return Err(err(
            graph.startblock,
            "startblock arity differs from the signature".into(),
        ));
    }

    let mut defined_anywhere: EntitySet<VarId> = EntitySet::new();
    let mut define_once = |v: VarId, block: BlockId| -> Result<(), VerifyError> {
        if !defined_anywhere.insert(v) {
            return Err(err(
                block,
                format!("variable {v} is defined more than once"),
            ));
        }
        Ok(())
    };

    for block_id in graph.iterblocks() {
        let block = &graph.blocks[block_id];
        let mut local: HashSet<VarId> = HashSet::new();
        for &v in &block.inputargs {
            define_once(v, block_id)?;
            local.insert(v);
        }
        let used_here = |h: &Hlvalue,
                         local: &HashSet<VarId>,
                         what: &str|
         -> Result<(), VerifyError> {
            if let Hlvalue::Variable(v) = h {
                if !local.contains(v) {
                    return Err(err(
                        block_id,
                        format!("{what} uses {v}, which is not defined before it in this block"),
                    ));
                }
            }
            Ok(())
        };
        for op in &block.operations {
            if let Some(arity) = op.opname.desc().arity {
                if op.args.len() != arity {
                    return Err(err(
                        block_id,
                        format!(
                            "operation {} takes {arity} arguments, got {}",
                            op.opname,
                            op.args.len()
                        ),
                    ));
                }
            }
            for a in &op.args {
                used_here(a, &local, op.opname.name())?;
            }
            define_once(op.result, block_id)?;
            local.insert(op.result);
        }
        let is_final = block_id == graph.returnblock || block_id == graph.exceptblock;
        if block.exits.is_empty() && !is_final {
            return Err(err(
                block_id,
                "a block other than the return and except blocks has no exits".into(),
            ));
        }
        match &block.exitswitch {
            ExitSwitch::None => {
                if block.exits.len() > 1 {
                    return Err(err(block_id, "several exits but no exitswitch".into()));
                }
            }
            ExitSwitch::Value(h) => {
                used_here(h, &local, "exitswitch")?;
                let mut cases = HashSet::new();
                for &l in &block.exits {
                    match &graph.links[l].exitcase {
                        None => {
                            return Err(err(block_id, "switch exit without an exitcase".into()))
                        }
                        Some(c) => {
                            if !cases.insert(c.value.addr()) {
                                return Err(err(
                                    block_id,
                                    "two exits with the same exitcase".into(),
                                ));
                            }
                        }
                    }
                }
            }
            ExitSwitch::LastException => {
                let Some(lastop) = block.operations.last() else {
                    return Err(err(
                        block_id,
                        "exitswitch last_exception on a block without operations".into(),
                    ));
                };
                if block.exits.len() < 2 {
                    return Err(err(
                        block_id,
                        "exitswitch last_exception needs a normal exit and an exception exit"
                            .into(),
                    ));
                }
                for (i, &l) in block.exits.iter().enumerate() {
                    let link = &graph.links[l];
                    if i == 0 {
                        if link.exitcase.is_some() {
                            return Err(err(
                                block_id,
                                "the first exit of a raising block must be the normal one".into(),
                            ));
                        }
                    } else {
                        if link.exitcase.is_none() {
                            return Err(err(
                                block_id,
                                "an exception exit has no exception class".into(),
                            ));
                        }
                        if link.args.iter().any(|a| a.as_var() == Some(lastop.result)) {
                            return Err(err(
                                block_id,
                                "an exception exit uses the result of the raising operation".into(),
                            ));
                        }
                    }
                }
            }
        }
        for &l in &block.exits {
            let link = &graph.links[l];
            if link.prevblock != Some(block_id) {
                return Err(err(
                    block_id,
                    format!("{l} does not record this block as its prevblock"),
                ));
            }
            let mut link_local = local.clone();
            let is_exc = block.exitswitch == ExitSwitch::LastException && link.exitcase.is_some();
            for extra in [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
            {
                if !is_exc {
                    return Err(err(
                        block_id,
                        format!("{l} defines exception variables but is not an exception exit"),
                    ));
                }
                define_once(extra, block_id)?;
                link_local.insert(extra);
            }
            for a in &link.args {
                used_here(a, &link_local, "a link")?;
            }
            let target = &graph.blocks[link.target];
            if link.args.len() != target.inputargs.len() {
                return Err(err(
                    block_id,
                    format!(
                        "{l} passes {} values to {} which takes {}",
                        link.args.len(),
                        link.target,
                        target.inputargs.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}
