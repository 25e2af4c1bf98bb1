"""An int that meets a float becomes a float (as in RPython), and classes
with __slots__."""


class V(object):
    def __init__(self, x, y):
        self.x = x
        self.y = y


def int_meets_float(n):
    a = V(0, 0)
    b = V(1.5, n * 0.5)
    s = 0
    for i in range(n):
        s += 0.25
    lst = [0.0] * 3
    lst[1] = 2
    return a.x + b.y + s + lst[1]


def mixed_list(n):
    values = [1, 2.5, n]
    total = 0.0
    for v in values:
        total += v
    return total


class P(object):
    __slots__ = ('x', 'y')

    def __init__(self, x, y):
        self.x = x
        self.y = y


class Q(P):
    __slots__ = ['z']

    def __init__(self, x, y, z):
        P.__init__(self, x, y)
        self.z = z


def slots(n):
    p = P(n, 2)
    q = Q(1, 2, n)
    p.x += q.z
    return p.x + p.y + q.x


CASES = [
    (int_meets_float, [5]),
    (int_meets_float, [0]),
    (mixed_list, [3]),
    (slots, [5]),
]
