"""Results that must not be silently wrong: any()/all() stop at the
deciding item, isinstance with a class held in a variable, type(x) == A
(an equality, not "different kinds"), the truth of strs and lists in
any()/all(), str() of a
string that may be None, r_dict with custom key functions."""
from rpy3.rlib.objectmodel import r_dict

LOG = []


def noisy(n):
    for i in range(n):
        LOG.append(i)
        yield i


def any_all_early(n):
    del LOG[:]
    a = any(x > 2 for x in noisy(n))
    k1 = len(LOG)
    b = all(x < 2 for x in noisy(n))
    k2 = len(LOG)
    c = any(noisy(n))
    k3 = len(LOG)
    return (a, k1, b, k2, c, k3)


def any_all_lists(n):
    xs = [i % 3 for i in range(n)]
    return (any(xs), all(xs), any([]), all([]), any(x == 2 for x in xs), all(x < 3 for x in xs))


class Base(object):
    pass


class A(Base):
    pass


class B(Base):
    pass


class C(A):
    pass


def make(k):
    if k == 0:
        return A()
    if k == 1:
        return B()
    if k == 2:
        return C()
    return Base()


def isinstance_var(k):
    x = make(k)
    out = []
    for cls in [A, B, C, Base]:
        out.append(isinstance(x, cls))
    kind = A if k > 1 else B
    out.append(isinstance(x, kind))
    return out


def is_a(x, cls):
    return isinstance(x, cls)


def count_of(items, cls):
    n = 0
    for it in items:
        if isinstance(it, cls):
            n += 1
    return n


def maybe_obj(k):
    if k > 1:
        return None
    return make(k)


def isinstance_param(k):
    items = [make(0), make(1), make(2), make(k)]
    return (is_a(make(k), C), count_of(items, A), count_of(items, Base), count_of(items, C),
            is_a(maybe_obj(k), A))


def type_checks(k):
    x = make(k)
    return (type(x) is A, type(x) is B, type(x) == A, type(x) != C, type(x) == type(make(3)),
            isinstance(True, int), any([[], [1]]), all([[1], []]), any(["", "a"]), all(["a", ""]))


def maybe(s, flag):
    if flag:
        return s
    return None


def str_of_none(s, flag):
    v = maybe(s, flag)
    return str(v) + "/" + repr(v is None)


def key_eq(a, b):
    return a.lower() == b.lower()


def key_hash(a):
    return hash(a.lower())


def rdict_custom(s):
    d = r_dict(key_eq, key_hash)
    for w in s.split():
        d[w] = d.get(w, 0) + 1
    out = []
    for k, v in d.items():
        out.append((k.lower(), v))
    return (sorted(out), len(d), "HELLO" in d)


def mod_eq(a, b):
    return a % 10 == b % 10


def mod_hash(a):
    return a % 10


def rdict_int(n):
    d = r_dict(mod_eq, mod_hash)
    for i in range(n):
        d[i] = i
    return (len(d), d[3], 13 in d, sorted(d.values()))


class Pt(object):
    def __init__(self, x, y):
        self.x = x
        self.y = y


def pt_eq(a, b):
    return a.x == b.x and a.y == b.y


def pt_hash(a):
    return a.x * 31 + a.y


def rdict_instances(n):
    d = r_dict(pt_eq, pt_hash)
    for i in range(n):
        d[Pt(i % 3, 0)] = i
    k = Pt(1, 0)
    v = d.get(k, -1)
    c = k in d
    d.pop(Pt(0, 0))
    return (len(d), v, c, sorted(d.values()), d.get(Pt(9, 9), -5), Pt(2, 0) in d)


def rdict_methods(s):
    d = r_dict(key_eq, key_hash)
    for w in s.split():
        d.setdefault(w, 0)
        d[w] += 1
    e = d.copy()
    del e["A"]
    out = sorted([(k.lower(), v) for k, v in d.items()])
    return (out, len(e), "b" in e, "B" in e, [k.lower() for k in d.keys()],
            sorted(d.values()), e.get("C", -1))


CASES = [
    (any_all_early, [6]),
    (any_all_early, [0]),
    (any_all_lists, [5]),
    (any_all_lists, [1]),
    (isinstance_var, [0]),
    (isinstance_var, [1]),
    (isinstance_var, [2]),
    (isinstance_var, [3]),
    (isinstance_param, [0]),
    (isinstance_param, [2]),
    (type_checks, [0]),
    (type_checks, [1]),
    (type_checks, [2]),
    (type_checks, [3]),
    (str_of_none, ["abc", True]),
    (str_of_none, ["abc", False]),
    (rdict_custom, ["Hello hello World HELLO"]),
    (rdict_int, [25]),
    (rdict_instances, [7]),
    (rdict_methods, ["a A b B c a"]),
]
