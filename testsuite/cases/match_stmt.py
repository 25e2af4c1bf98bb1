"""The match statement: literal, capture, wildcard, value, sequence,
star, class (positional through __match_args__, keyword, built-in
classes matching themselves), mapping (with **rest) and alternative
patterns, guards and `as` captures."""


class Shape:
    pass


class Point(Shape):
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Circle(Shape):
    __match_args__ = ("center", "r")

    def __init__(self, center, r):
        self.center = center
        self.r = r


class Rect(Shape):
    def __init__(self, w, h):
        self.w = w
        self.h = h


class Color:
    RED = 0
    GREEN = 1
    BLUE = 2


def literal(n):
    match n:
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case x if x < 0:
            return "negative %d" % x
        case 100:
            return "hundred"
        case _:
            return "big"


def value_pattern(n):
    match n % 4:
        case Color.RED:
            return "red"
        case Color.GREEN | Color.BLUE:
            return "green or blue"
        case other:
            return "other %d" % other


def string_subject(s):
    match s:
        case "":
            return -1
        case "hello" | "hi":
            return 1
        case "bye":
            return 2
        case word if len(word) > 5:
            return len(word) * 10
        case _:
            return 0


def command(line):
    match line.split():
        case []:
            return "empty"
        case ["go", direction]:
            return "going " + direction
        case ["take", item, *rest] if len(rest) < 2:
            return "taking %s and %d more" % (item, len(rest))
        case ["drop", *items]:
            return "dropping " + ",".join(items)
        case [verb, *_]:
            return "unknown verb " + verb


def sequence(n):
    if n == 0:
        items = []
    elif n == 1:
        items = [7]
    elif n == 2:
        items = [1, 2]
    else:
        items = [i * i for i in range(n)]
    match items:
        case []:
            return -1
        case [x]:
            return x
        case [1, y]:
            return 100 + y
        case [0, 1, *middle, last]:
            return sum(middle) * 1000 + last
        case _:
            return -2


def tuple_subject(a, b):
    match (a, b):
        case (0, 0):
            return "origin"
        case (0, y):
            return "on y at %d" % y
        case (x, 0) as whole:
            return "on x at %d (%d)" % (x, whole[0])
        case (x, y) if x == y:
            return "diagonal"
        case (x, y):
            return "elsewhere %d" % (x * y)


def make_shape(n):
    if n == 0:
        return Point(0, 0)
    elif n == 1:
        return Point(3, 0)
    elif n == 2:
        return Circle(Point(1, 1), 5)
    elif n == 3:
        return Rect(2, 7)
    return Point(n, n + 1)


def classes(n):
    shape = make_shape(n)
    match shape:
        case Point(0, 0):
            return "origin"
        case Point(x, 0):
            return "point on x %d" % x
        case Circle(Point(x=cx, y=cy), r) if r > 1:
            return "circle at %d,%d r=%d" % (cx, cy, r)
        case Rect(w=w, h=h):
            return "rect %d" % (w * h)
        case Point(x=px) as p:
            return "point %d %d" % (px, p.y)
        case _:
            return "other"


def builtin_classes(n):
    if n > 0:
        v = n
    else:
        v = -n
    match v:
        case int(k) if k > 10:
            return k * 2
        case int(k):
            return k
    return -1


def str_class(s):
    match s:
        case str(t) if t.startswith("a"):
            return t.upper()
        case str():
            return s
    return "none"


def mapping(n):
    d = {"kind": n, "size": n * 2}
    if n > 2:
        d["extra"] = 9
    match d:
        case {"kind": 0}:
            return 0
        case {"kind": 1, "size": size}:
            return size
        case {"extra": e, **rest}:
            return e * 100 + len(rest)
        case {"kind": k}:
            return -k
    return -99


def mapping_of_str(key):
    d = {"a": 1, "b": 2}
    match d:
        case {"c": v}:
            return v
        case {"a": 1, **others} if key in others:
            return others[key] * 10
        case _:
            return -1


def nested_alternatives(a, b):
    match [a, b]:
        case [0 | 1 as first, 0 | 1 as second]:
            return first * 2 + second
        case [x, (2 | 3)] | [(2 | 3), x]:
            return 100 + x
        case _:
            return -1


def match_none(n):
    if n > 0:
        v = Point(n, n)
    else:
        v = None
    match v:
        case None:
            return "none"
        case Point(x=x):
            return "point %d" % x
    return "?"


def match_bool(n):
    match n > 3:
        case True:
            return 1
        case False:
            return 0
    return -99


def too_many_positional(n):
    r = Rect(n, n)
    match r:
        case Rect(1, 2):
            return 1
    return 0


def unrelated_class(n):
    r = Rect(n, n + 1)
    match r:
        case Point(x, y):
            return x + y
        case Rect(w=w):
            return w
    return 0


def not_an_instance_first(n):
    # the TypeError comes only once the subject is an instance
    p = Point(n, n)
    match p:
        case Rect(1, 2):
            return 1
        case Point(x, _):
            return x
    return 0


CASES = [
    (literal, [0]),
    (literal, [2]),
    (literal, [-3]),
    (literal, [100]),
    (literal, [9]),
    (value_pattern, [4]),
    (value_pattern, [5]),
    (value_pattern, [6]),
    (value_pattern, [7]),
    (string_subject, [""]),
    (string_subject, ["hi"]),
    (string_subject, ["bye"]),
    (string_subject, ["elephant"]),
    (string_subject, ["cat"]),
    (command, [""]),
    (command, ["go north"]),
    (command, ["take lamp key"]),
    (command, ["take lamp key rope"]),
    (command, ["drop a b c"]),
    (command, ["look around"]),
    (sequence, [0]),
    (sequence, [1]),
    (sequence, [2]),
    (sequence, [5]),
    (tuple_subject, [0, 0]),
    (tuple_subject, [0, 4]),
    (tuple_subject, [3, 0]),
    (tuple_subject, [2, 2]),
    (tuple_subject, [2, 5]),
    (classes, [0]),
    (classes, [1]),
    (classes, [2]),
    (classes, [3]),
    (classes, [4]),
    (builtin_classes, [5]),
    (builtin_classes, [-20]),
    (str_class, ["abc"]),
    (str_class, ["xyz"]),
    (mapping, [0]),
    (mapping, [1]),
    (mapping, [2]),
    (mapping, [3]),
    (mapping_of_str, ["b"]),
    (mapping_of_str, ["z"]),
    (nested_alternatives, [1, 0]),
    (nested_alternatives, [5, 3]),
    (nested_alternatives, [2, 8]),
    (nested_alternatives, [5, 5]),
    (match_none, [0]),
    (match_none, [3]),
    (match_bool, [1]),
    (match_bool, [5]),
    (too_many_positional, [1]),
    (unrelated_class, [3]),
    (not_an_instance_first, [4]),
]
