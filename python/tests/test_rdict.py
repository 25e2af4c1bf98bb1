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
    return GcStruct("dict", ("length", Signed), ("used", Signed), ("fill", Signed),
                    ("finger", Signed), ("keys", arr(Signed)), ("values", arr(V)),
                    ("hashes", arr(Signed)), ("live", arr(Bool)), ("index", arr(Signed)))


DICT = dict_type(Signed)
SET = dict_type(Void)
H = rdict.ll_hash_int


def eq(a, b):
    return a == b


def new(T):
    d = malloc(T)
    if T is SET:
        rdict.ll_set_init(d)
    else:
        rdict.ll_dict_init(d)
    return d


class List:
    """An emulated list: the fields the helpers read."""

    def __init__(self, items):
        self.items = list(items)
        self.length = len(self.items)


def set_of(xs):
    s = new(SET)
    rdict.ll_set_add_list(s, List(xs), H, eq)
    return s


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
            lx = [rng.randrange(-10, 10) for _ in range(rng.randrange(0, 12))]
            ly = [rng.randrange(-10, 10) for _ in range(rng.randrange(0, 12))]
            xs, ys = set(lx), set(ly)
            a = set_of(lx)
            b = set_of(ly)
            self.assertEqual(keys(a), list(xs))
            self.assertEqual(keys(rdict.ll_set_union(a, b, eq)), list(xs | ys))
            self.assertEqual(keys(rdict.ll_set_intersection(a, b, eq)), list(xs & ys))
            self.assertEqual(keys(rdict.ll_set_difference(a, b, eq)), list(xs - ys))
            self.assertEqual(keys(rdict.ll_set_symmetric_difference(a, b, eq)),
                             list(xs ^ ys))
            self.assertEqual(rdict.ll_set_issubset(a, b, eq), xs <= ys)
            self.assertEqual(rdict.ll_set_eq(a, b, eq), xs == ys)
            self.assertEqual(rdict.ll_set_isdisjoint(a, b, eq), xs.isdisjoint(ys))


def random_key(rng):
    r = rng.random()
    if r < 0.5:
        return rng.randrange(-40, 40)
    if r < 0.8:
        # keys colliding in the low bits of their hashes
        return rng.randrange(0, 4000) * rng.choice([1, 8, 32, 64, 1024])
    return rng.randrange(-2 ** 63, 2 ** 63)


class SetOrder(unittest.TestCase):
    """Sets lay out their keys as CPython does: the same order after every
    operation (adds and removals leaving dummies, growth, pop and its
    finger, and each operation's order of visits and insertions)."""

    def check(self, ref, s):
        self.assertEqual(keys(s), list(ref))
        self.assertEqual(s.length, len(ref))

    def test_random_set_programs_match_cpython(self):
        rng = random.Random(1234)
        for _ in range(30):
            ref = set()
            s = new(SET)
            for _ in range(rng.randrange(1, 120)):
                op = rng.randrange(14)
                k = random_key(rng)
                if op < 5:
                    ref.add(k)
                    rdict.ll_set_add(s, k, H, eq)
                elif op < 7:
                    ref.discard(k)
                    rdict.ll_set_discard(s, k, H, eq)
                elif op == 7:
                    if ref:
                        self.assertEqual(s.keys[rdict.ll_set_pop(s)], ref.pop())
                elif op == 8:
                    xs = [random_key(rng) for _ in range(rng.randrange(0, 30))]
                    other = set_of(xs)
                    self.check(set(xs), other)
                    which = rng.randrange(8)
                    if which == 0:
                        r, rs = ref | set(xs), rdict.ll_set_union(s, other, eq)
                    elif which == 1:
                        r, rs = ref & set(xs), rdict.ll_set_intersection(s, other, eq)
                    elif which == 2:
                        r, rs = ref - set(xs), rdict.ll_set_difference(s, other, eq)
                    elif which == 3:
                        r = ref ^ set(xs)
                        rs = rdict.ll_set_symmetric_difference(s, other, eq)
                    elif which == 4:
                        r = ref.intersection(xs)
                        rs = rdict.ll_set_intersection_list(s, List(xs), H, eq)
                    elif which == 5:
                        r = ref.difference(xs)
                        rs = rdict.ll_set_copy_difference(s, other, eq)
                    elif which == 6:
                        r, rs = set(ref), rdict.ll_set_copy(s, eq)
                    else:
                        r = ref.union(xs)
                        rs = rdict.ll_set_copy(s, eq)
                        rdict.ll_set_add_list(rs, List(xs), H, eq)
                    self.check(r, rs)
                    if rng.random() < 0.3:
                        ref, s = r, rs
                elif op == 9:
                    xs = [random_key(rng) for _ in range(rng.randrange(0, 30))]
                    other = set_of(xs)
                    which = rng.randrange(5)
                    if which == 0:
                        ref |= set(xs)
                        rdict.ll_set_update(s, other, eq)
                    elif which == 1:
                        ref -= set(xs)
                        rdict.ll_set_difference_update(s, other, eq)
                    elif which == 2:
                        ref ^= set(xs)
                        rdict.ll_set_symmetric_difference_update(s, other, eq)
                    elif which == 3:
                        ref &= set(xs)
                        rdict.ll_set_replace(s, rdict.ll_set_intersection(s, other, eq))
                    else:
                        ref.symmetric_difference_update(dict.fromkeys(xs))
                        rdict.ll_set_symmetric_difference_update_list(
                            s, List(dict.fromkeys(xs)), H, eq)
                elif op == 10:
                    xs = [random_key(rng) for _ in range(rng.randrange(0, 30))]
                    d = new(DICT)
                    for x in xs:
                        rdict.ll_setitem(d, x, 0, H, eq)
                    ref.update(dict.fromkeys(xs))
                    rdict.ll_set_update_dict(s, d, eq)
                elif op == 11:
                    if rng.random() < 0.1:
                        ref.clear()
                        rdict.ll_set_clear(s)
                elif op == 12:
                    self.check(ref | ref, rdict.ll_set_union(s, s, eq))
                    self.check(ref ^ ref, rdict.ll_set_symmetric_difference(s, s, eq))
                    ref |= ref
                    rdict.ll_set_update(s, s, eq)
                else:
                    self.assertEqual(rdict.ll_set_contains(s, k, H, eq), k in ref)
                self.check(ref, s)


if __name__ == "__main__":
    unittest.main()
