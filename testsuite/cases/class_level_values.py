"""Class attributes read through a class known at run time only
(`type(self).LIMIT`, `self.__class__.DEFAULT`) whose subclasses give other
values (ints, strs, prebuilt instances); a subclass of list or dict that
adds nothing (`class OrderedCollection(list): pass`) is that type."""


class Level:
    def __init__(self, n, name):
        self.n = n
        self.name = name


class Base:
    LIMIT = 10
    LABEL = "base"
    DEFAULT = None

    def describe(self):
        k = type(self)
        return "%s:%d:%s" % (k.LABEL, k.LIMIT, self.__class__.DEFAULT.name)


class Small(Base):
    LIMIT = 3
    LABEL = "small"


class Tiny(Small):
    LABEL = "tiny"


class Large(Base):
    LIMIT = 1000


Base.DEFAULT = Level(1, "one")
Small.DEFAULT = Level(2, "two")
Large.DEFAULT = Level(3, "three")


def describe_all(k):
    objs = [Base(), Small(), Tiny(), Large()]
    out = [o.describe() for o in objs]
    out.append(objs[k % 4].__class__.DEFAULT.name)
    return out


class OrderedCollection(list):
    pass


class Registry(dict):
    pass


def collections(n):
    c = OrderedCollection()
    for i in range(n):
        c.append(i * i)
    r = Registry()
    r["a"] = len(c)
    more = OrderedCollection([7, 8])
    return [sum(c), r["a"], len(more), c[-1] if c else -1]


CASES = [
    (describe_all, [0]),
    (describe_all, [3]),
    (collections, [4]),
    (collections, [0]),
]
