"""`copy.copy` and `copy.deepcopy` of lists, dicts, sets, nested lists
(a board copied before a move), tuples and other immutable values."""
import copy


def boards(n):
    board = [[i * n + j for j in range(n)] for i in range(n)]
    deep = copy.deepcopy(board)
    deep[0][0] = 99
    shallow = copy.copy(board)
    shallow[1] = [7]
    shallow[0][1] = -1
    return [str(board), str(deep), str(shallow)]


def mappings(n):
    d = {"a": [1, 2], "b": [n]}
    d2 = copy.deepcopy(d)
    d2["a"].append(3)
    d3 = copy.copy(d)
    d3["c"] = [0]
    s = copy.deepcopy({1, n})
    s.add(9)
    return [str(d), str(d2), str(sorted(d3)), str(sorted(s))]


def immutables(n):
    t = copy.copy((n, "x"))
    u = copy.deepcopy([(1, 2), (n, 4)])
    return [str(t), str(u), str(copy.copy(n)), copy.deepcopy("abc"), str(copy.copy(2.5))]


CASES = [
    (boards, [3]),
    (mappings, [5]),
    (immutables, [4]),
]
