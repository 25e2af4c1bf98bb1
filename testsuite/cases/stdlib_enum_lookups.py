"""Enum members looked up by name (`Color[name]`, KeyError for an unknown
name) and prebuilt dicts keyed by Enum members (their hash is the hash of
the member's name, as the stand-in class computes it at run time)."""

from enum import Enum


class Dir(Enum):
    NORTH = 1
    EAST = 2
    SOUTH = 3
    WEST = 4

    def turn_right(self):
        return TURN_RIGHT[self]


TURN_RIGHT = {Dir.NORTH: Dir.EAST, Dir.EAST: Dir.SOUTH, Dir.SOUTH: Dir.WEST, Dir.WEST: Dir.NORTH}
OPPOSITE = {Dir.NORTH: Dir.SOUTH, Dir.SOUTH: Dir.NORTH, Dir.EAST: Dir.WEST, Dir.WEST: Dir.EAST}
DELTAS = {Dir.NORTH: (0, -1), Dir.EAST: (1, 0), Dir.SOUTH: (0, 1), Dir.WEST: (-1, 0)}


def by_name(word):
    d = Dir[word.upper()]
    return (d.name, d.value)


def by_name_missing(word):
    try:
        return Dir[word].value
    except KeyError as e:
        return -len(str(e))


def opposite(k):
    d = Dir(k)
    return OPPOSITE[d].name


def walk(steps):
    x, y = 0, 0
    d = Dir.NORTH
    for s in steps:
        if s == "R":
            d = d.turn_right()
        else:
            dx, dy = DELTAS[d]
            x += dx
            y += dy
    return (x, y, d.name)


def dict_ops(k):
    d = dict(OPPOSITE)
    d[Dir.NORTH] = Dir.NORTH
    del d[Dir.WEST]
    return (len(d), Dir(k) in d, d.get(Dir.EAST, Dir.NORTH).name, [m.name for m in d])


CASES = [
    (by_name, ["north"]),
    (by_name, ["West"]),
    (by_name_missing, ["UP"]),
    (opposite, [1]),
    (opposite, [4]),
    (walk, ["FFRFFRF"]),
    (dict_ops, [4]),
    (dict_ops, [2]),
]
