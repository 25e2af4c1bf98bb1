"""`specialize.memo()` functions computed when translating for every value
their arguments can have: a frozen object together with a bool, and the
class of an instance (`x.__class__`)."""
from rpy3.rlib.objectmodel import specialize


class Space:
    def __init__(self, weight):
        self.weight = weight

    def _freeze_(self):
        return True


small = Space(3)
large = Space(7)


@specialize.memo()
def cost(space, doubled):
    r = space.weight * 10
    if doubled:
        r *= 2
    return r


class Animal:
    pass


class Dog(Animal):
    pass


class Cat(Animal):
    pass


@specialize.memo()
def label(cls):
    return cls.__name__.lower() + "!"


def costs(i):
    sp = small if i > 0 else large
    return cost(sp, i % 2 == 0) + cost(large, True)


def labels(i):
    pets = [Animal(), Dog(), Cat()]
    x = pets[i % 3]
    return label(x.__class__)


CASES = [
    (costs, [0]),
    (costs, [1]),
    (costs, [2]),
    (costs, [-3]),
    (labels, [0]),
    (labels, [1]),
    (labels, [2]),
]
