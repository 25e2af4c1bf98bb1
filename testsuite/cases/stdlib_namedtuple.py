"""collections.namedtuple: fields by name and index, unpacking, _replace,
defaults, ==, ordering (sort keys, heaps), hashing (dict keys), repr,
isinstance, prebuilt instances, and classes deriving from a namedtuple
with methods and operators (rpy3.stdlib.namedtuples)."""
from collections import namedtuple
import collections

Point = namedtuple("Point", ["x", "y"])
Item = collections.namedtuple("Item", "name price qty", defaults=[1])


class Vec(namedtuple("Vec", "dx dy")):
    __slots__ = ()

    def norm1(self):
        return abs(self.dx) + abs(self.dy)

    def __add__(self, other):
        return Vec(self.dx + other.dx, self.dy + other.dy)


ORIGIN = Point(0, 0)


def points(n):
    p = Point(n, n + 1)
    a, b = p
    q = p._replace(y=10)
    return ("%r %d" % (p, p.x + b), repr(q), p == Point(n, n + 1), p != q, p[0], p[-1], len(p), q < p, str(ORIGIN), ORIGIN.x)


def items(n):
    xs = [Item("apple", 1.5, n), Item("pear", 0.5), Item("fig", 2.0, 3)]
    xs.sort(key=lambda it: it.price)
    total = sum(it.price * it.qty for it in xs)
    names = [it.name for it in xs]
    return (names, total, repr(xs[0]), Item._fields)


def vectors(n):
    v = Vec(n, -2) + Vec(1, 1)
    seen = {Vec(1, 2): "a"}
    return (repr(v), v.norm1(), seen.get(Vec(1, 2), "?"), isinstance(v, Vec), isinstance(v, tuple), isinstance(n, tuple))


def heap_of_points(n):
    import heapq
    h = []
    for i in range(n):
        heapq.heappush(h, Point((i * 7) % 5, i))
    return [tuple(heapq.heappop(h)) for _ in range(n)]


CASES = [(points, [3]), (items, [2]), (vectors, [4]), (heap_of_points, [5])]
