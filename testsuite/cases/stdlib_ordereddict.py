"""`collections.OrderedDict`: insertion order, `move_to_end` (to either
end), `popitem(last=False)` and `popitem()`, initial items, and the text
`OrderedDict([(k, v), ...])` (`OrderedDict()` when empty); an LRU cache
written with it."""
from collections import OrderedDict
import collections


def basics(n):
    od = OrderedDict()
    for w in "b a b c a d"[:n].split():
        od[w] = od.get(w, 0) + 1
    out = [str(od), repr(OrderedDict())]
    od.move_to_end("b")
    out.append(str(list(od.items())))
    od.move_to_end("b", last=False)
    out.append(str(list(od)))
    k, v = od.popitem(last=False)
    out.append("%s %d %d" % (k, v, len(od)))
    out.append(str(od.popitem()))
    init = collections.OrderedDict([(3, "x"), (1, "y")])
    out.append(repr(init))
    return out


class LRU:
    def __init__(self, size):
        self.size = size
        self.data = OrderedDict()

    def get(self, k):
        if k not in self.data:
            return -1
        self.data.move_to_end(k)
        return self.data[k]

    def put(self, k, v):
        self.data[k] = v
        self.data.move_to_end(k)
        if len(self.data) > self.size:
            self.data.popitem(last=False)


def lru(n):
    c = LRU(2)
    out = []
    for i in range(n):
        c.put(i % 3, i)
        out.append(c.get((i + 1) % 3))
    return (out, str(c.data))


CASES = [
    (basics, [11]),
    (basics, [5]),
    (lru, [6]),
]
