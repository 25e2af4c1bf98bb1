"""Int arithmetic that wraps where the result only reaches a mask
(intmask, r_uint, & constant, % 2**k), as hashes and random number
generators compute; arithmetic that does not fits.  (Where CPython's int
would grow past 64 bits, the translated program raises OverflowError:
see testsuite/tests/robustness.rs.)"""
from rpy3.rlib.rarithmetic import intmask, r_uint


def fact(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def fact_text(n):
    return str(fact(n))


def caught(n):
    try:
        return fact(n)
    except OverflowError:
        return -1


def fnv_hash(s):
    h = 2166136261
    for c in s:
        h = (h ^ ord(c)) * 16777619
        h = h & 0xFFFFFFFF
    return h


def mixing_hash(s):
    x = ord(s[0]) << 7 if s else 0
    for c in s:
        x = (1000003 * x) ^ ord(c)
    x ^= len(s)
    return intmask(x)


def lcg(n):
    seed = n
    out = []
    for i in range(5):
        seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 62)
        out.append(seed >> 33)
    return out


def unsigned(n):
    u = r_uint(n) * r_uint(-7046029254386353131)
    return intmask(u >> 40)


def big_square(n):
    return n * n


CASES = [
    (fact, [20]),
    (caught, [10]),
    (fnv_hash, ["hello world"]),
    (mixing_hash, ["rpython"]),
    (lcg, [42]),
    (unsigned, [12345]),
    (big_square, [3037000499]),
]
