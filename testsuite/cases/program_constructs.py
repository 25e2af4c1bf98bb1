"""Constructs whole programs use that the program probe found refused:
plain functions and closures in one variable, list or dict (the function
becomes a prebuilt closure calling it), `Cls.__new__(Cls)` for an instance
not initialised (copy methods), `%*d` widths taken from the values, and
`%r` of bytes in a str format."""


def plain(x):
    return x + 1


def double(x):
    return x * 2


def make_adder(n):
    def f(x):
        return x + n
    return f


def one_variable(k):
    if k > 2:
        fn = plain
    else:
        fn = make_adder(k)
    return fn(10)


def in_a_list(k):
    fns = [plain, make_adder(k), double, lambda x: x - k]
    return [f(10) for f in fns]


def in_a_dict(k):
    table = {"inc": plain, "add": make_adder(k)}
    table["dbl"] = double
    return sorted((name, f(k)) for name, f in table.items())


def mul(a, b):
    return a * b


def two_params(k):
    ops = [mul, lambda a, b: a + b + k]
    return [op(3, 4) for op in ops]


class Board:
    def __init__(self, n):
        self.cells = [0] * n
        self.moves = 0

    def copy(self):
        b = Board.__new__(Board)
        b.cells = self.cells[:]
        b.moves = self.moves
        return b


def copies(n):
    a = Board(3)
    a.moves = 5
    b = a.copy()
    b.cells[0] = n
    b.moves += 1
    return (a.cells, b.cells, a.moves, b.moves, isinstance(b, Board))


def star_widths(n):
    return ("%*d|%-*s|%0*d|%*s|" % (5, n, 4, "ab", 6, -n, -4, "x"),
            "%*.2f" % (8, 3.14159), "[%*x]" % (n, 255), "%-*d|" % (n, 42))


def bytes_shown(n):
    b = bytes([n, 65, 39])
    return ("bad magic %r" % b, "%s|%r" % ("x", b"a\nb"), "%r" % (b[:1],))


def bytearray_text(n):
    out = bytearray()
    out.append(n)
    out.append(255)
    raw = bytearray(b"ab")
    raw.append(n + 60)
    return (out.hex(), raw.decode("ascii"), bytes([n, 255, 3]).hex(" "), b"".hex(":"),
            bytes(out).hex("-"))


def char_values(k):
    d = {"a": "x", "b": "y"}
    v = d.get(k)
    return (v if v is not None else "<none>", d.get(k, "") + "|")


class Move:
    def __init__(self, p):
        self.p = p


class Illegal(Exception):
    def __init__(self, legal):
        self.legal = legal


def exception_of_objects(n):
    try:
        raise Illegal([Move(n), Move(n + 1)])
    except Illegal as e:
        return (len(e.legal), e.legal[1].p)


CASES = [
    (bytearray_text, [7]),
    (char_values, ["a"]),
    (char_values, ["q"]),
    (exception_of_objects, [4]),
    (one_variable, [3]),
    (one_variable, [1]),
    (in_a_list, [3]),
    (in_a_dict, [5]),
    (two_params, [1]),
    (copies, [7]),
    (star_widths, [3]),
    (star_widths, [-7]),
    (bytes_shown, [7]),
    (bytes_shown, [200]),
]
