"""Comprehensions and generator expressions inside specialised functions:
each specialised graph has its own comprehension graph."""
from rpy3.rlib.objectmodel import specialize

@specialize.argtype(0)
def strs(seq):
    return [str(x) for x in seq]

@specialize.argtype(0)
def doubled(seq):
    return sum(x * 2 for x in seq), {x: 1 for x in seq}, {x for x in seq}

def m(n):
    xs = list(range(n))
    ys = [str(x) for x in xs]
    a = strs(xs)
    b = strs(ys)
    c = doubled(xs)
    d = doubled([0.5 * x for x in xs])
    return (a, b, c[0], d[0], len(c[1]) + len(d[2]))

CASES=[(m,[3])]
