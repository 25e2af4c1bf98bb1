//! Whole programs checked against CPython (running one on a backend is
//! the driver's program mode, `rpy3_driver::program`).
//!
//! A program file may say how to run it with lines `# rpy3-args: ARG...`
//! (one run each, words split like a shell's; none means one run without
//! arguments).  Checking a program runs CPython (`python3 -m
//! rpy3._program`) and `rpy3 run TARGET.py --backend B -- ARG...` as child
//! processes and compares their stdout, byte for byte, and exit status.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::record::{CaseRecord, Status};
use crate::{load, Backend};

/// How long one run of a program may take in a check.
const RUN_TIMEOUT: Duration = Duration::from_secs(600);

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

/// The argument lists of the gc-stress runs (`c-gcstress`,
/// `native-gcstress`): the `# rpy3-stress-args:`
/// lines (smaller inputs: that build collects at every allocation, so a
/// run costs the live data times the allocations), else the usual ones.
pub fn stress_runs(source: &str) -> Vec<Vec<String>> {
    let runs: Vec<Vec<String>> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# rpy3-stress-args:"))
        .map(split_words)
        .collect();
    if runs.is_empty() {
        program_runs(source)
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
    // an error of rpy3 is its first line (the source snippet, the calls
    // and the notes of the diagnostic follow it)
    if let Some(first) = text.lines().next().filter(|l| l.starts_with("rpy3:")) {
        return first.to_string();
    }
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
    // the compiled backends build the program once, then run it per line
    let build_dir = tempfile::tempdir();
    let mut compiled: HashMap<&'static str, Result<PathBuf, String>> = HashMap::new();
    for &b in backends.iter().filter(|b| b.is_compiled()) {
        let built = match &build_dir {
            Err(e) => Err(e.to_string()),
            Ok(dir) => {
                let out = dir.path().join(b.name());
                let mut cmd = Command::new(exe);
                cmd.arg("translate").arg(path).arg("-o").arg(&out).args([
                    "--opt",
                    "0",
                    "--recursion-limit",
                    "cpython",
                ]);
                if b.is_native() {
                    cmd.args(["--backend", "native"]);
                }
                if b.is_gc_stress() {
                    cmd.arg("--gc-stress");
                }
                match run_child(cmd) {
                    Ok(r) if r.status == Some(0) => Ok(out),
                    Ok(r) => Err(first_lines(&r.stderr)),
                    Err(e) => Err(e),
                }
            }
        };
        compiled.insert(b.name(), built);
    }
    let mut records = Vec::new();
    // (argument list, the backends running it)
    let mut runs: Vec<(Vec<String>, Vec<Backend>)> = Vec::new();
    let stress = stress_runs(&source);
    for (list, stressed) in [(program_runs(&source), false), (stress, true)] {
        for args in list {
            for &b in backends {
                if b.is_gc_stress() != stressed {
                    continue;
                }
                match runs.iter_mut().find(|(a, _)| *a == args) {
                    Some((_, bs)) => bs.push(b),
                    None => runs.push((args.clone(), vec![b])),
                }
            }
        }
    }
    for (args, backends) in runs {
        let backends = backends.as_slice();
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
            let cmd = match compiled.get(b.name()) {
                Some(Err(e)) => {
                    records.push(record(&args_repr, b, Status::Error, e.clone()));
                    continue;
                }
                Some(Ok(program)) => {
                    // argv[0] is the target as given, as under CPython
                    use std::os::unix::process::CommandExt;
                    let mut cmd = Command::new(program);
                    cmd.arg0(path).args(&args);
                    cmd
                }
                None => {
                    let mut cmd = Command::new(exe);
                    cmd.arg("run")
                        .arg(path)
                        .arg("--backend")
                        .arg(b.name())
                        .arg("--")
                        .args(&args);
                    cmd
                }
            };
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
