"""Complex numbers, written in RPython: the flow space replaces the
built-in `complex` by the class `Complex` here and every complex constant
(`1j`, `2+3j`) by a prebuilt instance of it, and the annotator lets an
int, float or bool meet a complex as a complex (`z = 0` then
`z = z * z + c`).  The arithmetic follows CPython's `complexobject.c` step
by step (`_Py_c_prod`, `_Py_c_quot`, `c_powu`, `_Py_c_pow`), so results
are the same to the bit, and the text is CPython's `repr`."""

import math

from rpy3.rlib.objectmodel import specialize
from rpy3.rlib.rarithmetic import intmask


class Complex(object):
    """A complex number (immutable)."""

    _rpy3_number_ = True

    def __init__(self, real=0.0, imag=0.0):
        self.real = float(real)
        self.imag = float(imag)

    def conjugate(self):
        return Complex(self.real, -self.imag)

    def __add__(self, other):
        o = _as_complex(other)
        return Complex(self.real + o.real, self.imag + o.imag)

    def __radd__(self, other):
        o = _as_complex(other)
        return Complex(o.real + self.real, o.imag + self.imag)

    def __sub__(self, other):
        o = _as_complex(other)
        return Complex(self.real - o.real, self.imag - o.imag)

    def __rsub__(self, other):
        o = _as_complex(other)
        return Complex(o.real - self.real, o.imag - self.imag)

    def __mul__(self, other):
        return _prod(self, _as_complex(other))

    def __rmul__(self, other):
        return _prod(_as_complex(other), self)

    def __truediv__(self, other):
        return _quot(self, _as_complex(other))

    def __rtruediv__(self, other):
        return _quot(_as_complex(other), self)

    def __pow__(self, other):
        return _power(self, _as_complex(other))

    def __rpow__(self, other):
        return _power(_as_complex(other), self)

    def __neg__(self):
        return Complex(-self.real, -self.imag)

    def __pos__(self):
        return Complex(self.real, self.imag)

    def __abs__(self):
        return math.hypot(self.real, self.imag)

    def __bool__(self):
        return self.real != 0.0 or self.imag != 0.0

    def __eq__(self, other):
        o = _as_complex(other)
        return self.real == o.real and self.imag == o.imag

    def __ne__(self, other):
        o = _as_complex(other)
        return not (self.real == o.real and self.imag == o.imag)

    def __hash__(self):
        h = intmask(hash(self.real) + 1000003 * hash(self.imag))
        if h == -1:
            h = -2
        return h

    def __repr__(self):
        if self.real == 0.0 and math.copysign(1.0, self.real) == 1.0:
            return _short(self.imag) + "j"
        im = _short(self.imag)
        if not im.startswith("-"):
            im = "+" + im
        return "(" + _short(self.real) + im + "j)"

    def __str__(self):
        return self.__repr__()


# the built-in's name, for the flow space's replacement table
complex = Complex


def _short(x):
    """repr() of a float without the '.0' that marks it a float (CPython's
    'r' format without Py_DTSF_ADD_DOT_0)."""
    s = repr(x)
    if s.endswith(".0"):
        return s[:-2]
    return s


@specialize.argtype(0)
def _as_complex(x):
    if isinstance(x, Complex):
        return x
    return Complex(float(x), 0.0)


def _prod(a, b):
    return Complex(a.real * b.real - a.imag * b.imag,
                   a.real * b.imag + a.imag * b.real)


def _quot(a, b):
    abs_breal = -b.real if b.real < 0 else b.real
    abs_bimag = -b.imag if b.imag < 0 else b.imag
    if abs_breal >= abs_bimag:
        if abs_breal == 0.0:
            raise ZeroDivisionError("complex division by zero")
        ratio = b.imag / b.real
        denom = b.real + b.imag * ratio
        return Complex((a.real + a.imag * ratio) / denom,
                       (a.imag - a.real * ratio) / denom)
    if abs_bimag >= abs_breal:
        ratio = b.real / b.imag
        denom = b.real * ratio + b.imag
        return Complex((a.real * ratio + a.imag) / denom,
                       (a.imag * ratio - a.real) / denom)
    # one of b's parts is a NaN
    return Complex(float("nan"), float("nan"))


def _powu(x, n):
    r = Complex(1.0, 0.0)
    p = x
    mask = 1
    while mask > 0 and n >= mask:
        if n & mask:
            r = _prod(r, p)
        mask <<= 1
        p = _prod(p, p)
    return r


def _power(a, b):
    if b.imag == 0.0 and b.real == math.floor(b.real) and abs(b.real) <= 100.0:
        n = int(b.real)
        if n > 0:
            return _powu(a, n)
        d = _powu(a, -n)
        if d.real == 0.0 and d.imag == 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        return _quot(Complex(1.0, 0.0), d)
    if b.real == 0.0 and b.imag == 0.0:
        return Complex(1.0, 0.0)
    if a.real == 0.0 and a.imag == 0.0:
        if b.imag != 0.0 or b.real < 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        return Complex(0.0, 0.0)
    vabs = math.hypot(a.real, a.imag)
    length = math.pow(vabs, b.real)
    at = math.atan2(a.imag, a.real)
    phase = at * b.real
    if b.imag != 0.0:
        length /= math.exp(at * b.imag)
        phase += b.imag * math.log(vabs)
    return Complex(length * math.cos(phase), length * math.sin(phase))


_prebuilt = {}


def prebuilt(value):
    """The prebuilt `Complex` standing for the constant `value` (a Python
    complex).  Not RPython: run when translating."""
    key = (value.real, value.imag, math.copysign(1.0, value.real),
           math.copysign(1.0, value.imag))
    c = _prebuilt.get(key)
    if c is None:
        c = Complex(value.real, value.imag)
        _prebuilt[key] = c
    return c
