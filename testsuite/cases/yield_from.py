"""`yield from`: a generator delegating to another generator (whose return
value becomes the value of the expression), to lists, ranges, strings,
tuples and dict keys, in chains, loops and recursion."""


def count_up(n):
    for i in range(n):
        yield i
    return n * 10


def no_return(n):
    for i in range(n):
        yield i + 100


def delegate(n):
    total = yield from count_up(n)
    yield total
    yield from [7, 8]
    yield from range(n, n + 2)


def collect(n):
    out = []
    for x in delegate(n):
        out.append(x)
    return out


def implicit_none(n):
    r = yield from no_return(n)
    if r is None:
        yield -1
    else:
        yield -2


def collect_none(n):
    return [x for x in implicit_none(n)]


def middle(n):
    a = yield from count_up(n)
    b = yield from count_up(n + 1)
    return a + b


def outer(n):
    s = yield from middle(n)
    yield s


def chain(n):
    total = 0
    for x in outer(n):
        total += x
    return total


def letters(s):
    yield from s
    yield from ("x", "y")


def collect_letters(s):
    return "".join([c for c in letters(s)])


def keys_of(n):
    d = {}
    for i in range(n):
        d[i * 3] = i
    yield from d


def sum_keys(n):
    s = 0
    for k in keys_of(n):
        s += k
    return s


class Node:
    def __init__(self, v):
        self.v = v
        self.children = []


def walk(node):
    yield node.v
    for c in node.children:
        yield from walk(c)


def tree_values(n):
    root = Node(0)
    for i in range(1, n):
        child = Node(i)
        root.children.append(child)
        for j in range(i):
            child.children.append(Node(i * 10 + j))
    return [v for v in walk(root)]


def flatten(depth, width):
    if depth == 0:
        yield 1
        return depth
    for i in range(width):
        yield from flatten(depth - 1, width)
    return depth


def count_leaves(depth):
    n = 0
    for x in flatten(depth, 2):
        n += x
    return n


def in_loop(n):
    for i in range(n):
        got = yield from count_up(i)
        yield got + 1000


def collect_in_loop(n):
    return list(in_loop(n))


def stop_early(n):
    it = delegate(n)
    first = next(it)
    second = next(it)
    return first * 10 + second


def gen_expr_delegate(n):
    yield from (i * i for i in range(n))


def use_ge(n):
    return list(gen_expr_delegate(n))


def inner(n):
    try:
        for i in range(n):
            yield i
    finally:
        pass
    return -n


def with_try(n):
    try:
        r = yield from inner(n)
    except ValueError:
        r = 0
    yield r


def use_try(n):
    return [x for x in with_try(n)]


def raising(n):
    yield 1
    if n > 0:
        raise ValueError
    yield 2


def catch_delegate(n):
    try:
        yield from raising(n)
    except ValueError:
        yield -1


def use_catch(n):
    return list(catch_delegate(n))


def strs(n):
    yield from "ab" * n
    r = yield from words()
    yield r


def words():
    yield "x"
    return "done"


def use_strs(n):
    return "".join([s for s in strs(n)])


def tuple_delegate(n):
    yield from (n, n + 1, n + 2)


def use_tuple(n):
    return sum(tuple_delegate(n))


def zip_use(n):
    out = []
    for a, b in zip(tuple_delegate(n), gen_expr_delegate(3)):
        out.append(a * b)
    return out


def small_gen(n):
    for i in range(n):
        yield i


def tens(n):
    yield n * 10


def delegate_either(n):
    if n > 2:
        yield from small_gen(n)
    else:
        yield from tens(n)


def use_either(n):
    return list(delegate_either(n))


def consumers(n):
    return (list(small_gen(n)), sum(small_gen(n)), max(small_gen(n)),
            sorted(small_gen(n)), any(small_gen(n)), all(small_gen(n)))


def join_delegated(n):
    return ",".join(str(i) for i in delegate_either(n))


CASES = [
    (collect, [0]),
    (collect, [3]),
    (collect_none, [2]),
    (chain, [3]),
    (collect_letters, ["ab"]),
    (collect_letters, [""]),
    (sum_keys, [4]),
    (tree_values, [4]),
    (count_leaves, [3]),
    (collect_in_loop, [3]),
    (stop_early, [5]),
    (use_ge, [4]),
    (use_try, [3]),
    (use_catch, [0]),
    (use_catch, [1]),
    (use_strs, [2]),
    (use_tuple, [5]),
    (zip_use, [1]),
    (use_either, [3]),
    (use_either, [1]),
    (consumers, [4]),
    (join_delegated, [4]),
    (join_delegated, [0]),
]
