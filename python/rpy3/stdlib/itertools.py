"""`itertools` for RPython programs: generator functions yielding what
CPython's yield, in the same order.  Tuples have a length known when
translating, so the functions that yield tuples are made for each
constant shape: `product(a, b)` (and `repeat=k`), `combinations(xs, r)`,
`combinations_with_replacement(xs, r)` and `permutations(xs, r)` with a
constant `r` (`permutations(xs)` needs `r`); `count`, `repeat`, `chain`,
`islice`, `accumulate`, `groupby` (each run read ahead into a list),
`zip_longest`, `takewhile`, `dropwhile`, `filterfalse`, `cycle`,
`compress`, `pairwise` and `starmap` are ordinary generators.  The flow space calls
`call_for()` to find the function a call of `itertools.NAME` becomes.
"""

import itertools as _itertools

from rpy3.rlib.objectmodel import specialize

_made = {}


def _make(key, source, name):
    f = _made.get(key)
    if f is None:
        ns = {}
        exec(compile(source, "<rpy3.stdlib.itertools %s>" % name, "exec"), ns)
        f = ns[name]
        f.__module__ = __name__
        nargs = f.__code__.co_argcount
        # one copy per combination of argument types, as every function here
        f._annspecialcase_ = "specialize:argtype(%s)" % ",".join(
            [str(i) for i in range(nargs)])
        _made[key] = f
    return f


def _tuple_of(expr, r):
    if r == 1:
        return "(%s,)" % (expr % 0)
    return "(" + ", ".join([expr % i for i in range(r)]) + ")"


@specialize.argtype(0,1)
def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


@specialize.argtype(0)
def repeat_forever(x):
    while True:
        yield x


@specialize.argtype(0,1)
def repeat(x, times):
    i = 0
    while i < times:
        yield x
        i += 1


@specialize.argtype(0)
def accumulate(iterable):
    first = True
    total = 0
    for x in iterable:
        if first:
            total = x
            first = False
        else:
            total = total + x
        yield total


@specialize.argtype(0,1)
def accumulate_func(iterable, func):
    first = True
    total = 0
    for x in iterable:
        if first:
            total = x
            first = False
        else:
            total = func(total, x)
        yield total


