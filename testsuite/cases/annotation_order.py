"""Errors seen while a callee's result is still incomplete (a call whose
other returns were not reached yet looks like None) are not errors once the
annotator's fixpoint is reached; attributes and methods found in any order
(a method only subclasses define, read through the base)."""


class A:
    def __init__(self, v):
        self.v = v

def helper(n):
    return A(n * 2)

def get(n):
    if n > 0:
        return helper(n)
    return None

def use(n):
    x = get(n)
    return x.v

def use_str(n):
    s = pick(n)
    return s.upper()

def mk(n):
    return "ab" * n

def pick(n):
    if n > 100:
        return None
    return mk(n)

def use_len(n):
    lst = maybe(n)
    return len(lst)

def build(n):
    return [n, n]

def maybe(n):
    if n < 0:
        return None
    return build(n)


class B(A):
    def extra(self):
        return self.v + 100

def helper1(n):
    return n + 1

def zero_first(n):
    if n > 5:
        return helper1(n)
    return 0

def divide(n):
    d = zero_first(n)
    if d == 0:
        return -1
    return 100 // d

def make_b(n):
    if n > 3:
        return mkb(n)
    return None

def mkb(n):
    return B(n)

def use_method(n):
    x = make_b(n)
    if n > 3:
        return x.extra()
    return 0

def items(n):
    return tup(n)[1]

def tup(n):
    if n > 1:
        return pair(n)
    return (n, n)

def pair(n):
    return (n, n * 2)


class Holder:
    def __init__(self):
        self.a = 0


def reader(c):
    return c.later + 1


def setter(c, n):
    c.later = n


def attr_order(n):
    c = Holder()
    if n > 100:
        return reader(c)
    setter(c, n)
    return reader(c)


class Base:
    def run(self):
        return self.helper() + 1


class Sub(Base):
    def helper(self):
        return 5


def method_later(n):
    b = Base() if n > 100 else Sub()
    if n > 100:
        return 0
    return b.run()


def rec_a(n):
    if n <= 0:
        return None
    r = rec_b(n - 1)
    return r


def rec_b(n):
    if n <= 0:
        return Holder()
    return rec_a(n - 1)


def mutual(n):
    r = rec_a(n)
    if r is None:
        return -1
    return r.a


def slot_type(n):
    lst = []
    first = get_first(lst)
    lst.append(n)
    return first


def get_first(lst):
    if len(lst) > 0:
        return lst[0]
    return -1


CASES = [
    (use, [3]),
    (use_str, [2]),
    (use_len, [3]),
    (divide, [7]),
    (divide, [1]),
    (use_method, [5]),
    (use_method, [1]),
    (items, [3]),
    (attr_order, [3]),
    (method_later, [3]),
    (mutual, [4]),
    (mutual, [3]),
    (slot_type, [3]),
]
