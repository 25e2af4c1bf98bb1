//! The compiled backends (`c`, `native` and their gc-stress builds) for
//! case files: every function of a case file is
//! translated into one program, compiled once into one executable that
//! runs any of the file's cases (its arguments are prebuilt data of the
//! executable), and each case runs as a child process whose outcome is read
//! back behind the marker line of `rpy3_genc::cases`
//! (`rpy3_driver::case_exe`).
//!
//! When the functions of a file cannot share one program (one of them is
//! not RPython), each function gets an executable of its own, so the error
//! stays with that function's cases.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use pyo3::prelude::*;
use rpy3_driver::case_exe;

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
        let run = case_exe::run_case(&exe.path, number, CASE_TIMEOUT)?;
        let read = case_exe::read_outcome(py, func, &run)?;
        if echo {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&read.printed);
            let _ = std::io::stdout().flush();
        }
        Ok(match read.outcome {
            rpy3_driver::llinterp::Outcome::Value(v) => Outcome::Value(v),
            rpy3_driver::llinterp::Outcome::Raised(class) => Outcome::Raised {
                class,
                message: String::new(),
            },
        })
    }
}

/// Extra flags for the C compiler from `$RPY3_CFLAGS` (the sanitizer
/// job of CI builds the cases with `-fsanitize=address,undefined`).
pub fn extra_cflags() -> Vec<String> {
    std::env::var("RPY3_CFLAGS")
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}
