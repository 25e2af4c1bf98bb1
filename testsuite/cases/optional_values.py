"""Ints, floats and bools that may be None: the running best of a search,
a result that is None when nothing was found, attributes that start as
None.  `is None` and truth tests narrow them; an operation on None raises
TypeError as in CPython; they compare (None equals only None) and show as
CPython shows them."""


def best_of(xs):
    best = None
    for x in xs:
        if best is None or x < best:
            best = x
    return best


def find(xs, target):
    for i in range(len(xs)):
        if xs[i] == target:
            return i
    return None


def found(n):
    r = find([3, 1, 4, 1, 5], n)
    return (r, str(r), r is None, r == 2, r != None, repr(r), "%s" % r, f"{r}")


class Node:
    def __init__(self, v):
        self.v = v
        self.weight = None


def weights(n):
    nodes = [Node(i) for i in range(n)]
    for nd in nodes:
        if nd.v % 2 == 0:
            nd.weight = nd.v * 1.5
    total = 0.0
    missing = 0
    for nd in nodes:
        if nd.weight is not None:
            total += nd.weight
        else:
            missing += 1
    return (total, missing, str(nodes[-1].weight) if nodes else "")


def add_one(x):
    return x + 1


def arith(flag):
    return add_one(7 if flag else None)


def truth(n):
    flag = None
    if n > 0:
        flag = n > 5
    count = None
    if n > 1:
        count = n - 3
    out = []
    if flag:
        out.append("flag")
    if not flag:
        out.append("not flag")
    if count:
        out.append("count")
    out.append(str(flag))
    out.append(str(count))
    return out


def in_list(n):
    vals = [None, 1, None, n]
    s = 0
    nones = 0
    for v in vals:
        if v is None:
            nones += 1
        else:
            s += v
    return (s, nones, str(vals), vals[1] == 1, vals[0] == vals[2])


def best_float(xs):
    best = None
    for x in xs:
        if best is None or x > best:
            best = x
    return best


def mins(n):
    return (best_of([5, 3, 8, n]), best_of([]), best_float([2.5, n * 1.0]), best_float([]))


CASES = [
    (found, [4]),
    (found, [9]),
    (weights, [0]),
    (weights, [5]),
    (arith, [True]),
    (arith, [False]),
    (truth, [0]),
    (truth, [1]),
    (truth, [2]),
    (truth, [9]),
    (in_list, [3]),
    (mins, [1]),
    (mins, [9]),
]
