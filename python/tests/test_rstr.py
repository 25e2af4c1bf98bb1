"""The string helpers of rpy3.lltypesystem.rstr, run under CPython on
emulated low-level strings and compared with CPython's own str."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rpy3.lltypesystem import rstr  # noqa: E402
from rpy3.lltype import malloc  # noqa: E402


def ll(s):
    p = malloc(rstr.STR, len(s))
    for i, c in enumerate(s):
        p.chars[i] = c
    return p


def py(p):
    return "".join(p.chars[i] for i in range(len(p.chars)))


SAMPLES = ["", "a", "Hello, World", "  padded\t\n", "straße", "ΑΒΓ αβγ 😀",
           "École ÇA", "ὈΔΥΣΣΕΎΣ", "ΌΣΟΣ Σ", "İstanbul", "ﬁne", "12_3",
           "ǅemal", "'ΑΣ'", "ΑΣ.", "ΑΣ\u0301Α"]


class CaseMapping(unittest.TestCase):
    def test_upper_lower_match_cpython(self):
        for s in SAMPLES:
            self.assertEqual(py(rstr.ll_upper(ll(s))), s.upper(), s)
            self.assertEqual(py(rstr.ll_lower(ll(s))), s.lower(), s)


class Classes(unittest.TestCase):
    def test_predicates_match_cpython(self):
        samples = SAMPLES + ["123", "١٢٣", "²", "½", "Ⅻ", " \t\x1c\u3000", "ǅ", "ǅA",
                             "ABC def", "ABC", "abc", "a\u0345", "\x00", "\xa0", "\U000e0001"]
        for s in samples:
            for m in ["isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum",
                      "isspace", "isprintable", "isupper", "islower"]:
                self.assertEqual(getattr(rstr, "ll_" + m)(ll(s)), getattr(s, m)(), (s, m))


class Searching(unittest.TestCase):
    HAY = ["", "a", "abcabc", "aaaa", "xyz"]
    NEEDLES = ["", "a", "aa", "bc", "abc", "z", "q"]
    BOUNDS = [-8, -3, -1, 0, 1, 2, 3, 5, 7, 2 ** 62]

    def test_find_family_matches_cpython(self):
        for h in self.HAY:
            for n in self.NEEDLES:
                for a in self.BOUNDS:
                    for b in self.BOUNDS:
                        for m in ["find", "rfind", "count", "startswith", "endswith"]:
                            got = getattr(rstr, "ll_" + m)(ll(h), ll(n), a, b)
                            self.assertEqual(got, getattr(h, m)(n, a, b), (h, n, a, b, m))
                        for m in ["index", "rindex"]:
                            try:
                                want = getattr(h, m)(n, a, b)
                            except ValueError:
                                want = ValueError
                            try:
                                got = getattr(rstr, "ll_" + m)(ll(h), ll(n), a, b)
                            except ValueError:
                                got = ValueError
                            self.assertEqual(got, want, (h, n, a, b, m))

    def test_replace_matches_cpython(self):
        for h in self.HAY:
            for old in self.NEEDLES:
                for new in ["", "-", "XYZ"]:
                    for count in [-1, 0, 1, 2, 10]:
                        got = py(rstr.ll_replace(ll(h), ll(old), ll(new), count))
                        self.assertEqual(got, h.replace(old, new, count), (h, old, new, count))

    def test_strip_matches_cpython(self):
        for h in ["", "  a b  ", "xxaxx", "\u3000a\t", "abc"]:
            for chars in [None, "", "x", "ax", " "]:
                c = ll(chars) if chars is not None else None
                self.assertEqual(py(rstr.ll_strip(ll(h), c, True, True)), h.strip(chars))
                self.assertEqual(py(rstr.ll_strip(ll(h), c, True, False)), h.lstrip(chars))
                self.assertEqual(py(rstr.ll_strip(ll(h), c, False, True)), h.rstrip(chars))


class Formatting(unittest.TestCase):
    @staticmethod
    def outcome(f, *args):
        try:
            return py(f(*args))
        except (ValueError, OverflowError) as e:
            return type(e)

    @staticmethod
    def cpython(v, spec):
        try:
            return format(v, spec)
        except (ValueError, OverflowError) as e:
            return type(e)

    def specs(self, types, precisions=("",)):
        import itertools
        for fill, al, sign, alt, zero, width, grp, prec, typ in itertools.product(
                ["", "*", "0"], ["", "<", ">", "^", "="], ["", "+", " "], ["", "#"],
                ["", "0"], ["", "1", "9"], ["", ",", "_"], precisions, types):
            if fill and not al:
                continue
            yield fill + al + sign + alt + zero + width + grp + prec + typ

    def test_int_specs_match_cpython(self):
        for spec in self.specs(["", "d", "x", "X", "o", "b", "c", "n"], ["", ".2"]):
            for v in [0, -5, 1234567, -(2 ** 63), 65]:
                self.assertEqual(self.outcome(rstr.ll_format_int, v, ll(spec)),
                                 self.cpython(v, spec), (v, spec))
            for v in [True, False]:
                self.assertEqual(self.outcome(rstr.ll_format_bool, v, ll(spec)),
                                 self.cpython(v, spec), (v, spec))

    def test_str_specs_match_cpython(self):
        for spec in self.specs(["", "s", "d"], ["", ".0", ".2", "."]):
            for v in ["", "ab", "é😀xyz"]:
                self.assertEqual(self.outcome(rstr.ll_format_str, ll(v), ll(spec)),
                                 self.cpython(v, spec), (v, spec))


class FloatFormatting(unittest.TestCase):
    def test_float_specs_match_cpython(self):
        import itertools
        values = [0.0, -0.0, -2.5, 1234567.891, 1e16, 1e-5, float("inf"),
                  float("-inf"), float("nan"), -0.0001]
        for al, sign, z, alt, zero, width, grp, prec, typ in itertools.product(
                ["", "<", "=", "^"], ["", "+"], ["", "z"], ["", "#"], ["", "0"],
                ["", "12"], ["", ","], ["", ".0", ".3"],
                ["", "e", "f", "g", "G", "%", "n", "d"]):
            spec = al + sign + z + alt + zero + width + grp + prec + typ
            for v in values:
                try:
                    want = format(v, spec)
                except ValueError:
                    want = ValueError
                try:
                    got = py(rstr.ll_format_float(v, ll(spec)))
                except ValueError:
                    got = ValueError
                self.assertEqual(got, want, (v, spec))
        for v in values:
            self.assertEqual(py(rstr.ll_float_repr(v)), repr(v))


class Repr(unittest.TestCase):
    def test_repr_matches_cpython(self):
        samples = ["", "a'b", 'a"b', "a'\"b", "\\", "\t\n\r\x00\x1f\x7f\x80\xa0\xad",
                   "é😀", "\u2028\ud800\U000e0001\U0010ffff", "it's"]
        samples += [chr(c) for c in range(0, 0x110000, 97)]
        for s in samples:
            self.assertEqual(py(rstr.ll_str_repr(ll(s))), repr(s))


class Slicing(unittest.TestCase):
    def test_slices_with_steps_match_cpython(self):
        bounds = [None, -9, -4, -1, 0, 1, 3, 4, 5, 9, 2 ** 62, -2 ** 62]
        for s in ["", "a", "abcd", "héllo😀"]:
            for a in bounds:
                for b in bounds:
                    for c in [None, 1, 2, 3, -1, -2, -5, 2 ** 62, -2 ** 62]:
                        nones = (a is None) | (b is None) << 1 | (c is None) << 2
                        got = rstr.ll_strslice_step(ll(s), a or 0, b or 0, c or 0, nones)
                        self.assertEqual(py(got), s[a:b:c], (s, a, b, c))
        with self.assertRaises(ValueError):
            rstr.ll_strslice_step(ll("abc"), 0, 0, 0, 3)


class Conversions(unittest.TestCase):
    def test_str2int(self):
        for s in ["0", "  +8  ", "\t-0\n", "9223372036854775807",
                  "-9223372036854775808", "1_000", "1_0_0", "007"]:
            self.assertEqual(rstr.ll_str2int(ll(s)), int(s), s)

    def test_str2int_rejects(self):
        for s in ["", "12a", "0x10", "- 5", "_1", "1_", "1__0", "+", " "]:
            with self.assertRaises(ValueError, msg=s):
                int(s)
            with self.assertRaises(ValueError, msg=s):
                rstr.ll_str2int(ll(s))

    def test_str2int_overflow(self):
        for s in ["9223372036854775808", "-9223372036854775809", "1" * 30]:
            with self.assertRaises(OverflowError, msg=s):
                rstr.ll_str2int(ll(s))

    def test_int2str(self):
        for n in [0, 7, -7, 1234567890, -(2 ** 63), 2 ** 63 - 1]:
            self.assertEqual(py(rstr.ll_int2str(n)), str(n))


if __name__ == "__main__":
    unittest.main()


class Bytes(unittest.TestCase):
    """The bytes helpers, on emulated rpy_bytes, against CPython's bytes."""

    @staticmethod
    def llb(b):
        p = malloc(rstr.BYTES, len(b))
        for i, c in enumerate(b):
            p.chars[i] = chr(c)
        return p

    def test_decode_matches_cpython(self):
        import random
        rng = random.Random(5)
        samples = [b"", b"abc", "é😀€".encode(), b"\xff", b"\xc3", b"\xed\xa0\x80",
                   b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xe2\x28\xa1", b"\xf0\x9f\x98"]
        samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(6)))
                    for _ in range(2000)]
        for b in samples:
            try:
                want = b.decode("utf-8")
            except UnicodeDecodeError:
                with self.assertRaises(UnicodeDecodeError):
                    rstr.ll_decode_utf8(self.llb(b))
                continue
            self.assertEqual(py(rstr.ll_decode_utf8(self.llb(b))), want, b)

    def test_encode_matches_cpython(self):
        for s in ["", "abc", "é😀€\x7f\x80\u07ff\u0800\uffff\U00010000"]:
            p = rstr.ll_encode_utf8(ll(s))
            got = bytes(ord(p.chars[i]) for i in range(len(p.chars)))
            self.assertEqual(got, s.encode("utf-8"))
        with self.assertRaises(UnicodeEncodeError):
            rstr.ll_encode_utf8(ll("a\ud800"))

    def test_repr_matches_cpython(self):
        for b in [b"", b"abc", b"'", b'"', b"'\"", b"\\\t\n\r\x00\x7f\x80\xff", bytes(range(256))]:
            self.assertEqual(py(rstr.ll_bytes_repr(self.llb(b))), repr(b))


