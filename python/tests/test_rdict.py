"""The dict and set helpers of rpy3.lltypesystem.rdict, run under CPython
on emulated low-level dicts and compared with CPython's dict and set on
random sequences of operations."""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.lltypesystem import rdict  # noqa: E402
from rpy3.lltype import GcStruct, GcArray, Ptr, Signed, Bool, Void, malloc  # noqa: E402


def dict_type(V):
    arr = lambda T: Ptr(GcArray(T))  # noqa: E731
    return GcStruct("dict", ("length", Signed), ("used", Signed), ("keys", arr(Signed)),
                    ("values", arr(V)), ("hashes", arr(Signed)), ("live", arr(Bool)),
                    ("index", arr(Signed)))


DICT = dict_type(Signed)
SET = dict_type(Void)
H = rdict.ll_hash_int


def eq(a, b):
    return a == b


def new(T):
    d = malloc(T)
    rdict.ll_dict_init(d)
    return d


def items(d):
    return [(d.keys[i], d.values[i]) for i in range(d.used) if d.live[i]]


def keys(d):
    return [k for k, _ in items(d)]


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except KeyError:
        return ("raised", KeyError)


class Hashes(unittest.TestCase):
    def test_int_hash_matches_cpython(self):
        for x in [0, 1, -1, -2, 2 ** 61 - 2, 2 ** 61 - 1, 2 ** 61, 2 ** 63 - 1, -2 ** 63,
                  -(2 ** 61), 12345678901234]:
            self.assertEqual(rdict.ll_hash_int(x), hash(x), x)

    def test_tuple_hash_matches_cpython(self):
        for t in [(), (1,), (1, 2), (-1, 0, 2 ** 62), (5, 5, 5, 5)]:
            acc = 2870177450012600261
            for x in t:
                acc = rdict.ll_hash_combine(acc, hash(x))
            self.assertEqual(rdict.ll_hash_tuple_finish(acc, len(t)), hash(t), t)


class RandomOperations(unittest.TestCase):
    def test_random_dict_programs_match_cpython(self):
        rng = random.Random(4321)
        for _ in range(200):
            ref = {}
            d = new(DICT)
            for _ in range(rng.randrange(1, 120)):
                k = rng.randrange(-20, 20)
                v = rng.randrange(100)
                op = rng.randrange(9)
                if op < 3:
                    ref[k] = v
                    rdict.ll_setitem(d, k, v, H, eq)
                elif op == 3:
                    self.assertEqual(outcome(rdict.ll_getitem, d, k, H, eq),
                                     outcome(ref.__getitem__, k))
                elif op == 4:
                    self.assertEqual(outcome(rdict.ll_delitem, d, k, H, eq),
                                     outcome(ref.__delitem__, k))
                elif op == 5:
                    self.assertEqual(rdict.ll_pop_default(d, k, -1, H, eq), ref.pop(k, -1))
                elif op == 6:
                    self.assertEqual(rdict.ll_setdefault(d, k, v, H, eq), ref.setdefault(k, v))
                elif op == 7:
                    self.assertEqual(rdict.ll_get(d, k, -7, H, eq), ref.get(k, -7))
                    self.assertEqual(rdict.ll_contains(d, k, H, eq), k in ref)
                else:
                    if ref:
                        e = rdict.ll_popitem_entry(d)
                        self.assertEqual((d.keys[e], d.values[e]), ref.popitem())
                self.assertEqual(items(d), list(ref.items()))
                self.assertEqual(d.length, len(ref))
            copy = rdict.ll_copy(d, eq)
            self.assertEqual(items(copy), list(ref.items()))

    def test_sets_match_cpython(self):
        rng = random.Random(77)
        for _ in range(200):
            xs = {rng.randrange(-10, 10) for _ in range(rng.randrange(0, 12))}
            ys = {rng.randrange(-10, 10) for _ in range(rng.randrange(0, 12))}
            a = new(SET)
            b = new(SET)
            for x in xs:
                rdict.ll_set_add(a, x, H, eq)
            for y in ys:
                rdict.ll_set_add(b, y, H, eq)
            self.assertEqual(sorted(keys(rdict.ll_set_union(a, b, eq))), sorted(xs | ys))
            self.assertEqual(sorted(keys(rdict.ll_set_intersection(a, b, eq))), sorted(xs & ys))
            self.assertEqual(sorted(keys(rdict.ll_set_difference(a, b, eq))), sorted(xs - ys))
            self.assertEqual(sorted(keys(rdict.ll_set_symmetric_difference(a, b, eq))),
                             sorted(xs ^ ys))
            self.assertEqual(rdict.ll_set_issubset(a, b, eq), xs <= ys)
            self.assertEqual(rdict.ll_set_eq(a, b, eq), xs == ys)


if __name__ == "__main__":
    unittest.main()
