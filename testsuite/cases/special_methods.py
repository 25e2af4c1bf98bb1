"""Special methods of the program's classes: operators, indexing,
len/in/iter/next, str/repr (print, f-strings), calls, comparisons."""


class Vec(object):
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __lt__(self, other):
        return self.x * self.x + self.y * self.y < other.x * other.x + other.y * other.y

    def __repr__(self):
        return "Vec(%d, %d)" % (self.x, self.y)


def vectors(n):
    a = Vec(n, 2)
    b = Vec(1, n)
    c = a + b - Vec(1, 1)
    d = 3 * c
    e = c * 2
    f = -e
    f += a
    return (d.x, d.y, e.x, f.y, a == Vec(n, 2), a != b, a < b, repr(f), str(a))


class Grid(object):
    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.cells = [0] * (w * h)

    def __getitem__(self, pos):
        x, y = pos
        return self.cells[y * self.w + x]

    def __setitem__(self, pos, value):
        x, y = pos
        self.cells[y * self.w + x] = value

    def __len__(self):
        return self.w * self.h

    def __contains__(self, value):
        return value in self.cells

    def __str__(self):
        rows = []
        for y in range(self.h):
            rows.append(" ".join([str(self[(x, y)]) for x in range(self.w)]))
        return "\n".join(rows)


def grid(n):
    g = Grid(3, 2)
    g[(1, 1)] = n
    g[(0, 0)] = g[(1, 1)] + 1
    return (len(g), n in g, 99 in g, str(g), f"{g}")


class Countdown(object):
    def __init__(self, start):
        self.current = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.current <= 0:
            raise StopIteration
        self.current -= 1
        return self.current


class Tree(object):
    def __init__(self, value, children):
        self.value = value
        self.children = children

    def __iter__(self):
        yield self.value
        for c in self.children:
            for v in c:
                yield v


def iteration(n):
    total = 0
    for i in Countdown(n):
        total += i
    t = Tree(1, [Tree(2, []), Tree(3, [Tree(4, [])])])
    values = [v for v in t]
    it = iter(Countdown(3))
    first = next(it)
    return (total, values, first)


class Adder(object):
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return x + self.k


def calls(n):
    add = Adder(n)
    return add(10) + add(add(1))


def printing(n):
    v = Vec(n, -n)
    print(v, Vec(1, 2))
    print("grid:", Grid(2, 1))
    return n


class Key(object):
    def __init__(self, x):
        self.x = x

    def __eq__(self, o):
        return self.x == o.x

    def __lt__(self, o):
        return self.x < o.x


def containers(n):
    # list methods and sorting compare items through __eq__ and __lt__
    items = [Key(3), Key(n), Key(1)]
    ordered = sorted(items)
    return (items.index(Key(n)), Key(n) in items, items.count(Key(3)),
            [k.x for k in ordered], max(items).x)


class Queue(object):
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)


def truth_by_length(n):
    # without __bool__, an instance is true when its length is not zero
    q = Queue()
    r = 0
    if not q:
        r += 1
    for i in range(n):
        q.items.append(i)
    while q:
        q.items.pop()
        r += 10
    return r, bool(q), len(q)


def builtins_over_instances(n):
    # built-ins iterate over instances through __iter__ (an iterator
    # instance or a generator method)
    t = Tree(1, [Tree(2, []), Tree(3, [Tree(n, [])])])
    return (sum(Countdown(n)), list(Countdown(n)), list(t), sorted(t), max(t),
            min(Countdown(3)), any(Countdown(n)), all(t),
            [x for x in enumerate(Countdown(2))])


CASES = [
    (builtins_over_instances, [4]),
    (builtins_over_instances, [0]),
    (truth_by_length, [3]),
    (containers, [2]),
    (containers, [5]),
    (vectors, [5]),
    (vectors, [-2]),
    (grid, [7]),
    (iteration, [4]),
    (calls, [3]),
    (printing, [2]),
]
