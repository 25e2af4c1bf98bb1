//! The low-level graph fuzzer: random well-typed low-level tests
//! (`gen`), lowered straight to an `LlProgram` (`lower`, no front end),
//! verified by `llverify`, run by the llinterp (the oracle) and by the
//! compiled backends — a batch of tests shares one C executable and one
//! native executable, one case per run — and compared.  A disagreement is
//! shrunk over the test's statements while it persists and written out as
//! pseudo-code with the graphs and both outcomes.

pub mod gen;
pub mod lower;

use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyTuple};
use rpy3_driver::c::{build_ll_cases, Build};
use rpy3_genc::cases::{CaseCall, MARKER};
use rpy3_llinterp::{LlInterp, LlOutcome};
use rpy3_model::lltype::LlValue;
use rpy3_model::program::LlProgram;

use self::gen::Test;
use self::lower::Case;

/// A compiled backend the llinterp is compared with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LlBackend {
    C,
    Native,
    /// C with a collection at every allocation.
    CGcStress,
    /// Native with a collection at every allocation.
    NativeGcStress,
}

impl LlBackend {
    /// The default selection.
    pub const ALL: &'static [LlBackend] = &[LlBackend::C, LlBackend::Native];

    pub fn name(self) -> &'static str {
        self.driver_backend().name()
    }

    pub fn from_name(name: &str) -> Option<LlBackend> {
        [
            LlBackend::C,
            LlBackend::Native,
            LlBackend::CGcStress,
            LlBackend::NativeGcStress,
        ]
        .into_iter()
        .find(|b| b.name() == name)
    }

    /// The driver's backend of the same name.
    pub fn driver_backend(self) -> rpy3_driver::Backend {
        match self {
            LlBackend::C => rpy3_driver::Backend::C,
            LlBackend::Native => rpy3_driver::Backend::Native,
            LlBackend::CGcStress => rpy3_driver::Backend::CGcStress,
            LlBackend::NativeGcStress => rpy3_driver::Backend::NativeGcStress,
        }
    }

    fn build(self) -> Build {
        Build::for_backend(self.driver_backend())
    }
}

/// What a low-level fuzzing run does.
#[derive(Clone, Debug)]
pub struct LlFuzzOptions {
    /// Stop starting new batches after this long.
    pub time_limit: Duration,
    /// Stop after this many tests, if given.
    pub max_tests: Option<u64>,
    /// Test `i` is generated from `(seed, i)`.
    pub seed: u64,
    pub backends: Vec<LlBackend>,
    /// Where reproducers are written.
    pub out: Option<PathBuf>,
    /// `(k, n)`: this run takes the tests `i` with `i % n == k`.
    pub shard: (u64, u64),
    /// Tests per executable.
    pub batch: usize,
    /// Candidates tried when shrinking one disagreement.
    pub shrink_tries: usize,
    /// Time spent shrinking one disagreement at most.
    pub shrink_time: Duration,
}

impl Default for LlFuzzOptions {
    fn default() -> LlFuzzOptions {
        LlFuzzOptions {
            time_limit: Duration::from_secs(60),
            max_tests: None,
            seed: 0,
            backends: LlBackend::ALL.to_vec(),
            out: None,
            shard: (0, 1),
            batch: 40,
            shrink_tries: 300,
            shrink_time: Duration::from_secs(120),
        }
    }
}

/// How one case ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The entry's result: its fields, floats by their bits (any NaN is
    /// `nan`).
    Value(String),
    /// An exception of this class escaped.
    Raised(String),
    /// The executor failed: an llinterp error, a compile error, a crash,
    /// a timeout.
    Failed(String),
}

impl Outcome {
    fn kind(&self) -> &'static str {
        match self {
            Outcome::Value(_) | Outcome::Raised(_) => "differs",
            Outcome::Failed(f) if f.starts_with("compile") => "compile",
            Outcome::Failed(_) => "crash",
        }
    }

    fn text(&self) -> String {
        match self {
            Outcome::Value(v) => format!("returned {v}"),
            Outcome::Raised(c) => format!("raised {c}"),
            Outcome::Failed(f) => format!("failed: {f}"),
        }
    }
}

