"""Instances as dict keys and set items.  A class defining `__hash__` and
`__eq__` hashes and compares its instances through them, as Python does
(RPython refuses such classes); other instances hash by identity, and
`hash()` of one is its identity hash.  A class defining `__eq__` alone is
unhashable, as in Python."""


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __hash__(self):
        return hash((self.x, self.y))

    def __lt__(self, other):
        return (self.x, self.y) < (other.x, other.y)

    def __repr__(self):
        return "Point(%d, %d)" % (self.x, self.y)


class Point3(Point):
    def __init__(self, x, y, z):
        Point.__init__(self, x, y)
        self.z = z

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __hash__(self):
        return hash((self.x, self.y)) ^ 1


class Plain:
    def __init__(self, v):
        self.v = v


def dict_by_value(n):
    d = {}
    for i in range(n):
        p = Point(i % 3, i % 2)
        d[p] = d.get(p, 0) + 1
    return sorted([(k.x, k.y, v) for k, v in d.items()])


def lookups(a, b):
    d = {Point(1, 2): "one-two", Point(a, b): "ab"}
    return (d[Point(1, 2)], Point(a, b) in d, Point(b, a) in d, len(d))


def set_of_points(xs):
    s = set()
    for x in xs:
        s.add(Point(x, -x))
    return (len(s), [repr(p) for p in sorted(s)], Point(xs[0], -xs[0]) in s)


def subclass_keys(n):
    d = {}
    d[Point(1, 1)] = 1
    d[Point3(1, 1, 5)] = 2
    d[Point3(1, 1, 6)] = 3
    return (len(d), d[Point(1, 1)], d[Point3(1, 1, 0)])


def missing_key(a):
    d = {Point(0, 0): 1}
    return d[Point(a, a)]


def identity_keys(n):
    items = [Plain(i) for i in range(n)]
    d = {}
    for it in items:
        d[it] = it.v * 10
    same = Plain(0)
    return (d[items[n - 1]], same in d, hash(items[0]) == hash(items[0]), len(d))


CASES = [
    (dict_by_value, [10]),
    (lookups, [3, 4]),
    (lookups, [1, 2]),
    (set_of_points, [[1, 2, 1, 3, 2]]),
    (subclass_keys, [0]),
    (missing_key, [5]),
    (identity_keys, [4]),
]
