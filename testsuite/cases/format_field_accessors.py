"""`str.format()` fields that read attributes and items of their argument
(`{0.x}`, `{p.name}`, `{0[1]}`, `{d[key]}`, chained, with conversions and
specs, nested spec fields), `fmt.format(*t)` of a tuple, and `%` with too
few or too many values raising CPython's TypeError."""


class Pt:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    @property
    def norm1(self):
        return abs(self.x) + abs(self.y)


class Named:
    def __init__(self, name, pt):
        self.name = name
        self.pt = pt

    def __repr__(self):
        return "Named(%r)" % self.name


def attr_positional(n):
    return "{0.x},{0.y} {1.x}".format(Pt(n, n + 1), Pt(-n, 0))


def attr_auto(n):
    return "{.x}|{.y:>4}|{}".format(Pt(n, 2), Pt(3, n), n)


def attr_keyword(n):
    p = Named("bob", Pt(n, 7))
    return "{p.name}@{p.pt.x}/{p.pt.y}/{p!r}/{p.name!r}".format(p=p)


def attr_property(n):
    return "{0.norm1:04d}".format(Pt(n, -3))


def item_list(n):
    xs = [n, n * 2, n * 3]
    return "{0[0]}-{0[2]}-{1[1]:+d}".format(xs, [5, -n])


def item_dict(n):
    d = {"a": str(n), "bb": "text"}
    return "{d[a]:>5}|{d[bb]}|{0[bb]!r}".format(d, d=d)


def item_nested(n):
    m = {"k": [n, n + 1], "j": [0]}
    return "{m[k][1]} {m[j][0]} {0}".format(n, m=m)


def item_tuple(n):
    t = (n, "s", 2.5)
    return "{0[0]:x} {0[1]:^5} {0[2]:.3f}".format(t)


def nested_spec(n):
    return "{0[0]:{1}d}|{a.x:.{p}f}|".format([n], 6, a=Pt(n * 1.5, 0.0), p=2)


def item_index_error(n):
    try:
        return "{0[5]}".format([n])
    except IndexError:
        return "IE"


def item_key_error(n):
    try:
        return "{0[zz]}".format({"a": n})
    except KeyError:
        return "KE"


def star_tuple(n):
    args = (n, 2)
    return ("{}-{}".format(*args), "{1}:{0}".format(*args))


def star_mixed(n):
    t = (n, "x")
    return "{} {} {}".format(*t, 3.5)


def percent_too_few(n):
    try:
        return "%d %d" % (n,)
    except TypeError as e:
        return "TE: " + str(e)


def percent_too_many(n):
    try:
        return "%d" % (n, n)
    except TypeError as e:
        return "TE: " + str(e)


def percent_empty_tuple(n):
    try:
        return "%s" % ()
    except TypeError as e:
        return "TE: " + str(e)


CASES = [
    (attr_positional, [3]),
    (attr_auto, [4]),
    (attr_keyword, [5]),
    (attr_property, [-2]),
    (item_list, [2]),
    (item_dict, [9]),
    (item_nested, [1]),
    (item_tuple, [255]),
    (nested_spec, [5]),
    (item_index_error, [1]),
    (item_key_error, [1]),
    (star_tuple, [17]),
    (star_mixed, [4]),
    (percent_too_few, [1]),
    (percent_too_many, [1]),
    (percent_empty_tuple, [1]),
]
