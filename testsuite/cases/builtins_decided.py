"""More built-ins: round() of ints with negative digits, type(x) compared
with built-in types, callable(), next(it, default) with a default of
another kind, and ovfcheck(abs(x))."""
from rpy3.rlib.rarithmetic import ovfcheck


def round_int(x, n):
    return round(x, n)


def type_equality(n):
    return (type(n) == int, type(n) is int, type(str(n)) is str, type(n) is float, type(n) != bool, type(1.5) == float)


class F:
    def __call__(self, x):
        return x

class G:
    pass

def f(x):
    return x

def run(n):
    return (callable(f), callable(n), callable(F()), callable(G()), callable(len), callable(G), callable("s"), callable(F()(n)))


def manual(n):
    it = iter(range(n))
    total = 0
    while True:
        v = next(it, None)
        if v is None:
            break
        total += v
    return total


def first(n):
    xs = [3, 8, 1, 9]
    a = next((x for x in xs if x > n), None)
    b = next((x for x in xs if x > n), -1)
    c = next(iter("abc"), "none")
    d = next(iter(""), "none")
    e = next(iter([1.5]), 0)
    return (a, b, c, d, str(e))


def minint_abs(x):
    try:
        return ovfcheck(abs(x))
    except OverflowError:
        return 0


CASES = [
    (round_int,[1234,-2]),
    (round_int,[1250,-2]),
    (round_int,[-1350,-2]),
    (round_int,[7,2]),
    (round_int,[-15,-1]),
    (round_int,[25,-1]),
    (round_int,[123,-30]),
    (type_equality,[3]),
    (run, [1]),
    (manual, [5]),
    (manual, [0]),
    (first, [4]),
    (first, [20]),
    (minint_abs, [-9223372036854775808]),
    (minint_abs, [-3]),
]
