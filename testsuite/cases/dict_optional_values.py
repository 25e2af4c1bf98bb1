"""`d.get(k)`, `d.get(k, None)` and `d.pop(k, None)` on dicts of ints and
floats: the result is the value or None (a value that may be None)."""


def lookups(n):
    d = {"a": 1, "b": n}
    out = []
    for k in ["a", "b", "c"]:
        v = d.get(k)
        if v is None:
            out.append(-1)
        else:
            out.append(v * 10)
    w = d.get("zz", None)
    out.append(0 if w is None else 1)
    return out


def pops(n):
    d = {i: i * 1.5 for i in range(n)}
    got = []
    for k in [0, 7, 1]:
        v = d.pop(k, None)
        got.append("none" if v is None else str(v))
    return [" ".join(got), str(len(d))]


def shown(n):
    d = {1: n}
    return [str(d.get(1)), str(d.get(2)), repr(d.pop(1, None)), repr(d.pop(1, None))]


CASES = [
    (lookups, [5]),
    (pops, [3]),
    (shown, [4]),
]
