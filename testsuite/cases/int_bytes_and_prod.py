"""`int.to_bytes(length, byteorder)` and `int.from_bytes(b, byteorder)`
(unsigned; CPython's OverflowError when the int does not fit or is
negative), and `math.prod` (ints, floats, an int-or-float product,
`start=`)."""

import math


def to_bytes(n):
    return (n.to_bytes(2, "big"), n.to_bytes(4, "little"), (255).to_bytes(1, "little"), n.to_bytes())


def to_bytes_errors(n):
    try:
        return n.to_bytes(1, "big")
    except OverflowError as e:
        return str(e).encode()


def from_bytes(n):
    b = bytes([1, 2, 3, n])
    return (int.from_bytes(b, "big"), int.from_bytes(b[:2], "little"), int.from_bytes(b"", "big"))


def round_trip(n):
    return int.from_bytes(n.to_bytes(8, "little"), "little") == n


def products(n):
    return (math.prod([1, 2, n]), math.prod([]), math.prod([1.5, 2.0]), math.prod(range(1, n), start=2),
            math.prod([2, 3], start=0.5))


CASES = [
    (to_bytes, [5]),
    (to_bytes, [258]),
    (to_bytes_errors, [300]),
    (to_bytes_errors, [-1]),
    (from_bytes, [7]),
    (round_trip, [123456789]),
    (products, [5]),
]