class MoreMethods(unittest.TestCase):
    def test_title_matches_cpython(self):
        for s in SAMPLES + ["hello world", "they're bill's", "ß-ǆ 3abc", "aΣ bΣc", "ᾳx ǉx"]:
            self.assertEqual(py(rstr.ll_title(ll(s))), s.title(), s)

    def test_affixes(self):
        for s, a in [("prefix-body", "prefix"), ("abc", "abcd"), ("abc", ""), ("aa", "a")]:
            self.assertEqual(py(rstr.ll_removeprefix(ll(s), ll(a))), s.removeprefix(a))
            self.assertEqual(py(rstr.ll_removesuffix(ll(s), ll(a))), s.removesuffix(a))

    def test_int_base_matches_cpython(self):
        texts = ["ff", "0x1F", "0o17", "0b101", "  -42  ", "zz", "1_000", "0", "00", "0_0",
                 "012", "12", "", "+7", "-0b11", "0x_1", "0x", "1__0", "_1", "1_", "١٢",
                 "9223372036854775807", "-9223372036854775808", "0B1", "0XfF", " 0o7 "]
        for s in texts:
            for base in [0, 2, 8, 10, 16, 36, 1, 37]:
                try:
                    want = int(s, base)
                except ValueError:
                    want = ValueError
                if isinstance(want, int) and not -2 ** 63 <= want < 2 ** 63:
                    want = OverflowError
                try:
                    got = rstr.ll_str2int_base(ll(s), base)
                except (ValueError, OverflowError) as e:
                    got = type(e)
                self.assertEqual(got, want, (s, base))


