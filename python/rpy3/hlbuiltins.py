"""Built-ins the flow space replaces by the RPython functions here, so
that every later stage sees ordinary (generator) functions: `map()` and
`filter()`, each specialised per call site (so every `map(f, xs)` gets
its own graph typed for its function and items); and the plain functions standing for a built-in or an
unbound method of str used as a value (`key=len`, `map(str, xs)`,
`key=str.lower`)."""
from rpy3.rlib.objectmodel import specialize


@specialize.call_location()
def rpy_map(f, it):
    for x in it:
        yield f(x)


@specialize.call_location()
def rpy_map2(f, a, b):
    for x, y in zip(a, b):
        yield f(x, y)


@specialize.call_location()
def rpy_filter(f, it):
    for x in it:
        if f(x):
            yield x


@specialize.call_location()
def rpy_filter_true(it):
    for x in it:
        if x:
            yield x


@specialize.argtype(0)
def rpy_iterate(obj):
    """The items of an instance whose class defines `__iter__` (returning
    an iterator instance or a generator), as a generator: what a built-in
    iterating over such an instance (`sum(obj)`, `list(obj)`) consumes."""
    for x in obj:
        yield x


_WRAPPERS = {}


def key_wrapper(f):
    """A plain function calling built-in `f` on its argument (`key=len`),
    one per built-in: the rtyper passes its pointer where a key function
    is expected.  Not RPython itself: run when translating."""
    w = _WRAPPERS.get(f)
    if w is None:
        def w(x):
            return f(x)
        w.__name__ = "key_" + getattr(f, "__name__", "builtin")
        _WRAPPERS[f] = w
    return w


def method_wrapper(m):
    """A plain function standing for the unbound method `m` of str or
    bytes (`key=str.lower`): `def lower(x): return x.lower()`, one per
    method.  Not RPython itself: run when translating."""
    w = _WRAPPERS.get(m)
    if w is None:
        name = m.__name__
        if not name.isidentifier():
            raise ValueError(name)
        ns = {"__name__": __name__}
        exec("def %s(x):\n    return x.%s()\n" % (name, name), ns)
        w = ns[name]
        w.__qualname__ = "%s.%s" % (m.__objclass__.__name__, name)
        _WRAPPERS[m] = w
    return w
