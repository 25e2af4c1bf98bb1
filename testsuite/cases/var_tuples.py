"""Tuples whose length is known only at run time: `tuple()` of a list or
any iterable, tuples of several lengths in one variable, concatenation in
a loop.  They index, slice, compare, hash (as dict keys and set items,
with CPython's hash) and show as tuples."""

LINES = ((1, 2, 3), (4, 5), (), (6,))
NESTED = (((1, 2), (3,)), ((4, 5, 6),), ())


def from_list(n):
    xs = [i * i for i in range(n)]
    t = tuple(xs)
    xs.append(99)
    return (len(t), t[n - 1] if n else -1, str(t), repr(t), list(t))


def pick(i):
    t = LINES[i]
    total = 0
    for x in t:
        total += x
    return (total, len(t), str(t), t)


def nested(i, j):
    out = []
    for line in NESTED[i]:
        out.append(len(line))
        for x in line:
            out.append(x)
    return (out, str(NESTED[i]), len(NESTED[j]))


def grow(n):
    t = ()
    for i in range(n):
        t = t + (i,)
    u = ()
    for i in range(n):
        u += (i * 2,)
    return (t, u, t == u, t < u, t[1:], t[::-1], str(t[:1]), 3 in t, t.count(2), hash(t) == hash(tuple(range(n))))


def as_keys(n):
    d = {}
    for i in range(n):
        key = tuple(range(i % 4))
        d[key] = d.get(key, 0) + 1
    s = set()
    for i in range(n):
        s.add(tuple([j % 3 for j in range(i % 5)]))
    return (sorted(d.items()), len(s), () in s, (0, 1, 2) in d)


def hashes(n):
    return (hash(tuple(range(n))), hash(tuple([float(i) for i in range(n)])), hash(tuple([(i, -i) for i in range(n)])))


def of_strings(s):
    t = tuple(s.split())
    c = tuple(s)
    return (t, len(c), str(t), c[:3], sorted(t), t.index(t[-1]) if t else -1)


def mixed(flag):
    t = (1, 2)
    if flag:
        t = (3, 4, 5)
    a = t * 2
    return (t, a, len(a), isinstance(t, tuple), isinstance(t, list), max(t), min(t), sum(t))


def unpack(n):
    t = tuple(range(n))
    a, b, c = t
    first, *rest = tuple(range(n + 2))
    return (a + b + c, first, rest)


def tuple_of_tuples(n):
    rows = []
    for i in range(n):
        rows.append(tuple(range(i)))
    t = tuple(rows)
    return (t, str(t), len(t), t[-1] if t else ())


def alias(n):
    t = (1,)
    if n > 5:
        t = (1, 2)
    u = t
    for i in range(n):
        t += (i,)
    v = t
    t = t + (9,)
    return (u, v, t)


CASES = [
    (alias, [0]),
    (alias, [3]),
    (alias, [7]),
    (from_list, [0]),
    (from_list, [1]),
    (from_list, [5]),
    (pick, [0]),
    (pick, [1]),
    (pick, [2]),
    (pick, [3]),
    (pick, [7]),
    (nested, [0, 1]),
    (nested, [1, 2]),
    (nested, [2, 0]),
    (grow, [0]),
    (grow, [4]),
    (as_keys, [12]),
    (hashes, [0]),
    (hashes, [3]),
    (of_strings, ["the quick brown fox"]),
    (of_strings, [""]),
    (mixed, [True]),
    (mixed, [False]),
    (unpack, [3]),
    (unpack, [4]),
    (tuple_of_tuples, [0]),
    (tuple_of_tuples, [4]),
]
