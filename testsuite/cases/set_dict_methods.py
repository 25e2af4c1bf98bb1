"""Set and dict methods: isdisjoint, pop, issubset/issuperset, union,
intersection, difference, symmetric_difference, update, discard, remove,
copy, clear and the operators | & - ^ <= >=; dict(...) from a dict, pairs
or zip, dict | dict, popitem (LIFO), setdefault, update, copy, fromkeys."""


def set_predicates(n):
    a = set(range(n))
    b = set(range(n, 2 * n))
    c = set(range(2))
    return (a.isdisjoint(b), a.isdisjoint(c), c.issubset(a), a.issuperset(c),
            c <= a, a >= c, a <= c, c < a, a > a, b.issubset(a))


def set_algebra(n):
    a = set(range(n))
    b = set(range(n // 2, n + 3))
    return (sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)),
            sorted(a.symmetric_difference(b)), sorted(a | b), sorted(a & b),
            sorted(a - b), sorted(a ^ b), sorted(a.union([100, 101])))


def set_mutation(n):
    a = set(range(n))
    a.update([10, 11])
    a.update(set([12]))
    a.discard(0)
    a.discard(999)
    a.remove(1)
    b = a.copy()
    b.add(50)
    c = set(b)
    c.clear()
    a |= set([20])
    a &= set(range(21))
    a -= set([2])
    a ^= set([3, 30])
    return (sorted(a), sorted(b), len(c), 50 in a)


def set_remove_missing(n):
    a = set(range(n))
    a.remove(n + 1)
    return len(a)


def set_pop(n):
    a = set(range(n))
    total = 0
    while a:
        total += a.pop()
    return total


def set_pop_empty(n):
    a = set(range(n))
    a.clear()
    return a.pop()


def set_of_strs(s):
    a = set(s)
    b = set("aeiou")
    return (sorted(a & b), sorted(a - b), a.isdisjoint(b), len(a | b))


def dict_constructors(n):
    base = {"a": 1, "b": 2}
    d1 = dict(base)
    d1["c"] = 3
    pairs = [(str(i), i) for i in range(n)]
    d2 = dict(pairs)
    d3 = dict(zip(["x", "y", "z"], range(n)))
    d4 = dict()
    return (sorted(base.items()), sorted(d1.items()), list(d2.items()), list(d3.items()), len(d4))


def dict_merge(n):
    a = {i: i for i in range(n)}
    b = {i: -i for i in range(n // 2, n + 2)}
    c = a | b
    a |= {100: 1}
    return (list(c.items()), list(a.items()))


def dict_popitem(n):
    d = {}
    for i in range(n):
        d[i * 10] = i
    out = []
    while d:
        out.append(d.popitem())
    return out


def dict_popitem_empty(n):
    d = {1: 2}
    d.popitem()
    return d.popitem()


def dict_methods(n):
    d = {"a": 1}
    x = d.setdefault("a", 5)
    y = d.setdefault("b", 7)
    d.update({"c": 3, "a": 10})
    d.update([("z", 26)])
    e = d.copy()
    e["q"] = 0
    f = dict.fromkeys(["k1", "k2"], n)
    g = dict.fromkeys(range(3), "v")
    return (x, y, list(d.items()), len(e), list(f.items()), list(g.items()))


def dict_update_zip(n):
    d = {}
    d.update(zip(range(n), range(n, 2 * n)))
    return list(d.items())


def set_more(n):
    a = set(range(n))
    b = a.union([n, n + 1], range(2 * n, 2 * n + 2))
    c = a.intersection(range(2), [1, 0, 5])
    d = a.difference([0], set([1]))
    e = set(a)
    e.intersection_update(range(3, 100))
    f = set(a)
    f.difference_update([1, 2], [3])
    g = set(a)
    g.symmetric_difference_update([0, 100])
    h = a.union()
    return (sorted(b), sorted(c), sorted(d), sorted(e), sorted(f), sorted(g), sorted(h),
            a.issubset(range(n + 1)), a.issuperset([0, 1]), a.isdisjoint([n + 5]))


def dict_more(s):
    words = s.split()
    counts = dict.fromkeys(words, 0)
    for w in words:
        counts[w] += 1
    lens = dict((w, len(w)) for w in words)
    copy = dict(counts)
    copy["zzz"] = 9
    nones = dict.fromkeys("ab")
    merged = counts | lens
    counts |= {"new": 1}
    last = merged.popitem() if merged else ("", 0)
    return (sorted(counts.items()), sorted(lens.items()), len(copy), len(counts),
            sorted(merged.items()), last, sorted(nones.keys()), nones["a"] is None)


def dict_equality(n):
    d1 = {"a": [1], "b": [n]}
    d2 = {"b": [n], "a": [1]}
    d3 = {"a": [1], "b": [n + 1]}
    rows = [d1, d3]
    rows.append({"c": [0]})
    return (d1 == d2, d1 != d3, d1 == d3, [d1] == [d2], (d1, 1) == (d2, 1), {1: "x"} == {},
            [{1, 2}] == [{2, 1}], len(rows), sorted(rows[2].keys()), d2 in rows)


CASES = [
    (set_predicates, [4]),
    (set_predicates, [0]),
    (set_algebra, [6]),
    (set_mutation, [8]),
    (set_remove_missing, [3]),
    (set_pop, [10]),
    (set_pop_empty, [3]),
    (set_of_strs, ["education"]),
    (dict_constructors, [3]),
    (dict_merge, [4]),
    (dict_popitem, [5]),
    (dict_popitem_empty, [0]),
    (dict_methods, [9]),
    (dict_update_zip, [4]),
    (set_more, [5]),
    (dict_equality, [3]),
    (set_more, [0]),
    (dict_more, ["the cat the dog a cat"]),
    (dict_more, [""]),
]
