"""Generators of different generator functions in one variable: a generator
method overridden by subclasses (tree walks with `yield from`), a
conditional choice, a list and a tuple of generators."""
class Node:
    def __init__(self, v):
        self.v = v

    def walk(self):
        yield self.v


class Pair(Node):
    def __init__(self, v, left, right):
        Node.__init__(self, v)
        self.left = left
        self.right = right

    def walk(self):
        yield self.v
        for x in self.left.walk():
            yield x
        yield from self.right.walk()


class Triple(Node):
    def walk(self):
        for i in range(3):
            yield self.v * 10 + i


def build(n):
    if n <= 0:
        return Node(1) if n == 0 else Triple(7)
    return Pair(n, build(n - 1), build(n - 2))


def run(n):
    t = build(n)
    out = list(t.walk())
    total = sum(t.walk())
    first = next(t.walk())
    return (out, total, first, max(t.walk()), any(x > 50 for x in t.walk()))


CASES = [(run, [0]), (run, [-1]), (run, [3]), (run, [5])]


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


def squares(n):
    i = 0
    while i * i < n:
        yield i * i
        i += 1


def chosen(n):
    g = evens(n) if n % 2 else squares(n)
    gens = [evens(n), squares(n)]
    out = [list(x) for x in gens]
    return (list(g), out, [sum(h) for h in (evens(n), squares(n + 1))])


CASES += [(chosen, [7]), (chosen, [10])]
