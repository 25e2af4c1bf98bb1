"""Found by `rpy3 fuzz`: CPython's compiler folds `10 * 9223372036854775807`
into one constant outside the machine word; `intmask()` of it must be
folded before the annotator sees the constant."""
from rpy3.rlib.rarithmetic import intmask


def folded(x):
    return intmask(10 * 9223372036854775807) + x


def not_folded(x):
    return intmask(x * 9223372036854775807)


CASES = [
    (folded, [0]),
    (folded, [3]),
    (not_folded, [10]),
    (not_folded, [-3]),
]
