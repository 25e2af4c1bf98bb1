//! Annotation errors: the operation's source line, a one-line cause in
//! Python terms, and the chain of steps that led there.

use std::fmt;

/// A program that is not RPython (untypable), found while annotating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotatorError {
    /// The cause, in one line ("cannot unite int and str").
    pub message: String,
    /// Source file of the operation.
    pub filename: String,
    /// Source line of the operation.
    pub lineno: u32,
    /// The function being annotated.
    pub function: Option<String>,
    /// How the conflicting annotations got there, innermost first.
    pub chain: Vec<String>,
    /// The offending expression's columns in the line (UTF-8 byte
    /// offsets, end excluded), when known (errors of the flow space).
    pub columns: Option<(u32, u32)>,
}

impl fmt::Display for AnnotatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.filename, self.lineno, self.message)?;
        if let Some(func) = &self.function {
            write!(f, " (in function {func})")?;
        }
        for step in &self.chain {
            write!(f, "\n    while {step}")?;
        }
        Ok(())
    }
}

impl std::error::Error for AnnotatorError {}

impl From<rpy3_flowspace::FlowError> for AnnotatorError {
    fn from(e: rpy3_flowspace::FlowError) -> AnnotatorError {
        AnnotatorError {
            message: e.message,
            filename: e.filename,
            lineno: e.lineno,
            function: e.function,
            chain: Vec::new(),
            columns: e.columns,
        }
    }
}
