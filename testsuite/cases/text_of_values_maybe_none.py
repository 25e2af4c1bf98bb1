"""The text (`str`, `repr`, `%s`, f-strings, `print`, items of containers)
of values that may be None: tuples, lists, dicts, sets, bytes and
instances (with and without `__repr__`/`__str__`) give 'None' for None.
Before, they dereferenced a null pointer."""


class P:
    def __init__(self, x):
        self.x = x

    def __repr__(self):
        return "P(%d)" % self.x


class S:
    def __init__(self, x):
        self.x = x

    def __str__(self):
        return "S%d" % self.x


def pair_or_none(n):
    if n == 0:
        return None
    return (n, n + 1)


def list_or_none(n):
    if n == 0:
        return None
    return [n]


def dict_or_none(n):
    if n == 0:
        return None
    return {n: "v"}


def set_or_none(n):
    if n == 0:
        return None
    return {n}


def bytes_or_none(n):
    if n == 0:
        return None
    return b"x" * n


def p_or_none(n):
    return P(n) if n else None


def s_or_none(n):
    return S(n) if n else None


def tuples(n):
    t = pair_or_none(n)
    return (str(t), repr(t), "%s" % (t,), f"{t}", f"{t!r}", str([t, None]), str((t, 1)))


def containers(n):
    return (str(list_or_none(n)), repr(dict_or_none(n)), str(set_or_none(n)), repr(bytes_or_none(n)),
            str([list_or_none(n)]), str({1: pair_or_none(n)}))


def instances(n):
    p = p_or_none(n)
    s = s_or_none(n)
    return (str(p), repr(p), f"{p}", "%s|%r" % (p, p), str(s), f"{s}", str([p, None]), str({0: p}))


def printed(n):
    print(pair_or_none(n), list_or_none(n), p_or_none(n), s_or_none(n))
    return n


CASES = [
    (tuples, [0]),
    (tuples, [3]),
    (containers, [0]),
    (containers, [2]),
    (instances, [0]),
    (instances, [4]),
    (printed, [0]),
    (printed, [1]),
]
