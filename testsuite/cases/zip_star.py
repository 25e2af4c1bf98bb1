"""`zip(*seqs)` where the number of sequences is known at run time only:
transposing a matrix, unzipping pairs; the tuples have that many items.
Unpacking any iterable (`a, b = map(int, line.split())`, a generator, a
dict), ValueError when its length is not the targets'."""


def transpose(n, m):
    rows = [[i * m + j for j in range(m)] for i in range(n)]
    return [list(col) for col in zip(*rows)]


def columns(words):
    out = []
    for col in zip(*words):
        out.append("".join(col))
    return out


def unzip(n):
    pairs = [(i, i * i) for i in range(n)]
    firsts, seconds = zip(*pairs)
    return sum(firsts) * 1000 + sum(seconds) + len(firsts)


def widths(n):
    rows = [[j for j in range(i + 2)] for i in range(n)]
    return [len(t) for t in zip(*rows)]




def parse_pair(line):
    a, b = map(int, line.split())
    return a * 100 + b


def unpack_iterators(n):
    d = {i: i * i for i in range(3)}
    x, y, z = d
    p, q = (k * 2 for k in range(2))
    first, *rest = iter([n, n + 1, n + 2])
    (u, v), w = [(1, 2), (3, 4)]
    return [x, y, z, p, q, first, len(rest), u + v, w[0]]


def unpack_wrong_length(n):
    a, b = map(int, ("1 " * n).split())
    return a + b


CASES = [
    (transpose, [2, 3]),
    (transpose, [3, 1]),
    (transpose, [1, 4]),
    (columns, [["abc", "def", "ghij"]]),
    (columns, [["x"]]),
    (unzip, [5]),
    (widths, [3]),
    (widths, [1]),
    (parse_pair, ["12 34"]),
    (parse_pair, [" 7   8 "]),
    (unpack_iterators, [5]),
    (unpack_wrong_length, [2]),
    (unpack_wrong_length, [3]),
    (unpack_wrong_length, [1]),
]
