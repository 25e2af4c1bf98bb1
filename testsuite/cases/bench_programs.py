"""The benchmark programs of ../shared/bench at small sizes: each `run(n)`
checksum on every backend against CPython."""
import importlib
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_shared = os.environ.get("RPY3_SHARED") or os.path.join(_here, "..", "..", "..", "shared")
sys.path.insert(0, os.path.join(_shared, "bench"))


def _run_of(name):
    return importlib.import_module(name).run


richards = _run_of("richards")
pystone = _run_of("pystone")
nbody = _run_of("nbody")
fannkuch = _run_of("fannkuch")
spectral_norm = _run_of("spectral_norm")
binary_trees = _run_of("binary_trees")
nqueens = _run_of("nqueens")
bytecode_vm = _run_of("bytecode_vm")
wordfreq = _run_of("wordfreq")
raytrace = _run_of("raytrace")

CASES = [
    (richards, [3]),
    (pystone, [50]),
    (nbody, [50]),
    (fannkuch, [6]),
    (spectral_norm, [10]),
    (binary_trees, [6]),
    (nqueens, [1]),
    (bytecode_vm, [200]),
    (wordfreq, [200]),
    (raytrace, [4]),
]
