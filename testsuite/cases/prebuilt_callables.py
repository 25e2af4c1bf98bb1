"""Callables and classes held in variables and globals: a class chosen at
run time read for its class attributes and instantiated, an unbound method
read through it, a bound method of a prebuilt instance kept in a global,
and a prebuilt dict's bound `get`."""


class Shape:
    sides = 0

    def area(self):
        return 0


class Tri(Shape):
    sides = 3


class Quad(Shape):
    sides = 4

    def area(self):
        return 16


class Other:
    sides = 9


def pick(i):
    return Tri if i == 0 else Quad


def pick_any(i):
    if i == 2:
        return Other
    return Quad


def classes(i):
    K = pick(i)
    o = K()
    return K.sides * 10 + o.sides + pick_any(i).sides


class Greeter:
    def __init__(self, name):
        self.name = name

    def hello(self):
        return "hello " + self.name


G = Greeter("world")
SAY = G.hello
TABLE = {1: 2, 3: 4}
LOOKUP = TABLE.get


def prebuilt_methods(n):
    return (SAY(), LOOKUP(n, -1), LOOKUP(1, 0))


CASES = [
    (classes, [0]),
    (classes, [1]),
    (classes, [2]),
    (prebuilt_methods, [3]),
    (prebuilt_methods, [5]),
]
