"""Built-ins real programs use: int(s, base) with prefixes and errors,
hex/oct/bin, pow with a modulus, the math module (frexp, ldexp, modf,
gcd, factorial, isclose, constants, floor/ceil to int), hash() of floats
and floats as dict keys and set items, str()/repr() of lists, tuples and
unsigned ints, bytearray and bytes.hex, min/max of bools and strs, sum of
an empty iterable, enumerate/zip over any iterable."""
import math
from rpy3.rlib.rarithmetic import r_uint


def int_base(s, base):
    return int(s, base)


def int_base_safe(s, base):
    try:
        return int(s, base)
    except ValueError:
        return -1


def int_bases_all(s):
    out = []
    for b in [0, 2, 8, 10, 16, 36]:
        try:
            out.append(int(s, b))
        except ValueError:
            out.append(-999)
    return out


def hex_oct_bin(n):
    return (hex(n), oct(n), bin(n), hex(-n), oct(-n), bin(-n))


def pow_mod(a, b, m):
    return pow(a, b, m)


def pow_plain(a, b):
    return (pow(a, b), pow(float(a), 0.5), a ** b)


def math_frexp(x):
    m, e = math.frexp(x)
    return (m, e, math.ldexp(m, e), math.ldexp(x, 3))


def math_modf(x):
    f, i = math.modf(x)
    return (f, i)


def math_int_funcs(a, b):
    return (math.gcd(a, b), math.factorial(a % 15), math.floor(a / 7), math.ceil(a / 7),
            math.floor(-a / 7), math.ceil(-a / 7))


def math_float_funcs(x):
    return (math.sqrt(x), math.exp(x), math.log(x), math.log(x, 2), math.log10(x),
            math.log2(x), math.sin(x), math.cos(x), math.tan(x), math.atan2(x, 1.0),
            math.fabs(-x), math.hypot(x, 3.0), math.copysign(x, -1.0), math.fmod(x, 0.7),
            math.trunc(x), math.pow(x, 1.5), math.atan(x), math.asin(0.5), math.acos(0.5),
            math.sinh(x), math.cosh(x), math.tanh(x), math.degrees(x), math.radians(x))


def math_consts(x):
    return (math.pi, math.e, math.tau, math.inf, -math.inf, math.isnan(math.nan),
            math.isinf(math.inf * x), math.isfinite(x), math.isnan(x))


