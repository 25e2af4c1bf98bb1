"""rpy3: PyPy's RPython translation toolchain rebuilt in Rust, for Python 3.

`rpy3.rlib` is pure Python.  `interpret(f, args, backend="llinterp")` and
`interpret_raises(ExcClass, f, args)` come from the Rust extension
`rpy3._native`: the `rpy3` binary provides it to the programs it runs, and
`pip install .` (maturin) builds it for a normal python3 (see the README).
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

__all__ = ["interpret", "interpret_raises"]
