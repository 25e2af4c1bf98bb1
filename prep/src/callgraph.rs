//! The call graph of a low-level program and what the passes derive from
//! it: which functions can raise, which can collect (allocate, directly or
//! through a callee), and which lie on a cycle.

use petgraph::graph::{DiGraph, NodeIndex};
use pyo3::prelude::*;
use rpy3_model::extfunc::{ExtFunc, ExtTy};
use rpy3_model::llconst;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue};
use rpy3_model::program::LlProgram;
use rpy3_model::{FunctionGraph, Hlvalue, OpName, SpaceOperation};

use crate::util::type_of;
use crate::PrepError;

/// Who an operation calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// Not a call of the program's functions.
    None,
    /// `direct_call` of a known function.
    Direct(usize),
    /// `indirect_call` through a pointer of this function type.
    Indirect(LlType),
}

/// What a call site may reach.
pub fn callee(py: Python<'_>, g: &FunctionGraph, op: &SpaceOperation) -> Callee {
    match op.opname {
        OpName::Ll(LlOp::DirectCall) => match op.args.first() {
            Some(Hlvalue::Constant(c)) => match llconst::ll_value(py, c) {
                Ok(LlValue::Func(f)) => Callee::Direct(f.index as usize),
                _ => Callee::None,
            },
            Some(h) => type_of(g, h)
                .and_then(|t| t.target())
                .map_or(Callee::None, Callee::Indirect),
            None => Callee::None,
        },
        OpName::Ll(LlOp::IndirectCall) => op
            .args
            .first()
            .and_then(|h| type_of(g, h))
            .and_then(|t| t.target())
            .map_or(Callee::None, Callee::Indirect),
        _ => Callee::None,
    }
}

/// The external function an `external_call` names.
pub fn external(py: Python<'_>, op: &SpaceOperation) -> Option<ExtFunc> {
    if op.opname != OpName::Ll(LlOp::ExternalCall) {
        return None;
    }
    let c = op.args.first()?.as_const()?;
    let name = llconst::name_of_constant(py, c)?;
    ExtFunc::from_name(&name)
}

/// The analysis.
#[derive(Clone, Debug)]
pub struct CallGraph {
    /// For each function, the functions it may call.
    pub callees: Vec<Vec<usize>>,
    /// For each function, whether calling it may leave an exception pending.
    pub can_raise: Vec<bool>,
    /// For each function, whether calling it may run the collector.
    pub can_collect: Vec<bool>,
    /// For each function, whether it lies on a cycle of the call graph.
    pub recursive: Vec<bool>,
}

/// Whether an operation other than a call of the program's functions can
/// raise.
pub fn op_can_raise_locally(py: Python<'_>, op: &SpaceOperation) -> bool {
    match op.opname {
        OpName::Ll(LlOp::DirectCall | LlOp::IndirectCall) => false,
        OpName::Ll(LlOp::ExternalCall) => external(py, op).is_none_or(ext_can_raise),
        OpName::Ll(o) => !o.desc().canraise.is_empty(),
        _ => true,
    }
}

/// Whether an external function can raise (a string argument holding a
/// lone surrogate cannot be encoded: `ValueError`).
pub fn ext_can_raise(f: ExtFunc) -> bool {
    let d = f.desc();
    !d.canraise.is_empty()
        || d.args
            .iter()
            .any(|a| matches!(a, ExtTy::Str | ExtTy::Bytes))
}

/// Whether `t` is the struct of instances of an exception class.  Their
/// allocation never collects (as the instances the runtime makes when an
/// operation raises): helpers that allocate only to raise then keep no
/// roots, which lets the C compiler inline them.  Memory those instances
/// take is reclaimed at the next collection.
pub fn is_exception_instance(program: &LlProgram, t: LlType) -> bool {
    program
        .exceptions
        .get("BaseException")
        .is_some_and(|base| t.starts_with(base.instance))
}

/// The type a `malloc` allocates.
fn malloc_type(py: Python<'_>, op: &SpaceOperation) -> Option<LlType> {
    let t = llconst::type_of_constant(py, op.args.first()?.as_const()?)?;
    Some(t.target().unwrap_or(t))
}

