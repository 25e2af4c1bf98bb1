"""`itertools.chain.from_iterable`, `chain(*iterables)` with a number of
iterables known at run time only, and `heapq.merge` (stable: equal items
from the earlier input first)."""

import heapq
from itertools import chain


def from_iterable(n):
    lists = [[i, i + 1] for i in range(n)]
    return list(chain.from_iterable(lists))


def from_iterable_lazy(n):
    out = []
    for x in chain.from_iterable([range(i) for i in range(n)]):
        if x > 2:
            break
        out.append(x)
    return out


def from_iterable_strs(n):
    return "".join(chain.from_iterable(["ab", "c" * n, ""]))


def star(n):
    lists = [[i] * i for i in range(n)]
    return list(chain(*lists))


def merged(n):
    a = [1, 4, n]
    b = [2, 3, 5]
    return list(heapq.merge(a, b))


def merged_stable(n):
    a = [(1, "a"), (3, "a")]
    b = [(1, "a"), (2, "b"), (3, "a")]
    c = []
    return list(heapq.merge(a, b, c))[:n]


def merged_generators(n):
    evens = (2 * i for i in range(n))
    odds = (2 * i + 1 for i in range(n))
    return list(heapq.merge(evens, odds))


CASES = [
    (from_iterable, [3]),
    (from_iterable, [0]),
    (from_iterable_lazy, [5]),
    (from_iterable_strs, [2]),
    (star, [4]),
    (merged, [9]),
    (merged, [0]),
    (merged_stable, [5]),
    (merged_generators, [4]),
]
