"""Instances of classes without a common base in one variable (duck
typing, `match` over unrelated classes): they meet as instances of
`object`, methods of the same name on both are called through it,
`isinstance` and class patterns narrow them, attributes both classes
have are read through it, and None may join them."""


class Circle:
    def __init__(self, r):
        self.r = r
        self.name = "circle"

    def area(self):
        return 3 * self.r * self.r

    def __repr__(self):
        return "Circle(%d)" % self.r


class Square:
    def __init__(self, s):
        self.s = s
        self.name = "square"

    def area(self):
        return self.s * self.s


class Labelled(Square):
    def area(self):
        return Square.area(self) + 1


class Token:
    def __init__(self, text):
        self.text = text


def make(n):
    if n % 3 == 0:
        return Circle(n)
    if n % 3 == 1:
        return Square(n)
    return Labelled(n)


def duck_methods(n):
    shapes = [make(i) for i in range(n)]
    return [s.area() for s in shapes]


def duck_attribute(n):
    return ",".join([make(i).name for i in range(n)])


def class_patterns(n):
    out = []
    for i in range(n):
        match make(i):
            case Circle(r=r):
                out.append("c%d" % r)
            case Labelled(s=side):
                out.append("l%d" % side)
            case Square(s=side):
                out.append("s%d" % side)
    return out


def narrowed(n):
    s = make(n)
    if isinstance(s, Circle):
        return repr(s)
    if isinstance(s, Square):
        return "side %d" % s.s
    return "?"


def with_none(n):
    x = None
    if n > 0:
        x = make(n)
    if n > 5:
        x = Token("t")
    if x is None:
        return "none"
    if isinstance(x, Token):
        return x.text
    return "shape"


def in_dict(n):
    d = {}
    for i in range(n):
        d[i] = make(i)
    d[100] = Token("x")
    kinds = []
    for k in sorted(d):
        v = d[k]
        kinds.append("T" if isinstance(v, Token) else "S")
    return "".join(kinds)


def identity(n):
    a = make(n)
    b = Token("b")
    objs = [a, b]
    return (objs[0] is a, objs[1] is b, objs[0] is objs[1])


def class_values(n):
    cls = Circle if n > 2 else Square
    kinds = [Circle, Square, Labelled]
    return (cls(n).area(), [k(n).area() for k in kinds])


def with_none_items(n):
    objs = [Circle(n), Square(n), None]
    return [o.area() if o is not None else -1 for o in objs]


CASES = [
    (class_values, [3]),
    (class_values, [1]),
    (with_none_items, [2]),
    (duck_methods, [6]),
    (duck_attribute, [4]),
    (class_patterns, [6]),
    (narrowed, [3]),
    (narrowed, [4]),
    (with_none, [0]),
    (with_none, [3]),
    (with_none, [7]),
    (in_dict, [4]),
    (identity, [2]),
]
