//! Graph shapes: constant folding and merging, loops, exception handling,
//! comprehensions, generators and calls, pinned as printed graphs.

use expect_test::{expect, Expect};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Defines `src` as a module and returns the printed graph of `name`.
fn graph_of(src: &str, name: &str) -> String {
    Python::attach(|py| {
        let pkg = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        py.import("sys")
            .unwrap()
            .getattr("path")
            .unwrap()
            .call_method1("insert", (0, pkg.to_str().unwrap()))
            .unwrap();
        let globals = PyDict::new(py);
        globals.set_item("__name__", "shapes").unwrap();
        let code = std::ffi::CString::new(src).unwrap();
        py.run(&code, Some(&globals), None).unwrap();
        let mut f = globals
            .get_item(name.split(".").next().unwrap())
            .unwrap()
            .unwrap();
        for part in name.split(".").skip(1) {
            f = f.getattr(part).unwrap();
        }
        let graph = rpy3_flowspace::build_flow(py, &f).unwrap_or_else(|e| panic!("{e}"));
        rpy3_model::checkgraph(&graph).unwrap();
        rpy3_model::print::graph_to_text(py, &graph)
    })
}

fn check(src: &str, name: &str, expected: Expect) {
    expected.assert_eq(&graph_of(src, name));
}

