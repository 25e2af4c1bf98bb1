"""Containers in combination: lists of tuples and of lists compared and
sorted, dicts of lists and of dicts, sets of tuples, tuple keys, prebuilt
containers read and mutated, aliasing, nested comprehensions, lists of
floats and None-able strings, equality of nested containers, iteration
with enumerate/zip/reversed over every kind, and the errors they raise."""

TABLE = {"one": 1, "two": 2, "three": 3}
PRIMES = [2, 3, 5, 7, 11, 13]
SEEN = []


def tuple_list_sort(n):
    pairs = [(i % 3, -i) for i in range(n)]
    pairs.sort()
    rev = sorted(pairs, reverse=True)
    return (pairs, rev[:2], (1, -4) in pairs, pairs.index((0, 0)) if pairs else -1)


def nested_list_compare(a, b):
    x = [[a], [a, b]]
    y = [[a], [b, a]]
    return (x == y, x < y, x > y, [x] == [x[:]], sorted([y, x]) == [x, y] or x >= y)


def dict_of_lists(words):
    d = {}
    for w in words.split():
        d.setdefault(len(w), []).append(w)
    out = []
    for k in sorted(d):
        out.append((k, sorted(d[k])))
    return out


def dict_of_dicts(n):
    outer = {}
    for i in range(n):
        inner = outer.setdefault(i % 3, {})
        inner[i] = i * i
    return [(k, list(v.items())) for k, v in outer.items()]


def tuple_keys_and_sets(n):
    grid = {}
    for i in range(n):
        for j in range(n):
            grid[(i, j)] = i * j
    s = set()
    for (i, j), v in grid.items():
        if v % 2 == 0:
            s.add((j, i))
    return (len(grid), sorted(s)[:5], (1, 1) in s, grid.get((n, n), -1))


def prebuilt_reads(name):
    total = 0
    for p in PRIMES:
        total += p
    return (TABLE.get(name, 0), name in TABLE, total, PRIMES[-1], len(TABLE))


def prebuilt_mutation(x):
    SEEN.append(x)
    SEEN.append(x * 2)
    result = list(SEEN)
    del SEEN[:]
    return (result, len(SEEN))


def aliasing(n):
    a = [0] * 3
    b = a
    b[0] = n
    rows = [a, a]
    rows[1][1] = n + 1
    d = {"k": a}
    d["k"].append(9)
    return (a, rows, d["k"] is a, len(b))


def float_and_optional(n):
    xs = [0.5 * i - 1.0 for i in range(n)]
    names = [None, "a", None, "b"]
    present = [s for s in names if s is not None]
    return (sum(xs, 0.0), max(xs) if xs else 0.0, sorted(xs, reverse=True)[:2], present,
            names.count(None), [s is None for s in names])


def iteration_kinds(s):
    words = s.split()
    out = []
    for i, w in enumerate(words, 1):
        out.append(str(i) + w)
    for a, b in zip(words, reversed(words)):
        out.append(a + b)
    for c in reversed(s):
        if c != " ":
            out.append(c)
    for k in {w: len(w) for w in words}:
        out.append(k.upper())
    return out


def nested_comprehension(n):
    table = [[i * j for j in range(n)] for i in range(n)]
    flat = [x for row in table for x in row if x % 2 == 0]
    pairs = {(i, j) for i in range(n) for j in range(i)}
    index = {v: i for i, v in enumerate(flat)}
    return (table, flat, sorted(pairs), sorted(index.items())[:3])


def container_errors(k):
    lst = [1, 2, 3]
    d = {1: "a"}
    out = []
    try:
        lst[k]
        out.append("ok")
    except IndexError:
        out.append("IndexError")
    try:
        d[k]
        out.append("ok")
    except KeyError:
        out.append("KeyError")
    try:
        lst.remove(k)
        out.append("removed")
    except ValueError:
        out.append("ValueError")
    try:
        out.append(str(max([x for x in lst if x > k])))
    except ValueError:
        out.append("empty")
    return out


def generator_state(n):
    def gen(limit):
        total = 0
        for i in range(limit):
            total += i
            if i % 2 == 0:
                yield (i, total)
        yield (-1, total)

    out = []
    for pair in gen(n):
        out.append(pair)
    g = gen(2)
    first = next(g)
    rest = list(g)
    return (out, first, rest, next(g, (-9, -9)))


def list_methods_mix(n):
    lst = list(range(n))
    lst.insert(0, -1)
    lst.extend([n, n])
    lst.reverse()
    popped = lst.pop(1) if len(lst) > 1 else -5
    lst[1:3] = [7, 7, 7]
    del lst[::3]
    copy = lst.copy()
    copy.clear()
    return (lst, popped, lst.count(7), copy, lst * 2 == lst + lst)


def word_length(w):
    return len(w)


def keyed_sorts(s):
    words = s.split()
    by_len = sorted(words, key=word_length)
    by_len_rev = sorted(words, key=word_length, reverse=True)
    words.sort(key=word_length)
    quads = [q for q in zip(words, by_len, by_len_rev, range(10))]
    return (by_len, by_len_rev, words, quads)


CASES = [
    (keyed_sorts, ["ccc a bb dd e fff gggg"]),
    (keyed_sorts, [""]),
    (tuple_list_sort, [0]),
    (tuple_list_sort, [7]),
    (nested_list_compare, [1, 2]),
    (nested_list_compare, [3, 3]),
    (dict_of_lists, ["a bb cc d eee ff"]),
    (dict_of_lists, [""]),
    (dict_of_dicts, [7]),
    (tuple_keys_and_sets, [4]),
    (tuple_keys_and_sets, [0]),
    (prebuilt_reads, ["two"]),
    (prebuilt_reads, ["four"]),
    (prebuilt_mutation, [5]),
    (aliasing, [4]),
    (float_and_optional, [5]),
    (float_and_optional, [0]),
    (iteration_kinds, ["ab cd é"]),
    (iteration_kinds, [""]),
    (nested_comprehension, [4]),
    (nested_comprehension, [0]),
    (container_errors, [1]),
    (container_errors, [5]),
    (container_errors, [-3]),
    (generator_state, [5]),
    (generator_state, [0]),
    (list_methods_mix, [6]),
    (list_methods_mix, [0]),
]
