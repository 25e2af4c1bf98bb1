"""`rpy3.rlib.unroll.unrolling_iterable`: a loop over one is unrolled at
translation time, its item a constant in each copy of the body (so
`getattr(self, 'op_' + name)` names a known method); methods overriding
each other that return instances of different classes."""
from rpy3.rlib.unroll import unrolling_iterable

OPS = unrolling_iterable(["add", "sub", "mul", "neg"])
PAIRS = unrolling_iterable([(1, "one"), (2, "two"), (3, "three")])


class Machine:
    def __init__(self, base):
        self.base = base

    def op_add(self, a, b):
        return a + b + self.base

    def op_sub(self, a, b):
        return a - b

    def op_mul(self, a, b):
        return a * b

    def op_neg(self, a, b):
        return -a

    def run(self, name, a, b):
        for op in OPS:
            if name == op:
                return getattr(self, "op_" + op)(a, b)
        return -1


def dispatch(a, b):
    m = Machine(100)
    return [m.run(n, a, b) for n in ["add", "sub", "mul", "neg", "div"]]


def name_of(k):
    for num, word in PAIRS:
        if num == k:
            return word
    return "many"


def count_ops(n):
    total = 0
    for i in range(n):
        for op in OPS:
            total += len(op) * i
    return total


class Value:
    def combine(self, other):
        raise NotImplementedError

    def show(self):
        return "?"


class Num(Value):
    def __init__(self, v):
        self.v = v

    def combine(self, other):
        return Num(self.v + 1)

    def show(self):
        return "num %d" % self.v


class Pair(Value):
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def show(self):
        return "pair(%s, %s)" % (self.a.show(), self.b.show())


class Fn(Value):
    def combine(self, other):
        return Pair(self, other)

    def show(self):
        return "fn"


def combine(k):
    vals = [Num(k), Fn(), Num(k * 2)]
    out = []
    for v in vals:
        out.append(v.combine(vals[0]).show())
    return out


CASES = [
    (dispatch, [7, 3]),
    (name_of, [2]),
    (name_of, [5]),
    (count_ops, [4]),
    (combine, [3]),
]
