//! The graph interpreter on hand-built graphs.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use rpy3_flowspace::interp::{is_internal_error, FlowingError, Interp};
use rpy3_model::{
    checkgraph, Constant, ExitSwitch, FunctionGraph, Hlvalue, Link, OpName, PyObj, SpaceOperation,
    VarId,
};

fn c(obj: &Bound<'_, PyAny>) -> Hlvalue {
    Hlvalue::Constant(Constant::new(PyObj::new(obj)))
}

fn k(obj: &Bound<'_, PyAny>) -> Constant {
    Constant::new(PyObj::new(obj))
}

fn builtin<'py>(py: Python<'py>, name: &str) -> Bound<'py, PyAny> {
    py.import("builtins").unwrap().getattr(name).unwrap()
}

fn eval<'py>(py: Python<'py>, src: &str) -> Bound<'py, PyAny> {
    builtin(py, "eval")
        .call1((src, pyo3::types::PyDict::new(py)))
        .unwrap()
}

fn op(
    g: &mut FunctionGraph,
    block: rpy3_model::BlockId,
    opname: OpName,
    args: Vec<Hlvalue>,
) -> VarId {
    let result = g.new_var("");
    g.blocks[block].operations.push(SpaceOperation {
        opname,
        args,
        result,
        lineno: 0,
    });
    result
}

fn v(var: VarId) -> Hlvalue {
    Hlvalue::Variable(var)
}

fn int<'py>(py: Python<'py>, i: i64) -> Bound<'py, PyAny> {
    i.into_pyobject(py).unwrap().into_any()
}

fn run<'py>(
    py: Python<'py>,
    g: FunctionGraph,
    args: &[Bound<'py, PyAny>],
) -> PyResult<Bound<'py, PyAny>> {
    checkgraph(&g).expect("hand-built graph is valid");
    let mut interp = Interp::new(py)?;
    interp
        .run_graph(py, Arc::new(g), args)
        .map(|r| r.into_bound(py))
}

/// `def sum_range(n): total = 0; for i in range(n): total += i; return total`
fn sum_range_graph(py: Python<'_>) -> FunctionGraph {
    let mut g = FunctionGraph::new("sum_range", vec!["n".into()]);
    g.signature.argnames = vec!["n".into()];
    let start = g.startblock;
    let n = g.blocks[start].inputargs[0];
    let r = op(
        &mut g,
        start,
        OpName::SimpleCall,
        vec![c(&builtin(py, "range")), v(n)],
    );
    let it = op(&mut g, start, OpName::Iter, vec![v(r)]);

    let it1 = g.new_var("it");
    let total1 = g.new_var("total");
    let head = g.new_block(vec![it1, total1]);
    g.closeblock(
        start,
        ExitSwitch::None,
        vec![Link::new(vec![v(it), c(&int(py, 0))], head)],
    );

    let i = op(&mut g, head, OpName::Next, vec![v(it1)]);
    let it2 = g.new_var("it");
    let total2 = g.new_var("total");
    let i2 = g.new_var("i");
    let body = g.new_block(vec![it2, total2, i2]);
    let total3 = g.new_var("total");
    let done = g.new_block(vec![total3]);
    let stop = builtin(py, "StopIteration");
    g.closeblock(
        head,
        ExitSwitch::LastException,
        vec![
            Link::new(vec![v(it1), v(total1), v(i)], body),
            Link::new(vec![v(total1)], done).with_exitcase(k(&stop)),
        ],
    );
    let t = op(&mut g, body, OpName::InplaceAdd, vec![v(total2), v(i2)]);
    g.closeblock(
        body,
        ExitSwitch::None,
        vec![Link::new(vec![v(it2), v(t)], head)],
    );
    let ret = g.returnblock;
    g.closeblock(
        done,
        ExitSwitch::None,
        vec![Link::new(vec![v(total3)], ret)],
    );
    g
}

#[test]
fn loop_summing_range() {
    Python::attach(|py| {
        for (n, expected) in [(0, 0), (1, 0), (10, 45), (1000, 499500)] {
            let r = run(py, sum_range_graph(py), &[int(py, n)]).unwrap();
            assert_eq!(r.extract::<i64>().unwrap(), expected);
        }
    });
}

