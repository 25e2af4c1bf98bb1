"""Strings at the low level: `rpy_string` structs of Unicode code points,
and the helpers the rtyper calls for string operations.

Every helper declares its low-level argument types in `ll_args`; the
rtyper annotates them with those types before translating a program.
They also run under CPython on emulated objects (see the tests).
"""
from rpy3.lltype import GcStruct, Array, Ptr, Signed, UniChar, Bool, malloc

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


@ll_args(PSTR, PSTR)
def ll_find(s, sub):
    n = len(s.chars)
    m = len(sub.chars)
    i = 0
    while i + m <= n:
        j = 0
        while j < m and s.chars[i + j] == sub.chars[j]:
            j += 1
        if j == m:
            return i
        i += 1
    return -1


@ll_args(PSTR, PSTR)
def ll_contains(s, sub):
    return ll_find(s, sub) >= 0


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
