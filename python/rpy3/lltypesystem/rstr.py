"""Strings at the low level: `rpy_string` structs of Unicode code points,
and the helpers the rtyper calls for string operations.

Every helper declares its low-level argument types in `ll_args`; the
rtyper annotates them with those types before translating a program.
They also run under CPython on emulated objects (see the tests).
"""
from rpy3.lltype import (GcStruct, Array, Ptr, Signed, UniChar, Bool, malloc, typeOf,
                          str_to_float,
                          unichar_upper, unichar_lower, unichar_title, unichar_casefold,
                          unichar_props,
                          float_format_char, Float)
from rpy3.rlib.rarithmetic import ovfcheck, intmask, r_uint, maxint as MAXINT
from rpy3.lltypesystem.rslice import ll_slice_bounds, ll_clamp
import math

STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(UniChar)))
PSTR = Ptr(STR)
# bytes: the same layout, one byte value (0-255) per item; the helpers
# whose result has the kind of their argument serve both
BYTES = GcStruct('rpy_bytes', ('hash', Signed), ('chars', Array(UniChar)))
PBYTES = Ptr(BYTES)


def ll_args(*types):
    def decorate(func):
        func.ll_args = types
        return func
    return decorate


def ll_newstr(n):
    return malloc(STR, n)


@ll_args(PSTR)
def ll_strlen(s):
    return len(s.chars)


@ll_args(PSTR, PSTR)
def ll_str_or(s, default):
    """`s`, or `default` when `s` is None (`os.environ.get(k, default)`)."""
    if s:
        return s
    return default


@ll_args(PSTR)
def ll_str_is_true(s):
    return bool(s) and len(s.chars) != 0


