"""Low-level helpers reached first with narrower arguments: `strip()` calls
the string-slicing helper with indices known to be non-negative, a slice
`t[-2:]` calls it with a negative start.  The helper must be annotated for
both (it was not: the negative start was clamped as if it were positive,
and the slice raised IndexError)."""


def strip_then_tail(s, t):
    return s.strip() + "|" + t[-2:]


def tail_then_strip(s, t):
    return t[-3:-1] + "|" + s.lstrip() + "|" + s.rstrip()


def reversed_and_tail(s):
    return (s[::-1], s[-2:], s.strip())


CASES = [
    (strip_then_tail, ["  hi ", "abcdef"]),
    (strip_then_tail, ["x", ""]),
    (tail_then_strip, ["  a b  ", "wxyz"]),
    (reversed_and_tail, ["abcdef"]),
    (reversed_and_tail, [" é😀 "]),
]
