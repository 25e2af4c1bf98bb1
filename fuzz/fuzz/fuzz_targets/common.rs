//! What both targets do once before the first input: when the
//! executable was packaged with its Python runtime beside it (as
//! `.clusterfuzzlite/build.sh` does, for runners without Python 3.11),
//! point the embedded interpreter and rpy3 at it.

use std::path::PathBuf;

/// The `rpy3-runtime` directory next to the executable, if packaged.
fn bundled_runtime() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.join("rpy3-runtime");
    dir.is_dir().then_some(dir)
}

/// Sets `PYTHONHOME` and `RPY3_PYTHONPATH` for a packaged runtime (the
/// environment wins when it sets them).
pub fn init() {
    if let Some(dir) = bundled_runtime() {
        if std::env::var_os("PYTHONHOME").is_none() {
            std::env::set_var("PYTHONHOME", dir.join("python-home"));
        }
        if std::env::var_os("RPY3_PYTHONPATH").is_none() {
            std::env::set_var("RPY3_PYTHONPATH", dir.join("python"));
        }
    }
}

/// Whether a C compiler is there to build the compiled backends'
/// executables with.
#[allow(dead_code)]
pub fn have_cc() -> bool {
    std::process::Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
