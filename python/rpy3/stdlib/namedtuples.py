"""`collections.namedtuple` classes, in RPython: a namedtuple class (and a
class of the program deriving from one) stands for a plain class made
here, with the same name and fields, whose instances hold the fields as
attributes and behave as the tuples do: `p.x`, `p[0]`, unpacking,
`len()`, iteration, `==`, ordering, `hash()`, `repr()` as
`Point(x=1, y=2)`, `_replace(x=...)`, `_fields`.  Prebuilt instances
become instances of that class with the same values.

`replacement(obj)` gives the stand-in of a namedtuple class, of a class
deriving from one, or of an instance of either; None for anything else.
(`isinstance(p, tuple)` holds; indexing with an index known at run time
only is not supported: `p[i]` is specialised on the constant `i`.)"""

from rpy3.rlib.objectmodel import specialize

# id(class) -> (class, stand-in)
_classes = {}
# id(instance) -> (instance, stand-in)
_instances = {}


class _Missing(object):
    """The default of `_replace()`'s parameters: a field not given."""

    def _freeze_(self):
        return True


MISSING = _Missing()


def _is_namedtuple_class(cls):
    return (isinstance(cls, type) and issubclass(cls, tuple) and cls is not tuple
            and isinstance(cls.__dict__.get("_fields", None), tuple))


def _nt_base(cls):
    """The namedtuple class `cls` is or derives from, or None."""
    if not isinstance(cls, type) or not issubclass(cls, tuple):
        return None
    for k in cls.__mro__:
        if _is_namedtuple_class(k):
            return k
    return None


def _function(src, fname, env):
    """The function `fname` of source `src` run in namespace `env`."""
    ns = dict(env)
    exec(compile(src, "<namedtuple>", "exec"), ns)
    return ns[fname]


def _repr_method(name, fields):
    selfs = "".join("self.%s, " % f for f in fields)
    fmt = name + "(" + ", ".join("%s=%%r" % f for f in fields) + ")"
    return _function("def __repr__(self):\n    return %r %% (%s)\n" % (fmt, selfs),
                     "__repr__", {})


def _replace_method(cls, fields):
    """`_replace(**changes)`: a new instance of `cls`; one graph per
    combination of the fields given (their defaults are MISSING)."""
    n = len(fields)
    src = ("def _replace(self%s):\n    return CLS(%s)\n" % (
        "".join(", %s=MISSING" % f for f in fields),
        ", ".join("self.%s if %s is MISSING else %s" % (f, f, f) for f in fields)))
    f = _function(src, "_replace", {"CLS": cls, "MISSING": MISSING})
    if n:
        f = specialize.argtype(*range(1, n + 1))(f)
    return f


def _make_class(nt):
    """The stand-in of namedtuple class `nt`."""
    fields = list(nt._fields)
    name = nt.__name__
    n = len(fields)
    selfs = "".join("self.%s, " % f for f in fields)
    others = "".join("other.%s, " % f for f in fields)
    lines = ["class %s(object):" % name,
             "    _rpy3_namedtuple_ = True",
             "    _fields = %r" % (tuple(fields),),
             "    __match_args__ = %r" % (tuple(fields),),
             "    def __init__(self%s):" % "".join(", " + f for f in fields)]
    lines += ["        self.%s = %s" % (f, f) for f in fields] or ["        pass"]
    for op, meth in [("==", "__eq__"), ("!=", "__ne__"), ("<", "__lt__"), ("<=", "__le__"),
                     (">", "__gt__"), (">=", "__ge__")]:
        lines += ["    def %s(self, other):" % meth,
                  "        return (%s) %s (%s)" % (selfs, op, others)]
    lines += [
        "    def __hash__(self):",
        "        return hash((%s))" % selfs,
        "    def __len__(self):",
        "        return %d" % n,
        "    @specialize.arg(1)",
        "    def __getitem__(self, i):",
    ]
    for k, f in enumerate(fields):
        lines.append("        if i == %d or i == %d:" % (k, k - n))
        lines.append("            return self.%s" % f)
    lines += ["        raise IndexError('tuple index out of range')",
              "    def __iter__(self):"]
    lines += ["        yield self.%s" % f for f in fields] or ["        return", "        yield"]
    ns = {"specialize": specialize}
    exec(compile("\n".join(lines) + "\n", "<namedtuple %s>" % name, "exec"), ns)
    cls = ns[name]
    cls.__repr__ = _repr_method(name, fields)
    cls._replace = _replace_method(cls, fields)
    defaults = getattr(nt, "_field_defaults", {})
    if defaults:
        cls.__init__.__defaults__ = tuple(defaults[f] for f in fields[n - len(defaults):])
    cls.__module__ = nt.__module__
    cls.__qualname__ = nt.__qualname__
    return cls


def _make_derived(cls, base_standin):
    """The stand-in of a class of the program deriving from a namedtuple
    class: its methods on the stand-in of its base (shown and replaced
    as its own class, as CPython does)."""
    d = {k: v for k, v in cls.__dict__.items()
         if k not in ("__slots__", "__dict__", "__weakref__", "__new__", "__getnewargs__")}
    new = type(cls.__name__, (base_standin,), d)
    fields = list(base_standin._fields)
    if "__repr__" not in d:
        new.__repr__ = _repr_method(cls.__name__, fields)
    if "_replace" not in d:
        new._replace = _replace_method(new, fields)
    new.__module__ = cls.__module__
    new.__qualname__ = cls.__qualname__
    return new


def replacement_class(cls):
    entry = _classes.get(id(cls))
    if entry is not None and entry[0] is cls:
        return entry[1]
    nt = _nt_base(cls)
    if nt is None:
        return None
    if nt is cls:
        standin = _make_class(cls)
    else:
        parent = cls.__mro__[1]
        standin = _make_derived(cls, replacement_class(parent) or _make_class(nt))
    _classes[id(cls)] = (cls, standin)
    return standin


def replacement(obj):
    """The stand-in of `obj` (see the module's documentation), or None."""
    if isinstance(obj, type):
        return replacement_class(obj)
    if isinstance(obj, tuple) and type(obj) is not tuple:
        cls = replacement_class(type(obj))
        if cls is None:
            return None
        entry = _instances.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        inst = cls.__new__(cls)
        for f, v in zip(type(obj)._fields, obj):
            setattr(inst, f, v)
        # (attributes the program's own class sets are kept)
        for k, v in getattr(obj, "__dict__", {}).items():
            setattr(inst, k, v)
        _instances[id(obj)] = (obj, inst)
        return inst
    return None
