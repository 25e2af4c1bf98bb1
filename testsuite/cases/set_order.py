"""Sets iterate, show and pop in CPython's order: the order of the slots
of CPython's set table (Objects/setobject.c), which depends on the keys'
hashes, the table's size, its growth and the dummies that removals leave,
and on the order in which each operation visits and inserts keys.  Keys
whose hash is CPython's: ints, floats, bools, tuples of them and
instances with __hash__."""


def literals():
    return [str({5, 3, 1}), str({16, 3, 33, 49, 65}),
            str({64, 32, 16, 8, 0, 1, 2, 3, 128, 256, 96}),
            str({-1, -2, 7, 2 ** 40, -(2 ** 62), 1 << 61, 9}),
            repr({1000000007, 3, 1 << 33, -5})]


def built_literal(n):
    # BUILD_SET of values known at run time only: added one by one
    return [str({n, n + 8, n + 16}), str({n * 16, 3, n + 32, 49, 65})]


def adds(n):
    s = set()
    s.add(50)
    s.add(2)
    s.add(1)
    out = [str(s)]
    for i in range(n):
        s.add(i * 37 - 500)
        if i % 7 == 0:
            out.append(str(s))
    return out


def from_lists(n):
    xs = [i * 8 for i in range(n)] + [-i for i in range(n)] + [2 ** 61 + i for i in range(3)]
    ys = [x * 1000003 for x in xs[:-3]]
    return [str(set(xs)), str(set(ys)), str(set(reversed(xs))), str(set(range(n, 0, -3)))]


def removals_then_adds(n):
    s = set(range(n))
    for i in range(0, n, 2):
        s.remove(i)
    out = [str(s)]
    for i in range(n, n + 6):
        s.add(i * 8)
    out.append(str(s))
    s.discard(1)
    s.discard(10 ** 6)
    s.add(33)
    s.add(1)
    out.append(str(s))
    return out


def growth(n):
    s = set()
    out = []
    size = 1
    for i in range(n):
        s.add((i * 7919) % 100003 - 50000)
        if len(s) == size:
            out.append(str(s))
            size *= 3
    return out


def floats_and_tuples():
    f = {0.5, 1.0, 2.5, -3.25, 1e100, float(2 ** 53)}
    f.add(7.0)
    t = {(1, 2), (2, 1), (0, 0), (-1, 5), (3, 3)}
    t.add((9, 9))
    u = set()
    for i in range(12):
        u.add((i, i * i))
    return [str(f), str(t), str(u), str({(1.5, 2.0), (2.0, 1.5)})]


def bools():
    s = {True, False}
    s.discard(True)
    s.add(True)
    return str(s)


def binary_operators(n):
    a = set(range(0, 3 * n, 3))
    b = {x * 5 - 7 for x in range(n)}
    out = [str(a | b), str(a & b), str(a - b), str(a ^ b), str(b | a), str(b & a),
           str(b - a), str(b ^ a), str(a | a), str(a & a), str(a - a), str(a ^ a)]
    c = set(a)
    c |= b
    out.append(str(c))
    c = set(a)
    c &= b
    out.append(str(c))
    c = set(a)
    c -= b
    out.append(str(c))
    c = set(a)
    c ^= b
    out.append(str(c))
    c = set(b)
    c -= c
    out.append(str(c))
    return out


def methods_with_iterables(n):
    a = set(range(0, 2 * n, 2))
    xs = [x * 3 for x in range(n)] + [5, 5, 1]
    d = {}
    for x in xs:
        d[x * 2] = x
    out = [str(a.union(xs)), str(a.union(d)), str(a.union(xs, a, d)), str(a.union()),
           str(a.intersection(xs)), str(a.intersection(d)), str(a.intersection(xs, d)),
           str(a.intersection()), str(a.difference(xs)), str(a.difference(d)),
           str(a.difference(xs, d)), str(a.difference()),
           str(a.symmetric_difference(xs)), str(a.symmetric_difference(d)),
           str(a.union(set(xs))), str(a.intersection(set(xs))),
           str(a.difference(set(xs))), str(a.symmetric_difference(set(xs)))]
    c = a.copy()
    c.update(xs)
    out.append(str(c))
    c = a.copy()
    c.update(d, xs)
    out.append(str(c))
    c = a.copy()
    c.intersection_update(xs)
    out.append(str(c))
    c = a.copy()
    c.intersection_update(set(xs), d)
    out.append(str(c))
    c = a.copy()
    c.difference_update(xs)
    out.append(str(c))
    c = a.copy()
    c.difference_update(d, set(xs))
    out.append(str(c))
    c = a.copy()
    c.symmetric_difference_update(xs)
    out.append(str(c))
    c = a.copy()
    c.symmetric_difference_update(d)
    out.append(str(c))
    c = a.copy()
    c.symmetric_difference_update(set(xs))
    out.append(str(c))
    out.append(str(set(d)))
    return out


