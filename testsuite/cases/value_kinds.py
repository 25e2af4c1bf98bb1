"""A function called with values of kinds that never unite (bytes here and
a list of ints there, a str here and a list there, a dict and a set) gets
a graph for each kind, as a hash function's `update(data)` is called with
both bytes and a list of byte values; None still shares the graph of a
list (a value that may be None)."""


def total(data):
    s = 0
    for b in data:
        s = (s * 31 + b) & 0xFFFF
    return s


def describe(x):
    return "%d items" % len(x)


def first_key(x):
    for k in x:
        return k
    return ""


class Node:
    def __init__(self, level, children):
        # (children is None for the leaves, which the level tells apart)
        if level == 0:
            self.total = 1
        else:
            a, b = children
            self.total = a.total + b.total
        self.children = children


def maybe_none(n):
    leaf = Node(0, None)
    node = Node(1, [leaf, Node(0, None)])
    return node.total + n


def kinds(n):
    out = []
    out.append(total(b"abc" * n))
    out.append(total([97, 98, 99] * n))
    out.append(total(bytearray(b"xy")))
    return out


def texts(n):
    return [describe("abc" * n), describe([1, 2] * n), describe({"a": 1}),
            describe({1, 2, 3}), describe(b"zz"),
            first_key({"k%d" % n: 1}), first_key({"s"}), first_key(["l"])]


CASES = [
    (maybe_none, [1]),
    (kinds, [2]),
    (texts, [3]),
]