#[test]
fn bad_arguments_raise_type_error() {
    Python::attach(|py| {
        let err = run(py, sum_range_graph(py), &[]).unwrap_err();
        assert!(
            err.is_instance_of::<pyo3::exceptions::PyTypeError>(py),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("missing 1 required positional argument: 'n'"),
            "{err}"
        );
        let err = run(py, sum_range_graph(py), &[int(py, 1), int(py, 2)]).unwrap_err();
        assert!(
            err.is_instance_of::<pyo3::exceptions::PyTypeError>(py),
            "{err}"
        );
    });
}

/// `def f(x): try: return 10 // x except ZeroDivisionError as e: return (type(e), e.args)`
/// with the division as the last operation of a LastException block.
fn divide_graph(py: Python<'_>) -> FunctionGraph {
    let mut g = FunctionGraph::new("divide", vec!["x".into()]);
    g.signature.argnames = vec!["x".into()];
    let start = g.startblock;
    let x = g.blocks[start].inputargs[0];
    let q = op(&mut g, start, OpName::Floordiv, vec![c(&int(py, 10)), v(x)]);
    let ret = g.returnblock;
    let etype = g.new_var("etype");
    let evalue = g.new_var("evalue");
    let et = g.new_var("et");
    let ev = g.new_var("ev");
    let handler = g.new_block(vec![et, ev]);
    let mut exc_link = Link::new(vec![v(etype), v(evalue)], handler)
        .with_exitcase(k(&builtin(py, "ZeroDivisionError")));
    exc_link.last_exception = Some(etype);
    exc_link.last_exc_value = Some(evalue);
    g.closeblock(
        start,
        ExitSwitch::LastException,
        vec![Link::new(vec![v(q)], ret), exc_link],
    );
    let args = op(
        &mut g,
        handler,
        OpName::Getattr,
        vec![v(ev), c(&"args".into_pyobject(py).unwrap().into_any())],
    );
    let t = op(&mut g, handler, OpName::Newtuple, vec![v(et), v(args)]);
    g.closeblock(handler, ExitSwitch::None, vec![Link::new(vec![v(t)], ret)]);
    g
}

#[test]
fn exception_link_catches_matching_class() {
    Python::attach(|py| {
        let r = run(py, divide_graph(py), &[int(py, 3)]).unwrap();
        assert_eq!(r.extract::<i64>().unwrap(), 3);
        let r = run(py, divide_graph(py), &[int(py, 0)]).unwrap();
        let t = r.cast::<PyTuple>().unwrap();
        assert!(t.get_item(0).unwrap().is(builtin(py, "ZeroDivisionError")));
        assert_eq!(
            t.get_item(1).unwrap().repr().unwrap().to_string(),
            "('integer division or modulo by zero',)"
        );
    });
}

#[test]
fn unmatched_exception_propagates() {
    Python::attach(|py| {
        let err = run(
            py,
            divide_graph(py),
            &["a".into_pyobject(py).unwrap().into_any()],
        )
        .unwrap_err();
        assert!(
            err.is_instance_of::<pyo3::exceptions::PyTypeError>(py),
            "{err}"
        );
    });
}

#[test]
fn exceptblock_raises_its_value() {
    Python::attach(|py| {
        let mut g = FunctionGraph::new("boom", vec!["x".into()]);
        g.signature.argnames = vec!["x".into()];
        let start = g.startblock;
        let x = g.blocks[start].inputargs[0];
        let exc = op(
            &mut g,
            start,
            OpName::SimpleCall,
            vec![c(&builtin(py, "KeyError")), v(x)],
        );
        let ety = op(&mut g, start, OpName::Type, vec![v(exc)]);
        let eb = g.exceptblock;
        g.closeblock(
            start,
            ExitSwitch::None,
            vec![Link::new(vec![v(ety), v(exc)], eb)],
        );
        let err = run(py, g, &[int(py, 7)]).unwrap_err();
        assert!(err.is_instance_of::<pyo3::exceptions::PyKeyError>(py));
        assert_eq!(err.value(py).repr().unwrap().to_string(), "KeyError(7)");
    });
}

