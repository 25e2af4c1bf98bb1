"""The messages of the exceptions rpy3's low-level helpers raise: `str(e)`
is CPython's text for lists, tuples, strings, bytes, dicts, sets,
min()/max(), slices, format() and the math helpers."""
import math


def _ints(n):
    return [i * 10 for i in range(n)]


# --- lists ---------------------------------------------------------------------

def list_getitem(n, i):
    l = _ints(n)
    try:
        return str(l[i])
    except IndexError as e:
        return str(e)


def list_setitem(n, i):
    l = _ints(n)
    try:
        l[i] = 5
    except IndexError as e:
        return str(e)
    return "ok"


def list_setitem_nonneg(n, k):
    l = _ints(n)
    try:
        l[len(l) + k] = 5
    except IndexError as e:
        return str(e)
    return "ok"


def list_delitem(n, i):
    l = _ints(n)
    try:
        del l[i]
    except IndexError as e:
        return str(e)
    return "ok"


def list_pop(n):
    l = _ints(n)
    try:
        return str(l.pop())
    except IndexError as e:
        return str(e)


def list_pop_at(n, i):
    l = _ints(n)
    try:
        return str(l.pop(i))
    except IndexError as e:
        return str(e)


def list_remove(n, x):
    l = _ints(n)
    try:
        l.remove(x)
    except ValueError as e:
        return str(e)
    return "ok"


def list_extended_slice_step(n, step):
    l = _ints(n)
    try:
        return str(len(l[1::step]))
    except ValueError as e:
        return str(e)


def str_extended_slice_step(s, step):
    try:
        return s[::step]
    except ValueError as e:
        return str(e)


def extreme(n, largest):
    l = _ints(n)
    try:
        if largest:
            return str(max(l))
        return str(min(l))
    except ValueError as e:
        return str(e)


def extreme_key(n, largest):
    l = [str(x) for x in _ints(n)]
    try:
        if largest:
            return max(l, key=len)
        return min(l, key=len)
    except ValueError as e:
        return str(e)


# --- strings -------------------------------------------------------------------

def str_getitem(s, i):
    try:
        return s[i]
    except IndexError as e:
        return str(e)


def str_index(s, sub):
    try:
        return str(s.index(sub))
    except ValueError as e:
        return str(e)


def str_rindex(s, sub):
    try:
        return str(s.rindex(sub))
    except ValueError as e:
        return str(e)


def str_split(s, sep):
    try:
        return "|".join(s.split(sep))
    except ValueError as e:
        return str(e)


def str_rsplit(s, sep):
    try:
        return "|".join(s.rsplit(sep, 1))
    except ValueError as e:
        return str(e)


# (through a function: rpy3 does not catch these exceptions when the
# operation itself is in the try block, see the report of this case)
def _partition(s, sep, right):
    if right:
        a, b, c = s.rpartition(sep)
    else:
        a, b, c = s.partition(sep)
    return a + "|" + b + "|" + c


def str_partition(s, sep):
    try:
        return _partition(s, sep, False)
    except ValueError as e:
        return str(e)


def str_rpartition(s, sep):
    try:
        return _partition(s, sep, True)
    except ValueError as e:
        return str(e)


def int_base(s, base):
    try:
        return str(int(s, base))
    except ValueError as e:
        return str(e)


def _format(x, spec):
    return format(x, spec)


def format_int(x, spec):
    try:
        return _format(x, spec)
    except ValueError as e:
        return "ValueError: " + str(e)
    except OverflowError as e:
        return "OverflowError: " + str(e)


def format_float(x, spec):
    try:
        return format(x, spec)
    except ValueError as e:
        return str(e)


def format_str(x, spec):
    try:
        return format(x, spec)
    except ValueError as e:
        return str(e)


# --- bytes -----------------------------------------------------------------------

def bytes_getitem(i):
    b = b"abc"
    try:
        return str(b[i])
    except IndexError as e:
        return str(e)


def bytes_from_list(x):
    try:
        return str(len(bytes([1, x])))
    except ValueError as e:
        return str(e)


