"""Built-ins at their edges: sum() of lists with a list start (CPython's
`start + x1 + x2 ...`, the start itself when there is nothing to add),
min()/max() of an empty literal with a default."""


def sums(n):
    parts = [[i] * i for i in range(n)]
    start = [-1]
    total = sum(parts, start)
    same = sum([], start) is start
    return (total, same, sum([[1], [2, 3]], []))


def defaults(n):
    return (min([], default=-1), max([], default=n), min([n, 2], default=0))


CASES = [
    (sums, [4]),
    (sums, [0]),
    (defaults, [5]),
]
