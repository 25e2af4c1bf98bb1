"""rpy3: a Rust rebuild of PyPy's RPython toolchain for Python 3.11.

This pure-Python package holds the parts of rpy3 that user programs import
while they still run under CPython, most importantly ``rpy3.rlib`` (the
counterpart of ``rpython.rlib``: ``rarithmetic``, ``objectmodel`` and
``rstring``).  The translation entry points (``interpret()`` and friends) are
provided later by the Rust extension module.

Importing this package has no side effects.
"""
