"""Tuples indexed with a variable index, tuples whose items generalise to
one type, tuples that may be None."""


DIRS = ((1, 0), (0, 1), (-1, 0), (0, -1))
NAMES = ("north", "east", "south", "west")


def tuple_var_index(i):
    t = (10, 20, 30, 40)
    return t[i % 4] + t[-1 - i % 4]


def tuple_var_index_out_of_range(i):
    t = (1, 2, 3)
    try:
        return t[i]
    except IndexError:
        return -1


def tuple_var_index_raises(i):
    t = (1, 2, 3)
    return t[i]


def tuple_of_tuples_index(i):
    dx, dy = DIRS[i % 4]
    return dx * 10 + dy


def tuple_names_index(i):
    return NAMES[i % len(NAMES)] + "!"


def tuple_mixed_signs(i):
    t = (1, -2, 3)
    return t[i % 3] * 2


class Shape(object):
    def area(self):
        return 0


class Square(Shape):
    def __init__(self, s):
        self.s = s

    def area(self):
        return self.s * self.s


class Rect(Shape):
    def __init__(self, w, h):
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h


def tuple_instances_index(i):
    t = (Square(3), Rect(2, 5))
    return t[i % 2].area()


def tuple_chars_and_strs(n):
    # a char meets a str: the items are strs
    rows = (("a", "bc", "d"), ("e", "f", "gh"), ("xy", "z", "w"))
    out = []
    for a, b, c in rows:
        out.append(a + b * n + c)
    return "|".join(out)


def tuple_chars_index(i):
    t = ("x", "yy", "z")
    return t[i % 3] * 2


def tuple_nested_var_index(i):
    t = ((1, "a"), (2, "bc"))
    k, s = t[i % 2]
    return s * k


def find_pair(n):
    if n > 3:
        return None
    return (n * 1.5, [n, n + 1])


def tuple_or_none(n):
    r = find_pair(n)
    if r is None:
        return -1.0
    f, lst = r
    return f + len(lst) + lst[0]


def tuple_or_none_not(n):
    total = 0.0
    for i in range(n):
        r = find_pair(i)
        if r is not None:
            total += r[0]
        else:
            total -= 1
    return total


def tuple_or_none_truth(n):
    r = find_pair(n)
    if r:
        return r[1][-1]
    return 0


def maybe_point(n):
    p = None
    if n % 2 == 0:
        p = (n, n * 2)
    return p


def tuple_or_none_var(n):
    p = maybe_point(n)
    out = []
    while p is not None:
        x, y = p
        out.append(x + y)
        n += 1
        p = maybe_point(n + 1)
    return out


class Node(object):
    def __init__(self, i):
        self.i = i

    def __lt__(self, other):
        return self.i < other.i


def tuple_order_with_instances(n):
    a = Node(n)
    b = Node(2)
    x = (1.0, a)
    y = (1.0, b)
    z = (0.5, b)
    heap = [x, y, z]
    best = heap[0]
    for t in heap:
        if t < best:
            best = t
    return (x < y, y < x, z < x, x <= z, x == x, x == y, best[1].i)


def list_of_dicts(n):
    dists = [{}, {}]
    seen = [{n: 0.5}, {n + 1: 1.5}]
    dists[0][n] = 2.5
    seen[1][n] = 3.5
    return len(dists[0]) + len(dists[1]) * 10 + len(seen[1]) * 100


def first_big(n):
    lst = [n, n + 1, n + 2]
    while lst:
        x = lst.pop()
        if x > 100:
            return (fd, [x])
        if x > 2:
            fd = x * 1.5
    return None


def loop_local_assigned_later(n):
    r = first_big(n)
    if r is None:
        return -1.0
    f, l = r
    return f + l[0]


CASES = [
    (tuple_order_with_instances, [1]),
    (tuple_order_with_instances, [3]),
    (list_of_dicts, [4]),
    (loop_local_assigned_later, [3]),
    (loop_local_assigned_later, [99]),
    (loop_local_assigned_later, [300]),
    (tuple_var_index, [0]),
    (tuple_var_index, [3]),
    (tuple_var_index, [6]),
    (tuple_var_index_out_of_range, [1]),
    (tuple_var_index_out_of_range, [3]),
    (tuple_var_index_out_of_range, [-3]),
    (tuple_var_index_out_of_range, [-4]),
    (tuple_var_index_raises, [5]),
    (tuple_var_index_raises, [-1]),
    (tuple_of_tuples_index, [1]),
    (tuple_of_tuples_index, [2]),
    (tuple_names_index, [5]),
    (tuple_mixed_signs, [1]),
    (tuple_mixed_signs, [2]),
    (tuple_instances_index, [0]),
    (tuple_instances_index, [1]),
    (tuple_chars_and_strs, [2]),
    (tuple_chars_index, [0]),
    (tuple_chars_index, [1]),
    (tuple_nested_var_index, [0]),
    (tuple_nested_var_index, [1]),
    (tuple_or_none, [2]),
    (tuple_or_none, [5]),
    (tuple_or_none_not, [6]),
    (tuple_or_none_truth, [1]),
    (tuple_or_none_truth, [7]),
    (tuple_or_none_var, [2]),
    (tuple_or_none_var, [3]),
]
