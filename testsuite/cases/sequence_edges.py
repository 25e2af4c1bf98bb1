"""Edges of tuples, lists and dicts seen in PyPy's rtyper tests: a tuple
times a constant (either side, zero and negative counts), a list of
characters extended by `+=` with a str, `get` with a default on a dict
that never holds a value, a tuple display of 31 items with a slice among
them."""


def tuples(n):
    return ((n, 2) * 2, 3 * (n,), (n, "a") * 0, (n,) * -1, () * 5)


def char_lists(n):
    s = "hello%d" % n
    l = ["a", "b"]
    l += s
    return "".join(l)


def big_tuple(n):
    # (31 items: CPython builds them in a list turned into a tuple)
    s = "ab%d" % n
    t = (s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s,
         s, s, s, s, s, s, s, s, s, n, s[1:])
    return (len(t), t[29], t[30], t[0][:1])


def empty_get(n):
    return {}.get("x", n) + {}.get(n, 1)


CASES = [
    (tuples, [1]),
    (char_lists, [58]),
    (empty_get, [7]),
    (big_tuple, [42]),
]
