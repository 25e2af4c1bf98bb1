"""The list helpers of rpy3.lltypesystem.rlist, run under CPython on
emulated low-level lists and compared with CPython's own list, on random
sequences of operations."""

import os
import random
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.lltypesystem import rlist, rstr  # noqa: E402
from rpy3.lltype import GcStruct, GcArray, Ptr, Signed, malloc  # noqa: E402

LIST = GcStruct("list", ("length", Signed), ("items", Ptr(GcArray(Signed))))


def ll(values):
    p = malloc(LIST)
    p.length = len(values)
    p.items = malloc(LIST.items.TO, len(values))
    for i, v in enumerate(values):
        p.items[i] = v
    return p


def py(p):
    assert p.length <= len(p.items)
    return [p.items[i] for i in range(p.length)]


def eq(a, b):
    return a == b


def lt(a, b):
    return a < b


def outcome(f, *args):
    """f(*args), or the class of the exception it raised."""
    try:
        return ("ok", f(*args))
    except (IndexError, ValueError) as e:
        return ("raised", type(e))


BOUNDS = [None, -100, -7, -3, -1, 0, 1, 2, 5, 7, 100]
STEPS = [None, -100, -3, -2, -1, 1, 2, 3, 100]


def slice_args(start, stop, step):
    nones = (start is None) | (stop is None) << 1 | (step is None) << 2
    return (start or 0, stop or 0, step or 0, nones)


class Slices(unittest.TestCase):
    def test_getslice_matches_cpython(self):
        for n in range(0, 8):
            values = list(range(10, 10 + n))
            for a in BOUNDS:
                for b in BOUNDS:
                    for s in STEPS:
                        got = rlist.ll_slice_step(ll(values), *slice_args(a, b, s))
                        self.assertEqual(py(got), values[a:b:s], (n, a, b, s))

    def test_setslice_matches_cpython(self):
        for n in range(0, 7):
            for a in BOUNDS:
                for b in BOUNDS:
                    for s in STEPS:
                        for m in range(0, 4):
                            values = list(range(n))
                            new = list(range(50, 50 + m))
                            ref = list(values)
                            try:
                                ref[a:b:s] = new
                                want = ("ok", ref)
                            except ValueError:
                                want = ("raised", ValueError)
                            p = ll(values)
                            got = outcome(rlist.ll_setslice, p, *slice_args(a, b, s), ll(new))
                            if got[0] == "ok":
                                got = ("ok", py(p))
                            self.assertEqual(got, want, (n, a, b, s, m))

    def test_setslice_from_itself(self):
        values = list(range(6))
        p = ll(values)
        rlist.ll_setslice(p, 1, 3, 0, 4, p)
        values[1:3] = values
        self.assertEqual(py(p), values)

    def test_delslice_matches_cpython(self):
        for n in range(0, 9):
            for a in BOUNDS:
                for b in BOUNDS:
                    for s in STEPS:
                        values = list(range(n))
                        p = ll(values)
                        del values[a:b:s]
                        rlist.ll_delslice(p, *slice_args(a, b, s))
                        self.assertEqual(py(p), values, (n, a, b, s))


class RandomOperations(unittest.TestCase):
    def test_random_programs_match_cpython(self):
        rng = random.Random(1234)
        for _ in range(300):
            ref = [rng.randrange(-5, 5) for _ in range(rng.randrange(0, 6))]
            p = ll(ref)
            for _ in range(40):
                k = rng.randrange(14)
                x = rng.randrange(-5, 5)
                i = rng.randrange(-8, 8)
                if k == 0:
                    ref.append(x)
                    rlist.ll_append(p, x)
                elif k == 1:
                    want = outcome(ref.pop, i)
                    self.assertEqual(outcome(rlist.ll_pop, p, i), want)
                elif k == 2:
                    want = outcome(ref.pop)
                    self.assertEqual(outcome(rlist.ll_pop_last, p), want)
                elif k == 3:
                    ref.insert(i, x)
                    rlist.ll_insert(p, i, x)
                elif k == 4:
                    want = outcome(ref.__getitem__, i)
                    self.assertEqual(outcome(rlist.ll_getitem, p, i), want)
                elif k == 5:
                    want = outcome(ref.__setitem__, i, x)
                    self.assertEqual(outcome(rlist.ll_setitem, p, i, x), want)
                elif k == 6:
                    want = outcome(ref.__delitem__, i)
                    self.assertEqual(outcome(rlist.ll_delitem, p, i), want)
                elif k == 7:
                    self.assertEqual(rlist.ll_count(p, x, eq), ref.count(x))
                    self.assertEqual(outcome(rlist.ll_index, p, x, eq), outcome(ref.index, x))
                    self.assertEqual(rlist.ll_contains(p, x, eq), x in ref)
                elif k == 8:
                    want = outcome(ref.remove, x)
                    self.assertEqual(outcome(rlist.ll_remove, p, x, eq), want)
                elif k == 9:
                    other = [rng.randrange(-5, 5) for _ in range(rng.randrange(0, 4))]
                    q = ll(other)
                    self.assertEqual(rlist.ll_eq(p, q, eq), ref == other)
                    c = rlist.ll_cmp(p, q, eq, lt)
                    self.assertEqual(c, (ref > other) - (ref < other))
                    self.assertEqual(py(rlist.ll_concat(p, q)), ref + other)
                    ref.extend(other)
                    rlist.ll_extend(p, q)
                elif k == 10:
                    t = rng.randrange(-1, 4)
                    self.assertEqual(py(rlist.ll_mul(p, t)), ref * t)
                    if len(ref) < 20:
                        ref *= t
                        rlist.ll_inplace_mul(p, t)
                elif k == 11:
                    ref.reverse()
                    rlist.ll_reverse(p)
                elif k == 12:
                    rlist.ll_extend(p, p)
                    ref.extend(ref)
                    if len(ref) > 30:
                        del ref[10:]
                        rlist.ll_delslice(p, 10, 0, 0, 2 | 4)
                else:
                    self.assertEqual(py(rlist.ll_copy(p)), ref)
                self.assertEqual(py(p), ref)
                self.assertEqual(rlist.ll_len(p), len(ref))


