"""Found by the low-level fuzzer (`rpy3 fuzz --lowlevel --seed 5`): the
llinterp computed acosh, asinh and atanh with Rust's formulas, which lose
the last bits (`acosh(2.5)`) and overflow early (`acosh(1e308)` raised
ValueError); CPython, C and native call the C library's."""
import math


def acosh(x):
    return math.acosh(x)


def asinh(x):
    return math.asinh(x)


def atanh(x):
    return math.atanh(x)


CASES = [
    (acosh, [2.5]),
    (acosh, [1e308]),
    (acosh, [1.7976931348623157e308]),
    (acosh, [1.0]),
    (asinh, [1e300]),
    (asinh, [-2.5]),
    (asinh, [1e-300]),
    (atanh, [0.5]),
    (atanh, [-0.999999]),
    (atanh, [1e-20]),
]
