//! Whole programs: a target file's `entry_point(argv)` (or the one its
//! `target()` returns) run on a backend with the process's own stdout,
//! stderr and exit status, and programs checked against CPython.
//!
//! A program file may say how to run it with lines `# rpy3-args: ARG...`
//! (one run each, words split like a shell's; none means one run without
//! arguments).  Checking a program runs CPython (`python3 -m
//! rpy3._program`) and `rpy3 run TARGET.py --backend B -- ARG...` as child
//! processes and compares their stdout, byte for byte, and exit status.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyList;
use rpy3_annotator::itemdef::ItemKind;
use rpy3_annotator::model::StrKind;
use rpy3_annotator::{Annotator, SomeValue};
use rpy3_flowspace::interp::{is_internal_error, Interp};
use rpy3_llinterp::LlOutcome;

use crate::record::{CaseRecord, Status};
use crate::{load, Backend};

/// How long one run of a program may take in a check.
const RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// The annotation of `argv`: a list of non-None strs.
pub fn argv_annotation(ann: &mut Annotator) -> SomeValue {
    let item = SomeValue::Str {
        kind: StrKind::Str,
        is_char: false,
        can_be_none: false,
        konst: None,
    };
    SomeValue::List(ann.new_container(ItemKind::List, item, SomeValue::Impossible))
}

/// The `rpy3._program` module (the entry-point rules shared with the
/// CPython reference).
fn program_module(py: Python<'_>) -> Result<Bound<'_, PyModule>, String> {
    load::add_to_sys_path(py, &load::python_package_dir()).map_err(|e| e.to_string())?;
    py.import("rpy3._program")
        .map_err(|e| format!("cannot import rpy3._program: {e}"))
}

/// Why a program could not be run (not the program's own failure).
pub enum ProgramError {
    /// Bad usage: the file defines no entry point.
    Usage(String),
    /// The program does not import, is not RPython, or a stage failed.
    Translation(String),
}

/// Imports `file` and finds its entry point.
pub fn load_entry_point<'py>(
    py: Python<'py>,
    file: &Path,
) -> Result<Bound<'py, PyAny>, ProgramError> {
    let m = program_module(py).map_err(ProgramError::Translation)?;
    load::prepare_sys_path(py, file)
        .map_err(|e| ProgramError::Translation(load::exception_line(py, &e)))?;
    let name = load::fresh_module_name(file, "program");
    let module = load::import_instance(py, file, &name).map_err(|e| {
        ProgramError::Translation(format!(
            "cannot import {}: {}",
            file.display(),
            load::exception_line(py, &e)
        ))
    })?;
    match m
        .getattr("find_entry_point")
        .and_then(|f| f.call1((module,)))
    {
        Ok(entry) => Ok(entry),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyLookupError>(py) => {
            Err(ProgramError::Usage(e.value(py).to_string()))
        }
        Err(e) => Err(ProgramError::Translation(format!(
            "target() failed: {}",
            load::exception_line(py, &e)
        ))),
    }
}

/// Flushes CPython's `sys.stdout` and `sys.stderr` (the flow backend
/// prints through them).
fn flush_python_streams(py: Python<'_>) {
    if let Ok(sys) = py.import("sys") {
        for s in ["stdout", "stderr"] {
            let _ = sys.getattr(s).and_then(|f| f.call_method0("flush"));
        }
    }
}

/// The exit status of `sys.exit(code)` seen as a Python exception.
fn system_exit_status(py: Python<'_>, e: &PyErr) -> i32 {
    let code = e.value(py).getattr("code").ok();
    match code {
        None => 0,
        Some(c) if c.is_none() => 0,
        Some(c) => match c.extract::<i64>() {
            Ok(i) => (i & 0xff) as i32,
            Err(_) => {
                flush_python_streams(py);
                eprintln!("{c}");
                1
            }
        },
    }
}

fn fatal(line: String) -> i32 {
    eprintln!("{line}");
    1
}

