//! `rpy3 translate`: the driver's phases one by one behind a progress
//! display, the intermediate forms `--emit` asks for, the timing table
//! (RPython's `[Timer]` summary) and `--run`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pyo3::prelude::*;
use rpy3_annotator::{Annotator, GraphId};
use rpy3_driver::{DriverError, Phase, Translation};
use rpy3_model::print::{graph_to_dot, graph_to_text, graph_to_text_with};
use rpy3_model::program::LlProgram;
use rpy3_testsuite::with_big_stack;

use crate::args::{EmitKind, RecursionLimit, TranslateArgs};
use crate::commands::{eprint_text, require_file};
use crate::{diagnostic, CmdResult, Usage};

/// The annotated graphs as text (the entry graph first, then by name),
/// each variable with its annotation; or DOT (of the entry graph only
/// when `dot_entry_only`).
pub fn annotated_text(
    py: Python<'_>,
    ann: &Annotator,
    entry: GraphId,
    dot: bool,
    dot_entry_only: bool,
) -> String {
    let mut out = String::new();
    for g in annotated_order(ann, entry) {
        let ag = &ann.graphs[g];
        if dot {
            out.push_str(&graph_to_dot(py, &ag.graph));
            if dot_entry_only {
                break;
            }
            continue;
        }
        let note = |v: rpy3_model::VarId| ag.bindings[v].as_ref().map(|s| ann.canonical(s));
        out.push_str(&graph_to_text_with(py, &ag.graph, &note));
        out.push('\n');
    }
    out
}

/// The annotator's graphs, the entry first, then by name.
fn annotated_order(ann: &Annotator, entry: GraphId) -> Vec<GraphId> {
    let mut order: Vec<GraphId> = ann.graphs.keys().collect();
    order.sort_by_key(|&g| (g != entry, ann.graphs[g].graph.name.clone()));
    order
}

/// The program's functions, the entry first, then by name.
fn lowlevel_order(program: &LlProgram) -> Vec<usize> {
    let mut order: Vec<usize> = (0..program.functions.len()).collect();
    order.sort_by_key(|&i| (i != program.entry, program.functions[i].name.clone()));
    order
}

/// The low-level graphs as text, each variable with its low-level type
/// (the entry first, then by name), or as DOT.
pub fn lowlevel_text(py: Python<'_>, program: &LlProgram, dot: bool) -> String {
    let mut out = String::new();
    for i in lowlevel_order(program) {
        out.push_str(&lowlevel_graph_text(py, program, i, dot));
    }
    out
}

fn lowlevel_graph_text(py: Python<'_>, program: &LlProgram, i: usize, dot: bool) -> String {
    let g = &program.functions[i].graph;
    if dot {
        return graph_to_dot(py, g);
    }
    let note = |v: rpy3_model::VarId| g.vars[v].concretetype.map(|t| t.to_string());
    let mut text = graph_to_text_with(py, g, &note);
    text.push('\n');
    text
}

/// A file name for the `index`th graph, named `name`: the index keeps
/// specialised copies of one function apart.
fn graph_file_name(index: usize, name: &str) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    format!("{index:04}_{clean}.txt")
}

/// Writes `files` (name, text) into `dir`, made if needed.
fn write_files(dir: &Path, files: Vec<(String, String)>) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let n = files.len();
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(n)
}

fn emit_annotated(
    py: Python<'_>,
    ann: &Annotator,
    entry: GraphId,
    dir: &Path,
    with_annotations: bool,
) -> Result<usize, String> {
    let files = annotated_order(ann, entry)
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            let ag = &ann.graphs[g];
            let text = if with_annotations {
                let note = |v: rpy3_model::VarId| ag.bindings[v].as_ref().map(|s| ann.canonical(s));
                graph_to_text_with(py, &ag.graph, &note)
            } else {
                graph_to_text(py, &ag.graph)
            };
            (graph_file_name(i, &ag.graph.name), text)
        })
        .collect();
    write_files(dir, files)
}

fn emit_lowlevel(py: Python<'_>, program: &LlProgram, dir: &Path) -> Result<usize, String> {
    let files = lowlevel_order(program)
        .into_iter()
        .enumerate()
        .map(|(n, i)| {
            (
                graph_file_name(n, &program.functions[i].name),
                lowlevel_graph_text(py, program, i, false),
            )
        })
        .collect();
    write_files(dir, files)
}