/// `def absval(x): if x < 0: return -x; return x`
#[test]
fn bool_switch() {
    Python::attach(|py| {
        let mut g = FunctionGraph::new("absval", vec!["x".into()]);
        g.signature.argnames = vec!["x".into()];
        let start = g.startblock;
        let x = g.blocks[start].inputargs[0];
        let lt = op(&mut g, start, OpName::Lt, vec![v(x), c(&int(py, 0))]);
        let b = op(&mut g, start, OpName::Bool, vec![v(lt)]);
        let x2 = g.new_var("x");
        let negblock = g.new_block(vec![x2]);
        let ret = g.returnblock;
        let f = false.into_pyobject(py).unwrap().to_owned().into_any();
        let t = true.into_pyobject(py).unwrap().to_owned().into_any();
        g.closeblock(
            start,
            ExitSwitch::Value(v(b)),
            vec![
                Link::new(vec![v(x)], ret).with_exitcase(k(&f)),
                Link::new(vec![v(x)], negblock).with_exitcase(k(&t)),
            ],
        );
        let n = op(&mut g, negblock, OpName::Neg, vec![v(x2)]);
        g.closeblock(negblock, ExitSwitch::None, vec![Link::new(vec![v(n)], ret)]);
        let g = Arc::new(g);
        let mut interp = Interp::new(py).unwrap();
        for (x, expected) in [(5, 5), (-5, 5), (0, 0)] {
            let r = interp.run_graph(py, g.clone(), &[int(py, x)]).unwrap();
            assert_eq!(r.extract::<i64>(py).unwrap(), expected);
        }
    });
}

/// `def gen(n): i = 0; while i < n: yield i * i; i += 1`, with `yield_`
/// as the last operation of a block.
fn squares_graph(py: Python<'_>) -> FunctionGraph {
    let mut g = FunctionGraph::new("squares", vec!["n".into()]);
    g.signature.argnames = vec!["n".into()];
    g.is_generator = true;
    let start = g.startblock;
    let n = g.blocks[start].inputargs[0];
    let n1 = g.new_var("n");
    let i1 = g.new_var("i");
    let head = g.new_block(vec![n1, i1]);
    g.closeblock(
        start,
        ExitSwitch::None,
        vec![Link::new(vec![v(n), c(&int(py, 0))], head)],
    );
    let lt = op(&mut g, head, OpName::Lt, vec![v(i1), v(n1)]);
    let b = op(&mut g, head, OpName::Bool, vec![v(lt)]);
    let n2 = g.new_var("n");
    let i2 = g.new_var("i");
    let body = g.new_block(vec![n2, i2]);
    let ret = g.returnblock;
    let f = false.into_pyobject(py).unwrap().to_owned().into_any();
    let t = true.into_pyobject(py).unwrap().to_owned().into_any();
    g.closeblock(
        head,
        ExitSwitch::Value(v(b)),
        vec![
            Link::new(vec![c(&py.None().into_bound(py))], ret).with_exitcase(k(&f)),
            Link::new(vec![v(n1), v(i1)], body).with_exitcase(k(&t)),
        ],
    );
    let sq = op(&mut g, body, OpName::Mul, vec![v(i2), v(i2)]);
    op(&mut g, body, OpName::Yield, vec![v(sq)]);
    let n3 = g.new_var("n");
    let i3 = g.new_var("i");
    let incr = g.new_block(vec![n3, i3]);
    g.closeblock(
        body,
        ExitSwitch::None,
        vec![Link::new(vec![v(n2), v(i2)], incr)],
    );
    let i4 = op(&mut g, incr, OpName::Add, vec![v(i3), c(&int(py, 1))]);
    g.closeblock(
        incr,
        ExitSwitch::None,
        vec![Link::new(vec![v(n3), v(i4)], head)],
    );
    g
}

#[test]
fn generator_yields_and_stops() {
    Python::attach(|py| {
        let gen = run(py, squares_graph(py), &[int(py, 5)]).unwrap();
        let list = builtin(py, "list").call1((&gen,)).unwrap();
        assert_eq!(list.extract::<Vec<i64>>().unwrap(), vec![0, 1, 4, 9, 16]);
        // Exhausted: next() raises StopIteration and keeps doing so.
        for _ in 0..2 {
            let err = builtin(py, "next").call1((&gen,)).unwrap_err();
            assert!(err.is_instance_of::<pyo3::exceptions::PyStopIteration>(py));
        }
        // Two independent instances of one graph.
        let g = Arc::new(squares_graph(py));
        let mut interp = Interp::new(py).unwrap();
        let a = interp
            .run_graph(py, g.clone(), &[int(py, 3)])
            .unwrap()
            .into_bound(py);
        let b = interp
            .run_graph(py, g, &[int(py, 3)])
            .unwrap()
            .into_bound(py);
        let next = builtin(py, "next");
        let mut got = Vec::new();
        for gen in [&a, &a, &b, &a, &b] {
            got.push(next.call1((gen,)).unwrap().extract::<i64>().unwrap());
        }
        assert_eq!(got, vec![0, 1, 0, 4, 1]);
        assert_eq!(
            builtin(py, "sum")
                .call1((&b,))
                .unwrap()
                .extract::<i64>()
                .unwrap(),
            4
        );
    });
}

