//! Clean-up of freshly built graphs (after PyPy's `simplify.py`): renaming
//! the variables of egg blocks, bypassing empty blocks, joining straight
//! chains, dropping exception links that only re-raise, and removing
//! values and pure operations that nothing uses.

use std::collections::{HashMap, HashSet};

use rpy3_model::{BlockId, ExitSwitch, FunctionGraph, Hlvalue, VarId};

/// Egg blocks reuse the variables of the block they forked from while the
/// graph is built; give each its own, making the graph SSI.
pub fn fixeggblocks(graph: &mut FunctionGraph, eggs: &[BlockId]) {
    for &egg in eggs {
        let inputargs = graph.blocks[egg].inputargs.clone();
        let mut mapping = HashMap::new();
        for v in inputargs {
            let fresh = graph.copy_var(v);
            mapping.insert(v, fresh);
        }
        graph.rename_in_block(egg, &mut |v| *mapping.get(&v).unwrap_or(&v));
    }
}

/// Runs every simplification until nothing changes, then compacts.
pub fn simplify_graph(graph: &mut FunctionGraph) {
    loop {
        let mut changed = false;
        changed |= eliminate_empty_blocks(graph);
        changed |= join_blocks(graph);
        changed |= remove_reraising_links(graph);
        changed |= remove_dead_values(graph);
        changed |= remove_identical_vars(graph);
        if !changed {
            break;
        }
    }
    graph.compact();
}

fn is_special(graph: &FunctionGraph, b: BlockId) -> bool {
    b == graph.startblock || b == graph.returnblock || b == graph.exceptblock
}

fn subst(h: &Hlvalue, map: &HashMap<VarId, Hlvalue>) -> Hlvalue {
    match h {
        Hlvalue::Variable(v) => map.get(v).cloned().unwrap_or_else(|| h.clone()),
        c => c.clone(),
    }
}

/// Links into a block with no operations and a single exit go straight on.
fn eliminate_empty_blocks(graph: &mut FunctionGraph) -> bool {
    let mut changed = false;
    for l in graph.iterlinks() {
        let mut seen = HashSet::new();
        loop {
            let target = graph.links[l].target;
            let t = &graph.blocks[target];
            if is_special(graph, target)
                || !t.operations.is_empty()
                || t.exitswitch != ExitSwitch::None
                || t.exits.len() != 1
                || !seen.insert(target)
            {
                break;
            }
            let out = t.exits[0];
            if graph.links[out].target == target {
                break;
            }
            let map: HashMap<VarId, Hlvalue> = t
                .inputargs
                .iter()
                .copied()
                .zip(graph.links[l].args.iter().cloned())
                .collect();
            let newargs: Vec<Hlvalue> = graph.links[out]
                .args
                .iter()
                .map(|a| subst(a, &map))
                .collect();
            let newtarget = graph.links[out].target;
            let newline = graph.links[out].lineno;
            let link = &mut graph.links[l];
            link.args = newargs;
            link.target = newtarget;
            if newline != 0 {
                link.lineno = newline;
            }
            changed = true;
        }
    }
    changed
}

/// A block whose single exit is the only way into the next block absorbs it.
fn join_blocks(graph: &mut FunctionGraph) -> bool {
    let mut changed = false;
    let mut entry = graph.entrymap();
    for a in graph.iterblocks() {
        loop {
            let block = &graph.blocks[a];
            if block.exitswitch != ExitSwitch::None || block.exits.len() != 1 {
                break;
            }
            let l = block.exits[0];
            let b = graph.links[l].target;
            if b == a || is_special(graph, b) || entry[b].len() != 1 {
                break;
            }
            let map: HashMap<VarId, Hlvalue> = graph.blocks[b]
                .inputargs
                .iter()
                .copied()
                .zip(graph.links[l].args.iter().cloned())
                .collect();
            let bb = graph.blocks[b].clone();
            let mut ops = bb.operations.clone();
            for op in ops.iter_mut() {
                for arg in op.args.iter_mut() {
                    *arg = subst(arg, &map);
                }
            }
            let exitswitch = match &bb.exitswitch {
                ExitSwitch::Value(h) => ExitSwitch::Value(subst(h, &map)),
                other => other.clone(),
            };
            for &bl in &bb.exits {
                let link = &mut graph.links[bl];
                let extras = [link.last_exception, link.last_exc_value];
                for arg in link.args.iter_mut() {
                    if let Hlvalue::Variable(v) = arg {
                        if extras.contains(&Some(*v)) {
                            continue;
                        }
                    }
                    *arg = subst(arg, &map);
                }
                link.prevblock = Some(a);
            }
            let ablock = &mut graph.blocks[a];
            ablock.operations.extend(ops);
            ablock.exitswitch = exitswitch;
            ablock.exits = bb.exits.clone();
            // `b` is now unreachable; keep the entry map right for its exits.
            for &bl in &bb.exits {
                let t = graph.links[bl].target;
                entry[t].retain(|&x| x != bl);
                entry[t].push(bl);
            }
            fold_constant_switch(graph, a);
            changed = true;
        }
    }
    changed
}

/// A switch on a constant keeps only the exit it takes.
fn fold_constant_switch(graph: &mut FunctionGraph, block: BlockId) {
    let ExitSwitch::Value(Hlvalue::Constant(c)) = graph.blocks[block].exitswitch.clone() else {
        return;
    };
    let taken = graph.blocks[block].exits.iter().copied().find(|&l| {
        graph.links[l]
            .exitcase
            .as_ref()
            .map(|e| e.value == c.value)
            .unwrap_or(false)
    });
    if let Some(l) = taken {
        graph.links[l].exitcase = None;
        let b = &mut graph.blocks[block];
        b.exitswitch = ExitSwitch::None;
        b.exits = vec![l];
    }
}

