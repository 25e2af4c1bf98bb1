//! The case runner: result comparison and whole-file checks.

use std::path::PathBuf;

use pyo3::prelude::*;
use rpy3_testsuite::{
    check_paths, compare_outcomes, values_equal, Backend, CaseRecord, Outcome, Status,
};

fn eval<'py>(py: Python<'py>, src: &str) -> Bound<'py, PyAny> {
    let builtins = py.import("builtins").unwrap();
    builtins
        .getattr("eval")
        .unwrap()
        .call1((src, pyo3::types::PyDict::new(py)))
        .unwrap()
}

fn same(py: Python<'_>, a: &str, b: &str) -> bool {
    values_equal(&eval(py, a), &eval(py, b)).unwrap()
}

#[test]
fn values_compare_by_type_and_value() {
    Python::attach(|py| {
        assert!(same(py, "1", "1"));
        assert!(!same(py, "True", "1"));
        assert!(!same(py, "1", "1.0"));
        assert!(same(py, "float('nan')", "float('nan')"));
        assert!(!same(py, "0.0", "-0.0"));
        assert!(same(py, "0.1 + 0.2", "0.30000000000000004"));
        assert!(same(
            py,
            "('a', b'x', None, [1, (2.5,)])",
            "('a', b'x', None, [1, (2.5,)])"
        ));
        assert!(!same(py, "(1, 2)", "[1, 2]"));
        assert!(!same(py, "[1, True]", "[1, 1]"));
        assert!(!same(py, "[1, 2]", "[1, 2, 3]"));
        assert!(same(py, "[float('nan')]", "[float('nan')]"));
        assert!(!same(py, "'a'", "b'a'"));
        // int subclasses (r_uint) compare as Python ints, bool excepted.
        let sub = eval(py, "type('r_uint', (int,), {})(5)");
        assert!(values_equal(&sub, &eval(py, "5")).unwrap());
        assert!(!values_equal(
            &eval(py, "True"),
            &eval(py, "type('r_uint', (int,), {})(1)")
        )
        .unwrap());
    });
}

