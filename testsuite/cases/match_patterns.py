"""More match statements: an expression evaluator over class patterns with
nested and alternative sub-patterns, float and negative literals, matching
in loops, star and **rest captures alone, and None inside sequence
patterns."""


class Expr:
    pass


class Num(Expr):
    __match_args__ = ("value",)
    def __init__(self, value):
        self.value = value


class Add(Expr):
    __match_args__ = ("left", "right")
    def __init__(self, left, right):
        self.left = left
        self.right = right


class Mul(Expr):
    __match_args__ = ("left", "right")
    def __init__(self, left, right):
        self.left = left
        self.right = right


class Neg(Expr):
    __match_args__ = ("operand",)
    def __init__(self, operand):
        self.operand = operand


def evaluate(e):
    match e:
        case Num(value=v):
            return v
        case Add(Num(0), r) | Add(r, Num(0)):
            return evaluate(r)
        case Add(l, r):
            return evaluate(l) + evaluate(r)
        case Mul(Num(0), _) | Mul(_, Num(0)):
            return 0
        case Mul(l, r):
            return evaluate(l) * evaluate(r)
        case Neg(Neg(inner)):
            return evaluate(inner)
        case Neg(x):
            return -evaluate(x)
    return 0


def build(n):
    e = Num(n)
    for i in range(n):
        if i % 3 == 0:
            e = Add(e, Num(i))
        elif i % 3 == 1:
            e = Mul(e, Num(2))
        else:
            e = Neg(Neg(e))
    return evaluate(Add(Num(0), e))


def floats(x):
    match x:
        case 0.0:
            return "zero"
        case 1.5 | 2.5:
            return "half"
        case -1.0:
            return "minus one"
        case _:
            return "other"


def negatives(n):
    match n:
        case -1:
            return "m1"
        case -2 | -3:
            return "m23"
    return "x"


def loop_match(n):
    out = []
    for i in range(n):
        match i % 4, i % 3:
            case (0, 0):
                out.append("both")
            case (0, _):
                out.append("four")
            case (_, 0):
                out.append("three")
            case _:
                out.append(str(i))
    return ",".join(out)


def star_only(n):
    lst = list(range(n))
    match lst:
        case [*everything]:
            return len(everything)


def rest_only(n):
    d = {"a": n}
    match d:
        case {**rest}:
            return len(rest)
    return -1


def words(s):
    match s.split(","):
        case [a]:
            return a
        case [a, b]:
            return b + a
        case [a, *_, z]:
            return a + z
    return "?"


def attr_value(n):
    p = Num(n)
    match p.value:
        case 1:
            return "one"
        case v if v > 10:
            return "big"
        case _:
            return "small"


def none_in_tuple(n):
    t = (n, None) if n > 0 else (n, "x")
    match t:
        case (_, None):
            return 1
        case (_, s):
            return 2
    return 0


class Pair:
    __match_args__ = ("a", "b")
    def __init__(self, a, b):
        self.a = a
        self.b = b


def gen_one(n):
    yield n


def m_gen(n):
    match gen_one(n):
        case [x]:
            return x
        case _:
            return -1


def m_float(x):
    match x:
        case int(k):
            return 1
        case float(f):
            return 2
    return 0


def m_bool(n):
    match n:
        case bool():
            return "bool"
        case int():
            return "int"
    return "?"


def m_intkeys(n):
    d = {1: "a", 2: "b"}
    match d:
        case {1: v, **rest}:
            return v + str(len(rest))
    return "-"


def m_list_class(s):
    match s:
        case list():
            return 1
        case str() as t:
            return len(t)
    return 0


def m_none_attr(n):
    p = Pair(n, None)
    match p:
        case Pair(a, None):
            return a
        case Pair(a, b):
            return -a
    return 0


def m_tuple_len(n):
    t = (n, n, n)
    match t:
        case (a, b):
            return 2
        case (a, b, c):
            return 3
    return 0


def m_nested_map(n):
    d = {"a": {"b": n}}
    match d:
        case {"a": {"b": 0}}:
            return "zero"
        case {"a": {"b": v}}:
            return "v%d" % v
    return "-"


def m_inst_seq(n):
    p = Pair(n, n)
    match p:
        case [x, y]:
            return x
        case {"a": v}:
            return v
        case Pair(a=a):
            return a
    return 0


def m_inst_none_seq(n):
    p = Pair(n, n) if n > 0 else None
    match p:
        case [x]:
            return x
        case None:
            return -1
        case Pair(a=a):
            return a
    return 0


class Animal:
    def __init__(self, name, legs):
        self.name = name
        self.legs = legs

    def describe(self):
        match self:
            case Dog(name=n):
                return "dog " + n
            case Animal(legs=2):
                return "biped " + self.name
            case _:
                return "animal"


class Dog(Animal):
    pass


def animals(n):
    out = []
    for a in [Dog("rex", 4), Animal("bird", 2), Animal("cat", 4)]:
        out.append(a.describe())
    return out


def tuple_star(n):
    t = (n, n + 1, n + 2, n + 3)
    match t:
        case (first, *mid, last):
            return first + last + len(mid) * 100
    return -1


def alt_capture(a, b):
    match (a, b):
        case (1, x) | (x, 1):
            return x
        case _:
            return -1


def gen_match(n):
    for i in range(n):
        match i % 3:
            case 0:
                yield "zero"
            case 1:
                yield "one"
            case _:
                yield "many"


def use_gen(n):
    return [s for s in gen_match(n)]


def map_value_pattern(n):
    d = {"k": [1, n]}
    match d:
        case {"k": [1, x]} if x > 2:
            return x
        case {"k": [_, y]}:
            return -y
    return 0


def guard_uses_capture(n):
    match [n, n * 2]:
        case [a, b] if b - a == a:
            return "double"
        case _:
            return "no"


def match_str_chars(s):
    count = 0
    for ch in s:
        match ch:
            case "a" | "e" | "i" | "o" | "u":
                count += 1
            case " ":
                count += 100
    return count


CASES = [
    (build, [0]), (build, [5]), (build, [8]),
    (floats, [0.0]), (floats, [2.5]), (floats, [-1.0]), (floats, [3.0]),
    (negatives, [-1]), (negatives, [-3]), (negatives, [4]),
    (loop_match, [13]), (star_only, [4]), (rest_only, [3]),
    (words, ["x"]), (words, ["x,y"]), (words, ["a,b,c,d"]),
    (attr_value, [1]), (attr_value, [20]), (attr_value, [3]),
    (none_in_tuple, [1]), (none_in_tuple, [0]),
    (m_gen, [1]),
    (m_float, [1.5]),
    (m_bool, [3]),
    (m_intkeys, [0]),
    (m_list_class, ["abc"]),
    (m_none_attr, [4]),
    (m_tuple_len, [1]),
    (m_nested_map, [0]),
    (m_nested_map, [5]),
    (m_inst_seq, [3]),
    (m_inst_none_seq, [0]),
    (m_inst_none_seq, [2]),
    (animals, [0]),
    (tuple_star, [1]),
    (alt_capture, [1, 5]),
    (alt_capture, [7, 1]),
    (alt_capture, [2, 2]),
    (use_gen, [5]),
    (map_value_pattern, [5]),
    (map_value_pattern, [1]),
    (guard_uses_capture, [3]),
    (match_str_chars, ["hello world"]),
]