@ll_args(PSTR, Signed)
def ll_stritem(s, i):
    n = len(s.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("string index out of range")
    return s.chars[i]


@ll_args(PSTR)
def ll_str_ord(s):
    """`ord(s)` of a string the annotator cannot prove has one character."""
    if len(s.chars) != 1:
        # (CPython: 'ord() expected a character, but string of length 2 found', made at run time)
        raise TypeError
    return ord(s.chars[0])


@ll_args(Signed, Signed)
def ll_percent_arg_count(n, want):
    """`fmt % t` with a tuple t of a length known at run time only: it
    must have as many items as the format takes."""
    if n < want:
        raise TypeError("not enough arguments for format string")
    if n > want:
        raise TypeError("not all arguments converted during string formatting")


@ll_args(UniChar)
def ll_char2str(c):
    s = malloc(STR, 1)
    s.chars[0] = c
    return s


@ll_args(PSTR, PSTR)
def ll_strconcat(a, b):
    n1 = len(a.chars)
    n2 = len(b.chars)
    r = malloc(typeOf(a).TO, n1 + n2)
    i = 0
    while i < n1:
        r.chars[i] = a.chars[i]
        i += 1
    j = 0
    while j < n2:
        r.chars[n1 + j] = b.chars[j]
        j += 1
    return r


@ll_args(PSTR, PSTR)
def ll_streq(a, b):
    # either may be None (a string that can be None)
    if a == b:
        return True
    if not a or not b:
        return False
    n = len(a.chars)
    if n != len(b.chars):
        return False
    i = 0
    while i < n:
        if a.chars[i] != b.chars[i]:
            return False
        i += 1
    return True


@ll_args(PSTR, PSTR)
def ll_strcmp(a, b):
    n1 = len(a.chars)
    n2 = len(b.chars)
    n = n1 if n1 < n2 else n2
    i = 0
    while i < n:
        c1 = ord(a.chars[i])
        c2 = ord(b.chars[i])
        if c1 != c2:
            return c1 - c2
        i += 1
    return n1 - n2


@ll_args(PSTR, Signed, Signed)
def ll_strslice(s, start, stop):
    start, stop = ll_clamp(start, stop, len(s.chars))
    r = malloc(typeOf(s).TO, stop - start)
    i = start
    while i < stop:
        r.chars[i - start] = s.chars[i]
        i += 1
    return r


@ll_args(PSTR, Signed)
def ll_strmul(s, times):
    n = len(s.chars)
    if times < 0:
        times = 0
    r = malloc(typeOf(s).TO, n * times)
    k = 0
    while k < times:
        i = 0
        while i < n:
            r.chars[k * n + i] = s.chars[i]
            i += 1
        k += 1
    return r


def _start_index(start, n):
    # a start index as str.find() reads it (like a slice's), or -1 past
    # the end: nothing is found there
    if start < 0:
        start += n
        if start < 0:
            start = 0
    elif start > n:
        return -1
    return start


def _end_index(end, n):
    if end < 0:
        end += n
        if end < 0:
            end = 0
    elif end > n:
        end = n
    return end


def _match_at(s, sub, i):
    m = len(sub.chars)
    j = 0
    while j < m:
        if s.chars[i + j] != sub.chars[j]:
            return False
        j += 1
    return True


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_find(s, sub, start, end):
    n = len(s.chars)
    m = len(sub.chars)
    start = _start_index(start, n)
    if start < 0:
        return -1
    end = _end_index(end, n)
    if m == 0:
        if start <= end:
            return start
        return -1
    # candidates are the positions of the first and last characters
    first = sub.chars[0]
    last = sub.chars[m - 1]
    i = start
    while i + m <= end:
        if s.chars[i] == first and s.chars[i + m - 1] == last and _match_at(s, sub, i):
            return i
        i += 1
    return -1


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_rfind(s, sub, start, end):
    n = len(s.chars)
    m = len(sub.chars)
    start = _start_index(start, n)
    if start < 0:
        return -1
    end = _end_index(end, n)
    if m == 0:
        if start <= end:
            return end
        return -1
    first = sub.chars[0]
    last = sub.chars[m - 1]
    i = end - m
    while i >= start:
        if s.chars[i] == first and s.chars[i + m - 1] == last and _match_at(s, sub, i):
            return i
        i -= 1
    return -1


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_index(s, sub, start, end):
    i = ll_find(s, sub, start, end)
    if i < 0:
        raise ValueError("substring not found")
    return i


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_rindex(s, sub, start, end):
    i = ll_rfind(s, sub, start, end)
    if i < 0:
        raise ValueError("substring not found")
    return i


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_count(s, sub, start, end):
    n = len(s.chars)
    m = len(sub.chars)
    start = _start_index(start, n)
    if start < 0:
        return 0
    end = _end_index(end, n)
    if m == 0:
        if end < start:
            return 0
        return end - start + 1
    count = 0
    i = start
    while i + m <= end:
        if _match_at(s, sub, i):
            count += 1
            i += m
        else:
            i += 1
    return count


@ll_args(PSTR, PSTR)
def ll_contains(s, sub):
    return ll_find(s, sub, 0, len(s.chars)) >= 0


@ll_args(PSTR, UniChar)
def ll_contains_char(s, c):
    i = 0
    n = len(s.chars)
    while i < n:
        if s.chars[i] == c:
            return True
        i += 1
    return False


@ll_args(Signed)
def ll_int2str(value):
    if value == 0:
        return ll_char2str('0')
    negative = value < 0
    # digits, least significant first, without overflowing at minint
    digits = malloc(STR, 20)
    n = 0
    v = value
    while v != 0:
        if negative:
            r = v % -10          # in (-10, 0]: v - r is exact, even at minint
            d = -r
            v = (v - r) // 10
        else:
            d = v % 10
            v = v // 10
        digits.chars[n] = chr(48 + d)
        n += 1
    size = n + 1 if negative else n
    r = malloc(STR, size)
    k = 0
    if negative:
        r.chars[0] = '-'
        k = 1
    i = n - 1
    while i >= 0:
        r.chars[k] = digits.chars[i]
        k += 1
        i -= 1
    return r


STRITER = GcStruct('rpy_striter', ('s', PSTR), ('index', Signed))


@ll_args(PSTR)
def ll_striter(s):
    it = malloc(STRITER)
    it.s = s
    it.index = 0
    return it


@ll_args(Ptr(STRITER))
def ll_strnext(it):
    i = it.index
    if i >= len(it.s.chars):
        raise StopIteration
    it.index = i + 1
    return it.s.chars[i]


# the flags of unichar_props (rpy3.lltype.UNICHAR_FLAGS)
ISALPHA = 1
ISDECIMAL = 2
ISDIGIT = 4
ISNUMERIC = 8
ISSPACE = 16
ISLOWER = 32
ISUPPER = 64
ISTITLE = 128
ISPRINTABLE = 256
CASED = 512
CASE_IGNORABLE = 1024


def _is_space(c):
    o = ord(c)
    if o < 128:
        return o == 32 or (9 <= o <= 13) or (0x1c <= o <= 0x1f)
    return unichar_props(c) & ISSPACE != 0


def _is_digit(c):
    # the digits int() and float() read: every Unicode decimal digit
    o = ord(c)
    if o < 128:
        return 48 <= o <= 57
    return unichar_props(c) & ISDECIMAL != 0


def _digit_value(c):
    # the value of a decimal digit: Unicode encodes each set of decimal
    # digits as a run of ten code points, 0 to 9, runs packed back to back
    o = ord(c)
    if o < 128:
        return o - 48
    k = 0
    while unichar_props(chr(o - k - 1)) & ISDECIMAL != 0:
        k += 1
    return k % 10


def _all_have(s, mask):
    # str.isdigit() and co.: not empty, and every character has a flag of mask
    n = len(s.chars)
    if n == 0:
        return False
    i = 0
    while i < n:
        if unichar_props(s.chars[i]) & mask == 0:
            return False
        i += 1
    return True


@ll_args(PSTR)
def ll_isdigit(s):
    return _all_have(s, ISDIGIT)


@ll_args(PSTR)
def ll_isdecimal(s):
    return _all_have(s, ISDECIMAL)


@ll_args(PSTR)
def ll_isnumeric(s):
    return _all_have(s, ISNUMERIC)


@ll_args(PSTR)
def ll_isalpha(s):
    return _all_have(s, ISALPHA)


@ll_args(PSTR)
def ll_isalnum(s):
    return _all_have(s, ISALPHA | ISDECIMAL | ISDIGIT | ISNUMERIC)


@ll_args(PSTR)
def ll_isspace(s):
    return _all_have(s, ISSPACE)


@ll_args(PSTR)
def ll_isprintable(s):
    n = len(s.chars)
    i = 0
    while i < n:
        if unichar_props(s.chars[i]) & ISPRINTABLE == 0:
            return False
        i += 1
    return True


@ll_args(PSTR)
def ll_ascii_escape(s):
    # ascii(): the characters above 0x7f as \\xhh, \\uhhhh or \\Uhhhhhhhh
    n = len(s.chars)
    size = 0
    i = 0
    while i < n:
        size += _ascii_width(ord(s.chars[i]))
        i += 1
    if size == n:
        return s
    r = malloc(typeOf(s).TO, size)
    k = 0
    i = 0
    while i < n:
        o = ord(s.chars[i])
        w = _ascii_width(o)
        if w == 1:
            r.chars[k] = s.chars[i]
        else:
            r.chars[k] = '\\'
            if w == 4:
                r.chars[k + 1] = 'x'
            elif w == 6:
                r.chars[k + 1] = 'u'
            else:
                r.chars[k + 1] = 'U'
            j = w - 1
            while j >= 2:
                r.chars[k + j] = '0123456789abcdef'[o & 15]
                o = o >> 4
                j -= 1
        k += w
        i += 1
    return r


def _ascii_width(o):
    if o < 128:
        return 1
    if o < 0x100:
        return 4
    if o < 0x10000:
        return 6
    return 10


@ll_args(PSTR)
def ll_isidentifier(s):
    # a letter or '_', then letters, digits and '_' (XID_Start and
    # XID_Continue, as far as the character properties tell them)
    n = len(s.chars)
    if n == 0:
        return False
    i = 0
    while i < n:
        c = s.chars[i]
        if ord(c) != 95:
            props = unichar_props(c)
            if i == 0:
                if props & ISALPHA == 0:
                    return False
            elif props & (ISALPHA | ISDECIMAL | ISDIGIT) == 0:
                return False
        i += 1
    return True


def _cased_only(s, mine, others):
    # str.isupper()/str.islower(): some character has flag mine, and none
    # has a flag of others
    cased = False
    n = len(s.chars)
    i = 0
    while i < n:
        f = unichar_props(s.chars[i])
        if f & others != 0:
            return False
        if f & mine != 0:
            cased = True
        i += 1
    return cased


@ll_args(PSTR)
def ll_isupper(s):
    return _cased_only(s, ISUPPER, ISLOWER | ISTITLE)


@ll_args(PSTR)
def ll_islower(s):
    return _cased_only(s, ISLOWER, ISUPPER | ISTITLE)


def _case_map(c, k, upper):
    if upper:
        return unichar_upper(c, k)
    return unichar_lower(c, k)


def _is_cased(c):
    return unichar_props(c) & CASED != 0


def _is_case_ignorable(c):
    return unichar_props(c) & CASE_IGNORABLE != 0


def _final_sigma(s, i):
    # Unicode's Final_Sigma context: a cased letter before (skipping
    # case-ignorables) and none after
    j = i - 1
    while j >= 0 and _is_case_ignorable(s.chars[j]):
        j -= 1
    if j < 0 or not _is_cased(s.chars[j]):
        return False
    n = len(s.chars)
    j = i + 1
    while j < n and _is_case_ignorable(s.chars[j]):
        j += 1
    return j == n or not _is_cased(s.chars[j])


def _case_convert(s, upper):
    # full case mappings, as str.upper() and str.lower(): one character
    # may become several ('ß'.upper() is 'SS')
    n = len(s.chars)
    total = 0
    i = 0
    while i < n:
        c = s.chars[i]
        if ord(c) < 128:
            total += 1
        else:
            k = 0
            while _case_map(c, k, upper) != -1:
                k += 1
            total += k
        i += 1
    r = malloc(STR, total)
    i = 0
    j = 0
    while i < n:
        c = s.chars[i]
        o = ord(c)
        if o < 128:
            if upper and 97 <= o <= 122:
                c = chr(o - 32)
            elif not upper and 65 <= o <= 90:
                c = chr(o + 32)
            r.chars[j] = c
            j += 1
        elif not upper and o == 0x3a3:
            if _final_sigma(s, i):
                r.chars[j] = chr(0x3c2)
            else:
                r.chars[j] = chr(0x3c3)
            j += 1
        else:
            k = 0
            m = _case_map(c, 0, upper)
            while m != -1:
                r.chars[j] = chr(m)
                j += 1
                k += 1
                m = _case_map(c, k, upper)
        i += 1
    return r


@ll_args(PSTR)
def ll_upper(s):
    return _case_convert(s, True)


@ll_args(PSTR)
def ll_lower(s):
    return _case_convert(s, False)


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_startswith(s, prefix, start, end):
    n = len(s.chars)
    start = _start_index(start, n)
    if start < 0:
        return False
    end = _end_index(end, n)
    m = len(prefix.chars)
    if end - start < m:
        return False
    return _match_at(s, prefix, start)


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_endswith(s, suffix, start, end):
    n = len(s.chars)
    start = _start_index(start, n)
    if start < 0:
        return False
    end = _end_index(end, n)
    m = len(suffix.chars)
    if end - start < m:
        return False
    return _match_at(s, suffix, end - m)


def _is_ascii_space(c):
    # the whitespace of bytes: b' \t\n\r\x0b\x0c'
    o = ord(c)
    return o == 32 or 9 <= o <= 13


def _strippable(c, chars, ascii):
    # chars is null for whitespace
    if not chars:
        if ascii:
            return _is_ascii_space(c)
        return _is_space(c)
    k = len(chars.chars)
    j = 0
    while j < k:
        if chars.chars[j] == c:
            return True
        j += 1
    return False


@ll_args(PSTR, PSTR, Bool, Bool)
def ll_strip(s, chars, left, right):
    return _strip(s, chars, left, right, False)


def ll_bytes_strip(s, chars, left, right):
    return _strip(s, chars, left, right, True)


def _strip(s, chars, left, right, ascii):
    n = len(s.chars)
    start = 0
    if left:
        while start < n and _strippable(s.chars[start], chars, ascii):
            start += 1
    stop = n
    if right:
        while stop > start and _strippable(s.chars[stop - 1], chars, ascii):
            stop -= 1
    if start == 0 and stop == n:
        return s
    return ll_strslice(s, start, stop)


@ll_args(PSTR, PSTR, PSTR, Signed)
def ll_replace(s, old, new, count):
    n = len(s.chars)
    m = len(old.chars)
    k = len(new.chars)
    if count < 0:
        count = n + 1
    # the occurrences replaced, non-overlapping from the left
    found = 0
    if m == 0:
        found = n + 1
        if count < found:
            found = count
    else:
        i = 0
        while found < count and i + m <= n:
            if _match_at(s, old, i):
                found += 1
                i += m
            else:
                i += 1
    if found == 0:
        return s
    r = malloc(typeOf(s).TO, n + found * (k - m))
    i = 0
    j = 0
    done = 0
    while i <= n:
        if done < found and (m == 0 or (i + m <= n and _match_at(s, old, i))):
            t = 0
            while t < k:
                r.chars[j] = new.chars[t]
                j += 1
                t += 1
            done += 1
            if m > 0:
                i += m
                continue
        if i == n:
            break
        r.chars[j] = s.chars[i]
        j += 1
        i += 1
    return r


def _ll_text(text):
    """The rpy_string of the constant `text` (in helpers, which work on
    low-level strings)."""
    r = malloc(STR, len(text))
    i = 0
    for c in text:
        r.chars[i] = c
        i += 1
    return r


def _only_spaces_from(s, i):
    n = len(s.chars)
    while i < n and _is_space(s.chars[i]):
        i += 1
    return i == n


@ll_args(PSTR)
def ll_str2int(s):
    # int(s): optional spaces and sign, then decimal digits, single
    # underscores allowed between digits; ValueError otherwise, and
    # OverflowError when the value does not fit a Signed
    n = len(s.chars)
    i = 0
    while i < n and _is_space(s.chars[i]):
        i += 1
    negative = False
    if i < n and (s.chars[i] == '-' or s.chars[i] == '+'):
        negative = s.chars[i] == '-'
        i += 1
    start = i
    value = 0
    while i < n:
        c = s.chars[i]
        if c == '_' and i > start and i + 1 < n and _is_digit(s.chars[i + 1]):
            i += 1
            c = s.chars[i]
        if not _is_digit(c):
            break
        # accumulate negatively: the most negative Signed has no positive twin
        value = ovfcheck(ovfcheck(value * 10) - _digit_value(c))
        i += 1
    if i == start or not _only_spaces_from(s, i):
        raise ValueError(ll_strconcat(_ll_text("invalid literal for int() with base 10: "),
                                      ll_str_repr(s)))
    if not negative:
        value = ovfcheck(-value)
    return value


# --- format(): format specifications of ints, bools and strs ----------------

FMTSPEC = GcStruct('rpy_fmtspec', ('fill', UniChar), ('align', UniChar),
                   ('sign', UniChar), ('zcoerce', Bool), ('alternate', Bool),
                   ('width', Signed), ('grouping', UniChar),
                   ('precision', Signed), ('type', UniChar))

# no sign, grouping or type given
NOCHAR = '\x00'
# widths and precisions stop growing there ("Too many decimal digits")
# (precisions fit the 32 bits float_format_char gives them)
MAX_SPEC_NUMBER = (1 << 31) - 2


def _is_align(c):
    return c == '<' or c == '>' or c == '^' or c == '='


def _parse_spec(spec, default_align):
    # [[fill]align][sign][z][#][0][width][grouping][.precision][type]
    n = len(spec.chars)
    f = malloc(FMTSPEC)
    f.fill = ' '
    f.align = default_align
    f.sign = NOCHAR
    f.zcoerce = False
    f.alternate = False
    f.width = -1
    f.grouping = NOCHAR
    f.precision = -1
    f.type = NOCHAR
    i = 0
    fill_given = False
    align_given = False
    if n >= 2 and _is_align(spec.chars[1]):
        f.fill = spec.chars[0]
        f.align = spec.chars[1]
        fill_given = True
        align_given = True
        i = 2
    elif n >= 1 and _is_align(spec.chars[0]):
        f.align = spec.chars[0]
        align_given = True
        i = 1
    if i < n and (spec.chars[i] == '+' or spec.chars[i] == '-' or spec.chars[i] == ' '):
        f.sign = spec.chars[i]
        i += 1
    if i < n and spec.chars[i] == 'z':
        f.zcoerce = True
        i += 1
    if i < n and spec.chars[i] == '#':
        f.alternate = True
        i += 1
    if not fill_given and i < n and spec.chars[i] == '0':
        f.fill = '0'
        if not align_given and default_align == '>':
            f.align = '='
        i += 1
    start = i
    w = 0
    while i < n and _is_digit(spec.chars[i]):
        w = w * 10 + (ord(spec.chars[i]) - 48)
        if w > MAX_SPEC_NUMBER:
            raise ValueError("Too many decimal digits in format string")
        i += 1
    if i > start:
        f.width = w
    if i < n and (spec.chars[i] == ',' or spec.chars[i] == '_'):
        f.grouping = spec.chars[i]
        i += 1
        if i < n and (spec.chars[i] == ',' or spec.chars[i] == '_'):
            raise ValueError("Cannot specify both ',' and '_'.")
    if i < n and spec.chars[i] == '.':
        i += 1
        start = i
        p = 0
        while i < n and _is_digit(spec.chars[i]):
            p = p * 10 + (ord(spec.chars[i]) - 48)
            if p > MAX_SPEC_NUMBER:
                raise ValueError("Too many decimal digits in format string")
            i += 1
        if i == start:
            raise ValueError("Format specifier missing precision")
        f.precision = p
    if i < n:
        if i + 1 < n:
            # (CPython: "Invalid format specifier '...' for object of type
            # 'int'", made at run time)
            raise ValueError
        f.type = spec.chars[i]
    return f


def _align(f, body, split):
    # body padded to the width with the fill character; '=' pads after
    # the first `split` characters (a number's sign and prefix)
    n = len(body.chars)
    if f.width <= n:
        return body
    pad = f.width - n
    r = malloc(STR, f.width)
    if f.align == '<':
        before = 0
    elif f.align == '^':
        before = pad // 2
    elif f.align == '=':
        before = -1
    else:
        before = pad
    j = 0
    i = 0
    if before < 0:
        while i < split:
            r.chars[j] = body.chars[i]
            j += 1
            i += 1
        before = pad
    k = 0
    while k < before:
        r.chars[j] = f.fill
        j += 1
        k += 1
    while i < n:
        r.chars[j] = body.chars[i]
        j += 1
        i += 1
    while j < f.width:
        r.chars[j] = f.fill
        j += 1
    return r


def _digit_char(d, upper):
    if d < 10:
        return chr(48 + d)
    if upper:
        return chr(55 + d)
    return chr(87 + d)


def _bad_grouping(g, t):
    # CPython's "Cannot specify ',' with 'x'." for the presentation types
    # that refuse a grouping (a separator and type known to be refused)
    if g == ',':
        if t == 'n':
            raise ValueError("Cannot specify ',' with 'n'.")
        if t == 'c':
            raise ValueError("Cannot specify ',' with 'c'.")
        if t == 's':
            raise ValueError("Cannot specify ',' with 's'.")
        if t == 'x':
            raise ValueError("Cannot specify ',' with 'x'.")
        if t == 'X':
            raise ValueError("Cannot specify ',' with 'X'.")
        if t == 'o':
            raise ValueError("Cannot specify ',' with 'o'.")
        if t == 'b':
            raise ValueError("Cannot specify ',' with 'b'.")
    else:
        if t == 'n':
            raise ValueError("Cannot specify '_' with 'n'.")
        if t == 'c':
            raise ValueError("Cannot specify '_' with 'c'.")
        if t == 's':
            raise ValueError("Cannot specify '_' with 's'.")
    raise ValueError


def _check_grouping(g, t):
    # the presentation types that take a grouping (CPython checks this
    # when it parses the specification)
    if g == NOCHAR:
        return
    if (t == NOCHAR or t == 'd' or t == 'e' or t == 'f' or t == 'g' or t == 'E'
            or t == 'G' or t == '%' or t == 'F'):
        return
    if g == '_' and (t == 'x' or t == 'X' or t == 'o' or t == 'b'):
        return
    _bad_grouping(g, t)


def _int_base(f, t):
    """The base of integer presentation `t` (ValueError for a
    presentation of no integer); its digits are upper case for 'X'."""
    _check_grouping(f.grouping, t)
    if f.precision >= 0:
        raise ValueError("Precision not allowed in integer format specifier")
    if f.zcoerce:
        raise ValueError("Negative zero coercion (z) not allowed in integer format specifier")
    if t == NOCHAR or t == 'd' or t == 'n':
        return 10
    if t == 'x' or t == 'X':
        return 16
    if t == 'o':
        return 8
    if t == 'b':
        return 2
    # "Unknown format code 'q' for object of type 'int'"
    raise ValueError


def _int_head(f, negative, base, upper):
    """The sign and the prefix of an integer."""
    h = 0
    if negative or f.sign == '+' or f.sign == ' ':
        h += 1
    if f.alternate and base != 10:
        h += 2
    head = malloc(STR, h)
    h = 0
    if negative:
        head.chars[h] = '-'
        h += 1
    elif f.sign == '+' or f.sign == ' ':
        head.chars[h] = f.sign
        h += 1
    if f.alternate and base != 10:
        head.chars[h] = '0'
        if base == 16:
            head.chars[h + 1] = 'X' if upper else 'x'
        elif base == 8:
            head.chars[h + 1] = 'o'
        else:
            head.chars[h + 1] = 'b'
    return head


def _is_float_type(t):
    return (t == 'e' or t == 'E' or t == 'f' or t == 'F' or t == 'g' or t == 'G'
            or t == '%')


def _reversed_digits(digits, nd):
    intpart = malloc(STR, nd)
    i = 0
    while i < nd:
        intpart.chars[i] = digits.chars[nd - 1 - i]
        i += 1
    return intpart


def _format_int(value, f):
    t = f.type
    if _is_float_type(t):
        # the float presentations format float(value)
        return _format_float(float(value), f)
    if t == 'c':
        _check_grouping(f.grouping, t)
        if f.precision >= 0:
            raise ValueError("Precision not allowed in integer format specifier")
        if f.zcoerce:
            raise ValueError("Negative zero coercion (z) not allowed in integer format specifier")
        if f.sign != NOCHAR:
            raise ValueError("Sign not allowed with integer format specifier 'c'")
        if f.alternate:
            raise ValueError("Alternate form (#) not allowed with integer format specifier 'c'")
        if value < 0 or value > 0x10ffff:
            raise OverflowError("%c arg not in range(0x110000)")
        f.align = '>' if f.align == '=' else f.align
        return _align(f, ll_char2str(chr(value)), 0)
    base = _int_base(f, t)
    upper = t == 'X'
    negative = value < 0
    head = _int_head(f, negative, base, upper)
    h = len(head.chars)
    # the digits, least significant first, without overflowing at minint
    digits = malloc(STR, 64)
    nd = 0
    v = value
    while True:
        r = v % base
        if negative and r != 0:
            r -= base
        # r has the sign of v: v - r is an exact multiple of base
        v = (v - r) // base
        if r < 0:
            r = -r
        digits.chars[nd] = _digit_char(r, upper)
        nd += 1
        if v == 0:
            break
    group = 0
    if f.grouping != NOCHAR:
        group = 3 if base == 10 else 4
    return _finish_number(f, head, h, _reversed_digits(digits, nd), ll_newstr(0), group)


def ll_format_uint(value, spec):
    """format() of an unsigned machine word (`r_uint`): as an int of its
    value, also above the largest signed one."""
    if value <= r_uint(MAXINT):
        return ll_format_int(intmask(value), spec)
    f = _parse_spec(spec, '>')
    t = f.type
    if _is_float_type(t):
        return _format_float(float(value), f)
    if t == 'c':
        raise OverflowError("%c arg not in range(0x110000)")
    base = _int_base(f, t)
    upper = t == 'X'
    head = _int_head(f, False, base, upper)
    h = len(head.chars)
    digits = malloc(STR, 64)
    nd = 0
    v = value
    ub = r_uint(base)
    while v != 0:
        digits.chars[nd] = _digit_char(intmask(v % ub), upper)
        v = v // ub
        nd += 1
    group = 0
    if f.grouping != NOCHAR:
        group = 3 if base == 10 else 4
    return _finish_number(f, head, h, _reversed_digits(digits, nd), ll_newstr(0), group)


def _finish_number(f, head, h, intpart, rest, group):
    # the first h characters of head (sign, prefix), the integer digits
    # grouped by `group` (0: not grouped), then rest; aligned.  With '0'
    # as the fill of '=', the padding is made of digits (grouped too).
    nd = len(intpart.chars)
    nrest = len(rest.chars)
    min_width = 0
    if f.fill == '0' and f.align == '=' and f.width > h + nrest:
        min_width = f.width - h - nrest
    out = malloc(STR, nd + nd + min_width + 1)
    m = 0
    k = 0
    in_group = 0
    while True:
        if k >= nd and m >= min_width:
            break
        if group > 0 and in_group == group:
            out.chars[m] = f.grouping
            m += 1
            in_group = 0
        if k < nd:
            out.chars[m] = intpart.chars[nd - 1 - k]
        else:
            out.chars[m] = '0'
        m += 1
        k += 1
        in_group += 1
    body = malloc(STR, h + m + nrest)
    i = 0
    while i < h:
        body.chars[i] = head.chars[i]
        i += 1
    i = 0
    while i < m:
        body.chars[h + i] = out.chars[m - 1 - i]
        i += 1
    i = 0
    while i < nrest:
        body.chars[h + m + i] = rest.chars[i]
        i += 1
    return _align(f, body, h)


@ll_args(Signed, PSTR)
def ll_format_int(value, spec):
    if len(spec.chars) == 0:
        return ll_int2str(value)
    return _format_int(value, _parse_spec(spec, '>'))


@ll_args(Bool, PSTR)
def ll_format_bool(value, spec):
    # an empty specification formats as str(), any other as the int
    if len(spec.chars) == 0:
        return ll_bool2str(value)
    return _format_int(int(value), _parse_spec(spec, '>'))


@ll_args(Bool)
def ll_bool2str(value):
    if value:
        r = malloc(STR, 4)
        r.chars[0] = 'T'
        r.chars[1] = 'r'
        r.chars[2] = 'u'
        r.chars[3] = 'e'
        return r
    r = malloc(STR, 5)
    r.chars[0] = 'F'
    r.chars[1] = 'a'
    r.chars[2] = 'l'
    r.chars[3] = 's'
    r.chars[4] = 'e'
    return r


@ll_args(PSTR, PSTR)
def ll_format_str(s, spec):
    if len(spec.chars) == 0:
        return s
    f = _parse_spec(spec, '<')
    if f.type == NOCHAR:
        _check_grouping(f.grouping, 's')
    else:
        _check_grouping(f.grouping, f.type)
    if f.type != NOCHAR and f.type != 's':
        # "Unknown format code 'd' for object of type 'str'"
        raise ValueError
    if f.sign == ' ':
        raise ValueError("Space not allowed in string format specifier")
    if f.sign != NOCHAR:
        raise ValueError("Sign not allowed in string format specifier")
    if f.zcoerce:
        raise ValueError("Negative zero coercion (z) not allowed in string format specifier")
    if f.alternate:
        raise ValueError("Alternate form (#) not allowed in string format specifier")
    if f.align == '=':
        raise ValueError("'=' alignment not allowed in string format specifier")
    if 0 <= f.precision < len(s.chars):
        s = ll_strslice(s, 0, f.precision)
    return _align(f, s, 0)


def _escape_width(c, quote):
    # the length of c in a repr() quoted with `quote`
    o = ord(c)
    if c == quote or c == '\\' or c == '\t' or c == '\n' or c == '\r':
        return 2
    if o < 0x20 or o == 0x7f:
        return 4
    if o < 0x7f or unichar_props(c) & ISPRINTABLE != 0:
        return 1
    if o <= 0xff:
        return 4
    if o <= 0xffff:
        return 6
    return 10


def _put_hex(r, j, o, digits):
    k = digits - 1
    while k >= 0:
        r.chars[j + k] = _digit_char(o & 15, False)
        o = o >> 4
        k -= 1


@ll_args(PSTR)
def ll_str_or_none(s):
    # str() of a string that may be None
    if s:
        return s
    r = malloc(STR, 4)
    r.chars[0] = 'N'
    r.chars[1] = 'o'
    r.chars[2] = 'n'
    r.chars[3] = 'e'
    return r


@ll_args(PSTR)
def ll_str_or_empty(s):
    """The text of an exception's arguments ('' when it had none)."""
    if not s:
        return malloc(STR, 0)
    return s


@ll_args(PSTR)
def ll_str_repr_or_none(s):
    # repr() of a string that may be None
    if s:
        return ll_str_repr(s)
    return ll_str_or_none(s)


@ll_args(PSTR)
def ll_str_repr(s):
    n = len(s.chars)
    has_single = False
    has_double = False
    i = 0
    while i < n:
        if s.chars[i] == "'":
            has_single = True
        elif s.chars[i] == '"':
            has_double = True
        i += 1
    quote = "'"
    if has_single and not has_double:
        quote = '"'
    size = 2
    i = 0
    while i < n:
        size += _escape_width(s.chars[i], quote)
        i += 1
    r = malloc(STR, size)
    r.chars[0] = quote
    j = 1
    i = 0
    while i < n:
        c = s.chars[i]
        o = ord(c)
        w = _escape_width(c, quote)
        if w == 1:
            r.chars[j] = c
        elif w == 2:
            r.chars[j] = '\\'
            if c == '\t':
                r.chars[j + 1] = 't'
            elif c == '\n':
                r.chars[j + 1] = 'n'
            elif c == '\r':
                r.chars[j + 1] = 'r'
            else:
                r.chars[j + 1] = c
        else:
            r.chars[j] = '\\'
            if w == 4:
                r.chars[j + 1] = 'x'
            elif w == 6:
                r.chars[j + 1] = 'u'
            else:
                r.chars[j + 1] = 'U'
            _put_hex(r, j + 2, o, w - 2)
        j += w
        i += 1
    r.chars[j] = quote
    return r


# --- floats: repr() and format(), on the float_format_char operation --------

def _float_text(x, spec):
    # the magnitude of x formatted by the packed spec
    n = 0
    while float_format_char(x, spec, n) >= 0:
        n += 1
    r = malloc(STR, n)
    i = 0
    while i < n:
        r.chars[i] = chr(float_format_char(x, spec, i))
        i += 1
    return r


def _float_negative(x):
    return x < 0.0 or (x == 0.0 and math.copysign(1.0, x) < 0.0)


@ll_args(Float)
def ll_float_repr(x):
    text = _float_text(x, ord('r'))
    if not _float_negative(x):
        return text
    return ll_strconcat(ll_char2str('-'), text)


def _format_float(x, f):
    t = f.type
    _check_grouping(f.grouping, t)
    if t == NOCHAR:
        code = 'h' if f.precision >= 0 else 'r'
    elif (t == 'e' or t == 'E' or t == 'f' or t == 'F' or t == 'g' or t == 'G'
          or t == '%'):
        code = t
    elif t == 'n':
        code = 'g'
    else:
        # "Unknown format code 'q' for object of type 'float'"
        raise ValueError
    spec = ord(code)
    if f.precision >= 0:
        spec += (f.precision + 1) << 8
    if f.alternate:
        spec += 1 << 40
    text = _float_text(x, spec)
    negative = _float_negative(x)
    if negative and f.zcoerce and not math.isinf(x):
        # 'z': a negative value that rounds to zero loses its sign
        nonzero = False
        i = 0
        while i < len(text.chars):
            c = text.chars[i]
            if c == 'e' or c == 'E':
                break
            if '1' <= c <= '9':
                nonzero = True
            i += 1
        negative = nonzero
    head = malloc(STR, 1)
    h = 0
    if negative:
        head.chars[0] = '-'
        h = 1
    elif f.sign == '+' or f.sign == ' ':
        head.chars[0] = f.sign
        h = 1
    nd = 0
    while nd < len(text.chars) and _is_digit(text.chars[nd]):
        nd += 1
    group = 0
    if f.grouping != NOCHAR and nd > 0:
        group = 3
    return _finish_number(f, head, h, ll_strslice(text, 0, nd),
                          ll_strslice(text, nd, len(text.chars)), group)


@ll_args(Float, PSTR)
def ll_format_float(x, spec):
    if len(spec.chars) == 0:
        return ll_float_repr(x)
    return _format_float(x, _parse_spec(spec, '>'))


# --- s[start:stop:step] ------------------------------------------------------

@ll_args(PSTR, Signed, Signed, Signed, Signed)
def ll_strslice_step(s, start, stop, step, nones):
    # nones: 1, 2, 4 when start, stop, step are None (as slice.indices())
    start, step, count = ll_slice_bounds(len(s.chars), start, stop, step,
                                         nones)
    r = malloc(typeOf(s).TO, count)
    i = 0
    j = start
    while i < count:
        r.chars[i] = s.chars[j]
        i += 1
        j += step
    return r


# --- rpy3.rlib.rstring.StringBuilder ------------------------------------------

STRBUILDER = GcStruct('rpy_stringbuilder', ('buf', PSTR), ('used', Signed))


@ll_args(Signed)
def ll_sb_new(hint):
    if hint < 16:
        hint = 16
    sb = malloc(STRBUILDER)
    sb.buf = malloc(STR, hint)
    sb.used = 0
    return sb


def _sb_reserve(sb, extra):
    # room for `extra` more characters, growing the buffer geometrically
    need = sb.used + extra
    size = len(sb.buf.chars)
    if need <= size:
        return
    while size < need:
        size = size * 2 + 16
    new = malloc(typeOf(sb.buf).TO, size)
    i = 0
    while i < sb.used:
        new.chars[i] = sb.buf.chars[i]
        i += 1
    sb.buf = new


# rpy3.rlib.rstring.BytesBuilder: the same helpers, on bytes
BYTESBUILDER = GcStruct('rpy_bytesbuilder', ('buf', PBYTES), ('used', Signed))


def ll_bb_new(hint):
    if hint < 16:
        hint = 16
    sb = malloc(BYTESBUILDER)
    sb.buf = malloc(BYTES, hint)
    sb.used = 0
    return sb


@ll_args(Ptr(STRBUILDER), PSTR)
def ll_sb_append(sb, s):
    n = len(s.chars)
    _sb_reserve(sb, n)
    i = 0
    while i < n:
        sb.buf.chars[sb.used + i] = s.chars[i]
        i += 1
    sb.used += n


@ll_args(Ptr(STRBUILDER), UniChar)
def ll_sb_append_char(sb, c):
    _sb_reserve(sb, 1)
    sb.buf.chars[sb.used] = c
    sb.used += 1


@ll_args(Ptr(STRBUILDER), PSTR, Signed, Signed)
def ll_sb_append_slice(sb, s, start, stop):
    # s[start:stop], with 0 <= start <= stop <= len(s) (ValueError otherwise,
    # as rpy3.rlib.rstring checks)
    if start < 0 or stop < start or stop > len(s.chars):
        raise ValueError
    _sb_reserve(sb, stop - start)
    i = start
    while i < stop:
        sb.buf.chars[sb.used] = s.chars[i]
        sb.used += 1
        i += 1


@ll_args(Ptr(STRBUILDER), UniChar, Signed)
def ll_sb_append_multiple_char(sb, c, times):
    if times <= 0:
        return
    _sb_reserve(sb, times)
    i = 0
    while i < times:
        sb.buf.chars[sb.used] = c
        sb.used += 1
        i += 1


@ll_args(Ptr(STRBUILDER))
def ll_sb_getlength(sb):
    return sb.used


@ll_args(Ptr(STRBUILDER))
def ll_sb_build(sb):
    return ll_strslice(sb.buf, 0, sb.used)


# --- bytes ----------------------------------------------------------------------

def ll_bytes_item(b, i):
    """b[i]: an int."""
    n = len(b.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("index out of range")
    return ord(b.chars[i])


def ll_bytes_contains_int(b, x):
    if x < 0 or x > 255:
        raise ValueError("byte must be in range(0, 256)")
    return ll_contains_char(b, chr(x))


def ll_decode_utf8(b):
    """b.decode('utf-8'), strict: UnicodeDecodeError on bad input."""
    n = len(b.chars)
    r = malloc(STR, n)
    i = 0
    k = 0
    while i < n:
        c = ord(b.chars[i])
        if c < 0x80:
            r.chars[k] = b.chars[i]
            i += 1
            k += 1
            continue
        if 0xC2 <= c <= 0xDF:
            need = 1
            cp = c & 0x1F
            lo = 0x80
        elif 0xE0 <= c <= 0xEF:
            need = 2
            cp = c & 0x0F
            lo = 0x800
        elif 0xF0 <= c <= 0xF4:
            need = 3
            cp = c & 0x07
            lo = 0x10000
        else:
            raise UnicodeDecodeError("utf-8", b"", i, i + 1, "invalid start byte")
        if i + need >= n:
            raise UnicodeDecodeError("utf-8", b"", i, n, "unexpected end of data")
        j = 1
        while j <= need:
            d = ord(b.chars[i + j])
            if d & 0xC0 != 0x80:
                raise UnicodeDecodeError("utf-8", b"", i, i + j, "invalid continuation byte")
            cp = (cp << 6) | (d & 0x3F)
            j += 1
        if cp < lo or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            raise UnicodeDecodeError("utf-8", b"", i, i + 1, "invalid continuation byte")
        r.chars[k] = chr(cp)
        k += 1
        i += need + 1
    return ll_strslice(r, 0, k)


@ll_args(PSTR, Signed)
def ll_encode_8bit(s, limit):
    """s.encode('latin-1') (limit 256) or s.encode('ascii') (limit 128)."""
    n = len(s.chars)
    r = malloc(BYTES, n)
    i = 0
    while i < n:
        if ord(s.chars[i]) >= limit:
            if limit == 128:
                raise UnicodeEncodeError("ascii", "", i, i + 1, "ordinal not in range(128)")
            raise UnicodeEncodeError("latin-1", "", i, i + 1, "ordinal not in range(256)")
        r.chars[i] = s.chars[i]
        i += 1
    return r


@ll_args(PSTR, Signed)
def ll_decode_8bit(b, limit):
    """b.decode('latin-1') (limit 256) or b.decode('ascii') (limit 128)."""
    n = len(b.chars)
    r = malloc(STR, n)
    i = 0
    while i < n:
        if ord(b.chars[i]) >= limit:
            raise UnicodeDecodeError("ascii", b"", i, i + 1, "ordinal not in range(128)")
        r.chars[i] = b.chars[i]
        i += 1
    return r


def ll_encode_utf8(s):
    """s.encode('utf-8') (lone surrogates raise UnicodeEncodeError)."""
    n = len(s.chars)
    size = 0
    i = 0
    while i < n:
        c = ord(s.chars[i])
        if c < 0x80:
            size += 1
        elif c < 0x800:
            size += 2
        elif c < 0x10000:
            if 0xD800 <= c <= 0xDFFF:
                raise UnicodeEncodeError("utf-8", "", i, i + 1, "surrogates not allowed")
            size += 3
        else:
            size += 4
        i += 1
    r = malloc(BYTES, size)
    i = 0
    k = 0
    while i < n:
        c = ord(s.chars[i])
        if c < 0x80:
            r.chars[k] = chr(c)
            k += 1
        elif c < 0x800:
            r.chars[k] = chr(0xC0 | (c >> 6))
            r.chars[k + 1] = chr(0x80 | (c & 0x3F))
            k += 2
        elif c < 0x10000:
            r.chars[k] = chr(0xE0 | (c >> 12))
            r.chars[k + 1] = chr(0x80 | ((c >> 6) & 0x3F))
            r.chars[k + 2] = chr(0x80 | (c & 0x3F))
            k += 3
        else:
            r.chars[k] = chr(0xF0 | (c >> 18))
            r.chars[k + 1] = chr(0x80 | ((c >> 12) & 0x3F))
            r.chars[k + 2] = chr(0x80 | ((c >> 6) & 0x3F))
            r.chars[k + 3] = chr(0x80 | (c & 0x3F))
            k += 4
        i += 1
    return r


def ll_bytes_repr(b):
    """repr(b): b'...' with the escapes CPython uses."""
    if not b:
        # (a value that may be None)
        return _none_str()
    return _bytes_repr(b, False)


def ll_bytearray_repr(b):
    """The b'...' part of repr(bytearray(b)): a single quote is escaped
    even between double quotes."""
    return _bytes_repr(b, True)


def _bytes_repr(b, always_escape_single):
    n = len(b.chars)
    quote = "'"
    if ll_contains_char(b, "'") and not ll_contains_char(b, '"'):
        quote = '"'
    size = 3
    i = 0
    while i < n:
        c = ord(b.chars[i])
        if (c == ord(quote) or c == 92 or c == 9 or c == 10 or c == 13 or
                (always_escape_single and c == 39)):
            size += 2
        elif c < 32 or c >= 127:
            size += 4
        else:
            size += 1
        i += 1
    r = malloc(STR, size)
    r.chars[0] = 'b'
    r.chars[1] = quote
    k = 2
    i = 0
    while i < n:
        ch = b.chars[i]
        c = ord(ch)
        if c == ord(quote) or c == 92 or (always_escape_single and c == 39):
            r.chars[k] = '\\'
            r.chars[k + 1] = ch
            k += 2
        elif c == 9 or c == 10 or c == 13:
            r.chars[k] = '\\'
            if c == 9:
                r.chars[k + 1] = 't'
            elif c == 10:
                r.chars[k + 1] = 'n'
            else:
                r.chars[k + 1] = 'r'
            k += 2
        elif c < 32 or c >= 127:
            r.chars[k] = '\\'
            r.chars[k + 1] = 'x'
            r.chars[k + 2] = _hex_digit(c >> 4)
            r.chars[k + 3] = _hex_digit(c & 15)
            k += 4
        else:
            r.chars[k] = ch
            k += 1
        i += 1
    r.chars[k] = quote
    return r


def _hex_digit(d):
    if d < 10:
        return chr(48 + d)
    return chr(87 + d)


def _not_a_float(s):
    return ll_strconcat(_ll_text("could not convert string to float: "), ll_str_repr(s))


@ll_args(PSTR)
def ll_str2float(s):
    """float(s): surrounding whitespace and underscores between digits
    are dropped, then the text must be a decimal number, inf or nan."""
    n = len(s.chars)
    start = 0
    while start < n and _is_space(s.chars[start]):
        start += 1
    stop = n
    while stop > start and _is_space(s.chars[stop - 1]):
        stop -= 1
    r = malloc(STR, stop - start)
    k = 0
    i = start
    while i < stop:
        c = s.chars[i]
        if c == '_':
            # only between two digits
            if (i == start or i + 1 >= stop or not _is_digit(s.chars[i - 1])
                    or not _is_digit(s.chars[i + 1])):
                raise ValueError(_not_a_float(s))
        else:
            if ord(c) >= 128:
                if not _is_digit(c):
                    raise ValueError(_not_a_float(s))
                c = chr(48 + _digit_value(c))
            r.chars[k] = c
            k += 1
        i += 1
    try:
        return str_to_float(ll_strslice(r, 0, k))
    except ValueError:
        raise ValueError(_not_a_float(s))


# --- int(s, base), unsigned ints, str of a string that may be None ---------

def _base_digit(c):
    # the value of a digit in any base up to 36 (99: not a digit)
    o = ord(c)
    if 48 <= o <= 57:
        return o - 48
    if 97 <= o <= 122:
        return o - 87
    if 65 <= o <= 90:
        return o - 55
    if o >= 128 and unichar_props(c) & ISDECIMAL != 0:
        return _digit_value(c)
    return 99


@ll_args(PSTR, Signed)
def ll_str2int_base(s, base):
    # int(s, base): a base of 0 reads the prefix (0x, 0o, 0b) and refuses
    # leading zeros; a prefix matching the base may be given; single
    # underscores may follow a prefix or a digit
    if base != 0 and (base < 2 or base > 36):
        raise ValueError("int() base must be >= 2 and <= 36, or 0")
    n = len(s.chars)
    i = 0
    while i < n and _is_space(s.chars[i]):
        i += 1
    while n > i and _is_space(s.chars[n - 1]):
        n -= 1
    negative = False
    if i < n and (s.chars[i] == '-' or s.chars[i] == '+'):
        negative = s.chars[i] == '-'
        i += 1
    underscore_ok = False
    if i + 1 < n and s.chars[i] == '0':
        c = s.chars[i + 1]
        prefix_base = 0
        if c == 'x' or c == 'X':
            prefix_base = 16
        elif c == 'o' or c == 'O':
            prefix_base = 8
        elif c == 'b' or c == 'B':
            prefix_base = 2
        if prefix_base != 0 and (base == 0 or base == prefix_base):
            base = prefix_base
            i += 2
            underscore_ok = True
    zeros_only = False
    if base == 0:
        zeros_only = i < n and s.chars[i] == '0'
        base = 10
    value = 0
    ndigits = 0
    while i < n:
        c = s.chars[i]
        if c == '_':
            if not underscore_ok or i + 1 >= n:
                # (CPython: "invalid literal for int() with base 16: 'x'", made at run time)
                raise ValueError
            underscore_ok = False
            i += 1
            c = s.chars[i]
        d = _base_digit(c)
        if d >= base or (zeros_only and d != 0):
            # (CPython: "invalid literal for int() with base 16: 'x'", made at run time)
            raise ValueError
        # accumulate negatively: the most negative Signed has no positive twin
        value = ovfcheck(ovfcheck(value * base) - d)
        ndigits += 1
        underscore_ok = True
        i += 1
    if ndigits == 0:
        # (CPython: "invalid literal for int() with base 16: 'x'", made at run time)
        raise ValueError
    if not negative:
        value = ovfcheck(-value)
    return value


def ll_uint2str(value):
    """str() of an unsigned machine word."""
    if value == 0:
        return ll_char2str('0')
    digits = malloc(STR, 20)
    n = 0
    v = value
    while v != 0:
        digits.chars[n] = chr(48 + intmask(v % 10))
        v = v // 10
        n += 1
    r = malloc(STR, n)
    i = 0
    while i < n:
        r.chars[i] = digits.chars[n - 1 - i]
        i += 1
    return r


@ll_args(PSTR)
def ll_str_or_none(s):
    """str() of a string that may be None."""
    if not s:
        return _none_str()
    return s


@ll_args(PSTR)
def ll_str_repr_or_none(s):
    """repr() of a string that may be None."""
    if not s:
        return _none_str()
    return ll_str_repr(s)


def _none_str():
    r = malloc(STR, 4)
    r.chars[0] = 'N'
    r.chars[1] = 'o'
    r.chars[2] = 'n'
    r.chars[3] = 'e'
    return r


# --- more methods ----------------------------------------------------------

@ll_args(PSTR, PSTR)
def ll_removeprefix(s, prefix):
    n = len(s.chars)
    m = len(prefix.chars)
    if m > 0 and m <= n and _match_at(s, prefix, 0):
        return ll_strslice(s, m, n)
    return s


@ll_args(PSTR, PSTR)
def ll_removesuffix(s, suffix):
    n = len(s.chars)
    m = len(suffix.chars)
    if m > 0 and m <= n and _match_at(s, suffix, n - m):
        return ll_strslice(s, 0, n - m)
    return s


def ll_bytes_hex(b):
    """b.hex(): two lowercase hex digits a byte."""
    n = len(b.chars)
    r = malloc(STR, 2 * n)
    i = 0
    while i < n:
        o = ord(b.chars[i])
        r.chars[2 * i] = _digit_char(o >> 4, False)
        r.chars[2 * i + 1] = _digit_char(o & 15, False)
        i += 1
    return r


def _hex_value(c):
    o = ord(c)
    if 48 <= o <= 57:
        return o - 48
    if 97 <= o <= 102:
        return o - 87
    if 65 <= o <= 70:
        return o - 55
    return -1


@ll_args(PSTR)
def ll_bytes_fromhex(s):
    """bytes.fromhex(s): two hex digits a byte, whitespace between bytes
    skipped, ValueError at the first other character (CPython's message)."""
    n = len(s.chars)
    r = malloc(BYTES, n // 2)
    k = 0
    i = 0
    while True:
        while i < n and (s.chars[i] == ' ' or s.chars[i] == '\t' or s.chars[i] == '\n'
                         or s.chars[i] == '\r' or s.chars[i] == '\x0b' or s.chars[i] == '\x0c'):
            i += 1
        if i >= n:
            break
        hi = _hex_value(s.chars[i])
        if hi < 0:
            raise ValueError("non-hexadecimal number found in fromhex() arg at position %d" % i)
        if i + 1 >= n:
            raise ValueError("non-hexadecimal number found in fromhex() arg at position %d" % (i + 1))
        lo = _hex_value(s.chars[i + 1])
        if lo < 0:
            raise ValueError("non-hexadecimal number found in fromhex() arg at position %d" % (i + 1))
        r.chars[k] = chr(hi * 16 + lo)
        k += 1
        i += 2
    return ll_strslice(r, 0, k)


def ll_bytes_hex_sep(b, sep):
    """b.hex(sep): two lowercase hex digits a byte, `sep` (one
    character) between the bytes."""
    if len(sep.chars) != 1:
        raise ValueError("sep must be length 1.")
    n = len(b.chars)
    if n == 0:
        return malloc(STR, 0)
    r = malloc(STR, 3 * n - 1)
    i = 0
    while i < n:
        o = ord(b.chars[i])
        if i > 0:
            r.chars[3 * i - 1] = sep.chars[0]
        r.chars[3 * i] = _digit_char(o >> 4, False)
        r.chars[3 * i + 1] = _digit_char(o & 15, False)
        i += 1
    return r


def _is_cased_char(c):
    o = ord(c)
    if o < 128:
        return (65 <= o <= 90) or (97 <= o <= 122)
    return _is_cased(c)


@ll_args(PSTR)
def ll_title(s):
    # the first cased character of each run of cased characters takes
    # its title case, the others their lower case (full mappings)
    n = len(s.chars)
    total = 0
    previous_is_cased = False
    i = 0
    while i < n:
        c = s.chars[i]
        total += _title_width(s, i, previous_is_cased)
        previous_is_cased = _is_cased_char(c)
        i += 1
    r = malloc(STR, total)
    j = 0
    previous_is_cased = False
    i = 0
    while i < n:
        c = s.chars[i]
        o = ord(c)
        if o < 128:
            if previous_is_cased and 65 <= o <= 90:
                c = chr(o + 32)
            elif not previous_is_cased and 97 <= o <= 122:
                c = chr(o - 32)
            r.chars[j] = c
            j += 1
        elif previous_is_cased and o == 0x3a3:
            if _final_sigma(s, i):
                r.chars[j] = chr(0x3c2)
            else:
                r.chars[j] = chr(0x3c3)
            j += 1
        else:
            k = 0
            m = _title_map(c, 0, previous_is_cased)
            while m != -1:
                r.chars[j] = chr(m)
                j += 1
                k += 1
                m = _title_map(c, k, previous_is_cased)
        previous_is_cased = _is_cased_char(s.chars[i])
        i += 1
    return r


def _title_width(s, i, previous_is_cased):
    c = s.chars[i]
    if ord(c) < 128:
        return 1
    k = 0
    while _title_map(c, k, previous_is_cased) != -1:
        k += 1
    return k


def _title_map(c, k, previous_is_cased):
    if previous_is_cased:
        return unichar_lower(c, k)
    return unichar_title(c, k)


# --- padding, case and the other methods -------------------------------------

@ll_args(PSTR, Signed, UniChar, Signed)
def ll_pad(s, width, fill, where):
    """s.ljust(width, fill) (where 0), rjust (1), center (2)."""
    n = len(s.chars)
    if width <= n:
        return s
    marg = width - n
    if where == 0:
        left = 0
    elif where == 1:
        left = marg
    else:
        left = marg // 2 + (marg & width & 1)
    r = malloc(typeOf(s).TO, width)
    i = 0
    while i < width:
        r.chars[i] = fill
        i += 1
    i = 0
    while i < n:
        r.chars[left + i] = s.chars[i]
        i += 1
    return r


@ll_args(PSTR, Signed)
def ll_zfill(s, width):
    n = len(s.chars)
    if width <= n:
        return s
    fill = width - n
    r = malloc(typeOf(s).TO, width)
    i = 0
    while i < fill:
        r.chars[i] = '0'
        i += 1
    i = 0
    while i < n:
        r.chars[fill + i] = s.chars[i]
        i += 1
    if n > 0 and (s.chars[0] == '+' or s.chars[0] == '-'):
        r.chars[0] = s.chars[0]
        r.chars[fill] = '0'
    return r


def _mapped_width(c, mode):
    k = 0
    while _map_char(c, k, mode) != -1:
        k += 1
    return k


def _map_char(c, k, mode):
    # 0: lower, 1: upper, 2: title, 3: casefold, 4: unchanged
    if mode == 0:
        return unichar_lower(c, k)
    if mode == 1:
        return unichar_upper(c, k)
    if mode == 2:
        return unichar_title(c, k)
    if mode == 3:
        return unichar_casefold(c, k)
    if k == 0:
        return ord(c)
    return -1


def _case_mode(s, i, method):
    # the mapping of character i: capitalize (0), swapcase (1), casefold (2)
    c = s.chars[i]
    if method == 0:
        if i == 0:
            return 2
        return 0
    if method == 1:
        p = unichar_props(c)
        if p & ISUPPER != 0:
            return 0
        if p & ISLOWER != 0:
            return 1
        return 4
    return 3


def _case_method(s, method):
    n = len(s.chars)
    total = 0
    i = 0
    while i < n:
        total += _mapped_width(s.chars[i], _case_mode(s, i, method))
        i += 1
    r = malloc(STR, total)
    j = 0
    i = 0
    while i < n:
        c = s.chars[i]
        mode = _case_mode(s, i, method)
        if mode == 0 and ord(c) == 0x3a3:
            # a capital sigma lowers to a final sigma at the end of a word
            if _final_sigma(s, i):
                r.chars[j] = chr(0x3c2)
            else:
                r.chars[j] = chr(0x3c3)
            j += 1
        else:
            k = 0
            m = _map_char(c, 0, mode)
            while m != -1:
                r.chars[j] = chr(m)
                j += 1
                k += 1
                m = _map_char(c, k, mode)
        i += 1
    return r


@ll_args(PSTR)
def ll_capitalize(s):
    return _case_method(s, 0)


@ll_args(PSTR)
def ll_swapcase(s):
    return _case_method(s, 1)


@ll_args(PSTR)
def ll_casefold(s):
    return _case_method(s, 2)


@ll_args(PSTR)
def ll_istitle(s):
    n = len(s.chars)
    cased = False
    previous_is_cased = False
    i = 0
    while i < n:
        p = unichar_props(s.chars[i])
        if p & (ISUPPER | ISTITLE) != 0:
            if previous_is_cased:
                return False
            previous_is_cased = True
            cased = True
        elif p & ISLOWER != 0:
            if not previous_is_cased:
                return False
            previous_is_cased = True
            cased = True
        else:
            previous_is_cased = False
        i += 1
    return cased


@ll_args(PSTR)
def ll_isascii(s):
    n = len(s.chars)
    i = 0
    while i < n:
        if ord(s.chars[i]) >= 128:
            return False
        i += 1
    return True


@ll_args(PSTR, PSTR, Signed, Bool)
def ll_partition_part(s, sep, k, right):
    """Part k (0, 1, 2) of s.partition(sep) (s.rpartition(sep) when
    right); ValueError for an empty separator."""
    n = len(s.chars)
    m = len(sep.chars)
    if m == 0:
        raise ValueError("empty separator")
    if right:
        i = ll_rfind(s, sep, 0, n)
    else:
        i = ll_find(s, sep, 0, n)
    if i < 0:
        # not found: the string is the first part (the last, from the right)
        if (k == 0 and not right) or (k == 2 and right):
            return s
        return ll_strslice(s, 0, 0)
    if k == 0:
        return ll_strslice(s, 0, i)
    if k == 1:
        return ll_strslice(s, i, i + m)
    return ll_strslice(s, i + m, n)


@ll_args(PSTR, Signed)
def ll_expandtabs(s, tabsize):
    n = len(s.chars)
    total = 0
    col = 0
    i = 0
    while i < n:
        c = s.chars[i]
        if c == '\t':
            if tabsize > 0:
                w = tabsize - col % tabsize
                total += w
                col += w
        else:
            total += 1
            col += 1
            if c == '\n' or c == '\r':
                col = 0
        i += 1
    r = malloc(typeOf(s).TO, total)
    j = 0
    col = 0
    i = 0
    while i < n:
        c = s.chars[i]
        if c == '\t':
            if tabsize > 0:
                w = tabsize - col % tabsize
                col += w
                while w > 0:
                    r.chars[j] = ' '
                    j += 1
                    w -= 1
        else:
            r.chars[j] = c
            j += 1
            col += 1
            if c == '\n' or c == '\r':
                col = 0
        i += 1
    return r


def _ascii_upper(o):
    if 97 <= o <= 122:
        return o - 32
    return o


def _ascii_lower(o):
    if 65 <= o <= 90:
        return o + 32
    return o


def ll_bytes_case(b, method):
    """The case methods of bytes (ASCII letters only): upper (0), lower
    (1), capitalize (2), swapcase (3), title (4)."""
    n = len(b.chars)
    r = malloc(typeOf(b).TO, n)
    previous_is_cased = False
    i = 0
    while i < n:
        o = ord(b.chars[i])
        is_upper = 65 <= o <= 90
        is_lower = 97 <= o <= 122
        if method == 0:
            o = _ascii_upper(o)
        elif method == 1:
            o = _ascii_lower(o)
        elif method == 2:
            if i == 0:
                o = _ascii_upper(o)
            else:
                o = _ascii_lower(o)
        elif method == 3:
            if is_upper:
                o = o + 32
            elif is_lower:
                o = o - 32
        else:
            if previous_is_cased:
                o = _ascii_lower(o)
            else:
                o = _ascii_upper(o)
            previous_is_cased = is_upper or is_lower
        r.chars[i] = chr(o)
        i += 1
    return r


def ll_bytes_fill_char(b, i):
    """The fill of `bytes.ljust(n, fill)` (`i` is 0): its one byte
    (TypeError for another length, as CPython)."""
    if len(b.chars) != 1:
        raise TypeError("ljust() argument 2 must be a byte string of length 1")
    return b.chars[i]


@ll_args(PSTR, Signed, PSTR)
def ll_star_spec(before, width, after):
    """The format specification of a `%*d` directive: `before` (its
    alignment and flags), the width taken from the values, `after`; a
    negative width left-justifies, as in CPython."""
    n = len(before.chars)
    start = 0
    lead = 0
    if width < 0:
        width = -width
        # the alignment ('<', '>' or '0=') becomes '<'
        lead = 1
        if n >= 2 and before.chars[0] == '0' and before.chars[1] == '=':
            start = 2
        elif n >= 1:
            start = 1
    digits = ll_int2str(width)
    nd = len(digits.chars)
    na = len(after.chars)
    r = malloc(typeOf(before).TO, lead + (n - start) + nd + na)
    k = 0
    if lead:
        r.chars[0] = '<'
        k = 1
    i = start
    while i < n:
        r.chars[k] = before.chars[i]
        k += 1
        i += 1
    i = 0
    while i < nd:
        r.chars[k] = digits.chars[i]
        k += 1
        i += 1
    i = 0
    while i < na:
        r.chars[k] = after.chars[i]
        k += 1
        i += 1
    return r


@ll_args(PSTR, PSTR, PSTR)
def ll_exception_repr(name, static_name, args):
    """repr(e): the name of the exception's class (`static_name` when not
    kept), its arguments' reprs in parentheses."""
    if not name:
        name = static_name
    nn = len(name.chars)
    na = 0
    if args:
        na = len(args.chars)
    r = malloc(typeOf(static_name).TO, nn + na + 2)
    i = 0
    while i < nn:
        r.chars[i] = name.chars[i]
        i += 1
    r.chars[nn] = '('
    i = 0
    while i < na:
        r.chars[nn + 1 + i] = args.chars[i]
        i += 1
    r.chars[nn + 1 + na] = ')'
    return r


@ll_args(PSTR, Signed, Signed)
def ll_int_precision(s, prec, zero_width):
    """The text of an int formatted by `%.Nd` (`%.Nx`...): its digits
    padded with zeros to `prec`, after its sign and its `0x`/`0o`, and to
    `zero_width` in all (the `0` flag with a width)."""
    n = len(s.chars)
    i = 0
    if i < n and (s.chars[i] == '-' or s.chars[i] == '+' or s.chars[i] == ' '):
        i += 1
    if (i + 1 < n and s.chars[i] == '0'
            and (s.chars[i + 1] == 'x' or s.chars[i + 1] == 'X' or s.chars[i + 1] == 'o')):
        i += 2
    digits = n - i
    zeros = prec - digits
    if zero_width - n > zeros:
        zeros = zero_width - n
    if zeros <= 0:
        return s
    r = malloc(typeOf(s).TO, n + zeros)
    k = 0
    while k < i:
        r.chars[k] = s.chars[k]
        k += 1
    z = 0
    while z < zeros:
        r.chars[i + z] = '0'
        z += 1
    k = i
    while k < n:
        r.chars[k + zeros] = s.chars[k]
        k += 1
    return r
