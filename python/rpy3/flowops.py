"""Python semantics of the flow graph operations that no built-in callable
gives directly (the `pyfunc` of their entry in the operation table)."""


def unpackable(x):
    """What `a, b = x` indexes: `x` when it is a sequence, else the list
    of its items (`a, b = map(int, line.split())`)."""
    if isinstance(x, (tuple, list, str, bytes)):
        return x
    t = type(x)
    if t.__module__ != "builtins" and hasattr(t, "__getitem__") and hasattr(t, "__len__"):
        # an instance indexed by its own methods (a namedtuple's stand-in)
        return x
    return list(x)


def yield_from_result(iterator, stop):
    """The value of `yield from iterator` once `iterator` raised `stop`
    (a StopIteration): what the delegate generator returned."""
    return stop.value
