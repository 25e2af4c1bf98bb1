"""How values show and compare where their type is a detail: frozensets
show as frozensets (also made by operators and methods of one, and
prebuilt), `f"{x}"` calls the class's `__format__`, `str.format()` shows
instances by their `__str__`/`__repr__`, tuples compare and hash their
instance items through `__eq__`/`__hash__`, `dict.get`/`pop` give a default
of another type than the values as it is, `ascii()` and
`str.isidentifier()`."""

PRIMES = frozenset([2, 3, 5])


def frozensets(n):
    a = frozenset([n, n + 1])
    b = a | {n + 2}
    c = {n} | a
    d = {a: "key"}
    return (str(a), repr(frozenset()), str(sorted(b)), str(c), str([a]), str(PRIMES),
            str(a.union([9])), str(a - {n}), n in PRIMES, d[frozenset([n + 1, n])],
            str(frozenset()) == "frozenset()")


class W:
    def __init__(self, s):
        self.s = s

    def __str__(self):
        return "S:" + self.s

    def __repr__(self):
        return "W(%r)" % self.s


class F:
    def __init__(self, tag):
        self.tag = tag

    def __format__(self, spec):
        return "F[" + spec + "|" + self.tag + "]"


def instance_text(s):
    f = F(s)
    return ("{} {!r} {x} {x!r} {!s:>6}".format(W(s), W(s + "y"), W(s), x=W("k")),
            f"{f} {f:abc} {W(s)} {W(s)!r} {W(s)!s:<5}|", format(f, "q"), "{0:z}".format(f))


class E:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        return self.v == o.v

    def __lt__(self, o):
        return self.v < o.v

    def __hash__(self):
        return self.v


def tuple_items(a):
    s = {(E(a), 1)}
    d = {(E(a), "x"): 5}
    t = (E(1), E(2))
    return ((E(a), 1) == (E(1), 1), (E(a), 1) != (E(1), 1), (E(a), 1) < (E(1), 2),
            (E(1), 1) in s, d.get((E(a), "x"), 0), E(a) in t,
            [(E(a), 0)] == [(E(1), 0)])


def defaults_of_another_type(k):
    chars = {"a": "x", "b": "y"}
    pairs = {"a": (1, "x")}
    flags = {"a": True}
    counts = {"a": 1}
    return (chars.get(k, "none"), chars.get(k, ""), pairs.get(k, (0, "long")),
            flags.get(k, 5), counts.get(k, False), chars.pop(k, "gone"),
            pairs.pop(k, (9, "popped")), flags.pop(k, 7), len(chars), len(pairs))


def ascii_and_identifiers(s):
    return (ascii(s), ascii([s, "é"]), ascii("\U0001f600" + s), ascii(3), ascii("plain"),
            s.isidentifier(), "_x1".isidentifier(), "1x".isidentifier(), "".isidentifier(),
            "naïve".isidentifier(), "a-b".isidentifier())


def two_nones(n):
    t = (n, None, n * 1.5, None)
    return (t, t[1], str(t), [None, None])


CASES = [
    (two_nones, [3]),
    (frozensets, [1]),
    (frozensets, [4]),
    (instance_text, ["x"]),
    (tuple_items, [1]),
    (tuple_items, [2]),
    (defaults_of_another_type, ["a"]),
    (defaults_of_another_type, ["q"]),
    (ascii_and_identifiers, ["ñ\u1234x"]),
    (ascii_and_identifiers, ["abc_1"]),
]


class Accented:
    def __repr__(self):
        return "Acc(é)"


def percent_a(s):
    return ("%a|%5a|%-8a|%r" % (s, s, "é", s), "%a" % (Accented(),), "%a" % 3,
            ascii(Accented()), ascii([s]))


CASES += [(percent_a, ["é\u1234x"]), (percent_a, ["ab"])]
