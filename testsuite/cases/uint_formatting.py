"""Unsigned machine words (`r_uint`) formatted by `%`, `format()`, f-strings
and `hex()`/`oct()`/`bin()` show their unsigned value, also above maxint."""
from rpy3.rlib.rarithmetic import r_uint


def percent(x):
    u = r_uint(x)
    return ("%d" % u, "%x" % u, "%X" % u, "%o" % u, "%5d" % u, "%s" % u)


def builtins(x):
    u = r_uint(x)
    return (hex(u), oct(u), bin(u), str(u))


def fstrings(x):
    u = r_uint(x)
    return (f"{u:x}", f"{u:>22}", f"{u:,}", f"{u:#b}"[:12], "{:08X}".format(u), format(u, "_x"), f"{u}")


CASES = [
    (percent, [-1]), (percent, [5]), (percent, [-1000]),
    (builtins, [-1]), (builtins, [255]),
    (fstrings, [-1]), (fstrings, [42]),
]
