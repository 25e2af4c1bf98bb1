"""Built-in functions held in lists, tuples and dicts (`[math.sin,
math.cos]`, `{"abs": abs}`) and called from there."""
import math


def table(x):
    fs = [math.sin, math.cos, math.sqrt]
    out = ["%.6f" % f(x) for f in fs]
    named = {"floor": math.floor, "ceil": math.ceil}
    for k in sorted(named):
        out.append("%s=%d" % (k, named[k](x)))
    pair = (abs, len)
    out.append(str(pair[0](-3)))
    return out


def two_args(n):
    ops = [max, min, pow]
    return [f(n, 3) for f in ops]


CASES = [
    (table, [2.25]),
    (two_args, [2]),
]
