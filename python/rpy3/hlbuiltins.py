"""Built-ins the flow space replaces by the RPython functions here, so
that every later stage sees ordinary (generator) functions: `map()` and
`filter()`, each specialised per call site (so every `map(f, xs)` gets
its own graph typed for its function and items); and the plain functions standing for a built-in or an
unbound method of str used as a value (`key=len`, `map(str, xs)`,
`key=str.lower`)."""
from rpy3.rlib.objectmodel import specialize


@specialize.call_location()
def rpy_map(f, it):
    for x in it:
        yield f(x)


@specialize.call_location()
def rpy_map2(f, a, b):
    for x, y in zip(a, b):
        yield f(x, y)


@specialize.call_location()
def rpy_filter(f, it):
    for x in it:
        if f(x):
            yield x


@specialize.call_location()
def rpy_filter_true(it):
    for x in it:
        if x:
            yield x


@specialize.call_location()
def rpy_zip_star(seqs):
    """`zip(*seqs)` when the number of iterables is known at run time only:
    tuples of that many items (the iterables are read first).  No
    comprehensions: their nested functions would be shared by the
    specialisations."""
    lists = []
    for s in seqs:
        lists.append(list(s))
    if len(lists) == 0:
        return
    n = len(lists[0])
    for l in lists:
        if len(l) < n:
            n = len(l)
    for i in range(n):
        items = []
        for l in lists:
            items.append(l[i])
        yield tuple(items)


@specialize.argtype(0, 1)
def rpy_sum_seq(items, start):
    """sum(items, start) of lists (or tuples of run-time length): CPython
    adds them in turn, each sum a new sequence (start itself when there is
    nothing to add)."""
    result = start
    for x in items:
        result = result + x
    return result


@specialize.argtype(0)
def rpy_print_star(seq, sep=" ", end="\n"):
    """`print(*seq, sep=sep, end=end)` when the number of items is known at
    run time only: the text of each item (as print shows it), joined."""
    text = ""
    first = True
    for x in seq:
        if not first:
            text += sep
        text += str(x)
        first = False
    print(text, end=end)


@specialize.argtype(0)
def rpy_print_star_end(seq, end):
    """`print(*seq, end=end)`: see rpy_print_star."""
    rpy_print_star(seq, " ", end)


@specialize.argtype(0)
def rpy_iterate(obj):
    """The items of an instance whose class defines `__iter__` (returning
    an iterator instance or a generator), as a generator: what a built-in
    iterating over such an instance (`sum(obj)`, `list(obj)`) consumes."""
    for x in obj:
        yield x


_WRAPPERS = {}


def key_wrapper(f):
    """A plain function calling built-in `f` on its argument (`key=len`),
    one per built-in: the rtyper passes its pointer where a key function
    is expected.  Not RPython itself: run when translating."""
    w = _WRAPPERS.get(f)
    if w is None:
        def w(x):
            return f(x)
        w.__name__ = "key_" + getattr(f, "__name__", "builtin")
        _WRAPPERS[f] = w
    return w


def value_wrapper(f):
    """A plain function calling built-in `f` with its arguments, for a
    built-in held in a container (`[math.sin, math.cos]`, `{"abs": abs}`):
    functions unite where built-ins do not.  One per built-in; not RPython
    itself: run when translating."""
    key = ("value", f)
    w = _WRAPPERS.get(key)
    if w is None:
        def w(*args):
            return f(*args)
        w.__name__ = getattr(f, "__name__", "builtin")
        w.__qualname__ = w.__name__
        _WRAPPERS[key] = w
    return w


def method_wrapper(m):
    """A plain function standing for the unbound method `m` of str or
    bytes (`key=str.lower`): `def lower(x): return x.lower()`, one per
    method.  Not RPython itself: run when translating."""
    w = _WRAPPERS.get(m)
    if w is None:
        name = m.__name__
        if not name.isidentifier():
            raise ValueError(name)
        ns = {"__name__": __name__}
        exec("def %s(x):\n    return x.%s()\n" % (name, name), ns)
        w = ns[name]
        w.__qualname__ = "%s.%s" % (m.__objclass__.__name__, name)
        _WRAPPERS[m] = w
    return w


