"""Python semantics of the flow graph operations that no built-in callable
gives directly (the `pyfunc` of their entry in the operation table)."""


def yield_from_result(iterator, stop):
    """The value of `yield from iterator` once `iterator` raised `stop`
    (a StopIteration): what the delegate generator returned."""
    return stop.value
