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

#[test]
fn help_version_and_completions() {
    let o = rpy3(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), format!("rpy3 {}\n", env!("CARGO_PKG_VERSION")));
    for cmd in ["check", "run", "show", "translate", "fuzz", "completions"] {
        let o = rpy3(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("Usage: rpy3 {cmd}")),
            "{cmd}: {}",
            stdout(&o)
        );
    }
    let o = rpy3(&["help", "translate"]);
    assert!(stdout(&o).contains("--emit <KIND> <DIR>"), "{}", stdout(&o));
    for (shell, marker) in [
        ("bash", "complete -F _rpy3"),
        ("zsh", "#compdef rpy3"),
        ("fish", "complete -c rpy3"),
    ] {
        let o = rpy3(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("translate"), "{shell}");
    }
    let o = rpy3(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn run_takes_negative_numbers_and_program_arguments() {
    let case = Case::new("neg", CASES);
    let o = rpy3(&["run", case.path(), "add", "-3", "-4", "--backend=llinterp"]);
    assert_eq!(stdout(&o), "-7\n", "{}", stderr(&o));
    let o = rpy3(&["run", case.path(), "add", "-1.5", "--", "-2"]);
    assert_eq!(stdout(&o), "-3.5\n", "{}", stderr(&o));
    let prog = Case::new(
        "prog",
        "def entry_point(argv):\n    print(argv[1:])\n    return len(argv)\n",
    );
    let o = rpy3(&["run", prog.path(), "--backend", "llinterp", "--", "-v", "x"]);
    assert_eq!(stdout(&o), "['-v', 'x']\n", "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(3));
}

const PROGRAM: &str = "\
def double(n):
    return n * 2

def entry_point(argv):
    print(double(int(argv[1])))
    return int(argv[2])
";

#[test]
fn translate_emits_reports_and_runs() {
    let prog = Case::new("translate", PROGRAM);
    let dir = prog.0.parent().unwrap().to_path_buf();
    let out = dir.join("prog");
    let emit = |k: &str| dir.join(k).to_str().unwrap().to_string();
    let o = rpy3(&[
        "translate",
        prog.path(),
        "-o",
        out.to_str().unwrap(),
        "--opt",
        "0",
        "--emit",
        "flow",
        &emit("flow"),
        "--emit",
        "annotate",
        &emit("annotate"),
        "--emit",
        "rtype",
        &emit("rtype"),
        "--keep-c",
        &emit("c"),
        "--run",
        "-21",
        "5",
    ]);
    // the program's output and status
    assert_eq!(stdout(&o), "-42\n", "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(5), "{}", stderr(&o));
    // the table (no progress display: stderr is not a terminal)
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}'), "{err}");
    assert!(err.starts_with("[Timer] phase"), "{err}");
    for phase in ["load", "annotate", "rtype", "genc", "cc", "total"] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("[Timer] {phase} "))),
            "{phase}: {err}"
        );
    }
    assert!(
        err.contains(&format!("rpy3: wrote {} (", out.display())),
        "{err}"
    );
    let annotate_line = err
        .lines()
        .find(|l| l.starts_with("[Timer] annotate "))
        .unwrap();
    // graph and block counts: entry_point and double at least
    let counts: Vec<usize> = annotate_line
        .split_whitespace()
        .rev()
        .take(2)
        .map(|w| w.parse().unwrap())
        .collect();
    assert!(counts[1] >= 2 && counts[0] >= counts[1], "{annotate_line}");
    let names = |k: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir.join(k))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    assert!(names("flow").iter().any(|n| n.ends_with("_double.txt")));
    let double = names("annotate")
        .into_iter()
        .find(|n| n.ends_with("_double.txt"))
        .unwrap();
    let text = std::fs::read_to_string(dir.join("annotate").join(double)).unwrap();
    assert!(text.starts_with("graph double("), "{text}");
    assert!(text.contains("int"), "{text}");
    assert!(!names("rtype").is_empty());
    assert!(names("c").iter().any(|n| n.ends_with(".c")));
    // --quiet: nothing but the program's own output
    let o = rpy3(&[
        "translate",
        prog.path(),
        "-o",
        out.to_str().unwrap(),
        "--opt",
        "0",
        "-q",
        "--run",
        "4",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "8\n");
    assert_eq!(stderr(&o), "");
}

#[test]
fn errors_show_the_source_without_colour_when_captured() {
    let prog = Case::new(
        "diag",
        "def f(x):\n    if x:\n        y = 1\n    else:\n        y = 'a'\n    return y\n\ndef entry_point(argv):\n    f(len(argv))\n    return 0\n",
    );
    for args in [
        vec!["run", prog.path(), "--backend", "llinterp"],
        vec!["translate", prog.path(), "-o", "/nonexistent/out"],
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_rpy3"))
            .args(&args)
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        let first = err.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "rpy3: annotation error: {}:6: cannot unite str (one character) and int (non-negative) (in function f)",
                prog.path()
            ),
            "{err}"
        );
        assert!(!err.contains('\u{1b}'), "{err}");
        assert!(err.contains("6 │     return y\n"), "{err}");
        assert!(
            err.contains("^^^^^^^^ str (one character) and int (non-negative) meet here"),
            "{err}"
        );
        assert!(err.contains("entry_point calls f here"), "{err}");
        assert!(
            err.contains("= while merging the values returned by 'f'"),
            "{err}"
        );
        assert!(err.contains("= help: "), "{err}");
    }
}

#[test]
fn fuzz_lowlevel_runs_graphs_on_c_and_native() {
    let o = rpy3(&[
        "fuzz",
        "--lowlevel",
        "--seed",
        "3",
        "--programs",
        "6",
        "--batch",
        "6",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("6 tests (12 cases)"), "{}", stdout(&o));
    assert!(stdout(&o).contains("0 disagreements"), "{}", stdout(&o));
    let o = rpy3(&["fuzz", "--lowlevel", "--show", "2"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("def entry(i0, i1, f0):"),
        "{}",
        stdout(&o)
    );
    // the low-level fuzzer compares compiled backends only
    let o = rpy3(&["fuzz", "--lowlevel", "--backends", "flow"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