#[test]
fn straight_line() {
    check(
        "def f(x, y):\n    return x * 3 + y\n",
        "f",
        expect![[r#"
            graph f(x_0, y_1)
            block0(x_0, y_1):
                v2 = mul(x_0, 3)
                v3 = add(v2, y_1)
                --> return(v3)
        "#]],
    );
}

#[test]
fn constant_folding() {
    // Pure operations on constants disappear; `K` is a global constant.
    check(
        "K = 10\ndef f(x):\n    a = K * 2 + 1\n    b = len('abc')\n    return x + a + b\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = add(x_0, 21)
                v2 = add(v1, 3)
                --> return(v2)
        "#]],
    );
}

#[test]
fn paper_example_two_ways_give_the_same_graph() {
    let one = graph_of(
        "def f(n):\n    if n < 0:\n        n = 0\n    return n + 1\n",
        "f",
    );
    let two = graph_of(
        "def f(n):\n    if n < 0:\n        m = 0\n    else:\n        m = n\n    return m + 1\n",
        "f",
    );
    assert_eq!(one, two);
    expect![[r#"
        graph f(n_0)
        block0(n_0):
            v1 = lt(n_0, 0)
            v2 = bool(v1)
            switch v2
            False --> block1(n_0)
            True --> return(1)
        block1(v3):
            v4 = add(v3, 1)
            --> return(v4)
    "#]]
    .assert_eq(&one);
}

#[test]
fn constant_branch_is_folded() {
    check(
        "DEBUG = False\ndef f(x):\n    if DEBUG:\n        x = x * 100\n    return x\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                --> return(x_0)
        "#]],
    );
}

#[test]
fn while_loop_has_one_header_block() {
    check(
        "def f(n):\n    i = 0\n    total = 0\n    while i < n:\n        total += i\n        i += 1\n    return total\n",
        "f",
        expect![[r#"
            graph f(n_0)
            block0(n_0):
                v1 = lt(0, n_0)
                v2 = bool(v1)
                switch v2
                False --> return(0)
                True --> block1(n_0, 1, 0)
            block1(n_3, i_4, total_5):
                v6 = lt(i_4, n_3)
                v7 = bool(v6)
                switch v7
                False --> return(total_5)
                True --> block2(n_3, i_4, total_5)
            block2(n_8, i_9, v10):
                v11 = inplace_add(v10, i_9)
                v12 = inplace_add(i_9, 1)
                --> block1(n_8, v12, v11)
        "#]],
    );
}

#[test]
fn for_loop_over_range() {
    check(
        "def f(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n",
        "f",
        expect![[r#"
            graph f(n_0)
            block0(n_0):
                v1 = simple_call(<class range>, n_0)
                v2 = iter(v1)
                --> block1(0, v2)
            block1(s_3, v4):
                v5 = next(v4)
                switch last_exception
                --> block2(v4, s_3, v5)
                <class StopIteration> as (last_exception_6, last_exc_value_7) --> return(s_3)
            block2(v8, v9, v10):
                v11 = inplace_add(v9, v10)
                --> block1(v11, v8)
        "#]],
    );
}

#[test]
fn try_except_catches_from_call() {
    check(
        "def g(x):\n    return x\ndef f(x):\n    try:\n        y = g(x)\n    except ValueError:\n        return -1\n    return y\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = simple_call(<function g>, x_0)
                switch last_exception
                --> return(v1)
                <class Exception> as (last_exception_2, last_exc_value_3) --> block1(last_exception_2, last_exc_value_3)
            block1(v4, v5):
                v6 = issubtype(v4, <class ValueError>)
                v7 = bool(v6)
                switch v7
                False --> except(v4, v5)
                True --> return(-1)
        "#]],
    );
}

#[test]
fn try_except_zero_division() {
    check(
        "def f(x, y):\n    try:\n        return x // y\n    except ZeroDivisionError:\n        return 0\n",
        "f",
        expect![[r#"
            graph f(x_0, y_1)
            block0(x_0, y_1):
                v2 = floordiv(x_0, y_1)
                switch last_exception
                --> return(v2)
                <class ZeroDivisionError> as (last_exception_3, last_exc_value_4) --> return(0)
                <class Exception> as (last_exception_5, last_exc_value_6) --> block1(last_exception_5, last_exc_value_6)
            block1(v7, v8):
                v9 = issubtype(v7, <class ZeroDivisionError>)
                v10 = bool(v9)
                switch v10
                False --> except(v7, v8)
                True --> return(0)
        "#]],
    );
}

#[test]
fn try_finally() {
    check(
        "def g(x):\n    return x\ndef f(x):\n    r = 0\n    try:\n        r = g(x)\n    finally:\n        r += 1\n    return r\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = simple_call(<function g>, x_0)
                v2 = inplace_add(v1, 1)
                --> return(v2)
        "#]],
    );
}

#[test]
fn raise_and_reraise() {
    check(
        "class E(Exception):\n    pass\ndef f(x):\n    try:\n        if x:\n            raise E\n    except E:\n        raise\n    return 1\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = bool(x_0)
                switch last_exception
                --> block1(v1)
                <class Exception> as (last_exception_2, last_exc_value_3) --> block3(last_exception_2, last_exc_value_3)
            block1(v4):
                switch v4
                False --> return(1)
                True --> block2()
            block2():
                v5 = simple_call(<class E>)
                switch last_exception
                --> except(<class E>, v5)
                <class Exception> as (last_exception_6, last_exc_value_7) --> block3(last_exception_6, last_exc_value_7)
            block3(v8, v9):
                v10 = issubtype(v8, <class E>)
                v11 = bool(v10)
                switch v11
                False --> except(v8, v9)
                True --> except(v8, v9)
        "#]],
    );
}

#[test]
fn list_comprehension_is_a_call_of_a_nested_function() {
    check(
        "def f(n, k):\n    return [x * k for x in range(n)]\n",
        "f",
        expect![[r#"
            graph f(n_0, k_1)
            block0(n_0, k_1):
                v2 = simple_call(<class range>, n_0)
                v3 = iter(v2)
                v4 = call_args(<function f.<locals>.<listcomp>>, (1, ('k',), False, False), v3, k_1)
                --> return(v4)
        "#]],
    );
}

#[test]
fn generator_function() {
    check(
        "def g(n):\n    i = 0\n    while i < n:\n        yield i\n        i += 1\n",
        "g",
        expect![[r#"
            graph g(n_0)
            block0(n_0):
                v1 = lt(0, n_0)
                v2 = bool(v1)
                switch v2
                False --> return(None)
                True --> block1(n_0, 0)
            block1(n_3, i_4):
                v5 = yield_(i_4)
                v6 = inplace_add(i_4, 1)
                v7 = lt(v6, n_3)
                v8 = bool(v7)
                switch v8
                False --> return(None)
                True --> block1(n_3, v6)
        "#]],
    );
}

#[test]
fn keyword_and_default_arguments() {
    check(
        "def g(a, b=2, *, c=3):\n    return a + b + c\ndef f(x):\n    return g(x, c=x)\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = call_args(<function g>, (1, ('c',), False, False), x_0, x_0)
                --> return(v1)
        "#]],
    );
}

#[test]
fn method_call_and_attributes() {
    check(
        "class A(object):\n    def m(self, y):\n        self.x = y\n        return self.x\ndef f(a, y):\n    return a.m(y)\n",
        "f",
        expect![[r#"
            graph f(a_0, y_1)
            block0(a_0, y_1):
                v2 = getattr(a_0, 'm')
                v3 = simple_call(v2, y_1)
                --> return(v3)
        "#]],
    );
}

#[test]
fn chained_comparison_and_conditional_expression() {
    check(
        "def f(a, b, c):\n    return 1 if a < b < c else 2\n",
        "f",
        expect![[r#"
            graph f(a_0, b_1, c_2)
            block0(a_0, b_1, c_2):
                v3 = lt(a_0, b_1)
                v4 = bool(v3)
                switch v4
                False --> return(2)
                True --> block1(b_1, c_2)
            block1(v5, v6):
                v7 = lt(v5, v6)
                v8 = bool(v7)
                switch v8
                False --> return(2)
                True --> return(1)
        "#]],
    );
}

#[test]
fn fstring_and_percent_formatting() {
    check(
        "def f(x, s):\n    return f'{x}:{s!r}:{x:>4}' + '%d-%s' % (x, s)\n",
        "f",
        expect![[r#"
            graph f(x_0, s_1)
            block0(x_0, s_1):
                v2 = format(x_0, '')
                v3 = repr(s_1)
                v4 = format(x_0, '>4')
                v5 = add(v2, ':')
                v6 = add(v5, v3)
                v7 = add(v6, ':')
                v8 = add(v7, v4)
                v9 = newtuple(x_0, s_1)
                v10 = mod('%d-%s', v9)
                v11 = add(v8, v10)
                --> return(v11)
        "#]],
    );
}

#[test]
fn tuple_unpacking_and_slicing() {
    check(
        "def f(t, l):\n    a, b = t\n    return l[a:b]\n",
        "f",
        expect![[r#"
            graph f(t_0, l_1)
            block0(t_0, l_1):
                v2 = unpackable(t_0)
                v3 = len(v2)
                v4 = eq(v3, 2)
                v5 = bool(v4)
                switch v5
                False --> block1()
                True --> block2(l_1, v2)
            block1():
                v6 = simple_call(<class ValueError>)
                --> except(<class ValueError>, v6)
            block2(l_7, v8):
                v9 = getitem(v8, 0)
                v10 = getitem(v8, 1)
                v11 = getslice(l_7, v9, v10)
                --> return(v11)
        "#]],
    );
}

#[test]
fn assert_statement() {
    check(
        "def f(x):\n    assert x >= 0\n    return x\n",
        "f",
        expect![[r#"
            graph f(x_0)
            block0(x_0):
                v1 = ge(x_0, 0)
                v2 = bool(v1)
                switch v2
                False --> block1()
                True --> return(x_0)
            block1():
                v3 = simple_call(<class AssertionError>)
                --> except(<class AssertionError>, v3)
        "#]],
    );
}

#[test]
fn super_call_passes_class_and_self() {
    check(
        "class A(object):\n    def m(self):\n        return 1\nclass B(A):\n    def m(self):\n        return super().m() + 1\n",
        "B.m",
        expect![[r#"
            graph B.m(self_0)
            block0(self_0):
                v1 = simple_call(<class super>, <class B>, self_0)
                v2 = getattr(v1, 'm')
                v3 = simple_call(v2)
                v4 = add(v3, 1)
                --> return(v4)
        "#]],
    );
}

/// Constructs outside the corpus that must flow and verify.
#[test]
fn other_constructs_flow() {
    let snippets = [
        "class Ctx(object):\n    def __enter__(self):\n        return 1\n    def __exit__(self, a, b, c):\n        return False\ndef f(x):\n    with Ctx() as c:\n        x += c\n    return x\n",
        "def g(*args, **kw):\n    return len(args)\ndef f(x):\n    t = (x, x)\n    return g(*t) + g(1, *t, k=2)\n",
        "def f(t):\n    a, *b, c = t\n    return (a, b, c)\n",
        "def f(n):\n    return ({i: i * i for i in range(n)}, {i % 3 for i in range(n)})\n",
        "def f(n):\n    g = lambda y: y + 1\n    return g(n)\n",
        "def f(n):\n    def h(y, k=3):\n        return y * k\n    return h(n) + h(n, 2)\n",
        "def f(n):\n    k = n + 1\n    def h(y):\n        return y * k\n    return h(2)\n",
        "def f(x):\n    import math\n    from math import sqrt\n    return math.floor(sqrt(x))\n",
        "def f(x):\n    while True:\n        x -= 1\n        if x < 0:\n            break\n        if x % 2:\n            continue\n    return x\n",
        "def f(x):\n    try:\n        try:\n            return 1 // x\n        finally:\n            x = 2\n    except ZeroDivisionError as e:\n        return str(e)\n",
        "def f(l):\n    l[1:2] = [3]\n    del l[0:1]\n    del l[0]\n    return l[::2]\n",
        "def f(x):\n    return not x, x is not None, 3 not in (1, 2)\n",
        "def f(d):\n    return {**d, 'a': 1}\n",
    ];
    for src in snippets {
        let name = "f";
        let text = graph_of(src, name);
        assert!(text.starts_with("graph f("), "{text}");
    }
}

#[test]
fn star_arguments_build_tuples_and_keyword_literals_become_keywords() {
    check(
        "def g(*a, k=0):\n    return len(a) + k\ndef f(x, t):\n    return g(x, *t, k=3)\n",
        "f",
        expect![[r#"
            graph f(x_0, t_1)
            block0(x_0, t_1):
                v2 = newtuple(x_0)
                v3 = simple_call(<class tuple>, t_1)
                v4 = add(v2, v3)
                v5 = call_args(<function g>, (0, ('k',), True, False), 3, v4)
                --> return(v5)
        "#]],
    );
}
