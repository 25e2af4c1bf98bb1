"""Nested helper functions as real programs write them: a nested function
that calls itself (a depth-first search over a captured graph), nested
functions called from comprehensions and lambdas (Python 3 makes those
closures too), a nested helper calling another, and a recursive nested
generator."""


def count_nodes(n):
    seen = []

    def visit(k):
        seen.append(k)
        if k > 0:
            visit(k - 1)

    visit(n)
    return len(seen)


def components(n):
    edges = {}
    for i in range(n):
        edges[i] = []
    for i in range(0, n - 1, 3):
        edges[i].append(i + 1)
        edges[i + 1].append(i)
    comp = {}

    def dfs(v, label):
        comp[v] = label
        for w in edges[v]:
            if w not in comp:
                dfs(w, label)

    count = 0
    for v in range(n):
        if v not in comp:
            dfs(v, count)
            count += 1
    return (count, [comp[v] for v in range(n)])


def table(n):
    def cell(i, j):
        return i * n + j

    return [[cell(i, j) for j in range(n)] for i in range(n)]


def rank(n):
    weights = [3, 1, 2, 5, 4][:n]

    def score(i):
        return weights[i] * 10 - i

    return sorted(range(len(weights)), key=lambda i: score(i))


def helpers(n):
    out = []

    def emit(s):
        out.append(s)

    def walk(k, depth):
        emit("%s%d" % ("  " * depth, k))
        if k > 1:
            walk(k // 2, depth + 1)
            walk(k - 1 - k // 2, depth + 1)

    walk(n, 0)
    return out


def tree_paths(n):
    children = {0: [1, 2], 1: [3], 2: [], 3: []}

    def paths(node, prefix):
        here = prefix + [node]
        yield here
        for c in children.get(node, []):
            yield from paths(c, here)

    return [p for p in paths(0, []) if len(p) <= n]


def fib_memo(n):
    memo = {}

    def fib(k):
        if k < 2:
            return k
        if k in memo:
            return memo[k]
        r = fib(k - 1) + fib(k - 2)
        memo[k] = r
        return r

    return fib(n)


CASES = [
    (count_nodes, [5]),
    (components, [10]),
    (table, [3]),
    (rank, [5]),
    (helpers, [6]),
    (tree_paths, [3]),
    (fib_memo, [50]),
]