#[test]
fn exceptions_compare_by_class_name() {
    Python::attach(|py| {
        let raised = |src: &str| -> Outcome {
            let cls = eval(py, src).cast_into::<pyo3::types::PyType>().unwrap();
            Outcome::Raised {
                class: cls.unbind(),
                message: String::new(),
            }
        };
        let value = |src: &str| Outcome::Value(eval(py, src).unbind());
        assert!(compare_outcomes(py, &raised("ValueError"), &raised("ValueError"), &[]).is_ok());
        assert!(compare_outcomes(py, &raised("ValueError"), &raised("KeyError"), &[]).is_err());
        assert!(compare_outcomes(py, &raised("LookupError"), &raised("KeyError"), &[]).is_err());
        assert!(compare_outcomes(py, &raised("ValueError"), &value("1"), &[]).is_err());
        let detail = compare_outcomes(py, &value("3"), &value("[3]"), &[]).unwrap_err();
        assert_eq!(detail, "expected 3, got [3]");
        // Classes of two instances of the case module match by qualname.
        let a = raised("type('E', (Exception,), {'__module__': 'case_a'})");
        let b = raised("type('E', (Exception,), {'__module__': 'case_b'})");
        let c = raised("type('F', (Exception,), {'__module__': 'case_b'})");
        let other = raised("type('E', (Exception,), {'__module__': 'elsewhere'})");
        assert!(compare_outcomes(py, &a, &b, &["case_a", "case_b"]).is_ok());
        assert!(compare_outcomes(py, &a, &c, &["case_a", "case_b"]).is_err());
        assert!(compare_outcomes(py, &a, &other, &["case_a", "case_b"]).is_err());
    });
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rpy3-runner-{tag}-{}", std::process::id()));
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

fn summary(records: &[CaseRecord]) -> Vec<(String, String, &'static str)> {
    records
        .iter()
        .map(|r| {
            let file = PathBuf::from(&r.file)
                .file_name()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_default();
            (file, format!("{}{}", r.function, r.args), r.status.as_str())
        })
        .collect()
}

#[test]
fn check_a_directory() {
    let dir = TempDir::new("dir");
    dir.write(
        "a_good.py",
        r#"
from rpy3.rlib.objectmodel import we_are_translated

STATE = []

def add(x, y):
    return x + y

def remember(x):
    # The reference run must not leak module state into the backend run.
    STATE.append(x)
    return len(STATE)

def translated():
    return we_are_translated()

class Oops(Exception):
    pass

def oops(x):
    if x:
        raise Oops()
    return 0

CASES = [
    (add, [1, 2]),
    (add, ["a", "b"]),
    (remember, [7]),
    (remember, [8]),
    (translated, [], True),
    (translated, []),
    (oops, [1]),
    (oops, [0], ValueError),
    (add, [1], 99),
]
"#,
    );
    dir.write("b_broken.py", "CASES = [\n");
    dir.write("helper.py", "def helper():\n    return 1\n");
    dir.write("README.md", "not a case file\n");
    dir.write(
        "c_bad_entry.py",
        "def f():\n    return 1\nCASES = [(f, []), (f,)]\n",
    );
    let records = check_paths(&[dir.0.clone(), dir.0.join("missing.py")], &[Backend::Flow]);
    for r in &records {
        assert_eq!(r.backend, "flow");
        if r.status == Status::Pass {
            assert!(r.detail.is_empty());
        } else {
            assert!(!r.detail.is_empty(), "{r:?}");
        }
    }
    let s = summary(&records);
    let expect: Vec<(String, String, &str)> = [
        ("missing.py", "", "error"),
        ("a_good.py", "add[1, 2]", "pass"),
        ("a_good.py", "add['a', 'b']", "pass"),
        ("a_good.py", "remember[7]", "pass"),
        ("a_good.py", "remember[8]", "pass"),
        ("a_good.py", "translated[]", "pass"),
        ("a_good.py", "translated[]", "fail"),
        ("a_good.py", "oops[1]", "pass"),
        ("a_good.py", "oops[0]", "fail"),
        ("a_good.py", "add[1]", "fail"),
        ("b_broken.py", "", "error"),
        ("c_bad_entry.py", "f[]", "pass"),
        ("c_bad_entry.py", "", "error"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), *c))
    .collect();
    assert_eq!(s, expect, "{records:#?}");
    let add_wrong = &records[9];
    assert!(
        add_wrong
            .detail
            .starts_with("expected 99, got raise TypeError"),
        "{}",
        add_wrong.detail
    );
    assert!(
        records[10].detail.contains("SyntaxError"),
        "{}",
        records[10].detail
    );
}

#[test]
fn flowing_errors_are_errors() {
    let dir = TempDir::new("flowerr");
    let f = dir.write(
        "flowerr.py",
        "def bad(x):\n    class A(object):\n        pass\n    return x\n\
         def guarded(x):\n    try:\n        return bad(x)\n    except Exception:\n        return -1\n\
         CASES = [(guarded, [1])]\n",
    );
    let records = check_paths(&[f], &[Backend::Flow]);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].status, Status::Error);
    assert!(
        records[0].detail.starts_with("flowing error: "),
        "{}",
        records[0].detail
    );
    assert!(
        records[0].detail.contains("flowerr.py:2:"),
        "{}",
        records[0].detail
    );
}

#[test]
fn backend_names() {
    assert_eq!(
        Backend::parse_selection("flow").unwrap(),
        vec![Backend::Flow]
    );
    assert_eq!(
        Backend::parse_selection("all").unwrap(),
        Backend::ALL.to_vec()
    );
    assert_eq!(
        Backend::parse_selection("llinterp").unwrap(),
        vec![Backend::Llinterp]
    );
    assert_eq!(
        Backend::parse_selection("native-gcstress").unwrap(),
        vec![Backend::NativeGcStress]
    );
    assert!(Backend::parse_selection("bogus")
        .unwrap_err()
        .contains("unknown backend"));
}