@specialize.argtype(0,1)
def islice_stop(iterable, stop):
    if stop < 0:
        raise ValueError("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    i = 0
    if stop == 0:
        return
    for x in iterable:
        yield x
        i += 1
        if i >= stop:
            return


@specialize.argtype(0,1,2,3)
def islice_range(iterable, start, stop, step):
    if start < 0 or stop < 0:
        raise ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if step <= 0:
        raise ValueError("Step for islice() must be a positive integer or None.")
    nxt = start
    i = 0
    if i >= stop:
        return
    for x in iterable:
        if i == nxt:
            yield x
            nxt += step
        i += 1
        if i >= stop or nxt >= stop:
            return


def chain_of(n):
    """chain(a1, ..., an)."""
    args = ", ".join(["it%d" % i for i in range(n)])
    body = "".join(["    for x in it%d:\n        yield x\n" % i for i in range(n)])
    if n == 0:
        body = "    return\n    yield 0\n"
    src = "def chain(%s):\n%s" % (args, body)
    return _make(("chain", n), src, "chain")


@specialize.argtype(0)
def chain_from_iterable(iterables):
    """chain.from_iterable(its), and chain(*its): the items of each
    iterable in turn, the iterables read lazily."""
    for it in iterables:
        for x in it:
            yield x


def attribute_for(obj, name):
    """What `obj.name` becomes for `obj` a class of the real itertools
    (`chain.from_iterable`), or None."""
    if obj is _itertools.chain and name == "from_iterable":
        return chain_from_iterable
    return None


def star_call_for(func):
    """What `func(*args)` becomes when the number of arguments is known
    at run time only (`chain(*its)`), or None."""
    if func is _itertools.chain:
        return chain_from_iterable
    return None


def product_of(n):
    """product(p1, ..., pn): every pool read first, as CPython does."""
    args = ", ".join(["p%d" % i for i in range(n)])
    lines = ["def product(%s):" % args]
    for i in range(n):
        lines.append("    l%d = list(p%d)" % (i, i))
    indent = "    "
    for i in range(n):
        lines.append("%sfor a%d in l%d:" % (indent, i, i))
        indent += "    "
    lines.append("%syield %s" % (indent, _tuple_of("a%d", n)))
    return _make(("product", n), "\n".join(lines) + "\n", "product")


@specialize.argtype(0)
def product_repeat(pool_it, repeat):
    """product(pool, repeat=n) with n known at run time only: tuples of
    a length known at run time only, in CPython's order."""
    pool = list(pool_it)
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    n = len(pool)
    if repeat > 0 and n == 0:
        return
    indices = [0] * repeat
    while True:
        items = []
        for i in indices:
            items.append(pool[i])
        yield tuple(items)
        k = repeat - 1
        while k >= 0:
            indices[k] += 1
            if indices[k] < n:
                break
            indices[k] = 0
            k -= 1
        if k < 0:
            return


def combinations_of(r):
    src = """def combinations(iterable):
    pool = list(iterable)
    n = len(pool)
    r = %(r)d
    if r > n:
        return
    indices = list(range(r))
    yield %(t)s
    while True:
        i = r - 1
        while i >= 0:
            if indices[i] != i + n - r:
                break
            i -= 1
        if i < 0:
            return
        indices[i] += 1
        j = i + 1
        while j < r:
            indices[j] = indices[j - 1] + 1
            j += 1
        yield %(t)s
""" % {"r": r, "t": _tuple_of("pool[indices[%d]]", r)}
    return _make(("combinations", r), src, "combinations")


def combinations_with_replacement_of(r):
    src = """def combinations_with_replacement(iterable):
    pool = list(iterable)
    n = len(pool)
    r = %(r)d
    if n == 0 and r > 0:
        return
    indices = [0] * r
    yield %(t)s
    while True:
        i = r - 1
        while i >= 0:
            if indices[i] != n - 1:
                break
            i -= 1
        if i < 0:
            return
        v = indices[i] + 1
        j = i
        while j < r:
            indices[j] = v
            j += 1
        yield %(t)s
""" % {"r": r, "t": _tuple_of("pool[indices[%d]]", r)}
    return _make(("cwr", r), src, "combinations_with_replacement")


def permutations_of(r):
    src = """def permutations(iterable):
    pool = list(iterable)
    n = len(pool)
    r = %(r)d
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield %(t)s
    while n:
        i = r - 1
        while i >= 0:
            cycles[i] -= 1
            if cycles[i] == 0:
                first = indices[i]
                k = i
                while k < n - 1:
                    indices[k] = indices[k + 1]
                    k += 1
                indices[n - 1] = first
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[n - j] = indices[n - j], indices[i]
                yield %(t)s
                break
            i -= 1
        if i < 0:
            return
""" % {"r": r, "t": _tuple_of("pool[indices[%d]]", r)}
    return _make(("permutations", r), src, "permutations")


_NOT_CONSTANT = object()


@specialize.argtype(0)
def groupby_plain(iterable):
    """groupby(iterable): (item, iterator over its run).  The runs are
    read ahead, each given as an iterator over a list."""
    cur = []
    group = []
    for x in iterable:
        if len(cur) == 0:
            cur.append(x)
            group.append(x)
        elif x == cur[0]:
            group.append(x)
        else:
            yield (cur[0], iter(group))
            cur[0] = x
            group = [x]
    if len(cur) > 0:
        yield (cur[0], iter(group))


@specialize.argtype(0, 1)
def groupby_key(iterable, key):
    """groupby(iterable, key): see groupby_plain."""
    cur = []
    group = []
    for x in iterable:
        k = key(x)
        if len(cur) == 0:
            cur.append(k)
            group.append(x)
        elif k == cur[0]:
            group.append(x)
        else:
            yield (cur[0], iter(group))
            cur[0] = k
            group = [x]
    if len(cur) > 0:
        yield (cur[0], iter(group))


def zip_longest_of(n):
    """zip_longest(i1, ..., in, fillvalue=f): the iterables are read first."""
    args = ", ".join(["it%d" % i for i in range(n)] + ["fill"])
    lines = ["def zip_longest(%s):" % args]
    for i in range(n):
        lines.append("    l%d = list(it%d)" % (i, i))
    lines.append("    n = 0")
    for i in range(n):
        lines.append("    if len(l%d) > n:" % i)
        lines.append("        n = len(l%d)" % i)
    lines.append("    i = 0")
    lines.append("    while i < n:")
    items = ["(l%d[i] if i < len(l%d) else fill)" % (k, k) for k in range(n)]
    if n == 1:
        lines.append("        yield (%s,)" % items[0])
    else:
        lines.append("        yield (%s)" % ", ".join(items))
    lines.append("        i += 1")
    return _make(("zip_longest", n), "\n".join(lines) + "\n", "zip_longest")


@specialize.argtype(0, 1)
def takewhile(predicate, iterable):
    for x in iterable:
        if not predicate(x):
            return
        yield x


@specialize.argtype(0, 1)
def dropwhile(predicate, iterable):
    dropping = True
    for x in iterable:
        if dropping and predicate(x):
            continue
        dropping = False
        yield x


@specialize.argtype(0, 1)
def filterfalse(predicate, iterable):
    for x in iterable:
        if not predicate(x):
            yield x


@specialize.argtype(0)
def cycle(iterable):
    saved = []
    for x in iterable:
        yield x
        saved.append(x)
    while len(saved) > 0:
        for x in saved:
            yield x


@specialize.argtype(0, 1)
def compress(data, selectors):
    sel = list(selectors)
    i = 0
    for x in data:
        if i >= len(sel):
            return
        if sel[i]:
            yield x
        i += 1


@specialize.argtype(0)
def pairwise(iterable):
    prev = []
    for x in iterable:
        if len(prev) == 0:
            prev.append(x)
        else:
            yield (prev[0], x)
            prev[0] = x


@specialize.argtype(0, 1)
def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


class Unsupported(Exception):
    """A call of itertools that rpy3 cannot translate (the message says why)."""


def call_for(func, consts, kwnames):
    """For a call of `func` (a function of the real itertools) with
    positional arguments whose constant values are `consts` (NOT_CONSTANT
    for a variable) and keywords `kwnames` (the last values): the
    function it becomes and the indices of the arguments to pass on, or
    None when `func` is not one of them.  Raises Unsupported."""
    name = getattr(func, "__name__", None)
    if getattr(_itertools, name or "", None) is not func:
        return None
    npos = len(consts) - len(kwnames)
    pos = consts[:npos]
    kw = dict(zip(kwnames, consts[npos:]))
    everything = list(range(len(consts)))

    def constant_int(v, what):
        if v is _NOT_CONSTANT or not isinstance(v, int) or v < 0:
            raise Unsupported("%s must be a constant non-negative int here" % what)
        return v

    if name == "count":
        if kwnames:
            raise Unsupported("count() with keyword arguments")
        return count, everything
    if name == "repeat":
        if len(consts) == 1:
            return repeat_forever, everything
        return repeat, everything
    if name == "chain" and not kwnames:
        return chain_of(npos), everything
    if name == "islice" and not kwnames:
        if npos == 2:
            if pos[1] is None:
                raise Unsupported("islice() with stop None")
            return islice_stop, everything
        if npos in (3, 4):
            if any(v is None for v in pos[1:]):
                raise Unsupported("islice() with None bounds")
            if npos == 3:
                return islice_range_step1(), everything
            return islice_range, everything
    if name == "accumulate":
        if kwnames or npos not in (1, 2):
            raise Unsupported("accumulate() with initial=")
        if npos == 1:
            return accumulate, everything
        return accumulate_func, everything
    if name == "product":
        times = 1
        if kwnames:
            if list(kwnames) != ["repeat"]:
                raise Unsupported("product() with keywords other than repeat")
            if kw["repeat"] is _NOT_CONSTANT and npos == 1:
                # one pool repeated a number of times known at run time
                return product_repeat, everything
            times = constant_int(kw["repeat"], "product()'s repeat")
        f = product_of(npos * times)
        return f, list(range(npos)) * times
    if name in ("combinations", "combinations_with_replacement", "permutations"):
        if kwnames:
            raise Unsupported("%s() with keyword arguments" % name)
        if npos < 2 or pos[1] is None:
            raise Unsupported(
                "%s() without r: the length of the tuples it yields must be known "
                "when translating (pass r)" % name)
        r = constant_int(pos[1], "%s()'s r" % name)
        maker = {"combinations": combinations_of,
                 "combinations_with_replacement": combinations_with_replacement_of,
                 "permutations": permutations_of}[name]
        return maker(r), [0]
    if name == "groupby":
        if kwnames and list(kwnames) != ["key"]:
            raise Unsupported("groupby() with keywords other than key")
        if npos + len(kwnames) == 1 or (npos == 2 and pos[1] is None):
            return groupby_plain, [0]
        if kwnames and kw["key"] is None:
            return groupby_plain, [0]
        return groupby_key, everything
    if name == "zip_longest":
        if kwnames and list(kwnames) != ["fillvalue"]:
            raise Unsupported("zip_longest() with keywords other than fillvalue")
        f = zip_longest_of(npos)
        if kwnames:
            return f, everything
        return f, list(range(npos)) + [_FILL_NONE]
    if kwnames:
        raise Unsupported("itertools.%s() with keyword arguments" % name)
    simple = {"takewhile": takewhile, "dropwhile": dropwhile,
              "filterfalse": filterfalse, "cycle": cycle, "compress": compress,
              "pairwise": pairwise, "starmap": starmap}
    if name in simple:
        return simple[name], everything
    raise Unsupported("itertools.%s() is not supported" % name)


# in the argument indices call_for returns: pass None there
_FILL_NONE = -1


def islice_range_step1():
    return _islice3


@specialize.argtype(0,1,2)
def _islice3(iterable, start, stop):
    for x in islice_range(iterable, start, stop, 1):
        yield x


NOT_CONSTANT = _NOT_CONSTANT
