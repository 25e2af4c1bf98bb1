"""`functools.reduce` (with and without an initial value), the functions
of `operator` called, passed and held in prebuilt and built dicts, and
`heapq.nlargest`/`nsmallest` with `key=`."""
import functools
import heapq
import operator

OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def reductions(n):
    xs = list(range(1, n + 1))
    out = [functools.reduce(lambda a, b: a * b, xs, 1),
           functools.reduce(operator.add, xs),
           functools.reduce(max, [3, 9, 2][:n])]
    try:
        functools.reduce(operator.add, [])
    except TypeError as e:
        out.append(-1)
    return out


def table(n):
    out = []
    for sym in "+-*":
        out.append(OPS[sym](n, 3))
    local = {"and": operator.and_, "or": operator.or_, "xor": operator.xor}
    for k in sorted(local):
        out.append(local[k](n, 6))
    out.append(operator.floordiv(n, 2))
    out.append(operator.neg(n))
    return out


def comparisons(n):
    return [operator.lt(n, 3), operator.eq(n, n), operator.not_(n),
            operator.truth(n), operator.contains([1, 2, 3], n)]


def keyed_heaps(n):
    xs = [5, 3, 9, 1, 7][:n]
    pairs = [(i, x) for i, x in enumerate(xs)]
    return [heapq.nlargest(2, xs), heapq.nsmallest(2, xs),
            [p[0] for p in heapq.nlargest(2, pairs, key=lambda p: p[1])],
            [p[0] for p in heapq.nsmallest(3, pairs, key=lambda p: -p[1])]]


CASES = [
    (reductions, [5]),
    (reductions, [1]),
    (table, [5]),
    (comparisons, [2]),
    (comparisons, [0]),
    (keyed_heaps, [5]),
]
