"""`@dataclasses.dataclass` classes: generated `__init__` (defaults,
`field(default_factory=...)`, `field(init=False)`, keyword-only fields,
`InitVar` and `__post_init__`, `ClassVar`), `__repr__`, `__eq__`, ordering
(`order=True`), `__hash__` of frozen classes (dict keys, set items), subclasses of dataclasses, methods of the
program's own kept, and class patterns of `match` through
`__match_args__`."""

from dataclasses import dataclass, field, InitVar, KW_ONLY
from typing import ClassVar


@dataclass
class Point:
    x: int
    y: int = 0

    def norm1(self):
        return abs(self.x) + abs(self.y)


@dataclass
class Point3(Point):
    z: int = 0


@dataclass(frozen=True)
class Key:
    name: str
    n: int


@dataclass(order=True)
class Task:
    priority: int
    name: str = field(default="task", compare=False)


@dataclass
class Bag:
    items: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    total: int = field(default=0, init=False)
    kind: ClassVar[str] = "bag"

    def add(self, x):
        self.items.append(x)
        self.counts[x] = self.counts.get(x, 0) + 1
        self.total += x


@dataclass
class Scaled:
    value: float
    factor: InitVar[float] = 1.0
    scaled: float = field(init=False)

    def __post_init__(self, factor):
        self.scaled = self.value * factor


@dataclass
class Opts:
    name: str
    _: KW_ONLY
    verbose: bool = False
    level: int = 1


@dataclass
class Named:
    label: str

    def __repr__(self):
        return "<" + self.label + ">"


def points(n):
    p = Point(n, 2)
    q = Point(n)
    return (p.norm1(), q.y, repr(p), repr(q), p == Point(n, 2), p != q, p == q)


def subclass(n):
    p = Point3(1, 2, n)
    return (repr(p), p.norm1(), p == Point3(1, 2, n), Point(1, 2) == Point3(1, 2, 0))


def frozen_keys(n):
    d = {Key("a", n): 1, Key("b", 2): 2}
    s = {Key("a", n), Key("a", n), Key("c", 0)}
    return (d[Key("a", n)], len(s), Key("b", 2) in d, repr(Key("a", n)), hash(Key("x", 1)) == hash(Key("x", 1)))


def ordering(n):
    ts = [Task(3, "c"), Task(n, "b"), Task(1)]
    ts.sort()
    return ([t.priority for t in ts], Task(1) < Task(2), Task(2) <= Task(2, "z"), Task(5) > Task(1), max(ts).name)


def ordering_other_class(n):
    try:
        return Task(1) < Point(n)
    except TypeError as e:
        return str(e)


def factories(n):
    a = Bag()
    b = Bag()
    for i in range(n):
        a.add(i % 2)
    return (len(a.items), len(b.items), a.total, sorted(a.counts.items()), Bag.kind, repr(b))


def post_init(n):
    s = Scaled(2.0, n)
    t = Scaled(3.5)
    return (s.scaled, t.scaled, repr(s))


def keyword_only(n):
    o = Opts("a", level=n)
    p = Opts("b", verbose=True)
    return (repr(o), repr(p), o == Opts("a", verbose=False, level=n))


def own_repr(n):
    return (repr(Named("x" * n)), str([Named("a"), Named("b")]), str([Point(1), Point(2, n)]))


def matching(n):
    out = []
    for p in [Point(0, n), Point(n, 0), Point(n, n), Point(1, 2)]:
        match p:
            case Point(0, y):
                out.append("y-axis %d" % y)
            case Point(x, 0):
                out.append("x-axis %d" % x)
            case Point(x=x, y=y) if x == y:
                out.append("diagonal %d" % x)
            case _:
                out.append("other")
    return out


CASES = [
    (points, [3]),
    (subclass, [4]),
    (frozen_keys, [1]),
    (ordering, [2]),
    (ordering_other_class, [1]),
    (factories, [5]),
    (post_init, [3]),
    (keyword_only, [2]),
    (own_repr, [2]),
    (matching, [3]),
]
