"""Classmethods reached through one of several classes: through an
instance whose class is one of a family (bound to the instance's class),
and through a variable holding one of several classes whose classmethods
are different functions (with different defaults)."""


class Util:
    factor = 3

    @classmethod
    def fac(cls):
        return cls.factor

    @classmethod
    def scaled(cls, x, by=1):
        return cls.factor * x * by


class SubUtil(Util):
    factor = 7


def through_instance(n):
    b = SubUtil() if n else Util()
    return (b.fac(), b.scaled(2), b.scaled(2, by=3))


class C:
    @classmethod
    def make(cls, v=1):
        return v


class C2(C):
    @classmethod
    def make(cls, v=9):
        return v * 2


def through_class_variable(n):
    cls = C2 if n else C
    return (cls.make(), cls.make(5), cls.make(v=4))


CASES = [
    (through_instance, [1]),
    (through_instance, [0]),
    (through_class_variable, [1]),
    (through_class_variable, [0]),
]
