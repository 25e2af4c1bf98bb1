"""Slices of strings with steps: None bounds, negative and huge bounds and
steps, a zero step (ValueError), constant slices."""


def sliced(s, a, b, c):
    return s[a:b:c]


def sliced_none(s, c):
    return (s[::c], s[:2:c], s[1::c])


def zero_step(s, c):
    try:
        return s[::c]
    except ValueError:
        return "ValueError"


def constant(s):
    return (s[::-1], s[1:-1], s[-2:], s[:2], s[::2], s[100:], s[-100::3])


CASES = [
    (sliced, ["abcdef", 1, 5, 2]),
    (sliced, ["abcdef", 5, 1, -2]),
    (sliced, ["abcdef", -1, -7, -1]),
    (sliced, ["abcdef", -100, 100, 3]),
    (sliced, ["héllo😀", 100, -100, -1]),
    (sliced, ["abc", 0, 3, 4611686018427387904]),
    (sliced, ["abc", 2, 0, -4611686018427387904]),
    (sliced, ["", 0, 0, -1]),
    (sliced_none, ["abcdef", -1]),
    (sliced_none, ["abcdef", 2]),
    (sliced_none, ["", -3]),
    (zero_step, ["abc", 0]),
    (zero_step, ["abc", -1]),
    (constant, ["abcdef"]),
    (constant, [""]),
]
