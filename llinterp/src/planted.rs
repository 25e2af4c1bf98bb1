//! A planted miscompilation (feature `planted-bug`, for tests only): once
//! [`enable`] is called, `int_add` and `int_add_ovf` of an operand above
//! 100 and a positive one come out one too big.  The fuzzer's test plants it to show
//! that a disagreement is found and shrunk to a few lines.  The feature is
//! never on in the CLI or the extension, and a process that has it still
//! computes correctly until a test asks otherwise.

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Switches the planted bug on for the rest of the process.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether `int_add(x, y)` is to be computed wrongly.
#[inline(always)]
pub(crate) fn int_add_is_wrong(x: i64, y: i64) -> bool {
    x > 100 && y > 0 && ENABLED.load(Ordering::Relaxed)
}
