"""Behaviour at the edges the probes found: exceptions from methods that
operations call implicitly (a property's getter and setter, `__bool__`,
`__hash__` of a dict display's key, `__iter__`, `__format__`) are caught by
the enclosing `try`; `type(self).__name__` in a base method named for each
subclass that appears later; tuple slices with a step; CPython's messages
of int() of an infinity or a NaN and of chr() out of range; None items of
a `%` tuple; sorting tuples that hold lists."""


class P:
    @property
    def v(self):
        raise KeyError("k")


class T:
    def __init__(self):
        self._c = 0

    @property
    def c(self):
        return self._c

    @c.setter
    def c(self, v):
        if v < 0:
            raise ValueError("neg")
        self._c = v


class X:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        if self.v < 0:
            raise ValueError("bool")
        return self.v > 0


class H:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v

    def __hash__(self):
        if self.v < 0:
            raise ValueError("h")
        return self.v


class Items:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        if self.n < 0:
            raise IndexError("no items")
        return iter(range(self.n))


def implicit_calls(n):
    out = []
    try:
        out.append(P().v)
    except KeyError:
        out.append(-1)
    t = T()
    try:
        t.c = n
        out.append(t.c)
    except ValueError:
        out.append(-2)
    try:
        out.append(1 if X(n) else 0)
    except ValueError:
        out.append(-3)
    try:
        out.append(len({H(n): 1, H(5): 2}))
    except ValueError:
        out.append(-4)
    try:
        total = 0
        for i in Items(n):
            total += i
        out.append(total)
    except IndexError:
        out.append(-5)
    return out


class V:
    def describe(self):
        return type(self).__name__

    def kind(self):
        return self.__class__.__name__ + "/" + type(self).__name__


class W(V):
    pass


def type_names(n):
    return (V().describe(), W().describe(), V().kind(), W().kind())


def tuple_slices(a, b):
    t = (a, b, a + b, a * b, "x")
    return (t[::-1], t[::2], t[1::2], t[-2::-2], t[1:4], t[:0], t[4:1:-1])


def error_messages(n):
    out = []
    for f in [float("inf") * n, float("nan"), -float("inf"), 2.5]:
        try:
            out.append(str(int(f)))
        except OverflowError as e:
            out.append("O:" + str(e))
        except ValueError as e:
            out.append("V:" + str(e))
        try:
            out.append(str(round(f)))
        except OverflowError as e:
            out.append("O:" + str(e))
        except ValueError as e:
            out.append("V:" + str(e))
    for c in [n, -n, 0x110000 + n]:
        try:
            out.append(chr(c))
        except ValueError as e:
            out.append("V:" + str(e))
    return out


def none_items(n):
    return ("%s|%d" % (None, n), "%d|%s|%r" % (n, None, None), "%5s|" % (None,))


def sort_tuples_with_lists(n):
    l = [("b", [1]), ("a", [2, 3]), ("a", [2, n]), ("c", [])]
    return (sorted(l), max(l), min(l), sorted(l, reverse=True))


CASES = [
    (implicit_calls, [-5]),
    (implicit_calls, [3]),
    (type_names, [0]),
    (tuple_slices, [2, 7]),
    (error_messages, [1]),
    (none_items, [3]),
    (sort_tuples_with_lists, [1]),
    (sort_tuples_with_lists, [9]),
]


class Unhashable:
    def __eq__(self, o):
        return True

    def __hash__(self):
        raise TypeError("unhashable Unhashable")


def hash_always_raises(n):
    try:
        return len({Unhashable(): n})
    except TypeError as e:
        return -1


CASES.append((hash_always_raises, [1]))
