"""Nested functions that capture variables used as values: sort keys
(`sorted`, `min`, `max`, `list.sort`, also inside loops whose variable they
capture), functions returned by a factory, stored in lists and passed to
`map` and `filter`, a lambda of a method capturing `self`; default
arguments computed at run time (`lambda x, i=i: ...`)."""


def by_value(n):
    d = {}
    for i in range(n):
        d["k%d" % i] = (i * 7) % n
    return sorted(d, key=lambda k: d[k])


def extremes(n):
    d = {i: (i * 5) % 7 for i in range(n)}
    return [max(d, key=lambda k: d[k]), min(d, key=lambda k: d[k]),
            max([3, 9, 4], key=lambda x: -abs(x - n)),
            min(n, n + 1, key=lambda x: d.get(x, 100)),
            max([], key=lambda x: x * n, default=-1)]


def sort_in_loop(n):
    out = []
    for k in range(n):
        xs = [5, 1, 4, 2, 3]
        xs.sort(key=lambda x: abs(x - k), reverse=k % 2 == 1)
        out.append(xs)
    return out


def stable(n):
    words = ["bb", "a", "cc", "d", "eee", "ff"]
    m = n
    return [sorted(words, key=lambda w: len(w) % m),
            sorted(words, key=lambda w: len(w) % m, reverse=True)]


def make_adder(n):
    return lambda x: x + n


def make_scaler(factor, offset):
    def scale(x):
        return x * factor + offset
    return scale


def factories(n):
    fs = [make_adder(n), make_adder(10), make_scaler(n, 1)]
    return [f(3) for f in fs]


def mapped(n):
    limit = n
    big = list(filter(lambda x: x > limit, range(10)))
    return list(map(lambda x: x * limit, big))


class Ranker:
    def __init__(self, weight):
        self.weight = weight

    def rank(self, xs):
        return sorted(xs, key=lambda x: (x * self.weight) % 5)

    def scorer(self):
        return lambda x: x * self.weight


def ranked(n):
    r = Ranker(n)
    f = r.scorer()
    return r.rank([1, 2, 3, 4, 5, 6]) + [f(2)]


def bound_by_default(n):
    fs = []
    for i in range(n):
        fs.append(lambda x, i=i: x * 10 + i)
    return [f(1) for f in fs]


def defaults_and_captures(n):
    base = n * 100
    fs = [lambda x, j=j: x + j + base for j in range(3)]
    return [f(1) for f in fs]


def nested_def_with_default(n):
    total = 0
    for i in range(n):
        def f(x, k=i * 2):
            return x + k
        total += f(1) + f(1, 5) + f(x=2)
    return total


def pivot_rows(n):
    a = [[(i * 7 + j * 3) % 5 - 2.0 for j in range(n)] for i in range(n)]
    out = []
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        out.append(piv)
        a[col], a[piv] = a[piv], a[col]
    return out


CASES = [
    (by_value, [5]),
    (extremes, [4]),
    (extremes, [6]),
    (sort_in_loop, [4]),
    (stable, [2]),
    (stable, [3]),
    (factories, [5]),
    (mapped, [6]),
    (ranked, [3]),
    (bound_by_default, [4]),
    (defaults_and_captures, [2]),
    (nested_def_with_default, [3]),
    (pivot_rows, [4]),
]
