"""Bound methods of different names held in one variable, list or dict
(`h = g.go if c else g.look`, dispatch tables, callbacks): each call
calls the method of its own name, through the class of its instance
when a subclass overrides it; None among them; a table of methods of a
prebuilt instance."""


class Counter:
    def __init__(self, start):
        self.n = start
        self.log = []

    def inc(self, k):
        self.n += k
        self.log.append("inc%d" % k)
        return self.n

    def dec(self, k):
        self.n -= k
        self.log.append("dec%d" % k)
        return self.n

    def double(self, k):
        self.n *= 2
        self.log.append("double")
        return self.n + k


class LoudCounter(Counter):
    def inc(self, k):
        self.log.append("LOUD")
        return Counter.inc(self, k * 10)


def apply(f, x):
    return f(x)


def choose(n):
    c = Counter(n)
    h = c.inc if n > 2 else c.dec
    r1 = h(1)
    h = c.double
    r2 = h(5)
    return [r1, r2, c.n, len(c.log)]


def table(n):
    c = Counter(0)
    ops = {"i": c.inc, "d": c.dec, "x": c.double}
    out = []
    for ch in "iixdi"[:n]:
        out.append(ops[ch](n))
    missing = ops.get("q")
    out.append(1 if missing is None else 0)
    return out + [len(c.log)]


def callbacks(n):
    a = Counter(1)
    b = LoudCounter(100)
    fs = [a.inc, a.dec, b.inc, b.dec, b.double]
    total = 0
    for f in fs:
        total += apply(f, n)
    return [total, a.n, b.n] + [len(b.log)]


def log_of(n):
    b = LoudCounter(n)
    hs = [b.inc, b.dec]
    for h in hs:
        h(2)
    return b.log


SHARED = Counter(7)
HANDLERS = {"up": SHARED.inc, "down": SHARED.dec}


def prebuilt(n):
    r = HANDLERS["up" if n % 2 == 0 else "down"](n)
    return r


CASES = [
    (choose, [3]),
    (choose, [1]),
    (table, [5]),
    (table, [2]),
    (callbacks, [3]),
    (log_of, [1]),
    (prebuilt, [2]),
]
