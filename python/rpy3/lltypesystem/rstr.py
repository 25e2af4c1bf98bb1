"""Strings at the low level: `rpy_string` structs of Unicode code points,
and the helpers the rtyper calls for string operations.

Every helper declares its low-level argument types in `ll_args`; the
rtyper annotates them with those types before translating a program.
They also run under CPython on emulated objects (see the tests).
"""
from rpy3.lltype import (GcStruct, Array, Ptr, Signed, UniChar, Bool, malloc,
                          unichar_upper, unichar_lower, unichar_props)
from rpy3.rlib.rarithmetic import ovfcheck

STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(UniChar)))
PSTR = Ptr(STR)


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


@ll_args(PSTR)
def ll_str_is_true(s):
    return bool(s) and len(s.chars) != 0


@ll_args(PSTR, Signed)
def ll_stritem(s, i):
    n = len(s.chars)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError
    return s.chars[i]


@ll_args(UniChar)
def ll_char2str(c):
    s = malloc(STR, 1)
    s.chars[0] = c
    return s


@ll_args(PSTR, PSTR)
def ll_strconcat(a, b):
    n1 = len(a.chars)
    n2 = len(b.chars)
    r = malloc(STR, n1 + n2)
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
    n = len(s.chars)
    if start < 0:
        start += n
        if start < 0:
            start = 0
    if start > n:
        start = n
    if stop < 0:
        stop += n
        if stop < 0:
            stop = 0
    if stop > n:
        stop = n
    if stop < start:
        stop = start
    r = malloc(STR, stop - start)
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
    r = malloc(STR, n * times)
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
    i = start
    while i + m <= end:
        if _match_at(s, sub, i):
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
    i = end - m
    while i >= start:
        if _match_at(s, sub, i):
            return i
        i -= 1
    return -1


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_index(s, sub, start, end):
    i = ll_find(s, sub, start, end)
    if i < 0:
        raise ValueError
    return i


@ll_args(PSTR, PSTR, Signed, Signed)
def ll_rindex(s, sub, start, end):
    i = ll_rfind(s, sub, start, end)
    if i < 0:
        raise ValueError
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
    # the ASCII digits int() reads
    o = ord(c)
    return 48 <= o <= 57


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


def _strippable(c, chars):
    # chars is null for whitespace
    if not chars:
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
    n = len(s.chars)
    start = 0
    if left:
        while start < n and _strippable(s.chars[start], chars):
            start += 1
    stop = n
    if right:
        while stop > start and _strippable(s.chars[stop - 1], chars):
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
    r = malloc(STR, n + found * (k - m))
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
        value = ovfcheck(ovfcheck(value * 10) - (ord(c) - 48))
        i += 1
    if i == start:
        raise ValueError
    while i < n and _is_space(s.chars[i]):
        i += 1
    if i != n:
        raise ValueError
    if not negative:
        value = ovfcheck(-value)
    return value
