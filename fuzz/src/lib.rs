//! Differential fuzzing (issue 12): random RPython programs, valid by
//! construction (`gen`), rendered in the corpus case format (`render`),
//! run by the testsuite's harness on CPython and each selected stage and
//! backend (results, exceptions and printed output compared); every
//! disagreement is shrunk over the typed program (`shrink`) and written
//! out as a reproducer case file.

pub mod ast;
pub mod gen;
pub mod lowlevel;
pub mod render;
pub mod shrink;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rpy3_testsuite::{check_paths_with, Backend, CaseRecord, CheckOptions, Status};

use crate::ast::Program;

/// What a fuzzing run does.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// Stop starting new batches after this long.
    pub time_limit: Duration,
    /// Stop after this many programs, if given.
    pub max_programs: Option<u64>,
    /// The run's seed: program `i` is generated from `(seed, i)`.
    pub seed: u64,
    /// The stages and backends compared with CPython.
    pub backends: Vec<Backend>,
    /// Where reproducers are written (none written when `None`).
    pub out: Option<PathBuf>,
    /// `(k, n)`: this run takes the programs `i` with `i % n == k`.
    pub shard: (u64, u64),
    /// Programs per case file (the C backend compiles once per file).
    pub batch: usize,
    /// Candidates tried when shrinking one disagreement.
    pub shrink_tries: usize,
    /// Time spent shrinking one disagreement at most.
    pub shrink_time: Duration,
}

impl Default for FuzzOptions {
    fn default() -> FuzzOptions {
        FuzzOptions {
            time_limit: Duration::from_secs(60),
            max_programs: None,
            seed: 0,
            backends: vec![Backend::Flow, Backend::Annotate, Backend::Llinterp],
            out: None,
            shard: (0, 1),
            batch: 8,
            shrink_tries: 400,
            shrink_time: Duration::from_secs(60),
        }
    }
}

/// One disagreement between CPython and a backend.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub seed: u64,
    /// The program's index in the run.
    pub index: u64,
    pub backend: String,
    pub status: Status,
    /// The harness's detail on the shrunk program.
    pub detail: String,
    /// The shrunk reproducer (a case file).
    pub source: String,
    /// Where it was written.
    pub path: Option<PathBuf>,
    /// False when an earlier disagreement of the same kind was shrunk
    /// already (this one is kept unshrunk).
    pub shrunk: bool,
}

/// The outcome of a run.
#[derive(Debug, Default)]
pub struct FuzzReport {
    pub programs: u64,
    pub elapsed: Duration,
    pub disagreements: Vec<Disagreement>,
}

