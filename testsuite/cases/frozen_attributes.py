"""Attributes of frozen prebuilt objects (`_freeze_`) of every kind:
strs read by their methods, instances (also pointing back to instances
whose class holds the frozen object), frozen objects as class attributes
read through instances, and several frozen objects in one variable."""


class Config:
    def _freeze_(self):
        return True

    def label(self, x):
        return self.prefix + x


plain = Config()
plain.prefix = "cfg:"


class Node:
    def __init__(self, v):
        self.v = v


class Holder:
    def _freeze_(self):
        return True


h1 = Holder()
h1.node = Node(3)
h1.name = "one"
h2 = Holder()
h2.node = Node(4)
h2.name = "two"


class Base:
    def total(self):
        return self.d.node.v + self.w


class Left(Base):
    w = 10


class Right(Base):
    w = 20


Left.d = h1
Right.d = h2
h1.back = Left()


def strs(n):
    return plain.label("x" * n)


def nodes(n):
    h = h1 if n > 0 else h2
    return (h.name, h.node.v, h1.back.total())


def through_instances(n):
    objs = [Left(), Right()]
    return [o.total() + n for o in objs]


CASES = [
    (strs, [2]),
    (nodes, [1]),
    (nodes, [0]),
    (through_instances, [1]),
]