/// One spinner over the phases, on stderr, when it is a terminal and not
/// `--quiet`; nothing otherwise.
struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    fn new(show: bool, phases: u64) -> Progress {
        let bar = show.then(|| {
            let bar = ProgressBar::with_draw_target(Some(phases), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{spinner:.green} [{pos}/{len}] {msg:<24} {elapsed:>4} {wide_bar:.cyan/blue}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        Progress { bar }
    }

    /// A new phase begins.
    fn phase(&self, name: &str) {
        if let Some(bar) = &self.bar {
            if bar.message().is_empty() {
                bar.set_position(0);
            } else {
                bar.inc(1);
            }
            bar.reset_elapsed();
            bar.set_message(name.to_string());
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Graphs and blocks of a stage.
#[derive(Clone, Copy, Default)]
struct Counts {
    graphs: usize,
    blocks: usize,
}

/// What a successful translation reports.
struct Report {
    timings: Vec<(Phase, Duration)>,
    flow: Counts,
    lowlevel: Counts,
    emitted: Vec<(EmitKind, PathBuf, Option<usize>)>,
}

/// Why a translation stopped: the user's mistake, or the rendered error.
enum Failure {
    Usage(String),
    Error(String),
}

pub fn translate(a: TranslateArgs) -> CmdResult {
    require_file(&a.target)?;
    let emits = a.emits().map_err(Usage)?;
    let native = a.backend == "native";
    if !native && emits.iter().any(|(k, _)| *k == EmitKind::Clif) {
        return Err(Usage("--emit clif needs --backend native".into()));
    }
    let file = a.target.clone();
    let out = a.output.clone().unwrap_or_else(|| {
        PathBuf::from(
            file.file_stem()
                .map_or("a.out".into(), |s| s.to_os_string()),
        )
    });
    let optimize = matches!(a.opt.as_str(), "2" | "speed");
    let show = !a.quiet && std::io::stderr().is_terminal();
    let progress = Progress::new(show, 4);
    let limit = a.recursion_limit.clone();
    let gc_stress = a.gc_stress;
    let out_for_build = out.clone();
    let progress_ref = &progress;
    let result = with_big_stack(move || {
        let progress = progress_ref;
        Python::attach(|py| -> Result<Report, Failure> {
            let render = |e: DriverError, t: Option<&Translation>| {
                if e.is_usage() {
                    Failure::Usage(e.to_string())
                } else {
                    Failure::Error(match t {
                        Some(t) => diagnostic::render_driver_error(py, &e, t),
                        None => format!("rpy3: {e}"),
                    })
                }
            };
            progress.phase("load");
            let mut t = Translation::for_program(py, &file).map_err(|e| render(e, None))?;
            progress.phase("annotate");
            if let Err(e) = t.annotate(py) {
                return Err(render(e, Some(&t)));
            }
            let mut report = Report {
                timings: Vec::new(),
                flow: Counts::default(),
                lowlevel: Counts::default(),
                emitted: Vec::new(),
            };
            {
                let ann = t.annotator().expect("annotated");
                let entry = t.entry_graph().expect("annotated");
                report.flow = Counts {
                    graphs: ann.graphs.len(),
                    blocks: ann.graphs.values().map(|g| g.graph.blocks.len()).sum(),
                };
                for (kind, dir) in &emits {
                    let with_annotations = match kind {
                        EmitKind::Flow => false,
                        EmitKind::Annotate => true,
                        _ => continue,
                    };
                    let n = emit_annotated(py, ann, entry, dir, with_annotations)
                        .map_err(|m| Failure::Error(format!("rpy3: {m}")))?;
                    report.emitted.push((*kind, dir.clone(), Some(n)));
                }
            }
            progress.phase("rtype");
            let program = match t.rtyped(py) {
                Ok(p) => p.clone(),
                Err(e) => return Err(render(e, Some(&t))),
            };
            report.lowlevel = Counts {
                graphs: program.functions.len(),
                blocks: program.functions.iter().map(|f| f.graph.blocks.len()).sum(),
            };
            for (kind, dir) in &emits {
                if *kind == EmitKind::Rtype {
                    let n = emit_lowlevel(py, &program, dir)
                        .map_err(|m| Failure::Error(format!("rpy3: {m}")))?;
                    report.emitted.push((*kind, dir.clone(), Some(n)));
                }
            }
            progress.phase(if native {
                "prepare, native, link"
            } else {
                "prepare, genc, cc"
            });
            // (after the import: the program may change the limit)
            let limit = match limit {
                Some(RecursionLimit::Cpython) => rpy3_driver::c::recursion_limit(py),
                Some(RecursionLimit::Frames(n)) => Some(n),
                None => None,
            };
            let dir_of = |k: EmitKind| {
                emits
                    .iter()
                    .rev()
                    .find(|(kind, _)| *kind == k)
                    .map(|(_, d)| d.clone())
            };
            let keep_dir = dir_of(EmitKind::C);
            let emit_clif = dir_of(EmitKind::Clif);
            let built = if native {
                let nopts = rpy3_native::NativeOptions {
                    optimize,
                    gc_stress,
                    recursion_limit: limit,
                    emit_clif: emit_clif.clone(),
                    keep_dir: keep_dir.clone(),
                };
                t.compile_native(py, &out_for_build, &nopts)
            } else {
                let mut opts = rpy3_genc::BuildOptions {
                    optimize,
                    gc_stress,
                    keep_dir: keep_dir.clone(),
                    ..Default::default()
                };
                if let Some(n) = limit {
                    opts.cflags.push(format!("-DRPY_RECURSION_LIMIT={n}"));
                }
                t.compile_c(py, &out_for_build, &opts)
            };
            if let Err(e) = built {
                return Err(render(e, Some(&t)));
            }
            for (kind, dir) in [(EmitKind::C, keep_dir), (EmitKind::Clif, emit_clif)] {
                if let Some(dir) = dir {
                    report.emitted.push((kind, dir, None));
                }
            }
            report.timings = t.timings().to_vec();
            Ok(report)
        })
    });
    progress.finish();
    let report = match result {
        Ok(Ok(report)) => report,
        Ok(Err(Failure::Usage(msg))) => return Err(Usage(msg)),
        Ok(Err(Failure::Error(text))) => {
            eprint_text(&text);
            return Ok(ExitCode::FAILURE);
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if !a.quiet {
        eprint!("{}", timing_table(&report, &out));
    }
    match &a.run {
        Some(args) => run_executable(&out, args),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// A size in bytes as people read it.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut size = bytes as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit + 1 < UNITS.len() {
        size /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{size:.1} {}", UNITS[unit])
    }
}

/// RPython's `[Timer]` summary: each phase's time, the graphs and blocks
/// of the flow and low-level stages, the total, what was written.
fn timing_table(report: &Report, out: &Path) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "[Timer] {:<32} {:>9} {:>7} {:>7}\n",
        "phase", "time", "graphs", "blocks"
    ));
    let mut total = Duration::ZERO;
    for (phase, d) in &report.timings {
        total += *d;
        let counts = match phase {
            Phase::Annotate => Some(report.flow),
            Phase::Rtype => Some(report.lowlevel),
            _ => None,
        };
        let counts = counts.map_or(String::new(), |c| {
            format!(" {:>7} {:>7}", c.graphs, c.blocks)
        });
        s.push_str(&format!(
            "[Timer] {:<32} {:>7.3} s{counts}\n",
            phase.to_string(),
            d.as_secs_f64()
        ));
    }
    s.push_str(&format!("[Timer] {}\n", "-".repeat(59)));
    s.push_str(&format!(
        "[Timer] {:<32} {:>7.3} s\n",
        "total",
        total.as_secs_f64()
    ));
    for (kind, dir, n) in &report.emitted {
        let what = match kind {
            EmitKind::Flow => "flow graphs",
            EmitKind::Annotate => "annotated graphs",
            EmitKind::Rtype => "low-level graphs",
            EmitKind::C => "C sources",
            EmitKind::Clif => "Cranelift IR",
        };
        match n {
            Some(n) => s.push_str(&format!("rpy3: {n} {what} in {}\n", dir.display())),
            None => s.push_str(&format!("rpy3: {what} in {}\n", dir.display())),
        }
    }
    let size = std::fs::metadata(out)
        .map(|m| human_size(m.len()))
        .unwrap_or_else(|_| "size unknown".into());
    s.push_str(&format!("rpy3: wrote {} ({size})\n", out.display()));
    s
}

/// `--run`: the executable with `args`; its exit status is the command's
/// (128 + the signal's number when a signal killed it, as shells say).
fn run_executable(out: &Path, args: &[String]) -> CmdResult {
    // a bare name would be looked up on PATH
    let program = if out.components().count() == 1 {
        Path::new(".").join(out)
    } else {
        out.to_path_buf()
    };
    match std::process::Command::new(&program).args(args).status() {
        Ok(status) => {
            use std::os::unix::process::ExitStatusExt;
            let code = match (status.code(), status.signal()) {
                (Some(c), _) => c,
                (None, Some(sig)) => 128 + sig,
                (None, None) => 1,
            };
            Ok(ExitCode::from(code.clamp(0, 255) as u8))
        }
        Err(e) => {
            eprintln!("rpy3: cannot run {}: {e}", program.display());
            Ok(ExitCode::FAILURE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(0), "0 B");
        assert_eq!(human_size(1023), "1023 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(5 * 1024 * 1024), "5.0 MiB");
    }

    #[test]
    fn graph_files_are_numbered_and_clean() {
        assert_eq!(graph_file_name(3, "C.f<int>"), "0003_C.f_int_.txt");
    }

    #[test]
    fn the_table_lists_each_phase_and_the_total() {
        let report = Report {
            timings: vec![
                (Phase::Load, Duration::from_millis(10)),
                (Phase::Annotate, Duration::from_millis(250)),
                (Phase::Rtype, Duration::from_millis(500)),
                (Phase::Verify("rtype"), Duration::from_millis(40)),
            ],
            flow: Counts {
                graphs: 3,
                blocks: 17,
            },
            lowlevel: Counts {
                graphs: 12,
                blocks: 90,
            },
            emitted: vec![(EmitKind::Flow, PathBuf::from("d"), Some(3))],
        };
        let table = timing_table(&report, Path::new("/nonexistent/out"));
        expect_test::expect![[r#"
            [Timer] phase                                 time  graphs  blocks
            [Timer] load                               0.010 s
            [Timer] annotate                           0.250 s       3      17
            [Timer] rtype                              0.500 s      12      90
            [Timer] verify after rtype                 0.040 s
            [Timer] -----------------------------------------------------------
            [Timer] total                              0.800 s
            rpy3: 3 flow graphs in d
            rpy3: wrote /nonexistent/out (size unknown)
        "#]]
        .assert_eq(&table);
    }
}
