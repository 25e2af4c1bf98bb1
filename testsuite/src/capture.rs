//! What a run printed: the process's file descriptor 1 redirected to a
//! temporary file around the run.  Every executor writes there in the
//! end (CPython and the flow interpreter through `sys.stdout`, the
//! llinterp through its streams, flushed after each call, the C backend
//! echoing its child's output), so one capture serves them all.

use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::AsRawFd;

use pyo3::prelude::*;

fn flush_all(py: Python<'_>) {
    if let Ok(out) = py.import("sys").and_then(|sys| sys.getattr("stdout")) {
        let _ = out.call_method0("flush");
    }
    let _ = std::io::stdout().flush();
}

/// Runs `f` with stdout redirected; its result and the bytes it printed.
/// When the redirection cannot be set up, `f` runs uncaptured and the
/// output is `None`.
pub fn capture_stdout<R>(py: Python<'_>, f: impl FnOnce() -> R) -> (R, Option<Vec<u8>>) {
    flush_all(py);
    let Ok(mut file) = tempfile::tempfile() else {
        return (f(), None);
    };
    // SAFETY: dup/dup2/close on descriptors this function owns or on 1,
    // which it restores before returning.
    let saved = unsafe { libc::dup(1) };
    if saved < 0 || unsafe { libc::dup2(file.as_raw_fd(), 1) } < 0 {
        if saved >= 0 {
            unsafe { libc::close(saved) };
        }
        return (f(), None);
    }
    let result = f();
    flush_all(py);
    unsafe {
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    let mut out = Vec::new();
    if file.seek(SeekFrom::Start(0)).is_err() || file.read_to_end(&mut out).is_err() {
        return (result, None);
    }
    (result, Some(out))
}
