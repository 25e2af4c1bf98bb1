// Shared build script: every crate whose binaries or tests embed CPython
// links libpython with an rpath, so the `rpy3` binary and the tests run
// without LD_LIBRARY_PATH and always load the same libpython pyo3 was
// configured against.
fn main() {
    pyo3_build_config::add_libpython_rpath_link_args();
}
