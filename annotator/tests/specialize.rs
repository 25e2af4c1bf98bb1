//! Specialisation policies create the expected number of graphs.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rpy3_annotator::{Annotator, SomeValue};

fn graphs_of(src: &str, name: &str) -> (usize, String) {
    Python::attach(|py| {
        let pkg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        py.import("sys")
            .unwrap()
            .getattr("path")
            .unwrap()
            .call_method1("insert", (0, pkg.to_str().unwrap()))
            .unwrap();
        let globals = PyDict::new(py);
        globals.set_item("__name__", "spec_input").unwrap();
        py.run(&std::ffi::CString::new(src).unwrap(), Some(&globals), None)
            .unwrap();
        let f = globals.get_item("f").unwrap().unwrap();
        let mut ann = Annotator::new();
        let g = ann
            .annotate(py, &f, vec![SomeValue::int()])
            .unwrap_or_else(|e| panic!("{e}"));
        let n = ann
            .graphs
            .values()
            .filter(|ag| ag.graph.source.qualname == name)
            .count();
        (n, ann.canonical(&ann.return_annotation(g)))
    })
}

#[test]
fn low_level_policy_gives_one_graph_per_argument_types() {
    let src = "from rpy3.rlib.objectmodel import specialize\n\
               @specialize.ll()\n\
               def first(a, b):\n    return a\n\
               def f(x):\n    first(x, 1)\n    first('s', 2)\n    first(x, 3)\n    return first(1.5, x)\n";
    let (n, ret) = graphs_of(src, "first");
    assert_eq!(n, 3);
    assert_eq!(ret, "float=1.5");
}

#[test]
fn default_policy_gives_one_graph() {
    let src =
        "def first(a, b):\n    return a\ndef f(x):\n    first(x, 1)\n    return first(x, 3)\n";
    assert_eq!(graphs_of(src, "first").0, 1);
}

#[test]
fn argtype_policy_follows_the_listed_arguments() {
    let src = "from rpy3.rlib.objectmodel import specialize\n\
               @specialize.argtype(1)\n\
               def second(a, b):\n    return b\n\
               def f(x):\n    second(x, 1)\n    second(x, 2.5)\n    return second(x, 'u')\n";
    let (n, ret) = graphs_of(src, "second");
    assert_eq!(n, 3);
    assert_eq!(ret, "str1='u'");
}