/// Whether an operation other than a call of the program's functions can
/// run the collector.  (Raising a built-in exception allocates its
/// instance without collecting, so raising operations do not count, and
/// neither does allocating an exception instance.)
pub fn op_can_collect_locally(py: Python<'_>, program: &LlProgram, op: &SpaceOperation) -> bool {
    match op.opname {
        OpName::Ll(LlOp::Malloc) => {
            !malloc_type(py, op).is_some_and(|t| is_exception_instance(program, t))
        }
        OpName::Ll(LlOp::MallocVarsize) => true,
        OpName::Ll(LlOp::ExternalCall) => {
            external(py, op).is_none_or(|f| matches!(f.desc().result, ExtTy::Str | ExtTy::Bytes))
        }
        _ => false,
    }
}

impl CallGraph {
    /// Analyses `program`.
    pub fn analyse(py: Python<'_>, program: &LlProgram) -> Result<CallGraph, PrepError> {
        let n = program.functions.len();
        let mut callees = vec![Vec::new(); n];
        let mut raise_local = vec![false; n];
        let mut collect_local = vec![false; n];
        for (i, f) in program.functions.iter().enumerate() {
            let g = &f.graph;
            for b in g.iterblocks() {
                let block = &g.blocks[b];
                for op in &block.operations {
                    match callee(py, g, op) {
                        Callee::Direct(k) => {
                            if k >= n {
                                return Err(PrepError::new(
                                    &f.name,
                                    format!("a call of function number {k}, which does not exist"),
                                ));
                            }
                            callees[i].push(k);
                        }
                        Callee::Indirect(ft) => {
                            for (k, h) in program.functions.iter().enumerate() {
                                if h.ty == ft {
                                    callees[i].push(k);
                                }
                            }
                        }
                        Callee::None => {
                            raise_local[i] |= op_can_raise_locally(py, op);
                            collect_local[i] |= op_can_collect_locally(py, program, op);
                        }
                    }
                }
                for &l in &block.exits {
                    if g.links[l].target == g.exceptblock {
                        raise_local[i] = true;
                    }
                }
            }
            callees[i].sort_unstable();
            callees[i].dedup();
        }
        let mut graph = DiGraph::<usize, ()>::with_capacity(n, 0);
        let nodes: Vec<NodeIndex> = (0..n).map(|i| graph.add_node(i)).collect();
        for (i, cs) in callees.iter().enumerate() {
            for &k in cs {
                graph.add_edge(nodes[i], nodes[k], ());
            }
        }
        let mut recursive = vec![false; n];
        let mut can_raise = raise_local;
        let mut can_collect = collect_local;
        // Tarjan's SCCs come in reverse topological order: callees first,
        // so one pass over them propagates raising and collecting.
        for scc in petgraph::algo::tarjan_scc(&graph) {
            let members: Vec<usize> = scc.iter().map(|&x| graph[x]).collect();
            let cyclic = members.len() > 1 || callees[members[0]].contains(&members[0]);
            // a function on a cycle starts with a stack check, which raises
            let mut r = cyclic;
            let mut c = false;
            for &m in &members {
                r |= can_raise[m];
                c |= can_collect[m];
                for &k in &callees[m] {
                    r |= can_raise[k];
                    c |= can_collect[k];
                }
            }
            for &m in &members {
                can_raise[m] = r;
                can_collect[m] = c;
                recursive[m] = cyclic;
            }
        }
        Ok(CallGraph {
            callees,
            can_raise,
            can_collect,
            recursive,
        })
    }

    /// Whether the call `op` of graph `g` can raise.
    pub fn call_can_raise(&self, py: Python<'_>, g: &FunctionGraph, op: &SpaceOperation) -> bool {
        match callee(py, g, op) {
            Callee::Direct(k) => self.can_raise.get(k).copied().unwrap_or(true),
            Callee::Indirect(_) => true,
            Callee::None => op_can_raise_locally(py, op),
        }
    }

    /// Whether the operation `op` of graph `g` can run the collector.
    pub fn op_can_collect(
        &self,
        py: Python<'_>,
        program: &LlProgram,
        g: &FunctionGraph,
        op: &SpaceOperation,
    ) -> bool {
        match callee(py, g, op) {
            Callee::Direct(k) => self.can_collect.get(k).copied().unwrap_or(true),
            Callee::Indirect(_) => true,
            Callee::None => op_can_collect_locally(py, program, op),
        }
    }
}
