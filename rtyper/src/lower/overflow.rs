//! Int arithmetic that overflows.  A machine word wraps where CPython's int
//! grows, so a program's `+`, `-`, `*` and `<<` on ints are checked (the
//! `_ovf` operations, raising OverflowError) unless the result only ever
//! reaches a mask: `intmask()`, `r_uint()`, `& constant`, `% 2**k`, through
//! further `+ - * ^ & | << ~` and the variables of the graph.  Modulo 2**64
//! those operations compute the true result's low bits, so the mask sees
//! what CPython's would (a hash `h = (h * 1000003) ^ c` ending in
//! `intmask(h)`).  The helpers of rpy3 itself (`rpy3.*`) wrap as RPython's
//! machine words do.

use std::collections::{HashMap, HashSet};

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::{GraphId, SomeValue};
use rpy3_model::{Hlvalue, OpName, VarId};

use crate::RTyper;

/// A use of a variable: an argument of an operation, or an argument of a
/// link passed to a block's input variable.
enum Use {
    Op { result: VarId, opname: OpName, pos: usize, other: Option<Hlvalue>, callee: Option<Hlvalue> },
    Input(VarId),
    Other,
}

fn is_plain_int(s: &SomeValue) -> bool {
    matches!(
        s,
        SomeValue::Integer {
            kind: IntKind::Signed,
            ..
        }
    )
}

/// The operations whose result may wrap (the others overflow into
/// OverflowError): None when the graph is one of rpy3's own helpers,
/// whose arithmetic always wraps.
pub(super) fn wrapping_results(
    rt: &RTyper<'_>,
    py: Python<'_>,
    g: GraphId,
) -> Option<HashSet<VarId>> {
    let ag = &rt.ann.graphs[g];
    let func = ag.graph.func.as_ref()?;
    let module: String = func
        .bind(py)
        .getattr("__module__")
        .and_then(|m| m.extract())
        .unwrap_or_default();
    if module == "rpy3" || module.starts_with("rpy3.") {
        return None;
    }
    let graph = &ag.graph;
    let candidate = |v: VarId| is_plain_int(&rt.ann.binding(g, v));
    let mut uses: HashMap<VarId, Vec<Use>> = HashMap::new();
    for b in graph.iterblocks() {
        let block = &graph.blocks[b];
        for op in &block.operations {
            for (pos, a) in op.args.iter().enumerate() {
                let Hlvalue::Variable(v) = a else { continue };
                if !candidate(*v) {
                    continue;
                }
                let other = if op.args.len() == 2 { Some(op.args[1 - pos].clone()) } else { None };
                uses.entry(*v).or_default().push(Use::Op {
                    result: op.result,
                    opname: op.opname,
                    pos,
                    other,
                    callee: op.args.first().cloned(),
                });
            }
        }
        if let rpy3_model::ExitSwitch::Value(Hlvalue::Variable(v)) = &block.exitswitch {
            uses.entry(*v).or_default().push(Use::Other);
        }
        for &l in &block.exits {
            let link = &graph.links[l];
            let target = &graph.blocks[link.target];
            for (k, a) in link.args.iter().enumerate() {
                let Hlvalue::Variable(v) = a else {
                    continue;
                };
                let v = *v;
                if !candidate(v) {
                    continue;
                }
                let u = if link.target == graph.returnblock || link.target == graph.exceptblock {
                    Use::Other
                } else {
                    match target.inputargs.get(k) {
                        Some(w) => Use::Input(*w),
                        None => Use::Other,
                    }
                };
                uses.entry(v).or_default().push(u);
            }
        }
    }
    let is_mask_call = |callee: &Option<Hlvalue>| -> bool {
        let Some(Hlvalue::Constant(c)) = callee else { return false };
        let f = c.value.bind(py);
        let name: String = f.getattr("__name__").and_then(|n| n.extract()).unwrap_or_default();
        let module: String = f.getattr("__module__").and_then(|n| n.extract()).unwrap_or_default();
        module.starts_with("rpy3.rlib")
            && matches!(name.as_str(), "intmask" | "r_uint" | "r_ulonglong" | "r_int")
    };
    let const_int = |h: &Option<Hlvalue>| -> Option<i64> {
        match h {
            Some(Hlvalue::Constant(c)) => c.value.bind(py).extract::<i64>().ok(),
            _ => None,
        }
    };
    // the variables assumed to reach only masks, until a use shows otherwise
    let mut masked: HashSet<VarId> = uses.keys().copied().collect();
    for b in graph.iterblocks() {
        for op in &graph.blocks[b].operations {
            if candidate(op.result) {
                masked.insert(op.result);
            }
        }
        for &v in &graph.blocks[b].inputargs {
            if candidate(v) {
                masked.insert(v);
            }
        }
    }
    for v in &graph.blocks[graph.returnblock].inputargs {
        masked.remove(v);
    }
    loop {
        let mut changed = false;
        let current: Vec<VarId> = masked.iter().copied().collect();
        for v in current {
            let ok = uses.get(&v).map_or(true, |us| {
                us.iter().all(|u| match u {
                    Use::Other => false,
                    Use::Input(w) => masked.contains(w),
                    Use::Op { result, opname, pos, other, callee } => {
                        use OpName::*;
                        match opname {
                            Add | Sub | Mul | Xor | Or_ | InplaceAdd | InplaceSub | InplaceMul
                            | InplaceXor | InplaceOr | Neg | Pos | Invert => masked.contains(result),
                            And_ | InplaceAnd => {
                                const_int(other).is_some_and(|m| m >= 0) || masked.contains(result)
                            }
                            Lshift | InplaceLshift => *pos == 0 && masked.contains(result),
                            Mod | InplaceMod => {
                                *pos == 0
                                    && const_int(other).is_some_and(|m| m > 0 && m & (m - 1) == 0)
                            }
                            SimpleCall => *pos == 1 && is_mask_call(callee),
                            _ => false,
                        }
                    }
                })
            });
            if !ok {
                masked.remove(&v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(masked)
}
