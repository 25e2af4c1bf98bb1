"""`itertools`: calls become the generator functions of
`rpy3.stdlib.itertools`, made for each constant shape (the number of
iterables of `product`, a constant `r`), so they yield what CPython's
yield, in the same order (also groupby, zip_longest, takewhile, dropwhile,
filterfalse, cycle, compress, pairwise, starmap).  `permutations(xs)`
without `r` is refused: the
length of its tuples must be known when translating."""

import itertools
from itertools import combinations, permutations, product


def perms(xs, k):
    return [p for p in permutations(xs, 3)][:k]


def perm_pairs(s):
    return list(permutations(s, 2))


def combos(xs):
    return (list(combinations(xs, 2)), list(combinations(xs, 0)), list(combinations(xs, 5)),
            len(list(combinations(range(10), 4))))


def with_replacement(xs):
    return list(itertools.combinations_with_replacement(xs, 2))


def products(n):
    a = [x * y for x, y in product(range(n), [10, 20])]
    b = list(product("ab", repeat=2))
    c = list(product([1, 2], "xy", [True]))
    return (a, b, c)


def counting(n):
    out = []
    for i, c in zip(itertools.count(1), "hello"):
        out.append((i, c))
    evens = list(itertools.islice(itertools.count(0, 2), n))
    return (out, evens)


def chained(a, b):
    return (list(itertools.chain(a, b)), list(itertools.chain(a, b, a)), sum(itertools.chain(b, b)))


def slices(n):
    s = "abcdefghij"
    return (list(itertools.islice(s, n)), list(itertools.islice(s, 2, n)),
            list(itertools.islice(range(100), 3, n * 10, 7)))


def running(xs):
    return (list(itertools.accumulate(xs)), list(itertools.repeat(xs[0], 3)))


def bad_islice(n):
    return list(itertools.islice(range(5), -n))


def pairs_sum(xs):
    # two call sites of different item types share nothing
    total = 0
    for a, b in combinations(xs, 2):
        total += a * b
    names = [x + y for x, y in combinations(["p", "q", "r"], 2)]
    return (total, names)


def product_runtime_repeat(n):
    out = []
    for t in product((0, 1), repeat=n):
        out.append(sum(t) * 10 + len(t))
    return (out, list(product("ab", repeat=n)))

def more_tools(n):
    data = "aaabccdddd"[:n]
    out = []
    for k, g in itertools.groupby(data):
        out.append("%s%d" % (k, len(list(g))))
    words = ["apple", "avocado", "banana", "blueberry", "cherry"]
    for k, g in itertools.groupby(words, key=lambda w: w[0]):
        first = next(g)
        out.append("%s:%s:%d" % (k, first, len(list(g))))
    for a, b in itertools.zip_longest([1, 2, 3], [10, 20]):
        out.append("%s/%s" % (a, b))
    for a, b in itertools.zip_longest("ab", "xyz", fillvalue="-"):
        out.append(a + b)
    out.append(str(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1]))))
    out.append(str(list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1]))))
    out.append(str(list(itertools.filterfalse(lambda x: x % 2, range(n)))))
    out.append(str(list(itertools.islice(itertools.cycle([1, 2]), 5))))
    out.append(str(list(itertools.compress("abcdef", [1, 0, 1, 0, 1]))))
    out.append(str(list(itertools.pairwise([1, 2, 3, 4][:n]))))
    out.append(str(list(itertools.starmap(pow, [(2, 3), (3, 2)]))))
    return out


CASES = [
    (product_runtime_repeat, [0]),
    (product_runtime_repeat, [1]),
    (product_runtime_repeat, [3]),
    (perms, [[1, 2, 3, 4], 5]),
    (perm_pairs, ["abc"]),
    (combos, [[1, 2, 3, 4]]),
    (with_replacement, [[5, 6, 7]]),
    (products, [3]),
    (counting, [4]),
    (chained, [[1, 2], [3]]),
    (slices, [4]),
    (running, [[3, 1, 4, 1, 5]]),
    (bad_islice, [1]),
    (pairs_sum, [[1, 2, 3, 4]]),
    (more_tools, [10]),
    (more_tools, [3]),
]
