//! Coalescing: the variables of a graph share registers where that saves
//! a link move and no block sees two of them live at once.
//!
//! Graphs are in SSI form: every variable belongs to one block (an input
//! argument or an operation's result) and is used only there, a link
//! carrying values on to the next block's input arguments.  A link's
//! moves run at the end of its block, when every variable of the block is
//! dead but the link's arguments, which the moves read in parallel (the
//! loader detects a move reading a register another writes).  So a link
//! argument and the target's input argument may share a register unless
//! some block has, in the same register, two variables live at once; for
//! a block linking to itself, the input argument must be dead before the
//! argument is made.  Within a block, operation `i` reads its arguments at
//! `2i` and writes its result at `2i + 1`; input arguments are written at
//! -1; the exitswitch and the links read at `2n`.
//!
//! Variables defined on an exception link (`last_exception`,
//! `last_exc_value`: written by the unwinder before the link's moves
//! run) and any variable not found in exactly one block keep a register
//! of their own.

use rpy3_model::lloperation::LlOp;
use rpy3_model::{ExitSwitch, FunctionGraph, Hlvalue, OpName};

/// Largest product of the sizes of two classes whose union is tried (the
/// check is quadratic in them).
const MAX_PAIRS: usize = 4096;

const NO_BLOCK: u32 = u32::MAX;

/// The register class of every variable of `g` (indexed by variable):
/// variables of one class share a register.  Classes are numbered from 0
/// and there are at most as many as variables.
pub(crate) fn coalesce(g: &FunctionGraph) -> Vec<u32> {
    let n = g.vars.len();
    let mut block = vec![NO_BLOCK; n];
    let mut start = vec![0i64; n];
    let mut end = vec![0i64; n];
    let mut pinned = vec![false; n];
    let blocks = g.iterblocks();
    // where each variable lives
    for (bi, &b) in blocks.iter().enumerate() {
        let blk = &g.blocks[b];
        let defs = blk.inputargs.iter().map(|&v| (v, -1i64)).chain(
            blk.operations
                .iter()
                .enumerate()
                .map(|(i, op)| (op.result, 2 * i as i64 + 1)),
        );
        for (v, at) in defs {
            let i = v.as_u32() as usize;
            if i >= n {
                continue;
            }
            if block[i] != NO_BLOCK {
                pinned[i] = true;
            }
            block[i] = bi as u32;
            start[i] = at;
            end[i] = at;
        }
    }
    for (bi, &b) in blocks.iter().enumerate() {
        let blk = &g.blocks[b];
        let at_end = 2 * blk.operations.len() as i64;
        let mut uses: Vec<(&Hlvalue, i64)> = Vec::new();
        for (i, op) in blk.operations.iter().enumerate() {
            uses.extend(op.args.iter().map(|a| (a, 2 * i as i64)));
        }
        if let ExitSwitch::Value(h) = &blk.exitswitch {
            uses.push((h, at_end));
        }
        for &l in &blk.exits {
            let Some(link) = g.links.get(l) else { continue };
            uses.extend(link.args.iter().map(|a| (a, at_end)));
            for v in [link.last_exception, link.last_exc_value]
                .into_iter()
                .flatten()
            {
                if let Some(p) = pinned.get_mut(v.as_u32() as usize) {
                    *p = true;
                }
            }
        }
        let returns = b == g.returnblock || b == g.exceptblock;
        for (h, at) in uses {
            let Some(v) = h.as_var() else { continue };
            let i = v.as_u32() as usize;
            if i >= n {
                continue;
            }
            if block[i] == bi as u32 {
                end[i] = end[i].max(at);
            } else {
                pinned[i] = true;
            }
        }
        if returns {
            for &v in &blk.inputargs {
                if let Some(e) = end.get_mut(v.as_u32() as usize) {
                    *e = (*e).max(at_end);
                }
            }
        }
        // the loader may compile `same_as` away (its result reading the
        // source's register): the source then lives as long as the result
        for op in blk.operations.iter().rev() {
            if op.opname != OpName::Ll(LlOp::SameAs) {
                continue;
            }
            let Some(s) = op.args.first().and_then(|a| a.as_var()) else {
                continue;
            };
            let (s, r) = (s.as_u32() as usize, op.result.as_u32() as usize);
            if s < n && r < n && block[s] == bi as u32 {
                end[s] = end[s].max(end[r]);
            }
        }
    }
    for i in 0..n {
        if block[i] == NO_BLOCK {
            pinned[i] = true;
        }
    }
    // union of link arguments with the input arguments they go to
    let mut root: Vec<u32> = (0..n as u32).collect();
    let mut members: Vec<Vec<u32>> = (0..n as u32).map(|i| vec![i]).collect();
    for &b in &blocks {
        let blk = &g.blocks[b];
        for &l in &blk.exits {
            let Some(link) = g.links.get(l) else { continue };
            let Some(target) = g.blocks.get(link.target) else {
                continue;
            };
            for (a, &t) in link.args.iter().zip(&target.inputargs) {
                let Some(a) = a.as_var() else { continue };
                let (a, t) = (a.as_u32() as usize, t.as_u32() as usize);
                if a >= n || t >= n || pinned[a] || pinned[t] {
                    continue;
                }
                let (ra, rt) = (root[a] as usize, root[t] as usize);
                if ra == rt || members[ra].len() * members[rt].len() > MAX_PAIRS {
                    continue;
                }
                let clash = members[ra].iter().any(|&x| {
                    members[rt].iter().any(|&y| {
                        let (x, y) = (x as usize, y as usize);
                        block[x] == block[y] && start[x] <= end[y] && start[y] <= end[x]
                    })
                });
                if clash {
                    continue;
                }
                let (big, small) = if members[ra].len() >= members[rt].len() {
                    (ra, rt)
                } else {
                    (rt, ra)
                };
                let moved = std::mem::take(&mut members[small]);
                for &m in &moved {
                    root[m as usize] = big as u32;
                }
                members[big].extend(moved);
            }
        }
    }
    // classes numbered in the order of their first variable
    let mut number = vec![u32::MAX; n];
    let mut next = 0;
    let mut class = vec![0; n];
    for i in 0..n {
        let r = root[i] as usize;
        if number[r] == u32::MAX {
            number[r] = next;
            next += 1;
        }
        class[i] = number[r];
    }
    class
}
