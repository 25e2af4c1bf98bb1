"""functools decorators: @total_ordering (its added comparisons), and
@lru_cache / @cache (a memoizing function of the same parameters, also
on methods and with keyword arguments)."""
import functools
from functools import lru_cache, cache
from functools import total_ordering

@total_ordering
class V:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        return self.x == other.x
    def __lt__(self, other):
        return self.x < other.x

@total_ordering
class W:
    def __init__(self, x):
        self.x = x
    def __gt__(self, other):
        return self.x > other.x

def ordering(n):
    a, b = V(n), V(n + 1)
    c = V(n)
    w1, w2 = W(n), W(2)
    return (a <= b, a >= b, a > b, b > a, a <= c, a >= c, a > c, w1 < w2, w1 <= w2, w1 >= w2, w1 >= W(n), max([V(3), V(n)]).x)

@lru_cache(maxsize=None)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@cache
def paths(r, c):
    if r == 0 or c == 0:
        return 1
    return paths(r - 1, c) + paths(r, c - 1)

@functools.lru_cache(maxsize=128)
def word(s, k=2):
    return s * k

class Grid:
    def __init__(self, n):
        self.n = n

    @lru_cache(maxsize=None)
    def cost(self, i):
        if i <= 0:
            return self.n
        return self.cost(i - 1) + i

calls = [0]

@cache
def counted(x):
    calls[0] += 1
    return x * x

def memoized(n):
    calls[0] = 0
    g = Grid(n)
    a = counted(n) + counted(n) + counted(n + 1)
    return (fib(n), paths(n, n), word("ab"), word("x", k=n), g.cost(n), a, calls[0])


CASES = [
    (ordering, [1]),
    (ordering, [2]),
    (ordering, [5]),
    (memoized, [10]),
    (memoized, [30]),
]