/// Runs the program `file` on `backend` with `argv` (its first item the
/// file as given): output goes to this process's stdout and stderr; the
/// result is the exit status.
pub fn run_program(
    py: Python<'_>,
    file: &Path,
    argv: &[String],
    backend: Backend,
) -> Result<i32, ProgramError> {
    let entry = load_entry_point(py, file)?;
    let m = program_module(py).map_err(ProgramError::Translation)?;
    let status_of = |v: &Bound<'_, PyAny>| -> i32 {
        match m
            .getattr("exit_status")
            .and_then(|f| f.call1((v,)))
            .and_then(|s| s.extract::<i32>())
        {
            Ok(s) => s,
            Err(_) => fatal(format!("rpy3: the exit status {v} is not an int")),
        }
    };
    let fatal_line = |py: Python<'_>, e: &PyErr| -> String {
        m.getattr("fatal_error_line")
            .and_then(|f| f.call1((e.value(py),)))
            .and_then(|s| s.extract::<String>())
            .unwrap_or_else(|_| "Fatal error".to_string())
    };
    match backend {
        Backend::Flow | Backend::Annotate => {
            let argv_list =
                PyList::new(py, argv).map_err(|e| ProgramError::Translation(e.to_string()))?;
            let args = [argv_list.into_any()];
            let (mut interp, mut annotated) = (None, None);
            if backend == Backend::Annotate {
                let mut ann = Annotator::new();
                let s_argv = argv_annotation(&mut ann);
                annotated = Some(
                    crate::annotate::Annotated::from_annotations(py, ann, &entry, vec![s_argv])
                        .map_err(ProgramError::Translation)?,
                );
            } else {
                interp = Some(
                    Interp::new(py)
                        .map_err(|e| ProgramError::Translation(format!("internal error: {e}")))?,
                );
            }
            let interp = match (&mut interp, &mut annotated) {
                (Some(i), _) => i,
                (None, Some(a)) => &mut a.interp,
                (None, None) => unreachable!("one interpreter was made above"),
            };
            let result = interp.call(py, &entry, &args);
            if let Some(v) = annotated.as_mut().and_then(|a| a.take_violation()) {
                flush_python_streams(py);
                return Err(ProgramError::Translation(format!(
                    "unsound annotation: {v}"
                )));
            }
            let status = match result {
                Ok(v) => status_of(v.bind(py)),
                Err(e) if e.is_instance_of::<pyo3::exceptions::PySystemExit>(py) => {
                    system_exit_status(py, &e)
                }
                Err(e) if is_internal_error(py, &e) => {
                    flush_python_streams(py);
                    return Err(ProgramError::Translation(e.value(py).to_string()));
                }
                Err(e) => {
                    flush_python_streams(py);
                    fatal(fatal_line(py, &e))
                }
            };
            flush_python_streams(py);
            Ok(status)
        }
        Backend::Llinterp => {
            let mut ann = Annotator::new();
            let s_argv = argv_annotation(&mut ann);
            let mut translated = crate::llinterp_backend::Translated::from_annotations(
                py,
                ann,
                &entry,
                vec![s_argv],
            )
            .map_err(ProgramError::Translation)?;
            let argv_list =
                PyList::new(py, argv).map_err(|e| ProgramError::Translation(e.to_string()))?;
            let outcome = translated
                .run(py, &[argv_list.into_any()])
                .map_err(ProgramError::Translation)?;
            Ok(match outcome {
                Ok(v) => match v {
                    rpy3_model::lltype::LlValue::Int(i) => (i & 0xff) as i32,
                    rpy3_model::lltype::LlValue::Bool(b) => b as i32,
                    _ => 0,
                },
                Err(LlOutcome::Exit(status)) => (status & 0xff) as i32,
                Err(LlOutcome::Raised { class_name, .. }) => {
                    fatal(format!("Fatal error: {class_name}"))
                }
                Err(LlOutcome::Error(e)) => {
                    return Err(ProgramError::Translation(format!("llinterp error: {e}")))
                }
            })
        }
    }
}