@specialize.call_location()
def rpy_sort_by_key(items, key, reverse):
    """`items.sort(key=key, reverse=reverse)` for a key that is a closure
    (an instance with `__call__`): the keys computed once per item, then a
    stable merge sort comparing them with `<` only, as CPython's sort does
    (reversed: stable too, equal keys keep their order).  No
    comprehensions: their nested functions would be shared by the
    specialisations."""
    n = len(items)
    keys = []
    for x in items:
        keys.append(key(x))
    order = []
    for i in range(n):
        order.append(i)
    spare = order[:]
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width
            if mid > n:
                mid = n
            hi = lo + 2 * width
            if hi > n:
                hi = n
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                a = keys[order[i]]
                b = keys[order[j]]
                if reverse:
                    right_first = a < b
                else:
                    right_first = b < a
                if right_first:
                    spare[k] = order[j]
                    j += 1
                else:
                    spare[k] = order[i]
                    i += 1
                k += 1
            while i < mid:
                spare[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                spare[k] = order[j]
                j += 1
                k += 1
            lo = hi
        order, spare = spare, order
        width *= 2
    copy = items[:]
    for i in range(n):
        items[i] = copy[order[i]]


@specialize.call_location()
def rpy_extreme_key(items, key, largest):
    """`max(items, key=key)` (`largest`) or `min(...)` for a key that is a
    closure: the first item whose key is extreme, ValueError when there
    is none."""
    it = iter(items)
    try:
        best = next(it)
    except StopIteration:
        raise ValueError("max() arg is an empty sequence" if largest
                         else "min() arg is an empty sequence")
    best_key = key(best)
    for x in it:
        k = key(x)
        if (best_key < k) if largest else (k < best_key):
            best = x
            best_key = k
    return best


@specialize.call_location()
def rpy_extreme_key_default(items, key, largest, default):
    """`max(items, key=key, default=d)` or `min(...)`: `default` when
    there is no item."""
    found = False
    best = default
    best_key = None
    for x in items:
        k = key(x)
        if not found:
            found = True
            best = x
            best_key = k
        elif (best_key < k) if largest else (k < best_key):
            best = x
            best_key = k
    return best


@specialize.argtype(0)
def rpy_strs(seq):
    """The strs of the items of `seq` (the starred arguments of
    `print(a, *seq)`, shown as print shows them)."""
    # (a loop, not a comprehension: the comprehension's function would
    # be one for every specialisation)
    out = []
    for x in seq:
        out.append(str(x))
    return out


@specialize.argtype(0, 1)
def rpy_next_default(it, default):
    """`next(it, default)` where the default is of another kind than the
    items (None after ints): the result is their union."""
    try:
        return next(it)
    except StopIteration:
        return default


# (id(code), offset) -> (code, class)
_method_keys = {}


def method_key_class(code, offset):
    """The class whose instances stand for a method read from an object
    and passed as a key function at one call site (`max(d, key=d.get)`):
    made with the bound method, called with an item, it calls it.  One
    class per call site, so that different methods never meet."""
    k = (id(code), offset)
    entry = _method_keys.get(k)
    if entry is not None and entry[0] is code:
        return entry[1]

    class MethodKey(object):
        def __init__(self, method):
            self.method = method

        def __call__(self, x):
            return self.method(x)

    MethodKey.__qualname__ = "<key at %s:%d>" % (code.co_qualname, offset)
    _method_keys[k] = (code, MethodKey)
    return MethodKey


def int_to_bytes(n, length=1, byteorder="big"):
    """n.to_bytes(length, byteorder) (unsigned, as the default
    signed=False): OverflowError when n does not fit, as CPython's."""
    if n < 0:
        raise OverflowError("can't convert negative int to unsigned")
    if byteorder != "big" and byteorder != "little":
        raise ValueError("byteorder must be either 'little' or 'big'")
    if length < 0:
        raise ValueError("length argument must be non-negative")
    digits = []
    x = n
    i = 0
    while i < length:
        digits.append(x & 255)
        x = x >> 8
        i += 1
    if x != 0:
        raise OverflowError("int too big to convert")
    if byteorder == "big":
        digits.reverse()
    return bytes(digits)


def int_from_bytes(b, byteorder="big"):
    """int.from_bytes(b, byteorder) (unsigned): an int past the machine
    word raises OverflowError, as every int operation of a program."""
    if byteorder != "big" and byteorder != "little":
        raise ValueError("byteorder must be either 'little' or 'big'")
    n = len(b)
    r = 0
    i = 0
    while i < n:
        if byteorder == "big":
            c = b[i]
        else:
            c = b[n - 1 - i]
        r = r * 256 + c
        i += 1
    return r


def _translated(v):
    """The text a translation table's value stands for: a code point or a
    str."""
    if isinstance(v, int):
        return chr(v)
    return v


@specialize.argtype(1)
def str_translate(s, table):
    """s.translate(table) for a dict from code points to code points, strs
    or None (deleted)."""
    parts = []
    for c in s:
        o = ord(c)
        if o in table:
            v = table[o]
            if v is None:
                continue
            parts.append(_translated(v))
        else:
            parts.append(c)
    return "".join(parts)


@specialize.argtype(2)
def str_maketrans(x, y, z=None):
    """str.maketrans(x, y[, z]): x's characters to y's, z's to None."""
    if len(x) != len(y):
        raise ValueError("the first two maketrans arguments must have equal length")
    d = {}
    for i in range(len(x)):
        d[ord(x[i])] = ord(y[i])
    if z is not None:
        for c in z:
            d[ord(c)] = None
    return d


_METHOD_HELPERS = {("int", "to_bytes"): int_to_bytes, ("str", "translate"): str_translate}


def method_helper(kind, name):
    """The function implementing method `name` of built-in values of
    `kind`, or None."""
    return _METHOD_HELPERS.get((kind, name))
