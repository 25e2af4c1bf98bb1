"""Formatting: f-strings and format() with dynamic specifications, %
formatting of every directive with flags, width and precision, float
repr at the switch to scientific notation, negative zero and 'z'."""


def dynamic_spec(n, x, s, spec):
    return (format(n, spec), f"{x:{spec}}", f"{s:{spec}}")


def dynamic_spec_error(n, spec):
    try:
        return format(n, spec)
    except ValueError:
        return "ValueError"


def percent(n, x, s):
    return ("%5d|%-5d|%05d|%+d|% d|%x|%#X|%#o|%c" % (n, n, n, n, n, n, n, n, 65),
            "%.2f|%10.3e|%-8.1f|%08.2f|%+g|%G|%%" % (x, x, x, x, x, x),
            "%s|%r|%5s|%-5s|%.1s|%s|%s|%d" % (s, s, s, s, s, x, n > 0, x))


def reprs(x):
    return (repr(x), str(x), f"{x}", f"{x!r}", f"{x:z.1f}", f"{x:,.2f}")


CASES = [
    (dynamic_spec, [1234, 1234.5, "ab", ">10"]),
    (dynamic_spec, [-7, -0.0, "é", "*^9"]),
    (dynamic_spec, [255, 2.5, "abc", ""]),
    (dynamic_spec, [255, 1e300, "abc", "12"]),
    (dynamic_spec_error, [5, ".2"]),
    (dynamic_spec_error, [5, "x5"]),
    (dynamic_spec_error, [5, ",x"]),
    (dynamic_spec_error, [5, ".2f"]),
    (percent, [42, 3.14159, "hi"]),
    (percent, [-42, -0.0, "it's"]),
    (percent, [0, 1e15, ""]),
    (reprs, [1e16]),
    (reprs, [9999999999999998.0]),
    (reprs, [0.0001]),
    (reprs, [0.00001]),
    (reprs, [-0.04]),
    (reprs, [float("inf")]),
    (reprs, [float("nan")]),
    (reprs, [1234567.125]),
    (reprs, [5e-324]),
]