/// One disagreement between the llinterp and a backend.
#[derive(Clone, Debug)]
pub struct LlDisagreement {
    pub seed: u64,
    pub index: u64,
    pub backend: String,
    /// The llinterp's outcome and the backend's, on the shrunk test.
    pub expected: String,
    pub got: String,
    /// The reproducer's text.
    pub text: String,
    pub path: Option<PathBuf>,
    /// Statements before and after shrinking.
    pub size: (usize, usize),
}

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct LlFuzzReport {
    pub tests: u64,
    pub cases: u64,
    pub elapsed: Duration,
    pub disagreements: Vec<LlDisagreement>,
}

impl LlFuzzReport {
    /// Tests per second.
    pub fn rate(&self) -> f64 {
        self.tests as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The text of a result struct's fields.
fn value_text(items: &[LlValue]) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|v| match v {
            LlValue::Int(i) => i.to_string(),
            LlValue::Float(x) => float_bits(*x),
            other => format!("{other:?}"),
        })
        .collect();
    format!("({})", parts.join(", "))
}

fn float_bits(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{}=0x{:016x}", gen::float_text(x), x.to_bits())
    }
}

/// Runs every case on the llinterp.
fn run_llinterp(py: Python<'_>, program: &LlProgram, cases: &[Case]) -> Vec<Outcome> {
    let mut interp = match LlInterp::new(py, program) {
        Ok(i) => i,
        Err(e) => return vec![Outcome::Failed(format!("llinterp load: {e}")); cases.len()],
    };
    let nfields = lower::result_fields().len();
    cases
        .iter()
        .map(|c| {
            interp.reset_heap();
            match interp.call(c.func, c.args.clone()) {
                Ok(LlValue::Ptr(Some(p))) => {
                    let items: Option<Vec<LlValue>> =
                        (0..nfields).map(|k| interp.read_slot(&p, k)).collect();
                    match items {
                        Some(items) => Outcome::Value(value_text(&items)),
                        None => Outcome::Failed("llinterp: an unreadable result".into()),
                    }
                }
                Ok(v) => Outcome::Failed(format!("llinterp: returned {v:?}")),
                Err(LlOutcome::Raised { class_name, .. }) => Outcome::Raised(class_name),
                Err(LlOutcome::Exit(s)) => Outcome::Failed(format!("llinterp: exit {s}")),
                Err(LlOutcome::Error(e)) => Outcome::Failed(format!("llinterp: {e}")),
            }
        })
        .collect()
}

const CASE_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `exe number`, killed after [`CASE_TIMEOUT`].
fn run_exe(exe: &Path, number: usize) -> Result<(String, String, String), String> {
    let mut child = Command::new(exe)
        .arg(number.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(s) => break s,
            None if start.elapsed() > CASE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("ran longer than {CASE_TIMEOUT:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(1)),
        }
    };
    Ok((
        out.join().unwrap_or_default(),
        status.to_string(),
        err.join().unwrap_or_default(),
    ))
}

