"""Functions of `math` written in RPython where the annotator has no rule
of its own for them."""

from rpy3.rlib.objectmodel import specialize


@specialize.argtype(0, 1)
def prod(iterable, start=1):
    """math.prod(iterable, start=1): the product of the items, left to
    right (an int product that leaves the machine word raises
    OverflowError, as every int operation of a program)."""
    r = start
    for x in iterable:
        r = r * x
    return r