/// A generator body that lets StopIteration escape gives RuntimeError.
#[test]
fn generator_stop_iteration_becomes_runtime_error() {
    Python::attach(|py| {
        let mut g = FunctionGraph::new("leaky", vec!["it".into()]);
        g.signature.argnames = vec!["it".into()];
        g.is_generator = true;
        let start = g.startblock;
        let it = g.blocks[start].inputargs[0];
        let x = op(&mut g, start, OpName::Next, vec![v(it)]);
        op(&mut g, start, OpName::Yield, vec![v(x)]);
        let ret = g.returnblock;
        g.closeblock(
            start,
            ExitSwitch::None,
            vec![Link::new(vec![c(&py.None().into_bound(py))], ret)],
        );
        let empty = builtin(py, "iter").call1((PyList::empty(py),)).unwrap();
        let gen = run(py, g, &[empty]).unwrap();
        let err = builtin(py, "next").call1((&gen,)).unwrap_err();
        assert!(
            err.is_instance_of::<pyo3::exceptions::PyRuntimeError>(py),
            "{err}"
        );
    });
}

/// Containers, slices and `call_args` with keywords and `*args`.
#[test]
fn structural_operations() {
    Python::attach(|py| {
        let mut g = FunctionGraph::new("structs", vec!["a".into(), "b".into()]);
        g.signature.argnames = vec!["a".into(), "b".into()];
        let start = g.startblock;
        let a = g.blocks[start].inputargs[0];
        let b = g.blocks[start].inputargs[1];
        let lst = op(
            &mut g,
            start,
            OpName::Newlist,
            vec![v(b), v(a), c(&int(py, 7))],
        );
        let d = op(&mut g, start, OpName::Newdict, vec![v(a), v(b)]);
        let s = op(&mut g, start, OpName::Newset, vec![v(a), v(a)]);
        let none = py.None().into_bound(py);
        let sl = op(
            &mut g,
            start,
            OpName::Getslice,
            vec![v(lst), c(&int(py, 1)), c(&none)],
        );
        op(
            &mut g,
            start,
            OpName::Setslice,
            vec![
                v(lst),
                c(&int(py, 0)),
                c(&int(py, 1)),
                c(&eval(py, "[10, 20]")),
            ],
        );
        let shape = eval(py, "(1, ('reverse',), True, False)");
        let star = op(&mut g, start, OpName::Newtuple, vec![]);
        let sorted = op(
            &mut g,
            start,
            OpName::CallArgs,
            vec![
                c(&builtin(py, "sorted")),
                c(&shape),
                v(lst),
                c(&true.into_pyobject(py).unwrap().to_owned().into_any()),
                v(star),
            ],
        );
        let lst2 = op(
            &mut g,
            start,
            OpName::SimpleCall,
            vec![c(&builtin(py, "list")), v(lst)],
        );
        op(
            &mut g,
            start,
            OpName::Delslice,
            vec![v(lst2), c(&int(py, 0)), c(&int(py, 2))],
        );
        let t = op(
            &mut g,
            start,
            OpName::Newtuple,
            vec![v(lst), v(d), v(s), v(sl), v(sorted), v(lst2)],
        );
        let ret = g.returnblock;
        g.closeblock(start, ExitSwitch::None, vec![Link::new(vec![v(t)], ret)]);
        let r = run(py, g, &[int(py, 1), int(py, 2)]).unwrap();
        assert_eq!(
            r.repr().unwrap().to_string(),
            "([10, 20, 1, 7], {1: 2}, {1}, [1, 7], [20, 10, 7, 1], [1, 7])"
        );
    });
}

