"""The text of an exception's arguments: `str(e)` and `print(e)` show
what CPython shows (the arguments of the call that made the exception,
replaced by those a custom `__init__` passes to the base `__init__`;
`repr()` of a single argument for a KeyError; the tuple of several).
RPython drops exception arguments; rpy3 keeps their text."""


class ParseError(Exception):
    def __init__(self, msg, line):
        super().__init__(msg)
        self.line = line


class OldStyle(Exception):
    def __init__(self, msg, line):
        Exception.__init__(self, "%s at line %d" % (msg, line))
        self.line = line


class Coded(Exception):
    def __init__(self, code):
        self.code = code


class Plain(Exception):
    pass


class Special(Exception):
    def __str__(self):
        return "special!"


def _raise(k, n):
    if k == 0:
        raise ValueError("bad value %d" % n)
    if k == 1:
        raise ParseError("unexpected token", n)
    if k == 2:
        raise OldStyle("eof", n)
    if k == 3:
        raise Coded(n)
    if k == 4:
        raise Plain()
    if k == 5:
        raise KeyError("key%d" % n)
    if k == 6:
        raise Plain("two", n)
    if k == 7:
        raise IndexError
    if k == 8:
        raise Plain(n * 0.5)
    return n


def message(k, n):
    try:
        _raise(k, n)
    except Exception as e:
        return str(e)
    return "no exception"


def printed(k, n):
    try:
        _raise(k, n)
    except Exception as e:
        print("caught:", e)
        return 1
    return 0


def formatted(n):
    try:
        _raise(1, n)
    except ParseError as e:
        return "%s (line %d) [%s]" % (e, e.line, str(e))
    return ""


def special(n):
    try:
        raise Special("ignored %d" % n)
    except Special as e:
        return str(e)


def escaping(n):
    _raise(0, n)


CASES = [(message, [k, 7]) for k in range(10)] + [
    (printed, [0, 3]),
    (printed, [5, 3]),
    (printed, [4, 3]),
    (formatted, [12]),
    (special, [1]),
    (escaping, [5]),
]
