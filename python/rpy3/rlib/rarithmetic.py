"""Machine-word integer arithmetic that behaves the same before and after
translation (the counterpart of ``rpython.rlib.rarithmetic``).

The target is a 64-bit machine: ``LONG_BIT == 64``.

Plain ``int``
    A signed machine word in translated code.  Under CPython it does not
    wrap; use ``intmask()`` where wrap-around is intended and
    ``ovfcheck()`` where overflow must be detected.

``r_uint`` (and its alias ``r_ulonglong``)
    An unsigned 64-bit machine word.  Every arithmetic result (``+ - *
    // % ** << >> & | ^``, unary ``-`` and ``~``), including arithmetic
    mixed with a plain ``int`` on either side, is again an ``r_uint``
    reduced modulo ``2**64``.  The value is always in ``0 .. 2**64-1``, so
    comparisons compare unsigned values (``r_uint(-1) == 2**64 - 1``).
    Before ``//``, ``%`` and ``/`` the other operand is first converted to
    unsigned, as translated code does, so division is unsigned floor
    division; dividing by zero raises ``ZeroDivisionError``.

``r_int`` (and its alias ``r_longlong``)
    A signed 64-bit machine word: the same kind as a plain ``int`` in
    translated code, but wrapping on every operation under CPython too.

Unsignedness is contagious: an operation mixing ``r_uint`` with ``r_int``
gives an ``r_uint``.  A shift keeps the type of its left operand (``int <<
r_uint`` is a plain ``int``).  Mixing with a ``float`` gives a ``float``.
As on a 64-bit PyPy, ``r_longlong is r_int`` and ``r_ulonglong is r_uint``.
"""

import operator

__all__ = [
    "LONG_BIT", "LONG_MASK", "LONG_TEST", "LONGLONG_BIT", "LONGLONG_MASK",
    "maxint", "base_int", "r_uint", "r_int", "r_ulonglong", "r_longlong",
    "intmask", "longlongmask", "ovfcheck", "widen",
]

LONG_BIT = 64
LONG_MASK = (1 << LONG_BIT) - 1
LONG_TEST = 1 << (LONG_BIT - 1)

LONGLONG_BIT = 64
LONGLONG_MASK = (1 << LONGLONG_BIT) - 1
LONGLONG_TEST = 1 << (LONGLONG_BIT - 1)

# the replacement for Python 2's sys.maxint
maxint = LONG_TEST - 1

_MININT = -LONG_TEST
_MODULUS = 1 << LONG_BIT


def _to_unsigned(v):
    return v & LONG_MASK


def _to_signed(v):
    v &= LONG_MASK
    if v >= LONG_TEST:
        v -= _MODULUS
    return v


def _as_int_value(val):
    """Convert a constructor argument to a Python int (floats truncate)."""
    if type(val) is int:
        return val
    if isinstance(val, int):
        return int(val)
    if isinstance(val, float):
        return int(val)     # truncates; NaN and infinities raise
    return operator.index(val)


class base_int(int):
    """Common base of the fixed-width integer classes (abstract)."""

    __slots__ = ()

    BITS = LONG_BIT
    SIGNED = True
    MASK = LONG_MASK

    def __new__(cls, val=0):
        if cls is base_int:
            raise TypeError("base_int is abstract")
        return int.__new__(cls, cls._norm(_as_int_value(val)))

    # subclasses: map any Python int to the canonical value of this class
    @staticmethod
    def _norm(v):
        raise NotImplementedError


def _restype(a, b):
    """The class of the result of a binary operation between the
    fixed-width integer 'a' and the integer 'b' (plain int, bool or
    another fixed-width integer)."""
    ta = type(a)
    tb = type(b)
    if ta is tb or not isinstance(b, base_int):
        return ta
    # both are machine words of the same width: unsigned is contagious
    if not ta.SIGNED:
        return ta
    if not tb.SIGNED:
        return tb
    return ta


