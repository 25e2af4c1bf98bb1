//! The `rpy3` binary: exit statuses and output of each command.

use std::path::PathBuf;
use std::process::{Command, Output};

fn rpy3(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rpy3"))
        .args(args)
        .env_remove("RPY3_PYTHONPATH")
        .output()
        .expect("run rpy3")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

struct Case(PathBuf);

impl Case {
    fn new(tag: &str, text: &str) -> Case {
        let dir = std::env::temp_dir().join(format!("rpy3-cli-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("cases.py");
        std::fs::write(&p, text).unwrap();
        Case(p)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Case {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

const CASES: &str = "\
def add(x, y):
    return x + y

def div(x, y):
    return x // y

CASES = [(add, [1, 2]), (div, [1, 0]), (add, [1, 2], 4)]
";

#[test]
fn check_reports_failures_and_totals() {
    let case = Case::new("check", CASES);
    let json = case.0.with_file_name("out.json");
    let o = rpy3(&[
        "check",
        case.path(),
        "--backend",
        "flow",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].ends_with("cases.py:add(1, 2) [flow]: expected 4, got 3"),
        "{out}"
    );
    assert_eq!(lines[1], "2 passed, 1 failed");
    let records = std::fs::read_to_string(&json).unwrap();
    assert_eq!(records.lines().count(), 5, "{records}");
    assert!(records.contains(
        r#""function": "div", "args": "[1, 0]", "backend": "flow", "status": "pass", "detail": """#
    ));
}

#[test]
fn check_all_passing_exits_zero() {
    let case = Case::new(
        "pass",
        "def f(x):\n    return -x\nCASES = [(f, [1]), (f, [-2])]\n",
    );
    // `all` runs every implemented backend: flow, annotate, llinterp, c
    // and native.
    let o = rpy3(&["check", "--backend=all", case.path()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "10 passed, 0 failed\n");
}

#[test]
fn run_prints_the_repr() {
    let case = Case::new("run", CASES);
    let o = rpy3(&["run", case.path(), "add", "'a'", "'b'"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "'ab'\n");
    let o = rpy3(&["run", case.path(), "add", "-1", "-2", "--backend", "flow"]);
    assert_eq!(stdout(&o), "-3\n");
    let o = rpy3(&["run", case.path(), "div", "1", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("ZeroDivisionError"), "{}", stderr(&o));
}

#[test]
fn show_prints_the_graph() {
    let case = Case::new("show", CASES);
    let o = rpy3(&["show", case.path(), "add", "--stage", "flow"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("graph add(x_0, y_1)\n"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("add(x_0, y_1)"), "{}", stdout(&o));
    let o = rpy3(&["show", case.path(), "add", "--dot"]);
    assert!(stdout(&o).starts_with("digraph"), "{}", stdout(&o));
}

#[test]
fn usage_errors_exit_two() {
    let case = Case::new("usage", CASES);
    for args in [
        vec!["check"],
        vec!["check", "/nonexistent/dir"],
        vec!["check", case.path(), "--backend", "bogus"],
        vec![
            "translate",
            case.path(),
            "--backend",
            "native",
            "--opt",
            "fast",
        ],
        vec!["translate", case.path(), "--emit", "clif"],
        vec!["check", case.path(), "--frobnicate"],
        vec!["run", "/nonexistent.py", "f"],
        vec!["run", case.path(), "nothere"],
        vec!["run", case.path(), "add", "1", "[2,"],
        vec!["show", case.path(), "add", "--stage", "bogus"],
        vec!["translate", case.path()],
        vec!["frobnicate"],
        vec![],
    ] {
        let o = rpy3(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if !args.is_empty() {
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
    // a case file is not a program: no entry point
    let o = rpy3(&["translate", case.path()]);
    assert!(stderr(&o).contains("entry_point"), "{}", stderr(&o));
    let o = rpy3(&["translate", case.path(), "--backend", "native"]);
    assert!(stderr(&o).contains("entry_point"), "{}", stderr(&o));
}
