//! The verifier accepts well-formed graphs and names each broken invariant.

use pyo3::prelude::*;
use rpy3_model::{
    checkgraph, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
};

fn int_const(py: Python<'_>, i: i64) -> Hlvalue {
    Hlvalue::Constant(Constant::new(PyObj::new(
        &pyo3::types::PyInt::new(py, i).into_any(),
    )))
}

fn bool_const(py: Python<'_>, b: bool) -> Constant {
    Constant::new(PyObj::new(
        &pyo3::types::PyBool::new(py, b).to_owned().into_any(),
    ))
}

/// `f(x): v = add(x, 1); return v`
fn simple(py: Python<'_>) -> FunctionGraph {
    let mut g = FunctionGraph::new("f", vec!["x".into()]);
    let x = g.blocks[g.startblock].inputargs[0];
    let v = g.new_var("");
    let one = int_const(py, 1);
    g.blocks[g.startblock].operations.push(SpaceOperation {
        opname: OpName::Add,
        args: vec![Hlvalue::Variable(x), one],
        result: v,
        lineno: 1,
    });
    let (start, ret) = (g.startblock, g.returnblock);
    g.closeblock(
        start,
        ExitSwitch::None,
        vec![Link::new(vec![Hlvalue::Variable(v)], ret)],
    );
    g
}

fn message(g: &FunctionGraph) -> String {
    checkgraph(g)
        .expect_err("the graph should not verify")
        .message
}

#[test]
fn well_formed_graph_verifies() {
    Python::attach(|py| checkgraph(&simple(py)).unwrap());
}

#[test]
fn variable_used_outside_its_block() {
    Python::attach(|py| {
        let mut g = simple(py);
        let x = g.blocks[g.startblock].inputargs[0];
        let b = g.new_block(vec![]);
        let l = g.blocks[g.startblock].exits[0];
        g.links[l].target = b;
        g.links[l].args = vec![];
        let ret = g.returnblock;
        g.closeblock(
            b,
            ExitSwitch::None,
            vec![Link::new(vec![Hlvalue::Variable(x)], ret)],
        );
        assert!(
            message(&g).contains("not defined before it in this block"),
            "{}",
            message(&g)
        );
    });
}

#[test]
fn variable_defined_twice() {
    Python::attach(|py| {
        let mut g = simple(py);
        let x = g.blocks[g.startblock].inputargs[0];
        g.blocks[g.startblock].operations[0].result = x;
        assert!(message(&g).contains("defined more than once"));
    });
}

#[test]
fn link_arity_must_match_target() {
    Python::attach(|py| {
        let mut g = simple(py);
        let l = g.blocks[g.startblock].exits[0];
        g.links[l].args.push(int_const(py, 2));
        assert!(message(&g).contains("passes 2 values"));
    });
}

#[test]
fn exception_links_only_out_of_raising_blocks() {
    Python::attach(|py| {
        let mut g = simple(py);
        let l = g.blocks[g.startblock].exits[0];
        let e = g.new_var("last_exception");
        g.links[l].last_exception = Some(e);
        assert!(message(&g).contains("not an exception exit"));
    });
}

#[test]
fn raising_block_needs_normal_exit_first() {
    Python::attach(|py| {
        let mut g = simple(py);
        let start = g.startblock;
        g.blocks[start].exitswitch = ExitSwitch::LastException;
        assert!(message(&g).contains("needs a normal exit and an exception exit"));
    });
}

#[test]
fn return_block_shape() {
    Python::attach(|py| {
        let mut g = simple(py);
        let ret = g.returnblock;
        let extra = g.new_var("");
        g.blocks[ret].inputargs.push(extra);
        assert!(message(&g).contains("returnblock must have 1 input argument"));
    });
}

#[test]
fn switch_needs_distinct_exitcases() {
    Python::attach(|py| {
        let mut g = simple(py);
        let start = g.startblock;
        let v = g.blocks[start].operations[0].result;
        let ret = g.returnblock;
        let t = bool_const(py, true);
        g.closeblock(
            start,
            ExitSwitch::Value(Hlvalue::Variable(v)),
            vec![
                Link::new(vec![Hlvalue::Variable(v)], ret).with_exitcase(t.clone()),
                Link::new(vec![Hlvalue::Variable(v)], ret).with_exitcase(t),
            ],
        );
        assert!(message(&g).contains("same exitcase"));
    });
}

#[test]
fn text_form_is_stable() {
    Python::attach(|py| {
        let g = simple(py);
        let text = rpy3_model::print::graph_to_text(py, &g);
        assert_eq!(
            text,
            "graph f(x_0)\nblock0(x_0):\n    v1 = add(x_0, 1)\n    --> return(v1)\n"
        );
        let dot = rpy3_model::print::graph_to_dot(py, &g);
        assert!(dot.starts_with("digraph \"f\" {"));
        assert!(dot.contains("-> block1"));
    });
}