def _make_binop(fn, name):
    def op(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        norm = R._norm
        return R(fn(norm(int(self)), norm(int(other))))

    def rop(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        norm = R._norm
        return R(fn(norm(int(other)), norm(int(self))))

    op.__name__ = "__%s__" % name
    rop.__name__ = "__r%s__" % name
    return op, rop


class _word_ops(base_int):
    """Operators shared by r_uint and r_int."""

    __slots__ = ()

    __add__, __radd__ = _make_binop(operator.add, "add")
    __sub__, __rsub__ = _make_binop(operator.sub, "sub")
    __mul__, __rmul__ = _make_binop(operator.mul, "mul")
    __floordiv__, __rfloordiv__ = _make_binop(operator.floordiv, "floordiv")
    __mod__, __rmod__ = _make_binop(operator.mod, "mod")
    __and__, __rand__ = _make_binop(operator.and_, "and")
    __or__, __ror__ = _make_binop(operator.or_, "or")
    __xor__, __rxor__ = _make_binop(operator.xor, "xor")

    def __divmod__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        q, r = divmod(R._norm(int(self)), R._norm(int(other)))
        return (R(q), R(r))

    def __rdivmod__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        q, r = divmod(R._norm(int(other)), R._norm(int(self)))
        return (R(q), R(r))

    def __truediv__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        return R._norm(int(self)) / R._norm(int(other))

    def __rtruediv__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        return R._norm(int(other)) / R._norm(int(self))

    def __pow__(self, other, modulo=None):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        exponent = int(other)
        if exponent < 0:
            raise ValueError("negative exponent for a machine-word integer")
        base = R._norm(int(self))
        if modulo is None:
            return R(pow(base, exponent, _MODULUS))
        return R(pow(base, exponent, R._norm(int(modulo))))

    def __rpow__(self, other, modulo=None):
        if not isinstance(other, int):
            return NotImplemented
        R = _restype(self, other)
        exponent = R._norm(int(self))
        if exponent < 0:
            raise ValueError("negative exponent for a machine-word integer")
        base = R._norm(int(other))
        if modulo is None:
            return R(pow(base, exponent, _MODULUS))
        return R(pow(base, exponent, R._norm(int(modulo))))

    # shifts keep the type of the left operand
    def __lshift__(self, n):
        if not isinstance(n, int):
            return NotImplemented
        count = int(n)
        if count < 0:
            raise ValueError("negative shift count")
        if count >= 2 * LONG_BIT:
            return type(self)(0)
        return type(self)(int(self) << count)

    def __rshift__(self, n):
        if not isinstance(n, int):
            return NotImplemented
        count = int(n)
        if count < 0:
            raise ValueError("negative shift count")
        return type(self)(int(self) >> count)

    def __rlshift__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return int(other) << int(self)

    def __rrshift__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return int(other) >> int(self)

    def __neg__(self):
        return type(self)(-int(self))

    def __pos__(self):
        return self

    def __abs__(self):
        return type(self)(abs(int(self)))

    def __invert__(self):
        return type(self)(~int(self))


class r_uint(_word_ops):
    """An unsigned 64-bit machine word (values 0 .. 2**64-1); every
    arithmetic operation wraps modulo 2**64."""

    __slots__ = ()

    BITS = LONG_BIT
    SIGNED = False
    MASK = LONG_MASK

    _norm = staticmethod(_to_unsigned)

    def __new__(cls, val=0):
        if type(val) is int and 0 <= val <= LONG_MASK:
            return int.__new__(cls, val)
        return int.__new__(cls, _as_int_value(val) & LONG_MASK)

    def __abs__(self):
        return self


class r_int(_word_ops):
    """A signed 64-bit machine word; every arithmetic operation wraps to
    the range -2**63 .. 2**63-1.  In translated code this is the same type
    as a plain int."""

    __slots__ = ()

    BITS = LONG_BIT
    SIGNED = True
    MASK = LONG_MASK

    _norm = staticmethod(_to_signed)

    def __new__(cls, val=0):
        if type(val) is int and _MININT <= val <= maxint:
            return int.__new__(cls, val)
        return int.__new__(cls, _to_signed(_as_int_value(val)))


# On a 64-bit target "long long" and "long" have the same width, and
# rpython.rlib.rarithmetic then uses the very same classes.
r_ulonglong = r_uint
r_longlong = r_int


def intmask(n):
    """Wrap an integer (int, bool, r_uint, r_int) to a signed 64-bit
    machine word and return it as a plain int.  Floats are refused, as in
    RPython: truncate them with int() first."""
    if type(n) is int:
        if _MININT <= n <= maxint:
            return n
        return _to_signed(n)
    if isinstance(n, float):
        raise TypeError("intmask() of a float: use int() first")
    return _to_signed(int(operator.index(n)))


def longlongmask(n):
    """Wrap an integer to a signed 64-bit r_longlong."""
    if isinstance(n, float):
        raise TypeError("longlongmask() of a float: use int() first")
    return r_longlong(operator.index(n))


def ovfcheck(r):
    """To be used as ``ovfcheck(x <op> y)`` with a plain-int operation:
    return the result if it fits in a signed 64-bit machine word, otherwise
    raise OverflowError (which is what the translated checked operation
    does)."""
    if type(r) is int or type(r) is bool:
        if _MININT <= r <= maxint:
            return r
        raise OverflowError("signed integer expression did overflow")
    if isinstance(r, base_int):
        raise TypeError("ovfcheck() applies to plain int operations, "
                        "not to %s" % type(r).__name__)
    if isinstance(r, int):
        if _MININT <= r <= maxint:
            return r
        raise OverflowError("signed integer expression did overflow")
    raise TypeError("ovfcheck() applies to integer operations, not to %s"
                    % type(r).__name__)


def widen(n):
    """Widen an integer of a type smaller than a signed machine word to a
    plain int (bool -> int, r_int -> int).  A plain int is returned as it
    is, and so is an r_uint (already full-width; as in PyPy, its value is
    the unsigned value and it stays unsigned)."""
    if type(n) is int:
        return n
    if isinstance(n, r_uint):
        return n
    if isinstance(n, int):
        return intmask(n)
    raise TypeError("widen() applies to integers, not to %s"
                    % type(n).__name__)


# The checked operations `ovfcheck(x <op> y)` becomes in flow graphs
# (`add_ovf`, ...): the operation, then the overflow check.
def _add_ovf(x, y):
    return ovfcheck(x + y)


def _sub_ovf(x, y):
    return ovfcheck(x - y)


def _mul_ovf(x, y):
    return ovfcheck(x * y)


def _floordiv_ovf(x, y):
    return ovfcheck(x // y)


def _mod_ovf(x, y):
    return ovfcheck(x % y)


def _lshift_ovf(x, y):
    return ovfcheck(x << y)


def _neg_ovf(x):
    return ovfcheck(-x)


def _abs_ovf(x):
    return ovfcheck(abs(x))
