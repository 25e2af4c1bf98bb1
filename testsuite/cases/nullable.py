"""Values that may be None: lists, dicts, strs and instances held as null
pointers, str() of such a str, and identity and equality of functions,
classes and None."""


class Item:
    def __init__(self, v):
        self.v = v
        self.tags = None
        self.name = None
        self.next = None


class Special(Item):
    pass


def total(lst):
    if lst is None:
        return -1
    s = 0
    for x in lst:
        s += x
    return s


def lists(n):
    a = total(None)
    b = total([n, n + 1])
    c = total([])
    return a * 100 + b * 10 + c


def truth(lst):
    if lst:
        return len(lst)
    if lst is None:
        return -1
    return 0


def list_truth(n):
    return [truth(None), truth([]), truth([n] * n)]


def lookup(d, key):
    if d is None:
        return -1
    if d == None:
        return -2
    return d.get(key, 0)


def dicts(n):
    d = {"a": n}
    return [lookup(None, "a"), lookup(d, "a"), lookup(d, "b")]


def tag_count(n):
    items = [Item(i) for i in range(n)]
    for it in items:
        if it.v % 2 == 0:
            it.tags = ["even"]
        if it.v % 3 == 0:
            if it.tags is None:
                it.tags = []
            it.tags.append("three")
    out = []
    for it in items:
        if it.tags is None:
            out.append("-")
        else:
            out.append("+".join(it.tags))
    return out


def describe(name):
    return str(name) + "|" + repr(name) + "|%s|" % name + f"{name}"


def strs(n):
    it = Item(n)
    first = describe(it.name)
    if n > 0:
        it.name = "item%d" % n
    second = describe(it.name)
    return [first, second, str(it.name == None), str(it.name is None)]


def name_or_default(name):
    if name:
        return name
    return "default"


def str_truth(n):
    it = Item(n)
    a = name_or_default(it.name)
    it.name = ""
    b = name_or_default(it.name)
    it.name = "x" * n
    c = name_or_default(it.name)
    return a + "," + b + "," + c


def chain_length(n):
    head = None
    for i in range(n):
        node = Item(i)
        node.next = head
        head = node
    count = 0
    while head is not None:
        count += 1
        head = head.next
    return count


def pick(n):
    if n == 0:
        return None
    if n == 1:
        return Item(1)
    return Special(2)


def instances(n):
    x = pick(n)
    return (x is None, x == None, x != None, isinstance(x, Special))


def double(x):
    return x * 2


def square(x):
    return x * x


def functions(n):
    f = double if n > 0 else square
    g = square
    fs = [double, square]
    h = fs[n % 2]
    return (f is g, f is double, f == g, h is f, h(n) + f(n))


def maybe_function(n):
    f = None
    if n > 2:
        f = double
    if f is None:
        return -1
    return f(n)


def classes(n):
    c = Item if n > 0 else Special
    d = None if n > 5 else c
    return (c is Item, c is Special, d is None, d is c, c == Special, c != Item)


def make(cls, n):
    if cls is None:
        return -1
    return cls(n).v


def class_or_none(n):
    return [make(None, n), make(Item, n), make(Special, n)]


class Obj:
    def __init__(self, name):
        self.name = name


def defaults(x, lst=None, name=None):
    if lst is None:
        lst = []
    lst.append(x)
    if name is None:
        name = "anon"
    return name + str(len(lst))


def use_defaults(n):
    return [defaults(n), defaults(n, [1, 2]), defaults(n, None, "bob")]


def or_default(s):
    t = s or "empty"
    return t


def use_or(n):
    a = None
    if n > 1:
        a = "v" * n
    return or_default(a) + or_default("") + or_default("q")


def list_or(lst):
    lst = lst or [0]
    return len(lst)


def use_list_or(n):
    return list_or(None) * 100 + list_or([]) * 10 + list_or([n, n])


def registry(n):
    d = {}
    for i in range(n):
        d["k%d" % i] = Obj("o%d" % i)
    found = d.get("k1")
    missing = d.get("zz")
    r = []
    r.append(found.name if found is not None else "-")
    r.append(missing.name if missing is not None else "-")
    return r


def not_list(lst):
    if not lst:
        return "nothing"
    return "some"


def use_not(n):
    return [not_list(None), not_list([]), not_list([n])]


def starts(s):
    return s is not None and s.startswith("a")


def use_starts(n):
    return [starts(None), starts("abc"), starts("xbc")]


def len_or_zero(s):
    return len(s) if s else 0


def use_len(n):
    return len_or_zero(None) + len_or_zero("abc" * n)


def maybe_pair(n):
    if n > 0:
        return [n, n]
    return None


def eq_lists(n):
    a = maybe_pair(n)
    b = maybe_pair(n)
    return (a == b, a is b, a is None)


def dict_none(n):
    d = None
    if n > 0:
        d = {n: "x"}
    return (d is None, d == None, d != None)


def ident(x):
    return x


def int_none(n):
    return (n == None, n != None, n is None, n is not None)


def str_none(s):
    return (s == None, s != None, s is None)


def list_none(n):
    l = [n]
    return (l == None, l is None, None == l)


def func_cmp(n):
    f = ident
    return (f == None, f is None, f is ident, f == ident)


class Marker:
    pass


def cls_cmp(n):
    c = Marker
    return (c is None, c == Marker, c is Marker, Marker is None)


def float_none(x):
    return x == None


def maybe_set(n):
    s = None
    if n > 0:
        s = {n, n + 1}
    return s


def use_set(n):
    a = maybe_set(n)
    b = maybe_set(0)
    return (a is None, b is None, len(a) if a is not None else -1)


def lists_of_maybe_lists(n):
    rows = []
    for i in range(n):
        if i % 2:
            rows.append(None)
        else:
            rows.append([i] * i)
    total = 0
    for r in rows:
        if r is not None:
            total += len(r)
        else:
            total += 100
    return total


def dict_of_maybe(n):
    d = {}
    for i in range(n):
        d[i] = [i] if i % 2 else None
    c = 0
    for k in d:
        v = d[k]
        if v is None:
            c += 1
    return c


def maybe_str_list(n):
    out = []
    for i in range(n):
        out.append(None if i % 2 else "s%d" % i)
    return [str(x) for x in out]


CASES = [
    (lists, [3]),
    (list_truth, [2]),
    (dicts, [5]),
    (tag_count, [7]),
    (strs, [0]),
    (strs, [4]),
    (str_truth, [2]),
    (chain_length, [0]),
    (chain_length, [4]),
    (instances, [0]),
    (instances, [1]),
    (instances, [2]),
    (functions, [0]),
    (functions, [1]),
    (functions, [3]),
    (maybe_function, [1]),
    (maybe_function, [5]),
    (classes, [1]),
    (classes, [0]),
    (classes, [9]),
    (class_or_none, [4]),
    (use_defaults, [3]),
    (use_or, [0]),
    (use_or, [3]),
    (use_list_or, [2]),
    (registry, [3]),
    (use_not, [1]),
    (use_starts, [0]),
    (use_len, [2]),
    (eq_lists, [1]),
    (eq_lists, [0]),
    (dict_none, [0]),
    (dict_none, [2]),
    (int_none, [3]),
    (str_none, ["a"]),
    (list_none, [1]),
    (func_cmp, [0]),
    (cls_cmp, [0]),
    (float_none, [1.5]),
    (use_set, [3]),
    (lists_of_maybe_lists, [5]),
    (dict_of_maybe, [5]),
    (maybe_str_list, [4]),
]
