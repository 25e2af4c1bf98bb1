"""Variables that nested functions assign (`nonlocal`, and `:=` in a
comprehension): they live in a box shared by the functions."""


def counter(n):
    total = 0
    def add(x):
        nonlocal total
        total += x
    for i in range(n):
        add(i)
    return total


def walrus_comp(n):
    ys = [y for x in range(n) if (y := x * x) % 2 == 0]
    return (ys, y)


def make_acc(start):
    acc = start
    def step(k):
        nonlocal acc
        acc = acc * 2 + k
        return acc
    return step


def closures(n):
    f = make_acc(n)
    a = f(1)
    b = f(2)
    return (a, b)


def param_cell(n):
    def bump():
        nonlocal n
        n += 10
    bump()
    bump()
    return n


def nested_twice(n):
    count = 0
    def outer():
        def inner():
            nonlocal count
            count += 1
        inner()
        inner()
    outer()
    outer()
    return count + n


def reader_and_writer(n):
    state = "a"
    def read():
        return state
    def write(s):
        nonlocal state
        state = s
    before = read()
    write("b" * n)
    return before + read()


def make_counter():
    count = 0

    def inc():
        nonlocal count
        count += 1
        return count
    return inc


INC = make_counter()


def prebuilt_closure(n):
    a = INC()
    for i in range(n):
        INC()
    return INC() - a


CASES = [
    (prebuilt_closure, [3]),
    (counter, [5]), (counter, [0]),
    (walrus_comp, [6]),
    (closures, [3]),
    (param_cell, [1]),
    (nested_twice, [3]),
    (reader_and_writer, [2]),
]
