"""`functools.reduce` and the functions of `operator` for RPython programs:
plain RPython functions (a function held in a dict or passed to `reduce`
is one of them, see `rpy3.stdlib.replacement`)."""

from rpy3.rlib.objectmodel import specialize


@specialize.argtype(0, 1)
def reduce(function, iterable, *initial):
    """functools.reduce(function, iterable[, initial])"""
    it = iter(iterable)
    if len(initial) == 0:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value")
    else:
        value = initial[0]
    for element in it:
        value = function(value, element)
    return value


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def truediv(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def pow(a, b):
    return a ** b


def neg(a):
    return -a


def pos(a):
    return +a


def abs(a):
    if a < 0:
        return -a
    return a


def and_(a, b):
    return a & b


def or_(a, b):
    return a | b


def xor(a, b):
    return a ^ b


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def invert(a):
    return ~a


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def not_(a):
    return not a


def truth(a):
    return bool(a)


def getitem(a, b):
    return a[b]


def contains(a, b):
    return b in a


OPERATOR_NAMES = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                  "neg", "pos", "abs", "and_", "or_", "xor", "lshift",
                  "rshift", "invert", "eq", "ne", "lt", "le", "gt", "ge",
                  "not_", "truth", "getitem", "contains"]


# ----- the comparison methods @functools.total_ordering adds ---------------
# (CPython's return NotImplemented when the given method does; a program's
# methods here return bools, so these compute the same results without it)

def _gt_from_lt(self, other):
    return not (self < other) and self != other


def _le_from_lt(self, other):
    return self < other or self == other


def _ge_from_lt(self, other):
    return not (self < other)


def _ge_from_le(self, other):
    return not (self <= other) or self == other


def _lt_from_le(self, other):
    return self <= other and self != other


def _gt_from_le(self, other):
    return not (self <= other)


def _lt_from_gt(self, other):
    return not (self > other) and self != other


def _ge_from_gt(self, other):
    return self > other or self == other


def _le_from_gt(self, other):
    return not (self > other)


def _le_from_ge(self, other):
    return not (self >= other) or self == other


def _gt_from_ge(self, other):
    return self >= other and self != other


def _lt_from_ge(self, other):
    return not (self >= other)


TOTAL_ORDERING_NAMES = [
    "_gt_from_lt", "_le_from_lt", "_ge_from_lt", "_ge_from_le", "_lt_from_le",
    "_gt_from_le", "_lt_from_gt", "_ge_from_gt", "_le_from_gt", "_le_from_ge",
    "_gt_from_ge", "_lt_from_ge",
]