/// The outcome a case executable printed.
fn parse_outcome(py: Python<'_>, stdout: &str) -> Result<Outcome, String> {
    let at = stdout.find(MARKER).ok_or("no outcome printed")?;
    let outcome = stdout[at + MARKER.len()..].trim_end();
    if let Some(name) = outcome.strip_prefix("E:") {
        return Ok(Outcome::Raised(name.to_string()));
    }
    let expr = outcome
        .strip_prefix("R:")
        .ok_or_else(|| format!("an unreadable outcome: {outcome}"))?;
    let globals = PyDict::new(py);
    let e = |e: PyErr| e.to_string();
    let builtins = py.import("builtins").map_err(e)?;
    globals
        .set_item("float", builtins.getattr("float").map_err(e)?)
        .map_err(e)?;
    globals
        .set_item("__builtins__", PyDict::new(py))
        .map_err(e)?;
    let code = std::ffi::CString::new(expr).map_err(|e| e.to_string())?;
    let v = py
        .eval(&code, Some(&globals), None)
        .map_err(|err| format!("an unreadable result {expr}: {err}"))?;
    let tuple = v
        .cast::<PyTuple>()
        .map_err(|_| format!("not a tuple: {expr}"))?;
    let mut items = Vec::new();
    for item in tuple.iter() {
        if item.is_instance_of::<PyFloat>() {
            items.push(LlValue::Float(item.extract::<f64>().map_err(e)?));
        } else if item.is_instance_of::<PyInt>() {
            items.push(LlValue::Int(item.extract::<i64>().map_err(e)?));
        } else {
            return Err(format!("an unexpected item in {expr}"));
        }
    }
    Ok(Outcome::Value(value_text(&items)))
}

/// Compiles `program` for `backend` and runs every case.
fn run_backend(
    py: Python<'_>,
    program: &LlProgram,
    cases: &[Case],
    backend: LlBackend,
    dir: &Path,
) -> Vec<Outcome> {
    let exe = dir.join(format!("lowlevel_{}", backend.name()));
    let calls = cases
        .iter()
        .map(|c| CaseCall {
            func: c.func,
            args: c.args.clone(),
        })
        .collect();
    if let Err(e) = build_ll_cases(py, program, calls, &exe, &backend.build()) {
        // the first line, and the compiler's first error if it gives one
        let text = e.to_string();
        let mut line = text.lines().next().unwrap_or("").to_string();
        if let Some(err) = text.lines().skip(1).find(|l| l.contains("error")) {
            line = format!("{line} {}", err.trim());
        }
        return vec![Outcome::Failed(format!("compile: {line}")); cases.len()];
    }
    let outcomes = (0..cases.len())
        .map(|k| match run_exe(&exe, k) {
            Err(e) => Outcome::Failed(e),
            Ok((stdout, status, stderr)) => match parse_outcome(py, &stdout) {
                Ok(o) => o,
                Err(e) => Outcome::Failed(format!(
                    "{e} (status {status}; stderr {})",
                    stderr.lines().next().unwrap_or("")
                )),
            },
        })
        .collect();
    let _ = std::fs::remove_file(&exe);
    outcomes
}

/// The disagreements of `tests` run together: (test, backend, case,
/// expected, got).  An `Err` is a test the generator got wrong (the
/// verifier rejects it).
type Found = (usize, LlBackend, usize, Outcome, Outcome);

fn check(
    py: Python<'_>,
    tests: &[Test],
    backends: &[LlBackend],
    dir: &Path,
) -> Result<(Vec<Found>, usize), String> {
    let (program, cases) = lower::build(py, tests)?;
    rpy3_model::llverify::verify_program(py, &program)
        .map_err(|e| format!("a generated graph is ill-typed: {e}"))?;
    let expected = run_llinterp(py, &program, &cases);
    let mut found = Vec::new();
    for &b in backends {
        let got = run_backend(py, &program, &cases, b, dir);
        if tests.len() > 1 && got.first().is_some_and(|g| g.kind() == "compile") {
            // one test breaks the build of all: find it by building each
            // alone
            for (ti, t) in tests.iter().enumerate() {
                let (alone, _) = check(py, std::slice::from_ref(t), &[b], dir)?;
                let first = cases.iter().position(|c| c.test == ti).unwrap_or(0);
                found.extend(
                    alone
                        .into_iter()
                        .map(|(_, b, k, e, g)| (ti, b, first + k, e, g)),
                );
            }
            continue;
        }
        for (k, (e, g)) in expected.iter().zip(got).enumerate() {
            if *e != g {
                found.push((cases[k].test, b, k, e.clone(), g));
            }
        }
    }
    Ok((found, cases.len()))
}

