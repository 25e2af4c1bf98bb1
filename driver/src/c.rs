//! The compiled backends in the pipeline: the rtyped program through the
//! preparation passes of `rpy3-prep`, then `rpy3-genc` and the system
//! `cc`, or `rpy3-native` and a link, each a timed phase.  Two entry forms: a translation's entry
//! ([`Translation::compile_c`]: `entry_point(argv)` of a program) and the
//! functions of a case file sharing one executable ([`build_cases`]).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use rpy3_annotator::Annotator;
use rpy3_genc::cases::{py_to_ll, CaseCall};
use rpy3_genc::{BuildOptions, Entry};
use rpy3_model::lltype::{LlValue, TypeDef};
use rpy3_model::program::LlProgram;
use rpy3_native::NativeOptions;

use crate::{type_annotation, DriverError, Phase, Translation};

impl Translation {
    /// Compiles the translation's entry point (`entry_point(argv)`) into
    /// the executable `out`.
    pub fn compile_c(
        &mut self,
        py: Python<'_>,
        out: &Path,
        opts: &BuildOptions,
    ) -> Result<(), DriverError> {
        let program = self.prepared(py)?.clone();
        let verify = self.options().verify;
        let mut times = Vec::new();
        let result = compile(
            py,
            &program,
            &[],
            Entry::Program,
            out,
            &Build::C(opts.clone()),
            verify,
            &mut times,
        );
        for (phase, d) in times {
            self.record_timing(phase, d);
        }
        result
    }

    /// Compiles the translation's entry point with the native backend
    /// into the executable `out`.
    pub fn compile_native(
        &mut self,
        py: Python<'_>,
        out: &Path,
        opts: &NativeOptions,
    ) -> Result<(), DriverError> {
        let program = self.prepared(py)?.clone();
        let verify = self.options().verify;
        let mut times = Vec::new();
        let result = compile(
            py,
            &program,
            &[],
            Entry::Program,
            out,
            &Build::Native(opts.clone()),
            verify,
            &mut times,
        );
        for (phase, d) in times {
            self.record_timing(phase, d);
        }
        result
    }
}

/// How a compiled backend builds the executable.
#[derive(Clone, Debug)]
pub enum Build {
    /// genc and the system `cc`.
    C(BuildOptions),
    /// The native backend (Cranelift) and a link with `cc`.
    Native(NativeOptions),
}

impl Build {
    /// The build of backend `b` (a compiled one) for test runs: C at
    /// `-O0`; native at Cranelift's `speed` (as quick to build here, and
    /// the inlining it enables is then tested on every case).
    pub fn for_backend(b: crate::Backend) -> Build {
        if b.is_native() {
            Build::Native(NativeOptions {
                optimize: true,
                gc_stress: b.is_gc_stress(),
                ..Default::default()
            })
        } else {
            Build::C(BuildOptions {
                optimize: false,
                gc_stress: b.is_gc_stress(),
                ..Default::default()
            })
        }
    }
}

/// Prepares, generates and compiles `program`; each phase's duration goes
/// to `times`.
#[allow(clippy::too_many_arguments)]
fn compile(
    py: Python<'_>,
    program: &LlProgram,
    roots: &[LlValue],
    entry: Entry,
    out: &Path,
    build: &Build,
    verify: bool,
    times: &mut Vec<(Phase, Duration)>,
) -> Result<(), DriverError> {
    // the passes of `rpy3_prep::prepare`, one by one, each followed by the
    // verifier, so an ill-typed graph is reported at the pass that made it
    let t0 = Instant::now();
    let mut prog = program.clone();
    let calls = rpy3_prep::CallGraph::analyse(py, &prog).map_err(DriverError::Prepare);
    // "prepare": the call graph analysis and the database
    let analysis = t0.elapsed();
    let calls = calls.inspect_err(|_| times.push((Phase::Prepare, analysis)))?;
    for &(name, pass) in rpy3_prep::PASSES {
        let t0 = Instant::now();
        let done = pass(py, &mut prog, &calls).map_err(DriverError::Prepare);
        times.push((Phase::Transform(name), t0.elapsed()));
        done?;
        if verify {
            let t0 = Instant::now();
            let checked = rpy3_model::llverify::verify_program(py, &prog)
                .map_err(|error| DriverError::IllTyped { after: name, error });
            times.push((Phase::Verify(name), t0.elapsed()));
            checked?;
        }
    }
    let t0 = Instant::now();
    let db = rpy3_prep::Database::collect(py, &prog, roots).map_err(DriverError::Prepare);
    times.push((Phase::Prepare, analysis + t0.elapsed()));
    let prepared = rpy3_prep::Prepared {
        program: prog,
        db: db?,
        calls,
    };
    match build {
        Build::C(opts) => {
            let t0 = Instant::now();
            let source = rpy3_genc::generate(py, &prepared, &entry).map_err(DriverError::Genc);
            times.push((Phase::Genc, t0.elapsed()));
            let source = source?;
            let t0 = Instant::now();
            let built = rpy3_genc::build(&source, out, opts).map_err(DriverError::Genc);
            times.push((Phase::Cc, t0.elapsed()));
            built
        }
        Build::Native(opts) => {
            let t0 = Instant::now();
            let output =
                rpy3_native::generate(py, &prepared, &entry, opts).map_err(DriverError::Native);
            times.push((Phase::Native, t0.elapsed()));
            let output = output?;
            let t0 = Instant::now();
            let built = rpy3_native::link(&output, out, opts).map_err(DriverError::Native);
            times.push((Phase::Link, t0.elapsed()));
            built
        }
    }
}