/// The argument lists a program file asks to be run with.
pub fn program_runs(source: &str) -> Vec<Vec<String>> {
    let runs: Vec<Vec<String>> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# rpy3-args:"))
        .map(split_words)
        .collect();
    if runs.is_empty() {
        vec![Vec::new()]
    } else {
        runs
    }
}

/// Words split like a POSIX shell's (quotes and backslashes).
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Whether a file without `CASES` is a program: it defines `target` or
/// `entry_point`.
pub fn is_program(source: &str) -> bool {
    source.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("def target(") || l.starts_with("def entry_point(")
    })
}

static RPY3_EXE: OnceLock<PathBuf> = OnceLock::new();

/// Sets the `rpy3` executable that runs programs on the backends (the
/// CLI passes itself).
pub fn set_rpy3_executable(path: PathBuf) {
    let _ = RPY3_EXE.set(path);
}

/// The Python the reference runs with: `$RPY3_PYTHON`, else `python3.11`
/// when there is one, else `python3`.
fn python_executable() -> String {
    if let Some(p) = std::env::var_os("RPY3_PYTHON") {
        return p.to_string_lossy().into_owned();
    }
    let found = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join("python3.11").is_file()));
    if found { "python3.11" } else { "python3" }.to_string()
}

/// What a child process did.
struct RunResult {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    status: Option<i32>,
    timed_out: bool,
}

fn run_child(mut cmd: Command) -> Result<RunResult, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() > RUN_TIMEOUT => {
                let _ = child.kill();
                timed_out = true;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting for {cmd:?}: {e}")),
        }
    };
    Ok(RunResult {
        stdout: reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        status: status.code(),
        timed_out,
    })
}

fn describe_difference(got: &[u8], want: &[u8]) -> String {
    let at = got
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(got.len().min(want.len()));
    let line = want[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    let excerpt = |b: &[u8]| {
        let end = (at + 60).min(b.len());
        let text = String::from_utf8_lossy(&b[at.min(b.len())..end]).into_owned();
        format!("{text:?}")
    };
    format!(
        "stdout differs at line {line} (byte {at}): got {}, expected {}",
        excerpt(got),
        excerpt(want)
    )
}

fn first_lines(b: &[u8]) -> String {
    let text = String::from_utf8_lossy(b);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines
        .iter()
        .rev()
        .take(3)
        .rev()
        .cloned()
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Checks every program of `paths` (see [`check_program`]), as many at
/// once as the machine has cores; the records come in the order of
/// `paths`.
pub fn check_programs(paths: &[PathBuf], backends: &[Backend]) -> Vec<CaseRecord> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8)
        .min(paths.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![Vec::new(); paths.len()]);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = paths.get(i) else { break };
                let records = check_program(p, backends);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = records;
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// Checks the program `path` on every backend against CPython: one record
/// per run and backend.
pub fn check_program(path: &Path, backends: &[Backend]) -> Vec<CaseRecord> {
    let display = path.display().to_string();
    let record = |args: &str, backend: Backend, status: Status, detail: String| CaseRecord {
        file: display.clone(),
        function: "<program>".to_string(),
        args: args.to_string(),
        backend: backend.name().to_string(),
        status,
        detail,
    };
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            return backends
                .iter()
                .map(|&b| record("[]", b, Status::Error, format!("cannot read: {e}")))
                .collect()
        }
    };
    let Some(exe) = RPY3_EXE.get() else {
        return backends
            .iter()
            .map(|&b| {
                record(
                    "[]",
                    b,
                    Status::Error,
                    "checking programs needs the rpy3 executable".into(),
                )
            })
            .collect();
    };
    let mut records = Vec::new();
    for args in program_runs(&source) {
        let args_repr = format!(
            "[{}]",
            args.iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut reference = Command::new(python_executable());
        reference
            .env("PYTHONPATH", load::python_package_dir())
            .env("PYTHONHASHSEED", "0")
            .arg("-m")
            .arg("rpy3._program")
            .arg(path)
            .args(&args);
        let want = match run_child(reference) {
            Ok(r) if r.status.is_some() && !r.timed_out => r,
            Ok(r) => {
                for &b in backends {
                    records.push(record(
                        &args_repr,
                        b,
                        Status::Error,
                        format!(
                            "the CPython reference did not finish: {}",
                            first_lines(&r.stderr)
                        ),
                    ));
                }
                continue;
            }
            Err(e) => {
                for &b in backends {
                    records.push(record(&args_repr, b, Status::Error, e.clone()));
                }
                continue;
            }
        };
        for &b in backends {
            let mut cmd = Command::new(exe);
            cmd.arg("run")
                .arg(path)
                .arg("--backend")
                .arg(b.name())
                .arg("--")
                .args(&args);
            let (status, detail) = match run_child(cmd) {
                Err(e) => (Status::Error, e),
                Ok(r) if r.timed_out => (Status::Error, "timed out".to_string()),
                Ok(r) if r.status == Some(2) && r.stderr.starts_with(b"rpy3:") => {
                    (Status::Error, first_lines(&r.stderr))
                }
                Ok(r) if r.status.is_none() => (
                    Status::Error,
                    format!("killed by a signal: {}", first_lines(&r.stderr)),
                ),
                Ok(r) if r.stderr.starts_with(b"rpy3:") && r.status == Some(1) => {
                    (Status::Error, first_lines(&r.stderr))
                }
                Ok(r) if r.stdout != want.stdout => {
                    (Status::Fail, describe_difference(&r.stdout, &want.stdout))
                }
                Ok(r) if r.status != want.status => (
                    Status::Fail,
                    format!(
                        "exit status {:?}, expected {:?} ({})",
                        r.status,
                        want.status,
                        first_lines(&r.stderr)
                    ),
                ),
                Ok(_) => (Status::Pass, String::new()),
            };
            records.push(record(&args_repr, b, status, detail));
        }
    }
    records
}

