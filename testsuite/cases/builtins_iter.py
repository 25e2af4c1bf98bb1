"""The lazy built-in iterators map() and filter(), and frozensets."""


def double(x):
    return x * 2


def is_odd(x):
    return x % 2 == 1


def add(a, b):
    return a + b


def map_list(n):
    return list(map(double, range(n)))


def map_str_join(n):
    return ",".join(map(str, [n, n + 1, n * 3])) + "|".join(map(repr, ["a", "b"]))


def map_len(n):
    return list(map(len, ["abc", "", "x" * n]))


def map_sum(n):
    return sum(map(double, [1, 2, n]))


def upper(s):
    return s.upper()


def map_for_loop(n):
    out = []
    for s in map(upper, ["ab", "cd", "x" * n]):
        out.append(s)
    return out


def map_two(n):
    return list(map(add, [1, 2, 3], [n, n * 10]))


def map_lambda(n):
    k = 3
    return list(map(lambda x: x * 3 + 1, range(n)))


def filter_func(n):
    return list(filter(is_odd, range(n)))


def filter_none(n):
    words = ["a", "", "bc", "", "d" * n]
    return list(filter(None, words))


def filter_none_lines(n):
    text = "line1\n\nline2\n" + "x" * n + "\n\n"
    return list(filter(None, text.splitlines()))


def map_and_filter(n):
    total = 0
    for x in filter(is_odd, map(double, range(n))):
        total += x
    for x in map(double, filter(is_odd, range(n))):
        total += x
    return total


class Recorder(object):
    def __init__(self):
        self.seen = []

    def note(self, x):
        self.seen.append(x)
        return x * 10


def map_lazy_order(n):
    rec = Recorder()
    seen = rec.seen
    out = []
    for y in map(rec.note, range(n)):
        out.append(len(seen))
        out.append(y)
    return out


def map_next(n):
    it = map(double, [n, n + 1])
    a = next(it)
    b = next(it)
    try:
        next(it)
        c = 0
    except StopIteration:
        c = -1
    return (a, b, c)


def frozenset_basic(n):
    fs = frozenset([1, 2, 3, n])
    total = 0
    for x in fs:
        total += x
    return (len(fs), 2 in fs, 7 in fs, total, min(fs), max(fs))


def frozenset_ops(n):
    a = frozenset(range(n))
    b = frozenset([1, 3, 5, 7, 9])
    c = a - b
    d = a & b
    e = a | b
    return (len(c), len(d), len(e), d <= a, b <= a, sorted(d))


def frozenset_of_str(n):
    fs = frozenset("hello" * n)
    return sorted(fs)


def frozenset_empty(n):
    fs = frozenset()
    return (len(fs), n in fs)


def frozenset_keys(n):
    d = {}
    d[frozenset([1, n])] = 1
    d[frozenset([n, 1])] = 2
    d[frozenset([n])] = 3
    seen = set()
    for k in d:
        seen.add(k)
    seen.add(frozenset([1, n]))
    return (len(d), d[frozenset([n, 1])], frozenset([n]) in seen,
            frozenset([n + 1]) in seen, len(seen))


CASES = [
    (frozenset_keys, [3]),
    (frozenset_keys, [1]),
    (map_list, [5]),
    (map_list, [0]),
    (map_str_join, [4]),
    (map_sum, [7]),
    (map_len, [4]),
    (map_for_loop, [2]),
    (map_two, [5]),
    (map_lambda, [4]),
    (filter_func, [9]),
    (filter_none, [2]),
    (filter_none_lines, [3]),
    (map_and_filter, [10]),
    (map_lazy_order, [3]),
    (map_next, [4]),
    (frozenset_basic, [4]),
    (frozenset_basic, [2]),
    (frozenset_ops, [8]),
    (frozenset_of_str, [2]),
    (frozenset_empty, [1]),
]