/// Every case of `tests` run together: the llinterp's outcome, then each
/// backend's.
pub fn outcomes(
    py: Python<'_>,
    tests: &[Test],
    backends: &[LlBackend],
) -> Result<Vec<(Outcome, Vec<Outcome>)>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (program, cases) = lower::build(py, tests)?;
    rpy3_model::llverify::verify_program(py, &program).map_err(|e| e.to_string())?;
    let expected = run_llinterp(py, &program, &cases);
    let got: Vec<Vec<Outcome>> = backends
        .iter()
        .map(|&b| run_backend(py, &program, &cases, b, dir.path()))
        .collect();
    Ok(expected
        .into_iter()
        .enumerate()
        .map(|(k, e)| (e, got.iter().map(|g| g[k].clone()).collect()))
        .collect())
}

/// Whether `t` alone still disagrees on `backend` in the way `kind` says.
fn still_disagrees(py: Python<'_>, t: &Test, backend: LlBackend, kind: &str, dir: &Path) -> bool {
    match check(py, std::slice::from_ref(t), &[backend], dir) {
        Ok((found, _)) => found.iter().any(|f| f.4.kind() == kind),
        Err(_) => false,
    }
}

/// Shrinks `t` while it still disagrees: the first edit that keeps the
/// disagreement is taken, and the edits of the result tried in turn.
pub fn shrink(
    t: Test,
    mut still: impl FnMut(&Test) -> bool,
    tries: usize,
    deadline: Option<Instant>,
) -> Test {
    let mut best = t;
    let mut left = tries;
    'outer: loop {
        for candidate in gen::edits(&best) {
            if left == 0 || deadline.is_some_and(|d| Instant::now() > d) {
                break 'outer;
            }
            left -= 1;
            if still(&candidate) {
                best = candidate;
                continue 'outer;
            }
        }
        break;
    }
    best
}

/// The reproducer of test `t`: its pseudo-code, the outcomes of its
/// cases and its low-level graphs.
pub fn reproducer(
    py: Python<'_>,
    header: &str,
    t: &Test,
    outcomes: &[(Outcome, Outcome)],
) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    out.push('\n');
    out.push_str(&gen::text(t));
    out.push('\n');
    for (k, (e, g)) in outcomes.iter().enumerate() {
        let _ = writeln!(out, "# case {k}: llinterp {}", e.text());
        let _ = writeln!(out, "#         backend  {}", g.text());
    }
    if let Ok((program, _)) = lower::build(py, std::slice::from_ref(t)) {
        out.push_str("\n# the low-level graphs\n");
        for f in &program.functions {
            let g = &f.graph;
            let text = rpy3_model::print::graph_to_text_with(py, g, &|v| {
                g.vars[v].concretetype.map(|t| t.to_string())
            });
            for line in text.lines() {
                let _ = writeln!(out, "# {line}");
            }
        }
    }
    out
}

/// The pseudo-code of test `index` of a run with `seed`.
pub fn test_source(seed: u64, index: u64) -> String {
    gen::text(&gen::test_for(seed, index))
}

