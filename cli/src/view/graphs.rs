//! The graphs of a translation as the page's data: for each stage (flow,
//! annotate, rtype) every function reached, its blocks with their
//! operations, its links, each variable named as `rpy3 show` names it
//! and carrying its annotation or low-level type, each call naming the
//! graphs it may reach.

use std::collections::HashMap;

use pyo3::prelude::*;
use rpy3_annotator::{Annotator, GraphId};
use rpy3_model::llconst::LlFuncConst;
use rpy3_model::print::const_repr;
use rpy3_model::program::LlProgram;
use rpy3_model::{BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, VarId};

use super::json::Json;

/// One stage's graphs: the functions, the entry's key, and the error that
/// stopped the stage (its graphs are then the ones made before it).
pub struct Stage {
    pub name: &'static str,
    pub entry: Option<String>,
    pub functions: Vec<Json>,
    pub error: Option<String>,
}

impl Stage {
    pub fn to_json(&self) -> Json {
        Json::Obj(vec![
            ("name", Json::str(self.name)),
            ("entry", Json::opt_str(self.entry.clone())),
            ("error", Json::opt_str(self.error.clone())),
            ("functions", Json::Arr(self.functions.clone())),
        ])
    }
}

/// Unique keys for graphs named `names` (in order): a name the first
/// time, `name~2`, `name~3`... for the specialised copies that follow.
pub fn unique_keys<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    names
        .into_iter()
        .map(|name| {
            let n = seen.entry(name).or_insert(0);
            *n += 1;
            if *n == 1 {
                name.to_string()
            } else {
                format!("{name}~{n}")
            }
        })
        .collect()
}

