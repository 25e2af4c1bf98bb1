"""`collections.defaultdict` and `collections.deque`.  A defaultdict is a
dict whose missing keys its (constant) factory fills, as CPython's
`__missing__` does; a deque is a list with the deque methods.  Both show
as CPython shows them.  A variable may not hold both a defaultdict and a
dict (or a deque and a list): they behave differently."""

import collections
from collections import defaultdict, deque


class Counter:
    def __init__(self):
        self.n = 0


def _zero_pair():
    return (0, 0)


def counts(words):
    d = defaultdict(int)
    for w in words:
        d[w] += 1
    return sorted(d.items())


def groups(n):
    g = defaultdict(list)
    for i in range(n):
        g[i % 3].append(i)
    return (sorted(g.items()), len(g), 7 in g, g.get(9, [-1]))


def factories(n):
    pairs = defaultdict(_zero_pair)
    objs = collections.defaultdict(Counter)
    floats = defaultdict(float)
    for i in range(n):
        a, b = pairs[i % 2]
        pairs[i % 2] = (a + 1, b + i)
        objs["k"].n += i
        floats[i % 2] += 0.5
    return (sorted(pairs.items()), objs["k"].n, len(objs), sorted(floats.items()))


def lambda_factory(keys):
    d = defaultdict(lambda: "?")
    out = [d[k] for k in keys]
    d["x"] = "y"
    return (out, d["x"], len(d))


def shown(n):
    d = defaultdict(int)
    for i in range(n):
        d[i] += i
    e = defaultdict(list)
    e["a"].append(1.5)
    return (str(d), repr(e), str(defaultdict(str)))


def no_factory(k):
    d = defaultdict()
    d[1] = 2
    return d[k]


def initial_items(n):
    base = {(0, 1): 1, (1, 1): n}
    d = collections.defaultdict(None, base)
    e = collections.defaultdict(int, [("a", n), ("b", 2)])
    e["c"] += 1
    f = collections.defaultdict(list, {n: [1]})
    f[n].append(2)
    f[0].append(3)
    out = [str(d), str(e), str(f), repr(collections.defaultdict())]
    try:
        out.append(str(d[(5, 5)]))
    except KeyError:
        out.append("KeyError")
    return out


def queue(xs):
    q = deque(xs)
    q.append(100)
    q.appendleft(-1)
    first = q.popleft()
    last = q.pop()
    return (first, last, list(q), len(q), str(q), repr(deque()))


def rotations(n, k):
    q = deque(range(n))
    q.rotate(k)
    a = list(q)
    q.rotate()
    q.rotate(-2)
    q.extendleft([10, 11])
    return (a, list(q))


def bfs(size):
    seen = {(0, 0)}
    todo = deque([(0, 0, 0)])
    far = 0
    while todo:
        x, y, dist = todo.popleft()
        far = max(far, dist)
        for nx, ny in ((x + 1, y), (x, y + 1), (x - 1, y)):
            if 0 <= nx < size and 0 <= ny < size and (nx, ny) not in seen:
                seen.add((nx, ny))
                todo.append((nx, ny, dist + 1))
    return (len(seen), far)


def empty_popleft(n):
    q = deque([1] * n)
    while True:
        q.popleft()

def bounded_deques(n):
    d = deque(maxlen=3)
    for i in range(n):
        d.append(i)
    out = [str(d), str(d.maxlen), str(len(d))]
    d.appendleft(-1)
    out.append(repr(d))
    d.extend([10, 11])
    out.append(str(list(d)))
    e = collections.deque([1, 2, 3, 4, 5], 2)
    out.append(str(e))
    e.extendleft([7, 8, 9])
    out.append(str(e))
    plain = deque([1, 2])
    out.append(str(plain) + " " + str(plain.maxlen))
    return out


CASES = [
    (counts, [["a", "b", "a", "c", "a"]]),
    (groups, [8]),
    (factories, [5]),
    (lambda_factory, [["p", "q", "p"]]),
    (shown, [3]),
    (no_factory, [1]),
    (no_factory, [2]),
    (initial_items, [3]),
    (queue, [[1, 2, 3]]),
    (bounded_deques, [5]),
    (bounded_deques, [1]),
    (rotations, [5, 2]),
    (rotations, [4, -7]),
    (rotations, [1, 3]),
    (bfs, [6]),
    (empty_popleft, [2]),
]
