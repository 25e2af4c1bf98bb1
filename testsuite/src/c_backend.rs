//! The compiled backends (`c`, `native` and their gc-stress builds) for
//! case files: every function of a case file is
//! translated into one program, compiled once into one executable that
//! runs any of the file's cases (its arguments are prebuilt data of the
//! executable), and each case runs as a child process whose outcome is read
//! back behind the marker line of `rpy3_genc::cases`.
//!
//! When the functions of a file cannot share one program (one of them is
//! not RPython), each function gets an executable of its own, so the error
//! stays with that function's cases.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rpy3_genc::cases::MARKER;

use crate::compare::Outcome;

/// How long one case may run.
const CASE_TIMEOUT: Duration = Duration::from_secs(120);

/// One executable and the case numbers it knows.
struct Exe {
    path: PathBuf,
    /// Case index in the file -> case number in the executable.
    numbers: HashMap<usize, usize>,
}

/// The executables of one case file.
pub struct CFile {
    _dir: tempfile::TempDir,
    exes: Vec<Result<Exe, String>>,
    /// Case index -> executable.
    of_case: HashMap<usize, usize>,
}

/// A function and the cases (index, arguments) calling it.
pub use rpy3_driver::c::FunctionCases as FuncCases;

impl CFile {
    /// Builds the executables for `funcs` for the compiled backend
    /// `backend` (C or native, with the `gc_stress` collector if asked).
    pub fn build(
        py: Python<'_>,
        funcs: &[FuncCases<'_>],
        backend: rpy3_driver::Backend,
    ) -> Result<CFile, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut file = CFile {
            _dir: dir,
            exes: Vec::new(),
            of_case: HashMap::new(),
        };
        let all: Vec<usize> = (0..funcs.len()).collect();
        let together = file.build_one(py, funcs, &all, backend, 0);
        if together.is_ok() || funcs.len() == 1 {
            file.add(funcs, &all, together);
        } else {
            for i in 0..funcs.len() {
                let r = file.build_one(py, funcs, &[i], backend, i + 1);
                file.add(funcs, &[i], r);
            }
        }
        Ok(file)
    }

    fn add(&mut self, funcs: &[FuncCases<'_>], which: &[usize], exe: Result<Exe, String>) {
        let k = self.exes.len();
        for &i in which {
            for (case, _) in &funcs[i].cases {
                self.of_case.insert(*case, k);
            }
        }
        self.exes.push(exe);
    }

    fn build_one(
        &self,
        py: Python<'_>,
        funcs: &[FuncCases<'_>],
        which: &[usize],
        backend: rpy3_driver::Backend,
        n: usize,
    ) -> Result<Exe, String> {
        let group: Vec<FuncCases<'_>> = which
            .iter()
            .map(|&i| FuncCases {
                func: funcs[i].func.clone(),
                cases: funcs[i].cases.clone(),
            })
            .collect();
        let path = self._dir.path().join(format!("cases{n}"));
        let mut build = rpy3_driver::c::Build::for_backend(backend);
        if let rpy3_driver::c::Build::C(opts) = &mut build {
            opts.cflags = extra_cflags();
        }
        let numbers = rpy3_driver::c::build_cases_with(py, &group, &path, &build)
            .map_err(|e| e.to_string())?;
        Ok(Exe { path, numbers })
    }

    /// Runs case `index` of the file.
    pub fn run(
        &self,
        py: Python<'_>,
        index: usize,
        func: &Bound<'_, PyAny>,
    ) -> Result<Outcome, String> {
        self.run_echoing(py, index, func, false)
    }

    /// Runs case `index` of the file; with `echo`, what the program
    /// printed before its outcome goes to this process's stdout.
    pub fn run_echoing(
        &self,
        py: Python<'_>,
        index: usize,
        func: &Bound<'_, PyAny>,
        echo: bool,
    ) -> Result<Outcome, String> {
        let k = *self.of_case.get(&index).ok_or("the case was not built")?;
        let exe = self.exes[k].as_ref().map_err(|e| e.clone())?;
        let number = exe.numbers[&index];
        let out = run_with_timeout(&exe.path, number)?;
        let marker = MARKER.as_bytes();
        let Some(at) = out.0.windows(marker.len()).rposition(|w| w == marker) else {
            return Err(format!(
                "the executable ended without an outcome (status {}): {}",
                out.1,
                String::from_utf8_lossy(&out.2).trim()
            ));
        };
        if echo {
            use std::io::Write;
            // the marker follows a newline of its own
            let _ = std::io::stdout().write_all(&out.0[..at.saturating_sub(1)]);
            let _ = std::io::stdout().flush();
        }
        let text = String::from_utf8_lossy(&out.0[at..]);
        let at = 0;
        let outcome = text[at + MARKER.len()..].trim_end();
        if let Some(name) = outcome.strip_prefix("E:") {
            let class = rpy3_driver::llinterp::find_class(py, func, name)
                .ok_or_else(|| format!("raised {name}, a class not found by name"))?;
            return Ok(Outcome::Raised {
                class,
                message: String::new(),
            });
        }
        let expr = outcome
            .strip_prefix("R:")
            .ok_or_else(|| format!("an unreadable outcome: {outcome}"))?;
        let globals = PyDict::new(py);
        let builtins = py.import("builtins").map_err(|e| e.to_string())?;
        for name in ["float", "chr", "bytes"] {
            globals
                .set_item(name, builtins.getattr(name).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?;
        }
        globals
            .set_item("__builtins__", PyDict::new(py))
            .map_err(|e| e.to_string())?;
        let code = std::ffi::CString::new(expr).map_err(|e| e.to_string())?;
        let v = py
            .eval(&code, Some(&globals), None)
            .map_err(|e| format!("an unreadable result {expr}: {e}"))?;
        Ok(Outcome::Value(v.unbind()))
    }
}

/// Runs `exe number`: stdout, status, stderr.
fn run_with_timeout(exe: &PathBuf, number: usize) -> Result<(Vec<u8>, String, Vec<u8>), String> {
    let mut child = Command::new(exe)
        .arg(number.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the executable: {e}"))?;
    let start = std::time::Instant::now();
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let out_thread = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut b);
        b
    });
    let err_thread = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut b);
        b
    });
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(s) => break s,
            None if start.elapsed() > CASE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the case ran longer than {CASE_TIMEOUT:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    };
    let out = out_thread.join().unwrap_or_default();
    let err = err_thread.join().unwrap_or_default();
    Ok((out, status.to_string(), err))
}

/// Extra flags for the C compiler from `$RPY3_CFLAGS` (the sanitizer
/// job of CI builds the cases with `-fsanitize=address,undefined`).
pub fn extra_cflags() -> Vec<String> {
    std::env::var("RPY3_CFLAGS")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}
