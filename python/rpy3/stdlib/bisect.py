"""`bisect` for RPython programs: CPython's algorithms, written in
RPython, specialised on the type of the list.  `hi` defaults to the
list's length (-1 stands for the default; CPython's `hi=None`)."""

from rpy3.rlib.objectmodel import specialize


@specialize.argtype(0, 1)
def bisect_right(a, x, lo=0, hi=-1):
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi == -1:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < a[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@specialize.argtype(0, 1)
def bisect_left(a, x, lo=0, hi=-1):
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi == -1:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@specialize.argtype(0, 1)
def insort_right(a, x, lo=0, hi=-1):
    a.insert(bisect_right(a, x, lo, hi), x)


@specialize.argtype(0, 1)
def insort_left(a, x, lo=0, hi=-1):
    a.insert(bisect_left(a, x, lo, hi), x)


bisect = bisect_right
insort = insort_right
