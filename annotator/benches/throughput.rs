//! Annotation throughput on the benchmark programs: every `entry_point` of
//! `../shared/bench` is annotated from scratch several times (flow graphs
//! included, as a fresh translation would); prints blocks flowed per
//! second and graphs per run.
//!
//! `cargo bench -p rpy3-annotator --bench throughput`

use std::path::{Path, PathBuf};
use std::time::Instant;

use pyo3::prelude::*;
use rpy3_annotator::Annotator;

fn shared() -> PathBuf {
    if let Ok(dir) = std::env::var("RPY3_SHARED") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn main() {
    const RUNS: u32 = 20;
    let dir = shared().join("bench");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("bench directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    Python::attach(|py| {
        let sys = py.import("sys").expect("sys");
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path")
            .and_then(|p| p.call_method1("insert", (0, pkg.to_str().unwrap_or("."))))
            .expect("sys.path");
        println!(
            "{:<18} {:>7} {:>8} {:>14} {:>14} {:>16}",
            "program", "graphs", "blocks", "cold ms/run", "warm ms/run", "warm blocks/s"
        );
        for (i, f) in files.iter().enumerate() {
            let util = py.import("importlib.util").expect("importlib");
            let spec = util
                .call_method1(
                    "spec_from_file_location",
                    (format!("bench{i}"), f.to_str().unwrap_or("")),
                )
                .expect("spec");
            let module = util
                .call_method1("module_from_spec", (&spec,))
                .expect("module");
            spec.getattr("loader")
                .and_then(|l| l.call_method1("exec_module", (&module,)))
                .expect("import");
            let Ok(entry) = module.getattr("entry_point") else {
                continue;
            };
            let argv = pyo3::types::PyList::new(py, ["prog", "10"]).expect("argv");
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            // cold: flow graphs built as part of every run
            let start = Instant::now();
            let mut failed = None;
            let mut cache = None;
            for _ in 0..RUNS {
                let mut ann = Annotator::new();
                let s_argv = ann
                    .immutablevalue(py, &argv)
                    .expect("argv annotation")
                    .without_const();
                if let Err(e) = ann.annotate(py, &entry, vec![s_argv]) {
                    failed = Some(e.to_string());
                    break;
                }
                cache = Some(std::mem::take(&mut ann.cache));
            }
            let cold = start.elapsed().as_secs_f64();
            if let Some(e) = failed {
                println!("{name:<18} error: {}", e.lines().next().unwrap_or(""));
                continue;
            }
            // warm: the flow graphs are reused, only annotation is timed
            let mut cache = cache.expect("at least one run");
            let mut blocks = 0u64;
            let mut graphs = 0usize;
            let start = Instant::now();
            for _ in 0..RUNS {
                let mut ann = Annotator::new();
                ann.cache = std::mem::take(&mut cache);
                let s_argv = ann
                    .immutablevalue(py, &argv)
                    .expect("argv annotation")
                    .without_const();
                ann.annotate(py, &entry, vec![s_argv])
                    .expect("annotated once already");
                blocks += ann.blocks_flowed;
                graphs = ann.graphs.len();
                cache = std::mem::take(&mut ann.cache);
            }
            let warm = start.elapsed().as_secs_f64();
            println!(
                "{name:<18} {graphs:>7} {:>8} {:>14.2} {:>14.2} {:>16.0}",
                blocks / RUNS as u64,
                cold * 1000.0 / RUNS as f64,
                warm * 1000.0 / RUNS as f64,
                blocks as f64 / warm
            );
        }
    });
}
