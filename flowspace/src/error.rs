//! Errors for functions that cannot be flowed.

use std::fmt;

/// A function that is not RPython, or uses a construct the flow space does
/// not handle: the message names the construct, and the error carries the
/// source file and line it was found at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowError {
    /// What is wrong, in one line.
    pub message: String,
    /// `co_filename` of the code being flowed.
    pub filename: String,
    /// Source line of the offending instruction.
    pub lineno: u32,
    /// The function being flowed, when known.
    pub function: Option<String>,
    /// The offending expression's columns in that line (UTF-8 byte
    /// offsets, end excluded), when known.
    pub columns: Option<(u32, u32)>,
}

impl FlowError {
    /// A new error at `filename:lineno`.
    pub fn new(message: impl Into<String>, filename: impl Into<String>, lineno: u32) -> FlowError {
        FlowError {
            message: message.into(),
            filename: filename.into(),
            lineno,
            function: None,
            columns: None,
        }
    }
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.filename, self.lineno, self.message)?;
        if let Some(func) = &self.function {
            write!(f, " (in function {func})")?;
        }
        Ok(())
    }
}

impl std::error::Error for FlowError {}
