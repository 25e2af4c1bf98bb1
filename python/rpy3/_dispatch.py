"""Dispatchers for call families (PyPy's normalizecalls, done by
generating code): when one call site may call functions, methods or
classes whose signatures differ (other defaults, keyword arguments,
`*args`), the rtyper calls a dispatcher made here instead.  The
dispatcher takes exactly the call site's arguments and calls each
candidate directly, so the annotator fills in each one's defaults and
keywords as for any direct call, and every candidate keeps its own
signature.

Dispatchers are cached by their candidates and call shape, so every
rtyping pass finds the same function object (and the graph annotated for
it).
"""

_cache = {}


def _params(npos, kwnames):
    params = ["a%d" % i for i in range(npos)] + ["k_%s" % k for k in kwnames]
    call = ["a%d" % i for i in range(npos)] + ["%s=k_%s" % (k, k) for k in kwnames]
    return params, ", ".join(call)


def _make(name, head, cases, last, namespace):
    lines = ["def %s(%s):" % (name, head)]
    for test, body in cases:
        lines.append("    if %s:" % test)
        lines.append("        return %s" % body)
    lines.append("    return %s" % last)
    code = compile("\n".join(lines) + "\n", "<rpy3 dispatcher %s>" % name, "exec")
    exec(code, namespace)
    return namespace[name]


def _by_identity(kind, name, first, test, candidates, npos, kwnames):
    """`name(first, args...)` calling `c<i>(args...)` for the first
    candidate whose `test` (a format of `first` and `i`) holds."""
    key = (kind, tuple(id(c) for c in candidates), npos, tuple(kwnames))
    if key in _cache:
        return _cache[key][0]
    params, call = _params(npos, kwnames)
    namespace = {"c%d" % i: c for i, c in enumerate(candidates)}
    head = ", ".join([first] + params)
    last = len(candidates) - 1
    cases = [(test % i, "c%d(%s)" % (i, call)) for i in range(last)]
    d = _make(name, head, cases, "c%d(%s)" % (last, call), namespace)
    _cache[key] = (d, candidates)
    return d


def function_dispatcher(funcs, npos, kwnames):
    """`dispatch(which, args...)` calling `funcs[which](args...)`."""
    return _by_identity("f", "dispatch_call", "which", "which == %d", funcs, npos, kwnames)


def _missing_method(clsname, name):
    """What calling a method that the receiver's class lacks raises (a
    base class whose subclasses define it)."""
    raise AttributeError("'%s' object has no attribute '%s'" % (clsname, name))


def method_dispatcher(cases, npos, kwnames, base=None):
    """`dispatch(self, args...)` calling the function of the first class in
    `cases` (pairs of class and function, most derived classes first) that
    `self` is an instance of; AttributeError for an instance of none of
    them (possible when `self`'s class, `base`, is above them all)."""
    key = ("m", tuple((id(c), id(f)) for c, f in cases), npos, tuple(kwnames),
           id(base))
    if key in _cache:
        return _cache[key][0]
    params, call = _params(npos, kwnames)
    namespace = {}
    for i, (c, f) in enumerate(cases):
        namespace["c%d" % i] = c
        namespace["f%d" % i] = f
    head = ", ".join(["self"] + params)
    sep = ", " if call else ""
    covered = base is None or issubclass(base, cases[-1][0])
    checked = len(cases) - 1 if covered else len(cases)
    tests = [("isinstance(self, c%d)" % i, "f%d(self%s%s)" % (i, sep, call))
             for i in range(checked)]
    if covered:
        last = "f%d(self%s%s)" % (len(cases) - 1, sep, call)
    else:
        namespace["_missing_method"] = _missing_method
        last = "_missing_method(type(self).__name__, %r)" % cases[-1][1].__name__
    d = _make("dispatch_method", head, tests, last, namespace)
    _cache[key] = (d, cases)
    return d


def class_dispatcher(classes, npos, kwnames):
    """`dispatch(cls, args...)` instantiating whichever of `classes` `cls`
    is."""
    return _by_identity("c", "dispatch_new", "cls", "cls is c%d", classes, npos, kwnames)


def classmethod_dispatcher(pairs, npos, kwnames):
    """`dispatch(cls, args...)` calling, for whichever class `cls` is, its
    classmethod: `pairs` is [function, class, function, class...] (the
    functions differ)."""
    key = ("cm", tuple(id(x) for x in pairs), npos, tuple(kwnames))
    if key in _cache:
        return _cache[key][0]
    import types
    methods = [types.MethodType(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    params, call = _params(npos, kwnames)
    namespace = {}
    for i, m in enumerate(methods):
        namespace["k%d" % i] = m.__self__
        namespace["m%d" % i] = m
    head = ", ".join(["cls"] + params)
    last = len(methods) - 1
    cases = [("cls is k%d" % i, "m%d(%s)" % (i, call)) for i in range(last)]
    d = _make("dispatch_classmethod", head, cases, "m%d(%s)" % (last, call), namespace)
    _cache[key] = (d, (pairs, methods))
    return d
