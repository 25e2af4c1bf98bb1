"""A function called with an int at one place and a float or a bool at
another computes with each kind as CPython does (`sq(3)` is 9, not 9.0):
every call gets the graph of its arguments' numeric kinds, also through a
function held in a variable or passed as an argument."""


def sq(x):
    return x * x


def cube(x):
    return x * x * x


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def apply(f, v):
    return f(v)


def scalars(n):
    return [str(sq(n)), str(sq(n + 0.5)), str(sq(n > 1)), str(clamp(n, 0, 5)),
            str(clamp(n * 1.5, 0.0, 2.5)), str(clamp(n > 2, False, True))]


def through_values(n):
    out = []
    for f in [sq, cube]:
        out.append(str(f(n)))
        out.append(str(f(n / 4)))
    out.append(str(apply(sq, n)))
    out.append(str(apply(cube, float(n))))
    g = sq if n > 5 else cube
    out.append(str(g(n)))
    out.append(str(g(0.5)))
    return out


def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


def recursion(n):
    return [str(fact(n)), str(fact(n) / 2)]


CASES = [
    (scalars, [3]),
    (scalars, [1]),
    (through_values, [2]),
    (through_values, [7]),
    (recursion, [10]),
]