/// Calls of builtins and of `_rpy3_translated_` callables go to CPython;
/// calls of Python functions need their graph, so until the flow space can
/// build one they raise FlowingError, which the program cannot catch.
#[test]
fn calls_through_interp() {
    Python::attach(|py| {
        let mut interp = Interp::new(py).unwrap();
        let r = interp
            .call(py, &builtin(py, "len"), &[eval(py, "[1, 2, 3]")])
            .unwrap();
        assert_eq!(r.extract::<i64>(py).unwrap(), 3);
        let ns = pyo3::types::PyDict::new(py);
        builtin(py, "exec")
            .call1((
                "def f():\n    return False\nf._rpy3_translated_ = lambda: True\n\
                 class Plain(object):\n    pass\n",
                &ns,
            ))
            .unwrap();
        let f = ns.get_item("f").unwrap().unwrap();
        let r = interp.call(py, &f, &[]).unwrap();
        assert!(r.extract::<bool>(py).unwrap());
        let plain = ns.get_item("Plain").unwrap().unwrap();
        let obj = interp.call(py, &plain, &[]).unwrap();
        assert!(obj.bind(py).is_instance(&plain).unwrap());
        let err = interp.call(py, &plain, &[int(py, 1)]).unwrap_err();
        assert!(
            err.is_instance_of::<pyo3::exceptions::PyTypeError>(py),
            "{err}"
        );
        builtin(py, "exec")
            .call1(("def g(x):\n    return x + 1\n", &ns))
            .unwrap();
        let g = ns.get_item("g").unwrap().unwrap();
        match interp.call(py, &g, &[int(py, 1)]) {
            // Before the flow space builds graphs.
            Err(err) => {
                assert!(err.is_instance_of::<FlowingError>(py), "{err}");
                assert!(is_internal_error(py, &err));
                assert!(err.to_string().contains("flowing error"), "{err}");
            }
            Ok(r) => assert_eq!(r.extract::<i64>(py).unwrap(), 2),
        }
    });
}

/// Defines the functions of `src` in a fresh module namespace.
fn module<'py>(py: Python<'py>, src: &str) -> Bound<'py, pyo3::types::PyDict> {
    let ns = pyo3::types::PyDict::new(py);
    ns.set_item("__name__", "interp_test_module").unwrap();
    builtin(py, "exec").call1((src, &ns)).unwrap();
    ns
}

const PROGRAM: &str = r#"
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)

def forever(n):
    return forever(n + 1)

def kw(a, b=2, *rest, c, d=4, **more):
    return (a, b, rest, c, d, sorted(more.items()))

def call_kw(x):
    return [kw(x, c=3), kw(x, 5, 6, 7, c=8, e=9), kw(*(x, 1), **{"c": 0, "z": 1})]

class Base(object):
    count = 0
    def __init__(self, v):
        self.v = v
    def get(self):
        return self.v

class Derived(Base):
    def __init__(self, v, w=10):
        super().__init__(v)
        self.w = w
    def get(self):
        return super().get() + self.w

class MyError(ValueError):
    def __init__(self, code):
        ValueError.__init__(self, "code %d" % code)
        self.code = code

def objects(n):
    d = Derived(n)
    e = Derived(n, w=1)
    return (d.get(), e.get(), Base(n).get(), isinstance(d, Base))

def raising(n):
    if n < 0:
        raise MyError(n)
    return n

def catching(n):
    try:
        return raising(n)
    except MyError as e:
        return e.code * 100

def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "done"

class Walker(object):
    def __init__(self, items):
        self.items = items
    def walk(self):
        for i in self.items:
            yield i * 2

def gens(n):
    return (list(countdown(n)), sum(Walker([1, 2, n]).walk()), [x for x in countdown(3) if x != 2])
"#;

fn call_in<'py>(
    py: Python<'py>,
    ns: &Bound<'py, pyo3::types::PyDict>,
    name: &str,
    args: &[Bound<'py, PyAny>],
) -> PyResult<String> {
    let f = ns.get_item(name).unwrap().unwrap();
    let mut interp = Interp::new(py).unwrap();
    interp
        .call(py, &f, args)
        .map(|r| r.bind(py).repr().unwrap().to_string())
}

#[test]
fn recursion_and_recursion_limit() {
    Python::attach(|py| {
        let ns = module(py, PROGRAM);
        assert_eq!(
            call_in(py, &ns, "fact", &[int(py, 20)]).unwrap(),
            "2432902008176640000"
        );
        // Deep Rust recursion needs a large stack: run on a big one.
        let f = ns.get_item("forever").unwrap().unwrap().unbind();
        let err = py.detach(|| {
            std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn(move || {
                    Python::attach(|py| {
                        let mut interp = Interp::new(py).unwrap();
                        let err = interp.call(py, f.bind(py), &[int(py, 0)]).unwrap_err();
                        err.is_instance_of::<pyo3::exceptions::PyRecursionError>(py)
                    })
                })
                .unwrap()
                .join()
                .unwrap()
        });
        assert!(err, "expected RecursionError");
    });
}

