//! The `rpy3` command line: `check`, `run`, `show` and `translate`.
//!
//! Usage errors (unknown options or backends, missing files) print one
//! line on stderr and exit with status 2; `check` exits with 1 when a case
//! failed and `run` when the program raised.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use pyo3::prelude::*;
use rpy3_driver::{llinterp, load, Backend, DriverError, EntryArgs, Options, Phase, Translation};
use rpy3_flowspace::interp::{is_internal_error, Interp};
use rpy3_model::print::{graph_to_dot, graph_to_text};
use rpy3_pyext::_native;
use rpy3_testsuite::{check_paths, records_to_json, with_big_stack};

const USAGE: &str = "\
usage: rpy3 check PATH... [--backend flow|annotate|llinterp|c|native|all] [--json OUT]
       rpy3 run FILE.py FUNC [ARG...] [--backend flow|llinterp|c|native] [--timings]
       rpy3 run TARGET.py [--backend flow|llinterp|c|native] [--timings] [-- ARG...]
       rpy3 show FILE.py FUNC [ARG...] [--stage flow|annotate|rtype] [--dot]
       rpy3 translate TARGET.py [--backend c|native] [-o OUT] [--opt 0|2|none|speed] [--gc-stress]
                      [--keep-c DIR] [--emit clif DIR] [--recursion-limit N|cpython]
       rpy3 fuzz [--seconds N] [--seed S] [--backends flow,annotate,llinterp,c] [--out DIR]
                 [--shard K/N] [--programs N] [--batch N] [--show INDEX]";

/// A usage error: one line on stderr, exit status 2.
struct Usage(String);

type CmdResult = Result<ExitCode, Usage>;

/// Command-line words split into positional words and `--name value`
/// options (values may also be attached as `--name=value`).  Negative
/// numbers are positional: only words starting with `--` (and `-o`) are
/// options; after `--` every word is positional.
struct Parsed {
    positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
    /// How many positional words came before `--`, if it was given.
    before_dashdash: Option<usize>,
}

fn parse(words: &[String], valued: &[&str], flags: &[&str]) -> Result<Parsed, Usage> {
    let mut positional = Vec::new();
    let mut options = Vec::new();
    let mut it = words.iter();
    let mut only_positional = false;
    let mut before_dashdash = None;
    while let Some(w) = it.next() {
        if only_positional {
            positional.push(w.clone());
            continue;
        }
        if w == "--" {
            only_positional = true;
            before_dashdash = Some(positional.len());
            continue;
        }
        if !(w.starts_with("--") || w == "-o") {
            positional.push(w.clone());
            continue;
        }
        let (name, attached) = match w.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (w.clone(), None),
        };
        if valued.contains(&name.as_str()) {
            let value = match attached {
                Some(v) => v,
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| Usage(format!("option {name} needs a value")))?,
            };
            options.push((name, Some(value)));
        } else if flags.contains(&name.as_str()) && attached.is_none() {
            options.push((name, None));
        } else {
            return Err(Usage(format!("unknown option '{w}'")));
        }
    }
    Ok(Parsed {
        positional,
        options,
        before_dashdash,
    })
}

impl Parsed {
    fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }
}

fn main() -> ExitCode {
    // programs run by the binary can `import rpy3` and call interpret()
    pyo3::append_to_inittab!(_native);
    // `check` runs programs on each backend as `rpy3 run` child processes
    if let Ok(exe) = std::env::current_exe() {
        rpy3_testsuite::program::set_rpy3_executable(exe);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "check" => cmd_check(rest),
        "run" => cmd_run(rest),
        "show" => cmd_show(rest),
        "translate" => cmd_translate(rest),
        "fuzz" => cmd_fuzz(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        other => Err(Usage(format!(
            "unknown command '{other}' (expected check, run, show, translate or fuzz)"
        ))),
    };
    match result {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("rpy3: {msg}");
            ExitCode::from(2)
        }
    }
}

fn number<T: std::str::FromStr>(p: &Parsed, name: &str) -> Result<Option<T>, Usage> {
    p.value(name)
        .map(|v| {
            v.parse()
                .map_err(|_| Usage(format!("{name} needs a number, not '{v}'")))
        })
        .transpose()
}

