"""`collections.defaultdict` and `collections.deque` in translated programs.

The flow space turns `collections.defaultdict(factory)` (the factory a
constant: a function, a class or a built-in type such as `int` or `list`)
into `defaultdict(missing_for(factory))`: a dict whose missing keys the
function `missing(d, key)` fills with `factory()`, as CPython's
`__missing__` does.  Every other dict operation is the dict's own; a
defaultdict shows as `defaultdict(<factory>, {...})`.

`collections.deque(iterable)` becomes `deque(iterable)`: a list that shows
as `deque([...])` and has the deque methods (`appendleft`, `popleft`,
`extendleft`, `rotate`).  `maxlen` is not supported.

Under CPython (and rpy3's graph interpreter) both make the real
`collections` objects.
"""

import collections as _collections

from rpy3.rlib.objectmodel import specialize

# id(factory) -> (factory, missing)
_missing = {}


def missing_for(factory):
    """The function filling the missing keys of a defaultdict whose factory
    is `factory` (one per factory)."""
    entry = _missing.get(id(factory))
    if entry is None or entry[0] is not factory:

        if factory is None:
            def missing(d, key):
                # only called for a missing key: KeyError, as a dict;
                # the read after it gives the function the values' type
                if key not in d:
                    raise KeyError(key)
                return d[key]
        else:
            def missing(d, key):
                value = factory()
                d[key] = value
                return value

        missing.factory = factory
        missing.factory_repr = repr(factory)
        missing.__qualname__ = "defaultdict.__missing__"
        entry = (factory, missing)
        _missing[id(factory)] = entry
    return entry[1]


def defaultdict(missing):
    """A new empty defaultdict whose missing keys `missing` fills."""
    return _collections.defaultdict(missing.factory)


@specialize.argtype(0, 1)
def update_from(d, items):
    """The initial items of `defaultdict(factory, items)`: a dict, or an
    iterable of pairs."""
    if isinstance(items, dict):
        for k, v in items.items():
            d[k] = v
    else:
        for k, v in items:
            d[k] = v


def deque(iterable=()):
    """A new deque of the items of `iterable`."""
    return _collections.deque(iterable)
