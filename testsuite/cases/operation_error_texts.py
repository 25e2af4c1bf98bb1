"""The text of exceptions raised by operations and built-ins, as `str(e)`
shows it: division and modulo by zero of ints and floats, math domain
errors, int() and float() of bad strings, KeyError of a missing key,
list.index of a missing item."""
import math


def divisions(z):
    out = []
    try:
        out.append(str(1.0 / float(z)))
    except ZeroDivisionError as e:
        out.append(str(e))
    try:
        out.append(str(7 // z))
    except ZeroDivisionError as e:
        out.append(str(e))
    try:
        out.append(str(7 % z))
    except ZeroDivisionError as e:
        out.append(str(e))
    try:
        out.append(str(7 / z))
    except ZeroDivisionError as e:
        out.append(str(e))
    try:
        out.append(str(2.5 // float(z)))
    except ZeroDivisionError as e:
        out.append(str(e))
    try:
        out.append(str(2.5 % float(z)))
    except ZeroDivisionError as e:
        out.append(str(e))
    return out


def maths(x):
    out = []
    for f in [math.sqrt, math.log, math.acos]:
        try:
            out.append(str(f(x)))
        except ValueError as e:
            out.append("ValueError: %s" % e)
    try:
        out.append(str(math.exp(x * 1000.0)))
    except OverflowError as e:
        out.append("OverflowError: %s" % e)
    return out


def conversions(s):
    out = []
    try:
        out.append(str(int(s)))
    except ValueError as e:
        out.append(str(e))
    try:
        out.append(str(float(s)))
    except ValueError as e:
        out.append(str(e))
    return out


def lookups(n):
    d = {"a": 1}
    out = []
    try:
        out.append(str(d["k%d" % n]))
    except KeyError as e:
        out.append(str(e))
    nums = {1: 2}
    try:
        out.append(str(nums[n]))
    except KeyError as e:
        out.append(str(e))
    xs = [1, 2, 3]
    try:
        out.append(str(xs.index(n)))
    except ValueError as e:
        out.append(str(e))
    words = ["x", "y"]
    try:
        out.append(str(words.index("z%d" % n)))
    except ValueError as e:
        out.append(str(e))
    return out


CASES = [
    (divisions, [0]),
    (divisions, [2]),
    (maths, [-1.0]),
    (maths, [0.5]),
    (maths, [0.0]),
    (conversions, ["abc"]),
    (conversions, [" 12 "]),
    (conversions, ["1.5x"]),
    (lookups, [9]),
    (lookups, [2]),
]
