"""Calls that tune CPython's interpreter: `sys.setrecursionlimit` lets a
program recurse deeper than the default limit (and refuses a limit below
one), `gc.collect`/`enable`/`disable` do nothing a program can see."""
import gc
import sys


def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def deep(n):
    sys.setrecursionlimit(n + 100)
    gc.disable()
    r = depth(n)
    gc.enable()
    return r + gc.collect() * 0


def bad_limit(n):
    sys.setrecursionlimit(n)
    return n


CASES = [
    (deep, [3000]),
    (deep, [20000]),
    (bad_limit, [0]),
    (bad_limit, [-5]),
]
