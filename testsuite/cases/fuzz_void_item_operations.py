"""Found by `rpy3 fuzz`: an item of a list never given one has no type;
an operation on it (here `-`) never runs, and the rtyper gives its result
the zero of its type instead of refusing it."""
from rpy3.rlib.rarithmetic import intmask


def negate_item_of_empty(x):
    empty = [0 for c in [0] if False]
    v = 0
    if x > 100:
        v = intmask(-(empty[0 % len(empty)] if empty else 0))
    return v + x


CASES = [
    (negate_item_of_empty, [3]),
    (negate_item_of_empty, [101]),
]