/// The annotator's graphs (the entry first, then by name), with their
/// annotations when `annotations`; calls lead where the annotator's call
/// sites say.
pub fn annotator_stage(
    py: Python<'_>,
    name: &'static str,
    ann: &Annotator,
    entry: Option<GraphId>,
    annotations: bool,
) -> Stage {
    let mut order: Vec<GraphId> = ann.graphs.keys().collect();
    order.sort_by_key(|&g| (Some(g) != entry, ann.graphs[g].graph.name.clone()));
    let keys = unique_keys(order.iter().map(|&g| ann.graphs[g].graph.name.as_str()));
    let key_of: HashMap<GraphId, &String> = order.iter().copied().zip(keys.iter()).collect();
    let functions = order
        .iter()
        .map(|&g| {
            let ag = &ann.graphs[g];
            let note = |v: VarId| {
                if annotations {
                    ag.bindings[v].as_ref().map(|s| ann.canonical(s))
                } else {
                    None
                }
            };
            let callees = |b: BlockId, i: usize, _: &rpy3_model::SpaceOperation| -> Vec<String> {
                ann.call_sites
                    .get(&(g, b, i))
                    .map(|targets| {
                        targets
                            .values()
                            .filter_map(|t| key_of.get(t).map(|k| (*k).clone()))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            graph_json(py, &ag.graph, key_of[&g], &note, &callees)
        })
        .collect();
    Stage {
        name,
        entry: entry.map(|g| key_of[&g].clone()),
        functions,
        error: None,
    }
}

/// The low-level graphs (the entry first, then by name), each variable
/// and constant with its low-level type; a `direct_call` leads to the
/// function it calls.
pub fn lowlevel_stage(py: Python<'_>, program: &LlProgram) -> Stage {
    let mut order: Vec<usize> = (0..program.functions.len()).collect();
    order.sort_by_key(|&i| (i != program.entry, program.functions[i].name.clone()));
    let keys = unique_keys(order.iter().map(|&i| program.functions[i].name.as_str()));
    let mut key_of = vec![String::new(); program.functions.len()];
    for (&i, key) in order.iter().zip(&keys) {
        key_of[i] = key.clone();
    }
    let functions = order
        .iter()
        .map(|&i| {
            let g = &program.functions[i].graph;
            let note = |v: VarId| g.vars[v].concretetype.map(|t| t.to_string());
            let callees = |_: BlockId, _: usize, op: &rpy3_model::SpaceOperation| -> Vec<String> {
                if op.opname.to_string() != "direct_call" {
                    return Vec::new();
                }
                let Some(Hlvalue::Constant(c)) = op.args.first() else {
                    return Vec::new();
                };
                c.value
                    .bind(py)
                    .cast::<LlFuncConst>()
                    .ok()
                    .and_then(|f| key_of.get(f.get().func.index as usize).cloned())
                    .into_iter()
                    .collect()
            };
            graph_json(py, g, &key_of[i], &note, &callees)
        })
        .collect();
    Stage {
        name: "rtype",
        entry: key_of.get(program.entry).cloned(),
        functions,
        error: None,
    }
}

/// Names variables in order of appearance, as `rpy3 show` prints them.
struct Namer<'g> {
    graph: &'g FunctionGraph,
    names: HashMap<VarId, String>,
}

impl Namer<'_> {
    fn var(&mut self, v: VarId) -> String {
        let next = self.names.len();
        let hint = &self.graph.vars[v].name_hint;
        self.names
            .entry(v)
            .or_insert_with(|| {
                if hint.is_empty() {
                    format!("v{next}")
                } else {
                    format!("{hint}_{next}")
                }
            })
            .clone()
    }
}

/// The name of each reachable block: `block0`, `block1`... in printing
/// order, `return` and `except` for the two final blocks.
fn block_names(graph: &FunctionGraph, order: &[BlockId]) -> HashMap<BlockId, String> {
    let mut k = 0;
    order
        .iter()
        .map(|&b| {
            let name = if b == graph.returnblock {
                "return".to_string()
            } else if b == graph.exceptblock {
                "except".to_string()
            } else {
                k += 1;
                format!("block{}", k - 1)
            };
            (b, name)
        })
        .collect()
}

/// A value as `{t: text, n: note}` (`k: 1` for a constant): a variable's
/// note is its annotation or type, a constant's its low-level type.
fn value_json(
    py: Python<'_>,
    namer: &mut Namer<'_>,
    note: &dyn Fn(VarId) -> Option<String>,
    h: &Hlvalue,
) -> Json {
    match h {
        Hlvalue::Variable(v) => var_json(namer, note, *v),
        Hlvalue::Constant(c) => const_json(py, c),
    }
}

fn var_json(namer: &mut Namer<'_>, note: &dyn Fn(VarId) -> Option<String>, v: VarId) -> Json {
    let mut fields = vec![("t", Json::str(namer.var(v)))];
    if let Some(n) = note(v) {
        fields.push(("n", Json::Str(n)));
    }
    Json::Obj(fields)
}

fn const_json(py: Python<'_>, c: &Constant) -> Json {
    let mut fields = vec![("t", Json::str(const_repr(py, c))), ("k", Json::Int(1))];
    if let Some(t) = c.concretetype {
        fields.push(("n", Json::Str(t.to_string())));
    }
    Json::Obj(fields)
}

/// One graph as the page draws it:
/// `{key, name, file, line, args, blocks: [{name, kind, inputs, ops,
/// switch}], links: [{from, to, case, args}]}`, blocks in printing order
/// (the start block first), links by index into `blocks`.
pub fn graph_json(
    py: Python<'_>,
    graph: &FunctionGraph,
    key: &str,
    note: &dyn Fn(VarId) -> Option<String>,
    callees: &dyn Fn(BlockId, usize, &rpy3_model::SpaceOperation) -> Vec<String>,
) -> Json {
    let mut namer = Namer {
        graph,
        names: HashMap::new(),
    };
    let order = graph.iterblocks();
    let index: HashMap<BlockId, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let names = block_names(graph, &order);
    let args: Vec<Json> = graph.blocks[graph.startblock]
        .inputargs
        .iter()
        .map(|&v| var_json(&mut namer, note, v))
        .collect();
    let mut blocks = Vec::new();
    let mut links = Vec::new();
    for &b in &order {
        let block = &graph.blocks[b];
        let kind = if b == graph.returnblock {
            "return"
        } else if b == graph.exceptblock {
            "except"
        } else {
            "block"
        };
        let inputs: Vec<Json> = block
            .inputargs
            .iter()
            .map(|&v| var_json(&mut namer, note, v))
            .collect();
        let ops: Vec<Json> = block
            .operations
            .iter()
            .enumerate()
            .map(|(i, op)| {
                let args: Vec<Json> = op
                    .args
                    .iter()
                    .map(|h| value_json(py, &mut namer, note, h))
                    .collect();
                let result = var_json(&mut namer, note, op.result);
                let callees: Vec<Json> = callees(b, i, op).into_iter().map(Json::Str).collect();
                Json::Obj(vec![
                    ("op", Json::str(op.opname.to_string())),
                    ("res", result),
                    ("args", Json::Arr(args)),
                    ("line", Json::Int(op.lineno as i64)),
                    ("callees", Json::Arr(callees)),
                ])
            })
            .collect();
        let switch = match &block.exitswitch {
            ExitSwitch::None => Json::Null,
            ExitSwitch::Value(h) => value_json(py, &mut namer, note, h),
            ExitSwitch::LastException => Json::Obj(vec![("t", Json::str("last_exception"))]),
        };
        for &l in &block.exits {
            let link = &graph.links[l];
            let case = link.exitcase.as_ref().map(|c| {
                let mut case = const_repr(py, c);
                if let (Some(et), Some(ev)) = (link.last_exception, link.last_exc_value) {
                    case = format!("{case} as ({}, {})", namer.var(et), namer.var(ev));
                }
                case
            });
            let args: Vec<Json> = link
                .args
                .iter()
                .map(|h| value_json(py, &mut namer, note, h))
                .collect();
            links.push(Json::Obj(vec![
                ("from", Json::Int(index[&b] as i64)),
                ("to", Json::Int(index[&link.target] as i64)),
                ("case", Json::opt_str(case)),
                ("args", Json::Arr(args)),
            ]));
        }
        blocks.push(Json::Obj(vec![
            ("name", Json::str(names[&b].clone())),
            ("kind", Json::str(kind)),
            ("inputs", Json::Arr(inputs)),
            ("ops", Json::Arr(ops)),
            ("switch", switch),
        ]));
    }
    Json::Obj(vec![
        ("key", Json::str(key)),
        ("name", Json::str(graph.name.clone())),
        ("file", Json::str(graph.source.filename.clone())),
        ("line", Json::Int(graph.source.firstlineno as i64)),
        ("args", Json::Arr(args)),
        ("blocks", Json::Arr(blocks)),
        ("links", Json::Arr(links)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specialised_copies_get_numbered_keys() {
        let keys = unique_keys(["f", "g", "f", "f"]);
        assert_eq!(keys, ["f", "g", "f~2", "f~3"]);
    }
}
