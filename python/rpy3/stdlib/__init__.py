"""Modules of Python's standard library that RPython programs may use,
written in RPython: `random`, `heapq`, `bisect`, `copy`, `struct` (its
integer formats), `functools.reduce`, the functions of `operator`, the built-ins `input()`, `open()` and `complex()`, and
`gc.collect`/`enable`/`disable`.

A program imports the real modules (under CPython it runs with them); when
the flow space meets a call of one of their functions or classes it calls
the replacement that `replacement()` names instead, an ordinary RPython
function that every later stage and backend translates like the
program's own code.  The replacements compute what CPython's do, to the
bit (the same Mersenne Twister draws, the same heap states)."""

import bisect as _bisect
import enum as _enum
import builtins as _builtins
import copy as _copy
import functools as _functools
import operator as _operator
import gc as _gc
import heapq as _heapq
import math as _math
import random as _random
import struct as _struct

from rpy3.stdlib import bisect as _rbisect
from rpy3.stdlib import complexnum as _rcomplexnum
from rpy3.stdlib import copymod as _rcopymod
from rpy3.stdlib import builtins_io as _rbuiltins_io
from rpy3.stdlib import fileio as _rfileio
from rpy3.stdlib import functoolsmod as _rfunctools
from rpy3.stdlib import heapq as _rheapq
from rpy3.stdlib import mathmod as _rmathmod
from rpy3.stdlib import enums as _renums
from rpy3.stdlib import namedtuples as _rnamedtuples
from rpy3.stdlib import random as _rrandom
from rpy3.stdlib import structmod as _rstructmod
from rpy3.stdlib import sysmisc as _rsysmisc

_MODULES = [
    (_heapq, _rheapq, ["heappush", "heappop", "heapify", "heapreplace",
                       "heappushpop", "nsmallest", "nlargest", "merge"]),
    (_bisect, _rbisect, ["bisect_left", "bisect_right", "bisect",
                         "insort_left", "insort_right", "insort"]),
    (_random, _rrandom, ["Random"]),
    (_math, _rmathmod, ["prod"]),
    (_builtins, _rbuiltins_io, ["input"]),
    (_builtins, _rcomplexnum, ["complex"]),
    (_copy, _rcopymod, ["copy", "deepcopy"]),
    (_builtins, _rfileio, ["open"]),
    (_struct, _rstructmod, ["pack", "unpack", "unpack_from", "calcsize"]),
    (_functools, _rfunctools, ["reduce"] + _rfunctools.TOTAL_ORDERING_NAMES),
    (_operator, _rfunctools, _rfunctools.OPERATOR_NAMES),
]
# replacements under another name: (module, name, replacement)
_RENAMED = [
    (_gc, "collect", _rsysmisc.gc_collect),
    (_gc, "enable", _rsysmisc.gc_enable),
    (_gc, "disable", _rsysmisc.gc_disable),
]

# id(original) -> (original, replacement)
_BY_ID = {}
for _orig_mod, _repl_mod, _names in _MODULES:
    for _name in _names:
        _orig = getattr(_orig_mod, _name)
        _BY_ID[id(_orig)] = (_orig, getattr(_repl_mod, _name))
for _mod, _name, _repl in _RENAMED:
    _orig = getattr(_mod, _name)
    _BY_ID[id(_orig)] = (_orig, _repl)

# the module-level functions of `random` are bound methods of its hidden
# generator: matched by name
_RANDOM_FUNCTIONS = frozenset([
    "seed", "random", "getrandbits", "randrange", "randint", "choice",
    "shuffle", "sample", "uniform", "triangular", "normalvariate", "gauss",
    "expovariate", "getstate", "setstate",
])


# id(lru_cache wrapper) -> (wrapper, its memoizing replacement)
_MEMOIZED = {}


