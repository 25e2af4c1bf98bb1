//! Importing Python files (targets, case files) as modules, each import
//! a fresh instance, with the `rpy3` package importable.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::prelude::*;
use pyo3::types::PyList;

/// Where the `rpy3` Python package lives: `$RPY3_PYTHONPATH` when set,
/// else the `python/` directory of this source tree.
pub fn python_package_dir() -> PathBuf {
    match std::env::var_os("RPY3_PYTHONPATH") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("python");
            dir.canonicalize().unwrap_or(dir)
        }
    }
}

/// Puts `dir` at the front of `sys.path` unless it is already there.
pub fn add_to_sys_path(py: Python<'_>, dir: &Path) -> PyResult<()> {
    let path = py.import("sys")?.getattr("path")?.cast_into::<PyList>()?;
    let dir = dir.to_string_lossy().to_string();
    for item in path.iter() {
        if item.extract::<String>().ok().as_deref() == Some(dir.as_str()) {
            return Ok(());
        }
    }
    path.insert(0, dir)
}

/// Makes the `rpy3` package and the directory of `file` importable.
pub fn prepare_sys_path(py: Python<'_>, file: &Path) -> PyResult<()> {
    add_to_sys_path(py, &python_package_dir())?;
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    add_to_sys_path(py, &dir.canonicalize().unwrap_or(dir))
}

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A module name used by no other instance.
pub fn fresh_module_name(path: &Path, role: &str) -> String {
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("_rpy3_case_{stem}_{role}{n}")
}

/// One line describing a Python exception (`SyntaxError: ... (file, line 3)`).
pub fn exception_line(py: Python<'_>, err: &PyErr) -> String {
    let formatted = py
        .import("traceback")
        .and_then(|tb| tb.getattr("format_exception_only")?.call1((err.value(py),)))
        .and_then(|lines| lines.extract::<Vec<String>>());
    match formatted {
        Ok(lines) => lines.concat().trim_end().replace('\n', " | "),
        Err(_) => err.to_string(),
    }
}

/// Imports the file at `path` as a new module named `name` (registered in
/// `sys.modules` while it lives).
pub fn import_instance<'py>(
    py: Python<'py>,
    path: &Path,
    name: &str,
) -> PyResult<Bound<'py, PyModule>> {
    let util = py.import("importlib.util")?;
    let spec = util
        .getattr("spec_from_file_location")?
        .call1((name, path.to_string_lossy().to_string()))?;
    if spec.is_none() {
        return Err(pyo3::exceptions::PyImportError::new_err(format!(
            "cannot import {}",
            path.display()
        )));
    }
    let module = util
        .getattr("module_from_spec")?
        .call1((&spec,))?
        .cast_into::<PyModule>()?;
    let modules = py.import("sys")?.getattr("modules")?;
    modules.set_item(name, &module)?;
    if let Err(e) = spec
        .getattr("loader")?
        .call_method1("exec_module", (&module,))
    {
        let _ = modules.del_item(name);
        return Err(e);
    }
    Ok(module)
}

/// Removes a module instance from `sys.modules`.
pub fn forget_instance(py: Python<'_>, name: &str) {
    if let Ok(modules) = py.import("sys").and_then(|s| s.getattr("modules")) {
        let _ = modules.del_item(name);
    }
}
