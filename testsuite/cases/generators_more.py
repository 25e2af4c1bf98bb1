"""Generators: state kept across yields in nested loops and branches,
try/except around a yield, generators as methods and over containers,
early exit, exhaustion, and generators consumed by builtins."""


def windows(lst, k):
    for i in range(len(lst) - k + 1):
        yield lst[i:i + k]


def flatten(rows):
    for row in rows:
        for x in row:
            if x < 0:
                continue
            yield x


def guarded(n):
    for i in range(n):
        try:
            if i == 2:
                raise ValueError
            yield i * 10
        except ValueError:
            yield -1


class Tree(object):
    def __init__(self, value, kids):
        self.value = value
        self.kids = kids

    def values(self):
        yield self.value
        for k in self.kids:
            yield k.value


def use_windows(n):
    return [w for w in windows(list(range(n)), 3)]


def use_flatten(n):
    rows = [[i, -i, i * 2] for i in range(n)]
    return (list(flatten(rows)), sum(flatten(rows)))


def use_guarded(n):
    return list(guarded(n))


def use_tree(n):
    t = Tree(0, [Tree(i, []) for i in range(1, n)])
    return list(t.values())


def exhaustion(n):
    g = guarded(n)
    first = [x for x in g]
    second = [x for x in g]
    return (first, second)


def early_exit(n):
    found = -1
    for x in flatten([[5, -1, 7], [n, 9]]):
        if x > 6:
            found = x
            break
    return found


CASES = [
    (use_windows, [5]),
    (use_windows, [2]),
    (use_flatten, [4]),
    (use_flatten, [0]),
    (use_guarded, [4]),
    (use_guarded, [0]),
    (use_tree, [4]),
    (use_tree, [1]),
    (exhaustion, [3]),
    (early_exit, [8]),
    (early_exit, [0]),
]