/// `--backends a,b,c`: each a backend `check` knows (so a new backend is
/// fuzzed as soon as `Backend` names it).
fn parse_backends(list: &str) -> Result<Vec<Backend>, Usage> {
    list.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            Backend::from_name(w).ok_or_else(|| {
                let known: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                Usage(format!(
                    "unknown backend '{w}' (expected some of {}, c-gcstress)",
                    known.join(", ")
                ))
            })
        })
        .collect()
}

fn cmd_fuzz(words: &[String]) -> CmdResult {
    let p = parse(
        words,
        &[
            "--seconds",
            "--seed",
            "--backends",
            "--out",
            "--shard",
            "--programs",
            "--batch",
            "--show",
        ],
        &[],
    )?;
    if let Some(w) = p.positional.first() {
        return Err(Usage(format!("fuzz takes no positional argument ('{w}')")));
    }
    let mut options = rpy3_fuzz::FuzzOptions::default();
    if let Some(s) = number::<f64>(&p, "--seconds")? {
        options.time_limit = std::time::Duration::from_secs_f64(s.max(0.0));
    }
    options.seed = number(&p, "--seed")?.unwrap_or(0);
    if let Some(list) = p.value("--backends") {
        options.backends = parse_backends(list)?;
    }
    options.out = p.value("--out").map(PathBuf::from);
    options.max_programs = number(&p, "--programs")?;
    if let Some(b) = number(&p, "--batch")? {
        options.batch = b;
    }
    if let Some(shard) = p.value("--shard") {
        let bad = || Usage(format!("--shard needs K/N with K < N, not '{shard}'"));
        let (k, n) = shard.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if n == 0 || k >= n {
            return Err(bad());
        }
        options.shard = (k, n);
    }
    if let Some(index) = number::<u64>(&p, "--show")? {
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

fn cmd_check(words: &[String]) -> CmdResult {
    let p = parse(words, &["--backend", "--json"], &[])?;
    if p.positional.is_empty() {
        return Err(Usage("check needs at least one PATH".into()));
    }
    let backends =
        Backend::parse_selection(p.value("--backend").unwrap_or("flow")).map_err(Usage)?;
    let paths: Vec<PathBuf> = p.positional.iter().map(PathBuf::from).collect();
    for path in &paths {
        if !path.exists() {
            return Err(Usage(format!(
                "no such file or directory: {}",
                path.display()
            )));
        }
    }
    let records = check_paths(&paths, &backends);
    let failed = records.iter().filter(|r| r.failed()).count();
    for r in records.iter().filter(|r| r.failed()) {
        println!("{}", r.summary_line());
    }
    if let Some(out) = p.value("--json") {
        if let Err(e) = std::fs::write(out, records_to_json(&records)) {
            eprintln!("rpy3: cannot write {out}: {e}");
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

/// Imports `file` as a fresh module and finds `func` (a dotted path such
/// as `Class.method` is allowed).
/// A missing function is a usage error; a file that fails to import is
/// the program's error.
fn load_function<'py>(
    py: Python<'py>,
    file: &Path,
    func: &str,
) -> Result<Bound<'py, PyAny>, LoadError> {
    load::prepare_sys_path(py, file)
        .map_err(|e| LoadError::Program(load::exception_line(py, &e)))?;
    let name = load::fresh_module_name(file, "main");
    let module = load::import_instance(py, file, &name).map_err(|e| {
        LoadError::Program(format!(
            "cannot import {}: {}",
            file.display(),
            load::exception_line(py, &e)
        ))
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

enum LoadError {
    Usage(Usage),
    Program(String),
}

fn check_file_arg(p: &Parsed, what: &str) -> Result<(PathBuf, String, Vec<String>), Usage> {
    if p.positional.len() < 2 {
        return Err(Usage(format!("{what} needs FILE.py and FUNC")));
    }
    let file = PathBuf::from(&p.positional[0]);
    if !file.is_file() {
        return Err(Usage(format!("no such file: {}", file.display())));
    }
    Ok((file, p.positional[1].clone(), p.positional[2..].to_vec()))
}

/// What `run FILE FUNC` prints for a backend's outcome: `repr()` of the
/// value, or which exception `func` raised; errors of rpy3 as they are.
fn result_text(
    py: Python<'_>,
    func: &str,
    outcome: Result<Result<Py<PyAny>, Py<pyo3::types::PyType>>, String>,
) -> Result<String, String> {
    match outcome? {
        Ok(v) => v
            .bind(py)
            .repr()
            .map(|r| r.to_string())
            .map_err(|e| e.to_string()),
        Err(class) => {
            let name = class
                .bind(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            Err(format!("{func} raised {name}"))
        }
    }
}

/// Prints how long each translation phase took, on stderr.
fn print_timings(timings: &[(Phase, std::time::Duration)]) {
    for (phase, d) in timings {
        eprintln!("rpy3: {phase}: {:.1} ms", d.as_secs_f64() * 1000.0);
    }
}

fn cmd_run(words: &[String]) -> CmdResult {
    let p = parse(words, &["--backend"], &["--timings"])?;
    let timings = p.flag("--timings");
    let backend = p.value("--backend").unwrap_or("flow");
    match backend {
        "flow" | "annotate" | "llinterp" | "c" | "c-gcstress" | "native" | "native-gcstress" => {}
        other => {
            return Err(Usage(format!(
                "unknown backend '{other}' for run (expected flow, annotate, llinterp, c, c-gcstress, native or native-gcstress)"
            )))
        }
    }
    let before = p.before_dashdash.unwrap_or(p.positional.len());
    if before == 1 {
        // no FUNC: run the program's entry point
        let file = PathBuf::from(&p.positional[0]);
        if !file.is_file() {
            return Err(Usage(format!("no such file: {}", file.display())));
        }
        let backend = Backend::from_name(backend)
            .ok_or_else(|| Usage(format!("backend '{backend}' cannot run programs")))?;
        return run_program(&file, &p.positional, backend, timings);
    }
    let (file, func, args) = check_file_arg(&p, "run")?;
    let outcome = with_big_stack(|| {
        Python::attach(|py| -> Result<Result<String, String>, Usage> {
            let literal_eval = py
                .import("ast")
                .and_then(|m| m.getattr("literal_eval"))
                .map_err(|e| Usage(e.to_string()))?;
            let mut values = Vec::new();
            for a in &args {
                let v = literal_eval
                    .call1((a,))
                    .map_err(|_| Usage(format!("argument '{a}' is not a Python literal")))?;
                values.push(v);
            }
            let f = match load_function(py, &file, &func) {
                Ok(f) => f,
                Err(LoadError::Usage(u)) => return Err(u),
                Err(LoadError::Program(msg)) => return Ok(Err(msg)),
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
                    });
                return Ok(result_text(py, &func, outcome));
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
                    .map_err(|e| e.to_string());
                return Ok(result_text(py, &func, outcome));
            }
            let mut interp = match Interp::new(py) {
                Ok(i) => i,
                Err(e) => return Ok(Err(format!("internal error: {e}"))),
            };
            Ok(match interp.call(py, &f, &values) {
                Ok(v) => v
                    .bind(py)
                    .repr()
                    .map(|r| r.to_string())
                    .map_err(|e| e.to_string()),
                Err(e) if is_internal_error(py, &e) => Err(e.value(py).to_string()),
                Err(e) => Err(format!("{func} raised {}", load::exception_line(py, &e))),
            })
        })
    });
    match outcome {
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
        Ok(Err(usage)) => Err(usage),
        Ok(Ok(Ok(repr))) => {
            println!("{repr}");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Ok(Err(msg))) => {
            eprintln!("rpy3: {msg}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `rpy3 run TARGET.py [-- ARG...]`: the program's stdout, stderr and
/// exit status are the command's; `argv` is `[TARGET.py, ARG...]`.
fn run_program(file: &Path, argv: &[String], backend: Backend, timings: bool) -> CmdResult {
    let outcome = with_big_stack(|| {
        Python::attach(|py| {
            let mut translation = Translation::for_program(py, file)?;
            let status = rpy3_driver::program::run_entry_point(py, &mut translation, argv, backend);
            if timings {
                print_timings(translation.timings());
            }
            status
        })
    });
    match outcome {
        Ok(Ok(status)) => Ok(ExitCode::from(status.clamp(0, 255) as u8)),
        Ok(Err(e)) if e.is_usage() => Err(Usage(e.to_string())),
        Ok(Err(e)) => {
            eprintln!("rpy3: {e}");
            Ok(ExitCode::FAILURE)
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn cmd_show(words: &[String]) -> CmdResult {
    let p = parse(words, &["--stage"], &["--dot"])?;
    let stage = p.value("--stage").unwrap_or("flow");
    match stage {
        "flow" | "annotate" | "rtype" => {}
        other => {
            return Err(Usage(format!(
                "unknown stage '{other}' (expected flow, annotate or rtype)"
            )))
        }
    }
    let (file, func, args) = check_file_arg(&p, "show")?;
    let dot = p.flag("--dot");
    let shown = with_big_stack(|| {
        Python::attach(|py| -> Result<String, LoadError> {
            let f = load_function(py, &file, &func)?;
            if stage == "annotate" || stage == "rtype" {
                return show_annotated(py, &f, &args, dot, stage == "rtype");
            }
            let mut interp =
                Interp::new(py).map_err(|e| LoadError::Program(format!("internal error: {e}")))?;
            let graph = interp
                .graph_of(py, &f)
                .map_err(|e| LoadError::Program(e.value(py).to_string()))?;
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
        Ok(Err(LoadError::Program(msg))) => {
            eprintln!("rpy3: {msg}");
            Ok(ExitCode::FAILURE)
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            Ok(ExitCode::FAILURE)
        }
    }
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
    let literal_eval = py
        .import("ast")
        .and_then(|m| m.getattr("literal_eval"))
        .map_err(|e| LoadError::Program(e.to_string()))?;
    let mut values = Vec::new();
    for a in args {
        let v = literal_eval.call1((a.as_str(),)).map_err(|_| {
            LoadError::Usage(Usage(format!("argument '{a}' is not a Python literal")))
        })?;
        values.push(v.unbind());
    }
    // the annotations of the values themselves (a positive int is
    // non-negative), constness dropped
    let entry_args = EntryArgs::Custom(Box::new(move |py, ann| {
        values
            .iter()
            .map(|v| Ok(ann.immutablevalue(py, v.bind(py))?.without_const()))
            .collect()
    }));
    // the graphs are shown even when ill-typed (the verifier's complaint
    // follows them)
    let verify = Options::default().verify;
    let mut translation =
        Translation::new(f.clone().unbind(), entry_args, Options { verify: false });
    let program_error = |e: DriverError| match e {
        DriverError::Argument(e) | DriverError::Annotate(e) => LoadError::Program(e.to_string()),
        DriverError::Rtype(e) => LoadError::Program(e.to_string()),
        other => LoadError::Program(other.to_string()),
    };
    if rtype {
        // the low-level graphs, each variable with its low-level type
        let program = translation.rtyped(py).map_err(program_error)?;
        let mut out = String::new();
        let mut order: Vec<usize> = (0..program.functions.len()).collect();
        order.sort_by_key(|&i| (i != program.entry, program.functions[i].name.clone()));
        for i in order {
            let g = &program.functions[i].graph;
            if dot {
                out.push_str(&graph_to_dot(py, g));
                continue;
            }
            let note = |v: rpy3_model::VarId| g.vars[v].concretetype.map(|t| t.to_string());
            out.push_str(&rpy3_model::print::graph_to_text_with(py, g, &note));
            out.push('\n');
        }
        if verify {
            if let Err(error) = rpy3_model::llverify::verify_program(py, program) {
                print!("{out}");
                let e = DriverError::IllTyped {
                    after: "rtype",
                    error,
                };
                return Err(LoadError::Program(e.to_string()));
            }
        }
        return Ok(out);
    }
    translation.annotate(py).map_err(program_error)?;
    let ann = translation.annotator().expect("annotated");
    let entry = translation.entry_graph().expect("annotated");
    let mut order: Vec<rpy3_annotator::GraphId> = ann.graphs.keys().collect();
    order.sort_by_key(|&g| (g != entry, ann.graphs[g].graph.name.clone()));
    let mut out = String::new();
    for g in order {
        let ag = &ann.graphs[g];
        if dot {
            out.push_str(&graph_to_dot(py, &ag.graph));
            if g == entry {
                break;
            }
            continue;
        }
        let note = |v: rpy3_model::VarId| ag.bindings[v].as_ref().map(|s| ann.canonical(s));
        out.push_str(&rpy3_model::print::graph_to_text_with(py, &ag.graph, &note));
        out.push('\n');
    }
    Ok(out)
}

fn cmd_translate(words: &[String]) -> CmdResult {
    // `--emit clif DIR` takes two words
    let mut words = words.to_vec();
    let mut emit_clif = None;
    if let Some(i) = words.iter().position(|w| w == "--emit") {
        match (words.get(i + 1).map(String::as_str), words.get(i + 2)) {
            (Some("clif"), Some(dir)) => {
                emit_clif = Some(PathBuf::from(dir));
                words.drain(i..i + 3);
            }
            _ => return Err(Usage("--emit takes 'clif DIR'".into())),
        }
    }
    let p = parse(
        &words,
        &["--backend", "-o", "--keep-c", "--opt", "--recursion-limit"],
        &["--gc-stress"],
    )?;
    let backend = p.value("--backend").unwrap_or("c");
    if backend != "c" && backend != "native" {
        return Err(Usage(format!(
            "unknown backend '{backend}' for translate (expected c or native)"
        )));
    }
    let native = backend == "native";
    if emit_clif.is_some() && !native {
        return Err(Usage("--emit clif needs --backend native".into()));
    }
    let [target] = p.positional.as_slice() else {
        return Err(Usage("translate needs exactly one TARGET.py".into()));
    };
    let file = PathBuf::from(target);
    if !file.exists() {
        return Err(Usage(format!("no such file: {}", file.display())));
    }
    let out = match p.value("-o") {
        Some(o) => PathBuf::from(o),
        None => PathBuf::from(
            file.file_stem()
                .map_or("a.out".into(), |s| s.to_os_string()),
        ),
    };
    let opts = rpy3_genc::BuildOptions {
        optimize: match p.value("--opt").unwrap_or("2") {
            "0" | "none" => false,
            "2" | "speed" => true,
            other => {
                return Err(Usage(format!(
                    "--opt takes 0, 2, none or speed, not '{other}'"
                )))
            }
        },
        gc_stress: p.flag("--gc-stress"),
        keep_dir: p.value("--keep-c").map(PathBuf::from),
        ..Default::default()
    };
    let limit = p.value("--recursion-limit").map(String::from);
    if let Some(l) = &limit {
        if l != "cpython" && l.parse::<u32>().is_err() {
            return Err(Usage(format!(
                "--recursion-limit takes a number or 'cpython', not '{l}'"
            )));
        }
    }
    let result = with_big_stack(move || {
        Python::attach(|py| -> Result<Vec<(String, f64)>, DriverError> {
            // (after the import: the program may change the limit)
            let mut t = Translation::for_program(py, &file)?;
            let mut opts = opts;
            let limit = match limit.as_deref() {
                Some("cpython") => rpy3_driver::c::recursion_limit(py),
                Some(n) => n.parse::<usize>().ok(),
                None => None,
            };
            let built = if native {
                let nopts = rpy3_native::NativeOptions {
                    optimize: opts.optimize,
                    gc_stress: opts.gc_stress,
                    recursion_limit: limit,
                    emit_clif,
                    keep_dir: opts.keep_dir.clone(),
                };
                t.compile_native(py, &out, &nopts)
            } else {
                if let Some(n) = limit {
                    opts.cflags.push(format!("-DRPY_RECURSION_LIMIT={n}"));
                }
                t.compile_c(py, &out, &opts)
            };
            let times = t
                .timings()
                .iter()
                .map(|(p, d)| (p.to_string(), d.as_secs_f64()))
                .collect();
            built.map(|()| times)
        })
    });
    match result {
        Ok(Ok(times)) => {
            for (phase, secs) in times {
                println!("[translate] {phase:<36} {secs:8.3} s");
            }
            Ok(ExitCode::SUCCESS)
        }
        Ok(Err(e)) => {
            eprintln!("rpy3: {e}");
            Ok(ExitCode::from(if e.is_usage() { 2 } else { 1 }))
        }
        Err(e) => {
            eprintln!("rpy3: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
