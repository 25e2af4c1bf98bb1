"""`reversed(obj)` of the program's instances: the class's `__reversed__`
(a generator method, or one returning an iterator), else CPython's
sequence protocol through `__len__` and `__getitem__`."""


class Seq:
    def __init__(self, n):
        self.items = list(range(n))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i] * 10


class Rev:
    def __init__(self, n):
        self.items = list(range(n))

    def __iter__(self):
        return iter(self.items)

    def __reversed__(self):
        for x in self.items:
            yield -x


class Deck:
    def __init__(self, cards):
        self.cards = cards

    def __reversed__(self):
        return iter(self.cards[::-1])


def by_index(n):
    return list(reversed(Seq(n)))


def by_index_loop(n):
    out = []
    for x in reversed(Seq(n)):
        out.append(x + 1)
    return out


def by_index_empty(n):
    return [x for x in reversed(Seq(n))]


def by_method(n):
    out = []
    for x in reversed(Rev(n)):
        out.append(x)
    return (out, list(Rev(n)))


def by_method_iterator(n):
    d = Deck(["a", "b", "c"][:n])
    return ",".join(reversed(d))


CASES = [
    (by_index, [4]),
    (by_index_loop, [3]),
    (by_index_empty, [0]),
    (by_method, [3]),
    (by_method_iterator, [3]),
    (by_method_iterator, [1]),
]