def math_isqrt(n):
    return (math.isqrt(n), math.isqrt(n // 7), math.lcm(4, 6), math.lcm(), math.gcd(),
            math.comb(n % 50, 3), math.perm(10, 3), math.perm(5))


def math_isqrt_error(n):
    try:
        return math.isqrt(-n)
    except ValueError:
        return -1


def math_fsum(n):
    xs = [0.1] * n
    return (math.fsum(xs), sum(xs), math.fsum([1e100, 1.0, -1e100]), math.fsum([]))


def math_isclose(a, b):
    return (math.isclose(a, b), math.isclose(a, b, rel_tol=0.1), math.isclose(a, b, abs_tol=0.5))


def math_sqrt_error(x):
    try:
        return math.sqrt(x)
    except ValueError:
        return -1.0


def float_hash(x):
    return (hash(x), hash(x * 0.5), hash(float(int(x))), hash(-x))


def float_keys(n):
    d = {}
    s = set()
    for i in range(n):
        f = i * 0.5
        d[f] = i
        s.add(f * 2.0)
    return (sorted(d.items()), sorted(s), 1.5 in d, 3.0 in s, d.get(0.25, -1))


def str_of_list(n):
    xs = [i * i for i in range(n)]
    return (str(xs), repr(xs), str([]), str(["a", "b'c"]), repr([1.5, -0.0]))


def str_of_tuple(n):
    t = (n, "x", 2.5)
    return (str(t), repr((n,)), str(()), str([(n, [n, n + 1]), (0, [])]), str((True, None)))


def str_of_nested(n):
    rows = [[i, j] for i in range(n) for j in range(2)]
    return str(rows) + repr([[str(n)]])


def str_of_dict(n):
    d = {}
    for i in range(n):
        d[i] = str(i)
    return (str(d), repr({}), str({"a": [1]}))


def str_of_uint(n):
    u = r_uint(n)
    return (str(u), repr(u), str(u - r_uint(1) if n == 0 else u * r_uint(3)))


def bytearray_ops(n):
    ba = bytearray(n)
    for i in range(n):
        ba[i] = (i * 7) % 256
    ba.append(65)
    ba.append(66)
    return (len(ba), ba[0], ba[-1], bytes(ba), ba[1] + ba[2])


def bytearray_from_bytes(b):
    ba = bytearray(b)
    if len(ba) > 0:
        ba[0] = 122
    ba.extend(b"!!")
    return (bytes(ba), len(ba), bytes(bytearray()))


def bytearray_index_error(n):
    ba = bytearray(n)
    try:
        ba[n] = 1
        return 0
    except IndexError:
        return 1


def bytearray_more(b):
    ba = bytearray(b)
    ba2 = bytearray([1, 2, 3])
    ba2.insert(0, 255)
    total = 0
    for x in ba:
        total += x
    errors = 0
    for v in [256, -1]:
        try:
            ba2.append(v)
        except ValueError:
            errors += 1
    try:
        bytearray([1, 300])
    except ValueError:
        errors += 1
    return (str(ba), repr(ba2), total, errors, bytes(ba2[1:3]), len(bytearray(3)),
            ba == bytearray(b), list(ba2))


def number_methods(n, x):
    return (n.bit_length(), (-n).bit_length(), (255).bit_length(), x.is_integer(),
            (2.5).is_integer(), (x * 2).is_integer(), bin(n).count("1"))


def affix_tuples(s):
    return (s.startswith(("ab", "x")), s.endswith(("c", "q")), s.startswith(("zz",)),
            s.startswith(("b", "c"), 1), s.endswith(("a", "b"), 0, 2))


def bytes_hex(b):
    return (b.hex(), b"".hex(), bytes([0, 255, 16]).hex())


def min_max_bool(a, b):
    return (min(a, b), max(a, b), max(a, b, False), min([a, b, True]))


def min_max_str(a, b):
    return (min(a, b), max(a, b), min([a, b, "m"]), max(a, b, "zz"), min("hello"), max("hello"))


def sum_empty(n):
    xs = [i for i in range(n) if i > 100]
    return (sum(xs), sum([]), sum(range(n)), sum([0.5] * n), sum(xs, 10))


def gen_items(n):
    for i in range(n):
        yield i * 3


def enum_zip_any(s, n):
    d = {"a": 1, "b": 2}
    out = []
    for i, c in enumerate(s):
        out.append((i, c))
    for i, k in enumerate(d):
        out.append((i, k))
    for i, v in enumerate(gen_items(n)):
        out.append((i, str(v)))
    out2 = []
    for c, k in zip(s, d):
        out2.append((c, k))
    for c, v in zip(s, gen_items(n)):
        out2.append((c, str(v)))
    for a, b in zip(iter([1, 2, 3]), reversed(s)):
        out2.append((str(a), b))
    for x, y in zip(d.values(), d.keys()):
        out2.append((str(x), y))
    return (out, out2)


def gen_mod(n):
    for i in range(n):
        yield (i * 7) % 5


def aggregates_of_iterators(s):
    n = len(s)
    xs = [3, 9, 2, 9]
    d = {"k": 1, "j": 2}
    it = iter(xs)
    first = next(it)
    return (sorted(gen_mod(n)), sum(x * x for x in gen_mod(n)), min(gen_mod(n), default=-1),
            sorted(set(map(ord, s))), "".join(sorted(set(s))), any(c.isdigit() for c in s),
            sum(1 for _ in gen_mod(n)), max(enumerate(xs), key=lambda p: p[1]),
            min(zip(xs, s)) if s else (0, ""), sorted(d.items(), key=lambda kv: -kv[1]),
            next(iter(d)), next(gen_mod(0), -1), first, next(it), list(it))


def reversed_any(s):
    d = {"a": 1, "b": 2, "c": 3}
    t = (1, 2, 3)
    return (list(reversed(t)), list(reversed(d)), list(reversed(list(d.items()))),
            list(reversed(s)), "".join(reversed(s)), list(reversed(range(2, 9, 3))),
            list(reversed(d.values())), [k for k in reversed(sorted(d))])


def gen_words(n):
    for i in range(n):
        yield "w" + str(i)


def nested_iters(s, n):
    d = {"a": 1, "b": 2}
    out = []
    for x, (i, c) in zip(range(5), enumerate(s, 3)):
        out.append((x, i, c))
    out2 = []
    for x, (k, v) in zip(s, d.items()):
        out2.append((x, k, v))
    pairs = list(zip(s, gen_words(n)))
    return (out, out2, pairs, list(enumerate(zip(s, s))), list(enumerate(gen_words(n))),
            any(i > 2 for i, c in enumerate(s)), sorted(dict(zip(gen_words(n), s)).items()))


CASES = [
    (int_base, ["ff", 16]),
    (int_base, ["0x1F", 16]),
    (int_base, ["0x1F", 0]),
    (int_base, ["0o17", 0]),
    (int_base, ["0b101", 0]),
    (int_base, ["  -42  ", 10]),
    (int_base, ["zz", 36]),
    (int_base, ["1_000", 0]),
    (int_base, ["0", 0]),
    (int_base, ["012", 0]),
    (int_base, ["12", 2]),
    (int_base, ["", 10]),
    (int_base, ["+7", 8]),
    (int_base, ["-0b11", 0]),
    (int_base, ["10", 1]),
    (int_base_safe, ["xyz", 10]),
    (int_base_safe, ["777", 8]),
    (int_bases_all, ["101"]),
    (int_bases_all, ["0x10"]),
    (int_bases_all, ["Zz"]),
    (hex_oct_bin, [255]),
    (hex_oct_bin, [0]),
    (hex_oct_bin, [1234567890123]),
    (pow_mod, [3, 200, 13]),
    (pow_mod, [-3, 7, 10]),
    (pow_mod, [5, 0, 1]),
    (pow_mod, [2, 62, 1000000007]),
    (pow_mod, [123456789, 987654321, 998244353]),
    (pow_mod, [4, 3, -5]),
    (pow_mod, [2, 3, 0]),
    (pow_plain, [3, 4]),
    (math_frexp, [10.0]),
    (math_frexp, [-0.375]),
    (math_frexp, [0.0]),
    (math_frexp, [1e300]),
    (math_modf, [3.75]),
    (math_modf, [-2.5]),
    (math_int_funcs, [48, 18]),
    (math_int_funcs, [0, 0]),
    (math_int_funcs, [-12, 8]),
    (math_float_funcs, [2.0]),
    (math_float_funcs, [0.3]),
    (math_consts, [1.0]),
    (math_isqrt, [9223372036854775807]),
    (math_isqrt, [99]),
    (math_isqrt_error, [5]),
    (math_fsum, [10]),
    (math_isclose, [1.0, 1.05]),
    (math_isclose, [1.0, 1.0000000001]),
    (math_sqrt_error, [-1.0]),
    (math_sqrt_error, [4.0]),
    (float_hash, [1.5]),
    (float_hash, [-3.0]),
    (float_hash, [1e15]),
    (float_hash, [0.1]),
    (float_keys, [7]),
    (str_of_list, [4]),
    (str_of_tuple, [3]),
    (str_of_nested, [2]),
    (str_of_dict, [3]),
    (str_of_uint, [5]),
    (str_of_uint, [0]),
    (bytearray_ops, [5]),
    (bytearray_from_bytes, [b"abc"]),
    (bytearray_from_bytes, [b""]),
    (bytearray_index_error, [3]),
    (bytes_hex, [b"\x01\xabz"]),
    (number_methods, [37, 2.0]),
    (number_methods, [-9223372036854775807, 0.3]),
    (affix_tuples, ["abc"]),
    (affix_tuples, [""]),
    (bytearray_more, [b"ab'\x00"]),
    (bytearray_more, [b""]),
    (min_max_bool, [True, False]),
    (min_max_str, ["apple", "banana"]),
    (sum_empty, [5]),
    (enum_zip_any, ["xyz", 4]),
    (nested_iters, ["abcd", 3]),
    (nested_iters, ["", 0]),
    (reversed_any, ["xyz"]),
    (aggregates_of_iterators, ["ab1ba"]),
    (aggregates_of_iterators, [""]),
]
