"""Tests of the pure-Python rpy3.rlib (run with
``python3 -m unittest discover -s python/tests``)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.rlib import rarithmetic, objectmodel, rstring  # noqa: E402
from rpy3.rlib.rarithmetic import (  # noqa: E402
    LONG_BIT, maxint, r_uint, r_ulonglong, r_int, r_longlong, intmask,
    ovfcheck, widen)
from rpy3.rlib.objectmodel import (  # noqa: E402
    specialize, we_are_translated, compute_hash, instantiate, r_dict,
    always_inline, dont_inline, not_rpython)
from rpy3.rlib.rstring import StringBuilder, BytesBuilder  # noqa: E402

MININT = -maxint - 1
UMAX = 2 ** 64 - 1


class TestConstants(unittest.TestCase):
    def test_constants(self):
        self.assertEqual(LONG_BIT, 64)
        self.assertEqual(maxint, 2 ** 63 - 1)
        self.assertIs(type(maxint), int)

    def test_aliases(self):
        self.assertIs(r_ulonglong, r_uint)
        self.assertIs(r_longlong, r_int)


class TestRUint(unittest.TestCase):
    def check(self, value, expected):
        self.assertIs(type(value), r_uint)
        self.assertEqual(int(value), expected)

    def test_construct(self):
        self.check(r_uint(-1), UMAX)
        self.assertTrue(r_uint(-1) == 2 ** 64 - 1)
        self.check(r_uint(2 ** 64), 0)
        self.check(r_uint(2 ** 64 + 5), 5)
        self.check(r_uint(MININT), 2 ** 63)
        self.check(r_uint(True), 1)
        self.check(r_uint(), 0)
        self.check(r_uint(3.9), 3)
        self.check(r_uint(r_uint(7)), 7)
        self.check(r_uint(r_int(-1)), UMAX)
        self.assertRaises(TypeError, r_uint, "12")

    def test_add_sub_mul_wrap(self):
        self.check(r_uint(UMAX) + r_uint(1), 0)
        self.check(r_uint(0) - r_uint(1), UMAX)
        self.check(r_uint(2 ** 63) * r_uint(2), 0)
        self.check(r_uint(2 ** 32) * r_uint(2 ** 32 + 3), (3 << 32))
        self.check(r_uint(5) - r_uint(7), UMAX - 1)

    def test_mixed_with_int(self):
        self.check(r_uint(UMAX) + 1, 0)
        self.check(1 + r_uint(UMAX), 0)
        self.check(5 - r_uint(7), UMAX - 1)
        self.check(r_uint(5) - 7, UMAX - 1)
        self.check(r_uint(3) * -1, UMAX - 2)
        self.check(-1 * r_uint(3), UMAX - 2)
        self.check(r_uint(3) + True, 4)
        self.check(r_uint(3) & -1, 3)
        self.check(-1 & r_uint(3), 3)
        self.check(r_uint(3) | -4, UMAX)
        self.check(r_uint(3) ^ -1, UMAX - 3)

    def test_inplace(self):
        x = r_uint(UMAX)
        x += 2
        self.check(x, 1)
        x -= 3
        self.check(x, UMAX - 1)
        x *= 2
        self.check(x, UMAX - 3)
        x <<= 62
        self.check(x, 0)

    def test_mixed_with_float(self):
        self.assertEqual(r_uint(3) + 0.5, 3.5)
        self.assertIs(type(r_uint(3) + 0.5), float)
        self.assertEqual(0.5 * r_uint(3), 1.5)
        self.assertEqual(r_uint(3) / 2, 1.5)

    def test_mixed_with_r_int(self):
        self.check(r_uint(5) + r_int(-6), UMAX)
        self.check(r_int(-6) + r_uint(5), UMAX)
        self.check(r_int(-1) * r_uint(2), UMAX - 1)

    def test_unary(self):
        self.check(-r_uint(1), UMAX)
        self.check(-r_uint(0), 0)
        self.check(~r_uint(0), UMAX)
        self.check(~r_uint(UMAX), 0)
        self.check(+r_uint(5), 5)
        self.check(abs(r_uint(UMAX)), UMAX)

    def test_division(self):
        self.check(r_uint(-1) // r_uint(10), UMAX // 10)
        self.check(r_uint(-1) % r_uint(10), UMAX % 10)
        self.check(r_uint(2 ** 63) // 3, 2 ** 63 // 3)
        # the signed operand is first converted to unsigned
        self.check(r_uint(10) // -1, 0)
        self.check(r_uint(10) % -1, 10)
        self.check(-1 // r_uint(10), UMAX // 10)
        q, r = divmod(r_uint(-1), 10)
        self.check(q, UMAX // 10)
        self.check(r, UMAX % 10)
        self.assertRaises(ZeroDivisionError, lambda: r_uint(7) // r_uint(0))
        self.assertRaises(ZeroDivisionError, lambda: r_uint(7) % 0)
        self.assertRaises(ZeroDivisionError, lambda: divmod(r_uint(7), 0))
        self.assertRaises(ZeroDivisionError, lambda: 7 // r_uint(0))

    def test_shifts(self):
        self.check(r_uint(-8) >> 1, (UMAX - 7) >> 1)
        self.check(r_uint(1) << 63, 2 ** 63)
        self.check(r_uint(1) << 64, 0)
        self.check(r_uint(3) << 63, 2 ** 63)
        self.check(r_uint(1) << 1000, 0)
        self.check(r_uint(UMAX) >> 63, 1)
        self.check(r_uint(UMAX) >> 64, 0)
        self.check(r_uint(5) << r_uint(2), 20)
        # a shift keeps the type of its left operand
        self.assertIs(type(1 << r_uint(3)), int)
        self.assertEqual(1 << r_uint(3), 8)
        self.assertRaises(ValueError, lambda: r_uint(1) << -1)

    def test_pow(self):
        self.check(r_uint(2) ** 64, 0)
        self.check(r_uint(3) ** 2, 9)
        self.check(r_uint(-1) ** 2, 1)

    def test_compare_unsigned(self):
        a = r_uint(-1)
        b = r_uint(1)
        self.assertTrue(a > b)
        self.assertFalse(a < b)
        self.assertTrue(a >= b)
        self.assertTrue(a != b)
        self.assertTrue(r_uint(MININT) > r_uint(maxint))
        self.assertTrue(r_uint(3) == 3)
        self.assertTrue(r_uint(0) == 0)
        self.assertEqual(hash(r_uint(3)), hash(3))

    def test_conversions(self):
        self.assertIs(type(int(r_uint(5))), int)
        self.assertEqual(str(r_uint(-1)), str(UMAX))
        self.assertEqual(float(r_uint(2 ** 63)), 2.0 ** 63)
        self.assertEqual([1, 2, 3][r_uint(1)], 2)
        self.assertEqual(list(range(r_uint(3))), [0, 1, 2])
        self.assertTrue(r_uint(1))
        self.assertFalse(r_uint(2 ** 64))

    def test_fnv_loop(self):
        h = r_uint(14695981039346656037)
        prime = r_uint(1099511628211)
        expected = 14695981039346656037
        for i in range(50):
            h = (h ^ r_uint(i)) * prime
            expected = ((expected ^ i) * 1099511628211) % 2 ** 64
        self.check(h, expected)


class TestRInt(unittest.TestCase):
    def check(self, value, expected):
        self.assertIs(type(value), r_int)
        self.assertEqual(int(value), expected)

    def test_construct(self):
        self.check(r_int(5), 5)
        self.check(r_int(2 ** 63), MININT)
        self.check(r_int(2 ** 64 - 1), -1)
        self.check(r_int(r_uint(-1)), -1)
        self.check(r_int(-2.5), -2)
        self.check(r_int(), 0)

    def test_wrap(self):
        self.check(r_int(maxint) + 1, MININT)
        self.check(1 + r_int(maxint), MININT)
        self.check(r_int(MININT) - 1, maxint)
        self.check(r_int(maxint) * 2, -2)
        self.check(-r_int(MININT), MININT)
        self.check(abs(r_int(MININT)), MININT)
        self.check(r_int(1) << 63, MININT)
        self.check(r_int(-8) >> 1, -4)
        self.check(~r_int(0), -1)
        self.check(r_int(MININT) // -1, MININT)

    def test_signed_division(self):
        self.check(r_int(-7) // 2, -4)
        self.check(r_int(-7) % 2, 1)
        self.check(r_int(7) // -2, -4)


class TestIntmask(unittest.TestCase):
    def test_edges(self):
        self.assertEqual(intmask(maxint), maxint)
        self.assertEqual(intmask(maxint + 1), MININT)
        self.assertEqual(intmask(MININT), MININT)
        self.assertEqual(intmask(MININT - 1), maxint)
        self.assertEqual(intmask(2 ** 64), 0)
        self.assertEqual(intmask(2 ** 64 - 1), -1)
        self.assertEqual(intmask(-2 ** 64), 0)
        self.assertEqual(intmask(3 * 2 ** 64 + 7), 7)
        self.assertEqual(intmask(1 << 62 << 2), 0)

    def test_types(self):
        self.assertIs(type(intmask(r_uint(-1))), int)
        self.assertEqual(intmask(r_uint(-1)), -1)
        self.assertEqual(intmask(r_uint(2 ** 63)), MININT)
        self.assertEqual(intmask(True), 1)
        self.assertIs(type(intmask(True)), int)
        self.assertIs(type(intmask(r_int(5))), int)
        self.assertRaises(TypeError, intmask, 1.5)

    def test_hash_mix(self):
        h = 1469598103934665603
        for i in range(20):
            h = intmask((h ^ i) * 1099511628211)
            self.assertTrue(MININT <= h <= maxint)


class TestOvfcheck(unittest.TestCase):
    def test_fits(self):
        self.assertEqual(ovfcheck(maxint), maxint)
        self.assertEqual(ovfcheck(MININT), MININT)
        self.assertEqual(ovfcheck(3037000499 * 3037000499),
                         3037000499 * 3037000499)
        self.assertEqual(ovfcheck(-3 + 7), 4)
        self.assertIs(ovfcheck(True), True)

    def test_overflows(self):
        self.assertRaises(OverflowError, ovfcheck, maxint + 1)
        self.assertRaises(OverflowError, ovfcheck, MININT - 1)
        self.assertRaises(OverflowError, ovfcheck, MININT * -1)
        self.assertRaises(OverflowError, ovfcheck, 3037000500 * 3037000500)
        self.assertRaises(OverflowError, ovfcheck, 2 ** 64)

    def test_factorial(self):
        r = 1
        for i in range(2, 21):
            r = ovfcheck(r * i)
        self.assertEqual(r, 2432902008176640000)
        self.assertRaises(OverflowError, ovfcheck, r * 21)

    def test_refuses_machine_words(self):
        self.assertRaises(TypeError, ovfcheck, r_uint(5))
        self.assertRaises(TypeError, ovfcheck, r_int(5))
        self.assertRaises(TypeError, ovfcheck, 1.5)


class TestWiden(unittest.TestCase):
    def test_widen(self):
        self.assertEqual(widen(5), 5)
        self.assertIs(type(widen(5)), int)
        self.assertEqual(widen(True), 1)
        self.assertIs(type(widen(True)), int)
        self.assertEqual(widen(r_int(-3)), -3)
        self.assertIs(type(widen(r_int(-3))), int)
        self.assertEqual(widen(r_uint(-1)), UMAX)


class TestSpecialize(unittest.TestCase):
    def test_hints(self):
        def f(x, y):
            return x

        cases = [
            (specialize.argtype(0), "specialize:argtype(0)"),
            (specialize.argtype(0, 1), "specialize:argtype(0,1)"),
            (specialize.arg(0), "specialize:arg(0)"),
            (specialize.arg(1, 2), "specialize:arg(1,2)"),
            (specialize.arg_or_var(1), "specialize:arg_or_var(1)"),
            (specialize.memo(), "specialize:memo"),
            (specialize.call_location(), "specialize:call_location"),
            (specialize.ll(), "specialize:ll"),
            (specialize.ll_and_arg(0), "specialize:ll_and_arg(0)"),
        ]
        for decorator, text in cases:
            result = decorator(f)
            self.assertIs(result, f)
            self.assertEqual(f._annspecialcase_, text)
            self.assertEqual(f(3, 4), 3)

    def test_method(self):
        class A(object):
            @specialize.argtype(1)
            def m(self, x):
                return x * 3
        self.assertEqual(A.m._annspecialcase_, "specialize:argtype(1)")
        self.assertEqual(A().m(2), 6)
        self.assertEqual(A().m(0.5), 1.5)

    def test_flags(self):
        @always_inline
        def a():
            return 1

        @dont_inline
        def b():
            return 2

        @not_rpython
        def c():
            return 3
        self.assertIs(a._always_inline_, True)
        self.assertIs(b._dont_inline_, True)
        self.assertIs(c._not_rpython_, True)
        self.assertEqual((a(), b(), c()), (1, 2, 3))

    def test_we_are_translated(self):
        self.assertIs(we_are_translated(), False)
        self.assertIs(we_are_translated._rpy3_translated_(), True)


class Shape(object):
    def __init__(self):
        self.side = -1

    def name(self):
        return "shape"


class Square(Shape):
    def name(self):
        return "square"


class MyError(Exception):
    def __init__(self, code):
        Exception.__init__(self, code)
        self.code = code


class TestInstantiate(unittest.TestCase):
    def test_plain(self):
        obj = instantiate(Square)
        self.assertIs(type(obj), Square)
        self.assertFalse(hasattr(obj, "side"))
        obj.side = 4
        self.assertEqual(obj.name(), "square")
        self.assertIs(type(instantiate(Shape, nonmovable=True)), Shape)

    def test_exception(self):
        e = instantiate(MyError)
        self.assertIs(type(e), MyError)
        self.assertFalse(hasattr(e, "code"))
        self.assertRaises(MyError, self._raise, e)

    @staticmethod
    def _raise(e):
        raise e


class TestComputeHash(unittest.TestCase):
    def test_values(self):
        self.assertEqual(compute_hash("hello"), compute_hash("hel" + "lo"))
        self.assertEqual(compute_hash(b"ab"), compute_hash(b"a" + b"b"))
        self.assertEqual(compute_hash(5), 5)
        self.assertEqual(compute_hash(-1), -1)
        self.assertNotEqual(compute_hash(5), compute_hash(6))
        self.assertEqual(compute_hash(1.5), compute_hash(3.0 / 2))
        self.assertEqual(compute_hash(float("nan")), 0)
        self.assertEqual(compute_hash(None), 0)
        self.assertEqual(compute_hash((1, "a", None)),
                         compute_hash((1, "a", None)))
        self.assertNotEqual(compute_hash((1, 2)), compute_hash((2, 1)))
        for v in ["x", 2 ** 70, 1e300, (1, (2, 3)), r_uint(-1)]:
            h = compute_hash(v)
            self.assertIs(type(h), int)
            self.assertTrue(MININT <= h <= maxint)

    def test_identity(self):
        class H(object):
            def __hash__(self):
                return 42
        a = H()
        b = H()
        self.assertEqual(compute_hash(a), object.__hash__(a))
        self.assertEqual(compute_hash(a), compute_hash(a))
        self.assertNotEqual(compute_hash(a), compute_hash(b))


def ci_eq(a, b):
    return a.lower() == b.lower()


def ci_hash(s):
    return hash(s.lower())


class TestRDict(unittest.TestCase):
    def test_basic(self):
        d = r_dict(ci_eq, ci_hash)
        self.assertEqual(len(d), 0)
        self.assertFalse(d)
        d["Alpha"] = 1
        d["BETA"] = 2
        d["gamma"] = 3
        self.assertEqual(len(d), 3)
        self.assertTrue("ALPHA" in d)
        self.assertFalse("delta" in d)
        self.assertEqual(d["beta"], 2)
        d["alpha"] = 10         # replaces the value, keeps the first key
        self.assertEqual(d.keys(), ["Alpha", "BETA", "gamma"])
        self.assertEqual(d.values(), [10, 2, 3])
        self.assertEqual(d.items(), [("Alpha", 10), ("BETA", 2),
                                     ("gamma", 3)])
        self.assertEqual(list(d), ["Alpha", "BETA", "gamma"])
        self.assertIs(type(d.keys()), list)
        self.assertIs(type(d.values()), list)
        self.assertIs(type(d.items()), list)
        del d["ALPHA"]
        d["ALPHA"] = 5
        self.assertEqual(d.keys(), ["BETA", "gamma", "ALPHA"])

    def test_missing(self):
        d = r_dict(ci_eq, ci_hash)
        d["one"] = 1
        with self.assertRaises(KeyError) as cm:
            d["two"]
        self.assertEqual(cm.exception.args, ("two",))
        self.assertRaises(KeyError, d.__delitem__, "two")
        self.assertRaises(KeyError, d.pop, "two")
        self.assertEqual(d.get("two", -1), -1)
        self.assertIsNone(d.get("two"))
        self.assertEqual(d.get("ONE", -1), 1)

    def test_methods(self):
        d = r_dict(ci_eq, ci_hash)
        self.assertEqual(d.setdefault("a", 1), 1)
        self.assertEqual(d.setdefault("A", 2), 1)
        self.assertEqual(d.pop("A"), 1)
        self.assertEqual(d.pop("A", 7), 7)
        d["x"] = 1
        d["y"] = 2
        c = d.copy()
        self.assertIsInstance(c, r_dict)
        self.assertIs(c.key_eq, ci_eq)
        c["X"] = 100
        self.assertEqual(d["x"], 1)
        self.assertEqual(c["x"], 100)
        d.update(c)
        self.assertEqual(d.items(), [("x", 100), ("y", 2)])
        d.update({"Z": 3})
        self.assertEqual(d["z"], 3)
        self.assertEqual(d.popitem(), ("Z", 3))
        d.clear()
        self.assertEqual(len(d), 0)
        self.assertRaises(KeyError, d.popitem)
        self.assertRaises(TypeError, hash, d)

    def test_modular(self):
        d = r_dict(lambda a, b: a % 10 == b % 10, lambda a: a % 10)
        for i in range(25):
            d[i * 7] = i
        self.assertEqual(len(d), 10)
        self.assertEqual(d.get(13, -1), 19)
        self.assertTrue(23 in d)
        self.assertEqual(d.keys(), [0, 7, 14, 21, 28, 35, 42, 49, 56, 63])

    def test_calls_user_functions(self):
        calls = []

        def eq(a, b):
            calls.append(("eq", a, b))
            return a == b

        def h(a):
            calls.append(("hash", a))
            return 0        # every key collides

        d = r_dict(eq, h, force_non_null=True, simple_hash_eq=True)
        d[1] = "a"
        d[2] = "b"
        self.assertEqual(d[2], "b")
        self.assertTrue(("hash", 2) in calls)
        self.assertTrue(any(c[0] == "eq" for c in calls))
        self.assertTrue(d.force_non_null)
        self.assertTrue(d.simple_hash_eq)

    def test_mutation_during_iteration(self):
        d = r_dict(ci_eq, ci_hash)
        d["a"] = 1

        def mutate():
            for k in d:
                d[k + "x"] = 2
        self.assertRaises(RuntimeError, mutate)


class TestBuilders(unittest.TestCase):
    def test_string_builder(self):
        b = StringBuilder()
        b.append("ab")
        b.append_slice("0123456789", 2, 5)
        b.append_multiple_char("\xe9", 3)
        b.append_char("\U0001f600")
        b.append_slice("xyz", 1, 1)
        b.append_multiple_char("-", 0)
        self.assertEqual(b.getlength(), 9)
        self.assertEqual(b.build(), "ab234\xe9\xe9\xe9\U0001f600")
        b.append("!")
        self.assertEqual(b.getlength(), 10)
        self.assertEqual(b.build(), "ab234\xe9\xe9\xe9\U0001f600!")
        self.assertEqual(StringBuilder(16).build(), "")

    def test_bytes_builder(self):
        b = BytesBuilder(10)
        b.append(b"\x00head")
        b.append_slice(b"abcdef", 1, 4)
        b.append_multiple_char(b"\xff", 2)
        b.append_char(b"z")
        b.append(b"")
        self.assertEqual(b.getlength(), 11)
        self.assertEqual(b.build(), b"\x00headbcd\xff\xffz")

    def test_type_errors(self):
        s = StringBuilder()
        self.assertRaises(TypeError, s.append, b"x")
        self.assertRaises(TypeError, s.append_slice, b"xyz", 0, 1)
        self.assertRaises(TypeError, s.append_multiple_char, b"x", 2)
        self.assertRaises(TypeError, s.append_multiple_char, "xy", 2)
        self.assertRaises(TypeError, s.append_char, "")
        b = BytesBuilder()
        self.assertRaises(TypeError, b.append, "x")
        self.assertRaises(TypeError, b.append, bytearray(b"x"))
        self.assertRaises(TypeError, b.append_multiple_char, "x", 2)
        self.assertEqual(s.getlength(), 0)
        self.assertEqual(b.build(), b"")

    def test_bad_slice(self):
        s = StringBuilder()
        self.assertRaises(ValueError, s.append_slice, "abc", 2, 1)
        self.assertRaises(ValueError, s.append_slice, "abc", 0, 4)
        self.assertRaises(ValueError, s.append_slice, "abc", -1, 2)


class TestModules(unittest.TestCase):
    def test_package_import_has_no_side_effects(self):
        import rpy3
        import rpy3.rlib
        self.assertTrue(rpy3.__doc__)
        self.assertTrue(rarithmetic.__doc__)
        self.assertTrue(objectmodel.__doc__)
        self.assertTrue(rstring.__doc__)


if __name__ == "__main__":
    unittest.main()
