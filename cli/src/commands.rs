//! `check`, `run`, `show` and `fuzz`.

use std::path::Path;
use std::process::ExitCode;

use pyo3::prelude::*;
use rpy3_driver::{llinterp, load, Backend, DriverError, EntryArgs, Options, Phase, Translation};
use rpy3_flowspace::interp::{is_internal_error, Interp};
use rpy3_model::print::{graph_to_dot, graph_to_text};
use rpy3_testsuite::{check_paths, records_to_json, with_big_stack};

use crate::args::{CheckArgs, FuzzArgs, RunArgs, ShowArgs};
use crate::diagnostic;
use crate::{CmdResult, Usage};

pub fn fuzz(a: FuzzArgs) -> CmdResult {
    if a.lowlevel {
        return fuzz_lowlevel(a);
    }
    let mut options = rpy3_fuzz::FuzzOptions::default();
    if let Some(s) = a.seconds {
        options.time_limit = std::time::Duration::from_secs_f64(s);
    }
    options.seed = a.seed;
    if let Some(list) = a.backends {
        options.backends = list.0;
    }
    options.out = a.out;
    options.max_programs = a.programs;
    if let Some(b) = a.batch {
        options.batch = b;
    }
    if let Some(shard) = a.shard {
        options.shard = (shard.0, shard.1);
    }
    if let Some(index) = a.show {
        print!("{}", rpy3_fuzz::program_source(options.seed, index));
        return Ok(ExitCode::SUCCESS);
    }
    let report = rpy3_fuzz::run(&options, |line| println!("{line}"));
    let shrunk = report.disagreements.iter().filter(|d| d.shrunk).count();
    println!(
        "{} programs in {:.1} s ({:.2} programs/s), {} disagreements ({} kinds shrunk)",
        report.programs,
        report.elapsed.as_secs_f64(),
        report.rate(),
        report.disagreements.len(),
        shrunk
    );
    Ok(if report.disagreements.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `rpy3 fuzz --lowlevel`: random low-level graphs on the llinterp, C
/// and native.
fn fuzz_lowlevel(a: FuzzArgs) -> CmdResult {
    use rpy3_fuzz::lowlevel::{self, LlBackend, LlFuzzOptions};
    let mut options = LlFuzzOptions::default();
    if let Some(s) = a.seconds {
        options.time_limit = std::time::Duration::from_secs_f64(s);
    }
    options.seed = a.seed;
    if let Some(list) = a.backends {
        options.backends = Vec::new();
        for b in list.0 {
            match b {
                // the oracle: always run
                Backend::Llinterp => {}
                Backend::C => options.backends.push(LlBackend::C),
                Backend::Native => options.backends.push(LlBackend::Native),
                Backend::CGcStress => options.backends.push(LlBackend::CGcStress),
                Backend::NativeGcStress => options.backends.push(LlBackend::NativeGcStress),
                other => {
                    return Err(Usage(format!(
                        "--lowlevel compares the llinterp with c, native and their gcstress builds, not {}",
                        other.name()
                    )))
                }
            }
        }
    }
    options.out = a.out;
    options.max_tests = a.programs;
    if let Some(b) = a.batch {
        options.batch = b;
    }
    if let Some(shard) = a.shard {
        options.shard = (shard.0, shard.1);
    }
    if let Some(index) = a.show {
        print!("{}", lowlevel::test_source(options.seed, index));
        return Ok(ExitCode::SUCCESS);
    }
    let report = lowlevel::run(&options, |line| println!("{line}"));
    println!(
        "{} tests ({} cases) in {:.1} s ({:.2} tests/s), {} disagreements",
        report.tests,
        report.cases,
        report.elapsed.as_secs_f64(),
        report.rate(),
        report.disagreements.len(),
    );
    Ok(if report.disagreements.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A missing input file: a usage error.
pub fn require_file(path: &Path) -> Result<(), Usage> {
    if path.is_file() {
        Ok(())
    } else if path.exists() {
        Err(Usage(format!("not a file: {}", path.display())))
    } else {
        Err(Usage(format!("no such file: {}", path.display())))
    }
}

pub fn check(a: CheckArgs) -> CmdResult {
    for path in &a.paths {
        if !path.exists() {
            return Err(Usage(format!(
                "no such file or directory: {}",
                path.display()
            )));
        }
    }
    let records = check_paths(&a.paths, &a.backend.0);
    let failed = records.iter().filter(|r| r.failed()).count();
    for r in records.iter().filter(|r| r.failed()) {
        println!("{}", r.summary_line());
    }
    if let Some(out) = &a.json {
        if let Err(e) = std::fs::write(out, records_to_json(&records)) {
            eprintln!("rpy3: cannot write {}: {e}", out.display());
            return Ok(ExitCode::from(2));
        }
    }
    println!("{} passed, {} failed", records.len() - failed, failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Why a command could not go on: the user's mistake, or a failure of the
/// program (its text, printed on stderr as it is).
pub enum LoadError {
    Usage(Usage),
    Program(String),
}

/// `rpy3: MESSAGE`, the plain form of a failure.
pub(crate) fn plain(msg: impl std::fmt::Display) -> String {
    format!("rpy3: {msg}")
}

/// Imports `file` as a fresh module and finds `func` (a dotted path such
/// as `Class.method` is allowed).
/// A missing function is a usage error; a file that fails to import is
/// the program's error.
pub(crate) fn load_function<'py>(
    py: Python<'py>,
    file: &Path,
    func: &str,
) -> Result<Bound<'py, PyAny>, LoadError> {
    load::prepare_sys_path(py, file)
        .map_err(|e| LoadError::Program(plain(load::exception_line(py, &e))))?;
    let name = load::fresh_module_name(file, "main");
    let module = load::import_instance(py, file, &name).map_err(|e| {
        LoadError::Program(plain(format!(
            "cannot import {}: {}",
            file.display(),
            load::exception_line(py, &e)
        )))
    })?;
    let mut obj = module.into_any();
    for part in func.split('.') {
        obj = obj.getattr(part).map_err(|_| {
            LoadError::Usage(Usage(format!(
                "{} has no function '{func}'",
                file.display()
            )))
        })?;
    }
    Ok(obj)
}

/// The Python values of the literals `args`.
fn literals<'py>(py: Python<'py>, args: &[String]) -> Result<Vec<Bound<'py, PyAny>>, LoadError> {
    let literal_eval = py
        .import("ast")
        .and_then(|m| m.getattr("literal_eval"))
        .map_err(|e| LoadError::Program(plain(e)))?;
    args.iter()
        .map(|a| {
            literal_eval.call1((a,)).map_err(|_| {
                LoadError::Usage(Usage(format!("argument '{a}' is not a Python literal")))
            })
        })
        .collect()
}

/// What `run FILE FUNC` prints for a backend's outcome: `repr()` of the
/// value, or which exception `func` raised; errors of rpy3 as they are.
fn result_text(
    py: Python<'_>,
    func: &str,
    outcome: Result<Result<Py<PyAny>, Py<pyo3::types::PyType>>, String>,
) -> Result<String, String> {
    match outcome? {
        Ok(v) => v.bind(py).repr().map(|r| r.to_string()).map_err(plain),
        Err(class) => {
            let name = class
                .bind(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            Err(plain(format!("{func} raised {name}")))
        }
    }
}

/// Prints how long each translation phase took, on stderr.
pub fn print_timings(timings: &[(Phase, std::time::Duration)]) {
    for (phase, d) in timings {
        eprintln!("rpy3: {phase}: {:.1} ms", d.as_secs_f64() * 1000.0);
    }
}

pub fn run(a: RunArgs) -> CmdResult {
    require_file(&a.file)?;
    let backend = a.backend.as_str();
    let Some((func, first_args)) = a.func_args.split_first() else {
        // no FUNC: run the program's entry point
        let backend = Backend::from_name(backend)
            .ok_or_else(|| Usage(format!("backend '{backend}' cannot run programs")))?;
        let mut argv = vec![a.file.display().to_string()];
        argv.extend(a.argv.iter().cloned());
        return run_program(&a.file, &argv, backend, a.timings);
    };
    let mut args = first_args.to_vec();
    args.extend(a.argv.iter().cloned());
    let (file, timings) = (a.file.clone(), a.timings);
    let outcome = with_big_stack(|| {
        Python::attach(|py| -> Result<Result<String, String>, LoadError> {
            let values = literals(py, &args)?;
            let f = match load_function(py, &file, func) {
                Ok(f) => f,
                Err(LoadError::Program(msg)) => return Ok(Err(msg)),
                Err(usage) => return Err(usage),
            };
            if let Some(compiled) = Backend::from_name(backend).filter(|b| b.is_compiled()) {
                let funcs = [rpy3_testsuite::c_backend::FuncCases {
                    func: f.clone(),
                    cases: vec![(0, values.clone())],
                }];
                let outcome = rpy3_testsuite::c_backend::CFile::build(py, &funcs, compiled)
                    .and_then(|file| file.run_echoing(py, 0, &f, true))
                    .map(|o| match o {
                        rpy3_testsuite::Outcome::Value(v) => Ok(v),
                        rpy3_testsuite::Outcome::Raised { class, .. } => Err(class),
                    })
                    .map_err(plain);
                return Ok(result_text(py, func, outcome));
            }
            if backend == "llinterp" {
                let mut translation = Translation::for_function(&f, &values);
                let outcome = translation
                    .llinterp(py)
                    .and_then(|backend| backend.call(py, &f, &values));
                if timings {
                    print_timings(translation.timings());
                }
                let outcome = outcome
                    .map(|o| match o {
                        llinterp::Outcome::Value(v) => Ok(v),
                        llinterp::Outcome::Raised(class) => Err(class),
                    })
                    .map_err(|e| diagnostic::render_driver_error(py, &e, &translation));
                return Ok(result_text(py, func, outcome));
            }
            let mut interp = match Interp::new(py) {
                Ok(i) => i,
                Err(e) => return Ok(Err(plain(format!("internal error: {e}")))),
            };
            Ok(match interp.call(py, &f, &values) {
                Ok(v) => v.bind(py).repr().map(|r| r.to_string()).map_err(plain),
                Err(e) if is_internal_error(py, &e) => Err(plain(e.value(py))),
                Err(e) => Err(plain(format!(
                    "{func} raised {}",
                    load::exception_line(py, &e)
                ))),
            })
        })
    });
    match outcome {
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
        Ok(Err(LoadError::Usage(usage))) => Err(usage),
        Ok(Err(LoadError::Program(text))) | Ok(Ok(Err(text))) => {
            eprint_text(&text);
            Ok(ExitCode::FAILURE)
        }
        Ok(Ok(Ok(repr))) => {
            println!("{repr}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Prints `text` on stderr, ending with one newline.
pub fn eprint_text(text: &str) {
    eprintln!("{}", text.trim_end_matches('\n'));
}

/// `rpy3 run TARGET.py [-- ARG...]`: the program's stdout, stderr and
/// exit status are the command's; `argv` is `[TARGET.py, ARG...]`.
fn run_program(file: &Path, argv: &[String], backend: Backend, timings: bool) -> CmdResult {
    let outcome = with_big_stack(|| {
        Python::attach(|py| -> Result<i32, Result<String, DriverError>> {
            let mut translation = Translation::for_program(py, file).map_err(Err)?;
            let status = rpy3_driver::program::run_entry_point(py, &mut translation, argv, backend);
            if timings {
                print_timings(translation.timings());
            }
            status.map_err(|e| {
                if e.is_usage() {
                    Err(e)
                } else {
                    Ok(diagnostic::render_driver_error(py, &e, &translation))
                }
            })
        })
    });
    match outcome {
        Ok(Ok(status)) => Ok(ExitCode::from(status.clamp(0, 255) as u8)),
        Ok(Err(Err(e))) if e.is_usage() => Err(Usage(e.to_string())),
        Ok(Err(Err(e))) => {
            eprintln!("rpy3: {e}");
            Ok(ExitCode::FAILURE)
        }
        Ok(Err(Ok(text))) => {
            eprint_text(&text);
            Ok(ExitCode::FAILURE)
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
    }
}

pub fn show(a: ShowArgs) -> CmdResult {
    require_file(&a.file)?;
    let (file, func, args, dot, stage) = (a.file, a.func, a.args, a.dot, a.stage);
    let shown = with_big_stack(|| {
        Python::attach(|py| -> Result<String, LoadError> {
            let f = load_function(py, &file, &func)?;
            if stage == "annotate" || stage == "rtype" {
                return show_annotated(py, &f, &args, dot, stage == "rtype");
            }
            let mut interp = Interp::new(py)
                .map_err(|e| LoadError::Program(plain(format!("internal error: {e}"))))?;
            let graph = interp
                .graph_of(py, &f)
                .map_err(|e| LoadError::Program(plain(e.value(py))))?;
            Ok(if dot {
                graph_to_dot(py, &graph)
            } else {
                graph_to_text(py, &graph)
            })
        })
    });
    match shown {
        Ok(Ok(text)) => {
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Err(LoadError::Usage(u))) => Err(u),
        Ok(Err(LoadError::Program(text))) => {
            eprint_text(&text);
            Ok(ExitCode::FAILURE)
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The entry's arguments annotated as the values of the literals `args`
/// themselves (a positive int is non-negative), constness dropped.
pub(crate) fn literal_entry_args(py: Python<'_>, args: &[String]) -> Result<EntryArgs, LoadError> {
    let values: Vec<Py<PyAny>> = literals(py, args)?.into_iter().map(Bound::unbind).collect();
    Ok(EntryArgs::Custom(Box::new(move |py, ann| {
        values
            .iter()
            .map(|v| Ok(ann.immutablevalue(py, v.bind(py))?.without_const()))
            .collect()
    })))
}

/// Annotates `f` for arguments like the literals `args` and prints every
/// annotated graph (the entry graph first) with its annotations.
fn show_annotated(
    py: Python<'_>,
    f: &Bound<'_, PyAny>,
    args: &[String],
    dot: bool,
    rtype: bool,
) -> Result<String, LoadError> {
    let entry_args = literal_entry_args(py, args)?;
    // the graphs are shown even when ill-typed (the verifier's complaint
    // follows them)
    let verify = Options::default().verify;
    let mut translation =
        Translation::new(f.clone().unbind(), entry_args, Options { verify: false });
    if rtype {
        // the low-level graphs, each variable with its low-level type
        let program = match translation.rtyped(py) {
            Ok(p) => p.clone(),
            Err(e) => {
                let text = diagnostic::render_driver_error(py, &e, &translation);
                return Err(LoadError::Program(text));
            }
        };
        let out = crate::translate::lowlevel_text(py, &program, dot);
        if verify {
            if let Err(error) = rpy3_model::llverify::verify_program(py, &program) {
                print!("{out}");
                let e = DriverError::IllTyped {
                    after: "rtype",
                    error,
                };
                return Err(LoadError::Program(plain(e)));
            }
        }
        return Ok(out);
    }
    if let Err(e) = translation.annotate(py) {
        return Err(LoadError::Program(diagnostic::render_driver_error(
            py,
            &e,
            &translation,
        )));
    }
    let ann = translation.annotator().expect("annotated");
    let entry = translation.entry_graph().expect("annotated");
    Ok(crate::translate::annotated_text(py, ann, entry, dot, true))
}
