"""The messages of the exceptions the low-level helpers raise, run under
CPython on emulated objects and compared with CPython's own (run with
``python3 -m unittest discover -s python/tests``)."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.lltypesystem import rbuiltin, rlist, rstr  # noqa: E402
from rpy3.lltype import GcStruct, GcArray, Ptr, Signed, malloc  # noqa: E402

LIST = GcStruct("list", ("length", Signed), ("items", Ptr(GcArray(Signed))))


def ll_list(values):
    p = malloc(LIST)
    p.length = len(values)
    p.items = malloc(LIST.items.TO, len(values))
    for i, v in enumerate(values):
        p.items[i] = v
    return p


def ll_str(s):
    p = malloc(rstr.STR, len(s))
    for i, c in enumerate(s):
        p.chars[i] = c
    return p


def failure(f, *args):
    try:
        f(*args)
    except Exception as e:
        return (type(e), str(e))
    return None


def eq(a, b):
    return a == b


def lt(a, b):
    return a < b


class Messages(unittest.TestCase):
    def same(self, helper, cpython):
        expected = failure(cpython)
        self.assertIsNotNone(expected)
        self.assertEqual(failure(helper), expected)

    def test_lists(self):
        def setitem(l, i):
            l[i] = 0

        def delitem(l, i):
            del l[i]

        for n in (0, 3):
            for i in (-5, -1, 0, 3, 7):
                vals = list(range(n))
                if not -n <= i < n:
                    self.same(lambda: rlist.ll_getitem(ll_list(vals), i), lambda: vals[i])
                    self.same(lambda: rlist.ll_setitem(ll_list(vals), i, 0),
                              lambda: setitem(list(vals), i))
                    self.same(lambda: rlist.ll_delitem(ll_list(vals), i),
                              lambda: delitem(list(vals), i))
                    self.same(lambda: rlist.ll_pop(ll_list(vals), i), lambda: list(vals).pop(i))
        self.same(lambda: rlist.ll_pop_last(ll_list([])), lambda: [].pop())
        self.same(lambda: rlist.ll_remove(ll_list([1]), 2, eq), lambda: [1].remove(2))
        self.same(lambda: rlist.ll_extreme(ll_list([]), lt, True), lambda: max([]))
        self.same(lambda: rlist.ll_extreme(ll_list([]), lt, False), lambda: min([]))
        self.same(lambda: rlist.ll_slice_step(ll_list([1]), 0, 1, 0, 0), lambda: [1][0:1:0])

    def test_strings(self):
        self.same(lambda: rstr.ll_stritem(ll_str("ab"), 2), lambda: "ab"[2])
        self.same(lambda: rstr.ll_bytes_item(ll_str("ab"), -3), lambda: b"ab"[-3])
        self.same(lambda: rstr.ll_index(ll_str("ab"), ll_str("z"), 0, 9), lambda: "ab".index("z"))
        self.same(lambda: rstr.ll_rindex(ll_str("ab"), ll_str("z"), 0, 9),
                  lambda: "ab".rindex("z"))
        self.same(lambda: rstr.ll_partition_part(ll_str("ab"), ll_str(""), 0, False),
                  lambda: "ab".partition(""))
        self.same(lambda: rlist.ll_split(ll_list([]), ll_str("ab"), ll_str(""), -1),
                  lambda: "ab".split(""))
        self.same(lambda: rstr.ll_str2int_base(ll_str("1"), 1), lambda: int("1", 1))
        for spec in ("1" * 25, ".", ",_", ".2d", "zd", ",n", "_n", ",c", "+c", "#c", ",x",
                     "_c"):
            self.same(lambda: rstr.ll_format_int(65, ll_str(spec)), lambda: format(65, spec))
        self.same(lambda: rstr.ll_format_int(-1, ll_str("c")), lambda: format(-1, "c"))
        for spec in (",n", "_n", ",c", "."):
            self.same(lambda: rstr.ll_format_float(1.5, ll_str(spec)), lambda: format(1.5, spec))
        for spec in (",", "_", ",x", "+", " ", "z", "#", "=", "+="):
            self.same(lambda: rstr.ll_format_str(ll_str("a"), ll_str(spec)),
                      lambda: format("a", spec))

    def test_numbers(self):
        self.same(lambda: rbuiltin.ll_pow_mod(2, 3, 0), lambda: pow(2, 3, 0))
        self.same(lambda: rbuiltin.ll_pow_mod(2, -1, 4), lambda: pow(2, -1, 4))
        self.same(lambda: rbuiltin.ll_factorial(-1), lambda: math.factorial(-1))
        self.same(lambda: rbuiltin.ll_isclose(1.0, 1.0, -1.0, 0.0),
                  lambda: math.isclose(1.0, 1.0, rel_tol=-1.0))
        for n, k in ((-1, 2), (2, -1), (-1, -1)):
            self.same(lambda: rbuiltin.ll_perm(n, k), lambda: math.perm(n, k))
            self.same(lambda: rbuiltin.ll_comb(n, k), lambda: math.comb(n, k))
        self.same(lambda: rbuiltin.ll_isqrt(-1), lambda: math.isqrt(-1))
        self.same(lambda: rbuiltin.ll_check_byte(256), lambda: bytearray(1).__setitem__(0, 256))
        self.same(lambda: rbuiltin.ll_check_size(-1), lambda: bytearray(-1))
        self.same(lambda: rlist.ll_bytes_zeros(-1), lambda: bytes(-1))
        self.same(lambda: rlist.ll_bytes_from_list(ll_list([300])), lambda: bytes([300]))


if __name__ == "__main__":
    unittest.main()