def _memoized(w):
    """The replacement of a function decorated by `functools.lru_cache` or
    `functools.cache` (`w`, made at import time): a function of the same
    parameters that keeps the results in a dict keyed by the arguments
    (one argument: itself; several: their tuple).  The results are the
    same as with any bound of the cache, the functions being pure."""
    entry = _MEMOIZED.get(id(w))
    if entry is not None and entry[0] is w:
        return entry[1]
    f = w.__wrapped__
    code = f.__code__
    if (code.co_flags & 0x0C) or code.co_kwonlyargcount:
        # (*args, **kwargs or keyword-only parameters: the wrapper as is,
        # which later stages refuse)
        return None
    params = list(code.co_varnames[:code.co_argcount])
    key = params[0] if len(params) == 1 else "(%s)" % "".join(p + ", " for p in params)
    src = (
        "def make(_f, _cache):\n"
        "    def %(name)s(%(params)s):\n"
        "        _key = %(key)s\n"
        "        if _key in _cache:\n"
        "            return _cache[_key]\n"
        "        _result = _f(%(params)s)\n"
        "        _cache[_key] = _result\n"
        "        return _result\n"
        "    return %(name)s\n"
    ) % {"name": f.__name__, "params": ", ".join(params), "key": key}
    ns = {}
    exec(compile(src, code.co_filename, "exec"), ns)
    r = ns["make"](f, {})
    r.__defaults__ = f.__defaults__
    r.__qualname__ = f.__qualname__
    r.__module__ = f.__module__
    _MEMOIZED[id(w)] = (w, r)
    return r


def replacement(obj):
    """The RPython replacement of `obj`, a function or class of a module
    listed here, or None."""
    entry = _BY_ID.get(id(obj))
    if entry is not None and entry[0] is obj:
        return entry[1]
    if type(obj) is _functools._lru_cache_wrapper:
        return _memoized(obj)
    if isinstance(obj, (type, tuple)):
        # a namedtuple class, a class deriving from one, an instance
        r = _rnamedtuples.replacement(obj)
        if r is not None:
            return r
    if isinstance(obj, (type, _enum.Enum)):
        # an Enum class or member
        r = _renums.replacement(obj)
        if r is not None:
            return r
    if getattr(obj, "__self__", None) is _random._inst:
        name = getattr(obj, "__name__", None)
        if name in _RANDOM_FUNCTIONS:
            return getattr(_rrandom, name)
    return None


def replace_in_class_dict(d):
    """Replaces, in the copy `d` of a class's `__dict__`, the functions of
    the standard library that have replacements (the comparison methods
    `@functools.total_ordering` adds)."""
    for k, v in list(d.items()):
        entry = _BY_ID.get(id(v))
        if entry is not None and entry[0] is v:
            d[k] = entry[1]
        elif type(v) is _functools._lru_cache_wrapper:
            r = _memoized(v)
            if r is not None:
                d[k] = r


def call_replacement(obj):
    """What a call of `obj` becomes: a call of an Enum class looks a member
    up by value; otherwise the replacement of `obj` (or None)."""
    if _renums.is_enum_class(obj):
        return _renums.lookup(obj)
    return replacement(obj)


def attribute_replacement(obj, name):
    """What `obj.name` becomes for a built-in class `obj` whose attribute
    rpy3 implements in RPython (`int.from_bytes`,
    `itertools.chain.from_iterable`), or None."""
    if obj is int and name == "from_bytes":
        from rpy3.hlbuiltins import int_from_bytes
        return int_from_bytes
    if obj is str and name == "maketrans":
        from rpy3.hlbuiltins import str_maketrans
        return str_maketrans
    from rpy3.stdlib import itertools as _ritertools
    return _ritertools.attribute_for(obj, name)


def getitem_replacement(obj):
    """What indexing the constant `obj` calls instead: for an Enum class,
    a function giving its member of a name (or None)."""
    if _renums.is_enum_class(obj):
        return _renums.lookup_name(obj)
    return None


def iteration_replacement(obj):
    """What iterating over the constant `obj` goes over instead: an Enum
    class, its members (or None)."""
    if _renums.is_enum_class(obj):
        return _renums.members(obj)
    return None
