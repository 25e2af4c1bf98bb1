"""The protocols CPython falls back on: `a > b` where only `__lt__` is
defined calls the right operand's `__lt__` (reflected); `x in obj` where
the class defines `__iter__` but not `__contains__` goes over the items;
iterating over an object whose class defines `__getitem__` but not
`__iter__` indexes it from 0 until IndexError; an instance called with
keyword arguments goes to its `__call__` (defaults included)."""


class OnlyLt:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return self.v < other.v


def reflected(a, b):
    x, y = OnlyLt(a), OnlyLt(b)
    return (x > y, x < y, y > x)


class Bag:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(0, self.n * 2, 2))


def contains_by_iteration(k):
    b = Bag(5)
    return (k in b, k + 1 in b, k not in b, [i for i in range(6) if i in b])


class Squares:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError("past the end")
        return i * i


def old_protocol(n):
    total = 0
    for x in Squares(n):
        total += x
    return (total, [x + 1 for x in Squares(3)], [x for x in Squares(n) if x % 2 == 0])


class CallCounter:
    def __init__(self):
        self.calls = 0

    def __call__(self, a, b=1):
        self.calls += 1
        return a * b


def call_keywords(n):
    c = CallCounter()
    return (c(n), c(n, 3), c(b=4, a=n), c(n, b=5), c.calls)


CASES = [
    (reflected, [1, 2]),
    (reflected, [2, 2]),
    (contains_by_iteration, [4]),
    (contains_by_iteration, [5]),
    (old_protocol, [4]),
    (old_protocol, [0]),
    (call_keywords, [5]),
]
