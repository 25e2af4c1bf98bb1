"""The `__name__` of a class known only at run time: `type(x).__name__`,
`self.__class__.__name__` in a base class's method, the class of a caught
exception."""


class Shape:
    def __init__(self, n):
        self.n = n

    def describe(self):
        return "%s(%d)" % (self.__class__.__name__, self.n)


class Square(Shape):
    pass


class Rect(Shape):
    pass


class Cube(Square):
    pass


def make(k, n):
    if k == 0:
        return Shape(n)
    if k == 1:
        return Square(n)
    if k == 2:
        return Rect(n)
    return Cube(n)


def describe(k, n):
    s = make(k, n)
    return s.describe() + " " + type(s).__name__ + " " + Shape.__name__


def names(n):
    return [type(make(k % 4, k)).__name__ for k in range(n)]


class AppError(Exception):
    pass


def error_name(k):
    try:
        if k == 0:
            raise AppError("x")
        if k == 1:
            return str([1][k])
        if k == 2:
            return str({0: 1}[k])
        return str(10 // (k - 3))
    except Exception as e:
        return type(e).__name__


CASES = [
    (describe, [0, 1]),
    (describe, [1, 2]),
    (describe, [2, 3]),
    (describe, [3, 4]),
    (names, [6]),
    (error_name, [0]),
    (error_name, [1]),
    (error_name, [2]),
    (error_name, [3]),
]
