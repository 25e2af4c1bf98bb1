//! The command line, declared with clap's derive API: every subcommand,
//! its options and their help text.  Values that need checking beyond
//! clap's own (backend lists, `--shard K/N`, `--recursion-limit`) are
//! parsed here, so a bad one is a usage error like any other.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand};
use rpy3_driver::Backend;

/// PyPy's RPython toolchain for Python 3.11: flow graphs, annotation,
/// rtyping, the llinterp, and C and native executables.
#[derive(Debug, Parser)]
#[command(
    name = "rpy3",
    version,
    propagate_version = true,
    args_override_self = true,
    after_help = "Run 'rpy3 COMMAND --help' for the options of each command."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check case files and programs against CPython on some backends.
    ///
    /// A case file defines `CASES = [(func, [args]), ...]`; a program
    /// defines an entry point and `# rpy3-args:` lines naming its runs.
    /// Directories are searched for both.  The exit status is 1 when a
    /// case failed.
    #[command(args_override_self = true)]
    Check(CheckArgs),
    /// Run one function (printing repr() of its result) or a whole program.
    ///
    /// `rpy3 run FILE.py FUNC [ARG]...` calls FUNC with the Python literals
    /// ARG (negative numbers are arguments, not options) and prints repr()
    /// of the result.  `rpy3 run TARGET.py [-- ARG...]` runs the program's
    /// entry point with `argv = [TARGET.py, ARG...]`; its stdout, stderr
    /// and exit status are the command's.
    #[command(args_override_self = true)]
    Run(RunArgs),
    /// Print the graphs of a function at a stage (flow, annotate, rtype).
    #[command(args_override_self = true)]
    Show(ShowArgs),
    /// Write (or serve) a page showing the graphs of every function reached.
    ///
    /// `rpy3 view FILE.py FUNC [ARG]... -o OUT.html` translates FUNC for
    /// arguments like the literals ARG; without FUNC, the program's entry
    /// point.  The page is self-contained (no network): the flow,
    /// annotated and low-level graphs of each function, drawn as blocks
    /// and links, annotations and low-level types on hover, calls leading
    /// to their callees, a search over function names.  Its URL fragment
    /// `#fn=NAME&stage=flow|annotate|rtype` selects what it shows.  When a
    /// stage fails, the page shows what was made before the error and the
    /// exit status is 1.
    #[command(args_override_self = true)]
    View(ViewArgs),
    /// Translate a program into a standalone executable.
    ///
    /// Shows the phases as they run (on a terminal; not with --quiet),
    /// then a table of their times with graph and block counts, and the
    /// executable's path and size.
    #[command(args_override_self = true)]
    Translate(TranslateArgs),
    /// Differential fuzzing: random RPython programs on CPython and rpy3.
    ///
    /// Disagreements are shrunk and written as case files; the exit status
    /// is 1 when there were any.
    #[command(args_override_self = true)]
    Fuzz(FuzzArgs),
    /// Print a completion script for a shell.
    ///
    /// For example: `rpy3 completions bash > ~/.local/share/bash-completion/completions/rpy3`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// The backends `check` runs, from a `--backend` value.
#[derive(Clone, Debug)]
pub struct BackendSelection(pub Vec<Backend>);

fn backend_selection(s: &str) -> Result<BackendSelection, String> {
    Backend::parse_selection(s).map(BackendSelection)
}

/// `rpy3 check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Case files, programs, or directories holding them.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// flow, annotate, llinterp, c, c-gcstress, native, native-gcstress,
    /// or all (every implemented backend but the gc-stress builds).
    #[arg(long, value_name = "BACKEND", default_value = "flow", value_parser = backend_selection)]
    pub backend: BackendSelection,
    /// Write a JSON record per case and backend to OUT.
    #[arg(long, value_name = "OUT")]
    pub json: Option<PathBuf>,
}

/// The backends `run` accepts.
pub const RUN_BACKENDS: [&str; 7] = [
    "flow",
    "annotate",
    "llinterp",
    "c",
    "c-gcstress",
    "native",
    "native-gcstress",
];

