"""enum.Enum: members with name and value (also auto() and tuple values set
by the Enum's __init__), methods, str/repr/hash, identity and ==, lookup
by value (ValueError), iteration over the class, dict keys and match
(rpy3.stdlib.enums)."""
from enum import Enum, auto


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

    def describe(self):
        return self.name.lower() + "=" + str(self.value)


class Suit(Enum):
    HEARTS = auto()
    SPADES = auto()


class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius

    def gravity(self):
        return 6.673e-11 * self.mass / (self.radius * self.radius)


def basics(n):
    c = Color.RED if n else Color.GREEN
    return (c.value, c.name, str(c), repr(c), c.describe(), c is Color.RED, c == Color.GREEN, isinstance(c, Color))


def lookups(n):
    try:
        bad = Color(n + 10).name
    except ValueError as e:
        bad = str(e)
    return (Color(n).name, bad, [c.name for c in Color], len([s for s in Suit]), Suit.SPADES.value)


def planets(n):
    out = []
    for p in Planet:
        out.append("%s %.2f" % (p.name, p.gravity()))
    return out


def as_keys(n):
    d = {Color.RED: "r", Color.BLUE: "b"}
    c = Color(n)
    return (d.get(c, "?"), hash(c) == hash(c.name))


def matching(n):
    c = Color(n)
    match c:
        case Color.RED:
            return "red"
        case Color.GREEN | Color.BLUE:
            return "other"
    return "none"


CASES = [
    (basics, [1]), (basics, [0]),
    (lookups, [2]), (lookups, [3]),
    (planets, [0]),
    (as_keys, [1]), (as_keys, [2]),
    (matching, [1]), (matching, [3]),
]
