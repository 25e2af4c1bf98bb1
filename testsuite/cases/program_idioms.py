"""Idioms of whole programs: a string looked for in a constant tuple of
strings, `str()` and `%s` of an instance known as a base class whose
subclasses define `__str__` (or only `__repr__`), a constant string's
`format` method read before a loop ends, a tuple key sort, ordering a
tuple that may be None (TypeError for None), `dict(a=1, b=2)`."""


def is_operator(s):
    return [s in ("+", "-"), s in ("add", "sub", "+"), s not in ("*",)]


class Node:
    def evaluate(self):
        raise NotImplementedError


class Num(Node):
    def __init__(self, v):
        self.v = v

    def evaluate(self):
        return self.v

    def __str__(self):
        return str(self.v)


class Add(Node):
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def evaluate(self):
        return self.a.evaluate() + self.b.evaluate()

    def __str__(self):
        return "(%s + %s)" % (self.a, self.b)


class Neg(Node):
    def __init__(self, a):
        self.a = a

    def evaluate(self):
        return -self.a.evaluate()

    def __repr__(self):
        return "Neg(%s)" % (self.a,)


def show(n):
    tree = Add(Num(n), Add(Num(2), Neg(Num(3))))
    parts = [str(tree), "%s" % tree, repr(Neg(Num(n))), "<%r>" % (Neg(Num(n)),), "%s" % Neg(Num(1))]
    nodes = [Num(1), Neg(Num(n))]
    for x in nodes:
        parts.append("%s=%d" % (x, x.evaluate()))
    return parts


def table(n):
    counts = {}
    for i in range(n):
        k = "k%d" % (i % 3)
        counts[k] = counts.get(k, 0) + i
    lines = []
    for k in sorted(counts):
        lines.append(k)
    lines.append("{:>6}|{:<4}|{:^7.2f}".format("x", n, 3.14159))
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    lines.append(str(ranked))
    return lines


def best_cell(n):
    cells = {}
    for i in range(n):
        for j in range(n):
            cells[(i, j)] = (i * 3 + j * 5) % 7
    best = None
    bestval = -1
    for (i, j), v in sorted(cells.items()):
        if v > bestval or (v == bestval and (i, j) < best):
            best = (i, j)
            bestval = v
    return [best == (0, 4), best is None, bestval == 6]


def order_with_none(n):
    best = None
    if n > 2:
        best = (n, 1)
    return (2, 2) < best


def tuple_equalities(n):
    xs = list(range(1, n + 1))
    t = tuple(xs)
    best = None
    for i in range(n):
        best = (i, 4)
    return [(1, 2) == t, t == (1, 2), t != (1, 2, 3), (1, 2) < t,
            best == (n - 1, 4), best != (0, 4), (n - 1, 4) == best]


def list_vs_tuple(n):
    l = list(range(n))
    t = tuple(range(n))
    b = b"ab" * n
    ba = bytearray(b"ab" * n)
    return [l == t, t != l, b == ba, ba == b, ba != b"x"]


def keyword_dict(n):
    d = dict(alpha=n, beta=n * 2)
    return sorted(d.items())


CASES = [
    (is_operator, ["+"]),
    (is_operator, ["sub"]),
    (is_operator, ["*"]),
    (show, [5]),
    (table, [7]),
    (best_cell, [6]),
    (order_with_none, [3]),
    (order_with_none, [1]),
    (keyword_dict, [4]),
    (tuple_equalities, [2]),
    (tuple_equalities, [3]),
    (list_vs_tuple, [2]),
]
