"""Helpers of the built-in functions on numbers (`pow(a, b, m)`, and the
`math` functions that are not one operation), and CPython's hash of
floats.  Plain RPython on ints and floats: the rtyper annotates each on
first use; they also run under CPython (see the tests)."""
import math
from rpy3.rlib.rarithmetic import ovfcheck, intmask, r_uint
from rpy3.lltypesystem.rstr import _none_str


def ll_check_not_none(p):
    """A tuple that may be None, used as a tuple: TypeError if it is None
    (`len(None)`, unpacking or indexing None)."""
    if not p:
        # (CPython's message depends on the operation: "object of type
        # 'NoneType' has no len()", "cannot unpack non-iterable NoneType
        # object"...)
        raise TypeError
    return p


def ll_unorderable(op):
    """`a < b` (`op` one of 0 to 3 for <, <=, >, >=) of instances whose
    class defines no ordering: TypeError, as CPython (whose message also
    names the two classes)."""
    if op == 0:
        raise TypeError("'<' not supported between instances")
    if op == 1:
        raise TypeError("'<=' not supported between instances")
    if op == 2:
        raise TypeError("'>' not supported between instances")
    raise TypeError("'>=' not supported between instances")


def ll_check_float_to_int(f):
    """A float becoming an int: CPython's OverflowError for an infinity,
    ValueError for a NaN (checked before the conversion when the program
    reads exception messages)."""
    if f != f:
        raise ValueError("cannot convert float NaN to integer")
    if f - f != 0.0:
        raise OverflowError("cannot convert float infinity to integer")


def ll_check_chr(n):
    """chr(n): CPython's ValueError for a code point out of range."""
    if n < 0 or n > 0x10ffff:
        raise ValueError("chr() arg not in range(0x110000)")


def ll_check_int_divisor(b, which):
    """The divisor of an int `//` (which 0), `/` (1) or `%` (2):
    ZeroDivisionError with CPython's message when it is 0 (checked before
    the operation when the program reads exception messages)."""
    if b == 0:
        if which == 0:
            raise ZeroDivisionError("integer division or modulo by zero")
        if which == 2:
            raise ZeroDivisionError("integer modulo by zero")
        raise ZeroDivisionError("division by zero")


def ll_check_float_divisor(b, which):
    """The divisor of a float `/` (which 0), `//` (1) or `%` (2): see
    ll_check_int_divisor."""
    if b == 0.0:
        if which == 0:
            raise ZeroDivisionError("float division by zero")
        if which == 1:
            raise ZeroDivisionError("float floor division by zero")
        raise ZeroDivisionError("float modulo")


def _math_with_messages(f):
    """A function of `math` on one float whose errors carry CPython's
    messages (used instead of the bare operation when the program reads
    exception messages)."""
    def checked(x):
        try:
            return f(x)
        except ValueError:
            raise ValueError("math domain error")
        except OverflowError:
            raise OverflowError("math range error")
    # (its own call of f is the bare operation)
    checked._rpy3_bare_math_ = True
    return checked


MATH_WITH_MESSAGES = {}
for _name in ["sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin",
              "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
              "asinh", "acosh", "atanh"]:
    MATH_WITH_MESSAGES["math." + _name] = _math_with_messages(getattr(math, _name))


def _addmod(x, y, m):
    # (x + y) % m for x, y in [0, m), without overflowing
    if x >= m - y:
        return x - (m - y)
    return x + y


def _mulmod(x, y, m):
    # (x * y) % m for x, y in [0, m), without overflowing
    if m <= 3037000499:
        return (x * y) % m
    r = 0
    while y > 0:
        if y & 1:
            r = _addmod(r, x, m)
        x = _addmod(x, x, m)
        y >>= 1
    return r


def _invmod(a, m):
    # the inverse of a modulo m > 1 (ValueError when there is none)
    t = 0
    newt = 1
    r = m
    newr = a
    while newr != 0:
        q = r // newr
        t, newt = newt, t - q * newt
        r, newr = newr, r - q * newr
    if r != 1:
        raise ValueError("base is not invertible for the given modulus")
    if t < 0:
        t += m
    return t


def ll_pow_mod(a, b, m):
    """pow(a, b, m) of ints: the sign of the result is the modulus's; a
    negative exponent takes the inverse of a."""
    if m == 0:
        raise ValueError("pow() 3rd argument cannot be 0")
    negative = m < 0
    if negative:
        m = ovfcheck(-m)
    if m == 1:
        return 0
    a = a % m
    if b < 0:
        a = _invmod(a, m)
        b = ovfcheck(-b)
    r = 1
    while b > 0:
        if b & 1:
            r = _mulmod(r, a, m)
        a = _mulmod(a, a, m)
        b >>= 1
    if negative and r != 0:
        r -= m
    return r


def ll_int_round_digits(i, n):
    """`round(i, n)` of an int: itself for n >= 0, else rounded to a
    multiple of 10**-n, halves to even (as CPython)."""
    if n >= 0:
        return i
    k = -n
    if k > 18:
        return 0
    m = 10 ** k
    q = i // m
    r = i - q * m
    twice = 2 * r
    if twice > m or (twice == m and q % 2 == 1):
        q += 1
    return q * m


