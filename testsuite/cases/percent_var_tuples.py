"""`fmt % t` with a tuple whose length is known only at run time
(`tuple(xs)`): its items fill the directives, and a length that does not
match the format raises TypeError with CPython's message."""


class Term:
    def __init__(self, n):
        self.n = n

    def __str__(self):
        return "T%d" % self.n


def terms(n):
    t = tuple([Term(i) for i in range(n)])
    try:
        return "(and %s %s)" % t
    except TypeError as e:
        return "TypeError: " + str(e)


def numbers(n):
    u = tuple(range(n))
    try:
        return "%d-%d-%03d" % u
    except TypeError as e:
        return "TypeError: " + str(e)


def strings(n):
    t = tuple(["a", "bb", "ccc"][:n])
    try:
        return "<%s|%5s>" % t
    except TypeError as e:
        return str(e)


CASES = [
    (terms, [1]),
    (terms, [2]),
    (terms, [3]),
    (numbers, [2]),
    (numbers, [3]),
    (numbers, [4]),
    (strings, [2]),
    (strings, [3]),
]
