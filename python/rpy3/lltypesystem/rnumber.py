"""Helpers of numbers whose kind is known at run time only (an int that
met a float, `Repr::Number`; a bool that met an int, `Repr::IntBool`): a
box `{isint, isbool, i, f}`, `f` always the value as a float, `i` the int
when `isint`, and `isbool` when that int is a bool.  Arithmetic follows
CPython: two ints give an int, anything with a float gives a float.
Plain RPython on low-level pointers: the rtyper annotates each on first
use."""
from rpy3.lltype import malloc, typeOf
from rpy3.lltypesystem.rstr import ll_format_int, ll_format_float, ll_format_bool
from rpy3.lltypesystem.rbuiltin import ll_int_round_digits


def _int(p, i):
    """A new box (of the type of `p`) holding the int `i`."""
    r = malloc(typeOf(p).TO)
    r.isint = True
    r.isbool = False
    r.i = i
    r.f = float(i)
    return r


def _float(p, f):
    """A new box (of the type of `p`) holding the float `f`."""
    r = malloc(typeOf(p).TO)
    r.isint = False
    r.isbool = False
    r.i = 0
    r.f = f
    return r


def ll_num_add(a, b):
    if a.isint and b.isint:
        return _int(a, a.i + b.i)
    return _float(a, a.f + b.f)


def ll_num_sub(a, b):
    if a.isint and b.isint:
        return _int(a, a.i - b.i)
    return _float(a, a.f - b.f)


def ll_num_mul(a, b):
    if a.isint and b.isint:
        return _int(a, a.i * b.i)
    return _float(a, a.f * b.f)


def ll_num_floordiv(a, b):
    if a.isint and b.isint:
        if b.i == 0:
            raise ZeroDivisionError("integer division or modulo by zero")
        return _int(a, a.i // b.i)
    if b.f == 0.0:
        raise ZeroDivisionError("float floor division by zero")
    return _float(a, a.f // b.f)


def ll_num_mod(a, b):
    if a.isint and b.isint:
        if b.i == 0:
            raise ZeroDivisionError("integer modulo by zero")
        return _int(a, a.i % b.i)
    if b.f == 0.0:
        raise ZeroDivisionError("float modulo")
    return _float(a, a.f % b.f)


def ll_num_pow(a, b):
    if a.isint and b.isint and b.i >= 0:
        return _int(a, a.i ** b.i)
    return _float(a, a.f ** b.f)


def ll_num_neg(a):
    if a.isint:
        return _int(a, -a.i)
    return _float(a, -a.f)


def ll_num_abs(a):
    if a.isint:
        return _int(a, abs(a.i))
    return _float(a, abs(a.f))


def ll_num_as_int(a):
    """The int of a number known to be an int (narrowed by isinstance)."""
    if not a.isint:
        raise TypeError("a float where an int is expected")
    return a.i


def ll_num_int(a):
    """`int(x)`."""
    if a.isint:
        return a.i
    return int(a.f)


def ll_num_round(a):
    """`round(x)`."""
    if a.isint:
        return a.i
    return round(a.f)


def ll_num_round_digits(a, n):
    """`round(x, n)`: an int stays an int (rounded to tens, hundreds...
    for a negative n), a float a float."""
    if a.isint:
        if n >= 0:
            return _int(a, a.i)
        return _int(a, ll_int_round_digits(a.i, n))
    return _float(a, round(a.f, n))


def ll_num_str(a):
    """`str(x)` (and `repr(x)`)."""
    if a.isbool:
        if a.i:
            return "True"
        return "False"
    if a.isint:
        return str(a.i)
    return repr(a.f)


def ll_num_hash(a):
    if a.isint:
        return hash(a.i)
    return hash(a.f)


def ll_num_eq(a, b):
    if a.isint and b.isint:
        return a.i == b.i
    return a.f == b.f


def ll_num_lt(a, b):
    if a.isint and b.isint:
        return a.i < b.i
    return a.f < b.f


def ll_num_is_int(a):
    return a.isint


def ll_num_is_bool(a):
    return a.isbool


def ll_num_format(a, spec):
    """`format(x, spec)`: as an int or as a float, by the kind (a bool
    with an empty spec as its name)."""
    if a.isbool:
        return ll_format_bool(a.i != 0, spec)
    if a.isint:
        return ll_format_int(a.i, spec)
    return ll_format_float(a.f, spec)


def ll_num_pick(cur, x, largest):
    """min()/max() of two numbers: `x` replaces `cur` only when strictly
    smaller (larger), as CPython keeps the first of equal items."""
    if largest:
        if ll_num_lt(cur, x):
            return x
        return cur
    if ll_num_lt(x, cur):
        return x
    return cur


def ll_num_sum(l, start):
    """sum(l, start) of a list of numbers of either kind."""
    total = start
    i = 0
    while i < l.length:
        total = ll_num_add(total, l.items[i])
        i += 1
    return total
