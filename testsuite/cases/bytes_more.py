"""bytes with int needles (`b.find(98)`, `count`, `index`, and their
ValueError outside 0..255), bytes fills of ljust/rjust/center, and
enumerate()/zip() over bytes."""


def int_needles(b):
    out = [b.find(98), b.count(97), b.rfind(97), int(99 in b)]
    try:
        out.append(b.index(122))
    except ValueError:
        out.append(-2)
    try:
        out.append(b.find(300))
    except ValueError:
        out.append(-3)
    return out


def fills(b):
    return (b.ljust(6, b"."), b.rjust(6, b"."), b.center(7, b"*"), b.ljust(1, b"-"))


def iterate(b):
    return ([(i, x) for i, x in enumerate(b)], list(zip(b, b[1:])), [i * x for i, x in enumerate(b, 1)])


CASES = [
    (int_needles, [b"abcab"]),
    (int_needles, [b""]),
    (fills, [b"ab"]),
    (fills, [b""]),
    (iterate, [b"abc"]),
    (iterate, [b""]),
]


def int_of_bytes(b):
    try:
        return int(b) * 2
    except ValueError:
        return -1


CASES += [(int_of_bytes, [b'42']), (int_of_bytes, [b' -7 ']), (int_of_bytes, [b'x1']),
          (int_of_bytes, [b'1_000'])]