impl FuzzReport {
    /// Programs per second.
    pub fn rate(&self) -> f64 {
        self.programs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The kind of a failure, to tell whether a shrunk candidate still fails
/// the same way and to shrink each kind once: the status and the
/// detail's first words, numbers and quoted text left out.
fn kind(r: &CaseRecord) -> String {
    let mut out = String::new();
    let mut quoted = false;
    // no file names or function names: they differ between the batch
    // and the shrunk candidates
    let detail: Vec<&str> = r
        .detail
        .split_whitespace()
        .filter(|w| {
            let generated_name = w
                .trim_start_matches(['(', '\''])
                .strip_prefix('p')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
            !w.contains('/') && !w.contains("function") && !generated_name
        })
        .collect();
    for c in detail.join(" ").chars().take(200) {
        if c == '\'' || c == '"' {
            quoted = !quoted;
            continue;
        }
        if quoted || c.is_ascii_digit() {
            continue;
        }
        out.push(c);
    }
    let words: Vec<&str> = out.split_whitespace().take(12).collect();
    format!("{}/{}: {}", r.backend, r.status.as_str(), words.join(" "))
}

/// The program index named by a record (`p{index}_...`).
fn index_of(function: &str) -> Option<u64> {
    function.strip_prefix('p')?.split('_').next()?.parse().ok()
}

struct Workdir {
    dir: tempfile::TempDir,
    count: u64,
}

impl Workdir {
    /// Writes `source` to a fresh file (fresh names: an import never
    /// sees a stale cached module).
    fn write(&mut self, source: &str) -> std::io::Result<PathBuf> {
        self.count += 1;
        let path = self.dir.path().join(format!("fuzz_case_{}.py", self.count));
        std::fs::write(&path, source)?;
        Ok(path)
    }
}

fn check(work: &mut Workdir, source: &str, backends: &[Backend]) -> Vec<CaseRecord> {
    let path = match work.write(source) {
        Ok(p) => p,
        Err(_) => return Vec::new(),
    };
    let records = check_paths_with(
        std::slice::from_ref(&path),
        backends,
        CheckOptions {
            compare_output: true,
        },
    );
    let _ = std::fs::remove_file(&path);
    records
}

/// The case file of one program.
pub fn reproducer(p: &Program, doc: &str) -> String {
    render::case_file(doc, &[p])
}

/// Whether program `p` disagrees on `backend` in the way `want`
/// describes; the failing record if so.
fn disagrees(work: &mut Workdir, p: &Program, backend: Backend, want: &str) -> Option<CaseRecord> {
    let source = reproducer(p, "candidate");
    check(work, &source, &[backend])
        .into_iter()
        .find(|r| r.failed() && kind(r) == want)
}

/// Runs the fuzzer; `log` receives one line per event.
pub fn run(options: &FuzzOptions, mut log: impl FnMut(&str)) -> FuzzReport {
    let start = Instant::now();
    let mut report = FuzzReport::default();
    let mut work = match tempfile::Builder::new().prefix("rpy3-fuzz").tempdir() {
        Ok(dir) => Workdir { dir, count: 0 },
        Err(e) => {
            log(&format!("cannot create a work directory: {e}"));
            return report;
        }
    };
    let (k, n) = options.shard;
    let mut next: u64 = 0;
    let mut shrunk_kinds: BTreeMap<String, PathBuf> = BTreeMap::new();
    while start.elapsed() < options.time_limit
        && options.max_programs.is_none_or(|m| report.programs < m)
    {
        let mut programs = Vec::new();
        while programs.len() < options.batch.max(1)
            && options
                .max_programs
                .is_none_or(|m| report.programs + (programs.len() as u64) < m)
        {
            programs.push(gen::program(options.seed, next * n + k));
            next += 1;
        }
        let refs: Vec<&Program> = programs.iter().collect();
        let source = render::case_file("fuzz batch", &refs);
        let records = check(&mut work, &source, &options.backends);
        report.programs += programs.len() as u64;
        // the first failing record of each program and backend
        let mut failing: BTreeMap<(u64, String), CaseRecord> = BTreeMap::new();
        let mut file_level = Vec::new();
        for r in records.into_iter().filter(|r| r.failed()) {
            match index_of(&r.function) {
                Some(i) => {
                    failing.entry((i, r.backend.clone())).or_insert(r);
                }
                None => file_level.push(r),
            }
        }
        if !file_level.is_empty() {
            // a batch-wide error: check each program on its own
            for p in &programs {
                let index = index_of(&p.main.name).unwrap_or(0);
                for r in check(&mut work, &reproducer(p, "one"), &options.backends) {
                    if r.failed() {
                        failing.entry((index, r.backend.clone())).or_insert(r);
                    }
                }
            }
        }
        for ((index, backend_name), record) in failing {
            let Some(p) = programs
                .iter()
                .find(|p| index_of(&p.main.name) == Some(index))
            else {
                continue;
            };
            let Some(backend) = Backend::from_name(&backend_name) else {
                continue;
            };
            let want = kind(&record);
            log(&format!(
                "program {index} (seed {}) disagrees on {backend_name}: {}",
                options.seed,
                first_line(&record.detail)
            ));
            // one shrink per kind, whichever backend shows it (a front-end
            // bug shows on every backend after it)
            let key = want
                .split_once('/')
                .map_or(want.clone(), |(_, rest)| rest.to_string());
            let already = shrunk_kinds.contains_key(&key);
            let (small, detail) = if already {
                (p.clone(), record.detail.clone())
            } else {
                let small = shrink::shrink(
                    p.clone(),
                    |c| disagrees(&mut work, c, backend, &want).is_some(),
                    options.shrink_tries,
                    Some(Instant::now() + options.shrink_time),
                );
                let detail = disagrees(&mut work, &small, backend, &want)
                    .map(|r| r.detail)
                    .unwrap_or(record.detail.clone());
                (small, detail)
            };
            let doc = format!(
                "Found by `rpy3 fuzz --seed {}` (program {index}) on {backend_name}:\n{} {}\n",
                options.seed,
                record.status.as_str(),
                first_line(&detail)
            );
            let source = reproducer(&small, &doc.replace('\\', "\\\\"));
            let path = options.out.as_ref().and_then(|dir| {
                let path = dir.join(format!(
                    "fuzz_{}_{index}_{}.py",
                    options.seed,
                    backend_name.replace('-', "_")
                ));
                std::fs::create_dir_all(dir).ok()?;
                std::fs::write(&path, &source).ok()?;
                Some(path)
            });
            match (&path, already) {
                (Some(path), false) => log(&format!("  shrunk to {}", path.display())),
                (Some(path), true) => log(&format!(
                    "  same kind as {} (kept unshrunk in {})",
                    shrunk_kinds[&key].display(),
                    path.display()
                )),
                _ => {}
            }
            if !already {
                shrunk_kinds.insert(key, path.clone().unwrap_or_default());
            }
            report.disagreements.push(Disagreement {
                seed: options.seed,
                index,
                backend: backend_name,
                status: record.status,
                detail,
                source,
                path,
                shrunk: !already,
            });
        }
    }
    report.elapsed = start.elapsed();
    report
}

fn first_line(s: &str) -> &str {
    let line = s.lines().next().unwrap_or("");
    match line.char_indices().nth(300) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

/// The failing records of program `p` run alone on `backends` (what the
/// cargo-fuzz target checks of each input's program).
pub fn failures(p: &Program, backends: &[Backend]) -> Vec<CaseRecord> {
    let Ok(dir) = tempfile::Builder::new().prefix("rpy3-fuzz").tempdir() else {
        return Vec::new();
    };
    let mut work = Workdir { dir, count: 0 };
    check(&mut work, &reproducer(p, "one"), backends)
        .into_iter()
        .filter(|r| r.failed())
        .collect()
}

/// The source of program `index` of a run with `seed`, alone in a case
/// file (to look at what the fuzzer runs).
pub fn program_source(seed: u64, index: u64) -> String {
    reproducer(
        &gen::program(seed, index),
        &format!("program {index} of seed {seed}"),
    )
}
