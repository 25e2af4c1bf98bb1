//! Stable text and Graphviz DOT forms of a graph.
//!
//! Variables are named in order of first appearance (`x_0`, `v1`, ...) and
//! constants print without memory addresses, so two isomorphic graphs print
//! identically; tests compare graphs by comparing these texts.

use std::collections::HashMap;
use std::fmt::Write;

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyFunction, PyModule, PyString, PyTuple, PyType};

use crate::graph::{BlockId, Constant, ExitSwitch, FunctionGraph, Hlvalue, VarId};

/// A readable, address-free rendering of a constant.
pub fn const_repr(py: Python<'_>, c: &Constant) -> String {
    obj_repr(c.value.bind(py))
}

fn obj_repr(obj: &Bound<'_, PyAny>) -> String {
    let qualname = |o: &Bound<'_, PyAny>| -> String {
        o.getattr("__qualname__")
            .and_then(|q| q.extract::<String>())
            .or_else(|_| o.getattr("__name__").and_then(|q| q.extract::<String>()))
            .unwrap_or_else(|_| "?".to_string())
    };
    if obj.is_none()
        || obj.is_instance_of::<pyo3::types::PyBool>()
        || obj.is_instance_of::<pyo3::types::PyInt>()
    {
        return obj.repr().map(|r| r.to_string()).unwrap_or_default();
    }
    if obj.is_instance_of::<PyFloat>()
        || obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<pyo3::types::PyBytes>()
    {
        let r = obj.repr().map(|r| r.to_string()).unwrap_or_default();
        return shorten(r);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let items: Vec<String> = t.iter().map(|i| obj_repr(&i)).collect();
        return if items.len() == 1 {
            format!("({},)", items[0])
        } else {
            format!("({})", items.join(", "))
        };
    }
    if obj.is_instance_of::<PyType>() {
        return format!("<class {}>", qualname(obj));
    }
    if obj.is_instance_of::<PyFunction>() {
        return format!("<function {}>", qualname(obj));
    }
    if obj.is_instance_of::<PyModule>() {
        return format!("<module {}>", qualname(obj));
    }
    if obj.is_instance_of::<pyo3::types::PyCFunction>() {
        return format!("<builtin {}>", qualname(obj));
    }
    let ty = obj.get_type();
    if ty.module().map(|m| m == "rpy3.lltype").unwrap_or(false) {
        // low-level constants print themselves without addresses
        return obj.repr().map(|r| r.to_string()).unwrap_or_default();
    }
    let tyname = qualname(&ty.into_any());
    format!("<{tyname} object>")
}

fn shorten(s: String) -> String {
    const MAX: usize = 60;
    if s.chars().count() <= MAX {
        s
    } else {
        let cut: String = s.chars().take(MAX - 3).collect();
        format!("{cut}...")
    }
}

/// Names variables and blocks in order of appearance.
struct Namer<'g> {
    graph: &'g FunctionGraph,
    vars: HashMap<VarId, String>,
    blocks: HashMap<BlockId, String>,
}

