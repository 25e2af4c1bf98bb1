"""rpy3: PyPy's RPython translation toolchain rebuilt in Rust, for Python 3.

`rpy3.rlib` is pure Python.  `interpret(f, args, backend="llinterp")`,
`interpret_raises(ExcClass, f, args)` and `Translation(f, argtypes)` (with
`.annotate()`, `.rtype()`, `.compile(backend="c")`, `.view()`) use the Rust
extension `rpy3._native`: the `rpy3` binary provides it to the programs it
runs, and `pip install .` (maturin) builds it for a normal python3 (see
the README).  Installing the package also installs its pytest plugin
(`rpy3.pytest_plugin`: `@pytest.mark.rpy3(backends=[...])`).
"""

try:
    from rpy3._native import interpret, interpret_raises  # installed wheel
except ImportError:
    try:
        from _native import interpret, interpret_raises  # inside the rpy3 binary
    except ImportError:

        def _missing(*args, **kwargs):
            raise ImportError(
                "rpy3's native extension is not built: run `pip install .` in the "
                "rpy3 checkout (it uses maturin), or run through the `rpy3` binary"
            )

        interpret = interpret_raises = _missing

from rpy3.translation import Translation  # noqa: E402  (needs the above first)

__all__ = ["interpret", "interpret_raises", "Translation"]
