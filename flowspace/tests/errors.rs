//! Non-RPython inputs give a flowing error naming the file, the line and
//! the construct; every message is pinned here.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Compiles and runs `src` as the module `bad_input` (file
/// `bad_input.py`) and returns its globals.
fn module_globals<'py>(py: Python<'py>, src: &str) -> Bound<'py, PyDict> {
    let pkg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
    py.import("sys")
        .unwrap()
        .getattr("path")
        .unwrap()
        .call_method1("insert", (0, pkg.to_str().unwrap()))
        .unwrap();
    let globals = PyDict::new(py);
    globals.set_item("__name__", "bad_input").unwrap();
    let builtins = py.import("builtins").unwrap();
    let code = builtins
        .getattr("compile")
        .unwrap()
        .call1((src, "bad_input.py", "exec"))
        .unwrap();
    builtins
        .getattr("exec")
        .unwrap()
        .call1((code, &globals))
        .unwrap();
    globals
}

/// Compiles `src` as the file `bad_input.py`, flows `name` and returns
/// the error text.
fn flow_error(src: &str, name: &str) -> String {
    Python::attach(|py| {
        let globals = module_globals(py, src);
        let f = globals.get_item(name).unwrap().unwrap();
        match rpy3_flowspace::build_flow(py, &f) {
            Ok(_) => panic!("{name} flowed without error"),
            Err(e) => e.to_string(),
        }
    })
}

#[track_caller]
fn check(src: &str, expected: &str) {
    assert_eq!(flow_error(src, "f"), expected);
}

#[test]
fn assigning_a_global_is_an_attribute_of_the_module_holder() {
    Python::attach(|py| {
        let globals = module_globals(
            py,
            "G = 0\ndef f(x):\n    global G\n    G = x\n    return G\n",
        );
        let f = globals.get_item("f").unwrap().unwrap();
        let graph = rpy3_flowspace::build_flow(py, &f).expect("flows");
        let text = rpy3_model::print::graph_to_text(py, &graph);
        assert!(
            text.contains("setattr") && text.contains("getattr"),
            "{text}"
        );
    })
}