/// `rpy3 run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The Python file.
    #[arg(value_name = "FILE.py")]
    pub file: PathBuf,
    /// The function to call and its arguments, Python literals.  Without
    /// FUNC the file is a program and its entry point runs.
    #[arg(value_name = "FUNC [ARG]", allow_negative_numbers = true)]
    pub func_args: Vec<String>,
    /// The stage or backend running it (a function: flow, llinterp, c,
    /// native and their gc-stress builds).
    #[arg(long, value_name = "BACKEND", default_value = "flow", value_parser = RUN_BACKENDS)]
    pub backend: String,
    /// Print how long each translation phase took, on stderr.
    #[arg(long)]
    pub timings: bool,
    /// The program's arguments (after `--`; with FUNC, more arguments of
    /// FUNC).
    #[arg(last = true, value_name = "ARG")]
    pub argv: Vec<String>,
}

/// `rpy3 show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The Python file.
    #[arg(value_name = "FILE.py")]
    pub file: PathBuf,
    /// The function (`Class.method` is allowed).
    #[arg(value_name = "FUNC")]
    pub func: String,
    /// Example arguments, Python literals: the annotate and rtype stages
    /// annotate FUNC for values like these.
    #[arg(value_name = "ARG", allow_negative_numbers = true)]
    pub args: Vec<String>,
    /// The graphs after flowing, after annotation (each variable with its
    /// annotation), or the low-level graphs (each variable with its type).
    #[arg(long, default_value = "flow", value_parser = ["flow", "annotate", "rtype"])]
    pub stage: String,
    /// Print Graphviz DOT instead of text.
    #[arg(long)]
    pub dot: bool,
}

/// `rpy3 view`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("destination").args(["output", "serve"]).required(true).multiple(true)))]
pub struct ViewArgs {
    /// The Python file.
    #[arg(value_name = "FILE.py")]
    pub file: PathBuf,
    /// The function (`Class.method` is allowed) and example arguments,
    /// Python literals.  Without FUNC the file is a program and its entry
    /// point is translated.
    #[arg(value_name = "FUNC [ARG]", allow_negative_numbers = true)]
    pub func_args: Vec<String>,
    /// The page to write.
    #[arg(short = 'o', long = "output", value_name = "OUT.html")]
    pub output: Option<PathBuf>,
    /// Serve the page on localhost (the URL is printed) until stopped.
    #[arg(long)]
    pub serve: bool,
    /// The port to serve on (0: any free port).
    #[arg(long, value_name = "N", default_value_t = 8000, requires = "serve")]
    pub port: u16,
}

/// An intermediate form `translate --emit` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EmitKind {
    /// The flow graphs of every function reached, one file each.
    Flow,
    /// The flow graphs with each variable's annotation.
    Annotate,
    /// The low-level graphs with each variable's low-level type.
    Rtype,
    /// The C sources given to the C compiler (with --backend native: the
    /// glue).
    C,
    /// Each function's Cranelift IR, before inlining (--backend native).
    Clif,
}

/// `--recursion-limit`: a number, or `cpython`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecursionLimit {
    /// This many of the program's frames.
    Frames(usize),
    /// The limit CPython has once the program is imported.
    Cpython,
}

fn recursion_limit(s: &str) -> Result<RecursionLimit, String> {
    if s == "cpython" {
        return Ok(RecursionLimit::Cpython);
    }
    s.parse()
        .map(RecursionLimit::Frames)
        .map_err(|_| "expected a number or 'cpython'".to_string())
}

