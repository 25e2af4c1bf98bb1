"""`print(*seq)` with a list, a str or a generator whose length is known at
run time only, with `sep=` and `end=` (rpy3.hlbuiltins.rpy_print_star),
also after and before other arguments of any type (`print("n:", *ints)`:
the strs of all the arguments)."""


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


def mixed(n):
    xs = list(range(n))
    print("label:", *xs)
    print("a", 2, *xs, sep=",")
    print(*xs, "end", end="|\n")
    print("pre", *xs, 3.5, *["s", "t"], sep="-")
    print(1.5, *[x * 0.5 for x in xs])
    print(None, True, *xs, sep="")
    return n


CASES = [
    (lists, [4]),
    (lists, [0]),
    (generated, [5]),
    (mixed, [3]),
    (mixed, [0]),
]
