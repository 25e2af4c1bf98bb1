"""Found by `rpy3 fuzz`: a list never given an item (a comprehension whose
condition is constant False) has items of no type; a slice or a product
of it joined with a list of ints, or extending a list of ints with it,
must give lists of ints (the empty list is copied as an empty list)."""


def slice_joined(x):
    l = [0]
    if x > 0:
        l = [0 for c in [0] if False][:4]
    return len(l)


def product_joined(x):
    l = [0]
    if x > 0:
        l = [0 for c in [0] if False] * (x & 3)
    l.append(x)
    return l


def extend_with_empty(x):
    l = [x]
    m = [c for c in [0] if False]
    l.extend(m[:4])
    l.extend(m)
    return l


def set_update_with_empty(x):
    s = {x}
    s.update([0 for c in [0] if False][:4])
    return len(s)


CASES = [
    (slice_joined, [1]),
    (slice_joined, [-1]),
    (product_joined, [2]),
    (product_joined, [0]),
    (extend_with_empty, [5]),
    (set_update_with_empty, [5]),
]