/// `rpy3 translate`.
#[derive(Debug, Args)]
pub struct TranslateArgs {
    /// The program: a file defining `entry_point(argv)` or `target()`.
    #[arg(value_name = "TARGET.py")]
    pub target: PathBuf,
    /// The backend compiling it.
    #[arg(long, default_value = "c", value_parser = ["c", "native"])]
    pub backend: String,
    /// The executable to write (default: the target's name without .py).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Optimisation: 0/none (C -O0, Cranelift none) or 2/speed (C -O2,
    /// Cranelift speed with inlining of small functions).
    #[arg(long, default_value = "2", value_parser = ["0", "2", "none", "speed"])]
    pub opt: String,
    /// Build a collector that collects at every allocation.
    #[arg(long)]
    pub gc_stress: bool,
    /// Write an intermediate form into DIR (may be given several times).
    #[arg(long, num_args = 2, value_names = ["KIND", "DIR"], action = clap::ArgAction::Append)]
    pub emit: Vec<String>,
    /// Keep the generated C in DIR (the same as `--emit c DIR`).
    #[arg(long, value_name = "DIR")]
    pub keep_c: Option<PathBuf>,
    /// Raise RecursionError beyond N of the program's frames (`cpython`:
    /// the limit CPython has after importing the program).
    #[arg(long, value_name = "N|cpython", value_parser = recursion_limit)]
    pub recursion_limit: Option<RecursionLimit>,
    /// No progress display and no timing table.
    #[arg(short, long)]
    pub quiet: bool,
    /// Run the executable after translating it, with these arguments
    /// (everything after --run); the exit status is the program's.
    #[arg(long, value_name = "ARG", num_args = 0.., allow_hyphen_values = true)]
    pub run: Option<Vec<String>>,
}

impl TranslateArgs {
    /// The `--emit` pairs (and `--keep-c`), each kind checked.
    pub fn emits(&self) -> Result<Vec<(EmitKind, PathBuf)>, String> {
        use clap::ValueEnum;
        let mut out = Vec::new();
        for pair in self.emit.chunks(2) {
            let [kind, dir] = pair else {
                return Err("--emit takes KIND DIR".into());
            };
            let kind = EmitKind::from_str(kind, false).map_err(|_| {
                format!("--emit takes flow, annotate, rtype, c or clif, not '{kind}'")
            })?;
            out.push((kind, PathBuf::from(dir)));
        }
        if let Some(dir) = &self.keep_c {
            out.push((EmitKind::C, dir.clone()));
        }
        Ok(out)
    }
}

/// `--shard K/N`.
#[derive(Clone, Copy, Debug)]
pub struct Shard(pub u64, pub u64);

fn shard(s: &str) -> Result<Shard, String> {
    let bad = || "expected K/N with K < N".to_string();
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok(Shard(k, n))
}

/// `--backends a,b,c`: each a backend `check` knows (so a new backend is
/// fuzzed as soon as `Backend` names it).
fn backend_list(list: &str) -> Result<BackendSelection, String> {
    list.split(',')
        .filter(|w| !w.is_empty())
        .map(|w| {
            Backend::from_name(w).ok_or_else(|| {
                let known: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                format!(
                    "unknown backend '{w}' (expected some of {}, c-gcstress)",
                    known.join(", ")
                )
            })
        })
        .collect::<Result<_, _>>()
        .map(BackendSelection)
}

fn non_negative_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x.max(0.0)),
        _ => Err("expected a number of seconds".into()),
    }
}

/// `rpy3 fuzz`.
#[derive(Debug, Args)]
pub struct FuzzArgs {
    /// Stop after this many seconds.
    #[arg(long, value_name = "N", value_parser = non_negative_seconds)]
    pub seconds: Option<f64>,
    /// The seed: program i of a run depends only on (seed, i).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// The backends to compare with CPython, comma-separated (default
    /// flow,annotate,llinterp).
    #[arg(long, value_name = "LIST", value_parser = backend_list)]
    pub backends: Option<BackendSelection>,
    /// Where to write the reproducers of disagreements.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Take the programs i with i % N == K.
    #[arg(long, value_name = "K/N", value_parser = shard)]
    pub shard: Option<Shard>,
    /// Stop after this many programs.
    #[arg(long, value_name = "N")]
    pub programs: Option<u64>,
    /// Programs per case file (the C backend compiles once per file).
    #[arg(long, value_name = "N")]
    pub batch: Option<usize>,
    /// Print program INDEX of the seed and stop.
    #[arg(long, value_name = "INDEX")]
    pub show: Option<u64>,
    /// Fuzz the compiled backends with random low-level graphs instead:
    /// the llinterp is the oracle, `--backends` takes c and native
    /// (default both), `--programs` and `--batch` count graphs' tests.
    #[arg(long)]
    pub lowlevel: bool,
}