#[test]
fn keyword_and_star_arguments() {
    Python::attach(|py| {
        let ns = module(py, PROGRAM);
        assert_eq!(
            call_in(py, &ns, "call_kw", &[int(py, 1)]).unwrap(),
            "[(1, 2, (), 3, 4, []), (1, 5, (6, 7), 8, 4, [('e', 9)]), (1, 1, (), 0, 4, [('z', 1)])]"
        );
        let kw = ns.get_item("kw").unwrap().unwrap();
        let mut interp = Interp::new(py).unwrap();
        let r = interp
            .call_kw(
                py,
                &kw,
                &[int(py, 1)],
                &[("c", int(py, 2)), ("x", int(py, 3))],
            )
            .unwrap();
        assert_eq!(
            r.bind(py).repr().unwrap().to_string(),
            "(1, 2, (), 2, 4, [('x', 3)])"
        );
        for (args, kwargs) in [
            (vec![], vec![("c", int(py, 1))]),
            (vec![int(py, 1)], vec![]),
            (vec![int(py, 1)], vec![("a", int(py, 1)), ("c", int(py, 1))]),
        ] {
            let err = interp.call_kw(py, &kw, &args, &kwargs).unwrap_err();
            assert!(
                err.is_instance_of::<pyo3::exceptions::PyTypeError>(py),
                "{err}"
            );
        }
    });
}

#[test]
fn classes_methods_and_exceptions() {
    Python::attach(|py| {
        let ns = module(py, PROGRAM);
        assert_eq!(
            call_in(py, &ns, "objects", &[int(py, 5)]).unwrap(),
            "(15, 6, 5, True)"
        );
        assert_eq!(call_in(py, &ns, "catching", &[int(py, 3)]).unwrap(), "3");
        assert_eq!(
            call_in(py, &ns, "catching", &[int(py, -3)]).unwrap(),
            "-300"
        );
        let f = ns.get_item("raising").unwrap().unwrap();
        let err = Interp::new(py)
            .unwrap()
            .call(py, &f, &[int(py, -1)])
            .unwrap_err();
        let my_error = ns.get_item("MyError").unwrap().unwrap();
        assert!(err.value(py).is_instance(&my_error).unwrap());
        assert_eq!(err.value(py).to_string(), "code -1");
    });
}

#[test]
fn generators_of_the_program() {
    Python::attach(|py| {
        let ns = module(py, PROGRAM);
        assert_eq!(
            call_in(py, &ns, "gens", &[int(py, 3)]).unwrap(),
            "([3, 2, 1], 12, [3, 1])"
        );
        // `return value` in a generator: StopIteration carries it.
        let countdown = ns.get_item("countdown").unwrap().unwrap();
        let mut interp = Interp::new(py).unwrap();
        let gen = interp
            .call(py, &countdown, &[int(py, 1)])
            .unwrap()
            .into_bound(py);
        assert_eq!(gen.get_type().name().unwrap().to_string(), "generator");
        let next = builtin(py, "next");
        assert_eq!(next.call1((&gen,)).unwrap().extract::<i64>().unwrap(), 1);
        let err = next.call1((&gen,)).unwrap_err();
        assert!(err.is_instance_of::<pyo3::exceptions::PyStopIteration>(py));
        assert_eq!(
            err.value(py)
                .getattr("value")
                .unwrap()
                .extract::<String>()
                .unwrap(),
            "done"
        );
    });
}

/// A flowing error inside a callee is not caught by the program's
/// `except BaseException`.
#[test]
fn flowing_errors_are_not_caught_by_the_program() {
    Python::attach(|py| {
        let ns = module(
            py,
            "G = 0\ndef bad(x):\n    global G\n    G = x\n    return x\n\
             def guarded(x):\n    try:\n        return bad(x)\n    except BaseException:\n        return -1\n",
        );
        let err = call_in(py, &ns, "guarded", &[int(py, 1)]).unwrap_err();
        assert!(err.is_instance_of::<FlowingError>(py), "{err}");
        assert!(
            err.to_string().contains("flowing error: <string>:4:"),
            "{err}"
        );
    });
}