class ByteReprs(unittest.TestCase):
    def test_bytes_and_bytearray_repr(self):
        for s in [b"ab'\x00", b"\"'", b"x\\y\n\t\r", b"", b"'", b"\x7f\x80\xff"]:
            p = malloc(rstr.BYTES, len(s))
            for i, c in enumerate(s):
                p.chars[i] = chr(c)
            self.assertEqual(py(rstr.ll_bytes_repr(p)), repr(s))
            self.assertEqual("bytearray(%s)" % py(rstr.ll_bytearray_repr(p)),
                             repr(bytearray(s)))
            self.assertEqual(py(rstr.ll_bytes_hex(p)), s.hex())


class PaddingAndCase(unittest.TestCase):
    def test_match_cpython(self):
        for s in SAMPLES + ["Title Case", "not Title", "a\tbc\td\n\te", "-42", "+"]:
            self.assertEqual(py(rstr.ll_capitalize(ll(s))), s.capitalize(), s)
            self.assertEqual(py(rstr.ll_swapcase(ll(s))), s.swapcase(), s)
            self.assertEqual(py(rstr.ll_casefold(ll(s))), s.casefold(), s)
            self.assertEqual(rstr.ll_istitle(ll(s)), s.istitle(), s)
            self.assertEqual(rstr.ll_isascii(ll(s)), s.isascii(), s)
            for w in [0, 1, 5, 12, 13]:
                self.assertEqual(py(rstr.ll_pad(ll(s), w, '*', 0)), s.ljust(w, '*'))
                self.assertEqual(py(rstr.ll_pad(ll(s), w, '*', 1)), s.rjust(w, '*'))
                self.assertEqual(py(rstr.ll_pad(ll(s), w, '*', 2)), s.center(w, '*'))
                self.assertEqual(py(rstr.ll_zfill(ll(s), w)), s.zfill(w))
            for t in [0, 1, 4, 8]:
                self.assertEqual(py(rstr.ll_expandtabs(ll(s), t)), s.expandtabs(t))
            for sep in ["l", "a", "ΣΣ", "zz"]:
                for right in [False, True]:
                    got = tuple(py(rstr.ll_partition_part(ll(s), ll(sep), k, right))
                                for k in range(3))
                    self.assertEqual(got, s.rpartition(sep) if right else s.partition(sep))


class BytesCase(unittest.TestCase):
    def test_ascii_only(self):
        for s in [b"\xe9ab\xc9 cD", b"hello wORLD 3x", b"", b"a1b2 C"]:
            p = malloc(rstr.BYTES, len(s))
            for i, c in enumerate(s):
                p.chars[i] = chr(c)
            for k, m in enumerate(["upper", "lower", "capitalize", "swapcase", "title"]):
                got = rstr.ll_bytes_case(p, k)
                got = bytes(ord(got.chars[i]) for i in range(len(got.chars)))
                self.assertEqual(got, getattr(s, m)(), (s, m))
