//! Running an executable built by [`crate::c::build_cases`] and reading
//! its outcome back: the executable prints what the program printed, then
//! the marker line of `rpy3_genc::cases` and either the result as a Python
//! expression (`R:...`) or the name of the exception class that escaped
//! (`E:Name`).  The test harness (`rpy3 check --backend c`) and the Python
//! package's compiled functions both read cases this way.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rpy3_genc::cases::MARKER;

use crate::llinterp::{find_class, Outcome};

/// What one run of a case executable gave.
pub struct CaseRun {
    /// Everything it wrote on stdout.
    pub stdout: Vec<u8>,
    /// Its exit status, as text.
    pub status: String,
    /// Everything it wrote on stderr.
    pub stderr: Vec<u8>,
}

/// Runs case `number` of the executable `exe`, killed after `timeout`.
pub fn run_case(exe: &Path, number: usize, timeout: Duration) -> Result<CaseRun, String> {
    let mut child = Command::new(exe)
        .arg(number.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the executable: {e}"))?;
    let start = Instant::now();
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    // read both pipes while the child runs, so neither can fill up
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
            None if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("the case ran longer than {timeout:?}"));
            }
            None => std::thread::sleep(Duration::from_millis(2)),
        }
    };
    Ok(CaseRun {
        stdout: out_thread.join().unwrap_or_default(),
        status: status.to_string(),
        stderr: err_thread.join().unwrap_or_default(),
    })
}

/// A case's outcome and what the program printed before it.
pub struct CaseOutcome {
    /// The program's own output.
    pub printed: Vec<u8>,
    /// The result, or the class of the exception that escaped (found by
    /// name among `func`'s globals, then the built-ins).
    pub outcome: Outcome,
}

/// Reads the outcome of `run`, a run of a case of function `func`.
pub fn read_outcome(
    py: Python<'_>,
    func: &Bound<'_, PyAny>,
    run: &CaseRun,
) -> Result<CaseOutcome, String> {
    let marker = MARKER.as_bytes();
    let Some(at) = run.stdout.windows(marker.len()).rposition(|w| w == marker) else {
        return Err(format!(
            "the executable ended without an outcome (status {}): {}",
            run.status,
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    };
    // the marker follows a newline of its own
    let printed = run.stdout[..at.saturating_sub(1)].to_vec();
    let text = String::from_utf8_lossy(&run.stdout[at + marker.len()..]);
    let outcome = text.trim_end();
    if let Some(name) = outcome.strip_prefix("E:") {
        let class = find_class(py, func, name)
            .ok_or_else(|| format!("raised {name}, a class not found by name"))?;
        return Ok(CaseOutcome {
            printed,
            outcome: Outcome::Raised(class),
        });
    }
    let expr = outcome
        .strip_prefix("R:")
        .ok_or_else(|| format!("an unreadable outcome: {outcome}"))?;
    let value = eval_result(py, expr)?;
    Ok(CaseOutcome {
        printed,
        outcome: Outcome::Value(value),
    })
}

/// Evaluates a result printed by a case executable: a Python expression
/// using no built-ins but `float`, `chr` and `bytes`.
fn eval_result(py: Python<'_>, expr: &str) -> Result<Py<PyAny>, String> {
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
    py.eval(&code, Some(&globals), None)
        .map(|v| v.unbind())
        .map_err(|e| format!("an unreadable result {expr}: {e}"))
}