def bytes_zeros(n):
    try:
        return str(len(bytes(n)))
    except ValueError as e:
        return str(e)


def bytearray_size(n):
    try:
        return str(len(bytearray(n)))
    except ValueError as e:
        return str(e)


def _set_byte(b, x):
    b[0] = x


def bytearray_setitem(x):
    b = bytearray(b"abc")
    try:
        _set_byte(b, x)
    except ValueError as e:
        return str(e)
    return "ok"


def bytearray_extend(x):
    b = bytearray(b"abc")
    try:
        b.extend([x])
    except ValueError as e:
        return str(e)
    return "ok"


def _contains_byte(b, x):
    return x in b


def bytes_contains(x):
    try:
        return str(_contains_byte(b"abc", x))
    except ValueError as e:
        return str(e)


# --- dicts and sets ------------------------------------------------------------------

def dict_getitem(k):
    d = {1: "one", 2: "two"}
    try:
        return d[k]
    except KeyError as e:
        return str(e)


def dict_delitem(k):
    d = {1: "one", 2: "two"}
    try:
        del d[k]
    except KeyError as e:
        return str(e)
    return "ok"


def dict_pop(k):
    d = {1: "one", 2: "two"}
    try:
        return d.pop(k)
    except KeyError as e:
        return str(e)


def _popitem(d):
    k, v = d.popitem()
    return "%d: %s" % (k, v)


def dict_popitem(n):
    d = {}
    for i in range(n):
        d[i] = str(i)
    try:
        return _popitem(d)
    except KeyError as e:
        return str(e)


def _set_pop(s):
    return s.pop()


def set_pop(n):
    s = set()
    for i in range(n):
        s.add(i)
    try:
        return str(_set_pop(s) < n)
    except KeyError as e:
        return str(e)


def set_remove(k):
    s = {1, 2}
    try:
        s.remove(k)
    except KeyError as e:
        return str(e)
    return "ok"


# --- numbers -----------------------------------------------------------------------

def pow_mod(a, b, m):
    try:
        return str(pow(a, b, m))
    except ValueError as e:
        return str(e)


def factorial(n):
    try:
        return str(math.factorial(n))
    except ValueError as e:
        return str(e)


def isclose(tol):
    try:
        return str(math.isclose(1.0, 1.0, rel_tol=tol))
    except ValueError as e:
        return str(e)


def perm(n, k):
    try:
        return str(math.perm(n, k))
    except ValueError as e:
        return str(e)


def comb(n, k):
    try:
        return str(math.comb(n, k))
    except ValueError as e:
        return str(e)


def fsum(x, y):
    try:
        return str(math.fsum([x, y]))
    except ValueError as e:
        return "ValueError: " + str(e)
    except OverflowError as e:
        return "OverflowError: " + str(e)


def isqrt(n):
    try:
        return str(math.isqrt(n))
    except ValueError as e:
        return str(e)


INF = float("inf")

