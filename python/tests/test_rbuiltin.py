"""The number helpers of rpy3.lltypesystem.rbuiltin, run under CPython and
compared with CPython's own built-ins."""

import math
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.lltypesystem import rbuiltin  # noqa: E402


class FloatList(object):
    def __init__(self, xs):
        self.items = xs
        self.length = len(xs)


def outcome(f, *args):
    try:
        return f(*args)
    except (ValueError, OverflowError) as e:
        return type(e)


class Numbers(unittest.TestCase):
    def test_hash_float(self):
        rng = random.Random(1)
        values = [1.5, -3.0, 1e100, 0.1, -0.0, 0.0, 5e-324, 1e308, -2.5e-310,
                  math.inf, -math.inf]
        values += [rng.uniform(-1, 1) * 10 ** rng.randint(-300, 300) for _ in range(500)]
        for v in values:
            self.assertEqual(rbuiltin.ll_hash_float(v), hash(v), v)

    def test_pow_mod_gcd(self):
        rng = random.Random(2)
        for _ in range(2000):
            a = rng.randint(-10 ** 18, 10 ** 18)
            b = rng.randint(-5, 10 ** 6)
            m = rng.choice([rng.randint(-10 ** 18, 10 ** 18), rng.randint(-100, 100)])
            self.assertEqual(outcome(rbuiltin.ll_pow_mod, a, b, m), outcome(pow, a, b, m))
            self.assertEqual(rbuiltin.ll_gcd(a, m), math.gcd(a, m))
            x, y = rng.randint(-10 ** 6, 10 ** 6), rng.randint(-10 ** 6, 10 ** 6)
            self.assertEqual(rbuiltin.ll_lcm(x, y), math.lcm(x, y))

    def test_factorial_comb_perm(self):
        for n in range(-2, 25):
            want = outcome(math.factorial, n)
            if isinstance(want, int) and want >= 2 ** 63:
                want = OverflowError
            self.assertEqual(outcome(rbuiltin.ll_factorial, n), want)
            for k in range(-1, 25):
                self.assertEqual(outcome(rbuiltin.ll_comb, n, k), outcome(math.comb, n, k))
                want = outcome(math.perm, n, k)
                if isinstance(want, int) and want >= 2 ** 63:
                    continue
                self.assertEqual(outcome(rbuiltin.ll_perm, n, k), want)

    def test_modf_isclose_fsum(self):
        for x in [3.75, -2.5, 0.0, -0.0, 1e300, -3.0, math.inf, -math.inf, 0.5]:
            self.assertEqual(repr(rbuiltin.ll_modf(x)), repr(math.modf(x)))
        for a, b in [(1.0, 1.05), (1.0, 1.0 + 1e-10), (math.inf, math.inf), (0.0, 1e-12)]:
            for rel, ab in [(1e-09, 0.0), (0.1, 0.0), (1e-09, 0.5)]:
                self.assertEqual(rbuiltin.ll_isclose(a, b, rel, ab),
                                 math.isclose(a, b, rel_tol=rel, abs_tol=ab))
        rng = random.Random(3)
        for _ in range(2000):
            xs = [rng.choice([rng.uniform(-1e10, 1e10), 0.1, 1e16, -1e16,
                              rng.uniform(-1, 1) * 10 ** rng.randint(-20, 300)])
                  for _ in range(rng.randint(0, 12))]
            self.assertEqual(outcome(rbuiltin.ll_fsum, FloatList(xs)), outcome(math.fsum, xs))
        for xs in [[math.inf, 1.0], [math.inf, -math.inf], [math.nan], [1e308, 1e308]]:
            self.assertEqual(repr(outcome(rbuiltin.ll_fsum, FloatList(xs))),
                             repr(outcome(math.fsum, xs)))


if __name__ == "__main__":
    unittest.main()


class NumberMethods(unittest.TestCase):
    def test_bit_length_is_integer(self):
        rng = random.Random(4)
        values = [0, 1, -1, 2, -2, 7, -8, 2 ** 63 - 1, -2 ** 63]
        values += [rng.randint(-2 ** 63, 2 ** 63 - 1) for _ in range(2000)]
        for v in values:
            self.assertEqual(rbuiltin.ll_bit_length(v), v.bit_length(), v)
        for f in [2.0, 2.5, -0.0, 1e300, math.inf, math.nan]:
            self.assertEqual(rbuiltin.ll_float_is_integer(f), f.is_integer())


class Isqrt(unittest.TestCase):
    def test_isqrt(self):
        rng = random.Random(5)
        values = list(range(2000)) + [2 ** 62, 2 ** 63 - 1, 3037000499 ** 2, 3037000499 ** 2 - 1]
        values += [rng.randint(0, 2 ** 63 - 1) for _ in range(5000)]
        for v in values:
            self.assertEqual(rbuiltin.ll_isqrt(v), math.isqrt(v), v)
