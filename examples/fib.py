"""A small RPython-style program: `rpy3 run examples/fib.py main 25`."""


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def main(n):
    total = 0
    for i in range(n):
        if fib(i) % 2 == 0:
            total += i
    return (fib(n), total, [fib(k) for k in range(8)])


def entry_point(argv):
    n = int(argv[1]) if len(argv) > 1 else 25
    print(main(n))
    return 0


def target(*args):
    return entry_point, None
