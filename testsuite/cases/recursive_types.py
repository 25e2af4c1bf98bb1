"""Recursive data: classes whose attributes hold their own instances,
values that hold themselves, and runaway recursion of the program."""


class Node:
    def __init__(self, v):
        self.v = v
        self.children = []
        self.parent = None


def tree(n):
    root = Node(0)
    for i in range(n):
        c = Node(i)
        c.parent = root
        root.children.append(c)
        c.children.append(Node(i * 2))
    s = 0
    for c in root.children:
        s += c.v
        if c.parent is root:
            s += 100
        for d in c.children:
            s += d.v
    return s


class Link:
    def __init__(self, v, nxt):
        self.v = v
        self.nxt = nxt


def linked(n):
    head = None
    for i in range(n):
        head = Link(i, head)
    table = {}
    k = head
    while k is not None:
        table[k.v] = k
        k = k.nxt
    total = 0
    for key in table:
        total += table[key].v
    return total


def runaway(n):
    return runaway(n + 1) + 1


def catch_runaway(n):
    try:
        return runaway(n)
    except RecursionError:
        return -1


def mutual_a(n):
    return mutual_b(n) + 1


def mutual_b(n):
    return mutual_a(n - 1) + 1


def catch_mutual(n):
    try:
        return mutual_a(n)
    except RecursionError:
        return -2


CASES = [
    (tree, [0]),
    (tree, [3]),
    (linked, [5]),
    (runaway, [1]),
    (catch_runaway, [1]),
    (catch_mutual, [3]),
]
