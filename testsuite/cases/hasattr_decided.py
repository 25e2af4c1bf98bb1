"""`hasattr()` decided when translating: methods and class attributes of
every class an instance can be (duck typing over unrelated classes), an
attribute no class has (constants), a test of the instance's class when
only some of its classes have the attribute, and attributes of modules
and classes."""

import math


class Duck:
    sound = "quack"

    def speak(self):
        return self.sound


class Robot:
    def __init__(self, n):
        self.n = n

    def beep(self):
        return "beep" * self.n


class Mallard(Duck):
    pass


def make(n):
    if n > 0:
        return Duck()
    return Robot(2)


def talk(n):
    x = make(n)
    if isinstance(x, Duck) and hasattr(x, "speak"):
        return x.speak()
    if isinstance(x, Robot) and hasattr(x, "beep"):
        return x.beep()
    return "?"


def class_attrs(n):
    d = Mallard() if n else Duck()
    return (hasattr(d, "sound"), hasattr(d, "speak"), hasattr(d, "fly"), hasattr(d, "__init__"))


def constants(n):
    return (hasattr(math, "pi"), hasattr(math, "nope"), hasattr(Duck, "speak"), hasattr(Robot, "sound"))


def duck_typed(n):
    out = []
    for x in [make(n), make(-n), Mallard()]:
        if hasattr(x, "speak"):
            out.append(x.speak())
        elif hasattr(x, "beep"):
            out.append(x.beep())
    return out


CASES = [
    (duck_typed, [1]),
    (talk, [1]),
    (talk, [0]),
    (class_attrs, [1]),
    (class_attrs, [0]),
    (constants, [0]),
]
