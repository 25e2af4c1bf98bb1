"""Class attributes the program assigns through the class: counters kept on
the class, configuration set at start-up, `C.x += 1`, a subclass reading
the attribute it inherits, a module's class reached through the module."""


class Config:
    size = 3
    name = "default"
    ratio = 0.5


class Node:
    count = 0
    created = []

    def __init__(self, label):
        Node.count += 1
        self.id = Node.count
        Node.created.append(label)


class Leaf(Node):
    pass


class Other:
    total = 10


def configure(n):
    Config.size = n
    Config.name = "n=%d" % n
    Config.ratio = Config.ratio * 2
    return (Config.size, Config.name, Config.ratio)


def nodes(n):
    before = Node.count
    for i in range(n):
        Node("x%d" % i)
    Leaf("leaf")
    return (Node.count - before, Leaf.count - before, Node.created[-1], len(Node.created) > n)


def shadow(n):
    Other.total -= n
    Other.total = Other.total * 2
    return Other.total


CASES = [
    (configure, [4]),
    (nodes, [3]),
    (shadow, [1]),
]

