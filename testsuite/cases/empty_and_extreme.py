"""Values at the edges: tuples holding None shown, any()/all() of iterables
that never give an item, and ranges whose step is -maxint-1."""
from rpy3.rlib.rarithmetic import maxint

MININT = -maxint - 1


def tuple_text(n):
    t = (n, None)
    return (str(t), repr((None, n, "a")), "%s" % (t,), str((None,)))


def any_all_empty(n):
    return (any(()), all(()), any(x for x in []), all(x > 0 for x in []), n)


def extreme_step(n):
    return (list(range(0, -n, MININT)), len(range(0, -n, MININT)), list(range(n, MININT, MININT)),
            list(range(MININT, maxint, maxint))[:3])


CASES = [
    (tuple_text, [3]),
    (any_all_empty, [1]),
    (extreme_step, [5]),
    (extreme_step, [0]),
]
