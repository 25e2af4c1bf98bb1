"""str.format() with automatic and explicit positions, conversions,
format specifications, escaped braces, and methods of constant strings."""


def fmt(a, b, s):
    return ("{} and {}".format(a, b), "{1}{0}{1}".format(a, s),
            "{{x}} {0!r:>8} {0!s}".format(s), "{:08.3f}|{:+,}".format(b, a),
            "{}".format(a > 0), "-".format())


def const_methods(s):
    return ("abc".upper(), ",".find(s), "a-b-c".replace("-", s))


CASES = [
    (fmt, [1234567, 2.5, "it's"]),
    (fmt, [-3, -0.0, ""]),
    (const_methods, [","]),
    (const_methods, ["xy"]),
]
