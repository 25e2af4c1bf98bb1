//! No input makes a stage abort: recursive types (which work), deeply nested source,
//! long chains of prebuilt objects and runaway recursion of the program
//! each end in a result or in that case's error, and `check` goes on to
//! the next case.  (A stack overflow would kill this test's process.)

use std::path::PathBuf;

use rpy3_testsuite::{check_paths, isolate, Backend, CaseRecord, Status};

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("rpy3-robustness-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The record of `function` on `backend`.
fn record<'a>(records: &'a [CaseRecord], function: &str, backend: Backend) -> &'a CaseRecord {
    records
        .iter()
        .find(|r| r.function == function && r.backend == backend.name())
        .unwrap_or_else(|| panic!("no record of {function} on {}", backend.name()))
}

#[track_caller]
fn passes(records: &[CaseRecord], function: &str) {
    for &b in Backend::ALL {
        let r = record(records, function, b);
        assert_eq!(
            r.status,
            Status::Pass,
            "{function} [{}]: {}",
            b.name(),
            r.detail
        );
    }
}

const RECURSIVE_TYPES: &str = r#"
class Node:
    def __init__(self, v):
        self.v = v
        self.children = []

def own_instances(n):
    root = Node(0)
    for i in range(n):
        root.children.append(Node(i))
        root.children[-1].children.append(root)
    return len(root.children[0].children[0].children)

def self_dict(n):
    d = {}
    d["me"] = d
    return len(d["me"]["me"]) + n

def list_of_lists(n):
    a = []
    b = [a]
    a.append(b)
    return len(a[0][0]) + n

SELF = []
SELF.append(SELF)

def prebuilt_self_list(n):
    return len(SELF[0][0]) + n

CASES = [(own_instances, [3]), (self_dict, [1]), (list_of_lists, [2]),
         (prebuilt_self_list, [1])]
"#;

#[test]
fn recursive_types_work() {
    let dir = TempDir::new("rec");
    let f = dir.write("recursive_types.py", RECURSIVE_TYPES);
    let records = check_paths(&[f], Backend::ALL);
    for function in [
        "own_instances",
        "self_dict",
        "list_of_lists",
        "prebuilt_self_list",
    ] {
        passes(&records, function);
    }
}

/// Source nested as deeply as CPython itself compiles.
fn deep_source() -> String {
    let mut s = String::new();
    let terms = vec!["x"; 900].join(" + ");
    s += &format!("def long_sum(x):\n    return {terms}\n\n");
    let conds: Vec<String> = (0..2000).map(|i| format!("x > {}", -i)).collect();
    s += &format!("def and_chain(x):\n    return {}\n\n", conds.join(" and "));
    s += "def nested_ifs(x):\n    r = 0\n";
    for i in 0..95 {
        s += &format!(
            "{}if x > {i}:\n{}r += 1\n",
            "    ".repeat(i + 1),
            "    ".repeat(i + 2)
        );
    }
    s += "    return r\n\n";
    s += "def inc(y):\n    return y + 1\n\n";
    s += &format!(
        "def nested_calls(x):\n    return {}x{}\n\n",
        "inc(".repeat(180),
        ")".repeat(180)
    );
    s += "def elifs(x):\n";
    for i in 0..1500 {
        s += &format!(
            "    {} x == {i}:\n        return {}\n",
            if i == 0 { "if" } else { "elif" },
            i * 2
        );
    }
    s += "    return -1\n\n";
    s += &format!(
        "def nested_lists(x):\n    a = {}x{}\n    return len(a)\n\n",
        "[".repeat(150),
        "]".repeat(150)
    );
    s += "class Link:\n    def __init__(self, v, nxt):\n        self.v = v\n        self.nxt = nxt\n\n";
    s += "HEAD = None\nfor _i in range(50000):\n    HEAD = Link(_i, HEAD)\n\n";
    s += "def prebuilt_chain(x):\n    n = 0\n    k = HEAD\n    while k is not None:\n        n += 1\n        k = k.nxt\n    return n + x\n\n";
    s += "CASES = [(long_sum, [3]), (and_chain, [5]), (nested_ifs, [50]), (nested_calls, [1]),\n";
    s += "         (elifs, [1400]), (nested_lists, [1]), (prebuilt_chain, [1])]\n";
    s
}

#[test]
fn deep_nesting_does_not_overflow_a_stage() {
    let dir = TempDir::new("deep");
    let f = dir.write("deep.py", &deep_source());
    let records = check_paths(&[f], Backend::ALL);
    for function in [
        "long_sum",
        "and_chain",
        "nested_ifs",
        "nested_calls",
        "elifs",
        "nested_lists",
        "prebuilt_chain",
    ] {
        passes(&records, function);
    }
}

const RUNAWAY: &str = r#"
def runaway(n):
    return runaway(n + 1) + 1

def caught(n):
    try:
        return runaway(n)
    except RecursionError:
        return -1

def ping(n):
    return pong(n) + 1

def pong(n):
    return ping(n - 1) + 1

def after(n):
    return n * 2

CASES = [(runaway, [1]), (caught, [1]), (ping, [3]), (after, [21])]
"#;

#[test]
fn runaway_recursion_is_a_recursion_error() {
    let dir = TempDir::new("runaway");
    let f = dir.write("runaway.py", RUNAWAY);
    let records = check_paths(&[f], Backend::ALL);
    for function in ["runaway", "caught", "ping", "after"] {
        passes(&records, function);
    }
}

#[test]
fn a_panic_is_the_case_error() {
    let r: Result<(), String> = isolate(|| panic!("boom in a stage"));
    assert_eq!(r, Err("internal error: panic: boom in a stage".to_string()));
    let ok: Result<i32, String> = isolate(|| Ok(3));
    assert_eq!(ok, Ok(3));
}

const OVERFLOW: &str = r#"
def fact(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r

def fact_text(n):
    return str(fact(n))

def caught(n):
    try:
        return fact(n)
    except OverflowError:
        return -1

def square(n):
    return n * n

CASES = [(fact, [21], OverflowError), (fact_text, [25], OverflowError), (caught, [30], -1),
         (square, [3037000500], OverflowError)]
"#;

/// Int arithmetic past 64 bits, which CPython's ints compute exactly, is
/// an OverflowError in the translated program, never a wrapped value.
#[test]
fn int_overflow_is_an_overflow_error() {
    let dir = TempDir::new("overflow");
    let f = dir.write("overflow.py", OVERFLOW);
    let backends = [Backend::Llinterp, Backend::C];
    let records = check_paths(&[f], &backends);
    for function in ["fact", "fact_text", "caught", "square"] {
        for &b in &backends {
            let r = record(&records, function, b);
            assert_eq!(r.status, Status::Pass, "{function} [{}]: {}", b.name(), r.detail);
        }
    }
}
