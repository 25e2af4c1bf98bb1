"""A method only subclasses define, called on an instance of the base
class (or of a subclass without it): AttributeError with CPython's
message, never another class's method."""


class Node:
    def __init__(self):
        self.tag = 0


class A(Node):
    def __init__(self):
        Node.__init__(self)
        self.x = 5

    def val(self):
        return self.x

    def scaled(self, k=2):
        return self.x * k


class B(Node):
    def __init__(self):
        Node.__init__(self)
        self.y = 7

    def val(self):
        return self.y

    def scaled(self, k=3, extra=1):
        return self.y * k + extra


class C(B):
    pass


def call_val(k):
    ns = [Node(), A(), B(), C()]
    try:
        return str(ns[k].val())
    except AttributeError as e:
        return "AttributeError: " + str(e)


def call_scaled(k):
    ns = [Node(), A(), B(), C()]
    try:
        return str(ns[k].scaled())
    except AttributeError as e:
        return "AttributeError: " + str(e)


CASES = [
    (call_val, [0]),
    (call_val, [1]),
    (call_val, [2]),
    (call_val, [3]),
    (call_scaled, [0]),
    (call_scaled, [1]),
    (call_scaled, [2]),
    (call_scaled, [3]),
]
