"""What `object` gives a class of the program that defines no `__str__`
or `__repr__` while some of its subclasses do: `str(x)` of an instance
known only as the base class then dispatches on its class like any
method.  The base class gets these two (its own instances show as
`<Name object>`: CPython shows an address there, which no program can
rely on)."""


from rpy3.rlib.objectmodel import specialize


def default_repr(self):
    return "<%s object>" % type(self).__name__


def default_str(self):
    return repr(self)


def install(cls):
    """Gives `cls` the defaults it lacks (its MRO, but for `object`,
    defines neither)."""
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = default_repr
    if "__str__" not in cls.__dict__:
        cls.__str__ = default_str


# ids of the classes -> (classes, keeps, dispatcher)
_exception_dispatchers = {}


def exception_str_dispatcher(classes, keeps):
    """`str(e)` of an exception known as a class whose subclasses
    `classes` define `__str__`: theirs for their instances, else the text
    of the exception's arguments (what rpy3 keeps in `__rpy3_message__`
    when `keeps`; CPython's own `__str__`)."""
    key = (tuple(id(k) for k in classes), keeps)
    entry = _exception_dispatchers.get(key)
    if entry is not None and entry[0] == classes:
        return entry[1]
    ns = {}
    lines = ["def exception_str(e):"]
    for i, k in enumerate(classes):
        ns["K%d" % i] = k
        lines.append("    if isinstance(e, K%d):" % i)
        lines.append("        return e.__str__()")
    if keeps:
        lines.append("    m = e.__rpy3_message__")
        lines.append("    if m is None:")
        lines.append("        return ''")
        lines.append("    return m")
    else:
        lines.append("    return ''")
    exec(compile("\n".join(lines) + "\n", "<exception str>", "exec"), ns)
    f = ns["exception_str"]
    _exception_dispatchers[key] = (classes, f)
    return f


@specialize.argtype(0)
def contains_by_iteration(container, item):
    """`item in container` where its class defines `__iter__` but not
    `__contains__`: CPython goes over the items."""
    for x in container:
        if x == item:
            return True
    return False


@specialize.argtype(0)
def str_or_none(x):
    """str() of a value that may be None (an instance, a tuple)."""
    if x is None:
        return "None"
    return str(x)


@specialize.argtype(0)
def repr_or_none(x):
    """repr() of a value that may be None."""
    if x is None:
        return "None"
    return repr(x)


@specialize.argtype(0)
def ascii_or_none(x):
    """ascii() of a value that may be None."""
    if x is None:
        return "None"
    return ascii(x)


@specialize.argtype(0)
def reverse_by_index(obj):
    """`reversed(obj)` where its class defines `__len__` and
    `__getitem__` but not `__reversed__`: items len(obj) - 1 down to 0."""
    i = len(obj) - 1
    while i >= 0:
        yield obj[i]
        i -= 1


@specialize.argtype(0)
def iterate_by_index(obj):
    """`iter(obj)` where its class defines `__getitem__` but not
    `__iter__`: CPython's old protocol, items 0, 1, ... until IndexError."""
    i = 0
    while True:
        try:
            x = obj[i]
        except IndexError:
            return
        yield x
        i += 1
