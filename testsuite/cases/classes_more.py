"""The class of an instance as a value (`x.__class__`), `id()`."""


class Box(object):
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


class IntBox(Box):
    def kind(self):
        return "int"


class FloatBox(Box):
    def kind(self):
        return "float"


def make(n):
    if n % 2 == 0:
        return IntBox(n)
    return FloatBox(n)


def class_compare(n):
    a = make(n)
    b = make(n + 1)
    c = make(n + 2)
    return (a.__class__ is b.__class__, a.__class__ is c.__class__,
            a.__class__ == c.__class__, a.__class__ is IntBox,
            type(a) is a.__class__)


def class_call(n):
    a = make(n)
    b = a.__class__(n * 10)
    return b.kind() + str(b.get())


def class_narrowing(n):
    a = make(n)
    if a.__class__ is IntBox:
        return a.kind() + "!"
    return a.kind()


def class_name_via_dict(n):
    names = {IntBox: "IntBox", FloatBox: "FloatBox"}
    return names[make(n).__class__]


def ids_of_instances(n):
    a = Box(n)
    b = Box(n)
    c = a
    return (id(a) == id(b), id(a) == id(c), id(b) == id(b), id(a) != id(b))


def ids_of_lists(n):
    a = [n]
    b = [n]
    c = a
    d = {}
    for x in (a, b, c):
        d[id(x)] = len(d)
    return (id(a) == id(b), id(a) == id(c), len(d))


CASES = [
    (class_compare, [2]),
    (class_compare, [3]),
    (class_call, [4]),
    (class_call, [5]),
    (class_narrowing, [6]),
    (class_narrowing, [7]),
    (class_name_via_dict, [1]),
    (class_name_via_dict, [2]),
    (ids_of_instances, [1]),
    (ids_of_lists, [1]),
]
