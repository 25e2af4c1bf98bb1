"""Ranges as values: their start, stop and step, str()/repr() as
range(a, b[, c]), == between ranges (the same items), and star-unpacking
a range (`first, *mid, last = range(n)`)."""
def range_attrs(a, b, c):
    r = range(a, b, c)
    return (r.start, r.stop, r.step, str(range(a, b)), repr(r), str(range(b)), "%s" % (r,), f"{r}")

def range_eq(n):
    return (range(0, n, 2) == range(0, n + 1, 2), range(0) == range(5, 5), range(n) != range(n), range(1, 2, 5) == range(1, 3, 7), range(n) == range(1, n))

def star_unpack_middle(n):
    first, *mid, last = range(n)
    return (first, mid, last)


CASES = [(star_unpack_middle, [5]), (star_unpack_middle, [2]), (range_attrs, [1, 10, 2]), (range_attrs, [5, -3, -2]), (range_eq, [5]), (range_eq, [6]), (range_eq, [0])]


def range_slices(n):
    r = range(1, n, 2)
    return (list(r[::-1]), list(r[1:]), list(r[:2]), list(r[::2]), list(r[-2:]),
            list(r[5:1:-1]), list(range(n)[::-3]), list(range(n, 0, -2)[1::2]),
            len(r[::-1]), [x * 2 for x in r[1:3]])


CASES += [(range_slices, [10]), (range_slices, [1]), (range_slices, [0]), (range_slices, [15])]


def range_methods(n):
    r = range(0, 20, 3)
    rr = range(10, 0, -2)
    out = [n in r, r.count(n), rr.count(n)]
    try:
        out.append(r.index(n))
    except ValueError as e:
        out.append(-1)
        out.append(len(str(e)))
    try:
        out.append(rr.index(n))
    except ValueError:
        out.append(-2)
    return out


CASES += [(range_methods, [9]), (range_methods, [10]), (range_methods, [-3]),
          (range_methods, [21]), (range_methods, [0]), (range_methods, [4])]
