"""Bound methods as values: `key=d.get` (a built-in method bound to a
dict) and `key=obj.method` for `sorted`, `min`, `max` and `list.sort`,
also after loops and branches; methods of another object stored in an
attribute and called through it (`self.f = other.meth; self.f(x)`)."""


class Scorer:
    def __init__(self, w):
        self.w = w

    def score(self, x):
        return (x * self.w) % 7


class Holder:
    def __init__(self, f):
        self.f = f

    def call(self, x):
        return self.f(x) + 1


class Calc:
    def __init__(self, w):
        self.w = w
        self.ops = {"add": self.add, "mul": self.mul}

    def add(self, x):
        return x + self.w

    def mul(self, x):
        return x * self.w

    def run(self, name, x):
        return self.ops[name](x)


def dict_get_keys(n):
    d = {"a": 3, "b": n, "c": 1}
    return (sorted(d, key=d.get), max(d, key=d.get), min(d, key=d.get), sorted(d, key=d.get, reverse=True))


def most_common_word(n):
    counts = {}
    for w in "a b a c b a c c c".split()[:n]:
        counts[w] = counts.get(w, 0) + 1
    return max(counts, key=counts.get)


def sort_method_key(n):
    counts = {"x": 2, "y": n, "z": 0}
    names = list(counts)
    names.sort(key=counts.get)
    return names


def branch_keys(n):
    d = {"p": 1, "q": 2}
    e = {"p": 2, "q": 1}
    k = d.get if n > 0 else e.get
    return max(["p", "q"], key=k)


def instance_method_key(n):
    s = Scorer(n)
    xs = [1, 2, 3, 4, 5]
    return (sorted(xs, key=s.score), max(xs, key=s.score), min(xs, key=s.score))


def stored_method(n):
    c = Calc(n)
    h = Holder(c.mul)
    g = Holder(c.add)
    return (h.call(5), g.call(5), c.run("add", 1), c.run("mul", 2))


CASES = [
    (dict_get_keys, [2]),
    (most_common_word, [9]),
    (most_common_word, [4]),
    (sort_method_key, [5]),
    (sort_method_key, [1]),
    (branch_keys, [1]),
    (branch_keys, [0]),
    (instance_method_key, [3]),
    (stored_method, [4]),
]