#[test]
fn assigning_a_global_from_a_function_found_too_late() {
    // `f` is not among the module's names, so the module scan misses it;
    // `g` has already read `G` as a constant when `f` is flowed: the
    // assignment is refused rather than compiled against a stale constant
    Python::attach(|py| {
        let globals = module_globals(
            py,
            "G = 0\ndef g():\n    return G\ndef f(x):\n    global G\n    G = x\nHIDDEN = [f]\ndel f\n",
        );
        let g = globals.get_item("g").unwrap().unwrap();
        rpy3_flowspace::build_flow(py, &g).expect("g flows");
        let hidden = globals.get_item("HIDDEN").unwrap().unwrap();
        let f = hidden.get_item(0).unwrap();
        let err = match rpy3_flowspace::build_flow(py, &f) {
            Ok(_) => panic!("f flowed"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.starts_with(
                "bad_input.py:6: assigning to the global 'G' from a function rpy3 did not find"
            ),
            "{err}"
        );
    })
}

#[test]
fn class_statement_inside_a_function() {
    check(
        "def f(x):\n    class A(object):\n        pass\n    return A()\n",
        "bad_input.py:2: class definitions inside functions are not RPython (in function f)",
    );
}

#[test]
fn undefined_global_name() {
    check(
        "def f(x):\n    return x + no_such_name\n",
        "bad_input.py:2: global name 'no_such_name' is not defined (in function f)",
    );
}

#[test]
fn calling_eval() {
    check(
        "def f(x):\n    y = x + 1\n    return eval('y')\n",
        "bad_input.py:3: calling the built-in eval() is not RPython (in function f)",
    );
}

#[test]
fn calling_locals() {
    check(
        "def f(x):\n    return locals()\n",
        "bad_input.py:2: calling the built-in locals() is not RPython (in function f)",
    );
}

#[test]
fn async_function() {
    check(
        "\nasync def f(x):\n    return x\n",
        "bad_input.py:2: async functions are not RPython (in function f)",
    );
}

#[test]
fn class_pattern_with_a_variable_class() {
    check(
        "def f(x, c):\n    match x:\n        case c.K():\n            return 1\n    return 0\n",
        "bad_input.py:3: a class pattern whose class is not a constant (the class must be known when translating) (in function f)",
    );
}

#[test]
fn mapping_pattern_with_variable_keys() {
    check(
        "def f(x, k):\n    match x:\n        case {k.a: 1}:\n            return 1\n    return 0\n",
        "bad_input.py:3: a mapping pattern whose keys are not all literals or constants (the keys of a mapping pattern must be known when translating) (in function f)",
    );
}

#[test]
fn closure_made_in_the_loop_assigning_its_variable() {
    // Python's closures would all see the last value of `i`
    check(
        "def f(n):\n    fs = []\n    for i in range(n):\n        fs.append(lambda: i)\n    return fs\n",
        "bad_input.py:4: the nested function 'f.<locals>.<lambda>' is used as a value, but 'i' is assigned in a loop that also makes the closure; rpy3 copies the values a closure captures, so it would not see the change (pass the value as a default argument instead) (in function f)",
    );
}

#[test]
fn closure_whose_variable_is_assigned_later() {
    check(
        "def f(x):\n    g = lambda: x\n    h = [g]\n    x = 2\n    return h\n",
        "bad_input.py:3: the nested function 'f.<locals>.<lambda>' is used as a value, but 'x' may be assigned after the closure is made; rpy3 copies the values a closure captures, so it would not see the change (pass the value as a default argument instead) (in function f)",
    );
}

#[test]
fn bare_raise_outside_except() {
    check(
        "def f(x):\n    if x:\n        raise\n    return x\n",
        "bad_input.py:3: bare 'raise' outside of an 'except' block (in function f)",
    );
}

#[test]
fn raising_a_non_exception() {
    check(
        "def f(x):\n    raise 42\n",
        "bad_input.py:2: 'raise' of an object that is not an exception (in function f)",
    );
}

#[test]
fn calling_a_not_rpython_function() {
    check(
        "from rpy3.rlib.objectmodel import not_rpython\n@not_rpython\ndef helper():\n    return 1\ndef f(x):\n    return helper() + x\n",
        "bad_input.py:6: call to 'helper', which is marked @not_rpython (in function f)",
    );
}

#[test]
fn except_star() {
    check(
        "def f(x):\n    try:\n        x()\n    except* ValueError:\n        x = 0\n    return x\n",
        "bad_input.py:4: 'except*' is not RPython (in function f)",
    );
}

#[test]
fn nested_function_with_keyword_only_defaults() {
    check(
        "def f(x):\n    def g(*, k=1):\n        return k\n    return g(k=x)\n",
        "bad_input.py:2: nested functions with keyword-only defaults are not supported (in function f)",
    );
}

#[test]
fn flowing_a_not_rpython_function_directly() {
    assert_eq!(
        flow_error("from rpy3.rlib.objectmodel import not_rpython\n\n@not_rpython\ndef f(x):\n    return x\n", "f"),
        "bad_input.py:3: function 'f' is marked @not_rpython and cannot be translated (in function f)"
    );
}

#[test]
fn permutations_without_r() {
    check(
        "import itertools\ndef f(xs):\n    return list(itertools.permutations(xs))\n",
        "bad_input.py:3: permutations() without r: the length of the tuples it yields must be known when translating (pass r) (in function f)",
    );
}

#[test]
fn isinstance_with_a_class_renaming_list() {
    check(
        "class Coll(list):\n    pass\ndef f(x):\n    return isinstance(x, Coll)\n",
        "bad_input.py:4: isinstance() with a class that only renames a built-in container type: rpy3 makes its instances of that type, so they cannot be told apart (in function f)",
    );
}

#[test]
fn nested_functions_capturing_each_other() {
    let e = flow_error(
        "def f(n):\n    def a(k):\n        return b(k - 1) if k > 0 else 0\n    def b(k):\n        return a(k)\n    return a(n)\n",
        "f",
    );
    assert!(
        e.contains("bad_input.py:6")
            && e.contains("nested functions that capture each other")
            && e.contains("make one of them a module-level function"),
        "{e}"
    );
}

#[test]
fn recursive_nested_function_whose_name_changes() {
    let e = flow_error(
        "def g(k):\n    return k\ndef f(n):\n    def visit(k):\n        return visit(k - 1) if k > 0 else 0\n    h = visit\n    visit = g\n    return h(n)\n",
        "f",
    );
    assert!(
        e.contains("bad_input.py:8") && e.contains("reads its own name, which no longer holds it"),
        "{e}"
    );
}