def copies(n):
    s = set()
    for i in range(n):
        s.add(i * 16)
    for i in range(0, n, 3):
        s.discard(i * 16)
    return [str(s), str(s.copy()), str(set(s)), str(set(list(s))), str(list(frozenset(s)))]


def comprehensions(n):
    return [str({x * x - 40 for x in range(n)}),
            str({(x % 5, x % 3) for x in range(n)}),
            str({x for x in range(n, -n, -5) if x % 2})]


def pops(n):
    s = set(range(0, n * 5, 5))
    out = []
    while s:
        out.append(s.pop())
        if len(out) % 4 == 0:
            s.add(len(out) * 1000)
        if len(out) > 3 * n:
            break
    s = {1, 9, 17, 25}
    out.append(s.pop())
    s.add(9)
    out.append(s.pop())
    out.append(s.pop())
    s.clear()
    s.add(3)
    s.add(4)
    out.append(s.pop())
    return out


def pop_empty():
    s = {1}
    s.pop()
    return s.pop()


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __hash__(self):
        return hash((self.x, self.y))

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __repr__(self):
        return "P(%d, %d)" % (self.x, self.y)


def instances(n):
    s = set()
    for i in range(n):
        s.add(Point(i % 4, i // 4))
    s.add(Point(0, 0))
    s.discard(Point(1, 1))
    t = {Point(0, 0), Point(3, 3), Point(-1, 2)}
    return [str(s), str(s & t), str(t | s), str([p.x * 10 + p.y for p in s])]


PRE = {16, 3, 33, 49, 65, 7, 100}
PRE_GROWN = set()
for _i in range(40):
    PRE_GROWN.add(_i * 13 - 100)
for _i in range(0, 40, 3):
    PRE_GROWN.discard(_i * 13 - 100)
PRE_POPPED = set(range(0, 64, 8))
PRE_POPPED.pop()
PRE_POPPED.pop()
PRE_FLOATS = {0.25, 2.0, -7.5, 100.125}
PRE_TUPLES = {(1, 2), (3, 4), (2, 1)}


def prebuilt():
    return [str(PRE), str(PRE_GROWN), str(PRE_POPPED), str(PRE_FLOATS), str(PRE_TUPLES),
            str(set(PRE)), str(PRE | PRE_POPPED)]


def prebuilt_mutated():
    s = PRE_GROWN
    out = [str(s)]
    s.add(1000)
    s.add(-100)
    out.append(str(s))
    out.append(str(PRE_POPPED.pop()))
    PRE_POPPED.add(5)
    out.append(str(PRE_POPPED))
    return out


def shows(n):
    s = {n, n * 9, -n, 33, 1}
    out = [str(s), repr(s), "%s" % s, "%r" % (s,), f"{s}", f"{s!r}", str(set()),
           "%s" % set(), str(list(frozenset(s))), str([s, s]), str((s, 1))]
    return out


def iteration(n):
    s = {n * 8, 1, n, -n, 17, 9}
    out = []
    for x in s:
        out.append(x)
    for i, x in enumerate(s):
        out.append(i * 1000 + x)
    out.append(sum(list(s)))
    out += list(s)
    out += [x + 1 for x in s]
    out += sorted(s)
    out.append(min(s))
    out.append(max(s))
    return out


def dict_from_set(n):
    s = {n * 8, 1, n, 17}
    d = dict.fromkeys(s, 0)
    return str(d) + str(list(zip(s, range(10))))


CASES = [
    (literals, []),
    (built_literal, [1]),
    (built_literal, [3]),
    (adds, [60]),
    (from_lists, [5]),
    (from_lists, [40]),
    (removals_then_adds, [20]),
    (removals_then_adds, [7]),
    (growth, [2000]),
    (floats_and_tuples, []),
    (bools, []),
    (binary_operators, [6]),
    (binary_operators, [30]),
    (methods_with_iterables, [4]),
    (methods_with_iterables, [25]),
    (copies, [5]),
    (copies, [50]),
    (comprehensions, [20]),
    (pops, [3]),
    (pops, [12]),
    (pop_empty, []),
    (instances, [12]),
    (prebuilt, []),
    (prebuilt_mutated, []),
    (shows, [3]),
    (shows, [1000]),
    (iteration, [2]),
    (iteration, [11]),
    (dict_from_set, [4]),
]