def ll_gcd(a, b):
    """math.gcd(a, b): never negative."""
    if a < 0:
        a = ovfcheck(-a)
    if b < 0:
        b = ovfcheck(-b)
    while b != 0:
        a, b = b, a % b
    return a


def ll_factorial(n):
    """math.factorial(n): ValueError for a negative n, OverflowError past
    a machine word."""
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    r = 1
    i = 2
    while i <= n:
        r = ovfcheck(r * i)
        i += 1
    return r


def ll_isclose(a, b, rel_tol, abs_tol):
    """math.isclose(a, b, rel_tol=..., abs_tol=...)."""
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if math.isinf(a) or math.isinf(b):
        return False
    diff = math.fabs(b - a)
    return (diff <= math.fabs(rel_tol * b) or diff <= math.fabs(rel_tol * a)
            or diff <= abs_tol)


def ll_modf(x):
    """math.modf(x): the fractional and integral parts, both with the
    sign of x."""
    if math.isinf(x):
        return (math.copysign(0.0, x), x)
    if math.isnan(x):
        return (x, x)
    f = math.fmod(x, 1.0)
    return (f, math.copysign(x - f, x))


# CPython's hash of numbers: reduction modulo the Mersenne prime 2**61 - 1
HASH_BITS = 61
HASH_MODULUS = (1 << HASH_BITS) - 1
HASH_INF = 314159


def ll_hash_float(v):
    """hash(v) of a float, as CPython computes it (a NaN hashes as 0)."""
    if math.isinf(v):
        if v > 0.0:
            return HASH_INF
        return -HASH_INF
    if math.isnan(v):
        return 0
    m, e = math.frexp(v)
    sign = 1
    if m < 0.0:
        sign = -1
        m = -m
    modulus = r_uint(HASH_MODULUS)
    x = r_uint(0)
    while m != 0.0:
        x = ((x << 28) & modulus) | (x >> (HASH_BITS - 28))
        m *= 268435456.0
        e -= 28
        y = int(m)
        m -= float(y)
        x += r_uint(y)
        if x >= modulus:
            x -= modulus
    if e >= 0:
        e = e % HASH_BITS
    else:
        e = HASH_BITS - 1 - ((-1 - e) % HASH_BITS)
    x = ((x << e) & modulus) | (x >> (HASH_BITS - e))
    r = intmask(x) * sign
    if r == -1:
        r = -2
    return r


