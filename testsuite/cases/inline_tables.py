"""Iterating over tuples and lists of pairs holding functions and classes
(command tables written inline), lists of strs started from one-character
strs, and tuples of ints and floats iterated."""
from collections import deque


def inc(x):
    return x + 1


def dbl(x):
    return x * 2


def neg(x):
    return -x


class Red:
    def name(self):
        return "red"


class Blue(Red):
    def name(self):
        return "blue"


def table(n):
    total = 0
    names = []
    for name, fn in [("inc", inc), ("dbl", dbl), ("neg", neg)]:
        total += fn(n)
        names.append(name)
    return (total, names)


def table_tuple(n):
    out = []
    for fn, k in ((inc, 1), (dbl, 2)):
        out.append(fn(n) * k)
    return out


def classes(n):
    out = []
    for tag, cls in (("r", Red), ("b", Blue)):
        out.append(tag + ":" + cls().name())
    return out


def chars_first(s):
    q = deque([s[0]])
    q.append(s)
    l = [s[-1]]
    l.extend(["xy", s])
    return (list(q), l, q.popleft())


def mixed_numbers(n):
    out = []
    for x in (1, 2.5, n):
        out.append(str(x * 2))
    return out


CASES = [
    (table, [5]),
    (table_tuple, [3]),
    (classes, [0]),
    (chars_first, ["abc"]),
    (chars_first, ["Z"]),
    (mixed_numbers, [4]),
]
