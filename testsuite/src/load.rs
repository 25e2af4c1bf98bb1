//! Importing case files as modules, each import a fresh instance (the
//! driver's importing, and what makes a file a case file).

pub use rpy3_driver::load::*;

/// True when the source text assigns `CASES` at the top level.
pub fn defines_cases(source: &str) -> bool {
    source.lines().any(|l| {
        l.strip_prefix("CASES").is_some_and(|rest| {
            rest.trim_start().starts_with('=') || rest.trim_start().starts_with(':')
        })
    })
}