/// Runs the low-level fuzzer; `log` receives one line per event.
pub fn run(options: &LlFuzzOptions, mut log: impl FnMut(&str)) -> LlFuzzReport {
    let start = Instant::now();
    let mut report = LlFuzzReport::default();
    let dir = match tempfile::Builder::new().prefix("rpy3-llfuzz").tempdir() {
        Ok(d) => d,
        Err(e) => {
            log(&format!("cannot create a work directory: {e}"));
            return report;
        }
    };
    let (k, n) = options.shard;
    let mut next: u64 = 0;
    let mut shrunk_kinds: BTreeSet<(String, String)> = BTreeSet::new();
    while start.elapsed() < options.time_limit && options.max_tests.is_none_or(|m| report.tests < m)
    {
        let mut indices = Vec::new();
        while indices.len() < options.batch.max(1)
            && options
                .max_tests
                .is_none_or(|m| report.tests + (indices.len() as u64) < m)
        {
            indices.push(next * n + k);
            next += 1;
        }
        let tests: Vec<Test> = indices
            .iter()
            .map(|&i| gen::test_for(options.seed, i))
            .collect();
        Python::attach(|py| {
            let found = match check(py, &tests, &options.backends, dir.path()) {
                Ok((found, ncases)) => {
                    report.cases += ncases as u64;
                    found
                }
                Err(e) => {
                    // a generator bug (or a verifier bug): reported as a
                    // disagreement, unshrunk
                    log(&format!(
                        "generator error in the batch from test {}: {e}",
                        indices[0]
                    ));
                    report.disagreements.push(LlDisagreement {
                        seed: options.seed,
                        index: indices[0],
                        backend: "llverify".into(),
                        expected: "a well-typed program".into(),
                        got: e,
                        text: String::new(),
                        path: None,
                        size: (0, 0),
                    });
                    Vec::new()
                }
            };
            report.tests += tests.len() as u64;
            let mut seen = BTreeSet::new();
            for (ti, backend, _case, expected, got) in found {
                if !seen.insert((ti, backend)) {
                    continue;
                }
                let index = indices[ti];
                log(&format!(
                    "test {index} (seed {}) disagrees on {}: llinterp {}, {} {}",
                    options.seed,
                    backend.name(),
                    expected.text(),
                    backend.name(),
                    got.text()
                ));
                let kind = got.kind();
                // one shrink per backend and kind of failure (a wrong
                // result: per pair of outcome classes)
                let what = |o: &Outcome| match o {
                    Outcome::Value(_) => "value".to_string(),
                    Outcome::Raised(c) => c.clone(),
                    Outcome::Failed(f) => f
                        .chars()
                        .filter(|c| !c.is_ascii_digit())
                        .take(120)
                        .collect(),
                };
                let key = (
                    backend.name().to_string(),
                    format!("{kind}/{}/{}", what(&expected), what(&got)),
                );
                let shrink_it = !shrunk_kinds.contains(&key);
                let before = gen::size(&tests[ti]);
                let small = if shrink_it {
                    shrunk_kinds.insert(key);
                    shrink(
                        tests[ti].clone(),
                        |c| still_disagrees(py, c, backend, kind, dir.path()),
                        options.shrink_tries,
                        Some(Instant::now() + options.shrink_time),
                    )
                } else {
                    tests[ti].clone()
                };
                let outcomes: Vec<(Outcome, Outcome)> =
                    match check(py, std::slice::from_ref(&small), &[backend], dir.path()) {
                        Ok((found, _)) => found.into_iter().map(|f| (f.3, f.4)).collect(),
                        Err(_) => Vec::new(),
                    };
                let (exp_text, got_text) = outcomes
                    .first()
                    .map(|(e, g)| (e.text(), g.text()))
                    .unwrap_or((expected.text(), got.text()));
                let header = format!(
                    "Found by `rpy3 fuzz --lowlevel --seed {}` (test {index}) on {}:\nllinterp {exp_text}\n{} {got_text}",
                    options.seed,
                    backend.name(),
                    backend.name()
                );
                let text = reproducer(py, &header, &small, &outcomes);
                let path = options.out.as_ref().and_then(|d| {
                    std::fs::create_dir_all(d).ok()?;
                    let p = d.join(format!(
                        "lowlevel_{}_{index}_{}.txt",
                        options.seed,
                        backend.name()
                    ));
                    std::fs::write(&p, &text).ok()?;
                    Some(p)
                });
                if let Some(p) = &path {
                    log(&format!(
                        "  {} statements shrunk to {}: {}",
                        before,
                        gen::size(&small),
                        p.display()
                    ));
                }
                report.disagreements.push(LlDisagreement {
                    seed: options.seed,
                    index,
                    backend: backend.name().to_string(),
                    expected: exp_text,
                    got: got_text,
                    text,
                    path,
                    size: (before, gen::size(&small)),
                });
            }
        });
    }
    report.elapsed = start.elapsed();
    report
}
