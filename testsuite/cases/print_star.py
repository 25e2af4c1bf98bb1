"""`print(*seq)` with a list, a str or a generator whose length is known at
run time only, with `sep=` and `end=` (rpy3.hlbuiltins.rpy_print_star)."""


def lists(n):
    xs = list(range(n))
    print(*xs)
    print(*xs, sep=", ")
    print(*xs, end="|\n")
    print(*[1.5, 2.0], sep="-", end="!\n")
    print(*"abc")
    print(*[])
    return 0


def generated(n):
    print(*(i * i for i in range(n)), sep=":")
    return n


CASES = [
    (lists, [4]),
    (lists, [0]),
    (generated, [5]),
]
