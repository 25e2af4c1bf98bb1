"""Edges of tuples, lists and dicts seen in PyPy's rtyper tests: a tuple
times a constant (either side, zero and negative counts), a list of
characters extended by `+=` with a str, `get` with a default on a dict
that never holds a value."""


def tuples(n):
    return ((n, 2) * 2, 3 * (n,), (n, "a") * 0, (n,) * -1, () * 5)


def char_lists(n):
    s = "hello%d" % n
    l = ["a", "b"]
    l += s
    return "".join(l)


def empty_get(n):
    return {}.get("x", n) + {}.get(n, 1)


CASES = [
    (tuples, [1]),
    (char_lists, [58]),
    (empty_get, [7]),
]
