"""Ordering tuples compares items in order until a pair differs and orders
only that pair, as CPython: `(priority, job)` pairs sort and heap without
`Job` defining `__lt__` (TypeError only when the priorities tie), and a
class's own `__lt__` is called only where CPython calls it."""
import heapq


class Job:
    def __init__(self, name):
        self.name = name


class Ranked:
    calls = [0]

    def __init__(self, r):
        self.r = r

    def __eq__(self, other):
        return self.r == other.r

    def __lt__(self, other):
        Ranked.calls[0] += 1
        return self.r < other.r


def sort_pairs(n):
    items = []
    for k in [5, 3, 9, 1, 7][:n]:
        items.append((k, Job("job%d" % k)))
    items.sort()
    out = [p[1].name for p in items]
    out.append(max(items)[1].name)
    out.append(min(items)[1].name)
    return out


def heap_pairs(n):
    h = []
    for k in [5, 3, 9, 1, 7][:n]:
        heapq.heappush(h, (k, k * 2, Job("j%d" % k)))
    out = []
    while h:
        out.append(heapq.heappop(h)[2].name)
    return out


def tie(n):
    a = (n, Job("a"))
    b = (n, Job("b"))
    try:
        return str(a < b)
    except TypeError:
        return "TypeError"


def lt_calls(n):
    Ranked.calls[0] = 0
    xs = [(i % 3, Ranked(i)) for i in range(n)]
    xs.sort()
    before = Ranked.calls[0]
    c = (1, Ranked(2)) < (2, Ranked(1))
    return (before > 0, c, Ranked.calls[0] == before, [x[1].r for x in xs])


CASES = [
    (sort_pairs, [5]),
    (heap_pairs, [5]),
    (tie, [1]),
    (lt_calls, [7]),
]
