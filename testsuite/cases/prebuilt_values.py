"""Prebuilt range, r_dict and StringBuilder constants used by the program."""
from rpy3.rlib.objectmodel import r_dict
from rpy3.rlib.rstring import StringBuilder

R = range(3, 10, 2)
BACK = range(10, 0, -3)


def prebuilt_range(n):
    total = 0
    for i in BACK:
        total += i
    return sum(R) + len(R) + R[n % len(R)] + total + (7 in R) + (8 in R)


def eq_fn(a, b):
    return a.lower() == b.lower()


def hash_fn(a):
    return len(a)


D = r_dict(eq_fn, hash_fn)
D["Ab"] = 1
D["xyz"] = 2


def prebuilt_rdict(n):
    D["NEW"] = n
    return D.get("aB", 0) * 100 + D["XYZ"] * 10 + D["new"] + len(D)


SB = StringBuilder()
SB.append("pre")


def prebuilt_builder(n):
    SB.append("x" * n)
    return SB.getlength(), SB.build()


CASES = [
    (prebuilt_range, [4]),
    (prebuilt_range, [0]),
    (prebuilt_rdict, [5]),
    (prebuilt_builder, [2]),
]