def ll_lcm(a, b):
    """math.lcm(a, b): never negative."""
    if a == 0 or b == 0:
        return 0
    g = ll_gcd(a, b)
    r = ovfcheck((a // g) * b)
    if r < 0:
        r = ovfcheck(-r)
    return r


def _check_n_k(n, k):
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")


def ll_perm(n, k):
    """math.perm(n, k): ValueError for negative arguments."""
    _check_n_k(n, k)
    if k > n:
        return 0
    r = 1
    i = 0
    while i < k:
        r = ovfcheck(r * (n - i))
        i += 1
    return r


def ll_comb(n, k):
    """math.comb(n, k): ValueError for negative arguments; each partial
    product is exact (a binomial coefficient)."""
    _check_n_k(n, k)
    if k > n:
        return 0
    if k > n - k:
        k = n - k
    r = 1
    i = 0
    while i < k:
        # r * (n - i) / (i + 1) is comb(n, i + 1), an integer; divide
        # first by the common factor to stay in range where possible
        g = ll_gcd(r, i + 1)
        r = ovfcheck((r // g) * ((n - i) // ((i + 1) // g)))
        i += 1
    return r


def ll_fsum(l):
    """math.fsum(l) of a list of floats: the correctly rounded sum
    (Shewchuk's algorithm, as CPython)."""
    partials = [0.0] * 0
    special_sum = 0.0
    inf_sum = 0.0
    k = 0
    while k < l.length:
        x = l.items[k]
        k += 1
        xsave = x
        i = 0
        j = 0
        while j < len(partials):
            y = partials[j]
            if math.fabs(x) < math.fabs(y):
                t = x
                x = y
                y = t
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
            j += 1
        while len(partials) > i:
            partials.pop()
        if x != 0.0:
            if not math.isfinite(x):
                # intermediate overflow, or an inf or nan among the items
                if math.isfinite(xsave):
                    raise OverflowError("intermediate overflow in fsum")
                if math.isinf(xsave):
                    inf_sum += xsave
                special_sum += xsave
                while len(partials) > 0:
                    partials.pop()
            else:
                partials.append(x)
    if special_sum != 0.0:
        if math.isnan(inf_sum):
            raise ValueError("-inf + inf in fsum")
        return special_sum
    hi = 0.0
    n = len(partials)
    if n > 0:
        n -= 1
        hi = partials[n]
        lo = 0.0
        while n > 0:
            x = hi
            n -= 1
            y = partials[n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or
                      (lo > 0.0 and partials[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


def ll_check_byte(x):
    """A value stored into a bytearray: ValueError outside 0..255."""
    if x < 0 or x > 255:
        raise ValueError("byte must be in range(0, 256)")
    return x


def ll_check_size(n):
    """bytearray(n): ValueError for a negative n."""
    if n < 0:
        raise ValueError("negative count")
    return n


def ll_bit_count(x):
    """int.bit_count(): the one bits of abs(x)."""
    if x == -9223372036854775807 - 1:
        return 1
    if x < 0:
        x = -x
    n = 0
    while x != 0:
        n += x & 1
        x >>= 1
    return n


def ll_bit_length(x):
    """int.bit_length(): the bits of abs(x)."""
    if x == -9223372036854775807 - 1:
        return 64
    if x < 0:
        x = -x
    n = 0
    while x != 0:
        x >>= 1
        n += 1
    return n


def ll_float_is_integer(x):
    """float.is_integer()."""
    if math.isinf(x) or math.isnan(x):
        return False
    return math.floor(x) == x


def ll_isqrt(n):
    """math.isqrt(n): the floor of the square root (ValueError if n < 0)."""
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n < 2:
        return n
    # the float root, corrected; squares stay below 2**63 (the root of
    # the largest Signed is below 3037000500)
    x = int(math.sqrt(float(n)))
    if x > 3037000499:
        x = 3037000499
    while x * x > n:
        x -= 1
    while x < 3037000499 and (x + 1) * (x + 1) <= n:
        x += 1
    return x


# ----- ints, floats and bools that may be None (boxed; null is None) -----

def ll_unbox_optional(p):
    """The value of an int, float or bool that may be None, where an
    operation needs it: TypeError if it is None (as CPython's `None + 1`)."""
    if not p:
        # (CPython's message names the operation: "unsupported operand
        # type(s) for +: 'NoneType' and 'int'")
        raise TypeError
    return p.value


def ll_optional_is_true(p):
    """The truth of an int, float or bool that may be None."""
    if not p:
        return False
    if p.value:
        return True
    return False


def ll_optional_eq(p, v):
    """`p == v` for p that may be None and a value v (None equals no value)."""
    if not p:
        return False
    return p.value == v


def ll_optional_eq_optional(p, q):
    """`p == q` for two values that may be None."""
    if not p or not q:
        return not p and not q
    return p.value == q.value


def ll_optional_repr(p, item_repr):
    """str() (or repr()) of an int, float or bool that may be None."""
    if not p:
        return _none_str()
    return item_repr(p.value)



def ll_or_other(p, q):
    """`p`, or `q` when `p` is null (a tuple that may be None compared with
    one that is not: the items are read from a tuple that exists)."""
    if p:
        return p
    return q


def ll_range_repr(start, stop, step):
    """str() (and repr()) of a range."""
    if step == 1:
        return "range(" + str(start) + ", " + str(stop) + ")"
    return "range(" + str(start) + ", " + str(stop) + ", " + str(step) + ")"


def _range_len(start, stop, step):
    if step > 0:
        if stop <= start:
            return 0
        return (stop - start - 1) // step + 1
    if stop >= start:
        return 0
    return (start - stop - 1) // (-step) + 1


def ll_range_eq(a0, a1, a2, b0, b1, b2):
    """`range(a0, a1, a2) == range(b0, b1, b2)`: the same items."""
    n = _range_len(a0, a1, a2)
    if n != _range_len(b0, b1, b2):
        return False
    if n == 0:
        return True
    if a0 != b0:
        return False
    return n == 1 or a2 == b2


def _slice_bound(i, n, negative_step):
    if i < 0:
        i += n
        if i < 0:
            if negative_step:
                return -1
            return 0
    elif i >= n:
        if negative_step:
            return n - 1
        return n
    return i


def ll_range_slice(start, stop, step, lo, hi, st, flags, which):
    """Part `which` (0 start, 1 stop, 2 step) of range(start, stop, step)
    sliced by [lo:hi:st] (given where `flags` has bits 1, 2, 4), as
    CPython's range slicing (slice.indices of the range's length)."""
    n = _range_len(start, stop, step)
    if flags & 4 == 0:
        st = 1
    if st == 0:
        raise ValueError("slice step cannot be zero")
    negative = st < 0
    if flags & 1:
        lo = _slice_bound(lo, n, negative)
    elif negative:
        lo = n - 1
    else:
        lo = 0
    if flags & 2:
        hi = _slice_bound(hi, n, negative)
    elif negative:
        hi = -1
    else:
        hi = n
    if which == 0:
        return start + lo * step
    if which == 1:
        return start + hi * step
    return step * st


def _range_position(start, stop, step, x):
    """The index of `x` in range(start, stop, step), or -1."""
    if step > 0:
        if x < start or x >= stop:
            return -1
    elif x > start or x <= stop:
        return -1
    if (x - start) % step != 0:
        return -1
    return (x - start) // step


def ll_range_index(start, stop, step, x):
    """range.index(x)."""
    i = _range_position(start, stop, step, x)
    if i < 0:
        raise ValueError("%d is not in range" % x)
    return i


def ll_range_count(start, stop, step, x):
    """range.count(x): 1 or 0."""
    if _range_position(start, stop, step, x) < 0:
        return 0
    return 1
