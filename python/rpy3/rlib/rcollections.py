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

        # (one graph per dict type: two defaultdicts of one factory may
        # have keys of different types)
        if factory is None:
            @specialize.argtype(0, 1)
            def missing(d, key):
                # only called for a missing key: KeyError, as a dict;
                # the read after it gives the function the values' type
                if key not in d:
                    raise KeyError(key)
                return d[key]
        else:
            @specialize.argtype(0, 1)
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


def deque_bounded(iterable, maxlen):
    """A new deque of at most `maxlen` items (a constant): the last ones of
    `iterable`; appending to a full one drops an item at the other end."""
    return _collections.deque(iterable, maxlen)


# --- collections.Counter ----------------------------------------------------
#
# A Counter is a dict whose missing keys read as 0 (without being added),
# which shows as `Counter({...})` with the most common first, and has the
# methods below.  The flow space turns `collections.Counter(x)` into
# `counter_update(counter(), x)`; the annotator sends the Counter methods
# of such a dict to the functions here.


@specialize.argtype(0, 1)
def counter_missing(d, key):
    """A Counter's missing key counts 0 (and is not added)."""
    return 0


counter_missing.factory_repr = "Counter"


def counter():
    """A new empty Counter."""
    return _collections.Counter()


@specialize.argtype(0, 1)
def counter_update(c, items):
    """Counter.update(items): counts the items of an iterable, or adds the
    counts of a mapping."""
    if isinstance(items, dict):
        for k, v in items.items():
            c[k] = c[k] + v
    else:
        for k in items:
            c[k] = c[k] + 1


@specialize.argtype(0, 1)
def counter_subtract(c, items):
    """Counter.subtract(items)."""
    if isinstance(items, dict):
        for k, v in items.items():
            c[k] = c[k] - v
    else:
        for k in items:
            c[k] = c[k] - 1


@specialize.argtype(0)
def counter_most_common_all(c):
    """Counter.most_common(): (key, count) pairs, the largest counts
    first, equal counts in insertion order (CPython's stable sort)."""
    pairs = list(c.items())
    order = []
    i = 0
    while i < len(pairs):
        order.append((-pairs[i][1], i))
        i += 1
    order.sort()
    out = []
    for o in order:
        out.append(pairs[o[1]])
    return out


@specialize.argtype(0)
def counter_most_common(c, n):
    """Counter.most_common(n)."""
    pairs = counter_most_common_all(c)
    if n < 0:
        n = 0
    return pairs[:n]


@specialize.argtype(0)
def counter_elements(c):
    """Counter.elements(): each key as many times as its count."""
    out = []
    for k, v in c.items():
        i = 0
        while i < v:
            out.append(k)
            i += 1
    return iter(out)


@specialize.argtype(0)
def counter_total(c):
    """Counter.total()."""
    t = 0
    for v in c.values():
        t += v
    return t


@specialize.argtype(0)
def counter_repr(c):
    """repr() of a Counter: Counter({k: n, ...}), most common first."""
    pairs = counter_most_common_all(c)
    if len(pairs) == 0:
        return "Counter()"
    shown = {}
    for k, v in pairs:
        shown[k] = v
    return "Counter(" + repr(shown) + ")"


# --- collections.OrderedDict --------------------------------------------------
#
# An OrderedDict is a dict (rpy3's dicts keep insertion order) that shows
# as `OrderedDict([(k, v), ...])` and has `move_to_end` and
# `popitem(last=False)`, functions here that the annotator calls for them.


def ordered_dict():
    """A new empty OrderedDict."""
    return _collections.OrderedDict()


@specialize.argtype(0)
def od_move_to_end(d, key, last=True):
    """OrderedDict.move_to_end(key, last=True)."""
    value = d.pop(key)
    if last:
        d[key] = value
    else:
        rest = list(d.items())
        d.clear()
        d[key] = value
        for k, v in rest:
            d[k] = v


@specialize.argtype(0)
def od_popitem(d, last=True):
    """OrderedDict.popitem(last=True): the last (or first) pair, removed."""
    if len(d) == 0:
        raise KeyError("dictionary is empty")
    if last:
        return d.popitem()
    for k in d:
        v = d.pop(k)
        return (k, v)
    raise KeyError("dictionary is empty")
