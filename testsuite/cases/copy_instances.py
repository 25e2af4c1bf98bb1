"""`copy.copy` and `copy.deepcopy` of instances of the program's classes
(a new instance of the run-time class, its `__init__` not called), deep
copies of trees of instances, lists and dicts inside instances and tuples,
and a deep copy reaching one object twice (refused at run time, where
CPython would share the copy)."""
import copy


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def show(self):
        return "Vec(%d, %d)" % (self.x, self.y)


class Vec3(Vec):
    def __init__(self, x, y, z):
        Vec.__init__(self, x, y)
        self.z = z

    def show(self):
        return "Vec3(%d, %d, %d)" % (self.x, self.y, self.z)


class Node:
    def __init__(self, name):
        self.name = name
        self.children = []
        self.weights = {}
        self.pos = (1, [2, 3])
        self.parent_name = None

    def count(self):
        n = 1
        for c in self.children:
            n += c.count()
        return n


class Counter:
    def __init__(self):
        self.calls = 0
        self.log = []

    def hit(self, s):
        self.calls += 1
        self.log.append(s)


def shallow(n):
    a = Vec(1, n)
    b = copy.copy(a)
    b.x = 10
    vs = [Vec(5, 6), Vec3(1, 2, 3)]
    cs = [copy.copy(v) for v in vs]
    cs[1].z = 99
    cs[0].y = -1
    out = [a.show(), b.show()]
    for v in vs + cs:
        out.append(v.show())
    # the copy shares what the fields point to
    k = Counter()
    k.hit("a")
    k2 = copy.copy(k)
    k2.hit("b")
    out.append("%d %d %s %s" % (k.calls, k2.calls, k.log, k2.log))
    out.append(str(isinstance(cs[1], Vec3)))
    return out


def deep(n):
    root = Node("root")
    for i in range(n):
        c = Node("c%d" % i)
        c.children.append(Node("leaf"))
        c.weights["w"] = i
        c.parent_name = "root"
        root.children.append(c)
    d = copy.deepcopy(root)
    d.children[0].name = "changed"
    d.children[0].children.append(Node("x"))
    d.children[0].weights["w"] = 100
    d.pos[1].append(4)
    return [root.children[0].name, d.children[0].name, str(root.count()), str(d.count()),
            str(root.children[0].weights), str(d.children[0].weights),
            str(root.pos), str(d.pos), str(d.children[-1].parent_name)]


def deep_counter(n):
    k = Counter()
    for i in range(n):
        k.hit("x%d" % i)
    k2 = copy.deepcopy(k)
    k2.hit("y")
    tup = (k, [k.calls], "s")
    tup2 = copy.deepcopy(tup)
    tup2[0].hit("z")
    tup2[1].append(7)
    return [str(k.calls), str(k2.calls), str(k.log), str(k2.log),
            str(tup[1]), str(tup2[1]), str(tup2[0].log)]


class Tree:
    def __init__(self, value, parent):
        self.value = value
        self.parent = parent
        self.kids = None
        self.label = None

    def add(self, value):
        if self.kids is None:
            self.kids = []
        t = Tree(value, None)
        self.kids.append(t)
        return t


def maybe_none(n):
    root = Tree(0, None)
    for i in range(n):
        k = root.add(i)
        k.label = "k%d" % i
    c = copy.deepcopy(root)
    c.kids[0].value = 42
    s = copy.copy(root)
    return [str(root.kids[0].value), str(c.kids[0].value), str(c.kids[-1].label),
            str(c.parent is None), str(s.kids is root.kids), str(c.kids is root.kids)]


CASES = [
    (shallow, [3]),
    (deep, [3]),
    (deep, [0]),
    (deep_counter, [2]),
    (maybe_none, [3]),
]
