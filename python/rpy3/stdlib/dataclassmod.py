"""`@dataclasses.dataclass` classes, in RPython.

The decorator writes the class's `__init__`, `__repr__`, `__eq__`, the
ordering methods, `__hash__` and, for frozen classes, `__setattr__` and
`__delattr__`, as source it executes; that source relies on things RPython
does not have (`NotImplemented`, `object.__setattr__`, a sentinel default
for fields with a default factory, a recursion guard around `__repr__`).
`prepare(cls)` replaces those generated methods, on the class itself and
before rpy3 reads it, by equivalents written in RPython that compute what
CPython's do:

- `__init__` takes the same parameters in the same order (keyword-only
  fields after `*`, `InitVar`s included), with the same constant defaults;
  a field whose default comes from a factory takes None as its default and
  calls the factory when given None; `__post_init__` is called with the
  `InitVar`s.
- `__repr__` is `Name(x=1, y='a')` with the class's qualified name (of the
  instance's own class, as CPython's).
- `__eq__` compares the fields as a tuple when both are of the same class,
  else is False (CPython's NotImplemented then falls back on identity).
- `__lt__`... compare the fields as tuples; instances of other classes
  raise CPython's TypeError.
- `__hash__` is the hash of the fields' tuple where CPython's is
  (`frozen=True` or `unsafe_hash=True` with `eq`); `__hash__ = None`
  (unhashable) stays.
- Frozen instances: the `__setattr__`/`__delattr__` raising
  FrozenInstanceError are removed (assigning a field of a frozen instance
  is not supported).

Methods the program writes itself are never touched.
"""

import dataclasses

# id(class) -> class, for the classes already prepared (kept alive here)
_prepared = {}

_ORDER = [("__lt__", "<"), ("__le__", "<="), ("__gt__", ">"), ("__ge__", ">=")]


def _generated(cls, name):
    """Whether `cls.name` is a method the dataclass decorator wrote."""
    f = cls.__dict__.get(name)
    # (__repr__ comes wrapped in a recursion guard)
    f = getattr(f, "__wrapped__", f)
    code = getattr(f, "__code__", None)
    return code is not None and code.co_qualname == "__create_fn__.<locals>." + name


def _is_dataclass(cls):
    return isinstance(cls, type) and "__dataclass_fields__" in cls.__dict__


def prepare(cls):
    """Replaces the generated methods of `cls` (and of its dataclass bases)
    if it is a dataclass; anything else is left alone."""
    if not _is_dataclass(cls):
        return
    if _prepared.get(id(cls)) is cls:
        return
    _prepared[id(cls)] = cls
    for base in cls.__mro__[1:]:
        prepare(base)
    params = cls.__dataclass_params__
    all_fields = list(cls.__dataclass_fields__.values())
    fields = [f for f in all_fields if f._field_type is dataclasses._FIELD]
    env = {"__rpy3_cls__": cls}
    if _generated(cls, "__init__"):
        cls.__init__ = _init_method(cls, all_fields, env)
    if _generated(cls, "__repr__"):
        cls.__repr__ = _repr_method(cls, [f for f in fields if f.repr], env)
    compared = [f for f in fields if f.compare]
    if _generated(cls, "__eq__"):
        cls.__eq__ = _eq_method(compared, env)
    for name, op in _ORDER:
        if _generated(cls, name):
            setattr(cls, name, _order_method(name, op, compared, env))
    if _generated(cls, "__hash__"):
        hashed = [f for f in fields if (f.compare if f.hash is None else f.hash)]
        cls.__hash__ = _hash_method(hashed, env)
    if params.frozen:
        for name in ("__setattr__", "__delattr__"):
            if _generated(cls, name):
                delattr(cls, name)


def _function(src, name, env, cls):
    ns = dict(env)
    exec(compile(src, "<dataclass %s>" % cls.__qualname__, "exec"), ns)
    f = ns[name]
    f.__qualname__ = cls.__qualname__ + "." + name
    f.__module__ = cls.__module__
    return f


def _tuple_of(obj, fields):
    return "(" + "".join("%s.%s, " % (obj, f.name) for f in fields) + ")"


def _init_method(cls, all_fields, env):
    params = []
    kwonly = []
    body = []
    for f in all_fields:
        if f._field_type is dataclasses._FIELD_CLASSVAR:
            continue
        is_initvar = f._field_type is dataclasses._FIELD_INITVAR
        has_default = f.default is not dataclasses.MISSING
        has_factory = f.default_factory is not dataclasses.MISSING
        if f.init:
            if has_default:
                env["__rpy3_default_%s__" % f.name] = f.default
                param = "%s=__rpy3_default_%s__" % (f.name, f.name)
            elif has_factory:
                param = "%s=None" % f.name
            else:
                param = f.name
            (kwonly if f.kw_only else params).append(param)
        if is_initvar:
            continue
        if has_factory:
            env["__rpy3_factory_%s__" % f.name] = f.default_factory
            if f.init:
                body.append("    self.%s = __rpy3_factory_%s__() if %s is None else %s"
                            % (f.name, f.name, f.name, f.name))
            else:
                body.append("    self.%s = __rpy3_factory_%s__()" % (f.name, f.name))
        elif f.init:
            body.append("    self.%s = %s" % (f.name, f.name))
        elif has_default:
            env["__rpy3_default_%s__" % f.name] = f.default
            body.append("    self.%s = __rpy3_default_%s__" % (f.name, f.name))
    if hasattr(cls, "__post_init__"):
        initvars = [f.name for f in all_fields if f._field_type is dataclasses._FIELD_INITVAR]
        body.append("    self.__post_init__(%s)" % ", ".join(initvars))
    signature = ["self"] + params
    if kwonly:
        signature += ["*"] + kwonly
    src = "def __init__(%s):\n%s\n" % (", ".join(signature), "\n".join(body) or "    pass")
    return _function(src, "__init__", env, cls)


def _repr_method(cls, fields, env):
    fmt = "(" + ", ".join("%s=%%r" % f.name for f in fields) + ")"
    src = ("def __repr__(self):\n"
           "    return type(self).__qualname__ + %r %% %s\n" % (fmt, _tuple_of("self", fields)))
    return _function(src, "__repr__", env, cls)


def _eq_method(fields, env):
    cls = env["__rpy3_cls__"]
    src = ("def __eq__(self, other):\n"
           "    if isinstance(other, __rpy3_cls__) and type(other) is type(self):\n"
           "        return %s == %s\n"
           "    return False\n" % (_tuple_of("self", fields), _tuple_of("other", fields)))
    return _function(src, "__eq__", env, cls)


def _order_method(name, op, fields, env):
    cls = env["__rpy3_cls__"]
    src = ("def %s(self, other):\n"
           "    if isinstance(other, __rpy3_cls__) and type(other) is type(self):\n"
           "        return %s %s %s\n"
           "    raise TypeError(\"'%s' not supported between instances of '\" + "
           "type(self).__name__ + \"' and '\" + type(other).__name__ + \"'\")\n"
           % (name, _tuple_of("self", fields), op, _tuple_of("other", fields), op))
    return _function(src, name, env, cls)


def _hash_method(fields, env):
    cls = env["__rpy3_cls__"]
    src = "def __hash__(self):\n    return hash(%s)\n" % _tuple_of("self", fields)
    return _function(src, "__hash__", env, cls)
