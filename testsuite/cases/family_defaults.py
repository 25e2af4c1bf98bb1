"""Call families whose members have different default values: a call
through a variable holding one of several functions, an overridden method,
an overridden `__init__` reached through a class variable, and keyword-only
defaults.  Each callee binds the arguments the call omits from its own
defaults, as CPython does (one pointer call would bind them once, from one
member)."""


def fa(x, y=1):
    return x + y


def fb(x, y=7):
    return x * y


def pick_function(n):
    f = fb if n else fa
    return (f(3), f(3, 2), f(x=4))


def ka(x, *, scale=2):
    return x * scale


def kb(x, *, scale=5):
    return x - scale


def keyword_only(n):
    f = kb if n else ka
    return (f(10), f(10, scale=1))


class Base:
    def m(self, x, y=10):
        return x + y

    def name(self, prefix="base"):
        return prefix + ":" + type(self).__name__


class Sub1(Base):
    def m(self, x, y=20):
        return x * y


class Sub2(Base):
    def name(self, prefix="sub2"):
        return prefix.upper()


def overridden(k):
    objs = [Base(), Sub1(), Sub2()]
    o = objs[k % 3]
    return (o.m(3), o.m(3, 1), o.name(), [p.m(1) for p in objs], [p.name() for p in objs])


class A:
    def __init__(self, v=1, w="a"):
        self.v = v
        self.w = w


class B(A):
    def __init__(self, v=2, w="b"):
        A.__init__(self, v * 10, w + w)


def constructors(n):
    cls = B if n else A
    o = cls()
    p = cls(3)
    return (o.v, o.w, p.v, p.w)


CASES = [
    (pick_function, [0]),
    (pick_function, [1]),
    (keyword_only, [0]),
    (keyword_only, [1]),
    (overridden, [0]),
    (overridden, [1]),
    (overridden, [2]),
    (constructors, [0]),
    (constructors, [1]),
]