class Sorting(unittest.TestCase):
    def test_sort_is_stable_and_matches_cpython(self):
        rng = random.Random(99)
        for n in [0, 1, 2, 15, 16, 17, 33, 100, 257]:
            for reverse in (False, True):
                # sort pairs by their first item only: stability shows
                keys = [rng.randrange(0, 5) for _ in range(n)]
                ref = sorted(range(n), key=lambda i: keys[i], reverse=reverse)
                p = ll(list(range(n)))

                def by_key(a, b):
                    return keys[a] < keys[b]
                rlist.ll_sort(p, by_key, reverse)
                self.assertEqual(py(p), ref, (n, reverse))

    def test_keyed_sort_is_stable_and_matches_cpython(self):
        rng = random.Random(7)
        for n in [0, 1, 2, 3, 17, 64, 129]:
            for reverse in (False, True):
                values = [rng.randrange(-50, 50) for _ in range(n)]
                p = ll(values)
                keys = malloc(LIST.items.TO, n)
                calls = []

                def key(x):
                    calls.append(x)
                    return x % 7
                rlist.ll_sort_keyed(p, keys, key, lt, reverse)
                self.assertEqual(py(p), sorted(values, key=lambda x: x % 7, reverse=reverse))
                self.assertEqual(len(calls), n)

    def test_range_extend_matches_cpython(self):
        for start in range(-4, 5):
            for stop in range(-4, 5):
                for step in (-3, -1, 1, 2):
                    p = ll([7])
                    rlist.ll_extend_range(p, start, stop, step)
                    self.assertEqual(py(p), [7] + list(range(start, stop, step)))


class StringLists(unittest.TestCase):
    STRS = GcStruct("list", ("length", Signed), ("items", Ptr(GcArray(Ptr(rstr.STR)))))
    SAMPLES = ["", " ", "a", " a b  c ", "a,b,,c,", ",", "\u3000x\u3000y\t", "aaa",
               "abab", "x--y--z", "--"]

    def strs(self, p):
        return [rstr_py(p.items[i]) for i in range(p.length)]

    def test_split_and_rsplit_match_cpython(self):
        for s in self.SAMPLES:
            for sep in [None, ",", "--", "a", "ab", ""]:
                for maxsplit in [-1, 0, 1, 2, 5]:
                    for name in ("split", "rsplit"):
                        p = malloc(self.STRS)
                        p.items = malloc(self.STRS.items.TO, 0)
                        helper = getattr(rlist, "ll_" + name)
                        sep_ll = rstr_ll(sep) if sep is not None else None
                        try:
                            want = getattr(s, name)(sep, maxsplit)
                        except ValueError:
                            with self.assertRaises(ValueError):
                                helper(p, rstr_ll(s), sep_ll, maxsplit)
                            continue
                        helper(p, rstr_ll(s), sep_ll, maxsplit)
                        self.assertEqual(self.strs(p), want, (name, s, sep, maxsplit))

    def test_join_matches_cpython(self):
        for sep in ["", ", ", "é"]:
            for words in [[], ["a"], ["ab", "", "c"]]:
                p = malloc(self.STRS)
                p.length = len(words)
                p.items = malloc(self.STRS.items.TO, len(words))
                for i, w in enumerate(words):
                    p.items[i] = rstr_ll(w)
                self.assertEqual(rstr_py(rlist.ll_join(rstr_ll(sep), p)), sep.join(words))


def rstr_ll(s):
    p = malloc(rstr.STR, len(s))
    for i, c in enumerate(s):
        p.chars[i] = c
    return p


def rstr_py(p):
    return "".join(p.chars[i] for i in range(len(p.chars)))


if __name__ == "__main__":
    unittest.main()
