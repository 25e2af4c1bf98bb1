"""Conversions through special methods (`float(x)` with `__float__`,
`int(x)` with `__int__` or `__index__`), and tuples of constants or of
nothing used as iterables (a parameter defaulting to `()`)."""


class V:
    def __init__(self, x):
        self.x = x

    def __float__(self):
        return self.x / 2

    def __int__(self):
        return self.x * 3


class Idx:
    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i + 1


def conversions(n):
    return (float(V(n)), int(V(n)), int(Idx(n)), float(V(n)) + int(V(n)))


def joined(n, stop=()):
    if stop:
        return " or ".join(stop)
    return "-" + "|".join(stop)


def listed(n, stop=()):
    return "|".join([s.upper() for s in stop]) + str(len(stop))


def defaults(n):
    return (joined(n), joined(n, ("endfor",)), joined(n, ("a", "b")), listed(n), listed(n, ("x",)))


CASES = [
    (conversions, [3]),
    (conversions, [-4]),
    (defaults, [1]),
]