impl<'g> Namer<'g> {
    fn new(graph: &'g FunctionGraph) -> Namer<'g> {
        let mut namer = Namer {
            graph,
            vars: HashMap::new(),
            blocks: HashMap::new(),
        };
        let mut k = 0;
        for b in graph.iterblocks() {
            let name = if b == graph.returnblock {
                "return".to_string()
            } else if b == graph.exceptblock {
                "except".to_string()
            } else {
                let n = format!("block{k}");
                k += 1;
                n
            };
            namer.blocks.insert(b, name);
        }
        namer
            .blocks
            .entry(graph.returnblock)
            .or_insert_with(|| "return".into());
        namer
            .blocks
            .entry(graph.exceptblock)
            .or_insert_with(|| "except".into());
        namer
    }

    fn var(&mut self, v: VarId) -> String {
        let next = self.vars.len();
        self.vars
            .entry(v)
            .or_insert_with(|| {
                let hint = &self.graph.vars[v].name_hint;
                if hint.is_empty() {
                    format!("v{next}")
                } else {
                    format!("{hint}_{next}")
                }
            })
            .clone()
    }

    fn val(&mut self, py: Python<'_>, h: &Hlvalue) -> String {
        match h {
            Hlvalue::Variable(v) => self.var(*v),
            Hlvalue::Constant(c) => const_repr(py, c),
        }
    }

    fn vals(&mut self, py: Python<'_>, hs: &[Hlvalue]) -> String {
        hs.iter()
            .map(|h| self.val(py, h))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The stable text form of `graph`.
pub fn graph_to_text(py: Python<'_>, graph: &FunctionGraph) -> String {
    graph_to_text_with(py, graph, &|_| None)
}

/// The stable text form of `graph`, each variable's definition followed by
/// `: <note>` when `note` gives one (the annotator's annotations).
pub fn graph_to_text_with(
    py: Python<'_>,
    graph: &FunctionGraph,
    note: &dyn Fn(VarId) -> Option<String>,
) -> String {
    let mut namer = Namer::new(graph);
    let mut out = String::new();
    let def = |namer: &mut Namer<'_>, v: VarId| -> String {
        let name = namer.var(v);
        match note(v) {
            Some(n) => format!("{name}: {n}"),
            None => name,
        }
    };
    let start_args: Vec<String> = graph.blocks[graph.startblock]
        .inputargs
        .iter()
        .map(|&v| namer.var(v))
        .collect();
    let _ = writeln!(out, "graph {}({})", graph.name, start_args.join(", "));
    for b in graph.iterblocks() {
        if b == graph.returnblock || b == graph.exceptblock {
            continue;
        }
        let block = &graph.blocks[b];
        let args: Vec<String> = block
            .inputargs
            .iter()
            .map(|&v| def(&mut namer, v))
            .collect();
        let _ = writeln!(out, "{}({}):", namer.blocks[&b], args.join(", "));
        for op in &block.operations {
            let args = namer.vals(py, &op.args);
            let res = def(&mut namer, op.result);
            let _ = writeln!(out, "    {res} = {}({args})", op.opname);
        }
        match &block.exitswitch {
            ExitSwitch::None => {}
            ExitSwitch::Value(h) => {
                let s = namer.val(py, h);
                let _ = writeln!(out, "    switch {s}");
            }
            ExitSwitch::LastException => {
                let _ = writeln!(out, "    switch last_exception");
            }
        }
        for &l in &block.exits {
            let link = &graph.links[l];
            let mut case = String::new();
            if let Some(c) = &link.exitcase {
                case = const_repr(py, c);
                if let (Some(et), Some(ev)) = (link.last_exception, link.last_exc_value) {
                    let et = namer.var(et);
                    let ev = namer.var(ev);
                    case = format!("{case} as ({et}, {ev})");
                }
                case.push(' ');
            }
            let args = namer.vals(py, &link.args);
            let _ = writeln!(out, "    {case}--> {}({args})", namer.blocks[&link.target]);
        }
    }
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\l")
}

/// The graph in Graphviz DOT, one node per block.
pub fn graph_to_dot(py: Python<'_>, graph: &FunctionGraph) -> String {
    let mut namer = Namer::new(graph);
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", dot_escape(&graph.name));
    let _ = writeln!(out, "    node [shape=box, fontname=\"monospace\"];");
    let order = graph.iterblocks();
    for &b in &order {
        let block = &graph.blocks[b];
        let mut label = String::new();
        let args: Vec<String> = block.inputargs.iter().map(|&v| namer.var(v)).collect();
        let _ = writeln!(label, "{}({})", namer.blocks[&b], args.join(", "));
        for op in &block.operations {
            let args = namer.vals(py, &op.args);
            let res = namer.var(op.result);
            let _ = writeln!(label, "{res} = {}({args})", op.opname);
        }
        match &block.exitswitch {
            ExitSwitch::Value(h) => {
                let s = namer.val(py, h);
                let _ = writeln!(label, "switch {s}");
            }
            ExitSwitch::LastException => {
                let _ = writeln!(label, "switch last_exception");
            }
            ExitSwitch::None => {}
        }
        let shape = if b == graph.returnblock || b == graph.exceptblock {
            ", style=rounded"
        } else {
            ""
        };
        let _ = writeln!(out, "    {} [label=\"{}\"{shape}];", b, dot_escape(&label));
    }
    for &b in &order {
        for &l in &graph.blocks[b].exits {
            let link = &graph.links[l];
            let mut label = namer.vals(py, &link.args);
            if let Some(c) = &link.exitcase {
                label = format!("{}: {label}", const_repr(py, c));
            }
            let _ = writeln!(
                out,
                "    {} -> {} [label=\"{}\"];",
                b,
                link.target,
                dot_escape(&label)
            );
        }
    }
    out.push_str("}\n");
    out
}