/// CPython's recursion limit (`sys.getrecursionlimit()`), which the
/// compiled case runs keep as the llinterp does.
pub fn recursion_limit(py: Python<'_>) -> Option<usize> {
    py.import("sys")
        .and_then(|sys| {
            sys.getattr("getrecursionlimit")?
                .call0()?
                .extract::<usize>()
        })
        .ok()
}

/// The flag limiting the program's recursion as CPython limits the
/// reference run, as the llinterp does.
pub fn recursion_limit_flag(py: Python<'_>) -> Option<String> {
    recursion_limit(py).map(|n| format!("-DRPY_RECURSION_LIMIT={n}"))
}

/// A function of a case file and its cases: (case index, arguments).
pub struct FunctionCases<'py> {
    /// The function.
    pub func: Bound<'py, PyAny>,
    /// Its cases, all with arguments of the same types.
    pub cases: Vec<(usize, Vec<Bound<'py, PyAny>>)>,
}

/// Translates `funcs` into one program and compiles the executable `out`
/// running any of their cases; the case number (in the executable) of
/// each case index.
pub fn build_cases(
    py: Python<'_>,
    funcs: &[FunctionCases<'_>],
    out: &Path,
    opts: &BuildOptions,
) -> Result<HashMap<usize, usize>, DriverError> {
    build_cases_with(py, funcs, out, &Build::C(opts.clone()))
}

/// [`build_cases`] with either compiled backend.
pub fn build_cases_with(
    py: Python<'_>,
    funcs: &[FunctionCases<'_>],
    out: &Path,
    build: &Build,
) -> Result<HashMap<usize, usize>, DriverError> {
    let mut ann = Annotator::new();
    let mut graphs = Vec::new();
    for f in funcs {
        let first = f
            .cases
            .first()
            .ok_or_else(|| DriverError::Run("a function without cases".into()))?;
        let sargs = first
            .1
            .iter()
            .map(|a| type_annotation(&mut ann, py, a))
            .collect::<Result<Vec<_>, _>>()
            .map_err(DriverError::Argument)?;
        graphs.push(
            ann.annotate(py, &f.func, sargs)
                .map_err(DriverError::Annotate)?,
        );
    }
    let entry = *graphs
        .first()
        .ok_or_else(|| DriverError::Run("no functions to translate".into()))?;
    let (mut program, indices) =
        rpy3_rtyper::rtype_entries(py, &mut ann, entry, &graphs).map_err(DriverError::Rtype)?;
    let verify = crate::Options::default().verify;
    if verify {
        rpy3_model::llverify::verify_program(py, &program).map_err(|error| {
            DriverError::IllTyped {
                after: "rtype",
                error,
            }
        })?;
    }
    let mut calls = Vec::new();
    let mut numbers = HashMap::new();
    let mut roots = Vec::new();
    for (f, &index) in funcs.iter().zip(&indices) {
        let TypeDef::Func { args: params, .. } = program.functions[index].ty.def() else {
            return Err(DriverError::Run(
                "a case function of no function type".into(),
            ));
        };
        for (case, args) in &f.cases {
            if args.len() != params.len() {
                return Err(DriverError::Run(format!(
                    "the case passes {} arguments to a function of {}",
                    args.len(),
                    params.len()
                )));
            }
            let mut llargs = Vec::new();
            for (a, &t) in args.iter().zip(&params) {
                let v = py_to_ll(&mut program.heap, a, t).map_err(DriverError::Run)?;
                roots.push(v);
                llargs.push(v);
            }
            numbers.insert(*case, calls.len());
            calls.push(CaseCall {
                func: index,
                args: llargs,
            });
        }
    }
    let mut times = Vec::new();
    let mut build = build.clone();
    match &mut build {
        Build::C(opts) => opts.cflags.extend(recursion_limit_flag(py)),
        Build::Native(opts) => opts.recursion_limit = recursion_limit(py),
    }
    compile(
        py,
        &program,
        &roots,
        Entry::Cases(calls),
        out,
        &build,
        verify,
        &mut times,
    )?;
    Ok(numbers)
}

/// Compiles a low-level program made without a front end (the low-level
/// fuzzer's graphs) into the executable `out` running `calls`: the
/// preparation passes, each followed by the verifier, then genc and `cc`
/// or the native backend and a link, as for a case file.
pub fn build_ll_cases(
    py: Python<'_>,
    program: &LlProgram,
    calls: Vec<CaseCall>,
    out: &Path,
    build: &Build,
) -> Result<(), DriverError> {
    let roots: Vec<LlValue> = calls
        .iter()
        .flat_map(|c| c.args.iter().copied())
        .filter(|v| matches!(v, LlValue::Ptr(Some(_))))
        .collect();
    let mut times = Vec::new();
    compile(
        py,
        program,
        &roots,
        Entry::Cases(calls),
        out,
        build,
        true,
        &mut times,
    )
}
