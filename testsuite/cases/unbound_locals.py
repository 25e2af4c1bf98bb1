"""Locals bound on some paths only: read where bound they give their
value, read where not bound they raise UnboundLocalError, as in Python."""


class Var(object):
    def __init__(self, name, value):
        self.name = name
        self.value = value


def last_of_loop(n):
    # deltablue's projection_test: the loop's last values used after it
    for i in range(n):
        src = Var("src%d" % i, i)
        dst = Var("dst%d" % i, i * 2)
    return src.value + dst.value


def branch_then_use(n):
    if n > 2:
        y = n * 10
    return y


def elif_chain(n):
    # sudoku's update_neighbours: every branch the program takes binds it
    if n == 0:
        rows = [0, 1, 2]
    elif n == 1:
        rows = [3, 4, 5]
    elif n == 2:
        rows = [6, 7, 8]
    return sum(rows)


def caught(n):
    if n > 2:
        y = n * 10
    try:
        return y
    except UnboundLocalError:
        return -1


def found_in_loop(items, target):
    # dijkstra's finaldist: bound when the loop breaks
    for i in range(len(items)):
        if items[i] == target:
            found = i
            break
    else:
        return -1
    return found


def search(n):
    return found_in_loop([5, 3, 8, 1], n)


def deleted(n):
    x = n + 1
    if n > 5:
        del x
    return x


def string_maybe(n):
    if n % 2 == 0:
        s = "even"
    if n < 10:
        return "small"
    return s


CASES = [
    (last_of_loop, [4]),
    (last_of_loop, [1]),
    (last_of_loop, [0]),
    (branch_then_use, [5]),
    (branch_then_use, [1]),
    (elif_chain, [0]),
    (elif_chain, [2]),
    (elif_chain, [7]),
    (caught, [5]),
    (caught, [0]),
    (search, [8]),
    (search, [2]),
    (deleted, [3]),
    (deleted, [9]),
    (string_maybe, [4]),
    (string_maybe, [12]),
    (string_maybe, [13]),
]
