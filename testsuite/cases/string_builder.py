"""rpy3.rlib.rstring.StringBuilder on the llinterp: growth past the
initial size, every append method, getlength, build twice, and the
ValueError of an append_slice out of range."""
from rpy3.rlib.rstring import StringBuilder


def grow(n):
    b = StringBuilder(1)
    for i in range(n):
        b.append_char("ab"[i % 2])
        b.append(str(i))
    first = b.build()
    b.append_multiple_char("é", 3)
    return (b.getlength(), first, b.build())


def bad_slice(a, c):
    b = StringBuilder()
    try:
        b.append_slice("hello", a, c)
    except ValueError:
        return "ValueError"
    return b.build()


CASES = [
    (grow, [0]),
    (grow, [40]),
    (bad_slice, [1, 3]),
    (bad_slice, [3, 1]),
    (bad_slice, [0, 6]),
    (bad_slice, [-1, 2]),
    (bad_slice, [5, 5]),
]