CASES = [
    (list_getitem, [3, 5]), (list_getitem, [3, -4]), (list_getitem, [3, 1]),
    (list_setitem, [3, 3]), (list_setitem, [3, -4]), (list_setitem, [3, -1]),
    (list_setitem_nonneg, [3, 0]), (list_setitem_nonneg, [3, -1]),
    (list_delitem, [3, 3]), (list_delitem, [0, 0]), (list_delitem, [3, -3]),
    (list_pop, [0]), (list_pop, [2]),
    (list_pop_at, [0, 0]), (list_pop_at, [0, -1]), (list_pop_at, [3, 3]),
    (list_pop_at, [3, -4]), (list_pop_at, [3, -1]),
    (list_remove, [3, 7]), (list_remove, [3, 10]),
    (list_extended_slice_step, [4, 0]), (list_extended_slice_step, [4, 2]),
    (str_extended_slice_step, ["abcd", 0]), (str_extended_slice_step, ["abcd", -1]),
    (extreme, [0, True]), (extreme, [0, False]), (extreme, [3, True]),
    (extreme_key, [0, True]), (extreme_key, [0, False]), (extreme_key, [3, False]),
    (str_getitem, ["abc", 3]), (str_getitem, ["abc", -4]), (str_getitem, ["abc", -1]),
    (str_index, ["abc", "z"]), (str_index, ["abc", "c"]),
    (str_rindex, ["abc", "z"]), (str_rindex, ["abca", "a"]),
    (str_split, ["a b", ""]), (str_split, ["a b", " "]),
    (str_rsplit, ["a b", ""]), (str_rsplit, ["a b c", " "]),
    (str_partition, ["a b", ""]), (str_partition, ["a b", " "]),
    (str_rpartition, ["a b", ""]), (str_rpartition, ["a b c", " "]),
    (int_base, ["12", 1]), (int_base, ["12", 37]), (int_base, ["12", -1]),
    (int_base, ["12", 16]),
    (format_int, [1, "1111111111111111111111"]),
    (format_int, [1, ".1111111111111111111111"]),
    (format_int, [1, ",_"]), (format_int, [1, "_,"]),
    (format_int, [1, ".2d"]), (format_int, [1, "zd"]), (format_int, [1, ".2c"]),
    (format_int, [1, ",n"]), (format_int, [1, "_n"]),
    (format_int, [65, ",c"]), (format_int, [65, "_c"]), (format_int, [65, ",.2c"]),
    (format_int, [65, "+c"]), (format_int, [65, " c"]), (format_int, [65, "#c"]),
    (format_int, [-1, "c"]), (format_int, [1114112, "c"]), (format_int, [65, "c"]),
    (format_int, [10, ",x"]), (format_int, [10, ",X"]), (format_int, [10, ",o"]),
    (format_int, [10, ",b"]), (format_int, [100000, "_x"]), (format_int, [10, ",.2x"]),
    (format_int, [1234567, ",d"]),
    (format_float, [1.5, "."]), (format_float, [1.5, ",n"]), (format_float, [1.5, "_n"]),
    (format_float, [1.5, ",c"]), (format_float, [1234.5, ",.2f"]),
    (format_str, ["a", ","]), (format_str, ["a", "_"]), (format_str, ["a", ",s"]),
    (format_str, ["a", ",x"]), (format_str, ["a", "+"]), (format_str, ["a", " "]),
    (format_str, ["a", "-"]), (format_str, ["a", "z"]), (format_str, ["a", "#"]),
    (format_str, ["a", "="]), (format_str, ["a", "+="]), (format_str, ["a", "x^5"]),
    (format_str, ["a", ".1111111111111111111111"]),
    (bytes_getitem, [3]), (bytes_getitem, [-4]), (bytes_getitem, [-1]),
    (bytes_from_list, [256]), (bytes_from_list, [-1]), (bytes_from_list, [255]),
    (bytes_zeros, [-1]), (bytes_zeros, [2]),
    (bytearray_size, [-1]), (bytearray_size, [2]),
    (bytearray_setitem, [256]), (bytearray_setitem, [-1]), (bytearray_setitem, [65]),
    (bytearray_extend, [256]), (bytearray_extend, [65]),
    (bytes_contains, [256]), (bytes_contains, [97]),
    (dict_getitem, [3]), (dict_getitem, [-7]), (dict_getitem, [1]),
    (dict_delitem, [3]), (dict_delitem, [2]),
    (dict_pop, [3]), (dict_pop, [2]),
    (dict_popitem, [0]), (dict_popitem, [2]), (set_pop, [2]),
    (set_remove, [3]), (set_remove, [2]),
    (pow_mod, [2, 3, 0]), (pow_mod, [2, -1, 4]), (pow_mod, [3, -1, 7]),
    (factorial, [-1]), (factorial, [5]),
    (isclose, [-1.0]), (isclose, [0.5]),
    (perm, [-1, 2]), (perm, [2, -1]), (perm, [-1, -1]), (perm, [5, 2]),
    (comb, [-1, 2]), (comb, [2, -1]), (comb, [5, 2]),
    (fsum, [1e308, 1e308]), (fsum, [INF, -INF]), (fsum, [0.1, 0.2]),
    (isqrt, [-1]), (isqrt, [17]),
]
