"""`heapq` and `bisect`: calls of their functions are translated into
`rpy3.stdlib`'s RPython versions of CPython's algorithms, specialised on
the list's type, so heaps of ints and heaps of tuples live side by side
and pass through the same states as under CPython."""

import heapq
from heapq import heappush, heappop
import bisect
from bisect import bisect_left, insort


def heap_sort(xs):
    h = []
    for x in xs:
        heappush(h, x)
    out = []
    while h:
        out.append(heappop(h))
    return out


def heap_states(xs):
    h = list(xs)
    heapq.heapify(h)
    first = list(h)
    r = heapq.heapreplace(h, 50)
    p = heapq.heappushpop(h, -1)
    return (first, r, p, h)


def tuple_heap(n):
    h = []
    for i in range(n):
        heappush(h, ((i * 7) % 5, "job%d" % i))
    ints = []
    for i in range(n):
        heappush(ints, (i * 3) % 4)
    order = [heappop(h)[1] for _ in range(n)]
    return (order, heappop(ints))


def smallest_largest(xs, n):
    return (heapq.nsmallest(n, xs), heapq.nlargest(n, xs))


def pop_empty(n):
    h = [1] * n
    while True:
        heappop(h)


def bisections(xs, x):
    s = sorted(xs)
    return (bisect_left(s, x), bisect.bisect_right(s, x), bisect.bisect(s, x),
            bisect_left(s, x, 1), bisect.bisect_right(s, x, 0, 2))


def insorts(xs):
    out = []
    for x in xs:
        insort(out, x)
    strs = []
    for w in ["pear", "apple", "fig"]:
        bisect.insort_left(strs, w)
    return (out, strs)


CASES = [
    (heap_sort, [[5, 1, 4, 1, 5, 9, 2, 6]]),
    (heap_sort, [[]]),
    (heap_states, [[9, 3, 7, 1, 8, 2]]),
    (tuple_heap, [7]),
    (smallest_largest, [[4, 1, 3, 1, 5], 3]),
    (smallest_largest, [[4, 1], 5]),
    (pop_empty, [2]),
    (bisections, [[1, 3, 3, 5, 8], 3]),
    (bisections, [[1, 3, 3, 5, 8], 0]),
    (insorts, [[3, 1, 2, 1]]),
]
