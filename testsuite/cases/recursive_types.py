"""Recursive data: classes whose attributes hold their own instances,
containers whose items hold containers of their own type (directly, through
tuples, or through a cycle of list and dict types; prebuilt ones too), and
runaway recursion of the program."""


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


def self_dict(n):
    d = {}
    d["me"] = d
    d["other"] = {}
    return len(d["me"]["me"]) + len(d["other"]) + n


def list_of_lists(n):
    a = []
    b = [a]
    a.append(b)
    for i in range(n):
        a.append([])
    return len(a) + len(a[0][0])


def make_dict_tree(depth):
    node = {}
    if depth > 0:
        node["left"] = make_dict_tree(depth - 1)
        node["right"] = make_dict_tree(depth - 1)
    return node


def count(node):
    c = 1
    for k in node:
        c += count(node[k])
    return c


def dict_tree(n):
    return count(make_dict_tree(n))


def nested_list_tree(depth):
    if depth == 0:
        return []
    return [nested_list_tree(depth - 1), nested_list_tree(depth - 1)]


def size(t):
    s = 1
    for c in t:
        s += size(c)
    return s


def list_tree(n):
    return size(nested_list_tree(n))


def via_tuples(n):
    a = []
    a.append((a, 1))
    a.append((a, n))
    total = 0
    for pair in a:
        total += pair[1] + len(pair[0])
    return total


def list_dict_cycle(n):
    d = {}
    l = [d]
    d["l"] = l
    d["m"] = [{}]
    return len(d["l"][0]["l"]) + len(d["m"]) + n


PRE = {"name": {}, "kids": {}}
PRE["kids"]["a"] = PRE
PRE["kids"]["b"] = {}


def prebuilt(n):
    return len(PRE["kids"]["a"]["kids"]) + n


def list_equality(n):
    a = [[], []]
    b = [[], []]
    c = [[[]]]
    return (a == b, a == c, a[0] == b[1])


def keys_sorted(n):
    d = {}
    d["x"] = d
    d["y"] = {}
    ks = []
    for k in d:
        ks.append(k)
    return ks


def finite_depth(n):
    if n == 0:
        return 0
    return finite_depth(n - 1) + 1


class Shape:
    def depth(self, n):
        return 0


class Circle(Shape):
    def depth(self, n):
        if n == 0:
            return 1
        return pick_shape(n).depth(n - 1) + 1


class Square(Shape):
    def depth(self, n):
        if n == 0:
            return 2
        return pick_shape(n).depth(n - 1) + 2


def pick_shape(n):
    if n % 2:
        return Circle()
    return Square()


def method_depth(n):
    return pick_shape(n).depth(n)


CASES = [
    (tree, [0]),
    (tree, [3]),
    (linked, [5]),
    (runaway, [1]),
    (finite_depth, [500]),
    (finite_depth, [5000]),
    (method_depth, [700]),
    (method_depth, [3000]),
    (catch_runaway, [1]),
    (catch_mutual, [3]),
    (self_dict, [1]),
    (list_of_lists, [2]),
    (dict_tree, [3]),
    (list_tree, [3]),
    (via_tuples, [5]),
    (list_dict_cycle, [1]),
    (prebuilt, [2]),
    (list_equality, [0]),
    (keys_sorted, [0]),
]
