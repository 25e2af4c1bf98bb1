"""Numbers whose kind is known at run time only: an int that meets a float
in one variable, return value, attribute or list keeps its kind, as in
CPython (shown as `0`, not `0.0`; `//` of two ints an int)."""
import math


def clamp(x):
    if x < 0:
        return 0
    return x * 1.5


def total(n):
    s = 0
    for i in range(n):
        s += i * 0.5
    return s


def pick(flag, n):
    v = n if flag else n / 2
    return v


def show(flag, n):
    v = n if flag else n * 0.25
    return str(v) + "|" + repr(v) + "|" + f"{v}|{v:>6}|{v:.2f}" + "|%s|%d|%.1f" % (v, v, v)


def arith(flag, n):
    v = n if flag else n + 0.5
    w = 3 if n > 2 else 2.0
    return (v + w, v - w, v * w, v // w, v % w, v ** 2, -v, abs(v), v / 4, +v)


def kinds(flag, n):
    v = n if flag else float(n)
    out = []
    if isinstance(v, int):
        out.append("int")
    if isinstance(v, float):
        out.append("float")
    if isinstance(v, (int, float)):
        out.append("number")
    return out


def narrowed(flag, n):
    v = n if flag else n * 1.0
    if isinstance(v, int):
        return v << 2
    return -1


def conversions(flag, n):
    v = n if flag else n + 0.75
    return (int(v), float(v), round(v), bool(v), round(v, 1), round(v, -1), hash(v) == hash(n))


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return "Vec(%s, %s)" % (self.x, self.y)

    def norm1(self):
        return abs(self.x) + abs(self.y)


def vectors(n):
    a = Vec(1, 2)
    b = Vec(1.5, n)
    return (repr(a), repr(b), str(a.norm1()), str(b.norm1()))


def in_lists(n):
    xs = [1, 2.5, n, n / 2]
    ys = [x * 2 for x in xs]
    return (str(xs), str(ys), max(xs), min(xs), sum(xs), sorted(ys))


def sums(n):
    empty = [x * 1.0 for x in range(n) if x > 100]
    full = [x * 1.0 for x in range(n)]
    return (sum(empty), sum(full), sum(full, 10), sum(empty, 0.0))


def extremes(n):
    a = max(n, 2.5)
    b = min(n, 2.5)
    return (str(a), str(b), a, b)


def compare(flag, n):
    v = n if flag else n + 0.0
    return (v == n, v < n + 1, v > 2, v != 3, v <= 2.5)


def divzero(flag, n):
    v = n if flag else n * 1.0
    try:
        return str(v // 0)
    except ZeroDivisionError as e:
        return "zde: " + str(e)


def powers(flag, n):
    v = n if flag else n * 1.0
    return (str(v ** 2), str(v ** -1), str(pow(v, 3)), str(2 ** v))


def mathy(flag, n):
    v = n if flag else n * 1.0
    return (math.sqrt(v), math.floor(v), v.is_integer() if isinstance(v, float) else True)


def fmt(flag, n):
    v = n if flag else n * 1.0
    return "{} {:5} {:<5}| {:e} {:g}".format(v, v, v, v, v)


def as_key(flag, n):
    v = n if flag else n * 1.0
    d = {}
    d[v] = "x"
    return (n in d, 1 in d, str(d))


def printing(flag, n):
    v = n if flag else n / 4
    print(v, [v, 1], (v,))
    print("v=%s" % v)
    return 0


class Acc:
    def __init__(self):
        self.total = 0
        self.items = []

    def add(self, x):
        self.total += x
        self.items.append(self.total)


def acc(n):
    a = Acc()
    for i in range(n):
        a.add(i / 2)
    return (str(a.total), str(a.items), a.total)


def sorting(n):
    xs = [3, 1.5, n, -2, 0.25]
    ys = sorted(xs)
    xs.sort(reverse=True)
    return (str(ys), str(xs), n in xs, xs.index(n), ys.count(1.5))


def dicts(n):
    d = {"a": 1, "b": 2.5}
    d["c"] = n
    s = {1, 2.0, n}
    return (str(d), sorted(s), len(s), str(list(d.values())))


def negs(flag, n):
    v = n if flag else n * 1.0
    return (str(v // 2), str(v % 3), str(-v // 4), str(divmod(7, 2)))


def nan(flag, x):
    v = 1 if flag else x
    return (v == v, str(v), str(-v))


def big(flag, n):
    v = n if flag else 0.5
    return str(v * 1000000007)


def tuples(flag, n):
    v = n if flag else n / 3
    t = (v, "x", v + 1)
    return str(t)


def loop(n):
    best = 0
    for i in range(n):
        x = math.sin(i)
        if x > best:
            best = x
    return best


def avg(n):
    vals = [float(i) for i in range(n)]
    t = sum(vals)
    return "%s %s" % (t, t / max(n, 1))


def min_mixed(n):
    return (str(min(3.5, n)), str(max(n, 0.5)), min(n, 2.0, 3), max([n, 0.5]))

CASES = [
    (clamp, [-1.0]),
    (clamp, [2.0]),
    (total, [0]),
    (total, [3]),
    (pick, [True, 7]),
    (pick, [False, 7]),
    (show, [True, 5]),
    (show, [False, 5]),
    (arith, [True, 5]),
    (arith, [False, 5]),
    (arith, [True, -7]),
    (arith, [False, 2]),
    (kinds, [True, 3]),
    (kinds, [False, 3]),
    (narrowed, [True, 3]),
    (narrowed, [False, 3]),
    (conversions, [True, 17]),
    (conversions, [False, 17]),
    (conversions, [True, 0]),
    (conversions, [False, -3]),
    (vectors, [3]),
    (vectors, [-2]),
    (in_lists, [4]),
    (in_lists, [1]),
    (sums, [0]),
    (sums, [4]),
    (extremes, [1]),
    (extremes, [4]),
    (compare, [True, 2]),
    (compare, [False, 2]),
    (divzero, [True, 2]),
    (divzero, [False, 2]),
    (powers, [True, 3]),
    (powers, [False, 3]),
    (mathy, [True, 16]),
    (mathy, [False, 16]),
    (fmt, [True, 42]),
    (fmt, [False, 42]),
    (as_key, [True, 1]),
    (as_key, [False, 1]),
    (printing, [True, 6]),
    (printing, [False, 6]),
    (acc, [0]), (acc, [4]),
    (sorting, [2]), (sorting, [7]),
    (dicts, [1]), (dicts, [3]),
    (negs, [True, -7]), (negs, [False, -7]),
    (nan, [True, float("nan")]), (nan, [False, float("nan")]), (nan, [False, -0.0]),
    (big, [True, 123456789]), (big, [False, 5]),
    (tuples, [True, 2]), (tuples, [False, 2]),
    (loop, [0]), (loop, [5]),
    (avg, [0]), (avg, [3]),
    (min_mixed, [1]),
    (min_mixed, [5]),
]
