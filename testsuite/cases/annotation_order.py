"""Errors seen while a callee's result is still incomplete (a call whose
other returns were not reached yet looks like None) are not errors once the
annotator's fixpoint is reached."""


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


CASES = [
    (use, [3]),
    (use_str, [2]),
    (use_len, [3]),
    (divide, [7]),
    (divide, [1]),
    (use_method, [5]),
    (use_method, [1]),
    (items, [3]),
]
