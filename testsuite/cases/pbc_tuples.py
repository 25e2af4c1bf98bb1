"""Tuples of functions, classes and frozen objects indexed by a variable
(prebuilt and local): each item is its own constant (they were null
pointers, or all the last class)."""


def inc(x):
    return x + 1


def dec(x):
    return x - 1


FS = (inc, dec)


def glob_tuple_fn(n):
    return FS[n](10)


def local_tuple_fn(n):
    fs = (inc, dec)
    return fs[n](10)


def list_fn(n):
    fs = [inc, dec]
    return fs[n](10)


class A(object):
    def v(self):
        return 1


class B(A):
    def v(self):
        return 2


CL = (A, B)


def cls_tuple(i):
    return CL[i]().v()


def cls_local_tuple(i):
    cl = (A, B)
    return cl[i]().v()


def cls_list(i):
    cl = [A, B]
    return cl[i]().v()


class Config(object):
    def __init__(self, scale):
        self.scale = scale

    def _freeze_(self):
        return True


FAST = Config(3)
SLOW = Config(1)
CONFIGS = (FAST, SLOW)


def frozen_is(i):
    c = CONFIGS[i]
    return (c is FAST, c is SLOW)


def frozen_attr(i):
    c = CONFIGS[i]
    return c.scale


def frozen_is_cond(i):
    c = FAST if i == 0 else SLOW
    return (c is FAST, c is SLOW, c.scale)


CASES = [
    (glob_tuple_fn, [0]),
    (glob_tuple_fn, [1]),
    (local_tuple_fn, [1]),
    (list_fn, [0]),
    (cls_tuple, [0]),
    (cls_tuple, [1]),
    (cls_local_tuple, [0]),
    (cls_list, [0]),
    (cls_list, [1]),
    (frozen_is, [0]),
    (frozen_is, [1]),
    (frozen_attr, [0]),
    (frozen_is_cond, [0]),
    (frozen_attr, [1]),
    (frozen_is_cond, [1]),
]
