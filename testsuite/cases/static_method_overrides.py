"""Static methods that subclasses override, called through an instance
known as the base class: each instance calls its own class's function
(as a class attribute read through the instance, its class's default),
also without arguments and from a method."""


class Shape:
    @staticmethod
    def sides():
        return 0

    @staticmethod
    def combine(x, y):
        return x * y

    def describe(self):
        return "%d sides, %d" % (self.sides(), self.combine(2, 3))


class Triangle(Shape):
    @staticmethod
    def sides():
        return 3


class Square(Shape):
    @staticmethod
    def sides():
        return 4

    @staticmethod
    def combine(x, y):
        return x + y


def pick(i):
    if i == 0:
        return Shape()
    if i == 1:
        return Triangle()
    return Square()


def calls(n):
    out = []
    for i in range(n):
        s = pick(i % 3)
        out.append(s.sides() * 10 + s.combine(i, 2))
    return out


def methods(n):
    return [pick(i).describe() for i in range(n)]


CASES = [
    (calls, [6]),
    (methods, [3]),
]
