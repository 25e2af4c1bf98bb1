//! Program mode: a target file's `entry_point(argv)` (or the one its
//! `target()` returns, the rules of `python/rpy3/_program.py`, shared with
//! the CPython reference) run on a backend with the process's own stdout,
//! stderr and exit status.

use std::path::Path;

use pyo3::prelude::*;
use pyo3::types::PyList;
use rpy3_flowspace::interp::{is_internal_error, Interp};
use rpy3_llinterp::LlOutcome;
use rpy3_model::lltype::LlValue;

use crate::annotated::Annotated;
use crate::{load, Backend, DriverError, Translation};

/// The `rpy3._program` module.
fn program_module(py: Python<'_>) -> Result<Bound<'_, PyModule>, DriverError> {
    load::add_to_sys_path(py, &load::python_package_dir())
        .map_err(|e| DriverError::Load(e.to_string()))?;
    py.import("rpy3._program")
        .map_err(|e| DriverError::Load(format!("cannot import rpy3._program: {e}")))
}

/// Imports `file` and finds its entry point.
pub fn load_entry_point<'py>(
    py: Python<'py>,
    file: &Path,
) -> Result<Bound<'py, PyAny>, DriverError> {
    let m = program_module(py)?;
    load::prepare_sys_path(py, file)
        .map_err(|e| DriverError::Load(load::exception_line(py, &e)))?;
    let name = load::fresh_module_name(file, "program");
    let module = load::import_instance(py, file, &name).map_err(|e| {
        DriverError::Load(format!(
            "cannot import {}: {}",
            file.display(),
            load::exception_line(py, &e)
        ))
    })?;
    match m
        .getattr("find_entry_point")
        .and_then(|f| f.call1((module,)))
    {
        // `sys.argv` reads the program's command line
        Ok(entry) => py
            .import("rpy3.stdlib.sysargv")
            .and_then(|m| m.getattr("program_entry")?.call1((entry,)))
            .map_err(|e| DriverError::Load(load::exception_line(py, &e))),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyLookupError>(py) => {
            Err(DriverError::NoEntryPoint(e.value(py).to_string()))
        }
        Err(e) => Err(DriverError::Load(format!(
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
/// result is the exit status (an escaping exception prints `Fatal error:
/// Name: message` on stderr and gives 1).
pub fn run_program(
    py: Python<'_>,
    file: &Path,
    argv: &[String],
    backend: Backend,
) -> Result<i32, DriverError> {
    let mut translation = Translation::for_program(py, file)?;
    run_entry_point(py, &mut translation, argv, backend)
}

/// Runs the entry point of `translation` (made by
/// [`Translation::for_program`]) as [`run_program`] does; the translation
/// keeps the timings of the phases that ran.
pub fn run_entry_point<'py>(
    py: Python<'py>,
    translation: &mut Translation,
    argv: &[String],
    backend: Backend,
) -> Result<i32, DriverError> {
    let m = program_module(py)?;
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
    let argv_list = || -> Result<Bound<'py, PyAny>, DriverError> {
        PyList::new(py, argv)
            .map(|l| l.into_any())
            .map_err(|e| DriverError::Run(e.to_string()))
    };
    match backend {
        Backend::Flow | Backend::Annotate => {
            let args = [argv_list()?];
            let (mut interp, mut annotated) = (None, None);
            if backend == Backend::Annotate {
                annotated = Some(Annotated::new(py, translation)?);
            } else {
                interp = Some(
                    Interp::new(py)
                        .map_err(|e| DriverError::Run(format!("internal error: {e}")))?,
                );
            }
            let interp = match (&mut interp, &mut annotated) {
                (Some(i), _) => i,
                (None, Some(a)) => &mut a.interp,
                (None, None) => unreachable!("one interpreter was made above"),
            };
            let result = interp.call(py, translation.entry(py), &args);
            if let Some(v) = annotated.as_mut().and_then(|a| a.take_violation()) {
                flush_python_streams(py);
                return Err(DriverError::Unsound(v));
            }
            let status = match result {
                Ok(v) => status_of(v.bind(py)),
                Err(e) if e.is_instance_of::<pyo3::exceptions::PySystemExit>(py) => {
                    system_exit_status(py, &e)
                }
                Err(e) if is_internal_error(py, &e) => {
                    flush_python_streams(py);
                    return Err(DriverError::Run(e.value(py).to_string()));
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
            let args = [argv_list()?];
            let backend = translation.llinterp(py)?;
            let outcome = backend.run(py, &args)?;
            Ok(match outcome {
                Ok(LlValue::Int(i)) => (i & 0xff) as i32,
                Ok(LlValue::Bool(b)) => b as i32,
                Ok(_) => 0,
                Err(LlOutcome::Exit(status)) => (status & 0xff) as i32,
                Err(LlOutcome::Raised {
                    class_name, evalue, ..
                }) => match backend.exception_message(py, &evalue) {
                    Some(m) => fatal(format!("Fatal error: {class_name}: {m}")),
                    None => fatal(format!("Fatal error: {class_name}")),
                },
                Err(LlOutcome::Error(e)) => return Err(DriverError::Llinterp(e)),
            })
        }
        Backend::C | Backend::CGcStress => {
            let dir = tempfile::tempdir().map_err(|e| DriverError::Run(e.to_string()))?;
            let exe = dir.path().join("program");
            let opts = rpy3_genc::BuildOptions {
                optimize: false,
                gc_stress: backend == Backend::CGcStress,
                cflags: crate::c::recursion_limit_flag(py).into_iter().collect(),
                ..Default::default()
            };
            translation.compile_c(py, &exe, &opts)?;
            run_executable(&exe, argv)
        }
        Backend::Native | Backend::NativeGcStress => {
            let dir = tempfile::tempdir().map_err(|e| DriverError::Run(e.to_string()))?;
            let exe = dir.path().join("program");
            let opts = rpy3_native::NativeOptions {
                optimize: true,
                gc_stress: backend == Backend::NativeGcStress,
                recursion_limit: crate::c::recursion_limit(py),
                ..Default::default()
            };
            translation.compile_native(py, &exe, &opts)?;
            run_executable(&exe, argv)
        }
    }
}

/// Runs a compiled program with `argv` (its first item the program's
/// argv[0]), the process's standard streams its own; its exit status.
pub fn run_executable(exe: &Path, argv: &[String]) -> Result<i32, DriverError> {
    use std::os::unix::process::CommandExt;
    let mut cmd = std::process::Command::new(exe);
    if let Some((first, rest)) = argv.split_first() {
        cmd.arg0(first).args(rest);
    }
    let status = cmd
        .status()
        .map_err(|e| DriverError::Run(format!("cannot run {}: {e}", exe.display())))?;
    match status.code() {
        Some(c) => Ok(c),
        None => Err(DriverError::Run(format!(
            "the compiled program was killed: {status}"
        ))),
    }
}
