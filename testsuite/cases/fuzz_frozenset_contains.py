"""Found by `rpy3 fuzz`: `n in {0, 3}` is compiled by CPython to a test
against a frozenset constant, which the annotator refused as a prebuilt
object that is not RPython."""


def in_const_set(n):
    return (0 if (n in {0, 3}) else -2)


def not_in_const_set(s):
    return s not in {'a', 'bc'}


def const_in_const_set():
    return 3 in {1, 2, 3}


CASES = [
    (in_const_set, [0]),
    (in_const_set, [3]),
    (in_const_set, [5]),
    (not_in_const_set, ['a']),
    (not_in_const_set, ['b']),
    (const_in_const_set, []),
]
