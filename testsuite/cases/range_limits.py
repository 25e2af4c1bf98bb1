"""range() lists with steps known only at run time, near the integer
limits: indexing (IndexError), iteration, reversed(), len() (OverflowError
past maxint items, as in CPython), `in`, a step of zero (ValueError),
ranges of different steps merged, truth values, ranges passed around, a
range() list passed where sliced lists go (so it is made a real list)."""
from rpy3.rlib.rarithmetic import maxint


def index(a, b, step, i):
    r = range(a, b, step)
    return r[i]


def index_guarded(a, b, step, i):
    try:
        return range(a, b, step)[i]
    except IndexError:
        return -12345


def index_const(n):
    r = range(n)
    return r[0] + r[-1] * 100


def walk(a, b, step):
    total = 0
    count = 0
    last = 0
    for i in range(a, b, step):
        total ^= i
        count += 1
        last = i
    return (total, count, last)


def rev(a, b, step):
    total = 0
    count = 0
    first = 0
    last = 0
    for i in reversed(range(a, b, step)):
        if count == 0:
            first = i
        total ^= i
        count += 1
        last = i
    return (total, count, first, last)


def length(a, b, step):
    return len(range(a, b, step))


def contains(x, a, b, step):
    return x in range(a, b, step)


def zero_step(a, b, step):
    return len(range(a, b, step))


def merged(a, b, flag):
    if flag:
        r = range(a, b, 2)
    else:
        r = range(a, b, 3)
    n = 0
    for i in r:
        n += i
    return (n, len(r), 5 in r)


def merged_var(a, b, s, flag):
    if flag:
        r = range(a, b, s)
    else:
        r = range(a)
    n = 0
    for i in r:
        n = n * 7 + i
    return (n, len(r))


def zero_const(n):
    try:
        return len(range(0, n, 0))
    except ValueError:
        return -1


def index_in_loop(n, s):
    r = range(0, n, s)
    acc = 0
    for k in range(len(r)):
        acc += r[k] * (k + 1) - r[-k - 1]
    return acc


def truth(a, b):
    r = range(a, b)
    if r:
        return 1
    return 0

def helper(r):
    n = 0
    for x in r:
        n += x
    return n + r[-1]

def passing(a, b, s):
    return helper(range(a, b, s))

def twice(n, s):
    r = range(0, n, s)
    a = 0
    for x in r:
        a += x
    for x in reversed(r):
        a = a * 3 + x
    for x in r:
        a -= x
    return a

def bool_args(b):
    return len(range(b, 5))


M = maxint
m = -maxint - 1

class Tree:
    def __init__(self, left, value, right):
        self.left = left
        self.value = value
        self.right = right


def tree(items):
    n = len(items)
    if n == 0:
        return None
    i = n // 2
    return Tree(tree(items[:i]), items[i], tree(items[i + 1:]))


def total(t):
    if t is None:
        return 0
    return total(t.left) + t.value + total(t.right)


def range_as_list(a, b, step):
    # range() meets the sliced lists in tree()'s argument: a list of items
    return total(tree(range(a, b, step)))


CASES = [
    (index, [0, 10, 3, 2]),
    (index, [0, 10, 3, -1]),
    (index, [0, 10, 3, 4]),
    (index, [0, 10, 3, -5]),
    (index, [10, 0, -3, 3]),
    (index, [m, M, 1, -1]),
    (index, [m, M, M, 2]),
    (index, [M, m, m, 1]),
    (index_guarded, [0, 10, 3, 4]),
    (index_guarded, [0, 10, 3, -5]),
    (index_guarded, [0, 10, 3, m]),
    (index_guarded, [0, 10, 3, M]),
    (index_guarded, [m, M, 1, M]),
    (index_guarded, [m, M, 1, M - 1]),
    (index_guarded, [m, M, 1, m]),
    (index_const, [5]),
    (walk, [m, m + 10, 3]),
    (walk, [M - 10, M, 3]),
    (walk, [M, M - 10, -3]),
    (walk, [m + 10, m, -3]),
    (walk, [m, M, M]),
    (walk, [M, m, m]),
    (walk, [0, M, M]),
    (walk, [-1, m, m]),
    (walk, [0, 1, m]),
    (walk, [M, -2, m]),
    (rev, [m, m + 10, 3]),
    (rev, [M - 10, M, 3]),
    (rev, [M, M - 10, -3]),
    (rev, [m + 10, m, -3]),
    (rev, [m, M, M]),
    (rev, [M, m, m]),
    (rev, [M, -2, m]),
    (rev, [m, m + 1, 1]),
    (rev, [M, M - 1, -1]),
    (rev, [0, 5, 1]),
    (rev, [5, 0, -2]),
    (rev, [0, 0, 1]),
    (length, [m, M, 1]),
    (length, [M, m, -1]),
    (length, [m, M, M]),
    (length, [M, m, m]),
    (length, [0, 10, m]),
    (length, [10, 0, m]),
    (contains, [M - 1, m, M, 1]),
    (contains, [m, m, M, 2]),
    (contains, [M - 1, m, M, 3]),
    (contains, [-1, M, m, m]),
    (contains, [M, M, m, m]),
    (contains, [m, M, m, m]),
    (zero_step, [0, 10, 0]),
    (zero_step, [0, 10, 5]),
    (merged, [0, 20, True]),
    (merged, [0, 20, False]),
    (merged_var, [0, 9, 4, True]),
    (merged_var, [3, 9, 4, False]),
    (merged_var, [3, -9, -4, True]),
    (zero_const, [5]),
    (index_in_loop, [20, 3]),
    (truth, [1, 5]),
    (truth, [5, 1]),
    (passing, [1, 20, 4]),
    (passing, [20, 1, -4]),
    (twice, [10, 3]),
    (twice, [10, -3]),
    (bool_args, [True]),
    (range_as_list, [0, 10, 1]),
    (range_as_list, [10, -5, -3]),
    (range_as_list, [0, 0, 1]),
]
