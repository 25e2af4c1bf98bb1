"""rpy3: PyPy's RPython translation toolchain rebuilt in Rust, for Python 3.

`rpy3.rlib` is pure Python.  `interpret(f, args, backend="llinterp"|"c"|...)`,
`interpret_raises(ExcClass, f, args)` and `Translation(f, argtypes)` (with
`.annotate()`, `.rtype()`, `.compile(backend="c")`, `.view()`) use the Rust
extension `rpy3._native`: the `rpy3` binary provides it to the programs it
runs, and `pip install .` (maturin) builds it for a normal python3 (see
the README).  Installing the package also installs its pytest plugin
(`rpy3.pytest_plugin`: `@pytest.mark.rpy3(backends=[...])`).
"""

from rpy3.translation import COMPILED_BACKENDS, Translation, call_compiled

try:
    from rpy3._native import interpret as _interpret  # installed wheel
except ImportError:
    try:
        from _native import interpret as _interpret  # inside the rpy3 binary
    except ImportError:

        def _interpret(*args, **kwargs):
            raise ImportError(
                "rpy3's native extension is not built: run `pip install .` in the "
                "rpy3 checkout (it uses maturin), or run through the `rpy3` binary"
            )


def interpret(f, args, backend="llinterp"):
    """`f(*args)` translated for arguments of the types of `args` and run on
    `backend`: `llinterp` (the default), `flow`, or a compiled one (`c`,
    `native`, `c-gcstress`, `native-gcstress`: `Translation(...).compile()`
    called once).  The program's exceptions are raised as instances of the
    same classes (by the compiled backends, without their arguments)."""
    if backend in COMPILED_BACKENDS:
        return call_compiled(f, list(args), backend)
    return _interpret(f, args, backend=backend)


def interpret_raises(exc, f, args, backend="llinterp"):
    """Checks that translated `f(*args)` raises `exc` (or a subclass); the
    exception."""
    try:
        value = interpret(f, args, backend=backend)
    except exc as e:
        return e
    raise AssertionError(f"{f.__name__} did not raise {exc.__name__}: it returned {value!r}")


__all__ = ["interpret", "interpret_raises", "Translation"]