/// Exception links at the end of a raising block that pass the exception
/// unchanged to the except block catch nothing: an uncaught exception
/// propagates the same way.
fn remove_reraising_links(graph: &mut FunctionGraph) -> bool {
    let mut changed = false;
    for b in graph.iterblocks() {
        if graph.blocks[b].exitswitch != ExitSwitch::LastException {
            continue;
        }
        while graph.blocks[b].exits.len() > 1 {
            let &l = graph.blocks[b].exits.last().expect("non-empty");
            let link = &graph.links[l];
            let reraises = link.target == graph.exceptblock
                && link.args.len() == 2
                && match (&link.args[0], &link.args[1]) {
                    (Hlvalue::Variable(t), Hlvalue::Variable(v)) => {
                        Some(*t) == link.last_exception && Some(*v) == link.last_exc_value
                    }
                    (Hlvalue::Constant(c), Hlvalue::Variable(v)) => {
                        link.exitcase.as_ref() == Some(c) && Some(*v) == link.last_exc_value
                    }
                    _ => false,
                };
            if !reraises {
                break;
            }
            graph.blocks[b].exits.pop();
            changed = true;
        }
        if graph.blocks[b].exits.len() == 1 {
            graph.blocks[b].exitswitch = ExitSwitch::None;
        }
    }
    changed
}

/// Whether an operation can be dropped when its result is unused.
fn removable(op: &rpy3_model::SpaceOperation) -> bool {
    let desc = op.opname.desc();
    desc.pure && desc.canraise.is_empty()
}

/// Removes input arguments whose values are never read, however far they
/// are passed around (a global liveness fixpoint, so a value only carried
/// around a loop is dead too), and pure, non-raising operations whose
/// result is never read.
fn remove_dead_values(graph: &mut FunctionGraph) -> bool {
    let blocks = graph.iterblocks();
    let entry = graph.entrymap();
    let mut inputpos: HashMap<VarId, (BlockId, usize)> = HashMap::new();
    let mut producer: HashMap<VarId, (BlockId, usize)> = HashMap::new();
    let mut live: HashSet<VarId> = HashSet::new();
    let mut work: Vec<VarId> = Vec::new();
    let mark = |h: &Hlvalue, live: &mut HashSet<VarId>, work: &mut Vec<VarId>| {
        if let Hlvalue::Variable(v) = h {
            if live.insert(*v) {
                work.push(*v);
            }
        }
    };
    for &b in &blocks {
        let block = &graph.blocks[b];
        for (i, &v) in block.inputargs.iter().enumerate() {
            inputpos.insert(v, (b, i));
        }
        let nops = block.operations.len();
        for (i, op) in block.operations.iter().enumerate() {
            producer.insert(op.result, (b, i));
            let raising = block.exitswitch == ExitSwitch::LastException && i + 1 == nops;
            if !removable(op) || raising {
                for a in &op.args {
                    mark(a, &mut live, &mut work);
                }
            }
        }
        if let ExitSwitch::Value(h) = &block.exitswitch {
            mark(h, &mut live, &mut work);
        }
        for &l in &block.exits {
            let link = &graph.links[l];
            if link.target == graph.returnblock || link.target == graph.exceptblock {
                for a in &link.args {
                    mark(a, &mut live, &mut work);
                }
            }
        }
    }
    while let Some(v) = work.pop() {
        if let Some(&(b, i)) = producer.get(&v) {
            for a in graph.blocks[b].operations[i].args.clone() {
                mark(&a, &mut live, &mut work);
            }
        }
        if let Some(&(b, i)) = inputpos.get(&v) {
            for &l in &entry[b] {
                let a = graph.links[l].args[i].clone();
                mark(&a, &mut live, &mut work);
            }
        }
    }
    let mut changed = false;
    for &b in &blocks {
        let nops = graph.blocks[b].operations.len();
        let raising = graph.blocks[b].exitswitch == ExitSwitch::LastException;
        let before = nops;
        let mut i = 0;
        graph.blocks[b].operations.retain(|op| {
            let keep = live.contains(&op.result) || !removable(op) || (raising && i + 1 == nops);
            i += 1;
            keep
        });
        changed |= graph.blocks[b].operations.len() != before;
        if is_special(graph, b) {
            continue;
        }
        let inputargs = graph.blocks[b].inputargs.clone();
        for i in (0..inputargs.len()).rev() {
            if !live.contains(&inputargs[i]) {
                graph.blocks[b].inputargs.remove(i);
                for &l in &entry[b] {
                    graph.links[l].args.remove(i);
                }
                changed = true;
            }
        }
    }
    changed
}

/// Input arguments that receive the same value on every entering link are
/// one variable.
fn remove_identical_vars(graph: &mut FunctionGraph) -> bool {
    let mut changed = false;
    let entry = graph.entrymap();
    for b in graph.iterblocks() {
        if is_special(graph, b) || entry[b].is_empty() {
            continue;
        }
        let n = graph.blocks[b].inputargs.len();
        let mut j = 1;
        while j < n.min(graph.blocks[b].inputargs.len()) {
            let same = (0..j).find(|&i| {
                entry[b]
                    .iter()
                    .all(|&l| graph.links[l].args[i] == graph.links[l].args[j])
            });
            if let Some(i) = same {
                let keep = graph.blocks[b].inputargs[i];
                let drop = graph.blocks[b].inputargs[j];
                graph.blocks[b].inputargs.remove(j);
                for &l in &entry[b] {
                    graph.links[l].args.remove(j);
                }
                graph.rename_in_block(b, &mut |v| if v == drop { keep } else { v });
                changed = true;
            } else {
                j += 1;
            }
        }
    }
    changed
}