/// Translates the program `file` with the C backend into the executable
/// `out`; the time of each phase.
pub fn translate_program(
    py: Python<'_>,
    file: &Path,
    out: &Path,
    opts: &rpy3_genc::BuildOptions,
) -> Result<Vec<(&'static str, f64)>, String> {
    let mut times = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str, times: &mut Vec<(&'static str, f64)>| {
        times.push((name, clock.elapsed().as_secs_f64()));
        clock = std::time::Instant::now();
    };
    let entry = match load_entry_point(py, file) {
        Ok(e) => e,
        Err(ProgramError::Usage(m)) | Err(ProgramError::Translation(m)) => return Err(m),
    };
    lap("import", &mut times);
    let mut ann = Annotator::new();
    let s_argv = argv_annotation(&mut ann);
    let g = ann
        .annotate(py, &entry, vec![s_argv])
        .map_err(|e| format!("annotation error: {e}"))?;
    lap("annotate", &mut times);
    let program = rpy3_rtyper::rtype(py, &mut ann, g).map_err(|e| format!("rtyping error: {e}"))?;
    lap("rtype", &mut times);
    let prepared =
        rpy3_prep::prepare(py, &program, &[]).map_err(|e| format!("preparation: {e}"))?;
    lap("prepare", &mut times);
    let source = rpy3_genc::generate(py, &prepared, &rpy3_genc::Entry::Program)
        .map_err(|e| e.to_string())?;
    lap("genc", &mut times);
    rpy3_genc::build(&source, out, opts).map_err(|e| e.to_string())?;
    lap("cc", &mut times);
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(
            split_words("10 'a b' \"c\\\"d\" e\\ f"),
            vec!["10", "a b", "c\"d", "e f"]
        );
        assert_eq!(split_words("   "), Vec::<String>::new());
        assert_eq!(split_words("''"), vec![""]);
    }

    #[test]
    fn runs_come_from_comment_lines() {
        let src = "# rpy3-args: 5\n#rpy3-args: no\n    # rpy3-args:\n";
        assert_eq!(program_runs(src), vec![vec!["5".to_string()], vec![]]);
        assert_eq!(program_runs("x = 1\n"), vec![Vec::<String>::new()]);
    }
}
