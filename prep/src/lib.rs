//! The preparation passes the C and the native backend share (PyPy's
//! `exceptiontransform.py`, `gctransform/` and `translator/c/database.py`):
//! after them, a program's low-level graphs need nothing a compiled
//! backend cannot express directly.
//!
//! - [`callgraph`]: who calls whom, which functions can raise, which can
//!   collect, and the cycles of the call graph (`petgraph` SCCs);
//! - [`stackcheck`]: a `stack_check` at the entry of every function on a
//!   cycle, so runaway recursion is a `RecursionError`, never a crash;
//! - [`exceptions`]: exceptions become explicit state (`exc_occurred`
//!   after every operation that can raise, `except` clauses matched by the
//!   vtable's subclass range, `raise` as `exc_raise` and a return);
//! - [`gcroots`]: GC pointers live across an operation that can collect are
//!   pushed on the shadow stack around it;
//! - [`database`]: the prebuilt objects the graphs reach, each once, in an
//!   order a backend can lay them out in.
//!
//! The graphs keep the low-level vocabulary of `rpy3-model`: the passes
//! add only the operations the table marks `prepared`.

pub mod callgraph;
pub mod database;
pub mod exceptions;
pub mod gcroots;
pub mod stackcheck;
mod util;

use pyo3::prelude::*;
use rpy3_model::program::LlProgram;

pub use callgraph::CallGraph;
pub use database::Database;

/// Why a program cannot be prepared.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{function}: {msg}")]
pub struct PrepError {
    /// The function the pass was working on (`<program>` for the whole).
    pub function: String,
    /// What is wrong.
    pub msg: String,
}

impl PrepError {
    pub(crate) fn new(function: &str, msg: impl Into<String>) -> PrepError {
        PrepError {
            function: function.to_string(),
            msg: msg.into(),
        }
    }
}

/// A program prepared for a compiled backend.
pub struct Prepared {
    /// The transformed program.
    pub program: LlProgram,
    /// Its prebuilt objects.
    pub db: Database,
    /// The call graph analysis the passes used (of the program before the
    /// passes: the passes add no calls).
    pub calls: CallGraph,
}

/// A pass: it rewrites the program's graphs, using the call graph of the
/// program before the passes (they add no calls).
pub type Pass = fn(Python<'_>, &mut LlProgram, &CallGraph) -> Result<(), PrepError>;

/// The passes, in order, by name (the driver runs the verifier after
/// each).
pub const PASSES: &[(&str, Pass)] = &[
    ("stack checks", stackcheck::insert_stack_checks),
    ("exception transform", exceptions::transform_program),
    ("GC roots", gcroots::insert_roots),
];

/// Runs every pass, in order, on a copy of `program`; `roots` are values
/// outside the graphs (arguments of test cases) whose prebuilt objects the
/// database must hold too.
pub fn prepare(
    py: Python<'_>,
    program: &LlProgram,
    roots: &[rpy3_model::lltype::LlValue],
) -> Result<Prepared, PrepError> {
    let mut program = program.clone();
    let calls = CallGraph::analyse(py, &program)?;
    for (_, pass) in PASSES {
        pass(py, &mut program, &calls)?;
    }
    let db = Database::collect(py, &program, roots)?;
    Ok(Prepared { program, db, calls })
}
