"""`fmt % mapping` with `%(key)s` directives (flags and widths too, `%%`,
KeyError for a missing key), `max(*seq)` / `min(*seq)` of a list, ints to
negative constant powers, and `str.format()` specs holding fields of
their own (`{:{width}}`)."""


def mapping(n):
    d = {"name": "bob", "age": "%d" % n}
    return "%(name)s is %(age)s years; %(name)-6s|%%|%(name)r" % d


def mapping_numbers(n):
    d = {"x": n, "y": n * 2}
    return ("%(x)d+%(y)05d=%(x)x" % d, "%(y)s" % d)


def missing_key(n):
    d = {"x": n}
    try:
        return "%(z)d" % d
    except KeyError:
        return "missing"


def star_extremes(n):
    l = [n, 3, 9, -1]
    return (max(*l), min(*l), max(*[n, 2]), min(*[str(n), "b"]))


CASES = [
    (mapping, [3]),
    (mapping_numbers, [4]),
    (missing_key, [1]),
    (star_extremes, [4]),
    (star_extremes, [12]),
]


def negative_powers(n):
    return (n ** -1, n ** -2, 10 ** -3, n ** 2, pow(n, -1), (n + 0.5) ** -1)


CASES += [(negative_powers, [2]), (negative_powers, [-4])]


def nested_specs(n, x):
    return ("{:{}}".format(n, 5), "{0:0{1}d}".format(n, 6), "{:.{}}".format("abcdef", 2),
            "{:>{w}.{p}f}|{:^{w}}".format(x, "ab", w=9, p=2),
            "[{:{fill}<{width}}]".format(n, fill="*", width=6))


CASES += [(nested_specs, [42, 3.14159]), (nested_specs, [-7, -0.5])]


def int_precisions(n):
    return ("%.3d" % n, "%5.3d|%-6.3d|%05.3d|%+.4d|%.3x|%#.4x|%.0d|%.2i" % (n, n, n, n, n, n, n, n),
            "%#08.3x|%08.3o|% .3d" % (n, n, n))


CASES += [(int_precisions, [5]), (int_precisions, [-5]), (int_precisions, [0]),
          (int_precisions, [123456])]
